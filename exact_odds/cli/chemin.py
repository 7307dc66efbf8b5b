"""Games where the players choose: ``chemin-de-fer`` (:mod:`exact_odds.analysis.chemin`)."""

from __future__ import annotations

import argparse
from fractions import Fraction

from exact_odds.analysis.banque import banque_game, cooperative
from exact_odds.analysis.chemin import (
    Information,
    Solution,
    StrategyError,
    choice_game,
    commission_game,
    equilibria,
    parse_model,
    solve,
    solve_by_decks,
)
from exact_odds.cli import options
from exact_odds.core.choices import PARLOUR_RULES, ChoiceRules, load_choice_rules
from exact_odds.core.shoe import Shoe
from exact_odds.dealing.procedure import STANDARD_PROCEDURE
from exact_odds.inputs import validate
from exact_odds.inputs.reading import read_user_file
from exact_odds.report import chemin
from exact_odds.report.document import procedure_json, shoe_json
from exact_odds.study.chemin import CoupSolution, dealt_shoes, recorded_shoe
from exact_odds.study.replay import read_record

DEFAULT_MODEL = "B3"
BANQUE_MODEL = "A1"
"""Baccara banque deals with replacement, each Player seeing his own total."""
BANQUE_SHARE = Fraction(1, 2)
"""--banque's default share of the stakes on hand 1: even stakes."""
SHOE_MODEL = "B1"
"""As the shoe is dealt the game is solved before every coup: the cheapest model unless --model says otherwise."""


def _shoe(args: argparse.Namespace, with_replacement: bool) -> Shoe:
    """Model A deals with replacement (the infinite deck); model B from the shoe of --decks/--shoe (8 decks)."""
    given = args.decks is not None or args.shoe is not None or args.remove.strip()
    if with_replacement:
        if given and str(args.decks).strip().lower() not in ("inf", "infinite"):
            raise StrategyError(f"model {args.model.upper()} deals cards with replacement (the infinite deck); give "
                                f"model B{args.model[-1]} for a shoe")
        return Shoe.infinite_deck()
    shoe = options.shoe_from_args(args)
    if shoe.infinite:
        raise StrategyError(f"--decks inf deals cards with replacement: that is model A{args.model[-1]}")
    return shoe


def _rules(args: argparse.Namespace) -> ChoiceRules:
    return PARLOUR_RULES if args.choice_rules is None else load_choice_rules(args.choice_rules)


def _by_decks(args: argparse.Namespace, rules: ChoiceRules) -> tuple[Solution, ...]:
    """--decks-table D: every model (or the information of --model) for 1..D decks and the infinite deck."""
    if args.shoe is not None or args.decks is not None or args.remove.strip():
        raise StrategyError("--decks-table solves full shoes of 1 to D decks: give it without --decks, --shoe or "
                            "--remove")
    informations = list(Information) if args.model is None else [parse_model(args.model)[1]]
    by_model = [solve_by_decks(args.decks_table, information, rules) for information in informations]
    return tuple(s for row in zip(*by_model, strict=True) for s in row)


def _as_dealt(args: argparse.Namespace, rules: ChoiceRules) -> options.Output:
    """--shoes N (dealt as study deals them) or --input RECORD: the game solved before every coup."""
    if args.decks_table is not None or args.commission is not None:
        raise StrategyError("--shoes and --input solve the parlour game before each coup: leave out --decks-table "
                            "and --commission")
    if args.shoes is not None and args.input is not None:
        raise StrategyError("give --shoes N (shoes to deal) or --input FILE (a recorded shoe), not both")
    with_replacement, information = parse_model(args.model or SHOE_MODEL)
    if with_replacement:
        raise StrategyError("a dealt shoe is a B model: cards dealt with replacement never deplete")
    shoe = options.shoe_from_args(args)
    with options.progress_bar(args, "chemin-de-fer", unit="coups") as bar:
        rows: tuple[CoupSolution, ...]
        if args.input is not None:
            record = read_record(read_user_file(args.input, "record", stdin=True))
            rows = recorded_shoe(record, shoe, information, rules=rules, progress=bar)
            source = "a recorded shoe"
        else:
            seed = options.seed_from_args(args)
            rows = dealt_shoes(shoe, args.shoes, seed, information, rules=rules, progress=bar)
            source = f"{args.shoes} {'shoe' if args.shoes == 1 else 'shoes'} dealt with seed {seed}"
    return options.render(args, lambda: chemin.shoe_play_json(rows, source),
                          lambda: chemin.shoe_tables(rows, args.format, source),
                          tableau=(rules.name, rules.key()), shoe=shoe_json(shoe),
                          procedure=None if args.input is not None else procedure_json(STANDARD_PROCEDURE),
                          procedure_text=None if args.input is not None else STANDARD_PROCEDURE.describe())


BANQUE_ALONE = (("--decks", "decks"), ("--shoe", "shoe"), ("--decks-table", "decks_table"),
                ("--commission", "commission"), ("--shoes", "shoes"), ("--input", "input"), ("--seed", "seed"))
"""Options that ask for another game than baccara banque's (name, attribute)."""


def _banque(args: argparse.Namespace, rules: ChoiceRules) -> options.Output:
    """--banque: one Banker against two Player hands, cards dealt with replacement; the cooperative equilibria."""
    given = [name for name, attr in BANQUE_ALONE if getattr(args, attr) is not None]
    if args.remove.strip():
        given.append("--remove")
    if given:
        raise StrategyError(f"--banque deals cards with replacement and solves its own game: leave out "
                            f"{', '.join(given)}")
    if args.model is not None and args.model.strip().upper() != BANQUE_MODEL:
        raise StrategyError(f"--banque is solved under model {BANQUE_MODEL} (cards dealt with replacement, each "
                            f"Player seeing his total), not {args.model}")
    if args.choice_rules is not None:
        raise StrategyError("--banque solves the game with every decision free: leave out --rules")
    game = banque_game()
    solution = cooperative(game, BANQUE_SHARE if args.share is None else args.share)
    return options.render(args, lambda: chemin.banque_json(game, solution),
                          lambda: chemin.banque_tables(game, solution, args.format),
                          tableau=(rules.name, rules.key()), shoe=shoe_json(Shoe.infinite_deck()))


def cmd_chemin_de_fer(args: argparse.Namespace) -> options.Output:
    rules = _rules(args)
    if args.banque:
        return _banque(args, rules)
    if args.share is not None:
        raise StrategyError("--share is the stake on hand 1 of baccara banque: give it with --banque")
    if args.shoes is not None or args.input is not None:
        return _as_dealt(args, rules)
    if args.seed is not None:
        raise StrategyError("--seed deals shoes: give it with --shoes N")
    if args.decks_table is not None:
        if args.commission is not None:
            raise StrategyError("--decks-table solves the parlour game: give --commission with one shoe")
        solutions = _by_decks(args, rules)
        return options.render(args, lambda: chemin.decks_json(solutions),
                              lambda: chemin.decks_tables(solutions, args.format),
                              tableau=(rules.name, rules.key()), shoe=None)
    if args.model is None:
        args.model = DEFAULT_MODEL
    with_replacement, information = parse_model(args.model)
    shoe = _shoe(args, with_replacement)
    if args.commission is not None:
        found = equilibria(commission_game(shoe, information, args.commission, rules))
        return options.render(args, lambda: chemin.commission_json(found),
                              lambda: chemin.commission_tables(found, args.format),
                              tableau=(rules.name, rules.key()), shoe=shoe_json(shoe))
    solution = solve(choice_game(shoe, information, rules))
    return options.render(args, lambda: chemin.chemin_json(solution),
                          lambda: chemin.chemin_tables(solution, args.format, with_costs=args.costs),
                          tableau=(rules.name, rules.key()), shoe=shoe_json(shoe))


def add_chemin_de_fer(sub: options.Subparsers) -> None:
    p = sub.add_parser(
        "chemin-de-fer", help="chemin de fer solved exactly: both sides' optimal strategies and the value",
        description="The parlour game of chemin de fer (the Player wins 1, loses 1, a tie pushes) solved exactly: "
                    "the Player must draw on 0-4 and stand on 6-7 and chooses on 5, the Banker chooses everywhere "
                    "(or as --rules leave free), each seeing what the model lets him see. Prints the value, the "
                    "Player's and the Banker's optimal strategies (the Banker's as a tableau), whether they are "
                    "unique, their exact certificate and what each wrong choice costs.",
        **options.examples('exact-odds chemin-de-fer --model A1',
                           'exact-odds chemin-de-fer --decks-table 4 --model B2',
                           'exact-odds chemin-de-fer --model B2 --decks 6 --commission 1/20',
                           'exact-odds chemin-de-fer --banque --share 1/3'))
    p.add_argument("--model", metavar="MODEL",
                   help="A1-A3: cards dealt with replacement; B1-B3: from the shoe. 1: each side sees his total; "
                        "2: the Banker sees his two cards, the Player his total; 3: each sees his own two cards "
                        "(default B3)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--decks", metavar="N", help="number of 52-card decks under model B (default 8)")
    group.add_argument("--shoe", metavar="SPEC", help="composition by rank, e.g. A=32,2=32,...,K=32")
    p.add_argument("--remove", metavar="CARDS", default="", help="cards removed from the shoe, e.g. 5,5,K,9")
    p.add_argument("--rules", dest="choice_rules", metavar="FILE",
                   help="drawing rules with free decisions (TOML): D, S, F (free) or a drawing probability per "
                        "cell; a tableau file fixes every decision")
    p.add_argument("--decks-table", type=validate.DECKS_TABLE.option, metavar="D",
                   help="instead of one shoe: the value and both sides' mixed choices for 1, 2, ..., D decks and the "
                        "infinite deck, under every model (or the information of --model)")
    p.add_argument("--commission", type=validate.COMMISSION.option, metavar="ALPHA",
                   help="the casino game: the house takes ALPHA (0 to 1/10, e.g. 1/20) of the Banker's wins; prints "
                        "every Nash equilibrium, each side's expectation there and the house's take")
    p.add_argument("--banque", action="store_true",
                   help="baccara banque instead: one Banker against two Player hands, cards dealt with replacement; "
                        "prints the correlated and the independent cooperative equilibria (whether each exists), "
                        "the value, the Players' chances of drawing on 5 and the Banker's mixed cells")
    p.add_argument("--share", type=validate.BANQUE_SHARE.option, metavar="THETA",
                   help="with --banque: the share of the stakes on hand 1, strictly between 0 and 1 (default 1/2); "
                        "the rest is on hand 2")
    p.add_argument("--shoes", type=validate.CHEMIN_SHOES.option, metavar="N",
                   help="deal N shoes (as study deals them, by --seed) and solve the game before every coup on the "
                        "cards left (default model B1 here)")
    options.add_input_option(p, "a recorded shoe (cards in dealing order, e.g. 'Kh 3d 9s ...'; '-': standard "
                                "input): the game solved before each of its coups")
    options.add(p, "--seed", "--quiet")
    p.add_argument("--costs", action="store_true", help="also print what each of the Banker's wrong choices costs")
    options.add_format_options(p)
