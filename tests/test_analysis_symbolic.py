"""Symbolic results: closed forms in d against the enumerator, payout symbols, break-even payouts."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from exact_odds.analysis.edges import ParSheet, distinct_bets, house_edge, par_sheet
from exact_odds.analysis.symbolic import (
    CHECK_DECKS,
    DECK,
    FIT_DECKS,
    TOTAL_COEFFICIENTS,
    ClosedForm,
    break_even,
    closed_form,
    edge_factors,
    edge_form,
    edge_limit,
    fair_commission,
    line_closed_forms,
    outcome_closed_forms,
    payout_names,
    summary,
)
from exact_odds.analysis.symbolic_expressions import (
    D,
    factored_expression,
    linear_expression,
    polynomial_expression,
    rational,
)
from exact_odds.bets import find_bet
from exact_odds.bets.core import Bet
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS, ROLES
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.shoe import Shoe, falling
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau, load_tableau
from exact_odds.engine.deck_polynomials import evaluate, interpolate, over_sequences, sequence_factors
from exact_odds.engine.enumerator import deal, winners
from exact_odds.report import decimal_text, percent_text

EXAMPLES = Path(__file__).parent.parent / "examples"

# The infinite-deck probabilities (each card drawn independently, 4/13 a zero): the known limits.
INFINITE = {"banker": Fraction(2212744, 4826809), "player": Fraction(2153464, 4826809),
            "tie": Fraction(460601, 4826809)}
MAIN_BETS = [bet for bet, _ in distinct_bets([b for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets])]

TOTAL = sympy.Poly(list(reversed(TOTAL_COEFFICIENTS)), D)
"""The ordered six-card sequences of a d-deck shoe as a polynomial in d."""

TOTAL_CONTENT, TOTAL_FACTORS = sequence_factors(DECK)
"""52d (52d-1) ... (52d-5) = 416 d (52d-1) (26d-1) (52d-3) (13d-1) (52d-5): content and linear factors."""


def payout_symbols(bet: Bet) -> tuple[sympy.Symbol, ...]:
    """One symbol per pay line of ``bet``, named from the line's label."""
    return tuple(sympy.Symbol(name) for name in payout_names(bet))


def pays_of(bet: Bet) -> dict[sympy.Symbol, sympy.Rational]:
    """The bet's own payouts by symbol, for ``expr.subs(...)``."""
    return {s: rational(line.pays) for s, line in zip(payout_symbols(bet), bet.lines, strict=True)}


def edge_expression(sheet: ParSheet) -> sympy.Expr:
    """The house edge of the sheet's bet with every pay line's payout a symbol."""
    form = edge_form(sheet)
    return linear_expression(form.constant, form.terms)


def edge_in_decks(bet: Bet, forms: list[ClosedForm], *, symbolic_pays: bool = False) -> sympy.Expr:
    """The house edge of ``bet`` as a rational function of d; with ``symbolic_pays``, of the payout symbols too
    (``sympy.factor`` of the expression)."""
    if not symbolic_pays:
        return factored_expression(edge_factors(bet, forms))
    *paid, loses = forms
    numerator = loses.ways.as_expr() - sum((s * f.ways.as_expr() for s, f in zip(payout_symbols(bet), paid,
                                                                                 strict=True)), sympy.Integer(0))
    return sympy.factor(numerator / TOTAL.as_expr())


def test_fit_and_check_decks_are_disjoint() -> None:
    # The closed forms are interpolated on d = 9..15, so d = 1..8 are real checks, not the fitted points.
    assert set(FIT_DECKS).isdisjoint(CHECK_DECKS) and tuple(range(1, 9)) == CHECK_DECKS and len(FIT_DECKS) == 7


@pytest.mark.parametrize("decks", range(1, 9))
def test_closed_forms_equal_the_enumerator(decks: int) -> None:
    forms = outcome_closed_forms()
    odds = winners(deal(Shoe.decks(decks)))
    for outcome, form in forms.items():
        assert form.at(decks) == odds.probability(outcome)
        assert form.probability.subs(D, decks) == sympy.Rational(odds[outcome], odds.total)
    assert TOTAL.eval(decks) == falling(52 * decks, 6)


def test_closed_forms_are_integer_polynomials_with_the_infinite_deck_limit() -> None:
    forms = outcome_closed_forms()
    for outcome, form in forms.items():
        assert form.ways.degree() == 6 and all(c.is_integer for c in form.ways.all_coeffs())
        assert form.limit == INFINITE[outcome]
        assert sympy.limit(form.probability, D, sympy.oo) == sympy.Rational(INFINITE[outcome].numerator,
                                                                           INFINITE[outcome].denominator)
        assert form.check() == []
    # The three outcomes partition every sequence.
    assert sum((f.ways for f in forms.values()), sympy.Poly(0, D)) == TOTAL


def test_a_different_fit_gives_the_same_polynomials() -> None:
    low = outcome_closed_forms(fit=range(1, 8))
    high = outcome_closed_forms()
    assert all(low[k].ways == high[k].ways for k in high)


def test_closed_forms_far_beyond_the_fit() -> None:
    form = outcome_closed_forms()["banker"]
    assert form.check([40, 1000]) == []


@pytest.mark.parametrize("name", [bet.name for bet in MAIN_BETS])
def test_house_edge_in_decks(name: str) -> None:
    b = find_bet(name)
    forms = line_closed_forms(b)
    edge = edge_in_decks(b, forms)
    for decks in (1, 6, 8):
        assert edge.subs(D, decks) == _rational(house_edge(Shoe.decks(decks), b))
    assert edge_limit(b, forms) == house_edge(Shoe.infinite_deck(), b)
    symbolic = edge_in_decks(b, forms, symbolic_pays=True)
    assert sympy.simplify(symbolic.subs(pays_of(b)) - edge) == 0
    assert all(form.check([8]) == [] for form in forms)


def _rational(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def test_edge_in_payout_symbols() -> None:
    sheet = par_sheet(Shoe.decks(8), find_bet("super-6/banker"))
    symbols = payout_symbols(sheet.bet)
    assert [str(s) for s in symbols] == ["banker_wins_with_6", "banker_wins", "tie_push"]
    expr = edge_expression(sheet)
    assert expr.subs(pays_of(sheet.bet)) == _rational(sheet.house_edge)
    # Linear in each payout, with the line's probability as coefficient.
    assert [sympy.diff(expr, s) for s in symbols] == [-_rational(line.probability) for line in sheet.lines[:3]]


def test_break_even_payouts_match_published_figures() -> None:
    # 8 decks, break-even payouts: banker 0.97307, player 1.02768, tie 9.50906 (excelpunks.com, "Baccarat vs
    # non-commission baccarat", the Break-Even column of the 8-deck table).
    eight = Shoe.decks(8)
    fair = {name: break_even(par_sheet(eight, find_bet(name))) for name in ("banker", "player", "tie")}
    assert {k: decimal_text(v or 0, 5) for k, v in fair.items()} == {
        "banker": "0.97307", "player": "1.02768", "tie": "9.50906"}
    # Identities: at the break-even payout the bet is fair; the tie's is (1 - P(tie)) / P(tie).
    p_tie = winners(deal(eight)).probability("tie")
    assert fair["tie"] == (1 - p_tie) / p_tie
    commission = fair_commission(eight)
    assert commission == 1 - (fair["banker"] or 0) and percent_text(commission or 0, 3) == "2.693%"


@pytest.mark.parametrize("name", ["banker", "super-6/banker", "ez/banker", "tie-9/tie"])
def test_break_even_makes_the_bet_fair(name: str) -> None:
    bet = find_bet(name)
    sheet = par_sheet(Shoe.decks(6), bet)
    for i, symbol in enumerate(payout_symbols(bet)):
        fair = break_even(sheet, i)
        assert fair is not None
        pays = {**pays_of(bet), symbol: _rational(fair)}
        assert edge_expression(sheet).subs(pays) == 0


def test_break_even_of_a_line_that_cannot_occur() -> None:
    tens = Shoe.parse("T=10")  # every coup is a 0-0 tie
    assert break_even(par_sheet(tens, find_bet("banker")), "banker wins") is None
    assert fair_commission(tens) is None
    with pytest.raises(KeyError, match="no pay line 'dragon'"):
        break_even(par_sheet(tens, find_bet("banker")), "dragon")


def test_summary_agrees_everywhere() -> None:
    result = summary(Shoe.decks(8), MAIN_BETS)
    assert result.disagreements == () and result.checked == CHECK_DECKS and result.fit == FIT_DECKS
    assert [b.sheet.bet.name for b in result.bets] == [b.name for b in MAIN_BETS]


@pytest.mark.parametrize("command", ["odds", "report"])
def test_sympy_is_not_imported_by_odds_or_report(command: str) -> None:
    probe = (f"import sys; from exact_odds.cli import main; main([{command!r}]); "
             "print('sympy' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stderr.strip().splitlines()[-1] == "False"


# ---------------------------------------------------------------- the fast paths against their oracles


def _table_polynomials(classes: int, class_of: Callable[[Coup], int], detail: Detail,
                       tableau: Tableau) -> list[tuple[int, ...]]:
    """Each class's ways in d from the bulk evaluator's coefficient tables: a polynomial of degree 6 at
    most, through its exact ways on 1 to 7 decks."""
    import numpy as np

    from exact_odds.batch.coefficients import coefficients, table_codes
    from exact_odds.batch.plan import make_plan, ways
    from exact_odds.core.coup import COUP_CODES, coup_of_code

    co = coefficients(tableau, detail)
    classes_of = np.zeros(COUP_CODES, dtype=np.int64)
    for code in table_codes(co).tolist():
        classes_of[code] = class_of(coup_of_code(code))
    decks = range(1, 8)
    found = ways(make_plan(co, classes_of, classes), np.array([[4 * d] * 13 for d in decks]), None)
    polys = []
    for f in range(classes):
        poly, denominator = interpolate([(d, int(found[i, f])) for i, d in enumerate(decks)])
        assert denominator == 1
        polys.append(tuple(int(c) for c in poly) + (0,) * (len(decks) - len(poly)))
    return polys


@pytest.mark.parametrize("rules", [None, "wrong_banker_6.toml"])
def test_interpolated_forms_equal_the_coefficient_tables(rules: str | None) -> None:
    """The closed forms interpolated from the enumerator on d = 9..15 equal the polynomials the
    coefficient tables give exactly, outcomes and every line, for two drawing rules."""
    tableau = STANDARD_TABLEAU if rules is None else load_tableau(EXAMPLES / rules)
    forms = outcome_closed_forms(tableau=tableau)
    assert all(form.denominator == 1 for form in forms.values())
    assert [form.coefficients for form in forms.values()] == _table_polynomials(
        3, lambda coup: ROLES.index(coup.winner), Detail.POINTS, tableau)
    for bet in [*MAIN_BETS, find_bet("dragon-7"), find_bet("player-pair"), find_bet("egalite-6")]:
        lines = line_closed_forms(bet, tableau=tableau)
        assert [form.coefficients for form in lines] == _table_polynomials(len(lines), bet.line_index, bet.detail,
                                                                           tableau), bet.name


def test_a_suited_bet_dealt_with_the_main_bets() -> None:
    """Dealt at the finest detail the bets need, every closed form still agrees (suits included)."""
    result = summary(Shoe.decks(8), [find_bet("banker"), find_bet("perfect-pair")], fit=range(1, 8),
                     checked=(8, 9))
    assert result.disagreements == ()
    fresh = line_closed_forms(find_bet("banker"), fit=range(1, 8))
    assert [form.coefficients for form in result.bets[0].forms] == [form.coefficients for form in fresh]


def _oracle_factor(numerator: list[int], scale: int = 1) -> sympy.Expr:
    """What the closed forms printed before: ``sympy.factor`` of the ratio of the expressions."""
    top = sympy.Poly(list(reversed(numerator)), D).as_expr() if any(numerator) else sympy.Integer(0)
    return sympy.factor(top / (scale * TOTAL.as_expr()))


def _random_numerator(rng: random.Random) -> list[int]:
    """An integer polynomial of degree <= 6 made of the sequences' linear factors (some repeated),
    a few others, and a content of either sign (lowest power first)."""
    poly = [rng.choice([-1, 1]) * rng.randint(1, 10**rng.randint(0, 9))]
    factors: list[tuple[int, ...]] = [(b, a) for a, b in TOTAL_FACTORS for _ in range(2)]
    factors += [(rng.randint(-9, 9), rng.randint(1, 9)) for _ in range(3)]
    factors.append((rng.randint(-99, 99), rng.randint(-99, 99), rng.randint(1, 99)))
    for factor in rng.sample(factors, rng.randint(0, 4)):
        if len(poly) + len(factor) - 1 <= 7:
            poly = [sum(poly[j] * factor[i - j] for j in range(len(poly)) if 0 <= i - j < len(factor))
                    for i in range(len(poly) + len(factor) - 1)]
    return poly + [0] * (7 - len(poly))


def test_factored_is_sympy_factor() -> None:
    """The factored rational function built from the numerator's factors and the sequences' known
    ones is the very expression sympy.factor gives: equal, and printed the same in text and LaTeX."""
    rng = random.Random(13)
    forms = [*outcome_closed_forms().values(), *(f for bet in MAIN_BETS for f in line_closed_forms(bet))]
    cases = [(list(form.coefficients), 1) for form in forms]
    cases += [(_random_numerator(rng), rng.choice([1, 1, 2, 20, 25 * 7])) for _ in range(150)]
    cases += [([0] * 7, 1), ([5], 3), (list(TOTAL_COEFFICIENTS), 1), ([-x for x in TOTAL_COEFFICIENTS], 4)]
    for numerator, scale in cases:
        new, old = factored_expression(over_sequences(numerator, scale)), _oracle_factor(numerator, scale)
        assert new == old and sympy.srepr(new) == sympy.srepr(old), (numerator, scale)
        assert str(new) == str(old) and sympy.latex(new) == sympy.latex(old), (numerator, scale)


def test_expressions_are_built_as_sympy_builds_them() -> None:
    """Sums put together in sympy's canonical order without simplifying them again are the very
    expressions sympy's arithmetic gives: polynomials in d, and edges in payout symbols."""
    rng = random.Random(5)
    for _ in range(200):
        coefficients: list[int | Fraction] = [rng.choice([0, 0, 1, -1, rng.randint(-10**9, 10**9)])
                                              for _ in range(rng.randint(0, 7))]
        if rng.random() < 0.3 and coefficients:
            coefficients[rng.randrange(len(coefficients))] = Fraction(rng.randint(-99, 99), rng.randint(1, 99))
        new = polynomial_expression(coefficients)
        old = sympy.Poly(list(reversed(coefficients)) or [0], D).as_expr()
        assert new == old and sympy.srepr(new) == sympy.srepr(old) and str(new) == str(old), coefficients
    for shoe in (Shoe.decks(8), Shoe.decks(1), Shoe.parse("T=10"), Shoe.infinite_deck()):
        for bet in [*MAIN_BETS, find_bet("dragon-7"), find_bet("player-pair"), find_bet("big")]:
            sheet = par_sheet(shoe, bet)
            *paid, loses = sheet.lines
            old = _rational(loses.probability) - sum(
                (_rational(line.probability) * s for line, s in zip(paid, payout_symbols(bet), strict=True)),
                sympy.Integer(0))
            new = edge_expression(sheet)
            assert new == old and sympy.srepr(new) == sympy.srepr(old) and str(new) == str(old), (shoe, bet.name)


def test_the_sequences_factors_are_sympys() -> None:
    content, factors = sympy.Poly(list(reversed(TOTAL_COEFFICIENTS)), D).factor_list()
    assert content == TOTAL_CONTENT
    assert sorted(tuple(int(c) for c in f.all_coeffs()) for f, k in factors if k == 1) == sorted(TOTAL_FACTORS)
    assert len(factors) == len(TOTAL_FACTORS)


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(1), Shoe.infinite_deck(), Shoe.parse("T=10"),
                                  Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4")])
def test_break_even_is_sympys_solution(shoe: Shoe) -> None:
    """The break-even payouts found in fractions are sympy.solve's solutions of the edge's equation."""
    for bet in [*MAIN_BETS, find_bet("dragon-7"), find_bet("player-pair")]:
        sheet = par_sheet(shoe, bet)
        for i, symbol in enumerate(payout_symbols(bet)):
            others = {s: v for s, v in pays_of(bet).items() if s != symbol}
            solutions = sympy.solve(edge_expression(sheet).subs(others), symbol)
            expected = Fraction(int(solutions[0].p), int(solutions[0].q)) if solutions else None
            assert break_even(sheet, i) == expected, (bet.name, i)


def test_a_form_that_is_not_an_integer_polynomial_is_reported() -> None:
    """The interpolation is exact: counts that no integer polynomial fits give a denominator, and
    the check says so (as it does for a degree above 6)."""
    def measure(shoe: Shoe) -> int:
        d = shoe.size // 52 if not shoe.infinite else 0
        return d * (d + 1) // 2

    form = closed_form("triangle", measure, fit=(1, 2, 3))
    assert (form.coefficients, form.denominator) == ((0, 1, 1), 2) and form.at(1) == Fraction(1, 14658134400)
    assert form.check((1, 4)) == ["triangle: not an integer polynomial of degree <= 6"]
    high = closed_form("high", lambda shoe: 0 if shoe.infinite else (shoe.size // 52) ** 7, fit=range(1, 9))
    assert "high: not an integer polynomial of degree <= 6" in high.check((9,))


def test_interpolation_recovers_integer_polynomials() -> None:
    rng = random.Random(6)
    for _ in range(100):
        poly = [rng.randint(-10**12, 10**12) for _ in range(rng.randint(1, 7))]
        xs = rng.sample(range(-30, 60), len(poly) + rng.randint(0, 2))
        numerators, denominator = interpolate([(x, evaluate(poly, x)) for x in xs])
        assert denominator == 1 and list(numerators) == poly + [0] * (len(xs) - len(poly))


def test_the_symbolic_command_does_not_import_numpy() -> None:
    probe = ("import sys; from exact_odds.cli import main; main(['symbolic']); "
             "print('numpy' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stderr.strip().splitlines()[-1] == "False"


def test_edge_in_decks_equals_the_expression_route() -> None:
    """Polynomial arithmetic gives the very expression the symbolic route gives (printed the same)."""
    for bet in MAIN_BETS:
        forms = line_closed_forms(bet)
        *paid, loses = forms
        lines = zip(payout_symbols(bet), paid, strict=True)
        numerator = loses.ways.as_expr() - sum((s * f.ways.as_expr() for s, f in lines), sympy.Integer(0))
        old = sympy.factor(sympy.cancel((numerator / TOTAL.as_expr()).subs(pays_of(bet))))
        new = edge_in_decks(bet, forms)
        assert str(new) == str(old) and new == old


def test_table_polynomial_of_every_sequence() -> None:
    from exact_odds.core.coup import Detail
    from exact_odds.core.tableau import STANDARD_TABLEAU

    for detail in (Detail.POINTS, Detail.RANKS):
        (poly,) = _table_polynomials(1, lambda coup: 0, detail, STANDARD_TABLEAU)
        assert sympy.Poly(list(reversed(poly)), D) == TOTAL


def test_summary_reports_progress_step_by_step() -> None:
    calls: list[tuple[int, int]] = []
    bets = [find_bet("banker"), find_bet("tie")]
    summary(Shoe.decks(8), bets, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_symbolic_command_draws_progress_only_on_a_terminal() -> None:
    code = """
import io, sys
class Tty(io.StringIO):
    def isatty(self): return True
sys.stderr = Tty()
from exact_odds.cli import main
main(sys.argv[1:])
sys.__stderr__.write(repr(sys.stderr.getvalue()))
"""
    loud = subprocess.run([sys.executable, "-c", code, "symbolic", "--decks", "8"], capture_output=True, text=True,
                          check=True)
    quiet = subprocess.run([sys.executable, "-c", code, "symbolic", "--decks", "8", "--quiet"], capture_output=True,
                           text=True, check=True)
    assert "symbolic [" in loud.stderr and "100%" in loud.stderr
    assert quiet.stderr == "''"
