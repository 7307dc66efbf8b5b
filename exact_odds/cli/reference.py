"""Commands of reference figures for one shoe: ``odds``, ``edges``, ``parsheet``, ``symbolic``, ``report``,
``sidebets``, and ``advantage`` (partial information about the next coup, :mod:`exact_odds.analysis.information`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from exact_odds.analysis import information
from exact_odds.analysis.conditional import dealing_order, parse_dealt
from exact_odds.analysis.edges import configuration_sheets, distinct_bets, par_sheet, reference_sheets
from exact_odds.analysis.removal import effects_of_removal
from exact_odds.analysis.symbolic import summary
from exact_odds.bets import usable_bets
from exact_odds.bets.main import STANDARD_CONFIG, is_main_bet
from exact_odds.bets.side import SIDE_BETS
from exact_odds.cli import options
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal_winners, winners
from exact_odds.inputs import validate
from exact_odds.report import edges, odds
from exact_odds.report.plots import eor_drawing

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.tableau import Tableau
    from exact_odds.report.document import Figure


def _known_odds(args: argparse.Namespace, shoe: Shoe, tableau: Tableau) -> options.Output:
    """``odds --known``: the odds and the main bets' expectations given what is known."""
    if args.dealt:
        raise information.InformationError("give either --dealt (cards on the table, by hand) or --known (cards by "
                                           "position), not both; --known '1=9 2=K' says what --dealt 'P: 9 B: K' says")
    known = information.Known.parse(" ".join(args.known))
    dist = information.deal_known(shoe, known, tableau)
    bets = (options.config_from_args(args) or STANDARD_CONFIG).bets  # the game's pay table with --game
    evs = list(zip((bet.name for bet in bets), information.player_ev(dist, bets), strict=True))
    outcomes = winners(dist)
    return options.render(args, lambda: odds.known_odds_json(shoe, known, outcomes, evs),
                          lambda: odds.known_odds_tables(shoe, known, outcomes, evs, args.format))


def cmd_odds(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    if args.known:
        return _known_odds(args, shoe, tableau)
    if args.dealt:
        return _dealt_odds(args, shoe, tableau)
    dist = deal_winners(shoe, tableau)
    return options.render(args, lambda: odds.odds_json(shoe, dist, dist.total),
                          lambda: [odds.odds_table(str(shoe), dist, dist.total, infinite=shoe.infinite,
                                                   tableau=_custom_name(tableau))])


def _custom_name(tableau: Tableau) -> str | None:
    """The name of a drawing rule other than the standard one, for titles."""
    return None if tableau == STANDARD_TABLEAU else tableau.name


def _dealt_odds(args: argparse.Namespace, shoe: Shoe, tableau: Tableau) -> options.Output:
    """``odds --dealt``: the exact odds given the cards already dealt in this coup."""
    dealt = parse_dealt(args.dealt)
    dist = winners(information.deal_dealt(shoe, dealing_order(dealt, tableau), tableau))
    return options.render(args, lambda: odds.dealt_odds_json(shoe, dealt, dist),
                          lambda: [odds.dealt_odds_table(shoe, dealt, dist, tableau=_custom_name(tableau))])


def add_odds(sub: options.Subparsers) -> None:
    p = sub.add_parser("odds", help="exact banker, player and tie odds of a shoe",
                       description="Exact banker, player and tie odds of one coup from a shoe.",
                       **options.examples('exact-odds odds --decks 6',
                                          'exact-odds odds --decks 1 --remove 5,5,K,9 --format json',
                                          "exact-odds odds --dealt 'P: 9h 4c B: Kd'",
                                          "exact-odds odds --known '1=7|8|9'"))
    options.add_shoe_options(p)
    p.add_argument("--dealt", metavar="CARDS",
                   help="cards already dealt in this coup, e.g. 'P: 9h 4c B: Kd': the odds of the rest of the coup")
    options.add(p, "--known")
    options.add_format_options(p)


def cmd_edges(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    configs = options.configs_from_args(args)
    sheets = [(config, configuration_sheets(shoe, config, tableau=tableau)) for config in configs]
    return options.render(args, lambda: edges.edges_json(shoe, sheets),
                          lambda: [edges.edges_table(str(shoe), sheets, args.format)])


def add_edges(sub: options.Subparsers) -> None:
    p = sub.add_parser("edges", help="house edges of the main bets in every configuration",
                       description="Exact house edge (per coup and per resolved bet), win/push/loss probabilities "
                                   "and standard deviation of the banker, player and tie bets of every "
                                   "configuration, or of the one given with --config.",
                       **options.examples('exact-odds edges --decks 6',
                                          'exact-odds edges --config tie-9 --format markdown',
                                          'exact-odds edges --game examples/games/my-casino.toml'))
    options.add_shoe_options(p)
    options.add_config_option(p, "only this configuration")
    options.add_format_options(p)


def cmd_parsheet(args: argparse.Namespace) -> options.Output:
    bet = options.bets_from_args(args).find(args.bet)  # banker, player, tie: those of --config or the game
    sheet = par_sheet(options.shoe_from_args(args), bet, tableau=options.tableau_from_args(args))
    return options.render(args, lambda: edges.par_sheet_json(sheet),
                          lambda: [edges.par_sheet_table(sheet, args.format)])


def add_parsheet(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "parsheet", help="par sheet of one bet",
        description="The par sheet of a bet: each pay line's combinations, probability, payout and return, the "
                    "losing line and the total (the house edge).",
        **options.examples('exact-odds parsheet --bet banker',
                           'exact-odds parsheet --bet tie --config tie-9 --decks 6',
                           'exact-odds parsheet --bet my-dragon-7 --bets examples/side_bets.toml --format csv'))
    p.add_argument("--bet", required=True, metavar="NAME", type=validate.spec_option,
                   help="a registered bet (banker, super-6/banker, dragon-7, ...); banker, player and tie are those "
                        "of --config or the game")
    options.add_shoe_options(p)
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    options.add_format_options(p)


def cmd_symbolic(args: argparse.Namespace) -> options.Output:
    bets = [bet for bet, _ in distinct_bets([bet for config in options.configs_from_args(args) for bet in config.bets])]
    with options.progress_bar(args, "symbolic") as bar:
        result = summary(options.shoe_from_args(args), bets, tableau=options.tableau_from_args(args), progress=bar)
    return options.render(args, lambda: edges.symbolic_json(result), lambda: [
        *edges.closed_form_tables(result, args.format), *edges.payout_symbol_tables(result, args.format)])


def add_symbolic(sub: options.Subparsers) -> None:
    p = sub.add_parser("symbolic", help="closed forms in the number of decks; break-even payouts",
                       description="Banker, player and tie probabilities and each bet's house edge as exact "
                                   "rational functions of the number of decks d (checked against the enumerator "
                                   "for d = 1..8), and on the chosen shoe each bet's house edge in its payout "
                                   "symbols and the break-even payout of each line.",
                       **options.examples('exact-odds symbolic --config standard',
                                          'exact-odds symbolic --config tie-9 --decks 6 --format json'))
    options.add_shoe_options(p)
    options.add_config_option(p, "only this configuration's bets")
    options.add_format_options(p)
    options.add(p, "--quiet")


def cmd_report(args: argparse.Namespace) -> options.Output:
    if args.game is not None:
        return _game_report(args)
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    known = options.bets_from_args(args).known.values()
    others = [bet for bet in known if not is_main_bet(bet)]  # with --config, no other configuration's bets
    sheets = reference_sheets(shoe, others, options.configs_from_args(args), tableau=tableau)
    eor, figures = _removal_figures(args, shoe, known, tableau)
    return options.render(args, lambda: odds.reference_json(sheets, eor=eor),
                          lambda: odds.reference_tables(sheets, args.format, tableau=_custom_name(tableau), eor=eor),
                          figures=figures)


def _game_report(args: argparse.Namespace) -> options.Output:
    """``report --game``: the casino's whole par sheet."""
    game = options.effective_game(args)
    sheets = reference_sheets(game.shoe, game.side_bets, [game.configuration], tableau=game.tableau)
    eor, figures = _removal_figures(args, game.shoe, game.bets, game.tableau)
    return options.render(args, lambda: odds.game_json(game, sheets, eor),
                          lambda: odds.game_tables(game, sheets, args.format, eor), figures=figures)


def _removal_figures(args: argparse.Namespace, shoe: Shoe, bets: Iterable[Bet], tableau: Tableau) -> tuple[
        odds.RemovalFigures | None, Callable[[], list[Figure]] | None]:
    """With --eor: the effects of removal of ``bets`` (a default set: those the shoe cannot settle are left
    out, and named) and their suggested counts, as ``eor`` computes them, and their figures."""
    if not args.eor:
        return None, None
    chosen, left_out = usable_bets(shoe, bets)
    with options.progress_bar(args, "eor") as bar:
        removals = effects_of_removal(shoe, chosen, tableau=tableau, progress=bar)
    counts = [r.count(max_tag=args.max_tag) for r in removals]
    title = f"Effects of removal, {shoe}"
    return (odds.RemovalFigures(removals, counts, [bet.name for bet in left_out], args.max_tag),
            options.figures(args, title, lambda: eor_drawing(removals, counts, title)))


def add_report(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "report", help="the full reference report (8 decks unless told otherwise), or a casino's par sheet (--game)",
        description="Odds, the house edges of every configuration (or of --config's), the par sheets of the main "
                    "bets and the house edges of every other registered bet (the side bets). With --game FILE, "
                    "that casino's whole par sheet instead: its odds, the house edge of each of its main and side "
                    "bets (per coup and per resolved bet, with the standard deviation) and every bet's pay lines "
                    "with their combinations, probability and return. --eor adds the effects of removal.",
        **options.examples('exact-odds report --decks 6',
                           'exact-odds report --game examples/games/my-casino.toml',
                           'exact-odds report --decks 1 --eor --format markdown --output report.md'))
    options.add_shoe_options(p)
    options.add_config_option(p, "only this configuration, or in place of the game's pay table", bets=True)
    p.add_argument("--eor", action="store_true",
                   help="also the effects of removal of every bet and the counts they suggest (as `eor` gives them)")
    p.add_argument("--max-tag", type=validate.MAX_TAG.option, default=2, metavar="K",
                   help="with --eor: largest tag of the suggested counts (default 2)")
    options.add_format_options(p, quiet=True)


def cmd_sidebets(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    choice = options.bets_from_args(args)
    named = choice.named(args.bet)
    default = choice.side if choice.side is not None else SIDE_BETS  # the game's side bets, else the built-in
    usable, left_out = usable_bets(shoe, named or choice.loaded or default, strict=bool(named))
    omitted = [bet.name for bet in left_out]
    sheets = [par_sheet(shoe, bet, tableau=tableau) for bet in usable]
    return options.render(args, lambda: edges.side_bets_json(shoe, sheets, omitted=omitted),
                          lambda: [edges.side_bets_table(str(shoe), sheets, args.format, omitted=omitted)])


def add_sidebets(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "sidebets", help="house edges of the side bets (pairs, Dragon 7, Panda 8, Egalite, ...) on a shoe",
        description="Exact house edges of the built-in side bets on a shoe (of the game's side bets with --game), "
                    "or of the bets named with --bet, or of the bets defined in a --bets FILE (with no --bet, only "
                    "that file's bets). Pairs and perfect pairs are counted with the ranks and suits of the first "
                    "two cards of each hand.",
        **options.examples('exact-odds sidebets --decks 8',
                           'exact-odds sidebets --bet dragon-7,panda-8 --format csv',
                           'exact-odds sidebets --decks 6 --bets examples/side_bets.toml'))
    options.add_shoe_options(p)
    options.add_bet_option(p, "only these bets (repeatable, or comma-separated); any registered bet name or alias")
    options.add_config_option(p, "the pay table of banker, player and tie, if named with --bet", bets=True)
    options.add_format_options(p)


def cmd_advantage(args: argparse.Namespace) -> options.Output:
    shoe = options.shoe_from_args(args)
    watched = information.Information.parse(args.position, args.groups)
    choice = options.bets_from_args(args)
    bets = choice.named(args.bet) or choice.main  # banker, player and tie: of --config or the game
    with options.progress_bar(args, "advantage", unit="cases") as bar:
        result = information.advantage(shoe, watched, bets, options.tableau_from_args(args),
                                       known=information.Known.parse(" ".join(args.known)),
                                       sit_out=not args.always_bet, progress=bar)
    return options.render(args, lambda: odds.advantage_json(shoe, result),
                          lambda: odds.advantage_tables(shoe, result, args.format))


def add_advantage(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "advantage", help="what knowing a card (or its group) of the next coup is worth, exactly",
        description="For a kind of information about the next coup (the rank of the card at a position, or which "
                    "group it is in, as edge sorting reveals): how often each case happens, every bet's exact "
                    "expectation in it, the best play (a bet, or sitting out) and the value of the information "
                    "per coup, E[max(EV, 0)].",
        **options.examples('exact-odds advantage --position 1',
                           "exact-odds advantage --position 1 --groups 'high=6|7|8|9'",
                           'exact-odds advantage --position 1,2 --bet banker,player --decks 1'))
    p.add_argument("--position", default="1", metavar="POSITIONS",
                   help="the watched positions: 1-6 in dealing order (1 P1, 2 B1, 3 P2, 4 B2, 5 the fifth card, "
                        "6 the sixth), several as '1,3' or '1-4' (default 1)")
    p.add_argument("--groups", metavar="SPEC", type=validate.spec_option,
                   help="reveal only the group of each watched card: NAME=CARDS entries (e.g. 'high=6|7|8|9'; "
                        "cards in no group are 'other'), or just CARDS for 'in' vs 'other' (default: the rank)")
    options.add(p, "--known")
    options.add_bet_option(p, "bets one may make (repeatable or comma-separated; default: banker, player and tie "
                              "of the configuration)")
    p.add_argument("--always-bet", action="store_true",
                   help="always make the best bet, even at a negative expectation (default: sit out then)")
    options.add_shoe_options(p)
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    options.add_format_options(p, quiet=True)
