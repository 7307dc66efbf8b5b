"""The coefficient tables: arrangements of each multiset of kinds of card that deal each coup.

A *kind* is a point class 0-9 (``Detail.POINTS``) or a rank A-K. The ways of a sequence of six kinds
is a *monomial*, a product over kinds of ``falling(n_k, m_k)`` (``m_k`` occurrences), so ``ways[coup] =
sum_S C[S, coup] * monomial_S`` over multisets ``S`` (5,005 of points, 18,564 of ranks). ``C`` is built
once per rule by playing every sequence (:func:`build_coefficients`); the standard rule's is shipped,
another's cached (:mod:`exact_odds.engine.store`). Kinds are split in groups A and B; a monomial is a
*part* over A times one over B, a part one *digit* per kind (``multiplicity * TYPES + designation``),
its *part code* the digits in base ``DIGITS``, first kind lowest.

Suited pairs are counted through *variants*: a rank in which a hand pairs may carry a designation
restricting that pair to one suit (``G``: ``sum_s falling(n_s, 2)``, ``n_k - 2`` left; ``GG``: both
hands' pairs of the rank suited, ``n_k - 4`` left), named by the bits ``PLAYER_SUITED`` and
``BANKER_SUITED`` of a coup code; the flags follow by Moebius inversion
(:func:`exact_odds.engine.polynomial.suited_ways`). A functional of the pair flags alone is ``(N-4)(N-5)``
times a sum over four kinds (:func:`leading_table`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.core.coup import BANKER_SUITED, COUP_CODES, PLAYER_PAIR, PLAYER_SUITED, Detail, encode
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS
from exact_odds.core.tableau import Tableau, play_many
from exact_odds.engine.store import Arrays, load, typecode_for

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]

# ---------------------------------------------------------------- kinds and parts

Part = tuple[int, ...]
"""One digit per kind of a group: ``multiplicity * TYPES + designation``."""

F, G, GG = range(3)
"""Designations: none; one suited pair (2 cards); two suited pairs of the kind (4 cards)."""
TYPES = 3
DESIGNATION_UNITS = (0, 1, 2)
"""Suited pairs each designation restricts (a coup restricts at most two)."""
DESIGNATION_CARDS = (0, 2, 4)
DIGITS = TYPES * (CARDS_PER_COUP + 1)

INT64_MAX_CARDS = 1448
"""Largest shoe whose sequences int64 holds: ``1448**6 < 2**63 <= 1449**6``."""

RANK_POINTS = tuple(rank.point for rank in RANKS)
_POINTS = np.array(RANK_POINTS, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Space:
    """The kinds of card a detail tells apart (their points), kinds ``[0, split)`` forming group A."""

    detail: Detail
    points: tuple[int, ...]
    split: int

    @property
    def kinds(self) -> int:
        return len(self.points)

    @property
    def suited(self) -> bool:
        return self.detail is Detail.SUITS

    @property
    def types(self) -> int:  # designations a digit can carry
        return TYPES if self.suited else 1


def space_of(detail: Detail) -> Space:
    """Point classes 0-9 split 5 + 5 at ``POINTS``; ranks A-K split 7 + 6 otherwise."""
    if detail is Detail.POINTS:
        return Space(detail, tuple(range(10)), 5)
    return Space(detail, RANK_POINTS, 7)


def parts_of(kinds: int, suited: bool) -> list[Part]:
    """Every part over ``kinds`` kinds (at most six cards, two designated pairs), by part code (built
    from the last kind, the most significant digit, so they come sorted)."""
    options = [(m * TYPES + t, m, DESIGNATION_UNITS[t]) for m in range(CARDS_PER_COUP + 1)
               for t in range(TYPES if suited else 1) if m >= DESIGNATION_CARDS[t]]
    level: list[tuple[Part, int, int]] = [((), 0, 0)]  # (part of the last kinds, cards, designation units)
    for _ in range(kinds):
        level = [((digit, *part), cards + m, units + u) for part, cards, units in level for digit, m, u in options
                 if cards + m <= CARDS_PER_COUP and units + u <= 2]
    return [part for part, _, _ in level]


def part_code(digits: Sequence[int]) -> int:
    return sum(d * DIGITS**i for i, d in enumerate(digits))


def kind_of_rank(detail: Detail) -> IntArray:
    """The kind of each rank A..K."""
    return _POINTS if detail is Detail.POINTS else np.arange(len(RANKS), dtype=np.int64)


def kind_counts(counts: IntArray, detail: Detail) -> IntArray:
    """Counts per kind, shape (kinds, n), of rank counts (n, 13)."""
    if detail is not Detail.POINTS:
        return counts.T
    out = np.zeros((10, counts.shape[0]), dtype=np.int64)
    for i, point in enumerate(RANK_POINTS):
        out[point] += counts[:, i]
    return out


def falling_into(n: Any, shift: int, out: Any) -> None:
    """``out[j] = falling(n - shift, j)`` for ``j = 0 .. len(out) - 1``, in the dtype of ``out``, as numba
    also compiles it (:mod:`exact_odds.batch.loops`). For ``n >= 0`` a negative factor follows a zero one.

    >>> out = np.empty((4, 2), dtype=np.int64)
    >>> falling_into(np.array([52, 2]), 0, out)
    >>> out.tolist()
    [[1, 1], [52, 2], [2652, 2], [132600, 0]]
    """
    out[0] = 1
    for j in range(1, out.shape[0]):
        out[j] = out[j - 1] * (n - (shift + j - 1))


def falling_table(n: Array, shift: int = 0) -> Array:
    """:func:`falling_into` of ``n`` for ``j = 0 .. 6``, shape ``(7,) + n.shape``."""
    out = np.empty((CARDS_PER_COUP + 1, *n.shape), dtype=n.dtype)
    falling_into(n, shift, out)
    return out


def sequences(sizes: IntArray) -> Array:
    """``N (N-1) ... (N-5)`` per shoe of ``sizes`` cards: int64 when every one fits, else Python integers."""
    wide = int(sizes.max(initial=0)) > INT64_MAX_CARDS
    found: Array = falling_table(sizes.astype(object) if wide else sizes)[CARDS_PER_COUP]
    return found


def factor_table(space: Space, kinds: Array, suits: IntArray | None) -> Array:
    """Value of every (kind, multiplicity, designation), rows ``(kind * 7 + m) * types + t``, in the
    dtype of ``kinds`` (kinds, b); ``suits`` (13, 4, b) at ``Detail.SUITS``. A designated pair's factor is
    ``falling(n_k - cards, m - cards)`` times ``sum_s falling(n_s, 2)`` (``G``) or suited pairs' pairs (``GG``)."""
    k, b = kinds.shape
    table = np.zeros((k, CARDS_PER_COUP + 1, space.types, b), dtype=kinds.dtype)
    falling_into(kinds, 0, table[:, :, F].transpose(1, 0, 2))
    if space.suited:
        assert suits is not None
        f2, f4 = falling_table(suits)[[2, 4]]
        suited = f2.sum(axis=1)
        for t, q in ((G, suited), (GG, suited * suited - (f2 * f2).sum(axis=1) + f4.sum(axis=1))):
            cards = DESIGNATION_CARDS[t]
            shifted = table[:, cards:, t].transpose(1, 0, 2)
            falling_into(kinds, cards, shifted)
            shifted *= q.astype(kinds.dtype)
    return table.reshape(-1, b)


# ---------------------------------------------------------------- suited variants


def suited_variants(seq: Array, suited: bool) -> Iterator[tuple[Array, bool, bool, Array]]:
    """The variants of rank sequences ``seq`` (k, n), the plain one alone unless ``suited``: (rows, player
    bit, banker bit, designations). A set bit restricts that hand's pair to one suit, ``rows`` the sequences
    where it pairs; ``designations`` (2, n): ``kind * TYPES + designation`` of each hand's suited pair, or
    -1 (one rank: ``GG``, player's row)."""
    n = seq.shape[1]
    pp = seq[0] == seq[2]
    bp = seq[1] == seq[3]
    same = pp & bp & (seq[0] == seq[1])
    for ps, bs in product((False, True) if suited else (False,), repeat=2):
        rows = (pp | (not ps)) & (bp | (not bs))
        designations = np.full((2, n), -1, dtype=np.int64)
        if ps:
            designations[0] = np.where(pp, seq[0] * TYPES + G, -1)
        if bs:
            designations[1] = np.where(bp, seq[1] * TYPES + G, -1)
        if ps and bs:
            designations[0, same] = seq[0, same] * TYPES + GG
            designations[1, same] = -1
        yield rows, ps, bs, designations


# ---------------------------------------------------------------- the six-card table


@dataclass(frozen=True)
class Coefficients:
    """The sparse table ``C[(part A, part B), coup] = count``: ``a``/``b`` index ``parts_a``/``parts_b``;
    at ``Detail.SUITS`` the suited bits of ``coup`` name the variant."""

    space: Space
    parts_a: tuple[Part, ...]
    parts_b: tuple[Part, ...]
    a: IntArray
    b: IntArray
    coup: IntArray
    count: IntArray


@dataclass(frozen=True)
class _PartIndex:
    """Sorted part codes of each group, each kind's digit weight and whether it is in group A."""

    codes_a: IntArray
    codes_b: IntArray
    weight: IntArray
    in_a: Array

    def pair(self, code_a: IntArray, code_b: IntArray) -> IntArray:
        return np.searchsorted(self.codes_a, code_a) * len(self.codes_b) + np.searchsorted(self.codes_b, code_b)

    def designate(self, code_a: IntArray, code_b: IntArray, designations: IntArray) -> tuple[IntArray, IntArray]:
        """Part codes with designations (rows of ``kind * TYPES + designation``, or -1) added."""
        for d in designations:
            kind, t = np.maximum(d, 0) // TYPES, d % TYPES
            add = np.where(d >= 0, t * self.weight[kind], 0)
            code_a = code_a + np.where(self.in_a[kind], add, 0)
            code_b = code_b + np.where(self.in_a[kind], 0, add)
        return code_a, code_b


def _coup_codes(tableau: Tableau, space: Space, seq: IntArray) -> IntArray:
    """The code of the coup each sequence of kinds (6, n) deals, suited bits clear."""
    points = np.array(space.points, dtype=np.int16)
    play = play_many(tableau, points[seq])
    drew = (play.player_cards == 3, play.banker_cards == 3)
    if space.detail is Detail.POINTS:
        return np.asarray(encode(play.player, play.banker, *drew), dtype=np.int64)
    pp, bp = seq[0] == seq[2], seq[1] == seq[3]
    twin = pp & bp & (seq[0] == seq[1])
    return np.asarray(encode(play.player, play.banker, *drew, pp, bp, twin_pair=twin), dtype=np.int64)


def _tally(tableau: Tableau, space: Space, index: _PartIndex, first: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Distinct keys ``pair * COUP_CODES + coup`` and their arrangements, for the sequences from ``first``."""
    rest = np.indices((space.kinds,) * (CARDS_PER_COUP - 1), dtype=np.int64).reshape(CARDS_PER_COUP - 1, -1)
    seq = np.concatenate([np.full((1, rest.shape[1]), first, dtype=np.int64), rest], axis=0)
    base = _coup_codes(tableau, space, seq)
    card_weight = TYPES * index.weight[seq]
    in_a = index.in_a[seq]
    code_a = np.where(in_a, card_weight, 0).sum(axis=0)
    code_b = np.where(in_a, 0, card_weight).sum(axis=0)
    for rows, ps, bs, designations in suited_variants(seq, space.suited):
        ca, cb = index.designate(code_a[rows], code_b[rows], designations[:, rows])
        coup = base[rows] + PLAYER_SUITED * ps + BANKER_SUITED * bs
        uniq, cnt = np.unique(index.pair(ca, cb) * COUP_CODES + coup, return_counts=True)
        yield uniq, cnt.astype(np.int64)


def _parts(space: Space) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    return tuple(parts_of(space.split, space.suited)), tuple(parts_of(space.kinds - space.split, space.suited))


@lru_cache(maxsize=8)
def coefficients(tableau: Tableau, detail: Detail) -> Coefficients:
    """The table of ``tableau`` at ``detail``: shipped, cached on disk, or built once."""
    arrays = load(f"batch-{detail.name.lower()}", tableau, lambda rule: to_arrays(build_coefficients(rule, detail)))
    a, b, coup, count = (np.frombuffer(arrays[n], dtype=arrays[n].typecode).astype(np.int64)
                         for n in ("a", "b", "coup", "count"))
    return Coefficients(space_of(detail), *_parts(space_of(detail)), a, b, coup, count)


def to_arrays(co: Coefficients) -> Arrays:
    """The table's arrays as stored, each in its narrowest type."""
    out: Arrays = {}
    for name, values in (("a", co.a), ("b", co.b), ("coup", co.coup), ("count", co.count)):
        code = typecode_for(int(values.max(initial=0)))
        out[name] = array(code, values.astype(np.dtype(code)).tobytes())
    return out


def build_coefficients(tableau: Tableau, detail: Detail, case_of_kind: tuple[int, ...] | None = None) -> Coefficients:
    """Play every sequence of six kinds and tabulate arrangements per (part A, part B, coup); with
    ``case_of_kind`` (a case per kind) the first card's case is kept apart (``case * COUP_CODES + code``)."""
    space = space_of(detail)
    parts_a, parts_b = _parts(space)
    index = _PartIndex(
        np.array([part_code(p) for p in parts_a], dtype=np.int64),
        np.array([part_code(p) for p in parts_b], dtype=np.int64),
        np.array([DIGITS ** (i if i < space.split else i - space.split) for i in range(space.kinds)], dtype=np.int64),
        np.arange(space.kinds) < space.split,
    )
    cases = 1 if case_of_kind is None else max(case_of_kind) + 1
    keys: list[IntArray] = []
    counts: list[IntArray] = []
    for first in range(space.kinds):
        case = 0 if case_of_kind is None else case_of_kind[first]
        for uniq, cnt in _tally(tableau, space, index, first):
            pair, coup = uniq // COUP_CODES, uniq % COUP_CODES
            keys.append((pair * cases + case) * COUP_CODES + coup)
            counts.append(cnt)
    uniq, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    total = np.bincount(inverse, weights=np.concatenate(counts)).astype(np.int64)
    pair, coup = uniq // (cases * COUP_CODES), uniq % (cases * COUP_CODES)
    return Coefficients(space, parts_a, parts_b, pair // len(parts_b), pair % len(parts_b), coup, total)


# ---------------------------------------------------------------- terms by monomial


@dataclass(frozen=True)
class _Monomials:
    """A table's terms sorted by monomial (``starts``: the first of each), their digits, the distinct codes."""

    table: Coefficients
    starts: IntArray
    count: IntArray
    coup: IntArray
    digits: IntArray
    codes: IntArray


_MONOMIALS: dict[int, _Monomials] = {}


def _monomials(co: Coefficients) -> _Monomials:
    if id(co) not in _MONOMIALS:
        a, b, count, coup = co.a, co.b, co.count, co.coup  # the shipped tables come sorted by monomial
        mono = a * len(co.parts_b) + b
        if not (mono[1:] >= mono[:-1]).all():
            order = np.argsort(mono, kind="stable")
            a, b, count, coup, mono = a[order], b[order], count[order], coup[order], mono[order]
        starts = np.flatnonzero(np.r_[True, mono[1:] != mono[:-1]])
        digits = np.concatenate([np.array(co.parts_a, dtype=np.int64).reshape(len(co.parts_a), -1)[a[starts]],
                                 np.array(co.parts_b, dtype=np.int64).reshape(len(co.parts_b), -1)[b[starts]]],
                                axis=1)
        _MONOMIALS[id(co)] = _Monomials(co, starts, count, coup, digits, np.flatnonzero(np.bincount(co.coup)))
    return _MONOMIALS[id(co)]


def table_codes(co: Coefficients) -> IntArray:  # sorted
    return _monomials(co).codes


_CHUNK = 1 << 21
"""The most products :func:`monomial_sums` holds at once (16 MiB of int64), however many functionals."""


def monomial_sums(co: Coefficients, weights: IntArray) -> tuple[IntArray, IntArray]:
    """Digits of every monomial of the table and its summed weights per functional (``weights[code, f]``)."""
    m = _monomials(co)
    by_class = _class_sums(m, weights)
    if by_class is not None:
        return m.digits, by_class
    step = max(1, _CHUNK // max(len(m.coup), 1))  # columns at a time
    parts = [np.add.reduceat(m.count[:, None] * weights[m.coup, f:f + step], m.starts, axis=0)
             for f in range(0, max(weights.shape[1], 1), step)]
    return m.digits, np.concatenate(parts, axis=1) if len(parts) != 1 else parts[0]


def _class_sums(m: _Monomials, weights: IntArray) -> IntArray | None:
    """:func:`monomial_sums` through classes of codes of equal weights: each monomial's count per class
    (in floats: None unless below ``2**53`` and ``_CHUNK`` cells) times the classes' weights."""
    if not weights.shape[1] or int(m.count.sum()) >= 2**53:
        return None
    rows, inverse = np.unique(weights[m.codes], axis=0, return_inverse=True)
    cells = len(m.starts) * len(rows)
    if cells > _CHUNK:
        return None
    class_of = np.zeros(len(weights), dtype=np.int64)
    class_of[m.codes] = inverse.ravel()
    monomial = np.repeat(np.arange(len(m.starts)) * len(rows), np.diff(np.r_[m.starts, len(m.coup)]))
    counts = np.bincount(monomial + class_of[m.coup], weights=m.count, minlength=cells)
    return np.asarray(counts.astype(np.int64).reshape(len(m.starts), len(rows)) @ rows, dtype=np.int64)


def monomial_terms(co: Coefficients, weights: IntArray) -> tuple[IntArray, IntArray]:
    """:func:`monomial_sums` with the monomials of no weight left out."""
    digits, summed = monomial_sums(co, weights)
    keep = summed.any(axis=1)
    return digits[keep], summed[keep]


# ---------------------------------------------------------------- the four-card tables

LEADING_CARDS = 4
"""Cards dealt before either hand may draw."""
FLAG_STATES = COUP_CODES // PLAYER_PAIR
"""Values of ``code // PLAYER_PAIR``: the pair flags of a coup (32)."""


@lru_cache(maxsize=4)
def leading_table(detail: Detail) -> tuple[IntArray, IntArray, IntArray]:
    """Arrangements of each four-card multiset per flag state: ``(digits, flags, count)``, digits as in
    parts, flags ``code // PLAYER_PAIR`` (0 at ``POINTS``)."""
    space = space_of(detail)
    k = space.kinds
    seq = np.indices((k,) * LEADING_CARDS, dtype=np.int64).reshape(LEADING_CARDS, -1)
    n = seq.shape[1]
    multiplicity = np.zeros((n, k), dtype=np.int64)
    for row in seq:
        multiplicity[np.arange(n), row] += 1
    pp, bp = seq[0] == seq[2], seq[1] == seq[3]
    flags = (pp + 2 * bp + 16 * (pp & bp & (seq[0] == seq[1]))).astype(np.int64)
    if detail is Detail.POINTS:
        flags[:] = 0
    keys: list[IntArray] = []
    for rows, ps, bs, designations in suited_variants(seq, space.suited):
        digits = multiplicity[rows] * TYPES
        for d in designations[:, rows]:
            on = d >= 0
            digits[np.flatnonzero(on), d[on] // TYPES] += d[on] % TYPES
        code = digits @ (DIGITS ** np.arange(k, dtype=np.int64))
        keys.append(code * FLAG_STATES + flags[rows] + 4 * ps + 8 * bs)
    uniq, count = np.unique(np.concatenate(keys), return_counts=True)
    code, state = uniq // FLAG_STATES, uniq % FLAG_STATES
    digits = code[:, None] // DIGITS ** np.arange(k, dtype=np.int64) % DIGITS
    return digits, state, count.astype(np.int64)


def leading_weights(codes: IntArray, weights: IntArray) -> IntArray | None:
    """The weight of each flag state if ``weights[codes]`` depends on the flags alone, else None."""
    if len(codes) == 0 or int(codes.max()) >= COUP_CODES:
        return None
    state = codes // PLAYER_PAIR
    w = weights[codes]
    out = np.full(FLAG_STATES, -1, dtype=np.int64)
    out[state] = w
    if (out[state] != w).any():
        return None
    return out
