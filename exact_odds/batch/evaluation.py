"""Bulk evaluation: the coup counts and bet expectations of many compositions (rows of 13 rank counts).

Payouts never enter the integer loops: the kernel evaluates a few non-negative *functionals* (banker,
player, tie, then the events or weighted sums the bets need: :func:`choose_functionals`), and each bet's
numerator follows as an integer combination of them and of the sequences, over a small divisor.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.coefficients import (
    INT64_MAX_CARDS,
    Space,
    coefficients,
    factor_table,
    kind_counts,
    table_codes,
)
from exact_odds.batch.coefficients import sequences as all_sequences
from exact_odds.batch.plan import Layout, Plan, make_layout, make_weighted_plan, part_rows, part_values, ways
from exact_odds.core.coup import BANKER_SUITED, COUP_CODES, OUTCOMES, PLAYER_SUITED, Coup, Detail, Payable, coup_of_code
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import CARDS_PER_COUP, RANK_LABELS, ShoeError
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.polynomial import suited_ways, variant
from exact_odds.inputs.errors import suits_unknown

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]


# ---------------------------------------------------------------- few functionals for many bets
# Many bets pay on the same events (banker wins, ties of each total...), so their numerators are exact
# rational combinations of a few functionals (integer weights on classes of coups, mostly 0/1 events)
# and of the total number of sequences.

Vector = Sequence[Fraction | int]


class Span:
    """The span of the vectors added, as rational echelon rows, each with its combination of the members.

    >>> span = Span(3)
    >>> span.add([1, 0, 0]), span.add([0, 1, 1])
    (True, True)
    >>> span.solve([2, 3, 3])
    [Fraction(2, 1), Fraction(3, 1)]
    >>> span.add([4, 1, 1]), span.solve([0, 0, 1]) is None
    (False, True)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.members: list[list[Fraction]] = []
        self._rows: list[tuple[int, list[Fraction], list[Fraction]]] = []  # pivot, row, combination

    def _reduce(self, vector: Vector) -> tuple[list[Fraction], list[Fraction]]:
        """The vector less its projection on the rows (zero iff in the span), and the combination removed."""
        v = [Fraction(x) for x in vector]
        combo = [Fraction(0)] * len(self.members)
        for pivot, row, coeffs in self._rows:
            if v[pivot]:
                factor = v[pivot] / row[pivot]
                v = [a - factor * b if b else a for a, b in zip(v, row, strict=True)]
                combo = [c + factor * d for c, d in zip(combo, coeffs, strict=True)]
        return v, combo

    def add(self, vector: Vector) -> bool:
        """Add ``vector`` as a member if it is not in the span yet; whether it was added."""
        row, combo = self._reduce(vector)
        pivot = next((i for i, x in enumerate(row) if x), None)
        if pivot is None:
            return False
        self.members.append([Fraction(x) for x in vector])
        for _, _, coeffs in self._rows:
            coeffs.append(Fraction(0))
        self._rows.append((pivot, row, [-c for c in combo] + [Fraction(1)]))
        return True

    def solve(self, vector: Vector) -> list[Fraction] | None:
        """Coefficients of the members that add up to ``vector``, or None if it is not in the span."""
        rest, combo = self._reduce(vector)
        return None if any(rest) else combo


def integer_weights(vector: Vector) -> list[int]:
    """The vector shifted to a least entry of 0 and scaled to coprime non-negative integers."""
    low = min(Fraction(x) for x in vector)
    shifted = [Fraction(x) - low for x in vector]
    scale = math.lcm(*(x.denominator for x in shifted))
    ints = [int(x * scale) for x in shifted]
    common = math.gcd(*ints) or 1
    return [x // common for x in ints]


def choose_functionals(vectors: Sequence[Vector], start: Sequence[Vector], total: Vector, *,
                       shift: bool) -> list[list[int]]:
    """Non-negative integer functionals whose span, with ``total``, holds every vector: ``start``, then for
    a vector not yet in the span the events (0/1) of its values, rarest first, until it is in; or, when
    that takes more than one and ``shift`` (every class counted by ``total``), the vector shifted."""
    span = Span(len(total))
    chosen: list[list[int]] = []
    for v in start:
        span.add(v)
        chosen.append([int(x) for x in v])
    span.add(total)
    for vector in vectors:
        if span.solve(vector) is not None:
            continue
        levels = sorted({Fraction(x) for x in vector} - {Fraction(0)})
        events = sorted(([int(Fraction(x) == level) for x in vector] for level in levels), key=sum)
        trial = Span(span.size)
        trial._rows = [(pivot, row, []) for pivot, row, _ in span._rows]
        missing = [e for e in events if trial.solve(vector) is None and trial.add(e)]
        if len(missing) > 1 and shift:
            missing = [integer_weights(vector)]
        for e in missing:
            span.add(e)
            chosen.append(e)
    return chosen


def combinations(functionals: Sequence[Vector], total: Vector, vectors: Sequence[Vector]) -> list[list[Fraction]]:
    """Each vector as exact coefficients of the functionals and, last, of ``total``."""
    span = Span(len(total))
    for f in functionals:
        if not span.add(f):
            raise ValueError("functionals must be independent")
    with_total = span.add(total)
    solved: dict[tuple[Fraction | int, ...], list[Fraction]] = {}
    for vector in map(tuple, vectors):
        if vector not in solved:
            combo = span.solve(vector)
            if combo is None:
                raise ValueError("a vector outside the span of the functionals")
            solved[vector] = combo if with_total else [*combo, Fraction(0)]
    return [list(solved[tuple(vector)]) for vector in vectors]


# ---------------------------------------------------------------- classes of coups per pass


@dataclass(frozen=True)
class _BetPass:
    """The functionals one pass evaluates; ``combination[j]``: bet ``j``'s numerator (``sum of ways * payout
    * scale``) as integer coefficients of them and, last, of the sequences, over ``divisor[j]``. At
    ``Detail.POINTS`` the plan leaves out the tie (the sequences less banker and player) and ``check``
    evaluates all three on a sample (:func:`_sampled_check`); else functional 0 counts every sequence."""

    plan: Plan
    scales: tuple[int, ...]
    combination: tuple[tuple[int, ...], ...]
    divisor: tuple[int, ...]
    largest: tuple[int, ...]  # per bet: the largest scaled payout (suited: coefficient), in absolute value
    check: Plan | None = None


def _payouts(bet: Payable, codes: IntArray) -> tuple[IntArray, int]:
    """The bet's payouts on ``codes`` scaled to integers (a table by code), and the scale. A bet pays a
    few amounts, most often the same objects: each is scaled once, found by its identity."""
    paid = [bet.payout(coup_of_code(code)) for code in codes.tolist()]
    distinct = {id(p): p for p in paid}
    scale = math.lcm(*(p.denominator for p in distinct.values()))
    scaled = {key: p.numerator * (scale // p.denominator) for key, p in distinct.items()}
    table = np.zeros(COUP_CODES, dtype=np.int64)
    table[codes] = [scaled[id(p)] for p in paid]
    return table, scale


def _class_vectors(detail: Detail, bets: tuple[Payable, ...],
                   codes: IntArray) -> tuple[IntArray, list[list[Fraction]], list[int], list[int]]:
    """Classes of codes with equal payouts; per bet its payout per class, per class its winner (-1 unless
    points) and whether it counts toward the sequences. At ``Detail.SUITS`` a variant code's coefficient
    is the Moebius sum of :func:`~exact_odds.engine.polynomial.suited_ways`."""
    x, y = codes // PLAYER_SUITED % 2, codes // BANKER_SUITED % 2
    base = codes - PLAYER_SUITED * x - BANKER_SUITED * y
    suited = detail is Detail.SUITS
    variants = base[:, None] + PLAYER_SUITED * np.array([0, 1, 0, 1]) + BANKER_SUITED * np.array([0, 0, 1, 1])
    needed = np.flatnonzero(np.bincount(variants.ravel()))  # sorted, distinct (np.unique would import numpy.ma)
    columns = [(x + y == 0).astype(np.int64) if suited else np.ones(len(codes), dtype=np.int64),
               np.array([OUTCOMES.index(coup_of_code(c).winner) for c in codes.tolist()] if detail is Detail.POINTS
                        else [-1] * len(codes), dtype=np.int64)]
    scales = []
    for bet in bets:
        table, scale = _payouts(bet, needed if suited else codes)
        if suited:  # X_xy: sum over a <= x, b <= y of (-1)^(x-a+y-b) payout(a, b)
            p, b = PLAYER_SUITED, BANKER_SUITED
            columns.append(table[codes] - x * table[base + b * y] - y * table[base + p * x] + x * y * table[base])
        else:
            columns.append(table[codes])
        scales.append(scale)
    keys, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    class_of = np.zeros(COUP_CODES, dtype=np.int64)
    class_of[codes] = inverse.ravel()
    values = [[Fraction(int(v), scale) for v in keys[:, 2 + j].tolist()] for j, scale in enumerate(scales)]
    return class_of, values, keys[:, 1].tolist(), keys[:, 0].tolist()


@lru_cache(maxsize=32)
def _bet_pass(tableau: Tableau, detail: Detail, bets: tuple[Payable, ...]) -> _BetPass:
    """Few functionals spanning every bet's numerator (:func:`choose_functionals`); compiled."""
    co = coefficients(tableau, detail)
    class_of, values, winner, base = _class_vectors(detail, bets, table_codes(co))
    outcomes = [[int(w == o) for w in winner] for o in range(len(OUTCOMES))] if detail is Detail.POINTS else []
    scales = [math.lcm(*(v.denominator for v in vals)) for vals in values]
    scaled = [[int(v * scale) for v in vals] for vals, scale in zip(values, scales, strict=True)]
    chosen = choose_functionals(scaled, outcomes or [base], base, shift=all(base))
    combination, divisor = [], []
    for combo in combinations(chosen, base, scaled):
        d = math.lcm(*(c.denominator for c in combo))
        combination.append(tuple(int(c * d) for c in combo))
        divisor.append(d)
    weights = np.array(chosen, dtype=np.int64).T[class_of]
    largest = tuple(max(abs(v) for v in vals) for vals in scaled)
    check = None
    if outcomes:
        check = make_weighted_plan(co, weights[:, :TIE + 1])
        weights = np.delete(weights, TIE, axis=1)  # t * tie = t * (sequences - banker - player):
        combination = [(c[0] - c[TIE], c[1] - c[TIE], *c[TIE + 1:-1], c[-1] + c[TIE]) for c in combination]
    return _BetPass(make_weighted_plan(co, weights), tuple(scales), tuple(combination), tuple(divisor), largest,
                    check)


TIE = 2
"""The functional left out of the plan at ``Detail.POINTS`` (banker, player, tie first)."""
SAMPLE = 97
"""One composition in this many (and the last) is checked with banker, player and tie evaluated."""
LOST = "bulk evaluation lost ways (please report this bug)"


def _outcomes(found: Array, sequences: Array) -> Array:
    """Banker, player and tie (n, 3), the tie being the sequences less banker and player (a negative
    one raises). In Fortran order: sums of their floats in simulate's JSON depend on it."""
    dtype = object if object in (found.dtype, sequences.dtype) else np.int64
    out: Array = np.empty((len(found), TIE + 1), dtype=dtype, order="F")
    out[:, :TIE] = found[:, :TIE]
    out[:, TIE] = sequences - out[:, 0] - out[:, 1]
    if (out[:, TIE] < 0).any():  # they add up to the sequences by construction; none may exceed them
        raise AssertionError(LOST)
    return out


def _sampled_check(check: Plan, counts: IntArray, found: Array) -> None:
    """Banker, player and tie counted directly on a sample (one in :data:`SAMPLE`, and the last) must
    equal ``found``."""
    if not len(counts):
        return
    rows = np.r_[np.arange(0, len(counts) - 1, SAMPLE), len(counts) - 1]
    direct = ways(check, counts[rows], None)
    if not (direct == found[rows]).all():
        raise AssertionError(LOST)


# ---------------------------------------------------------------- checks


def _check_counts(compositions: object) -> tuple[IntArray, IntArray]:
    """Compositions as an (n, 13) int64 array, and their sizes; else :class:`ShoeError`."""
    try:
        counts = np.asarray(compositions)
    except (ValueError, TypeError) as err:
        raise ShoeError(f"compositions must be rows of 13 counts: {err}") from None
    if counts.ndim != 2 or counts.shape[1] != len(RANK_LABELS):
        raise ShoeError(f"compositions must be rows of 13 counts (A..K), got shape {counts.shape}")
    if counts.size and counts.dtype.kind not in "iu":
        raise ShoeError(f"counts must be whole numbers, got {counts.dtype}")
    counts = counts.astype(np.int64, copy=False)
    if counts.size and counts.min() < 0:
        bad = np.flatnonzero((counts < 0).any(axis=1))
        raise ShoeError(f"composition {bad[0] + 1} has a negative count")
    sizes = np.einsum("ij->i", counts)  # a sum along short rows, three times faster than counts.sum(axis=1)
    small = np.flatnonzero(sizes < CARDS_PER_COUP)
    if small.size:
        raise ShoeError(f"composition {small[0] + 1} has {counts[small[0]].sum()} cards; a coup needs "
                        f"{CARDS_PER_COUP}")
    return counts, sizes


def _check_suits(counts: IntArray, suits: object | None, lines: Sequence[int] | None = None) -> IntArray:
    """Suit counts (n, 13, 4): given, or equal suits where every count divides by 4."""
    if suits is None:
        uneven = np.flatnonzero((counts % 4 != 0).any(axis=1))
        if uneven.size:
            where = f"line {lines[uneven[0]]}" if lines is not None else f"composition {uneven[0] + 1}"
            raise ShoeError(suits_unknown(where=where, hint="give suit counts, or counts divisible by 4"))
        return np.repeat(counts[:, :, None] // 4, 4, axis=2)
    s = np.asarray(suits, dtype=np.int64)
    if s.shape != (*counts.shape, 4):
        raise ShoeError(f"suit counts must have shape {(*counts.shape, 4)}, got {s.shape}")
    added = s[:, :, 0] + s[:, :, 1] + s[:, :, 2] + s[:, :, 3]  # eight times faster than s.sum(axis=2)
    if (s.size and s.min() < 0) or not np.array_equal(added, counts):
        raise ShoeError("suit counts must be non-negative and add up to the rank counts")
    return s


def _checked(found: Array, sequences: Array) -> None:
    """The ways of each composition's outcomes must add up to its sequences (columns added one by one:
    faster than ``found.sum(axis=1)``)."""
    total = found[:, 0].copy()
    for j in range(1, found.shape[1]):
        total += found[:, j]
    if not (total == sequences).all():
        raise AssertionError(LOST)


# ---------------------------------------------------------------- whole distributions


@dataclass(frozen=True, slots=True)
class _Terms:
    """A table's terms sorted by coup code (``starts``: the first of each of ``codes``), with the rows of
    their parts: ``ways[code] = sum over its terms of count * values[row_a] * values[row_b]``."""

    space: Space
    layout: Layout
    row_a: IntArray
    row_b: IntArray
    count: IntArray
    starts: IntArray
    codes: tuple[int, ...]


@lru_cache(maxsize=4)
def _terms(tableau: Tableau, detail: Detail) -> _Terms:
    co = coefficients(tableau, detail)
    layout = make_layout(co.space, ({tuple(p) for p in co.parts_a}, {tuple(p) for p in co.parts_b}))
    order = np.argsort(co.coup, kind="stable")
    coup = co.coup[order]
    starts = np.flatnonzero(np.r_[True, coup[1:] != coup[:-1]])
    row_a = part_rows(layout, 0, np.array(co.parts_a, dtype=np.int64).reshape(len(co.parts_a), -1))[co.a[order]]
    row_b = part_rows(layout, 1, np.array(co.parts_b, dtype=np.int64).reshape(len(co.parts_b), -1))[co.b[order]]
    return _Terms(co.space, layout, row_a, row_b, co.count[order], starts, tuple(coup[starts].tolist()))


def _code_ways(terms: _Terms, counts: IntArray, suits: IntArray | None, sizes: IntArray) -> Array:
    """Ways of every code (columns: ``terms.codes``) of each composition, in int64 where the sequences fit."""
    wide = int(sizes.max(initial=0)) > INT64_MAX_CARDS
    out: Array = np.zeros((len(counts), len(terms.codes)), dtype=object if wide else np.int64)
    kinds = kind_counts(counts, terms.space.detail).astype(out.dtype)
    for start in range(0, len(counts), 16):
        rows = slice(start, start + 16)
        values = part_values(terms.layout, factor_table(terms.space, kinds[:, rows], None if suits is None else
                                                        suits[rows].transpose(1, 2, 0)))
        products = terms.count.astype(out.dtype)[:, None] * values[terms.row_a] * values[terms.row_b]
        out[rows] = np.add.reduceat(products, terms.starts, axis=0).T
    return out


def distributions(compositions: object, *, tableau: Tableau = STANDARD_TABLEAU, detail: Detail = Detail.POINTS,
                  suits: object | None = None) -> list[Dist[Coup]]:
    """The coup distribution of each composition: ``[deal(Shoe(c), tableau, detail=detail) ...]`` in bulk;
    ``suits`` (n, 13, 4), needed only at ``Detail.SUITS`` for counts that do not divide by 4.

    >>> distributions([[4] * 13])[0].total == 52 * 51 * 50 * 49 * 48 * 47
    True
    """
    counts, sizes = _check_counts(compositions)
    suit_counts = _check_suits(counts, suits) if detail is Detail.SUITS else None
    terms = _terms(tableau, detail)
    found, codes = _code_ways(terms, counts, suit_counts, sizes), terms.codes
    base = np.array([variant(code)[0] == code for code in codes])
    _checked(found[:, base], all_sequences(sizes))
    out = []
    for row in found.tolist():
        by_code = dict(zip(codes, row, strict=True))
        if detail is Detail.SUITS:
            by_code = suited_ways(by_code)
        out.append(Dist((coup_of_code(code), int(w)) for code, w in by_code.items()))
    return out


# ---------------------------------------------------------------- bets


@dataclass(frozen=True)
class Evaluation:
    """Exact results of :func:`evaluate` for ``n`` compositions and ``k`` bets: ``counts`` (n, 13),
    ``sequences`` (n,) ``N (N-1) ... (N-5)``, ``outcomes`` (n, 3) ways of banker, player, tie, and
    ``numerators`` (n, k), bet ``j``'s expectation (net units per unit staked, the bettor's side) being
    ``numerators[i, j] / (sequences[i] * scales[j])``; int64 when every value fits, else Python ints."""

    counts: IntArray
    sequences: Array
    outcomes: Array
    bets: tuple[Payable, ...]
    numerators: Array
    scales: tuple[int, ...]

    def __len__(self) -> int:
        return int(self.counts.shape[0])

    def expectation(self, i: int, j: int) -> Fraction:
        """Exact expectation of bet ``j`` for composition ``i``."""
        return Fraction(int(self.numerators[i, j]), int(self.sequences[i]) * self.scales[j])

    def expectations(self, j: int) -> list[Fraction]:
        """Exact expectations of bet ``j`` for every composition."""
        return [Fraction(int(num), int(seq) * self.scales[j])
                for num, seq in zip(self.numerators[:, j].tolist(), self.sequences.tolist(), strict=True)]

    def edges(self) -> npt.NDArray[np.float64]:
        """Expectations as floats, shape (n, k), for statistics (relative error below 2**-51; exact signs)."""
        den = self.sequences.astype(np.float64)[:, None] * np.array(self.scales, dtype=np.float64)
        return np.asarray(self.numerators.astype(np.float64) / den, dtype=np.float64)

    def favourable(self) -> npt.NDArray[np.bool_]:
        """Whether each bet has a positive expectation for each composition, exactly."""
        return np.asarray(self.numerators > 0, dtype=np.bool_)

    def probabilities(self) -> npt.NDArray[np.float64]:
        """Banker, player and tie probabilities as floats, shape (n, 3), for statistics."""
        return np.asarray(self.outcomes.astype(np.float64) / self.sequences.astype(np.float64)[:, None],
                          dtype=np.float64)


def _bet_groups(bets: Sequence[Payable]) -> dict[Detail, list[int]]:
    """Indices of the bets evaluated at each detail level (points always evaluated)."""
    groups: dict[Detail, list[int]] = {Detail.POINTS: []}
    for j, bet in enumerate(bets):
        groups.setdefault(bet.detail, []).append(j)
    return groups


def _numerators(compiled: _BetPass, found: Array, sequences: Array) -> Array:
    """Each bet's numerators (a column per bet) from the functionals, exactly: int64 when a bound fits."""
    # |numerator| is at most the largest scaled payout times the ways of every class, suited
    # variants included: at most four times the sequences. When divisor * that fits in int64,
    # arithmetic modulo 2**64 (uint64, which wraps by definition) gives the exact value.
    bound = 4 * int(sequences.max(initial=0)) * max(
        (d * top for d, top in zip(compiled.divisor, compiled.largest, strict=True)), default=0)
    wide = found.dtype != np.int64 or sequences.dtype != np.int64 or bound >= 2**63
    columns = np.concatenate([found, sequences[:, None]], axis=1)
    table = np.array(compiled.combination, dtype=object).T.reshape(columns.shape[1], -1)
    if wide:
        raw: Array = columns.astype(object) @ table
        divisor = np.array(compiled.divisor, dtype=object)
    else:
        raw = (columns.view(np.uint64) @ (table % 2**64).astype(np.uint64)).view(np.int64)
        divisor = np.array(compiled.divisor, dtype=np.int64)
    if (raw % divisor != 0).any():
        raise AssertionError(LOST)
    quotient: Array = raw // divisor
    return quotient


def evaluate(compositions: object, *, bets: Iterable[Payable] = (), tableau: Tableau = STANDARD_TABLEAU,
             suits: object | None = None, lines: Sequence[int] | None = None, jit: bool | None = None) -> Evaluation:
    """Exact banker/player/tie ways and bet expectations for many compositions at once.

    ``compositions``: rows of 13 rank counts (A, 2, ..., 9, T, J, Q, K); ``suits`` (n, 13, 4), needed
    only by suited bets when the counts do not divide by 4. ``expectation(i, j) == deal(Shoe(c), tableau,
    detail=b.detail).expectation(b.payout)``. ``lines`` names the compositions in messages. ``jit``:
    whether to run the compiled loops (None: :func:`exact_odds.batch.compiled.wanted` decides by size).

    >>> from exact_odds.bets import find_bet
    >>> ev = evaluate([[32] * 13, [4] * 13], bets=[find_bet("banker")])
    >>> ev.expectation(0, 0), ev.expectation(1, 0)
    (Fraction(-114753351728, 10847218479825), Fraction(-49303, 4873050))
    """
    counts, sizes = _check_counts(compositions)
    bet_list = tuple(bets)
    sequences = all_sequences(sizes)
    outcomes: Array = np.zeros((len(counts), len(OUTCOMES)), dtype=np.int64)
    numerators: Array = np.zeros((len(counts), len(bet_list)), dtype=np.int64)
    scales = [1] * len(bet_list)
    for detail, members in _bet_groups(bet_list).items():
        compiled = _bet_pass(tableau, detail, tuple(bet_list[j] for j in members))
        suit_counts = _check_suits(counts, suits, lines) if detail is Detail.SUITS else None
        found = ways(compiled.plan, counts, suit_counts, sizes, jit=jit)
        if compiled.check is not None:
            outcomes = _outcomes(found, sequences)
            _sampled_check(compiled.check, counts, outcomes)
        else:
            _checked(found[:, :1], sequences)
        if not members:
            continue
        numer = _numerators(compiled, found, sequences)
        if numer.dtype == object:
            numerators = numerators.astype(object)
        numerators[:, members] = numer
        for col, j in enumerate(members):
            scales[j] = compiled.scales[col]
    return Evaluation(counts, sequences, outcomes, bet_list, numerators, tuple(scales))
