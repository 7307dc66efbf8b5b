"""``bunco --party FILE``, ``--night N`` and ``--tally FILE``: Bunco as it is played, a party of tables."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from exact_odds import bunco
from exact_odds.bunco import BuncoError
from exact_odds.bunco.night import exact_tables, night_means, sheet_writer, simulate_nights
from exact_odds.bunco.party import COMMON_PARTY, Party, load_party
from exact_odds.bunco.tally import load_tally, verify_tally
from exact_odds.cli.options import Output, render, seed_from_args
from exact_odds.inputs import validate
from exact_odds.report.bunco_party import bunco_party_json, bunco_party_tables, tally_json, tally_tables
from exact_odds.report.files import atomic_file

ROLL_OPTIONS = {"dice": 3, "sides": 6, "round": 1, "rounds": 6, "scoring": "standard", "bunco_points": None,
                "mini_points": None, "point_per_die": None, "target": 21, "more_than": None, "simulate": None,
                "verify": None}
"""The options of one roll, game and turn, with their defaults: a party file gives these, so beside
--party, --night or --tally they must keep their defaults."""


def wants_party(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a party (``--party``, ``--night`` or ``--tally``)."""
    return args.party is not None or args.night is not None or args.tally is not None


def _refuse_roll_options(args: argparse.Namespace) -> None:
    given = [name for name, default in ROLL_OPTIONS.items() if getattr(args, name) != default]
    if given:
        named = ", ".join("--" + name.replace("_", "-") for name in given)
        raise BuncoError(f"{named}: a party's dice, rounds, target and scoring come from its party file "
                         "(--party FILE); give them there")


def party_command(args: argparse.Namespace) -> Output:
    """The report of a party: its exact tables, with --night N its simulated nights, or with --tally a sheet."""
    _refuse_roll_options(args)
    party = load_party(args.party) if args.party is not None else COMMON_PARTY
    if args.tally is not None:
        if args.night is not None or args.seed is not None or args.log is not None:
            raise BuncoError("--tally FILE checks a host's sheet: give it without --night, --seed or --log")
        return _tally(args, party)
    if args.night is None and (args.seed is not None or args.alpha is not None or args.log is not None):
        raise BuncoError("--seed, --alpha and --log need --simulate N or --night N")
    return _party(args, party)


def _party(args: argparse.Namespace, party: Party) -> Output:
    race, table = exact_tables(party.dice, party.scoring, party.target, party.bunco_ends_turn,
                               others=party.tables > 1)
    means = night_means(party, race)
    night = None
    if args.night is not None:
        seed = seed_from_args(args)
        alpha = bunco.DEFAULT_ALPHA if args.alpha is None else args.alpha
        with ExitStack() as stack:
            record = sheet_writer(stack.enter_context(atomic_file(args.log))) if args.log is not None else None
            night = simulate_nights(party, nights=args.night, seed=seed, alpha=alpha, record=record)
        if not night.passed:
            args.exit_status = 1
    return render(args, lambda: bunco_party_json(party, race, table, means, night),
                  lambda: bunco_party_tables(party, race, table, means, night), configuration=party.scoring.name)


def _tally(args: argparse.Namespace, party: Party) -> Output:
    alpha = float(bunco.DEFAULT_ALPHA if args.alpha is None else args.alpha)
    result = verify_tally(load_tally(args.tally), party, alpha=alpha, max_violations=args.max_violations)
    if result.verdict == "FAIL":
        args.exit_status = 1
    return render(args, lambda: tally_json(result), lambda: tally_tables(result), configuration=party.scoring.name)


def add_party_options(p: argparse.ArgumentParser) -> None:
    """--party FILE, --night N and --tally FILE."""
    p.add_argument("--party", metavar="FILE",
                   help="a party file (TOML: players, tables, rounds, the head table's target, scoring, movement, "
                        "prizes; every key optional): the head table's race and the other tables at its bell, exactly")
    p.add_argument("--night", type=validate.BUNCO_COUNT.option, metavar="N",
                   help="simulate N nights of the party (default: the common game), each round checked against the "
                        "exact tables (exit status 1 on FAIL); --log FILE writes the first night's tally sheet")
    p.add_argument("--tally", metavar="FILE",
                   help="check a host's tally sheet (CSV: round,[table,]player,wins,losses,buncos,mini_buncos,points) "
                        "against the party's rules and exact means")
