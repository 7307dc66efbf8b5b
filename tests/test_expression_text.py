"""The text of the expressions ``symbolic`` shows, written without SymPy's printer, against ``str``."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from exact_odds.bets import find_bet
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS
from exact_odds.edges import distinct_bets, par_sheet
from exact_odds.report.expression_text import _product_text, _sum_text, expression_text
from exact_odds.shoe import Shoe
from exact_odds.symbolic import TOTAL_FACTORS, D, edge_expression, factored, polynomial_expression, summary
from exact_odds.tableau import STANDARD_TABLEAU, load_tableau

EXAMPLES = Path(__file__).parent.parent / "examples"
MAIN_BETS = [bet for bet, _ in distinct_bets([b for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets])]
x, y, tie = sympy.symbols("x y tie")


@pytest.mark.parametrize("rules", [None, "wrong_banker_6.toml"])
def test_every_expression_the_command_shows(rules: str | None) -> None:
    tableau = STANDARD_TABLEAU if rules is None else load_tableau(EXAMPLES / rules)
    result = summary(Shoe.decks(6), MAIN_BETS, tableau=tableau)
    shown = [e for form in result.outcomes.values() for e in (form.expression, form.probability)]
    shown += [e for b in result.bets for e in (b.edge_in_decks, b.edge_expression)]
    for expr in shown:
        assert expression_text(expr) == str(expr)
        assert _written_here(expr), expr


def _written_here(expr: sympy.Expr) -> bool:
    """Whether the module wrote the text itself (not left to SymPy)."""
    return (_sum_text(expr) if expr.is_Add else _product_text(expr) if expr.is_Mul else None) is not None


def _random_factored(rng: random.Random) -> sympy.Expr:
    """A rational function of d: random factors (the sequences' among them) over the sequences."""
    poly = [rng.choice([-1, 1]) * rng.randint(1, 10**rng.randint(0, 6))]
    pool: list[tuple[int, ...]] = [(b, a) for a, b in TOTAL_FACTORS]
    pool += [(rng.randint(-9, 9), rng.randint(1, 9)) for _ in range(3)]
    pool += [(rng.randint(-20, 20), rng.randint(-20, 20), rng.randint(1, 20)) for _ in range(2)]
    for factor in rng.sample(pool, rng.randint(0, 5)):
        if len(poly) + len(factor) <= 8:
            poly = [sum(poly[j] * factor[i - j] for j in range(len(poly)) if 0 <= i - j < len(factor))
                    for i in range(len(poly) + len(factor) - 1)]
    return factored(poly, rng.choice([1, 2, 3, 20, 1000]))


def _random_sum(rng: random.Random) -> sympy.Expr:
    """A rational constant plus rational multiples of powers of a few symbols, as sympy adds them."""
    def number() -> sympy.Rational:
        return sympy.Rational(rng.choice([1, -1, rng.randint(-999, 999)]), rng.choice([1, 1, rng.randint(1, 99)]))

    monomials = [x, y, tie, D, x**2, D**3, D**6]
    return sympy.Add(*(number() * m for m in rng.sample(monomials, rng.randint(0, 4))),
                     number() if rng.random() < 0.7 else 0)


def test_random_expressions() -> None:
    rng = random.Random(11)
    cases = [_random_factored(rng) for _ in range(300)] + [_random_sum(rng) for _ in range(300)]
    cases += [polynomial_expression([Fraction(rng.randint(-9, 9), rng.randint(1, 3)) for _ in range(rng.randint(1, 7))])
              for _ in range(100)]
    for expr in cases:
        assert expression_text(expr) == str(expr), sympy.srepr(expr)
    assert all(_written_here(expr) for expr in cases if expr.is_Add or expr.is_Mul)


@pytest.mark.parametrize("expr", [
    5 - 3 * tie / 7, 5 - tie, 5 + tie, -5 - tie, tie - 5, 2 - D**2, x + y, x - y, -x - 2 * y + 1, D / 3,
    -D / 3, 1 / (D + 1), -1 / (D + 1), 2 / (D * (D + 1)), (D + 1) ** 2 / (3 * D**2 * (2 * D - 1) ** 3),
    -7 * D * (D - 1) / 2, (D + 1) * (D + 2), sympy.Mul(2, sympy.Integer(3), D, evaluate=False),
    sympy.Mul(1, D, evaluate=False), x * y, 2 * x * y, sympy.sqrt(D) + 1, sympy.sin(D), D**-2, x * (D + 1),
    (x + 1) * (D + 1), sympy.Integer(4), sympy.Rational(-3, 4), D, D**2,
])
def test_shapes_and_other_expressions(expr: sympy.Expr) -> None:
    """Each shape the module writes itself, and others it leaves to SymPy, as ``str`` writes them."""
    assert expression_text(expr) == str(expr)


def test_every_bet_on_every_shoe() -> None:
    for shoe in (Shoe.decks(8), Shoe.decks(1), Shoe.parse("T=10"), Shoe.infinite_deck()):
        for bet in [*MAIN_BETS, find_bet("dragon-7"), find_bet("player-pair"), find_bet("big")]:
            expr = edge_expression(par_sheet(shoe, bet))
            assert expression_text(expr) == str(expr)
