"""Partial information about the next coup: ``advantage`` (:mod:`exact_odds.analysis.information`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from exact_odds.analysis.information import Information, Known, advantage
from exact_odds.cli import options
from exact_odds.cli.examples import examples
from exact_odds.inputs import validate
from exact_odds.report.advantage import advantage_json, advantage_tables


def _cmd_advantage(args: argparse.Namespace) -> options.Output:
    shoe = options.shoe_from_args(args)
    information = Information.parse(args.position, args.groups)
    choice = options.bets_from_args(args)
    bets = choice.named(args.bet) or choice.main  # banker, player and tie: of --config or the game
    with options.progress_bar(args, "advantage", unit="cases") as bar:
        result = advantage(shoe, information, bets, options.tableau_from_args(args),
                           known=Known.parse(" ".join(args.known)), sit_out=not args.always_bet, progress=bar)
    return options.render(args, lambda: advantage_json(shoe, result),
                          lambda: advantage_tables(shoe, result, args.format))


def _add_advantage(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "advantage", help="what knowing a card (or its group) of the next coup is worth, exactly",
        description="For a kind of information about the next coup (the rank of the card at a position, or which "
                    "group it is in, as edge sorting reveals): how often each case happens, every bet's exact "
                    "expectation in it, the best play (a bet, or sitting out) and the value of the information "
                    "per coup, E[max(EV, 0)].",
        **examples('exact-odds advantage --position 1',
                   "exact-odds advantage --position 1 --groups 'high=6|7|8|9'",
                   'exact-odds advantage --position 1,2 --bet banker,player --decks 1'))
    p.add_argument("--position", default="1", metavar="POSITIONS",
                   help="the watched positions: 1-6 in dealing order (1 P1, 2 B1, 3 P2, 4 B2, 5 the fifth card, "
                        "6 the sixth), several as '1,3' or '1-4' (default 1)")
    p.add_argument("--groups", metavar="SPEC", type=validate.spec_option,
                   help="reveal only the group of each watched card: NAME=CARDS entries (e.g. 'high=6|7|8|9'; "
                        "cards in no group are 'other'), or just CARDS for 'in' vs 'other' (default: the rank)")
    options.add_known_option(p)
    options.add_bet_option(p, "bets one may make (repeatable or comma-separated; default: banker, player and tie "
                              "of the configuration)")
    p.add_argument("--always-bet", action="store_true",
                   help="always make the best bet, even at a negative expectation (default: sit out then)")
    options.add_shoe_options(p)
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    options.add_format_options(p, quiet=True)
    p.set_defaults(handler=_cmd_advantage)


COMMANDS: tuple[Callable[[options.Subparsers], None], ...] = (_add_advantage,)
