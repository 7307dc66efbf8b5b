"""The ``verify`` command: check a log of coups (or counts) that any program dealt against the exact values."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from exact_odds.cli import options
from exact_odds.cli.examples import examples
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.report.verify import verify_command_tables, verify_json
from exact_odds.witness.verify import LogVerification, parse_counts, verify_counts, verify_file


def _cmd_verify(args: argparse.Namespace) -> options.Output:
    try:
        return _verify(args)
    except MemoryError:
        if args.counts is not None:
            raise InputError("out of memory estimating the rates of whole shoes: give fewer "
                             "--reference-shoes") from None
        raise InputError("out of memory checking the log: a log is read a block of whole shoes at a time unless its "
                         "shoes are interleaved or one shoe holds millions of coups; keep each shoe's coups together, "
                         "or check a shorter log") from None


def _verify(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    if args.input is not None:
        if args.log is not None:
            raise InputError("give the log as LOG or as --input LOG, not both")
        args.log = args.input
    result: LogVerification
    seed: int | None = None
    if args.counts is not None:
        if args.log is not None:
            raise InputError("give a LOG or --counts, not both")
        counts = parse_counts(args.counts)
        if args.shoes is None:
            result = verify_counts(counts, shoe, tableau, alpha=args.alpha)
        else:
            seed = options.seed_from_args(args)
            result = verify_counts(counts, shoe, tableau, alpha=args.alpha, shoes=args.shoes,
                                   procedure=options.procedure_from_args(args), seed=seed,
                                   reference_shoes=args.reference_shoes)
    else:
        if args.log is None:
            raise InputError("give a LOG file ('-' for standard input) or --counts")
        if args.shoes is not None:
            raise InputError("--shoes goes with --counts: a log gives its shoes in its shoe column")
        choice = options.bets_from_args(args)
        extra = (*(choice.side or ()), *(bet for bet in choice.loaded if bet not in (choice.side or ())))
        result = verify_file(args.log, shoe, tableau, alpha=args.alpha, max_violations=args.max_violations,
                             bets=extra, config=choice.configuration, procedure=options.procedure_from_args(args))
    options.failed_if(args, result.verdict == "FAIL")
    given: dict[str, Any] = {}
    if args.counts is None and result.procedure is None:
        given["procedure_text"] = "not checked (the log cannot show it: see the notes)"
    return options.render(args, lambda: verify_json(result, seed), lambda: verify_command_tables(result, seed), **given)


def _add_verify(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "verify", help="check a log of coups that any program dealt (or its counts) against the exact values",
        description="Check a log of coups, one a line (CSV with a header, or JSON Lines: columns player and "
                    "banker with the cards in the order dealt, e.g. 'Kh 5d 9c'; optional shoe, winner, "
                    "player_total, banker_total, natural, player_pair, banker_pair and net:<bet>): every draw "
                    "against the tableau, every label recomputed, the cards each shoe holds, and the outcome, "
                    "pair and card frequencies against the exact odds given the cards already dealt in each "
                    "shoe. --counts checks totals only. Exit status 1 when a check FAILs, 2 when the log "
                    "cannot be read (the message names the line).",
        **examples('exact-odds verify examples/coups_log.csv',
                   'exact-odds verify --counts banker=4586,player=4462,tie=952',
                   'exact-odds simulate --coups 500 --seed 1 --log coups.csv --quiet',
                   'exact-odds verify coups.csv --format json'))
    p.add_argument("log", nargs="?", metavar="LOG", help="the log file ('-': standard input)")
    options.add_input_option(p, "the log file, as LOG gives it")
    p.add_argument("--counts", metavar="SPEC", type=validate.spec_option,
                   help="totals only: banker=N,player=N,tie=N[,player-pair=N,banker-pair=N]; a pair count "
                        "is at most the coups, banker + player + tie")
    p.add_argument("--shoes", type=validate.SHOES.option, metavar="M",
                   help="with --counts: the counts come from M whole shoes dealt to the cut card (--cut-card, "
                        "--last-coup, --no-burn); the rates over whole shoes are estimated from shoes dealt "
                        "with --seed, and the report states their precision; counts whose total M shoes cannot "
                        "deal are refused")
    p.add_argument("--reference-shoes", type=validate.REFERENCE_SHOES.option, metavar="K",
                   help="with --counts --shoes: shoes dealt to estimate the rates (default: M, at least "
                        "4,000 and at most 16,000)")
    options.add_shoe_options(p)
    options.add_config_option(p, "pay table of the net:banker, net:player and net:tie columns", bets=True)
    options.add_procedure_options(p, fresh=False)
    options.add_seed_option(p)
    p.add_argument("--alpha", type=validate.ALPHA.option, default=0.001,
                   help="significance level of the verdict, shared by the statistical checks (default 0.001)")
    p.add_argument("--max-violations", type=validate.VIOLATIONS.option, default=10, metavar="N",
                   help="violations listed in full per check (default 10; all are counted)")
    options.add_format_options(p)
    p.set_defaults(handler=_cmd_verify)


COMMANDS: tuple[Callable[[options.Subparsers], None], ...] = (_add_verify,)
