"""The text of the expressions ``symbolic`` shows, written from their numbers, against SymPy's ``str``."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from test_analysis_symbolic import TOTAL_FACTORS, edge_expression

from exact_odds.analysis.edges import distinct_bets, par_sheet
from exact_odds.analysis.symbolic import TOTAL_COEFFICIENTS, edge_form, summary
from exact_odds.analysis.symbolic_expressions import D, factored_expression
from exact_odds.bets import find_bet
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, load_tableau
from exact_odds.engine.deck_polynomials import Factored, over_sequences
from exact_odds.report.edges import factored_text, linear_text, polynomial_text

EXAMPLES = Path(__file__).parent.parent / "examples"
MAIN_BETS = [bet for bet, _ in distinct_bets([b for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets])]


@pytest.mark.parametrize("rules", [None, "wrong_banker_6.toml"])
def test_every_expression_the_command_shows(rules: str | None) -> None:
    tableau = STANDARD_TABLEAU if rules is None else load_tableau(EXAMPLES / rules)
    result = summary(Shoe.decks(6), MAIN_BETS, tableau=tableau)
    for form in result.outcomes.values():
        assert polynomial_text(form.fractions) == str(form.ways.as_expr())
        assert factored_text(form.factors) == str(form.probability)
    for b in result.bets:
        assert factored_text(b.edge_factors) == str(b.edge_in_decks)
        assert linear_text(b.edge_form.constant, b.edge_form.terms) == str(b.edge_expression)


def _random_numerator(rng: random.Random) -> list[int]:
    """Random factors (the sequences' among them, some twice) times a content of either sign,
    lowest power first."""
    poly = [rng.choice([-1, 1]) * rng.randint(1, 10**rng.randint(0, 6))]
    pool: list[tuple[int, ...]] = [(b, a) for a, b in TOTAL_FACTORS for _ in range(2)]
    pool += [(rng.randint(-9, 9), rng.randint(1, 9)) for _ in range(3)]
    pool += [(rng.randint(-20, 20), rng.randint(-20, 20), rng.randint(1, 20)) for _ in range(2)]
    for factor in rng.sample(pool, rng.randint(0, 6)):
        if len(poly) + len(factor) <= 8:
            poly = [sum(poly[j] * factor[i - j] for j in range(len(poly)) if 0 <= i - j < len(factor))
                    for i in range(len(poly) + len(factor) - 1)]
    return poly


def test_random_rational_functions_are_written_as_sympy_factor_gives_them() -> None:
    rng = random.Random(11)
    for _ in range(300):
        numerator, scale = _random_numerator(rng), rng.choice([1, 2, 3, 20, 1000])
        total = sympy.Poly(TOTAL_COEFFICIENTS[::-1], D).as_expr()
        oracle = sympy.factor(sympy.Poly(numerator[::-1], D).as_expr() / (scale * total))
        assert factored_text(over_sequences(numerator, scale)) == str(oracle), (numerator, scale)


@pytest.mark.parametrize("value", [
    Factored(Fraction(0), ()), Factored(Fraction(-3, 4), ()), Factored(Fraction(1), (((13, -1), 1),)),
    Factored(Fraction(-1), (((13, -1), 1),)), Factored(Fraction(-1), (((1, 0), 1),)),
    Factored(Fraction(1), (((1, 0), -2),)), Factored(Fraction(1), (((1, 0), -1),)),
    Factored(Fraction(-1), (((2, 0, 1), -1),)), Factored(Fraction(5, 3), (((2, 0, 1), -3), ((1, 0), 2))),
    Factored(Fraction(1), (((1, 2), 1), ((1, 3), 1))), Factored(Fraction(-7), (((1, 1), 2), ((3, 1), -1))),
])
def test_edge_shapes(value: Factored) -> None:
    """Products SymPy writes in its own ways (a lone sum times -1 it expands) come out the same."""
    assert factored_text(value) == str(factored_expression(value))


def test_random_polynomials_and_linear_forms() -> None:
    rng = random.Random(5)
    for _ in range(300):
        coefficients = [Fraction(rng.choice([0, 0, 1, -1, rng.randint(-10**9, 10**9)]), rng.choice([1, 1, 7]))
                        for _ in range(rng.randint(0, 7))]
        assert polynomial_text(coefficients) == str(sympy.Poly(coefficients[::-1] or [Fraction(0)], D).as_expr())
        names = rng.sample(["banker_wins", "banker_wins_with_6", "tie_push", "tie", "x", "line_2"], rng.randint(0, 4))
        terms = [(Fraction(rng.choice([1, -1, rng.randint(-99, 99) or 1]), rng.choice([1, 1, 13])), name)
                 for name in names]
        constant = Fraction(rng.choice([0, 1, -1, rng.randint(-99, 99)]), rng.randint(1, 9))
        expr = sympy.Rational(constant.numerator, constant.denominator) + sum(
            (sympy.Rational(c.numerator, c.denominator) * sympy.Symbol(name) for c, name in terms), sympy.Integer(0))
        assert linear_text(constant, terms) == str(expr), (constant, terms)


def test_every_bet_on_every_shoe() -> None:
    for shoe in (Shoe.decks(8), Shoe.decks(1), Shoe.parse("T=10"), Shoe.infinite_deck()):
        for bet in [*MAIN_BETS, find_bet("dragon-7"), find_bet("player-pair"), find_bet("big")]:
            sheet = par_sheet(shoe, bet)
            form = edge_form(sheet)
            assert linear_text(form.constant, form.terms) == str(edge_expression(sheet))


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "html", "latex"])
def test_only_latex_imports_sympy(fmt: str) -> None:
    """The text formats write every expression from its numbers; only LaTeX sets them with SymPy."""
    probe = (f"import sys; from exact_odds.cli import main; main(['symbolic', '--format', {fmt!r}]); "
             "print('sympy' in sys.modules, 'numpy' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stderr.strip().splitlines()[-1] == f"{fmt == 'latex'} False"
