"""Symbolic results: house edges in payout symbols, break-even payouts, closed forms in d.

Everything is computed in integers and fractions; SymPy (slow to import) is loaded only when a result
is asked for as a SymPy expression (:mod:`exact_odds.analysis.symbolic_expressions`). Each pay line of
a bet gets one payout symbol, named from its label (``tie (push)`` -> ``tie_push``). The closed forms in
the number of decks d are told in the README ("Closed forms in the number of decks") and :class:`ClosedForm`.

>>> forms = outcome_closed_forms()
>>> forms["banker"].limit
Fraction(2212744, 4826809)
>>> forms["tie"].at(8)
Fraction(619306544887, 6508331087895)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING

from exact_odds.analysis.edges import ParSheet, par_sheet
from exact_odds.bets.core import Bet
from exact_odds.bets.main import BANKER, ROLES
from exact_odds.core.coup import Coup, Detail, Winner
from exact_odds.core.dist import Ways
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.deck_polynomials import (
    Coefficients,
    Factored,
    degree,
    evaluate,
    falling_in_decks,
    interpolate,
    over_sequences,
)
from exact_odds.engine.enumerator import deal, sequences

if TYPE_CHECKING:
    import sympy

FIT_DECKS: tuple[int, ...] = tuple(range(9, 16))
"""Shoes (in decks) the closed forms are interpolated from: seven points for degree 6."""

CHECK_DECKS: tuple[int, ...] = tuple(range(1, 9))
"""Shoes the closed forms are checked against: the usual 1 to 8 decks, none used in the fit."""

DECK = 52
TOTAL_COEFFICIENTS = falling_in_decks(DECK)
"""Ordered six-card sequences of a d-deck shoe, 52d (52d-1) ... (52d-5): coefficients, lowest power first."""


# ---------------------------------------------------------------- payout symbols and break-even payouts


def payout_names(bet: Bet) -> tuple[str, ...]:
    """The name of each pay line's payout symbol: its label in lower case, words joined by ``_`` (made unique)."""
    names: list[str] = []
    for line in bet.lines:
        name = re.sub(r"\W+", "_", line.label).strip("_").lower() or "line"
        if not name[0].isalpha():
            name = "line_" + name
        base, n = name, 2
        while name in names:
            name, n = f"{base}_{n}", n + 1
        names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class LinearForm:
    """``constant + sum(coefficient * symbol)``: a house edge in payout symbols, as numbers and names
    (the terms' coefficients not zero, their names distinct)."""

    constant: Fraction
    terms: tuple[tuple[Fraction, str], ...]


def edge_form(sheet: ParSheet) -> LinearForm:
    """The house edge of the sheet's bet in its payout symbols, ``P(loses) - sum(P(line) * symbol)``,
    as numbers and names (:attr:`BetForms.edge_expression` as SymPy's)."""
    *paid, loses = sheet.lines
    return LinearForm(loses.probability, tuple((-line.probability, name) for line, name in
                                               zip(paid, payout_names(sheet.bet), strict=True) if line.ways))


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
    """The payout of one pay line at which the bet is fair, the other lines unchanged (``None`` if the
    line cannot occur on this shoe).

    >>> from exact_odds.bets import find_bet
    >>> break_even(par_sheet(Shoe.infinite_deck(), find_bet("tie")))
    Fraction(4366208, 460601)
    """
    i = line_index(sheet.bet, line)
    *paid, loses = sheet.lines
    if not paid[i].ways:
        return None
    others = sum((p.probability * p.pays for j, p in enumerate(paid) if j != i), Fraction(0))
    return (loses.probability - others) / paid[i].probability


def fair_commission(shoe: Shoe, *, tableau: Tableau = STANDARD_TABLEAU) -> Fraction | None:
    """The banker commission at which the standard banker bet is fair (``None`` if the banker never wins).

    >>> fair_commission(Shoe.infinite_deck())
    Fraction(7410, 276593)
    """
    fair = break_even(par_sheet(shoe, BANKER, tableau=tableau), "banker wins")
    return None if fair is None else 1 - fair


# ---------------------------------------------------------------- closed forms in the number of decks

Measure = Callable[[Shoe], Ways]
"""The ways of some event on a shoe, counted by the engine."""


_shoe = cache(Shoe.decks)  # the closed forms ask for the same few shoes many times


@dataclass(frozen=True)  # not slotted: its cached properties keep a __dict__
class ClosedForm:
    """The ways of an event on a d-deck shoe as the polynomial ``coefficients / denominator`` in d (lowest
    power first; the denominator is 1 when the ways are an integer polynomial, as they must be), over
    :data:`TOTAL_COEFFICIENTS`; ``measure`` counts the event with the engine (the fit and the checks)."""

    name: str
    coefficients: Coefficients
    measure: Measure
    denominator: int = 1

    @property
    def fractions(self) -> tuple[Fraction, ...]:
        """The polynomial's coefficients, lowest power first."""
        return tuple(Fraction(c, self.denominator) for c in self.coefficients)

    @cached_property
    def ways(self) -> sympy.Poly:
        """The polynomial as a sympy ``Poly`` in ``D``."""
        import sympy

        from exact_odds.analysis.symbolic_expressions import D, rational

        coefficients = self.coefficients if self.denominator == 1 else [rational(c) for c in self.fractions]
        return sympy.Poly(list(reversed(coefficients)), D)

    @cached_property
    def factors(self) -> Factored:
        """The probability in lowest terms, factored (:func:`~exact_odds.engine.deck_polynomials.over_sequences`)."""
        return over_sequences(self.coefficients, self.denominator, DECK)

    @cached_property
    def probability(self) -> sympy.Expr:
        """The probability as a rational function of d in lowest terms, factored."""
        from exact_odds.analysis.symbolic_expressions import factored_expression

        return factored_expression(self.factors)

    @property
    def limit(self) -> Fraction:
        """The limit of the probability as d grows: the ratio of the degree-6 coefficients."""
        top = self.coefficients[CARDS_PER_COUP] if len(self.coefficients) > CARDS_PER_COUP else 0
        return Fraction(top, self.denominator * DECK**CARDS_PER_COUP)

    def at(self, decks: int) -> Fraction:
        """The probability for ``decks`` decks, from the closed form."""
        return Fraction(evaluate(self.coefficients, decks), self.denominator * evaluate(TOTAL_COEFFICIENTS, decks))

    def check(self, decks: Sequence[int] = CHECK_DECKS) -> list[str]:
        """Every disagreement with the enumerator on ``decks`` and the infinite deck (empty: none)."""
        wrong = [f"{self.name}: d = {d}" for d in decks
                 if evaluate(self.coefficients, d) != self.denominator * self.measure(_shoe(d))]
        inf = Shoe.infinite_deck()
        if Fraction(self.measure(inf), sequences(inf)) != self.limit:
            wrong.append(f"{self.name}: limit")
        if degree(self.coefficients) > CARDS_PER_COUP or self.denominator != 1:
            wrong.append(f"{self.name}: not an integer polynomial of degree <= 6")
        return wrong


def closed_form(name: str, measure: Measure, *, fit: Sequence[int] = FIT_DECKS) -> ClosedForm:
    """Interpolate ``measure`` over the shoes of ``fit`` decks into a polynomial in d (exactly)."""
    coefficients, denominator = interpolate([(d, measure(_shoe(d))) for d in fit])
    return ClosedForm(name, coefficients, measure, denominator)


def class_measures(classes: int, class_of: Callable[[Coup], int], *, tableau: Tableau = STANDARD_TABLEAU,
                   detail: Detail = Detail.POINTS) -> list[Measure]:
    """The ways of each class of coups ``class_of(coup)`` (0 to ``classes - 1``) on a shoe, counted
    by the engine at ``detail``: one deal per shoe for every class, each coup's class found once."""
    class_by_coup = cache(class_of)

    @cache
    def counts(shoe: Shoe) -> list[Ways]:
        out = [0] * classes
        for coup, ways in deal(shoe, tableau, detail=detail).items():
            out[class_by_coup(coup)] += ways
        return out

    def measure(i: int) -> Measure:
        return lambda shoe: counts(shoe)[i]

    return [measure(i) for i in range(classes)]


def outcome_closed_forms(*, tableau: Tableau = STANDARD_TABLEAU, fit: Sequence[int] = FIT_DECKS,
                         detail: Detail = Detail.POINTS) -> dict[Winner, ClosedForm]:
    """Banker, player and tie: ways and probabilities as functions of the number of decks, interpolated
    from the enumerator on ``fit`` decks (dealt at ``detail``: a finer one lets other closed forms share
    the deals)."""
    measures = class_measures(len(ROLES), lambda coup: ROLES.index(coup.winner), tableau=tableau, detail=detail)
    return {outcome: closed_form(outcome, measure, fit=fit) for outcome, measure in zip(ROLES, measures, strict=True)}


def line_closed_forms(bet: Bet, *, tableau: Tableau = STANDARD_TABLEAU, fit: Sequence[int] = FIT_DECKS,
                      detail: Detail = Detail.POINTS) -> list[ClosedForm]:
    """Each par-sheet line of ``bet`` (the pay lines, then "loses") as a closed form in d, dealt at the bet's
    detail or ``detail`` if finer."""
    labels = [line.label for line in bet.lines] + ["loses"]
    measures = class_measures(len(labels), bet.line_index, tableau=tableau, detail=max(detail, bet.detail))
    return [closed_form(f"{bet.name}: {label}", measure, fit=fit) for label, measure in zip(labels, measures,
                                                                                              strict=True)]


def edge_factors(bet: Bet, forms: Sequence[ClosedForm]) -> Factored:
    """The house edge of ``bet`` as a rational function of d, the bet's own payouts substituted (in
    fractions), in lowest terms and factored (``forms``: :func:`line_closed_forms` of the bet)."""
    *paid, loses = forms
    top = list(loses.fractions)
    for form, line in zip(paid, bet.lines, strict=True):
        top = [t - c * line.pays for t, c in zip(top, form.fractions, strict=True)]
    scale = math.lcm(*(t.denominator for t in top))
    return over_sequences([int(t * scale) for t in top], scale, DECK)


def edge_limit(bet: Bet, forms: Sequence[ClosedForm]) -> Fraction:
    """The house edge of ``bet`` as d grows, from the closed forms' limits."""
    *paid, loses = forms
    return loses.limit - sum((f.limit * line.pays for f, line in zip(paid, bet.lines, strict=True)), Fraction(0))


# ---------------------------------------------------------------- everything the `symbolic` command shows


@dataclass(frozen=True)  # not slotted: its cached properties keep a __dict__
class BetForms:
    """One bet's symbolic results: closed forms in d, and payout symbols on one shoe. ``edge_factors`` and
    ``edge_form``: the house edge in d (the bet's payouts substituted) and in payout symbols, as numbers."""

    sheet: ParSheet
    forms: tuple[ClosedForm, ...]
    edge_factors: Factored
    edge_limit: Fraction
    edge_form: LinearForm
    break_evens: tuple[Fraction | None, ...]

    @cached_property
    def edge_in_decks(self) -> sympy.Expr:
        """The house edge as a rational function of d, factored."""
        from exact_odds.analysis.symbolic_expressions import factored_expression

        return factored_expression(self.edge_factors)

    @cached_property
    def edge_expression(self) -> sympy.Expr:
        """The house edge in the payout symbols on the sheet's shoe; the bet's payouts substituted give
        :attr:`ParSheet.house_edge`."""
        from exact_odds.analysis.symbolic_expressions import linear_expression

        return linear_expression(self.edge_form.constant, self.edge_form.terms)


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything the ``symbolic`` command shows: the closed forms of banker, player and tie and of each
    bet, fitted on ``fit`` decks; payout symbols and break-even payouts on ``shoe``; ``disagreements`` with
    the enumerator on ``checked`` decks and the infinite deck (empty when every closed form agrees)."""

    shoe: Shoe
    outcomes: dict[Winner, ClosedForm]
    bets: tuple[BetForms, ...]
    fair_commission: Fraction | None
    fit: tuple[int, ...]
    checked: tuple[int, ...]
    disagreements: tuple[str, ...]


def summary(shoe: Shoe, bets: Sequence[Bet], *, tableau: Tableau = STANDARD_TABLEAU, fit: Sequence[int] = FIT_DECKS,
            checked: Sequence[int] = CHECK_DECKS, progress: Callable[[int, int], None] | None = None) -> Summary:
    """Every symbolic result for ``bets``, with each closed form checked on ``checked`` decks; every shoe dealt
    once. ``progress(done, total)``, if given, is called after each of ``len(bets) + 2`` steps."""
    steps = len(bets) + 2
    report = progress or (lambda done, total: None)
    report(0, steps)
    detail = max((bet.detail for bet in bets), default=Detail.POINTS)
    outcomes = outcome_closed_forms(tableau=tableau, fit=fit, detail=detail)
    report(1, steps)
    per_bet: list[BetForms] = []
    for bet in bets:
        forms = tuple(line_closed_forms(bet, tableau=tableau, fit=fit, detail=detail))
        sheet = par_sheet(shoe, bet, tableau=tableau)
        per_bet.append(BetForms(sheet, forms, edge_factors(bet, forms), edge_limit(bet, forms), edge_form(sheet),
                                tuple(break_even(sheet, i) for i in range(len(bet.lines)))))
        report(1 + len(per_bet), steps)
    every = [*outcomes.values(), *(form for b in per_bet for form in b.forms)]
    wrong = tuple(problem for form in every for problem in form.check((*fit, *checked)))
    commission = fair_commission(shoe, tableau=tableau)
    report(steps, steps)
    return Summary(shoe, outcomes, tuple(per_bet), commission, tuple(fit), tuple(checked), wrong)
