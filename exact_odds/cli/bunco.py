"""The dice game's command: ``bunco``, with ``--party FILE``, ``--night N`` and ``--tally FILE`` (a party of
tables, Bunco as it is played)."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from fractions import Fraction
from typing import TYPE_CHECKING, TextIO

from exact_odds import bunco
from exact_odds.bunco import BuncoError, write_games
from exact_odds.bunco.night import exact_tables, night_means, sheet_writer, simulate_nights
from exact_odds.bunco.party import COMMON_PARTY, Party, load_party
from exact_odds.bunco.tally import load_tally, verify_tally
from exact_odds.cli import options
from exact_odds.inputs import validate
from exact_odds.report import bunco as bunco_report
from exact_odds.report.files import atomic_file

if TYPE_CHECKING:
    from exact_odds.bunco.simulation import GameRecorder


def cmd_bunco(args: argparse.Namespace) -> options.Output:
    if args.party is not None or args.night is not None or args.tally is not None:
        return _party_command(args)
    if args.verify is not None:
        return _verify_rolls(args)
    if args.simulate is None and (args.seed is not None or args.alpha is not None or args.log is not None):
        raise bunco.BuncoError("--seed, --alpha and --log need --simulate N")
    dice, rules = _dice_and_rules(args)
    analysis = bunco.analyse(dice, rules, round_number=args.round, rounds=args.rounds, target=args.target,
                             more_than=args.more_than or [3])
    sim = None
    if args.simulate is not None:
        with ExitStack() as stack:
            record = _games_writer(stack.enter_context(atomic_file(args.log))) if args.log is not None else None
            sim = bunco.simulate(analysis, trials=args.simulate, seed=args.seed, alpha=_alpha(args), record=record)
        options.failed_if(args, not sim.passed)
    return options.render(args, lambda: bunco_report.bunco_json(analysis, sim),
                          lambda: bunco_report.bunco_tables(analysis, sim),
                          configuration=rules.name, seed=None if sim is None else sim.seed)


def _dice_and_rules(args: argparse.Namespace) -> tuple[bunco.Dice, bunco.ScoringRules]:
    rules = bunco.find_scoring_rules(args.scoring).with_points(
        bunco=args.bunco_points, mini=args.mini_points, per_die=args.point_per_die)
    return bunco.Dice(args.dice, args.sides), rules


def _alpha(args: argparse.Namespace) -> Fraction:
    alpha: Fraction = bunco.DEFAULT_ALPHA if args.alpha is None else args.alpha
    return alpha


def _games_writer(out: TextIO) -> GameRecorder:
    """Write the simulated games' rolls to ``out`` as one log, batch after batch."""
    games = 0

    def record(faces: object, scores: object) -> None:
        nonlocal games
        write_games(out, faces, scores, first_game=games + 1, header=games == 0)  # type: ignore[arg-type]
        games += len(scores)  # type: ignore[arg-type]

    return record


ROLL_OPTIONS = {"dice": 3, "sides": 6, "round": 1, "rounds": 6, "scoring": "standard", "bunco_points": None,
                "mini_points": None, "point_per_die": None, "target": 21, "more_than": None, "simulate": None,
                "verify": None}
"""The options of one roll, game and turn, with their defaults: a party file gives these, so beside
--party, --night or --tally they must keep their defaults."""


def _party_command(args: argparse.Namespace) -> options.Output:
    """The report of a party: its exact tables, with --night N its simulated nights, or with --tally a sheet."""
    given = [name for name, default in ROLL_OPTIONS.items() if getattr(args, name) != default]
    if given:
        named = ", ".join("--" + name.replace("_", "-") for name in given)
        raise BuncoError(f"{named}: a party's dice, rounds, target and scoring come from its party file "
                         "(--party FILE); give them there")
    party = load_party(args.party) if args.party is not None else COMMON_PARTY
    if args.tally is not None:
        if args.night is not None or args.seed is not None or args.log is not None:
            raise BuncoError("--tally FILE checks a host's sheet: give it without --night, --seed or --log")
        return _tally(args, party)
    if args.night is None and (args.seed is not None or args.alpha is not None or args.log is not None):
        raise BuncoError("--seed, --alpha and --log need --simulate N or --night N")
    return _party(args, party)


def _party(args: argparse.Namespace, party: Party) -> options.Output:
    race, table = exact_tables(party.dice, party.scoring, party.target, party.bunco_ends_turn,
                               others=party.tables > 1)
    means = night_means(party, race)
    night = None
    if args.night is not None:
        seed = options.seed_from_args(args)
        with ExitStack() as stack:
            record = sheet_writer(stack.enter_context(atomic_file(args.log))) if args.log is not None else None
            night = simulate_nights(party, nights=args.night, seed=seed, alpha=_alpha(args), record=record)
        options.failed_if(args, not night.passed)
    return options.render(args, lambda: bunco_report.bunco_party_json(party, race, table, means, night),
                          lambda: bunco_report.bunco_party_tables(party, race, table, means, night),
                          configuration=party.scoring.name)


def _tally(args: argparse.Namespace, party: Party) -> options.Output:
    result = verify_tally(load_tally(args.tally), party, alpha=float(_alpha(args)), max_violations=args.max_violations)
    options.failed_if(args, result.verdict == "FAIL")
    return options.render(args, lambda: bunco_report.tally_json(result), lambda: bunco_report.tally_tables(result),
                          configuration=party.scoring.name)


def _verify_rolls(args: argparse.Namespace) -> options.Output:
    """``bunco --verify LOG``: check a log of rolls against the exact roll distribution."""
    if args.simulate is not None or args.seed is not None or args.log is not None:
        raise bunco.BuncoError("--verify LOG checks a log of rolls: give it without --simulate, --seed or --log")
    dice, rules = _dice_and_rules(args)
    try:
        result = bunco.verify_roll_file(args.verify, dice, rules, alpha=float(_alpha(args)),
                                        max_violations=args.max_violations)
    except MemoryError:
        raise bunco.BuncoError("out of memory checking the log of rolls: give fewer --dice or --sides") from None
    options.failed_if(args, result.verdict == "FAIL")
    return options.render(args, lambda: bunco_report.rolls_verification_json(result),
                          lambda: bunco_report.rolls_verification_tables(result),
                          configuration=rules.name)


def add_bunco(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "bunco", help="exact odds of the dice game Bunco: a roll, a game of rounds, a turn at the table",
        description="Exact odds of Bunco: one roll's score; the total of a game of one roll per round (round r "
                    "uses face (r-1) mod sides + 1); and one turn at the table (roll while each roll scores, stop "
                    "at the target). With --simulate N, also N seeded simulated rolls, games and turns, each "
                    "chi-square-tested against the exact values (exit status 1 on FAIL); --log FILE writes the "
                    "simulated games' rolls. --verify LOG checks a log of rolls (CSV: round,dice[,score], e.g. "
                    "'2,3 5 3,0') against the exact roll distribution: faces, scores and Buncos.",
        **options.examples('exact-odds bunco --scoring article --rounds 4 --more-than 5',
                           'exact-odds bunco --simulate 2000 --seed 4 --log rolls.csv',
                           'exact-odds bunco --verify rolls.csv  # the rolls the line above wrote',
                           'exact-odds bunco --party examples/bunco_party.toml --night 2000 --seed 7'))
    p.add_argument("--dice", type=validate.BUNCO_DICE.option, default=3, metavar="N", help="number of dice (default 3)")
    p.add_argument("--sides", type=validate.BUNCO_SIZE.option, default=6, metavar="N", help="faces per die (default 6)")
    p.add_argument("--round", type=validate.BUNCO_SIZE.option, default=1, metavar="N",
                   help="round number (a face) of the roll and turn tables (default 1)")
    p.add_argument("--rounds", type=validate.BUNCO_SIZE.option, default=6, metavar="R",
                   help="rounds in a game, one roll each (default 6)")
    p.add_argument("--scoring", default="standard", metavar="NAME",
                   help="scoring rule set: standard (Bunco 21, mini 5) or article (Bunco 25, mini 5)")
    p.add_argument("--bunco-points", type=validate.BUNCO_POINTS.option, metavar="P",
                   help="points for a Bunco (overrides --scoring)")
    p.add_argument("--mini-points", type=validate.BUNCO_POINTS.option, metavar="P",
                   help="points for a mini Bunco (overrides --scoring)")
    p.add_argument("--point-per-die", type=validate.BUNCO_POINTS.option, metavar="P",
                   help="points per die showing the round number (overrides --scoring)")
    p.add_argument("--target", type=validate.BUNCO_POINTS.option, default=21, metavar="T",
                   help="points that end a turn (default 21)")
    p.add_argument("--more-than", type=validate.BUNCO_K.option, action="append", metavar="K",
                   help="report P(game total > K) (repeatable; default 3)")
    p.add_argument("--simulate", type=validate.BUNCO_COUNT.option, metavar="N",
                   help="also simulate N rolls, N games and N turns")
    p.add_argument("--seed", type=validate.SEED.option, metavar="S",
                   help="seed of the simulation (default: chosen at random and printed)")
    p.add_argument("--alpha", type=validate.EXACT_ALPHA.option, metavar="A",
                   help="significance level of the simulation's or the verification's verdicts (default 0.001)")
    p.add_argument("--log", metavar="FILE",
                   help="with --simulate: write the simulated games' rolls to FILE (game,round,dice,score)")
    p.add_argument("--verify", metavar="LOG",
                   help="check a log of rolls ('-': standard input) against the exact roll distribution")
    p.add_argument("--max-violations", type=validate.VIOLATIONS.option, default=10, metavar="N",
                   help="with --verify: wrong scores listed in full (default 10; all are counted)")
    p.add_argument("--party", metavar="FILE",
                   help="a party file (TOML: players, tables, rounds, the head table's target, scoring, movement, "
                        "prizes; every key optional): the head table's race and the other tables at its bell, exactly")
    p.add_argument("--night", type=validate.BUNCO_COUNT.option, metavar="N",
                   help="simulate N nights of the party (default: the common game), each round checked against the "
                        "exact tables (exit status 1 on FAIL); --log FILE writes the first night's tally sheet")
    p.add_argument("--tally", metavar="FILE",
                   help="check a host's tally sheet (CSV: round,[table,]player,wins,losses,buncos,mini_buncos,points) "
                        "against the party's rules and exact means")
    options.add_format_options(p, quiet=True)
