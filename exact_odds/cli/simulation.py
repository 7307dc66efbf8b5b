"""The simulator's commands: ``simulate``, ``deal``, ``session``, ``roads``; and ``verify``, which checks a log
of coups (or counts) that any program dealt against the exact values."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from itertools import count
from typing import TYPE_CHECKING, Any, TextIO

from exact_odds.analysis.conditional import explain_coup
from exact_odds.analysis.roads import build_roads, from_winners, parse_results
from exact_odds.analysis.sessions import one_hand, parse_bankroll, ruin_probability, session_distribution
from exact_odds.bets import load_bets
from exact_odds.cli import options
from exact_odds.core.tableau import STANDARD_TABLEAU, load_tableau
from exact_odds.dealing.dealer import shoe_coup, shoe_winners
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import exists, read_user_file
from exact_odds.inputs.validate import shown
from exact_odds.report import simulation
from exact_odds.report.files import atomic_file
from exact_odds.report.plots import session_drawing
from exact_odds.report.simulation import verify_command_tables, verify_json
from exact_odds.witness.simulate import compare_sessions, simulate, simulate_sessions
from exact_odds.witness.verify import LogVerification, parse_counts, verify_counts, verify_file, write_log

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.witness.verify import CoupLog


def cmd_simulate(args: argparse.Namespace) -> options.Output:
    bets = _simulated_bets(args)
    reference = ((load_tableau(args.verify_rules) if args.verify_rules is not None else STANDARD_TABLEAU)
                 if args.verify else None)

    with ExitStack() as stack:
        record = _log_writer(stack.enter_context(atomic_file(args.log))) if args.log is not None else None
        bar = stack.enter_context(options.progress_bar(args, "simulate"))
        sim = simulate(options.shoe_from_args(args), seed=options.seed_from_args(args),
                       coups=args.coups if args.shoes is None else None, shoes=args.shoes,
                       tableau=options.tableau_from_args(args), procedure=options.procedure_from_args(args), bets=bets,
                       reference=reference, alpha=args.alpha, record=record, progress=bar)
    options.failed_if(args, sim.check is not None and sim.check.verdict == "FAIL")
    return options.render(args, lambda: simulation.simulation_json(sim), lambda: simulation.simulation_tables(sim))


def _simulated_bets(args: argparse.Namespace) -> list[Bet]:
    """The bets backed on every coup: the --bet names, else every bet of the --bets files, else banker,
    player and tie. The old spelling, names and files mixed after --bets, still works; a value that is a
    file and a bet name at once is refused rather than guessed."""
    values = options.bet_names(args.bet_files, "--bets")
    choice = options.bets_from_args(args, files=())
    names = [v for v in values if not v.lower().endswith(".toml") and not exists(v)]
    clash = [v for v in values if v not in names and not v.lower().endswith(".toml") and v in choice.known]
    if clash:
        raise InputError(f"--bets {shown(clash[0])} is both a file and a bet name: give bet names with --bet and "
                         f"files with --bets (e.g. --bets ./{clash[0]})")
    if names:  # the old spelling: the values in order, a file giving every bet it defines
        bets = choice.named(args.bet)
        for value in values:
            if value in names:
                bets.append(choice.find(value))
            else:
                loaded = load_bets(value, joining=choice.known)
                choice = replace(choice, known=choice.known.extended(loaded))
                bets += loaded
        return bets
    choice = options.bets_from_args(args, files=values)
    return choice.named(args.bet) or list(choice.loaded) or choice.main


def _log_writer(out: TextIO) -> Callable[[CoupLog], None]:
    """Write the blocks of coups a simulation deals to ``out`` as one log (a header, then the coups)."""
    blocks = count()
    return lambda log: write_log(log, out, header=next(blocks) == 0)


def add_simulate(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "simulate", help="deal coups from shuffled shoes; check them against the exact values",
        description="Deal coups from seeded, shuffled shoes (burn, cut card) or fresh shoes, bet flat on each "
                    "coup, and with --verify check the coups dealt as `exact-odds verify` checks a log: every "
                    "draw against the tableau, the labels, the cards each shoe holds, and the outcome, pair and "
                    "card frequencies against the exact odds given the cards dealt before each coup, with a "
                    "PASS/FAIL verdict (exit status 1 on FAIL), and each bet's player EV beside the exact one. "
                    "--rules is the tableau the simulated table deals with; --verify-rules the tableau the "
                    "exact values assume (default standard), so a wrong --rules table shows up as FAIL. "
                    "--log FILE writes every coup dealt in the format `exact-odds verify` reads.",
        **options.examples('exact-odds simulate --coups 2000 --seed 1 --verify',
                           'exact-odds simulate --shoes 2 --seed 3 --bet banker,dragon-7 --log coups.csv',
                           'exact-odds simulate --fresh --coups 1000 --seed 2 --format json'))
    options.add_shoe_options(p)
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--coups", type=validate.COUPS.option, default=100_000, metavar="N",
                        help="coups to deal (default 100000)")
    options.add_hidden_alias(amount, "--rounds", "coups", type=validate.COUPS.option)
    amount.add_argument("--shoes", type=validate.SHOES.option, metavar="M", help="deal M whole shoes instead")
    options.add(p, "--seed")
    options.add_procedure_options(p)
    options.add_bet_option(p, "bets to back with one unit on every coup (repeatable, or comma-separated; default: "
                              "the bets of --bets files, else banker, player and tie)")
    p.add_argument("--bets", dest="bet_files", action="extend", nargs="+", default=[], metavar="FILE",
                   help="also load the side bets defined in this TOML file (repeatable); see examples/side_bets.toml")
    options.add_config_option(p, "the pay table of banker, player and tie")
    p.add_argument("--verify", action="store_true", help="compare with the exact values and give a verdict")
    p.add_argument("--verify-rules", metavar="FILE", help="tableau the exact values assume (default: standard)")
    p.add_argument("--alpha", type=validate.ALPHA.option, default=0.001,
                   help="significance level of the verdict (default 0.001)")
    p.add_argument("--log", metavar="FILE",
                   help="write every coup dealt to FILE, one a line, in the CSV format `exact-odds verify` reads")
    options.add_format_options(p, quiet=True)


def cmd_deal(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    seed = options.seed_from_args(args)
    sc = shoe_coup(shoe, seed, coup=args.coup, tableau=tableau, procedure=options.procedure_from_args(args))
    steps, coup = explain_coup(sc.remaining, sc.cards, tableau,
                               card_text=lambda c: simulation.card_label(c, ascii_only=args.ascii))
    return options.render(args, lambda: simulation.deal_json(sc, seed, shoe, steps, coup),
                          lambda: simulation.deal_text(sc, seed, str(shoe), steps, coup, ascii_only=args.ascii))


def add_deal(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "deal", help="deal one coup from a shuffled shoe and explain it, with the exact odds as it unfolds",
        description="Shuffle a shoe (the first shoe of `exact-odds simulate` with the same seed), burn, and deal "
                    "one coup: every card, the hand values, why each third card was or was not drawn (the rule of "
                    "the tableau), the winner, and the exact odds before the coup, given the first four cards, "
                    "and given the player's third card.",
        **options.examples('exact-odds deal --seed 7',
                           'exact-odds deal --seed 7 --coup 3 --ascii --no-burn'))
    options.add_shoe_options(p)
    options.add(p, "--seed")
    p.add_argument("--coup", type=validate.COUP.option, default=1, metavar="K",
                   help="deal the K-th coup of the shoe (default 1)")
    p.add_argument("--ascii", action="store_true", help="write cards as Qs 3h instead of Q♠ 3♥")
    options.add_procedure_options(p, fresh=False)
    options.add_format_options(p, ["table", "json"])


def cmd_session(args: argparse.Namespace) -> options.Output:
    shoe, tableau = options.shoe_from_args(args), options.tableau_from_args(args)
    bet = options.bets_from_args(args).find(args.bet)  # a built-in bet, the game's, one of a --bets FILE
    bankroll = parse_bankroll(args.bankroll) if args.bankroll is not None else None
    if args.plot and not args.sessions:
        raise InputError("--plot draws the simulated sessions: give --sessions M (at least 1)")
    one = one_hand(shoe, bet, tableau)
    exact = session_distribution(one, args.hands)
    ruin = ruin_probability(one, args.hands, bankroll) if bankroll is not None else None
    sims = None
    if args.sessions:
        with options.progress_bar(args, "session") as bar:
            sims = simulate_sessions(shoe, bet, hands=args.hands, sessions=args.sessions, bankroll=bankroll,
                                     seed=options.seed_from_args(args), tableau=tableau,
                                     procedure=options.procedure_from_args(args), progress=bar)
    title = f"{bet.name}: net result after {args.hands:,} hands, {shoe}"
    figures = None if sims is None else options.figures(args, title, lambda: session_drawing(exact, sims, title))
    comparison = compare_sessions(one, exact, ruin, sims)
    return options.render(args, lambda: simulation.session_json(comparison, shoe, distribution=args.distribution),
                          lambda: simulation.session_tables(comparison, str(shoe), distribution=args.distribution),
                          figures=figures)


def add_session(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "session", help="a flat bettor's session: the exact net result after n hands and risk of ruin, "
                        "beside simulated sessions",
        description="The exact distribution of a flat bettor's net result after n hands (the hands taken as "
                    "independent, each with the full shoe's exact odds) and the exact probability of losing the "
                    "bankroll within n hands (an absorbing Markov chain), beside the same figures from simulated "
                    "sessions of consecutive coups. --plot draws the simulated distribution with the exact one "
                    "over it (needs exact-odds[plot]).",
        **options.examples('exact-odds session --bet banker --hands 30 --sessions 300 --bankroll 10 --seed 3',
                           'exact-odds session --bet tie --hands 3 --sessions 0 --distribution'))
    options.add_shoe_options(p)
    p.add_argument("--bet", required=True, metavar="NAME", type=validate.spec_option,
                   help="the bet backed with one unit every hand (banker, player, tie: those of --config or the "
                        "game)")
    options.add_config_option(p, "the pay table of banker, player and tie", bets=True)
    p.add_argument("--hands", type=validate.HANDS.option, default=100, metavar="N",
                   help="hands in a session (default 100)")
    p.add_argument("--bankroll", metavar="B", help="bankroll in units, e.g. 20 or 12.5: adds the risk of ruin")
    p.add_argument("--sessions", type=validate.SESSIONS.option, default=10_000, metavar="M",
                   help="simulated sessions beside the exact figures (default 10000; 0: exact only)")
    options.add(p, "--seed")
    options.add_procedure_options(p)
    p.add_argument("--plot", metavar="FILE.png", help="draw the simulated and exact distributions (exact-odds[plot])")
    p.add_argument("--distribution", action="store_true", help="also list the whole exact distribution")
    options.add_format_options(p, quiet=True)


def cmd_roads(args: argparse.Namespace) -> options.Output:
    if args.input is not None:
        if args.seed is not None:
            raise InputError("give either --seed (a simulated shoe) or --input FILE (recorded results), not both")
        results = parse_results(read_user_file(args.input, "results", stdin=True), source=args.input)
        heading = f"Roads of the results in {args.input}"
    else:
        shoe = options.shoe_from_args(args)
        seed = options.seed_from_args(args)
        results = from_winners(shoe_winners(shoe, seed, tableau=options.tableau_from_args(args),
                                            procedure=options.procedure_from_args(args)))
        heading = f"Roads of a shoe of {shoe} shuffled with seed {seed} (the first shoe of simulate --seed {seed})"
    roads = build_roads(results)
    recorded = {"tableau": None, "shoe": None, "procedure": None} if args.input is not None else {}
    return options.render(args, lambda: simulation.roads_json(roads, heading),
                          lambda: simulation.roads_text(roads, heading, color=args.color), **recorded)


def add_roads(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "roads", help="draw the bead plate, big road and derived roads of a shoe",
        description="Draw a shoe's scoreboards in the terminal: the bead plate, the big road (ties marked on the "
                    "entry, dragon tails past six rows) and the big eye boy, small road and cockroach road, from "
                    "a simulated shoe (--seed, the first shoe of `exact-odds simulate --seed S`) or from recorded "
                    "results (--input FILE: B, P, T or banker, player, tie).",
        **options.examples('exact-odds roads --seed 2',
                           'exact-odds roads --input examples/results.txt --color'))
    options.add_shoe_options(p)
    options.add(p, "--seed")
    options.add_input_option(p, "recorded results instead of a simulated shoe ('-': stdin)", old="--results")
    options.add_procedure_options(p, fresh=False)
    p.add_argument("--color", action="store_true", help="colour the marks (red, blue, green) with ANSI escapes")
    options.add_format_options(p, ["table", "json"])


def cmd_verify(args: argparse.Namespace) -> options.Output:
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


def add_verify(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "verify", help="check a log of coups that any program dealt (or its counts) against the exact values",
        description="Check a log of coups, one a line (CSV with a header, or JSON Lines: columns player and "
                    "banker with the cards in the order dealt, e.g. 'Kh 5d 9c'; optional shoe, winner, "
                    "player_total, banker_total, natural, player_pair, banker_pair and net:<bet>): every draw "
                    "against the tableau, every label recomputed, the cards each shoe holds, and the outcome, "
                    "pair and card frequencies against the exact odds given the cards already dealt in each "
                    "shoe. --counts checks totals only. Exit status 1 when a check FAILs, 2 when the log "
                    "cannot be read (the message names the line).",
        **options.examples('exact-odds verify examples/coups_log.csv',
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
    options.add(p, "--seed")
    p.add_argument("--alpha", type=validate.ALPHA.option, default=0.001,
                   help="significance level of the verdict, shared by the statistical checks (default 0.001)")
    p.add_argument("--max-violations", type=validate.VIOLATIONS.option, default=10, metavar="N",
                   help="violations listed in full per check (default 10; all are counted)")
    options.add_format_options(p)
