"""Commands of reference figures for one shoe: ``odds``, ``edges``, ``parsheet``, ``symbolic``, ``report``,
``sidebets``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from exact_odds.cli.options import (
    Subparsers,
    add_bets_option,
    add_config_option,
    add_format_options,
    add_shoe_options,
    bet_names,
    bets_from_args,
    configs_from_args,
    render,
    shoe_from_args,
    tableau_from_args,
)

if TYPE_CHECKING:
    from exact_odds.shoe import Shoe
    from exact_odds.tableau import Tableau


def _cmd_odds(args: argparse.Namespace) -> str:
    from exact_odds.engine import deal, winners
    from exact_odds.report import odds_json, odds_table

    shoe = shoe_from_args(args)
    if args.dealt:
        return _dealt_odds(args, shoe, tableau_from_args(args))
    dist = winners(deal(shoe, tableau_from_args(args)))
    counts = {k: dist[k] for k in ("banker", "player", "tie")}
    return render(args, lambda: odds_json(None if shoe.infinite else shoe.size, counts, dist.total),
                   lambda: [odds_table(str(shoe), counts, dist.total, infinite=shoe.infinite)])


def _dealt_odds(args: argparse.Namespace, shoe: Shoe, tableau: Tableau) -> str:
    """``odds --dealt``: the exact odds given the cards already dealt in this coup."""
    from exact_odds.conditional import deal_given, parse_dealt
    from exact_odds.engine import winners
    from exact_odds.report import dealt_odds_text

    dealt = parse_dealt(args.dealt)
    return dealt_odds_text(shoe, dealt, winners(deal_given(shoe, dealt, tableau)), args.format)


def _add_odds(sub: Subparsers) -> None:
    p = sub.add_parser("odds", help="exact banker, player and tie odds of a shoe",
                       description="Exact banker, player and tie odds of one coup from a shoe.")
    add_shoe_options(p)
    p.add_argument("--dealt", metavar="CARDS",
                   help="cards already dealt in this coup, e.g. 'P: 9h 4c B: Kd': the odds of the rest of the coup")
    add_format_options(p)
    p.set_defaults(handler=_cmd_odds)


def _cmd_edges(args: argparse.Namespace) -> str:
    from exact_odds.edges import configuration_sheets
    from exact_odds.report import edges_json, edges_table

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    sheets = [(config, configuration_sheets(shoe, config, tableau=tableau)) for config in configs_from_args(args)]
    return render(args, lambda: edges_json(str(shoe), sheets), lambda: [edges_table(str(shoe), sheets, args.format)])


def _add_edges(sub: Subparsers) -> None:
    p = sub.add_parser("edges", help="house edges of the main bets in every configuration",
                       description="Exact house edge (per coup and per resolved bet), win/push/loss probabilities "
                                   "and standard deviation of the banker, player and tie bets of every "
                                   "configuration, or of the one given with --config.")
    add_shoe_options(p)
    add_config_option(p, "only this configuration")
    add_format_options(p)
    p.set_defaults(handler=_cmd_edges)


def _cmd_parsheet(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet
    from exact_odds.bets.main import configuration_from
    from exact_odds.edges import par_sheet
    from exact_odds.report import par_sheet_json, par_sheet_table

    bets_from_args(args)
    bet = configuration_from(args.config).bet(args.bet) if args.config else find_bet(args.bet)
    sheet = par_sheet(shoe_from_args(args), bet, tableau=tableau_from_args(args))
    return render(args, lambda: par_sheet_json(sheet), lambda: [par_sheet_table(sheet, args.format)])


def _add_parsheet(sub: Subparsers) -> None:
    p = sub.add_parser("parsheet", help="par sheet of one bet",
                       description="The par sheet of a bet: each pay line's combinations, probability, payout "
                                   "and return, the losing line and the total (the house edge).")
    p.add_argument("--bet", required=True, metavar="NAME",
                   help="a registered bet (banker, super-6/banker, ...), or with --config banker/player/tie")
    add_shoe_options(p)
    add_config_option(p, "take --bet from this configuration")
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_parsheet)


def _cmd_symbolic(args: argparse.Namespace) -> str:
    from exact_odds.edges import distinct_bets
    from exact_odds.report import closed_form_tables, payout_symbol_tables, symbolic_json
    from exact_odds.symbolic import summary

    bets = [bet for bet, _ in distinct_bets([bet for config in configs_from_args(args) for bet in config.bets])]
    result = summary(shoe_from_args(args), bets, tableau=tableau_from_args(args))
    return render(args, lambda: symbolic_json(result),
                   lambda: [*closed_form_tables(result, args.format), *payout_symbol_tables(result, args.format)])


def _add_symbolic(sub: Subparsers) -> None:
    p = sub.add_parser("symbolic", help="closed forms in the number of decks; break-even payouts",
                       description="Banker, player and tie probabilities and each bet's house edge as exact "
                                   "rational functions of the number of decks d (checked against the enumerator "
                                   "for d = 1..8), and on the chosen shoe each bet's house edge in its payout "
                                   "symbols and the break-even payout of each line.")
    add_shoe_options(p)
    add_config_option(p, "only this configuration's bets")
    add_format_options(p)
    p.set_defaults(handler=_cmd_symbolic)


def _cmd_report(args: argparse.Namespace) -> str:
    from exact_odds.report import reference_report

    bets_from_args(args)
    return reference_report(shoe_from_args(args), tableau_from_args(args), args.format)


def _add_report(sub: Subparsers) -> None:
    p = sub.add_parser("report", help="the full reference report (8 decks unless told otherwise)",
                       description="Odds, the house edges of every configuration, the par sheets of the main "
                                   "bets and the house edges of every other registered bet (the side bets).")
    add_shoe_options(p)
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_report)


def _cmd_sidebets(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet
    from exact_odds.bets.side import SIDE_BETS
    from exact_odds.edges import par_sheet
    from exact_odds.engine import Detail
    from exact_odds.report import side_bets_json, side_bets_table
    from exact_odds.shoe import ShoeError

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    loaded = bets_from_args(args)
    names = bet_names(args.bet)
    bets = [find_bet(n) for n in names] if names else (loaded or list(SIDE_BETS))
    suited = [b.name for b in bets if b.detail is Detail.SUITS]
    if names and suited and shoe.suited is None:
        raise ShoeError(f"{suited[0]} needs a shoe whose suits are known (whole decks, or --shoe counts "
                        "divisible by 4 and --remove cards with their suits, e.g. 'Kh 3d')")
    omitted = suited if shoe.suited is None else []
    sheets = [par_sheet(shoe, bet, tableau=tableau) for bet in bets if bet.name not in omitted]
    return render(args, lambda: side_bets_json(str(shoe), sheets, omitted=omitted),
                   lambda: [side_bets_table(str(shoe), sheets, args.format, omitted=omitted)])


def _add_sidebets(sub: Subparsers) -> None:
    p = sub.add_parser(
        "sidebets", help="house edges of the side bets (pairs, Dragon 7, Panda 8, Egalite, ...) on a shoe",
        description="Exact house edges of the built-in side bets on a shoe, or of the bets named with --bet, "
                    "or of the bets defined in a --bets FILE (with no --bet, only that file's bets). Pairs and "
                    "perfect pairs are counted with the ranks and suits of the first two cards of each hand.")
    add_shoe_options(p)
    p.add_argument("--bet", action="append", default=[], metavar="NAME",
                   help="only this bet (repeatable, or comma-separated); any registered bet name or alias")
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_sidebets)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    _add_odds, _add_edges, _add_parsheet, _add_symbolic, _add_report, _add_sidebets)
"""Functions adding one subcommand each, in the order of the help."""
