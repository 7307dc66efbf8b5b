"""Games where the players choose: ``chemin-de-fer``.

No arithmetic here: the solution comes from :mod:`exact_odds.analysis.equilibrium`, the tables from
:mod:`exact_odds.report.chemin`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from exact_odds.analysis.equilibrium import solve
from exact_odds.analysis.strategy import StrategyError, choice_game, parse_model
from exact_odds.cli.examples import examples
from exact_odds.cli.options import Output, Subparsers, add_format_options, render, shoe_from_args
from exact_odds.core.choices import PARLOUR_RULES, ChoiceRules, load_choice_rules
from exact_odds.core.shoe import Shoe
from exact_odds.report.chemin import chemin_json, chemin_tables
from exact_odds.report.concepts import shoe_json


def _shoe(args: argparse.Namespace, with_replacement: bool) -> Shoe:
    """Model A deals with replacement (the infinite deck); model B from the shoe of --decks/--shoe (8 decks)."""
    given = args.decks is not None or args.shoe is not None or args.remove.strip()
    if with_replacement:
        if given and str(args.decks).strip().lower() not in ("inf", "infinite"):
            raise StrategyError(f"model {args.model.upper()} deals cards with replacement (the infinite deck); give "
                                f"model B{args.model[-1]} for a shoe")
        return Shoe.infinite_deck()
    shoe = shoe_from_args(args)
    if shoe.infinite:
        raise StrategyError(f"--decks inf deals cards with replacement: that is model A{args.model[-1]}")
    return shoe


def _rules(args: argparse.Namespace) -> ChoiceRules:
    return PARLOUR_RULES if args.choice_rules is None else load_choice_rules(args.choice_rules)


def _cmd_chemin_de_fer(args: argparse.Namespace) -> Output:
    with_replacement, information = parse_model(args.model)
    shoe = _shoe(args, with_replacement)
    rules = _rules(args)
    solution = solve(choice_game(shoe, information, rules))
    return render(args, lambda: chemin_json(solution),
                  lambda: chemin_tables(solution, args.format, with_costs=args.costs),
                  tableau=(rules.name, rules.key()), shoe=shoe_json(shoe))


def _add_chemin_de_fer(sub: Subparsers) -> None:
    p = sub.add_parser(
        "chemin-de-fer", help="chemin de fer solved exactly: both sides' optimal strategies and the value",
        description="The parlour game of chemin de fer (the Player wins 1, loses 1, a tie pushes) solved exactly: "
                    "the Player must draw on 0-4 and stand on 6-7 and chooses on 5, the Banker chooses everywhere "
                    "(or as --rules leave free), each seeing what the model lets him see. Prints the value, the "
                    "Player's and the Banker's optimal strategies (the Banker's as a tableau), whether they are "
                    "unique, their exact certificate and what each wrong choice costs.",
        **examples('exact-odds chemin-de-fer --model A1',
                   'exact-odds chemin-de-fer --model B2 --decks 6',
                   'exact-odds chemin-de-fer --model B3 --format json',
                   'exact-odds chemin-de-fer --model B1 --rules examples/chemin-de-fer/house.toml'))
    p.add_argument("--model", default="B3", metavar="MODEL",
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
    p.add_argument("--costs", action="store_true", help="also print what each of the Banker's wrong choices costs")
    add_format_options(p)
    p.set_defaults(handler=_cmd_chemin_de_fer)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (_add_chemin_de_fer,)
"""Functions adding one subcommand each, in the order of the help."""
