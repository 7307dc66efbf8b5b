"""Bulk evaluation: the coup counts and bet expectations of many compositions at once.

Conventions. Compositions are rows of 13 rank counts (A, 2, ..., 9, T, J, Q, K). Ways count
ordered six-card sequences, unused cards included, so a shoe of ``N`` cards has
``N (N-1) ... (N-5)`` of them (checked for every composition); the integers equal those of
:func:`exact_odds.engine.enumerator.deal`. Payouts are net units per unit staked (a push is 0), exact;
they never enter the integer loops. The kernel evaluates a few non-negative *functionals*
(banker, player and tie, then events such as "banker wins with 6" or weighted sums that the
bets need: :mod:`exact_odds.batch.basis`), and each bet's numerator follows exactly as an
integer combination of them and of the number of sequences, over a small divisor.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch import wide, widepass
from exact_odds.batch.basis import choose_functionals, combinations
from exact_odds.batch.coefficients import coefficients
from exact_odds.batch.compiled import loops as compiled_loops
from exact_odds.batch.monomials import table_codes
from exact_odds.batch.plan import INT64_MAX_CARDS, Plan, make_weighted_plan, ways
from exact_odds.batch.sparse import sparse, sparse_ways
from exact_odds.batch.suited import suited_ways, variant
from exact_odds.core.coup import BANKER_SUITED, COUP_CODES, OUTCOMES, PLAYER_SUITED, Coup, Detail, Payable, coup_of_code
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import CARDS_PER_COUP, RANK_LABELS, Shoe, ShoeError
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.inputs.errors import suits_unknown

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]


# ---------------------------------------------------------------- classes of coups per pass


@dataclass(frozen=True)
class _BetPass:
    """The functionals one pass evaluates, and how the bets' numerators follow from them.

    ``outcomes``: the functionals that are banker, player and tie (``Detail.POINTS``), else
    empty; ``total``: the functional counting every sequence (the check), or -1. At
    ``Detail.POINTS`` the plan leaves out the tie, which is the sequences less banker and
    player (one functional fewer: a third less arithmetic for the main bets); ``check`` then
    evaluates banker, player and tie, the check of :func:`_sampled_check`.
    ``combination[j]``: bet ``j``'s numerator (``sum of ways * payout * scale``) as integer
    coefficients of the plan's functionals and, last, of the sequences, over ``divisor[j]`` (at
    ``Detail.POINTS`` the tie's coefficient is moved to the sequences, less banker and player).
    """

    plan: Plan
    outcomes: tuple[int, ...]
    total: int
    scales: tuple[int, ...]
    combination: tuple[tuple[int, ...], ...]
    divisor: tuple[int, ...]
    largest: tuple[int, ...]  # per bet: the largest scaled payout (suited: coefficient), in absolute value
    check: Plan | None = None


def _payouts(bet: Payable, codes: IntArray) -> tuple[IntArray, int]:
    """The bet's payouts on ``codes`` scaled to integers (a table by code), and the scale (the least
    common multiple of the denominators of the payouts on ``codes``). A bet pays a few amounts on
    hundreds of codes, most often the same objects (its pay lines'): each object is scaled once,
    found again by its identity (cheaper than a fraction's hash)."""
    paid = [bet.payout(coup_of_code(code)) for code in codes.tolist()]
    distinct = {id(p): p for p in paid}
    scale = math.lcm(*(p.denominator for p in distinct.values()))
    scaled = {key: p.numerator * (scale // p.denominator) for key, p in distinct.items()}
    table = np.zeros(COUP_CODES, dtype=np.int64)
    table[codes] = [scaled[id(p)] for p in paid]
    return table, scale


def _class_vectors(detail: Detail, bets: tuple[Payable, ...],
                   codes: IntArray) -> tuple[IntArray, list[list[Fraction]], list[int], list[int]]:
    """Classes of codes with equal payouts; per bet its payout (suited: coefficient) per class,
    per class its winner (-1 unless points) and whether it counts toward the sequences.

    At ``Detail.SUITS`` a variant code's coefficient is the Moebius sum of
    :func:`~exact_odds.batch.suited.suited_coefficient`, on integer payout tables.
    """
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
    """Few functionals spanning every bet's numerator (:mod:`exact_odds.batch.basis`); compiled."""
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
    if not outcomes:
        return _BetPass(make_weighted_plan(co, weights), (), 0, tuple(scales), tuple(combination), tuple(divisor),
                        largest)
    plan = make_weighted_plan(co, np.delete(weights, TIE, axis=1))
    return _BetPass(plan, (0, 1, 2), -1, tuple(scales), tuple(map(_without_tie, combination)), tuple(divisor),
                    largest, make_weighted_plan(co, weights[:, :TIE + 1]))


def _without_tie(combo: tuple[int, ...]) -> tuple[int, ...]:
    """A combination of banker, player, tie, other functionals and the sequences (last) as one of
    the same without the tie: ``t * tie = t * sequences - t * banker - t * player``."""
    tie = combo[TIE]
    return (combo[0] - tie, combo[1] - tie, *combo[TIE + 1:-1], combo[-1] + tie)


TIE = 2
"""The functional left out of the plan at ``Detail.POINTS``: the tie (banker, player, tie first)."""
SAMPLE = 97
"""One composition in this many (and the last) is checked with banker, player and tie evaluated."""


def _outcomes(found: Array, sequences: Array) -> Array:
    """Banker, player and tie (n, 3) from a points pass's functionals (banker and player first):
    the tie is the sequences less banker and player, so the three add up to the sequences by
    construction; a negative tie raises (and :func:`_sampled_check` counts it directly on a
    sample). In Fortran order, as the outcomes have always been (sums of their floats along
    either axis, in simulate's JSON, depend on it)."""
    dtype = object if object in (found.dtype, sequences.dtype) else np.int64
    out: Array = np.empty((len(found), TIE + 1), dtype=dtype, order="F")
    out[:, :TIE] = found[:, :TIE]
    out[:, TIE] = sequences - out[:, 0] - out[:, 1]
    if (out[:, TIE] < 0).any():  # they add up to the sequences by construction; none may exceed them
        raise AssertionError("bulk evaluation lost ways (please report this bug)")
    return out


def _sampled_check(compiled: _BetPass, counts: IntArray, found: Array) -> None:
    """Banker, player and tie evaluated anew on a sample of the compositions (one in
    :data:`SAMPLE`, and the last) must equal ``found``: the tie derived from the sequences
    is then checked against one counted directly."""
    if compiled.check is None or not len(counts):
        return
    rows = np.r_[np.arange(0, len(counts) - 1, SAMPLE), len(counts) - 1]
    direct = ways(compiled.check, counts[rows], None)
    if not (direct == found[rows]).all():
        raise AssertionError("bulk evaluation lost ways (please report this bug)")


# ---------------------------------------------------------------- checks


def _check_counts(compositions: object) -> tuple[IntArray, IntArray]:
    """Compositions as an (n, 13) int64 array, and their sizes (cards); a bad one raises
    :class:`ShoeError`."""
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
    """The ways of each composition's outcomes must add up to its sequences (the columns added one
    by one: a sum along short rows, ``found.sum(axis=1)``, is several times slower)."""
    total = found[:, 0].copy()
    for j in range(1, found.shape[1]):
        total += found[:, j]
    if not (total == sequences).all():
        raise AssertionError("bulk evaluation lost ways (please report this bug)")


# ---------------------------------------------------------------- whole distributions


def distributions(compositions: object, *, tableau: Tableau = STANDARD_TABLEAU, detail: Detail = Detail.POINTS,
                  suits: object | None = None) -> list[Dist[Coup]]:
    """The coup distribution of each composition: the bulk equivalent of ``deal``.

    ``compositions`` is a sequence of 13 rank counts (A..K) per shoe; ``suits``, needed only
    at ``Detail.SUITS`` for shoes whose counts do not divide by 4, gives counts per rank and
    suit (shape (n, 13, 4)). The result equals ``[deal(Shoe(c), tableau, detail=detail) ...]``.
    """
    counts, sizes = _check_counts(compositions)
    suit_counts = _check_suits(counts, suits) if detail is Detail.SUITS else None
    form = sparse(tableau, detail)
    found = sparse_ways(form, counts, suit_counts)
    base = np.array([variant(code)[0] == code for code in form.codes])
    _checked(found[:, base], widepass.sequences(sizes))
    out = []
    for row in found.tolist():
        by_code = dict(zip(form.codes, row, strict=True))
        if detail is Detail.SUITS:
            by_code = suited_ways(by_code)
        out.append(Dist((coup_of_code(code), int(w)) for code, w in by_code.items()))
    return out


# ---------------------------------------------------------------- bets


@dataclass(frozen=True)
class Evaluation:
    """Exact results of :func:`evaluate` for ``n`` compositions and ``k`` bets.

    ``counts``: (n, 13) rank counts. ``sequences``: (n,) ordered six-card sequences
    ``N (N-1) ... (N-5)``. ``outcomes``: (n, 3) ways of banker, player, tie (the order of
    :data:`~exact_odds.core.coup.OUTCOMES`). ``numerators``: (n, k) integers such that the
    expectation of bet ``j`` (net units per unit staked, from the bettor's side) is
    ``numerators[i, j] / (sequences[i] * scales[j])``. Integer arrays are int64 when every
    value fits, else numpy object arrays of Python ints.
    """

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
        """Expectations as floats, shape (n, k), for statistics (relative error below 2**-51).

        Signs are exact: a float is positive exactly when the expectation is.
        """
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


def _wide_numerators(compiled: _BetPass, columns: Array, bound: int) -> Array:
    """Each bet's numerators from the functionals and sequences (``columns``, non-negative Python
    integers, each at most the largest weight times the sequences), through 32-bit limbs
    (:mod:`exact_odds.batch.wide`; ``bound``: of every numerator times its divisor), exact,
    object array (n, bets)."""
    bits = int(columns[:, -1].max()).bit_length() + max(compiled.plan.weights, default=1).bit_length()
    table = np.array(compiled.combination, dtype=np.int64).T.reshape(columns.shape[1], -1)
    limbs = wide.combine(wide.to_limbs(columns, wide.limbs_for(bits)), table, wide.limbs_for(bound.bit_length()))
    raw = wide.to_integers(limbs)
    for j, divisor in enumerate(compiled.divisor):
        if divisor != 1:
            if (raw[:, j] % divisor != 0).any():
                raise AssertionError("bulk evaluation lost ways (please report this bug)")
            raw[:, j] //= divisor
    return raw


@lru_cache(maxsize=32)
def _sparse_table(combination: tuple[tuple[int, ...], ...]) -> tuple[IntArray, IntArray, npt.NDArray[np.uint64]]:
    """The bets' combinations without their zero coefficients: per bet ``j`` the entries
    ``starts[j]:starts[j + 1]`` of the columns and of the coefficients modulo ``2**64``."""
    starts, columns, weights = [0], [], []
    for combo in combination:
        used = [(c, w) for c, w in enumerate(combo) if w]
        columns += [c for c, _ in used]
        weights += [w % 2**64 for _, w in used]
        starts.append(len(columns))
    return (np.array(starts, dtype=np.int64), np.array(columns, dtype=np.int64),
            np.array(weights, dtype=np.uint64))


def _numerators(compiled: _BetPass, found: Array, sequences: Array, out: IntArray, members: list[int]) -> Array | None:
    """Each bet's numerators from the functionals, exactly: written to the int64 columns
    ``out[:, members]`` when a bound fits (None returned), else returned (object array, a column per bet)."""
    # |numerator| is at most the largest scaled payout times the ways of every class, suited
    # variants included: at most four times the sequences. When divisor * that fits in int64,
    # arithmetic modulo 2**64 (uint64, which wraps by definition) gives the exact value.
    bound = 4 * int(sequences.max(initial=0)) * max(
        (d * top for d, top in zip(compiled.divisor, compiled.largest, strict=True)), default=0)
    if found.dtype != np.int64 or sequences.dtype != np.int64 or bound >= 2**63:
        columns = np.concatenate([found, sequences.astype(found.dtype)[:, None]], axis=1)
        return _wide_numerators(compiled, columns.astype(object), bound)
    fast = compiled_loops(len(found))
    divisor = np.array(compiled.divisor, dtype=np.int64)
    if fast is not None:
        inexact = fast.combine(np.ascontiguousarray(found).view(np.uint64), sequences.view(np.uint64),
                               *_sparse_table(compiled.combination), divisor, np.array(members, dtype=np.int64), out)
    else:
        columns = np.concatenate([found, sequences[:, None]], axis=1)
        table = np.array(compiled.combination, dtype=object).T.reshape(columns.shape[1], -1)
        raw = (columns.view(np.uint64) @ (table % 2**64).astype(np.uint64)).view(np.int64)
        inexact = int((raw % divisor != 0).sum())
        out[:, members] = raw // divisor
    if inexact:
        raise AssertionError("bulk evaluation lost ways (please report this bug)")
    return None


def evaluate(compositions: object, *, bets: Iterable[Payable] = (), tableau: Tableau = STANDARD_TABLEAU,
             suits: object | None = None, lines: Sequence[int] | None = None) -> Evaluation:
    """Exact banker/player/tie ways and bet expectations for many compositions at once.

    ``compositions``: rows of 13 rank counts (A, 2, ..., 9, T, J, Q, K). ``suits``: counts per
    rank and suit, shape (n, 13, 4), needed only by bets that look at suits when the counts
    do not divide by 4. The integers equal the reference enumerator's: for each row ``c`` and
    bet ``b``, ``evaluation.expectation(i, j) == deal(Shoe(c), tableau, detail=b.detail)
    .expectation(b.payout)``. ``lines``, if given, names the compositions in error messages
    (input line numbers).

    >>> from exact_odds.bets import find_bet
    >>> ev = evaluate([[32] * 13, [4] * 13], bets=[find_bet("banker")])
    >>> ev.expectation(0, 0), ev.expectation(1, 0)
    (Fraction(-114753351728, 10847218479825), Fraction(-49303, 4873050))
    """
    counts, sizes = _check_counts(compositions)
    bet_list = tuple(bets)
    fast = _words_path(tableau, bet_list, sizes)
    if fast is not None:
        return _evaluate_words(counts, sizes, bet_list, tableau, fast)
    sequences = widepass.sequences(sizes)
    outcomes: Array = np.zeros((len(counts), len(OUTCOMES)), dtype=np.int64)
    numerators: Array = np.zeros((len(counts), len(bet_list)), dtype=np.int64)
    scales = [1] * len(bet_list)
    wide: dict[int, Array] = {}
    for detail, members in _bet_groups(bet_list).items():
        compiled = _bet_pass(tableau, detail, tuple(bet_list[j] for j in members))
        suit_counts = _check_suits(counts, suits, lines) if detail is Detail.SUITS else None
        found = ways(compiled.plan, counts, suit_counts, sizes)
        if compiled.outcomes:
            outcomes = _outcomes(found, sequences)
            _sampled_check(compiled, counts, outcomes)
        else:
            _checked(found[:, [compiled.total]], sequences)
        if not members:
            continue
        numer = _numerators(compiled, found, sequences, numerators, members)
        for col, j in enumerate(members):
            scales[j] = compiled.scales[col]
            if numer is not None:
                wide[j] = numer[:, col]
    if wide:
        numerators = numerators.astype(object)
        for j, column in wide.items():
            numerators[:, j] = column
    return Evaluation(counts, sequences, outcomes, bet_list, numerators, tuple(scales))


def _words_path(tableau: Tableau, bets: tuple[Payable, ...], sizes: IntArray) -> tuple[ModuleType, ModuleType] | None:
    """The compiled loops of :mod:`exact_odds.batch.widepass` when they evaluate the shoes past
    int64 (some, and no bet looks at suits; compiled for large jobs or with ``EXACT_ODDS_JIT=1``)."""
    wide = int((sizes > INT64_MAX_CARDS).sum())
    if not wide or any(bet.detail is Detail.SUITS for bet in bets):
        return None
    if not all(widepass.usable(_word_combinations(_bet_pass(tableau, detail, tuple(bets[j] for j in members))))
               for detail, members in _bet_groups(bets).items()):
        return None
    return widepass.loaded(wide)


def _word_combinations(compiled: _BetPass) -> list[tuple[tuple[int, ...], int, int]]:
    """What :func:`_evaluate_words` asks of a pass (:func:`~exact_odds.batch.widepass.combined`): at
    ``Detail.POINTS`` banker, player and the sequences, else the check that the total is the
    sequences; then each bet's numerator."""
    size = compiled.plan.classes + 1
    unit = [tuple(int(c == i) for c in range(size)) for i in range(size)]
    if compiled.outcomes:
        checks = [(unit[0], 1, widepass.ANY), (unit[1], 1, widepass.ANY), (unit[-1], 1, widepass.ANY)]
    else:
        checks = [(tuple(t - u for t, u in zip(unit[compiled.total], unit[-1], strict=True)), 1, widepass.ZERO)]
    return checks + [(c, d, widepass.ANY) for c, d in zip(compiled.combination, compiled.divisor, strict=True)]


def _evaluate_words(counts: IntArray, sizes: IntArray, bets: tuple[Payable, ...], tableau: Tableau,
                    fast: tuple[ModuleType, ModuleType]) -> Evaluation:
    """:func:`evaluate` whose shoes past int64 stay in 64-bit words until their Python integers
    (:mod:`exact_odds.batch.widepass`); the others are evaluated as usual, then placed among them."""
    n = len(counts)
    sequences, outcomes = np.empty(n, dtype=object), np.empty((n, len(OUTCOMES)), dtype=object, order="F")
    numerators: Array = np.empty((n, len(bets)), dtype=object if bets else np.int64)
    narrow = np.flatnonzero(sizes <= INT64_MAX_CARDS)
    if len(narrow):
        part = evaluate(counts[narrow], bets=bets, tableau=tableau)
        sequences[narrow], outcomes[narrow], numerators[narrow] = part.sequences, part.outcomes, part.numerators
    wide = np.flatnonzero(sizes > INT64_MAX_CARDS)
    every, scales = slice(None), [1] * len(bets)
    for detail, members in _bet_groups(bets).items():
        compiled = _bet_pass(tableau, detail, tuple(bets[j] for j in members))
        found = widepass.combined(compiled.plan, counts, sizes, wide, fast, _word_combinations(compiled))
        if compiled.outcomes:  # the tie in Python integers: two subtractions cost less than making it
            outcomes[wide], sequences[wide] = _outcomes(found[:, :TIE], found[:, TIE]), found[:, TIE]
            _sampled_check(compiled, counts[wide], outcomes[wide])
        numerators[every if len(wide) == n else wide[:, None], members] = found[:, found.shape[1] - len(members):]
        for col, j in enumerate(members):
            scales[j] = compiled.scales[col]
    return Evaluation(counts, sequences, outcomes, bets, numerators, tuple(scales))


def evaluate_shoes(shoes: Sequence[Shoe], *, bets: Iterable[Payable] = (),
                   tableau: Tableau = STANDARD_TABLEAU) -> Evaluation:
    """:func:`evaluate` for :class:`~exact_odds.core.shoe.Shoe` objects (finite; suits used when known)."""
    if any(shoe.infinite for shoe in shoes):
        raise ShoeError("bulk evaluation needs finite shoes")
    bet_list = tuple(bets)
    suits = None
    if any(bet.detail is Detail.SUITS for bet in bet_list):
        unknown = [i for i, shoe in enumerate(shoes) if shoe.suited is None]
        if unknown:
            raise ShoeError(suits_unknown(where=f"shoe {unknown[0] + 1}"))
        suits = [shoe.suited for shoe in shoes]
    return evaluate([shoe.counts for shoe in shoes], bets=bet_list, tableau=tableau, suits=suits)
