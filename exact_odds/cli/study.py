"""Composition-dependent commands: ``eor``, ``batch``, ``study`` (with ``--count`` and ``--edge-sort``),
``count``. No arithmetic here: the figures come from :mod:`exact_odds.study`."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from exact_odds.analysis.information import Information
from exact_odds.analysis.removal import effects_of_removal
from exact_odds.batch import evaluate
from exact_odds.batch.compiled import wanted
from exact_odds.batch.io import parse_compositions
from exact_odds.bets import usable_bets
from exact_odds.cli import options
from exact_odds.inputs import validate
from exact_odds.inputs.reading import read_user_file, user_blocks
from exact_odds.report import study as study_report
from exact_odds.report.plots import count_drawing, eor_drawing, study_drawing
from exact_odds.study.counting import CountError, find_count
from exact_odds.study.replay import read_record, replay
from exact_odds.study.run import StudyError, run_study
from exact_odds.study.tasks import study_workers

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.tableau import Tableau
    from exact_odds.study.counting import Count
    from exact_odds.study.run import Study
    from exact_odds.study.tasks import Workers


def cmd_eor(args: argparse.Namespace) -> options.Output:
    shoe = options.shoe_from_args(args)
    choice = options.bets_from_args(args)
    named = choice.named(args.bet) or list(choice.loaded)
    every = choice.known.values() if choice.side is None else [*choice.main, *choice.side]  # a game: its bets
    bets, left_out = (named, []) if named else usable_bets(shoe, every)
    omitted = [bet.name for bet in left_out]
    with options.progress_bar(args, "eor") as bar:  # the effects of each bet, then the count each suggests
        removals = effects_of_removal(shoe, bets, tableau=options.tableau_from_args(args),
                                      progress=lambda done, total: bar(done, 2 * total))
        counts = []
        for removal in removals:
            counts.append(removal.count(max_tag=args.max_tag))
            bar(len(removals) + len(counts), 2 * len(removals))
    title = f"Effects of removal, {shoe}"
    return options.render(args, lambda: study_report.eor_json(shoe, removals, counts, omitted=omitted),
                          lambda: study_report.eor_tables(str(shoe), removals, counts, args.format,
                                                          omitted=omitted, max_tag=args.max_tag),
                          figures=options.figures(args, title, lambda: eor_drawing(removals, counts, title)))


def add_eor(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "eor", help="exact effects of removal of each rank on every bet, and the counts they suggest",
        description="For every bet (or those named with --bet) and each rank: EV(shoe less one card of the rank) "
                    "- EV(shoe), exactly, from the bettor's side per unit staked; then the balanced linear count "
                    "the effects suggest and its betting correlation.",
        **options.examples('exact-odds eor --decks 1 --bet banker,player,tie',
                           'exact-odds eor --decks 2 --bets examples/side_bets.toml --format csv'))
    options.add_shoe_options(p)
    options.add_bet_option(p, "only these bets (names or aliases; repeatable or comma-separated; default: every bet, "
                              "the game's bets with --game, or only the bets of --bets FILE)")
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    p.add_argument("--max-tag", type=validate.MAX_TAG.option, default=2, metavar="K",
                   help="largest tag of the suggested counts (default 2)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the effects as bar charts (needs exact-odds[plot])")
    options.add_format_options(p, quiet=True)


def cmd_batch(args: argparse.Namespace) -> Iterator[str]:
    choice = options.bets_from_args(args)
    bets = choice.named(args.bet) or list(choice.loaded)
    tableau = options.tableau_from_args(args)
    provenance = options.provenance_from_args(args)
    if args.format == "jsonl":  # the first line: the provenance, then one composition a line
        opening = json.dumps({"provenance": provenance.as_json()}) + "\n"
    else:
        opening = provenance.comment_lines() + study_report.batch_header(bets, args.format)
    blocks = user_blocks(args.input, "compositions")
    return _batch_lines(opening, blocks, args.input, bets, tableau, args.format)


def _batch_lines(opening: str, blocks: Iterator[tuple[int, str]], source: str, bets: list[Bet], tableau: Tableau,
                 fmt: str) -> Iterator[str]:
    """The output of ``batch``: ``opening`` (provenance and header), then the lines of each block
    of the input as it is read, evaluated and written (an input of any size in bounded memory)."""
    jit = wanted(_expected_lines(source)) or None  # a large file: compiled from its first block; else by block
    for first, text in blocks:  # the opening goes with the first block's lines: nothing is written before
        lines, counts = parse_compositions(text, source=source, first_line=first, header=first == 1, jit=jit)
        found = evaluate(counts, bets=bets, tableau=tableau, lines=lines, jit=jit) if lines else None
        yield opening + ("" if found is None else study_report.batch_text(found, lines, fmt, header=False, jit=jit))
        opening = ""
    if opening:  # an empty input
        yield opening


def _expected_lines(path: str) -> int:
    """About how many compositions the file at ``path`` holds (0 for standard input): at most one
    per 26 bytes (13 one-digit counts and their commas), about one per 40 for 8-deck shoes."""
    try:
        return 0 if path == "-" else os.stat(path).st_size // 40
    except OSError:
        return 0


def add_batch(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "batch", help="exact banker/player/tie counts (and bet EVs) of many compositions at once",
        description="Read one composition per line (13 comma-separated counts A,2,...,9,T,J,Q,K; '#' comments and "
                    "blank lines ignored; an optional first line names the ranks in that order, as A,2,...,K or "
                    "ace,two,...,king) and write one line each: the input line number, banker, player and tie "
                    "ways over ordered six-card sequences, the number of sequences, and with --bet the exact EV "
                    "of each bet as num/den. Integers are identical to the reference enumerator's.",
        **options.examples('exact-odds batch --input examples/compositions.csv --bet banker,player',
                           'exact-odds batch --input examples/compositions.csv --format jsonl --output evs.jsonl'))
    p.add_argument("--input", "-i", required=True, metavar="FILE", help="compositions file ('-' for stdin)")
    options.add_bet_option(p, "also the exact EV of these bets (repeatable or comma-separated)")
    options.add(p, "--game")
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    p.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file (default: the game's)")
    p.add_argument("--format", default="csv", choices=["csv", "jsonl"], help="output format (default csv)")
    options.add(p, "--output")


def cmd_study(args: argparse.Namespace) -> options.Output:
    with workers_from_args(args) as workers:
        shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
        choice = options.bets_from_args(args)
        bets = choice.named(args.bet) or list(choice.loaded) or choice.main
        if args.input is not None:  # --input '' is refused, not ignored
            return _replay(args, shoe, tableau, bets)
        if args.shoes is None:
            raise StudyError("give --shoes N (shoes to deal) or --input FILE (a recorded shoe)")
        edge_sort = None if args.edge_sort is None else Information.parse("1", args.edge_sort)  # the first card
        study = _dealt(args, "study", choice, bets, counts_from_args(args, choice), workers, thresholds=args.thresholds,
                       max_tag=args.max_tag, edge_sort=edge_sort, sort_bets=[b.name for b in bets])
    return options.render(args, lambda: study_report.study_json(study),
                          lambda: study_report.study_tables(study, args.format),
                          figures=options.figures(args, "Player EV before each coup", lambda: study_drawing(study)))


def _dealt(args: argparse.Namespace, label: str, choice: options.CommandBets, bets: list[Bet], counts: list[Count],
           workers: Workers | None, **more: Any) -> Study:
    """The study of --shoes dealt shoes (``study``, ``count``), with its progress bar."""
    with options.progress_bar(args, label, unit="shoes") as bar:
        return run_study(options.shoe_from_args(args), shoes=args.shoes, seed=options.seed_from_args(args),
                         bets=with_count_bets(bets, counts, choice), tableau=options.tableau_from_args(args),
                         procedure=options.procedure_from_args(args), workers=args.workers, dask=args.dask,
                         progress=bar, counts=counts, pool=workers,
                         records=bool(args.plot) or args.format == "html", **more)  # the figures drawn read them


def _replay(args: argparse.Namespace, shoe: Shoe, tableau: Tableau, bets: list[Bet]) -> options.Output:
    """``study --input FILE``: the exact player EV of each bet before each coup of a recorded shoe."""
    if args.counts or args.edge_sort is not None:
        raise StudyError("--count and --edge-sort study dealt shoes (--shoes N), not a recorded shoe")
    rep = replay(read_record(read_user_file(args.input, "record", stdin=True)), shoe, bets=bets, tableau=tableau)
    return options.render(args, lambda: study_report.replay_json(rep),
                          lambda: [study_report.replay_table(rep, args.format)],
                          procedure=None, procedure_text=REPLAYED)


REPLAYED = "the recorded shoe, replayed from its first card in the order recorded (no burn, no cut card)"
"""How ``study --input`` deals, as its provenance says."""


def add_study(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "study", help="deal shoes and study the exact player EV of each bet before every coup (or replay a record)",
        description="Deal --shoes shuffled shoes to the cut card and evaluate the exact player EV (the bettor's "
                    "expectation) of each bet before every coup: its distribution, how often it is positive and "
                    "what betting only "
                    "those gains, what the count suggested by the effects of removal gains at true-count "
                    "thresholds, and the cut-card effect. With --input FILE, replay a real shoe (cards in "
                    "dealing order, e.g. 'Kh 3d 9s ...') and print the exact player EV of each bet before each coup.",
        **options.examples('exact-odds study --shoes 4 --seed 5',
                           'exact-odds study --shoes 4 --seed 5 --bet banker,dragon-7 --count jacobson-dragon-7',
                           'exact-odds study --input examples/shoe_record.txt --bet banker,player,tie'))
    options.add_shoe_options(p)
    p.add_argument("--shoes", type=validate.SHOES.option, metavar="N", help="number of shoes to deal")
    options.add(p, "--seed")
    options.add_procedure_options(p, fresh=False)
    options.add_bet_option(p, "bets to study (default: banker player tie, of --config or the game, or the bets of "
                              "--bets FILE; repeatable or comma-separated)")
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    p.add_argument("--thresholds", type=validate.THRESHOLD.option, nargs="+", default=[0, 4, 8, 12, 16, 20],
                   metavar="T",
                   help="true-count thresholds of the count strategies (default 0 4 8 12 16 20)")
    p.add_argument("--max-tag", type=validate.MAX_TAG.option, default=2, metavar="K",
                   help="largest tag of the counts (default 2)")
    add_run_options(p)
    options.add_input_option(p, "replay the cards of a recorded shoe instead ('-' for stdin)", old="--record")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the distribution of the player EV (exact-odds[plot])")
    add_count_option(p)
    p.add_argument("--edge-sort", metavar="GROUPS", type=validate.spec_option,
                   help="edge sorting: the group of the first card of every coup is known (NAME=CARDS entries, e.g. "
                        "'high=6|7|8|9'; the other cards are 'other'); the best play given the group, or sitting "
                        "out, is set beside flat betting, choosing among the studied bets (--bet)")
    options.add_format_options(p, quiet=True)


def add_count_option(parser: argparse.ArgumentParser) -> None:
    """--count SPEC (repeatable)."""
    parser.add_argument(
        "--count", dest="counts", action="append", default=[], metavar="SPEC", type=validate.spec_option,
        help="a count of one's own: a published one by name (jacobson-dragon-7, wizard-panda-8) or a spec "
             "'RANKS=TAG, ..., bet=NAME, tc>=T' (e.g. '4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4'; ranks not "
             "named are tagged 0; optional name=LABEL): bet one unit on NAME when the true count (running "
             "count per deck unseen) is at least T; repeatable, and the counts are compared on the same shoes")


def counts_from_args(args: argparse.Namespace, choice: options.CommandBets) -> list[Count]:
    """The --count values, each count's bet named as the registry names it (aliases resolved)."""
    return [replace(count, bet=choice.known.find(count.bet).name) for count in map(find_count, args.counts)]


def with_count_bets(bets: list[Bet], counts: list[Count], choice: options.CommandBets) -> list[Bet]:
    """The studied bets, then each count's bet not among them (in the order of the counts)."""
    out = list(bets)
    for count in counts:
        if all(b.name != count.bet for b in out):
            out.append(choice.known.find(count.bet))
    return out


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """--workers and --dask: where the tasks of a study run."""
    parser.add_argument("--workers", type=validate.WORKERS.option, default=1, metavar="W",
                        help="processes working on the shoes, in all (default 1)")
    parser.add_argument("--dask", type=validate.dask_option, metavar="ADDRESS",
                        help="run on the Dask scheduler at ADDRESS (exact-odds[dask])")


def workers_from_args(args: argparse.Namespace) -> AbstractContextManager[Workers | None]:
    """The worker processes of a study of --shoes with --workers W > 1 (not --dask, not a replayed
    --input), started before this process reads the shoe and the bets, so that they import meanwhile."""
    if args.workers <= 1 or args.dask is not None or args.shoes is None or getattr(args, "input", None) is not None:
        return nullcontext()
    return study_workers(args.workers, args.shoes, options.shoe_from_args(args).size)


def cmd_count(args: argparse.Namespace) -> options.Output:
    with workers_from_args(args) as workers:
        choice = options.bets_from_args(args)
        counts = counts_from_args(args, choice)
        if not counts:
            raise CountError("give one or more --count (a published count's name or a spec)")
        if args.shoes is None:
            raise CountError("give --shoes N (shoes to deal)")
        study = _dealt(args, "count", choice, [], counts, workers)
    return options.render(args, lambda: study_report.count_json(study), lambda: study_report.count_tables(study),
                          figures=options.figures(args, "Player EV by true count", lambda: count_drawing(study)))


def add_count(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "count", help="evaluate counts of one's own (tags, a true-count trigger, a bet) over dealt shoes, exactly",
        description="Deal --shoes shuffled shoes to the cut card (the shoes of 'study' and 'simulate' with the same "
                    "--seed) and judge each --count by the exact expectation of its bet before every coup: its "
                    "betting correlation with the exact effects of removal, how often it triggers, the average "
                    "player_ev when it does, and its gain per coup and per shoe (expected and realised), with 95% "
                    "confidence intervals over shoes; several counts are compared on the same shoes.",
        **options.examples('exact-odds count --count jacobson-dragon-7 --shoes 4 --seed 1',
                           "exact-odds count --count '4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4' --shoes 4 --seed 1"))
    add_count_option(p)
    options.add_shoe_options(p)
    p.add_argument("--shoes", type=validate.SHOES.option, metavar="N", help="number of shoes to deal")
    options.add(p, "--seed")
    options.add_procedure_options(p, fresh=False)
    options.add(p, "--bets")
    add_run_options(p)
    p.add_argument("--plot", metavar="FILE.png",
                   help="also draw each count's mean exact player EV by true count (needs exact-odds[plot])")
    options.add_format_options(p, quiet=True)
