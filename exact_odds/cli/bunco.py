"""The dice game's command: ``bunco``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from exact_odds.cli.options import (
    Subparsers,
    add_format_options,
    render,
)

if TYPE_CHECKING:
    pass


def _cmd_bunco(args: argparse.Namespace) -> str:
    from exact_odds import bunco
    from exact_odds.report import bunco_json, bunco_tables

    if args.simulate is None and (args.seed is not None or args.alpha is not None):
        raise bunco.BuncoError("--seed and --alpha need --simulate N")
    dice = bunco.Dice(args.dice, args.sides)
    rules = bunco.find_scoring_rules(args.scoring).with_points(
        bunco=args.bunco_points, mini=args.mini_points, per_die=args.point_per_die)
    analysis = bunco.analyse(dice, rules, round_number=args.round, rounds=args.rounds, target=args.target,
                             more_than=args.more_than or [3])
    sim = None
    if args.simulate is not None:
        alpha = bunco.DEFAULT_ALPHA if args.alpha is None else args.alpha
        sim = bunco.simulate(analysis, trials=args.simulate, seed=args.seed, alpha=alpha)
        if not sim.passed:
            args.exit_status = 1
    return render(args, lambda: bunco_json(analysis, sim), lambda: bunco_tables(analysis, sim))


def _add_bunco(sub: Subparsers) -> None:
    from fractions import Fraction

    p = sub.add_parser(
        "bunco", help="exact odds of the dice game Bunco: a roll, a game of rounds, a turn at the table",
        description="Exact odds of Bunco: one roll's score; the total of a game of one roll per round (round r "
                    "uses face (r-1) mod sides + 1); and one turn at the table (roll while each roll scores, stop "
                    "at the target). With --simulate N, also N seeded simulated rolls, games and turns, each "
                    "chi-square-tested against the exact values (exit status 1 on FAIL).")
    p.add_argument("--dice", type=int, default=3, metavar="N", help="number of dice (default 3)")
    p.add_argument("--sides", type=int, default=6, metavar="N", help="faces per die (default 6)")
    p.add_argument("--round", type=int, default=1, metavar="N",
                   help="round number (a face) of the roll and turn tables (default 1)")
    p.add_argument("--rounds", type=int, default=6, metavar="R", help="rounds in a game, one roll each (default 6)")
    p.add_argument("--scoring", default="standard", metavar="NAME",
                   help="scoring rule set: standard (Bunco 21, mini 5) or article (Bunco 25, mini 5)")
    p.add_argument("--bunco-points", type=int, metavar="P", help="points for a Bunco (overrides --scoring)")
    p.add_argument("--mini-points", type=int, metavar="P", help="points for a mini Bunco (overrides --scoring)")
    p.add_argument("--point-per-die", type=int, metavar="P",
                   help="points per die showing the round number (overrides --scoring)")
    p.add_argument("--target", type=int, default=21, metavar="T", help="points that end a turn (default 21)")
    p.add_argument("--more-than", type=int, action="append", metavar="K",
                   help="report P(game total > K) (repeatable; default 3)")
    p.add_argument("--simulate", type=int, metavar="N", help="also simulate N rolls, N games and N turns")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed of the simulation (default: chosen at random and printed)")
    p.add_argument("--alpha", type=Fraction, metavar="A",
                   help="significance level of the simulation's verdicts (default 0.001)")
    add_format_options(p)
    p.set_defaults(handler=_cmd_bunco)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (_add_bunco,)
"""Functions adding one subcommand each, in the order of the help."""
