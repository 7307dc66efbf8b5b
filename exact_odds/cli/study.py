"""Composition-dependent commands: ``eor``, ``batch``, ``study``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from exact_odds.cli.options import (
    Subparsers,
    add_bets_option,
    add_format_options,
    add_output_option,
    add_quiet_option,
    add_shoe_options,
    bets_from_args,
    named_bets,
    progress_bar,
    read_input,
    render,
    shoe_from_args,
    tableau_from_args,
)

if TYPE_CHECKING:
    pass


def _cmd_eor(args: argparse.Namespace) -> str:
    from exact_odds.bets import registered
    from exact_odds.engine import Detail
    from exact_odds.removal import effects_of_removal
    from exact_odds.report import eor_json, eor_tables

    shoe = shoe_from_args(args)
    loaded = bets_from_args(args)
    named = named_bets(args.bet) or loaded
    bets = named or [b for b in registered() if shoe.suited is not None or b.detail is not Detail.SUITS]
    omitted = [] if named or shoe.suited is not None else [b.name for b in registered() if b not in bets]
    removals = effects_of_removal(shoe, bets, tableau=tableau_from_args(args))
    counts = [r.count(max_tag=args.max_tag) for r in removals]
    if args.plot:
        from exact_odds.plots import eor_figure

        eor_figure(removals, counts, args.plot, title=f"Effects of removal, {shoe}")
    return render(args, lambda: eor_json(shoe, removals, counts, omitted=omitted),
                   lambda: eor_tables(str(shoe), removals, counts, args.format, omitted=omitted))


def _add_eor(sub: Subparsers) -> None:
    p = sub.add_parser(
        "eor", help="exact effects of removal of each rank on every bet, and the counts they suggest",
        description="For every bet (or those named with --bet) and each rank: EV(shoe less one card of the rank) "
                    "- EV(shoe), exactly, from the bettor's side per unit staked; then the balanced linear count "
                    "the effects suggest and its betting correlation.")
    add_shoe_options(p)
    p.add_argument("--bet", action="extend", nargs="+", default=[], metavar="NAME",
                   help="only these bets (names or aliases; repeatable or comma-separated; default: every bet, "
                        "or only the bets of --bets FILE)")
    add_bets_option(p)
    p.add_argument("--max-tag", type=int, default=2, metavar="K",
                   help="largest tag of the suggested counts (default 2)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the effects as bar charts (needs exact-odds[plot])")
    add_format_options(p)
    p.set_defaults(handler=_cmd_eor)


def _cmd_batch(args: argparse.Namespace) -> str:
    from exact_odds.batch import evaluate, parse_compositions
    from exact_odds.report import batch_text

    loaded = bets_from_args(args)
    lines, counts = parse_compositions(read_input(args.input), source=args.input)
    evaluation = evaluate(counts, bets=named_bets(args.bet) or loaded, tableau=tableau_from_args(args), lines=lines)
    return batch_text(evaluation, lines, args.format)


def _add_batch(sub: Subparsers) -> None:
    p = sub.add_parser(
        "batch", help="exact banker/player/tie counts (and bet EVs) of many compositions at once",
        description="Read one composition per line (13 comma-separated counts A,2,...,9,T,J,Q,K; '#' comments and "
                    "blank lines ignored) and write one line each: the input line number, banker, player and tie "
                    "ways over ordered six-card sequences, the number of sequences, and with --bet the exact EV "
                    "of each bet as num/den. Integers are identical to the reference enumerator's.")
    p.add_argument("--input", "-i", required=True, metavar="FILE", help="compositions file ('-' for stdin)")
    p.add_argument("--bet", action="extend", nargs="+", default=[], metavar="NAME",
                   help="also the exact EV of these bets (repeatable or comma-separated)")
    add_bets_option(p)
    p.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file")
    p.add_argument("--format", default="csv", choices=["csv", "jsonl"], help="output format (default csv)")
    add_output_option(p)
    p.set_defaults(handler=_cmd_batch)


def _cmd_study(args: argparse.Namespace) -> str:
    from exact_odds.report import replay_json, replay_table, study_json, study_tables
    from exact_odds.study import Dealing, StudyError, read_record, replay, run_study

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    loaded = bets_from_args(args)
    bets = named_bets(args.bet) or loaded or named_bets(["banker,player,tie"])
    if args.record:
        rep = replay(read_record(read_input(args.record)), shoe, bets=bets, tableau=tableau)
        return render(args, lambda: replay_json(rep), lambda: [replay_table(rep, args.format)])
    if args.shoes is None:
        raise StudyError("give --shoes N (shoes to deal) or --record FILE (a recorded shoe)")
    bar = progress_bar(args, "study", unit="shoes")
    try:
        study = run_study(shoe, shoes=args.shoes, seed=args.seed, bets=bets, tableau=tableau,
                          dealing=Dealing(args.cut_card, args.last_coup, not args.no_burn),
                          thresholds=args.thresholds, max_tag=args.max_tag, workers=args.workers, dask=args.dask,
                          progress=bar)
    finally:
        bar.close()
    if args.plot:
        from exact_odds.plots import study_figure

        study_figure(study, args.plot)
    return render(args, lambda: study_json(study), lambda: study_tables(study, args.format))


def _add_study(sub: Subparsers) -> None:
    p = sub.add_parser(
        "study", help="deal shoes and study the exact edge of each bet before every coup (or replay a record)",
        description="Deal --shoes shuffled shoes to the cut card and evaluate the exact edge of each bet before "
                    "every coup: the distribution of edges, how often they are positive and what betting only "
                    "those gains, what the count suggested by the effects of removal gains at true-count "
                    "thresholds, and the cut-card effect. With --record FILE, replay a real shoe (cards in "
                    "dealing order, e.g. 'Kh 3d 9s ...') and print the exact edge of each bet before each coup.")
    add_shoe_options(p)
    p.add_argument("--shoes", type=int, metavar="N", help="number of shoes to deal")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--cut-card", type=int, default=16, metavar="N", help="cards behind the cut card (default 16)")
    p.add_argument("--last-coup", choices=["one-more", "this"], default="one-more",
                   help="when the cut card comes out: finish the coup and deal one more (default), or end there")
    p.add_argument("--no-burn", action="store_true", help="no burn at the start of each shoe")
    p.add_argument("--bet", action="extend", nargs="+", default=[], metavar="NAME",
                   help="bets to study (default: banker player tie, or the bets of --bets FILE; repeatable or "
                        "comma-separated)")
    add_bets_option(p)
    p.add_argument("--thresholds", type=float, nargs="+", default=[0, 4, 8, 12, 16, 20], metavar="T",
                   help="true-count thresholds of the count strategies (default 0 4 8 12 16 20)")
    p.add_argument("--max-tag", type=int, default=2, metavar="K", help="largest tag of the counts (default 2)")
    p.add_argument("--workers", type=int, default=1, metavar="W", help="worker processes (default 1)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS (exact-odds[dask])")
    p.add_argument("--record", metavar="FILE", help="replay the cards of a recorded shoe instead ('-' for stdin)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the distribution of edges (exact-odds[plot])")
    add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_study)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (_add_eor, _add_batch, _add_study)
"""Functions adding one subcommand each, in the order of the help."""
