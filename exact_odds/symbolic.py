"""Symbolic results with sympy: house edges in payout symbols, break-even payouts, closed forms in d.

This module imports sympy (slow to import), so nothing on the path of ``exact-odds odds``
or ``exact-odds report`` imports it; the command line loads it only for ``symbolic``.

*Payout symbols.* Each pay line of a bet gets one symbol, named from its label
(``banker wins`` -> ``banker_wins``, ``tie (push)`` -> ``tie_push``). The house edge per
unit staked is then ``P(loses) - sum of P(line) * symbol`` with the exact probabilities of
the shoe, and the *break-even* payout of a line is the value of its symbol, the other
lines paying as they do, at which the house edge is zero.

*Closed forms in the number of decks d.* In a shoe of ``d`` decks every card count is
``4d`` (ten-valued ranks ``4d`` each, pooled ``16d``), and the ways of any coup outcome are
sums of products of six falling-factorial factors, each linear in ``d``: a polynomial of
degree at most 6 with integer coefficients. The total is ``52d (52d-1) ... (52d-5)``. Each
polynomial comes straight from the bulk evaluator's coefficient tables, every monomial being a
product of falling factorials of ``4d`` and ``16d`` (:mod:`exact_odds.batch.decks`; bets that
look at suits are interpolated instead). :func:`summary` then confirms with the enumerator that
each agrees on d = 9..15 (:data:`FIT_DECKS`: seven points fix a degree-6 polynomial, so it is
the interpolating one there), on other shoes (d = 1..8, none of them in the fit) and, as d
grows, with the infinite-deck enumeration (:meth:`ClosedForm.check`).

>>> forms = outcome_closed_forms()
>>> forms["banker"].limit
Fraction(2212744, 4826809)
>>> forms["tie"].at(8)
Fraction(619306544887, 6508331087895)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from exact_odds.bets.core import Bet
from exact_odds.bets.main import BANKER, ROLES
from exact_odds.coup import Coup, Detail, Winner
from exact_odds.dist import Dist, Ways
from exact_odds.edges import ParSheet, par_sheet
from exact_odds.engine import deal, sequences, winners
from exact_odds.shoe import CARDS_PER_COUP, Shoe
from exact_odds.tableau import STANDARD_TABLEAU, Tableau

D = sympy.Symbol("d", positive=True, integer=True)
"""The number of decks."""

FIT_DECKS: tuple[int, ...] = tuple(range(9, 16))
"""Shoes (in decks) the closed forms are interpolated from: seven points for degree 6."""

CHECK_DECKS: tuple[int, ...] = tuple(range(1, 9))
"""Shoes the closed forms are checked against: the usual 1 to 8 decks, none used in the fit."""

DECK = 52
def _falling_in_decks(per_deck: int) -> sympy.Poly:
    """``(a d)(a d - 1) ... (a d - 5)`` as a polynomial in d (built from integer coefficients)."""
    coeffs = [1]  # highest power first
    for i in range(CARDS_PER_COUP):  # times (a d - i)
        coeffs = [a - i * b for a, b in zip([per_deck * c for c in coeffs] + [0], [0, *coeffs], strict=True)]
    return sympy.Poly(coeffs, D)


TOTAL = _falling_in_decks(DECK)
"""Ordered six-card sequences of a d-deck shoe: 52d (52d-1) ... (52d-5)."""


def _fraction(value: sympy.Expr) -> Fraction:
    rational = sympy.Rational(value)
    return Fraction(int(rational.p), int(rational.q))


def _rational(value: Fraction | int) -> sympy.Rational:
    f = Fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


# ---------------------------------------------------------------- payout symbols and break-even payouts


def payout_symbols(bet: Bet) -> tuple[sympy.Symbol, ...]:
    """One symbol per pay line of ``bet``, named from the line's label (made unique)."""
    names: list[str] = []
    for line in bet.lines:
        name = re.sub(r"\W+", "_", line.label).strip("_").lower() or "line"
        if not name[0].isalpha():
            name = "line_" + name
        base, n = name, 2
        while name in names:
            name, n = f"{base}_{n}", n + 1
        names.append(name)
    return tuple(sympy.Symbol(name) for name in names)


def edge_expression(sheet: ParSheet) -> sympy.Expr:
    """The house edge of the sheet's bet with every pay line's payout a symbol.

    ``P(loses) - sum(P(line) * symbol)``; substituting the bet's own payouts gives
    :attr:`ParSheet.house_edge`.
    """
    symbols = payout_symbols(sheet.bet)
    *paid, loses = sheet.lines
    return _rational(loses.probability) - sum(
        (_rational(line.probability) * s for line, s in zip(paid, symbols, strict=True)), sympy.Integer(0))


def pays_of(bet: Bet) -> dict[sympy.Symbol, sympy.Rational]:
    """The bet's own payouts by symbol, for ``expr.subs(...)``."""
    return {s: _rational(line.pays) for s, line in zip(payout_symbols(bet), bet.lines, strict=True)}


def line_index(bet: Bet, line: int | str) -> int:
    """A pay line given by index or label."""
    if isinstance(line, int):
        if not 0 <= line < len(bet.lines):
            raise IndexError(f"bet {bet.name!r} has {len(bet.lines)} pay lines, not {line + 1}")
        return line
    labels = [pay.label for pay in bet.lines]
    if line not in labels:
        raise KeyError(f"bet {bet.name!r} has no pay line {line!r}; its lines: {', '.join(labels)}")
    return labels.index(line)


def break_even(sheet: ParSheet, line: int | str = 0) -> Fraction | None:
    """The payout of one pay line at which the bet is fair, the other lines unchanged.

    Solves ``edge_expression(sheet) == 0`` for the line's symbol; ``None`` if the line
    cannot occur on this shoe (no payout makes the bet fair).

    >>> from exact_odds.bets import find_bet
    >>> break_even(par_sheet(Shoe.infinite_deck(), find_bet("tie")))
    Fraction(4366208, 460601)
    """
    i = line_index(sheet.bet, line)
    symbol = payout_symbols(sheet.bet)[i]
    others = {s: v for s, v in pays_of(sheet.bet).items() if s != symbol}
    solutions = sympy.solve(edge_expression(sheet).subs(others), symbol)
    return _fraction(solutions[0]) if solutions else None


def fair_commission(shoe: Shoe, *, tableau: Tableau = STANDARD_TABLEAU) -> Fraction | None:
    """The banker commission at which the standard banker bet is fair: 1 - break-even win payout.

    ``None`` if the banker never wins on this shoe.

    >>> fair_commission(Shoe.infinite_deck())
    Fraction(7410, 276593)
    """
    fair = break_even(par_sheet(shoe, BANKER, tableau=tableau), "banker wins")
    return None if fair is None else 1 - fair


# ---------------------------------------------------------------- closed forms in the number of decks

Measure = Callable[[Shoe], Ways]
"""The ways of some event on a shoe, counted by the engine."""


@dataclass(frozen=True)
class ClosedForm:
    """The ways of an event on a d-deck shoe as a polynomial in d.

    ``ways`` has integer coefficients and degree at most 6; the probability is
    ``ways / TOTAL``; ``measure`` counts the event on a shoe with the engine (used to check,
    and to fit where the tables do not serve).
    """

    name: str
    ways: sympy.Poly
    measure: Measure

    @property
    def probability(self) -> sympy.Expr:
        """The probability as a rational function of d in lowest terms, factored."""
        return sympy.factor(self.ways.as_expr() / TOTAL.as_expr())

    @property
    def limit(self) -> Fraction:
        """The limit of the probability as d grows: the ratio of the degree-6 coefficients."""
        return Fraction(int(self.ways.coeff_monomial(D**CARDS_PER_COUP)), DECK**CARDS_PER_COUP)

    def at(self, decks: int) -> Fraction:
        """The probability for ``decks`` decks, from the closed form."""
        return Fraction(int(self.ways.eval(decks)), int(TOTAL.eval(decks)))

    def check(self, decks: Sequence[int] = CHECK_DECKS) -> list[str]:
        """Every disagreement with the enumerator on ``decks`` and the infinite deck (empty: none)."""
        wrong = [f"{self.name}: d = {d}" for d in decks if self.ways.eval(d) != self.measure(Shoe.decks(d))]
        inf = Shoe.infinite_deck()
        if Fraction(self.measure(inf), sequences(inf)) != self.limit:
            wrong.append(f"{self.name}: limit")
        if self.ways.degree() > CARDS_PER_COUP or not all(c.is_integer for c in self.ways.all_coeffs()):
            wrong.append(f"{self.name}: not an integer polynomial of degree <= 6")
        return wrong


def closed_form(name: str, measure: Measure, *, fit: Sequence[int] = FIT_DECKS) -> ClosedForm:
    """Interpolate ``measure`` over the shoes of ``fit`` decks into a polynomial in d (the
    cross-check of :func:`table_forms`, and the path for bets that look at suits)."""
    points = [(d, measure(Shoe.decks(d))) for d in fit]
    return ClosedForm(name, sympy.Poly(sympy.interpolate(points, D), D), measure)


def table_forms(names: Sequence[str], class_of: Callable[[Coup], int], detail: Detail, measures: Sequence[Measure],
                *, tableau: Tableau = STANDARD_TABLEAU) -> list[ClosedForm]:
    """Closed forms of the classes of coups ``class_of(coup)`` (0 to ``len(names) - 1``),
    straight from the coefficient tables at ``detail`` (:func:`exact_odds.batch.decks.ways_in_decks`)."""
    import numpy as np

    from exact_odds.batch.coefficients import coefficients
    from exact_odds.batch.decks import ways_in_decks
    from exact_odds.batch.monomials import table_codes
    from exact_odds.coup import COUP_CODES, coup_of_code

    weights = np.zeros((COUP_CODES, len(names)), dtype=np.int64)
    for code in table_codes(coefficients(tableau, detail)).tolist():
        weights[code, class_of(coup_of_code(code))] = 1
    polys = ways_in_decks(tableau, detail, weights)
    return [ClosedForm(name, sympy.Poly(list(reversed(poly)), D), measure)
            for name, poly, measure in zip(names, polys, measures, strict=True)]


def outcome_closed_forms(*, tableau: Tableau = STANDARD_TABLEAU,
                         fit: Sequence[int] = FIT_DECKS) -> dict[Winner, ClosedForm]:
    """Banker, player and tie: ways and probabilities as functions of the number of decks.

    Exact from the tables; :func:`summary` confirms they agree with the enumerator on ``fit``
    (seven points, so each is the interpolating polynomial there) and checks other shoes.
    """
    counted: dict[Shoe, Dist[Winner]] = {}  # one enumeration per shoe for the three outcomes

    def measure(outcome: Winner) -> Measure:
        def ways(shoe: Shoe) -> Ways:
            if shoe not in counted:
                counted[shoe] = winners(deal(shoe, tableau))
            return counted[shoe][outcome]
        return ways

    forms = table_forms(ROLES, lambda coup: ROLES.index(coup.winner), Detail.POINTS,
                        [measure(outcome) for outcome in ROLES], tableau=tableau)
    return dict(zip(ROLES, forms, strict=True))


def line_closed_forms(bet: Bet, *, tableau: Tableau = STANDARD_TABLEAU,
                      fit: Sequence[int] = FIT_DECKS) -> list[ClosedForm]:
    """Each par-sheet line of ``bet`` (the pay lines, then "loses") as a closed form in d.

    From the tables (see :func:`outcome_closed_forms`); interpolated on ``fit`` for bets that
    look at suits.
    """
    sheets: dict[Shoe, ParSheet] = {}  # one par sheet per shoe for all the lines

    def measure(i: int) -> Measure:
        def ways(shoe: Shoe) -> Ways:
            if shoe not in sheets:
                sheets[shoe] = par_sheet(shoe, bet, tableau=tableau)
            return sheets[shoe].lines[i].ways
        return ways

    labels = [line.label for line in bet.lines] + ["loses"]
    names = [f"{bet.name}: {label}" for label in labels]
    if bet.detail is Detail.SUITS:
        return [closed_form(name, measure(i), fit=fit) for i, name in enumerate(names)]

    return table_forms(names, bet.line_index, bet.detail, [measure(i) for i in range(len(names))], tableau=tableau)


def edge_in_decks(bet: Bet, forms: Sequence[ClosedForm], *, symbolic_pays: bool = False) -> sympy.Expr:
    """The house edge of ``bet`` as a rational function of d (and of the payout symbols).

    ``forms`` are :func:`line_closed_forms` of the bet. With ``symbolic_pays`` the payouts
    stay symbols; otherwise the bet's own payouts are substituted.
    """
    *paid, loses = forms
    symbols = payout_symbols(bet)
    numerator = loses.ways.as_expr() - sum((s * f.ways.as_expr() for s, f in zip(symbols, paid, strict=True)),
                                           sympy.Integer(0))
    if symbolic_pays:
        return sympy.factor(numerator / TOTAL.as_expr())
    # The bet's payouts substituted, with polynomial arithmetic: the rational function in lowest
    # terms (what cancelling the expression gives), then factored, which is canonical.
    top = loses.ways.set_domain(sympy.QQ) - sum(
        (f.ways.set_domain(sympy.QQ) * _rational(line.pays) for f, line in zip(paid, bet.lines, strict=True)),
        sympy.Poly(0, D, domain=sympy.QQ))
    common = top.gcd(TOTAL.set_domain(sympy.QQ))
    return sympy.factor(top.exquo(common).as_expr() / TOTAL.set_domain(sympy.QQ).exquo(common).as_expr())


def edge_limit(bet: Bet, forms: Sequence[ClosedForm]) -> Fraction:
    """The house edge of ``bet`` as d grows, from the closed forms' limits."""
    *paid, loses = forms
    return loses.limit - sum((f.limit * line.pays for f, line in zip(paid, bet.lines, strict=True)), Fraction(0))


# ---------------------------------------------------------------- everything the `symbolic` command shows


@dataclass(frozen=True)
class BetForms:
    """One bet's symbolic results: closed forms in d, and payout symbols on one shoe."""

    sheet: ParSheet
    forms: tuple[ClosedForm, ...]
    edge_in_decks: sympy.Expr
    edge_limit: Fraction
    edge_expression: sympy.Expr
    break_evens: tuple[Fraction | None, ...]


@dataclass(frozen=True)
class Summary:
    """Closed forms of banker, player and tie, and of each bet's house edge; payout symbols and
    break-even payouts on ``shoe``; the closed forms are fitted on ``fit`` decks, and
    ``disagreements`` lists where they differ from the enumerator on ``checked`` decks and the
    infinite deck (empty when every closed form agrees exactly)."""

    shoe: Shoe
    outcomes: dict[Winner, ClosedForm]
    bets: tuple[BetForms, ...]
    fair_commission: Fraction | None
    fit: tuple[int, ...]
    checked: tuple[int, ...]
    disagreements: tuple[str, ...]


def bet_forms(shoe: Shoe, bet: Bet, *, tableau: Tableau = STANDARD_TABLEAU, fit: Sequence[int] = FIT_DECKS) -> BetForms:
    """A bet's closed forms in d and, on ``shoe``, its edge in payout symbols and break-evens."""
    forms = tuple(line_closed_forms(bet, tableau=tableau, fit=fit))
    sheet = par_sheet(shoe, bet, tableau=tableau)
    return BetForms(sheet, forms, edge_in_decks(bet, forms), edge_limit(bet, forms), edge_expression(sheet),
                    tuple(break_even(sheet, i) for i in range(len(bet.lines))))


def summary(shoe: Shoe, bets: Sequence[Bet], *, tableau: Tableau = STANDARD_TABLEAU, fit: Sequence[int] = FIT_DECKS,
            checked: Sequence[int] = CHECK_DECKS, progress: Callable[[int, int], None] | None = None) -> Summary:
    """Every symbolic result for ``bets``, with each closed form checked on ``checked`` decks.

    ``progress(done, total)``, if given, is called after each step (the outcomes, each bet, the
    checks): ``len(bets) + 2`` steps in all.
    """
    steps = len(bets) + 2
    report = progress or (lambda done, total: None)
    report(0, steps)
    outcomes = outcome_closed_forms(tableau=tableau, fit=fit)
    report(1, steps)
    per_bet: list[BetForms] = []
    for bet in bets:
        per_bet.append(bet_forms(shoe, bet, tableau=tableau, fit=fit))
        report(1 + len(per_bet), steps)
    every = [*outcomes.values(), *(form for b in per_bet for form in b.forms)]
    wrong = tuple(problem for form in every for problem in form.check((*fit, *checked)))
    commission = fair_commission(shoe, tableau=tableau)
    report(steps, steps)
    return Summary(shoe, outcomes, tuple(per_bet), commission, tuple(fit), tuple(checked), wrong)
