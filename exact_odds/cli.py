"""The ``exact-odds`` command line: argparse subcommands, no arithmetic.

``main(argv)`` returns the exit status: 0 on success, 2 on bad input (one line on
stderr, no traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from exact_odds.errors import InputError

if TYPE_CHECKING:
    from exact_odds.bets import Bet
    from exact_odds.bets.main import Configuration
    from exact_odds.report import ProgressBar, Table
    from exact_odds.shoe import Shoe
    from exact_odds.simulate import Procedure
    from exact_odds.tableau import Tableau

PROG = "exact-odds"
Handler = Callable[[argparse.Namespace], str]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see '{self.prog} --help')")


# ---------------------------------------------------------------- shared options


def add_shoe_options(parser: argparse.ArgumentParser) -> None:
    """--decks / --shoe / --remove / --rules."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--decks", default="8", metavar="N",
                       help="number of 52-card decks, or 'inf' for the infinite-deck limit (default 8)")
    group.add_argument("--shoe", metavar="SPEC", help="composition by rank, e.g. A=32,2=32,...,K=32")
    parser.add_argument("--remove", metavar="CARDS", default="",
                        help="cards removed from the shoe, e.g. 5,5,K,9 or 'Kh 3d'")
    parser.add_argument("--rules", metavar="FILE", help="drawing rules (tableau) from a TOML file")


def add_format_options(parser: argparse.ArgumentParser, formats: Sequence[str] | None = None) -> None:
    """--format and --output."""
    from exact_odds.report import FORMATS

    choices = list(formats or FORMATS)
    parser.add_argument("--format", default="table", choices=choices, help="output format (default table)")
    _add_output_option(parser)


def _add_output_option(parser: argparse.ArgumentParser) -> None:
    """--output / -o FILE."""
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE (atomically) instead of stdout")


def _add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """--quiet / -q: no progress bar."""
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _render(args: argparse.Namespace, as_json: Callable[[], object], tables: Callable[[], Sequence[Table]]) -> str:
    """A command's output in its --format: the JSON of ``as_json()``, or the ``tables()`` rendered."""
    from exact_odds.report import render_json, render_tables

    if args.format == "json":
        return render_json(as_json())
    return render_tables(tables(), args.format)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks/--shoe less --remove."""
    from exact_odds.shoe import Shoe, ShoeError, parse_cards

    if args.shoe is not None:
        shoe = Shoe.parse(args.shoe)
    elif str(args.decks).strip().lower() in ("inf", "infinite", "infinity"):
        shoe = Shoe.infinite_deck()
    else:
        text = str(args.decks).strip()
        if not text.isdigit() or int(text) < 1:
            raise ShoeError(f"--decks must be a whole number of at least 1 or 'inf', got {args.decks!r}")
        shoe = Shoe.decks(int(text))
    if args.remove.strip():
        shoe = shoe.without(parse_cards(args.remove))
    return shoe


def tableau_from_args(args: argparse.Namespace) -> Tableau:
    """The standard tableau, or the one loaded from --rules."""
    from exact_odds.tableau import STANDARD_TABLEAU, load_tableau

    return load_tableau(args.rules) if args.rules else STANDARD_TABLEAU


# ---------------------------------------------------------------- odds


def _cmd_odds(args: argparse.Namespace) -> str:
    from exact_odds.engine import deal, winners
    from exact_odds.report import odds_json, odds_table

    shoe = shoe_from_args(args)
    if args.dealt:
        return _dealt_odds(args, shoe, tableau_from_args(args))
    dist = winners(deal(shoe, tableau_from_args(args)))
    counts = {k: dist[k] for k in ("banker", "player", "tie")}
    return _render(args, lambda: odds_json(None if shoe.infinite else shoe.size, counts, dist.total),
                   lambda: [odds_table(str(shoe), counts, dist.total, infinite=shoe.infinite)])


def _add_odds(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("odds", help="exact banker, player and tie odds of a shoe",
                       description="Exact banker, player and tie odds of one coup from a shoe.")
    add_shoe_options(p)
    p.add_argument("--dealt", metavar="CARDS",
                   help="cards already dealt in this coup, e.g. 'P: 9h 4c B: Kd': the odds of the rest of the coup")
    add_format_options(p)
    p.set_defaults(handler=_cmd_odds)


# ---------------------------------------------------------------- edges, parsheet, symbolic, report
# House edges, par sheets, closed forms and the reference report (exact_odds.edges, exact_odds.symbolic).


def _add_config_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--config", metavar="NAME|FILE",
                        help=f"{what}: a configuration (standard, tie-9, commission-4, super-6, ez) or a TOML "
                             "file with a casino's pay table")


def _configs_from_args(args: argparse.Namespace) -> list[Configuration]:
    """The configuration of --config, or every registered one."""
    from exact_odds.bets.main import CONFIGURATIONS, configuration_from

    return [configuration_from(args.config)] if args.config else list(CONFIGURATIONS.values())


def _cmd_edges(args: argparse.Namespace) -> str:
    from exact_odds.edges import configuration_sheets
    from exact_odds.report import edges_json, edges_table

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    sheets = [(config, configuration_sheets(shoe, config, tableau=tableau)) for config in _configs_from_args(args)]
    return _render(args, lambda: edges_json(str(shoe), sheets), lambda: [edges_table(str(shoe), sheets, args.format)])


def _add_edges(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("edges", help="house edges of the main bets in every configuration",
                       description="Exact house edge (per coup and per resolved bet), win/push/loss probabilities "
                                   "and standard deviation of the banker, player and tie bets of every "
                                   "configuration, or of the one given with --config.")
    add_shoe_options(p)
    _add_config_option(p, "only this configuration")
    add_format_options(p)
    p.set_defaults(handler=_cmd_edges)


def _cmd_parsheet(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet
    from exact_odds.bets.main import configuration_from
    from exact_odds.edges import par_sheet
    from exact_odds.report import par_sheet_json, par_sheet_table

    bets_from_args(args)
    bet = configuration_from(args.config).bet(args.bet) if args.config else find_bet(args.bet)
    sheet = par_sheet(shoe_from_args(args), bet, tableau=tableau_from_args(args))
    return _render(args, lambda: par_sheet_json(sheet), lambda: [par_sheet_table(sheet, args.format)])


def _add_parsheet(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("parsheet", help="par sheet of one bet",
                       description="The par sheet of a bet: each pay line's combinations, probability, payout "
                                   "and return, the losing line and the total (the house edge).")
    p.add_argument("--bet", required=True, metavar="NAME",
                   help="a registered bet (banker, super-6/banker, ...), or with --config banker/player/tie")
    add_shoe_options(p)
    _add_config_option(p, "take --bet from this configuration")
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_parsheet)


def _cmd_symbolic(args: argparse.Namespace) -> str:
    from exact_odds.edges import distinct_bets
    from exact_odds.report import closed_form_tables, payout_symbol_tables, symbolic_json
    from exact_odds.symbolic import summary

    bets = [bet for bet, _ in distinct_bets([bet for config in _configs_from_args(args) for bet in config.bets])]
    result = summary(shoe_from_args(args), bets, tableau=tableau_from_args(args))
    return _render(args, lambda: symbolic_json(result),
                   lambda: [*closed_form_tables(result, args.format), *payout_symbol_tables(result, args.format)])


def _add_symbolic(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("symbolic", help="closed forms in the number of decks; break-even payouts",
                       description="Banker, player and tie probabilities and each bet's house edge as exact "
                                   "rational functions of the number of decks d (checked against the enumerator "
                                   "for d = 1..8), and on the chosen shoe each bet's house edge in its payout "
                                   "symbols and the break-even payout of each line.")
    add_shoe_options(p)
    _add_config_option(p, "only this configuration's bets")
    add_format_options(p)
    p.set_defaults(handler=_cmd_symbolic)


def _cmd_report(args: argparse.Namespace) -> str:
    from exact_odds.report import reference_report

    bets_from_args(args)
    return reference_report(shoe_from_args(args), tableau_from_args(args), args.format)


def _add_report(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("report", help="the full reference report (8 decks unless told otherwise)",
                       description="Odds, the house edges of every configuration, the par sheets of the main "
                                   "bets and the house edges of every other registered bet (the side bets).")
    add_shoe_options(p)
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_report)


# ---------------------------------------------------------------- simulate, session, deal, roads
# The simulator's commands (exact_odds.simulate, sessions, conditional, roads); keep other sections out.


def _add_seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, metavar="S",
                        help="seed of the random generator (default: chosen at random and printed)")


def _add_procedure_options(parser: argparse.ArgumentParser, *, fresh: bool = True) -> None:
    """--fresh / --cut-card / --last-coup / --no-burn: how the cards reach the table."""
    if fresh:
        parser.add_argument("--fresh", action="store_true",
                            help="deal every coup from a freshly shuffled full shoe (no burn, no cut card)")
    else:
        parser.set_defaults(fresh=False)
    parser.add_argument("--cut-card", dest="cut", type=int, default=16, metavar="N",
                        help="cards behind the cut card (default 16; 7 with --last-coup this is the "
                             "'seventh-last card' procedure)")
    parser.add_argument("--last-coup", choices=["one-more", "this"], default="one-more",
                        help="when the cut card comes out: finish the coup and deal one more (default), "
                             "or finish the coup and end the shoe")
    parser.add_argument("--no-burn", action="store_true", help="skip the burn at the start of each shoe")


def _add_text_format_options(parser: argparse.ArgumentParser) -> None:
    """--format text|json and --output, for commands whose output is a drawing or a story, not a table."""
    parser.add_argument("--format", default="text", choices=["text", "json"], help="output format (default text)")
    _add_output_option(parser)


def _procedure_from_args(args: argparse.Namespace) -> Procedure:
    from exact_odds.simulate import Procedure

    return Procedure(fresh=args.fresh, cut=args.cut, last_coup=args.last_coup, burn=not args.no_burn)


def _progress(args: argparse.Namespace, label: str, *, unit: str | None = None) -> ProgressBar:
    """A progress bar on stderr: shown only on a terminal and without --quiet."""
    from exact_odds.report import ProgressBar

    return ProgressBar(sys.stderr, label, enabled=sys.stderr.isatty() and not args.quiet, unit=unit)


def _cmd_simulate(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet, load_bets
    from exact_odds.report import simulation_json, simulation_tables
    from exact_odds.simulate import random_seed, simulate, verify
    from exact_odds.tableau import STANDARD_TABLEAU, load_tableau

    bets = [bet for name in _bet_names(args.bets)
            for bet in (load_bets(name) if name.lower().endswith(".toml") else [find_bet(name)])]
    reference = (load_tableau(args.verify_rules) if args.verify_rules else STANDARD_TABLEAU) if args.verify else None
    bar = _progress(args, "simulate")
    try:
        sim = simulate(shoe_from_args(args), seed=random_seed() if args.seed is None else args.seed,
                       coups=args.rounds if args.shoes is None else None, shoes=args.shoes,
                       tableau=tableau_from_args(args), procedure=_procedure_from_args(args), bets=bets,
                       reference=reference, progress=bar)
    finally:
        bar.close()
    check = verify(sim, alpha=args.alpha) if args.verify else None
    if check is not None and check.verdict == "FAIL":
        args.exit_status = 1
    return _render(args, lambda: simulation_json(sim, check), lambda: simulation_tables(sim, check))


def _add_simulate(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "simulate", help="deal coups from shuffled shoes; check them against the exact values",
        description="Deal coups from seeded, shuffled shoes (burn, cut card) or fresh shoes, bet flat on each "
                    "coup, and with --verify compare the outcomes with the exact expectations: z-scores, a "
                    "chi-square test with its p-value and a PASS/FAIL verdict (exit status 1 on FAIL). "
                    "--rules is the tableau the simulated table deals with; --verify-rules the tableau the "
                    "exact values assume (default standard), so a wrong --rules table shows up as FAIL.")
    add_shoe_options(p)
    count = p.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=int, default=100_000, metavar="N", help="coups to deal (default 100000)")
    count.add_argument("--shoes", type=int, metavar="M", help="deal M whole shoes instead")
    _add_seed_option(p)
    _add_procedure_options(p)
    p.add_argument("--bets", "--bet", nargs="+", default=["banker", "player", "tie"], metavar="BET",
                   help="bets to back with one unit on every coup: names (space- or comma-separated) or TOML "
                        "files of bets of your own, every bet of the file (default: banker player tie)")
    p.add_argument("--verify", action="store_true", help="compare with the exact values and give a verdict")
    p.add_argument("--verify-rules", metavar="FILE", help="tableau the exact values assume (default: standard)")
    p.add_argument("--alpha", type=float, default=0.001, help="significance level of the verdict (default 0.001)")
    _add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_simulate)


def _dealt_odds(args: argparse.Namespace, shoe: Shoe, tableau: Tableau) -> str:
    """``odds --dealt``: the exact odds given the cards already dealt in this coup."""
    from exact_odds.conditional import deal_given, parse_dealt
    from exact_odds.engine import winners
    from exact_odds.report import dealt_odds_text

    dealt = parse_dealt(args.dealt)
    return dealt_odds_text(shoe, dealt, winners(deal_given(shoe, dealt, tableau)), args.format)


def _cmd_deal(args: argparse.Namespace) -> str:
    from exact_odds.conditional import explain_coup
    from exact_odds.report import card_label, deal_json, deal_text, render_json
    from exact_odds.simulate import random_seed, shoe_coup

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    seed = random_seed() if args.seed is None else args.seed
    sc = shoe_coup(shoe, seed, coup=args.coup, tableau=tableau, procedure=_procedure_from_args(args))
    steps, coup = explain_coup(sc.remaining, sc.cards, tableau,
                               card_text=lambda c: card_label(c, ascii_only=args.ascii))
    if args.format == "json":
        return render_json(deal_json(sc, seed, str(shoe), steps, coup))
    return deal_text(sc, seed, str(shoe), steps, coup, ascii_only=args.ascii)


def _add_deal(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "deal", help="deal one coup from a shuffled shoe and explain it, with the exact odds as it unfolds",
        description="Shuffle a shoe (the first shoe of `exact-odds simulate` with the same seed), burn, and deal "
                    "one coup: every card, the hand values, why each third card was or was not drawn (the rule of "
                    "the tableau), the winner, and the exact odds before the coup, given the first four cards, "
                    "and given the player's third card.")
    add_shoe_options(p)
    _add_seed_option(p)
    p.add_argument("--coup", type=int, default=1, metavar="K", help="deal the K-th coup of the shoe (default 1)")
    p.add_argument("--ascii", action="store_true", help="write cards as Qs 3h instead of Q♠ 3♥")
    _add_procedure_options(p, fresh=False)
    _add_text_format_options(p)
    p.set_defaults(handler=_cmd_deal)


def _cmd_session(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet
    from exact_odds.report import session_json, session_tables
    from exact_odds.sessions import one_hand, parse_bankroll, ruin_probability, session_distribution
    from exact_odds.simulate import random_seed, simulate_sessions

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    bets_from_args(args)  # register the bets of any --bets FILE, so that --bet finds them
    bet = find_bet(args.bet)
    bankroll = parse_bankroll(args.bankroll) if args.bankroll is not None else None
    if args.plot and not args.sessions:
        raise InputError("--plot draws the simulated sessions: give --sessions M (at least 1)")
    one = one_hand(shoe, bet, tableau)
    exact = session_distribution(one, args.hands)
    ruin = ruin_probability(one, args.hands, bankroll) if bankroll is not None else None
    sims = None
    if args.sessions:
        bar = _progress(args, "session")
        try:
            sims = simulate_sessions(shoe, bet, hands=args.hands, sessions=args.sessions, bankroll=bankroll,
                                     seed=random_seed() if args.seed is None else args.seed, tableau=tableau,
                                     procedure=_procedure_from_args(args), progress=bar)
        finally:
            bar.close()
    if args.plot and sims is not None:
        from exact_odds.plots import session_figure

        session_figure(exact, sims, args.plot, title=f"{bet.name}: net result after {args.hands:,} hands, {shoe}")
    return _render(args, lambda: session_json(one, exact, ruin, sims, str(shoe), distribution=args.distribution),
                   lambda: session_tables(one, exact, ruin, sims, str(shoe), distribution=args.distribution))


def _add_session(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "session", help="a flat bettor's session: the exact net result after n hands and risk of ruin, "
                        "beside simulated sessions",
        description="The exact distribution of a flat bettor's net result after n hands (the hands taken as "
                    "independent, each with the full shoe's exact odds) and the exact probability of losing the "
                    "bankroll within n hands (an absorbing Markov chain), beside the same figures from simulated "
                    "sessions of consecutive coups. --plot draws the simulated distribution with the exact one "
                    "over it (needs exact-odds[plot]).")
    add_shoe_options(p)
    p.add_argument("--bet", required=True, metavar="NAME", help="the bet backed with one unit every hand")
    add_bets_option(p)
    p.add_argument("--hands", type=int, default=100, metavar="N", help="hands in a session (default 100)")
    p.add_argument("--bankroll", metavar="B", help="bankroll in units, e.g. 20 or 12.5: adds the risk of ruin")
    p.add_argument("--sessions", type=int, default=10_000, metavar="M",
                   help="simulated sessions beside the exact figures (default 10000; 0: exact only)")
    _add_seed_option(p)
    _add_procedure_options(p)
    p.add_argument("--plot", metavar="FILE.png", help="draw the simulated and exact distributions (exact-odds[plot])")
    p.add_argument("--distribution", action="store_true", help="also list the whole exact distribution")
    _add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_session)


def _cmd_roads(args: argparse.Namespace) -> str:
    from exact_odds.report import render_json, roads_json, roads_text
    from exact_odds.roads import build_roads, from_winners, parse_results
    from exact_odds.simulate import random_seed, shoe_winners

    if args.results is not None:
        if args.seed is not None:
            raise InputError("give either --seed (a simulated shoe) or --results FILE, not both")
        results = parse_results(_read_input(args.results), source=args.results)
        heading = f"Roads of the results in {args.results}"
    else:
        shoe = shoe_from_args(args)
        seed = random_seed() if args.seed is None else args.seed
        results = from_winners(shoe_winners(shoe, seed, tableau=tableau_from_args(args),
                                            procedure=_procedure_from_args(args)))
        heading = f"Roads of a shoe of {shoe} shuffled with seed {seed} (the first shoe of simulate --seed {seed})"
    roads = build_roads(results)
    if args.format == "json":
        return render_json(roads_json(roads, heading))
    return roads_text(roads, heading, color=args.color)


def _add_roads(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "roads", help="draw the bead plate, big road and derived roads of a shoe",
        description="Draw a shoe's scoreboards in the terminal: the bead plate, the big road (ties marked on the "
                    "entry, dragon tails past six rows) and the big eye boy, small road and cockroach road, from "
                    "a simulated shoe (--seed, the first shoe of `exact-odds simulate --seed S`) or from recorded "
                    "results (--results FILE: B, P, T or banker, player, tie).")
    add_shoe_options(p)
    _add_seed_option(p)
    p.add_argument("--results", metavar="FILE", help="recorded results instead of a simulated shoe ('-': stdin)")
    _add_procedure_options(p, fresh=False)
    p.add_argument("--color", action="store_true", help="colour the marks (red, blue, green) with ANSI escapes")
    _add_text_format_options(p)
    p.set_defaults(handler=_cmd_roads)


# ---------------------------------------------------------------- side bets (issue 4)
# `sidebets`, and the --bets FILE option for every command that names bets (see add_bets_option).


def add_bets_option(parser: argparse.ArgumentParser) -> None:
    """--bets FILE (repeatable): side bets defined in a TOML file, registered for this run."""
    parser.add_argument("--bets", dest="bet_files", action="append", default=[], metavar="FILE",
                        help="also load the side bets defined in this TOML file (repeatable); "
                             "see examples/side_bets.toml")


def bets_from_args(args: argparse.Namespace) -> list[Bet]:
    """Load and register the bets of every --bets FILE, so --bet NAME finds them; returns them."""
    from exact_odds.bets import load_bets

    return [bet for path in args.bet_files for bet in load_bets(path)]


def _bet_names(values: Sequence[str]) -> list[str]:
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def _cmd_sidebets(args: argparse.Namespace) -> str:
    from exact_odds.bets import find_bet
    from exact_odds.bets.side import SIDE_BETS
    from exact_odds.edges import par_sheet
    from exact_odds.engine import Detail
    from exact_odds.report import side_bets_json, side_bets_table
    from exact_odds.shoe import ShoeError

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    loaded = bets_from_args(args)
    names = _bet_names(args.bet)
    bets = [find_bet(n) for n in names] if names else (loaded or list(SIDE_BETS))
    suited = [b.name for b in bets if b.detail is Detail.SUITS]
    if names and suited and shoe.suited is None:
        raise ShoeError(f"{suited[0]} needs a shoe whose suits are known (whole decks, or --shoe counts "
                        "divisible by 4 and --remove cards with their suits, e.g. 'Kh 3d')")
    omitted = suited if shoe.suited is None else []
    sheets = [par_sheet(shoe, bet, tableau=tableau) for bet in bets if bet.name not in omitted]
    return _render(args, lambda: side_bets_json(str(shoe), sheets, omitted=omitted),
                   lambda: [side_bets_table(str(shoe), sheets, args.format, omitted=omitted)])


def _add_sidebets(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "sidebets", help="house edges of the side bets (pairs, Dragon 7, Panda 8, Egalite, ...) on a shoe",
        description="Exact house edges of the built-in side bets on a shoe, or of the bets named with --bet, "
                    "or of the bets defined in a --bets FILE (with no --bet, only that file's bets). Pairs and "
                    "perfect pairs are counted with the ranks and suits of the first two cards of each hand.")
    add_shoe_options(p)
    p.add_argument("--bet", action="append", default=[], metavar="NAME",
                   help="only this bet (repeatable, or comma-separated); any registered bet name or alias")
    add_bets_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_sidebets)


# ---------------------------------------------------------------- Bunco (issue 6)
# `bunco`: the dice game (exact_odds.bunco); keep other sections out.


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
    return _render(args, lambda: bunco_json(analysis, sim), lambda: bunco_tables(analysis, sim))


def _add_bunco(sub: argparse._SubParsersAction[_Parser]) -> None:
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


# ---------------------------------------------------------------- composition-dependent study (issue 5)
# `eor`, `batch` and `study`: effects of removal, bulk exact evaluation, shoe studies and recorded shoes.


def _named_bets(values: Sequence[str]) -> list[Bet]:
    """Bets named in --bet values (repeatable, several names each, or comma-separated)."""
    from exact_odds.bets import find_bet

    return [find_bet(name) for name in _bet_names(values)]


def _cmd_eor(args: argparse.Namespace) -> str:
    from exact_odds.bets import registered
    from exact_odds.engine import Detail
    from exact_odds.removal import effects_of_removal
    from exact_odds.report import eor_json, eor_tables

    shoe = shoe_from_args(args)
    loaded = bets_from_args(args)
    named = _named_bets(args.bet) or loaded
    bets = named or [b for b in registered() if shoe.suited is not None or b.detail is not Detail.SUITS]
    omitted = [] if named or shoe.suited is not None else [b.name for b in registered() if b not in bets]
    removals = effects_of_removal(shoe, bets, tableau=tableau_from_args(args))
    counts = [r.count(max_tag=args.max_tag) for r in removals]
    if args.plot:
        from exact_odds.plots import eor_figure

        eor_figure(removals, counts, args.plot, title=f"Effects of removal, {shoe}")
    return _render(args, lambda: eor_json(shoe, removals, counts, omitted=omitted),
                   lambda: eor_tables(str(shoe), removals, counts, args.format, omitted=omitted))


def _add_eor(sub: argparse._SubParsersAction[_Parser]) -> None:
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


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as err:
        raise InputError(f"cannot read {path!r}: {err.strerror}") from None


def _cmd_batch(args: argparse.Namespace) -> str:
    from exact_odds.batch import evaluate, parse_compositions
    from exact_odds.report import batch_text

    loaded = bets_from_args(args)
    lines, counts = parse_compositions(_read_input(args.input), source=args.input)
    evaluation = evaluate(counts, bets=_named_bets(args.bet) or loaded, tableau=tableau_from_args(args), lines=lines)
    return batch_text(evaluation, lines, args.format)


def _add_batch(sub: argparse._SubParsersAction[_Parser]) -> None:
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
    _add_output_option(p)
    p.set_defaults(handler=_cmd_batch)


def _cmd_study(args: argparse.Namespace) -> str:
    from exact_odds.report import replay_json, replay_table, study_json, study_tables
    from exact_odds.study import Dealing, StudyError, read_record, replay, run_study

    shoe, tableau = shoe_from_args(args), tableau_from_args(args)
    loaded = bets_from_args(args)
    bets = _named_bets(args.bet) or loaded or _named_bets(["banker,player,tie"])
    if args.record:
        rep = replay(read_record(_read_input(args.record)), shoe, bets=bets, tableau=tableau)
        return _render(args, lambda: replay_json(rep), lambda: [replay_table(rep, args.format)])
    if args.shoes is None:
        raise StudyError("give --shoes N (shoes to deal) or --record FILE (a recorded shoe)")
    bar = _progress(args, "study", unit="shoes")
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
    return _render(args, lambda: study_json(study), lambda: study_tables(study, args.format))


def _add_study(sub: argparse._SubParsersAction[_Parser]) -> None:
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
    _add_quiet_option(p)
    add_format_options(p)
    p.set_defaults(handler=_cmd_study)


# ---------------------------------------------------------------- entry point

SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[_Parser]], None], ...] = (
    _add_odds, _add_edges, _add_parsheet, _add_symbolic, _add_report, _add_simulate, _add_deal, _add_session,
    _add_roads, _add_sidebets, _add_bunco)
"""Functions adding one subcommand each; a new command appends its own."""
SUBCOMMANDS += (_add_eor, _add_batch, _add_study)


def build_parser() -> _Parser:
    """The argument parser with every subcommand."""
    parser = _Parser(prog=PROG, description="Exact odds of casino games by full enumeration of the shoe.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def _emit(text: str, output: str | None) -> None:
    if output:
        from exact_odds.report import write_atomic

        write_atomic(output, text)
    else:
        sys.stdout.write(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        handler: Handler = args.handler
        _emit(handler(args), getattr(args, "output", None))
        status: int = getattr(args, "exit_status", 0)  # a handler may set 1 (e.g. a failed check)
    except InputError as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
