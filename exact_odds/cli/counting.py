"""Counts of one's own and edge sorting over dealt shoes: ``count``, and ``study --count`` / ``--edge-sort``.

No arithmetic here: the figures come from :mod:`exact_odds.study.counting`,
:mod:`exact_odds.study.edge_sorting` and :mod:`exact_odds.study.run`, the tables from
:mod:`exact_odds.report.advantage_play`.
"""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING

from exact_odds.analysis.information import Information
from exact_odds.cli.examples import examples
from exact_odds.cli.figures import figure
from exact_odds.cli.options import (
    CommandBets,
    Output,
    Subparsers,
    add_bets_option,
    add_format_options,
    add_procedure_options,
    add_quiet_option,
    add_seed_option,
    add_shoe_options,
    bets_from_args,
    procedure_from_args,
    progress_bar,
    render,
    seed_from_args,
    shoe_from_args,
    tableau_from_args,
)
from exact_odds.inputs import validate
from exact_odds.report.advantage_play import count_json, count_tables
from exact_odds.report.plots import count_figure, count_svg
from exact_odds.study.counting import CountError, find_count
from exact_odds.study.pool import study_workers
from exact_odds.study.run import run_study

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.study.counting import Count
    from exact_odds.study.pool import Workers

COUNT_HELP = ("a count of one's own: a published one by name (jacobson-dragon-7, wizard-panda-8) or a spec "
              "'RANKS=TAG, ..., bet=NAME, tc>=T' (e.g. '4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4'; ranks not "
              "named are tagged 0; optional name=LABEL): bet one unit on NAME when the true count (running "
              "count per deck unseen) is at least T; repeatable, and the counts are compared on the same shoes")
EDGE_SORT_HELP = ("edge sorting: the group of the first card of every coup is known (NAME=CARDS entries, e.g. "
                  "'high=6|7|8|9'; the other cards are 'other'); the best play given the group, or sitting out, "
                  "is set beside flat betting, choosing among the studied bets (--bet)")


def add_count_option(parser: argparse.ArgumentParser) -> None:
    """--count SPEC (repeatable)."""
    parser.add_argument("--count", dest="counts", action="append", default=[], metavar="SPEC",
                        type=validate.spec_option, help=COUNT_HELP)


def add_edge_sort_option(parser: argparse.ArgumentParser) -> None:
    """--edge-sort GROUPS."""
    parser.add_argument("--edge-sort", metavar="GROUPS", type=validate.spec_option, help=EDGE_SORT_HELP)


def counts_from_args(args: argparse.Namespace, choice: CommandBets) -> list[Count]:
    """The --count values, each count's bet named as the registry names it (aliases resolved)."""
    return [replace(count, bet=choice.known.find(count.bet).name) for count in map(find_count, args.counts)]


def with_count_bets(bets: list[Bet], counts: list[Count], choice: CommandBets) -> list[Bet]:
    """The studied bets, then each count's bet not among them (in the order of the counts)."""
    out = list(bets)
    for count in counts:
        if all(b.name != count.bet for b in out):
            out.append(choice.known.find(count.bet))
    return out


def edge_sort_from_args(args: argparse.Namespace) -> Information | None:
    """The information of --edge-sort: the group of the first card (position 1)."""
    return None if args.edge_sort is None else Information.parse("1", args.edge_sort)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """--workers and --dask: where the tasks of a study run."""
    parser.add_argument("--workers", type=validate.WORKERS.option, default=1, metavar="W",
                        help="processes working on the shoes, in all (default 1)")
    parser.add_argument("--dask", type=validate.dask_option, metavar="ADDRESS",
                        help="run on the Dask scheduler at ADDRESS (exact-odds[dask])")


def workers_from_args(args: argparse.Namespace) -> AbstractContextManager[Workers | None]:
    """The worker processes of a study of --shoes with --workers W > 1 (not --dask, not a replayed
    --input), started now, before this process reads the shoe and the bets: they import the study's
    modules meanwhile (:func:`exact_odds.study.pool.study_workers`); None: no workers."""
    if args.workers <= 1 or args.dask is not None or args.shoes is None or getattr(args, "input", None) is not None:
        return nullcontext()

    return study_workers(args.workers, args.shoes, shoe_from_args(args).size)


def _cmd_count(args: argparse.Namespace) -> Output:
    with workers_from_args(args) as workers:
        choice = bets_from_args(args)
        counts = counts_from_args(args, choice)
        if not counts:
            raise CountError("give one or more --count (a published count's name or a spec)")
        if args.shoes is None:
            raise CountError("give --shoes N (shoes to deal)")
        bar = progress_bar(args, "count", unit="shoes")
        try:
            study = run_study(shoe_from_args(args), shoes=args.shoes,
                              seed=seed_from_args(args),
                              bets=with_count_bets([], counts, choice), tableau=tableau_from_args(args),
                              procedure=procedure_from_args(args), workers=args.workers, dask=args.dask,
                              progress=bar, counts=counts, pool=workers,
                              records=bool(args.plot) or args.format == "html")  # the figures drawn read them
        finally:
            bar.close()

    if args.plot:
        count_figure(study, args.plot)
    return render(args, lambda: count_json(study), lambda: count_tables(study),
                  figures=figure("Player EV by true count", lambda: count_svg(study)))


def add_count(sub: Subparsers) -> None:
    """The ``count`` command."""
    p = sub.add_parser(
        "count", help="evaluate counts of one's own (tags, a true-count trigger, a bet) over dealt shoes, exactly",
        description="Deal --shoes shuffled shoes to the cut card (the shoes of 'study' and 'simulate' with the same "
                    "--seed) and judge each --count by the exact expectation of its bet before every coup: its "
                    "betting correlation with the exact effects of removal, how often it triggers, the average "
                    "player_ev when it does, and its gain per coup and per shoe (expected and realised), with 95% "
                    "confidence intervals over shoes; several counts are compared on the same shoes.",
        **examples('exact-odds count --count jacobson-dragon-7 --shoes 4 --seed 1',
                   "exact-odds count --count '4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4' --shoes 4 --seed 1"))
    add_count_option(p)
    add_shoe_options(p)
    p.add_argument("--shoes", type=validate.SHOES.option, metavar="N", help="number of shoes to deal")
    add_seed_option(p)
    add_procedure_options(p, fresh=False)
    add_bets_option(p)
    add_run_options(p)
    p.add_argument("--plot", metavar="FILE.png",
                   help="also draw each count's mean exact player EV by true count (needs exact-odds[plot])")
    add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_count)
