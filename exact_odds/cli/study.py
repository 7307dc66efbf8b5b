"""Composition-dependent commands: ``eor``, ``batch``, ``study``."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from exact_odds.analysis.removal import effects_of_removal
from exact_odds.batch import evaluate, parse_compositions
from exact_odds.batch.compiled import wanted
from exact_odds.bets import usable_bets
from exact_odds.cli.counting import (
    add_count,
    add_count_option,
    add_edge_sort_option,
    counts_from_args,
    edge_sort_from_args,
    with_count_bets,
    workers_from_args,
)
from exact_odds.cli.examples import examples
from exact_odds.cli.figures import figure, removal_figures
from exact_odds.cli.options import (
    Output,
    Subparsers,
    add_bet_option,
    add_bets_option,
    add_config_option,
    add_format_options,
    add_game_option,
    add_input_option,
    add_output_option,
    add_procedure_options,
    add_quiet_option,
    add_seed_option,
    add_shoe_options,
    bets_from_args,
    procedure_from_args,
    progress_bar,
    provenance_from_args,
    read_input,
    render,
    seed_from_args,
    shoe_from_args,
    tableau_from_args,
)
from exact_odds.inputs import validate
from exact_odds.inputs.reading import user_blocks
from exact_odds.report import (
    batch_header,
    batch_text,
    eor_json,
    eor_tables,
    replay_json,
    replay_table,
    study_json,
    study_tables,
)
from exact_odds.report.plots import eor_figure, study_figure, study_svg
from exact_odds.study.replay import read_record, replay
from exact_odds.study.run import StudyError, run_study

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.tableau import Tableau
    from exact_odds.study.run import Study


def _cmd_eor(args: argparse.Namespace) -> Output:
    shoe = shoe_from_args(args)
    choice = bets_from_args(args)
    named = choice.named(args.bet) or list(choice.loaded)
    every = choice.known.values() if choice.side is None else [*choice.main, *choice.side]  # a game: its bets
    bets, left_out = (named, []) if named else usable_bets(shoe, every)
    omitted = [bet.name for bet in left_out]
    bar = progress_bar(args, "eor")
    try:  # the effects of each bet, then the count each suggests: two steps a bet
        removals = effects_of_removal(shoe, bets, tableau=tableau_from_args(args),
                                      progress=lambda done, total: bar(done, 2 * total))
        counts = []
        for removal in removals:
            counts.append(removal.count(max_tag=args.max_tag))
            bar(len(removals) + len(counts), 2 * len(removals))
    finally:
        bar.close()
    if args.plot:
        eor_figure(removals, counts, args.plot, title=f"Effects of removal, {shoe}")
    return render(args, lambda: eor_json(shoe, removals, counts, omitted=omitted),
                  lambda: eor_tables(str(shoe), removals, counts, args.format, omitted=omitted,
                                     max_tag=args.max_tag),
                  figures=removal_figures(removals, counts, title=f"Effects of removal, {shoe}"))


def _add_eor(sub: Subparsers) -> None:
    p = sub.add_parser(
        "eor", help="exact effects of removal of each rank on every bet, and the counts they suggest",
        description="For every bet (or those named with --bet) and each rank: EV(shoe less one card of the rank) "
                    "- EV(shoe), exactly, from the bettor's side per unit staked; then the balanced linear count "
                    "the effects suggest and its betting correlation.",
        **examples('exact-odds eor --decks 1 --bet banker,player,tie',
                   'exact-odds eor --decks 2 --bets examples/side_bets.toml --format csv'))
    add_shoe_options(p)
    add_bet_option(p, "only these bets (names or aliases; repeatable or comma-separated; default: every bet, the "
                      "game's bets with --game, or only the bets of --bets FILE)")
    add_config_option(p, "the pay table of banker, player and tie")
    add_bets_option(p)
    p.add_argument("--max-tag", type=validate.MAX_TAG.option, default=2, metavar="K",
                   help="largest tag of the suggested counts (default 2)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the effects as bar charts (needs exact-odds[plot])")
    add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_eor)


def _cmd_batch(args: argparse.Namespace) -> Iterator[str]:
    choice = bets_from_args(args)
    bets = choice.named(args.bet) or list(choice.loaded)
    tableau = tableau_from_args(args)
    provenance = provenance_from_args(args)
    if args.format == "jsonl":  # the first line: the provenance, then one composition a line

        opening = json.dumps({"provenance": provenance.as_json()}) + "\n"
    else:
        opening = provenance.comment_lines() + batch_header(bets, args.format)
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
        yield opening + ("" if found is None else batch_text(found, lines, fmt, header=False, jit=jit))
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


def _add_batch(sub: Subparsers) -> None:
    p = sub.add_parser(
        "batch", help="exact banker/player/tie counts (and bet EVs) of many compositions at once",
        description="Read one composition per line (13 comma-separated counts A,2,...,9,T,J,Q,K; '#' comments and "
                    "blank lines ignored; an optional first line names the ranks in that order, as A,2,...,K or "
                    "ace,two,...,king) and write one line each: the input line number, banker, player and tie "
                    "ways over ordered six-card sequences, the number of sequences, and with --bet the exact EV "
                    "of each bet as num/den. Integers are identical to the reference enumerator's.",
        **examples('exact-odds batch --input examples/compositions.csv --bet banker,player',
                   'exact-odds batch --input examples/compositions.csv --format jsonl --output evs.jsonl'))
    p.add_argument("--input", "-i", required=True, metavar="FILE", help="compositions file ('-' for stdin)")
    add_bet_option(p, "also the exact EV of these bets (repeatable or comma-separated)")
    add_game_option(p)
    add_config_option(p, "the pay table of banker, player and tie")
    add_bets_option(p)
    p.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file (default: the game's)")
    p.add_argument("--format", default="csv", choices=["csv", "jsonl"], help="output format (default csv)")
    add_output_option(p)
    p.set_defaults(handler=_cmd_batch)


def _cmd_study(args: argparse.Namespace) -> Output:
    with workers_from_args(args) as workers:
        shoe, tableau = shoe_from_args(args), tableau_from_args(args)
        choice = bets_from_args(args)
        bets = choice.named(args.bet) or list(choice.loaded) or choice.main
        if args.input is not None:  # --input '' is refused, not ignored
            return _replay(args, shoe, tableau, bets)
        if args.shoes is None:
            raise StudyError("give --shoes N (shoes to deal) or --input FILE (a recorded shoe)")
        counts = counts_from_args(args, choice)
        bar = progress_bar(args, "study", unit="shoes")
        try:
            study = run_study(shoe, shoes=args.shoes, seed=seed_from_args(args),
                              bets=with_count_bets(bets, counts, choice), tableau=tableau,
                              procedure=procedure_from_args(args), thresholds=args.thresholds, max_tag=args.max_tag,
                              workers=args.workers, dask=args.dask, progress=bar, counts=counts,
                              edge_sort=edge_sort_from_args(args), sort_bets=[b.name for b in bets], pool=workers,
                              records=bool(args.plot) or args.format == "html")  # the figures drawn read them
        finally:
            bar.close()

    if args.plot:
        study_figure(study, args.plot)
    return render(args, lambda: study_json(study), lambda: study_tables(study, args.format),
                  figures=figure("Player EV before each coup", lambda: _study_svg(study)))


def _replay(args: argparse.Namespace, shoe: Shoe, tableau: Tableau, bets: list[Bet]) -> Output:
    """``study --input FILE``: the exact player EV of each bet before each coup of a recorded shoe."""
    if args.counts or args.edge_sort is not None:
        raise StudyError("--count and --edge-sort study dealt shoes (--shoes N), not a recorded shoe")
    rep = replay(read_record(read_input(args.input, "record")), shoe, bets=bets, tableau=tableau)
    return render(args, lambda: replay_json(rep), lambda: [replay_table(rep, args.format)],
                  procedure=None, procedure_text=REPLAYED)


REPLAYED = "the recorded shoe, replayed from its first card in the order recorded (no burn, no cut card)"
"""How ``study --input`` deals, as its provenance says: the record's cards, from the first."""


def _study_svg(study: Study) -> str:
    return study_svg(study)


def _add_study(sub: Subparsers) -> None:
    p = sub.add_parser(
        "study", help="deal shoes and study the exact player EV of each bet before every coup (or replay a record)",
        description="Deal --shoes shuffled shoes to the cut card and evaluate the exact player EV (the bettor's "
                    "expectation) of each bet before every coup: its distribution, how often it is positive and "
                    "what betting only "
                    "those gains, what the count suggested by the effects of removal gains at true-count "
                    "thresholds, and the cut-card effect. With --input FILE, replay a real shoe (cards in "
                    "dealing order, e.g. 'Kh 3d 9s ...') and print the exact player EV of each bet before each coup.",
        **examples('exact-odds study --shoes 4 --seed 5',
                   'exact-odds study --shoes 4 --seed 5 --bet banker,dragon-7 --count jacobson-dragon-7',
                   'exact-odds study --input examples/shoe_record.txt --bet banker,player,tie'))
    add_shoe_options(p)
    p.add_argument("--shoes", type=validate.SHOES.option, metavar="N", help="number of shoes to deal")
    add_seed_option(p)
    add_procedure_options(p, fresh=False)
    add_bet_option(p, "bets to study (default: banker player tie, of --config or the game, or the bets of --bets "
                      "FILE; repeatable or comma-separated)")
    add_config_option(p, "the pay table of banker, player and tie")
    add_bets_option(p)
    p.add_argument("--thresholds", type=validate.THRESHOLD.option, nargs="+", default=[0, 4, 8, 12, 16, 20],
                   metavar="T",
                   help="true-count thresholds of the count strategies (default 0 4 8 12 16 20)")
    p.add_argument("--max-tag", type=validate.MAX_TAG.option, default=2, metavar="K",
                   help="largest tag of the counts (default 2)")
    p.add_argument("--workers", type=validate.WORKERS.option, default=1, metavar="W",
                   help="processes working on the shoes, in all (default 1)")
    p.add_argument("--dask", type=validate.dask_option, metavar="ADDRESS",
                   help="run on the Dask scheduler at ADDRESS (exact-odds[dask])")
    add_input_option(p, "replay the cards of a recorded shoe instead ('-' for stdin)", old="--record")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the distribution of the player EV (exact-odds[plot])")
    add_count_option(p)
    add_edge_sort_option(p)
    add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_study)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (_add_eor, _add_batch, _add_study, add_count)
"""Functions adding one subcommand each, in the order of the help."""
