"""Bulk exact evaluation: the coup counts and bet expectations of many compositions at once.

The integers are identical to those of the reference enumerator :func:`exact_odds.engine.deal`
(ordered six-card sequences, unused cards included); only the arithmetic is organised for
speed.

How. A coup is decided by six cards in dealing order. Give each card a *kind* (its point
class 0-9 for the main bets; its rank A-K when pairs matter). The number of ways to deal a
given sequence of kinds is a product over kinds of falling factorials
``n_k (n_k - 1) ... (n_k - m_k + 1)`` where ``m_k`` is how often kind ``k`` occurs in the
sequence, so it depends only on the multiset of kinds: a *monomial*. Every outcome count
is therefore a fixed non-negative integer combination of monomials,
``ways[outcome] = sum_S C[S, outcome] * monomial_S(composition)``, where ``C[S, outcome]``
counts the arrangements of the multiset ``S`` that produce the outcome (5,005 multisets of
six point classes; 18,564 of six ranks). ``C`` is computed once per rule table by playing
every sequence of kinds (vectorised), and cached.

Suited pairs. A pair of the same rank *and* suit in a hand's first two cards (positions 1
and 3, or 2 and 4) cannot be told apart by rank counts. For those bets, besides the plain
rank monomials, a rank in which a hand pairs may carry a *designation* restricting that
pair to be suited: ``G`` (``sum_s n_s (n_s - 1)`` ordered suited pairs, the other cards of
the rank taking any of the ``n_k - 2`` left) or, when both hands pair in one rank and both
pairs are restricted, ``GG`` (ordered pairs of suited pairs; ``n_k - 4`` left). These
*variants* (no restriction, the player's pair suited, the banker's, both) are each
non-negative sums; the ways of each suited combination follow exactly by inclusion-exclusion
(both suited ``X11``; the player's only ``X10 - X11``; ...), applied to integers after the
sums, and a bet's payouts enter as the matching signed combinations.

Speed. Kinds are split in two groups ``A`` and ``B``; a monomial is a product of a part
over ``A`` and a part over ``B`` (462 parts each for point classes). For each pair of part
blocks ``ways += FA[:, a] . (FB[:, b] @ C[b, a, outcome])``: one BLAS matrix product and a
small reduction per block, after building the parts' values with one multiplication each.

Exactness. Every quantity in the evaluation is a non-negative integer count of (constrained)
card sequences of at most six cards, bounded by ``N**6`` for an ``N``-card shoe, and so is
every partial sum (subtractions happen only afterwards, on exact integers). Hence

- ``float64`` (BLAS) is exact while ``N**6 <= 2**53``, i.e. up to 456 cards (8 decks: 416);
- ``int64`` is exact while ``N**6 < 2**63``, i.e. up to 1,448 cards;
- larger shoes use Python integers (numpy object arrays) automatically.

Each composition's ways are checked to add up to ``N (N-1) ... (N-5)``.

>>> ev = evaluate([[32] * 13])
>>> ev.outcomes[0].tolist(), ev.sequences.tolist()[0]
([2292252566437888, 2230518282592256, 475627426473216], 4998398275503360)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from exact_odds.dist import Dist
from exact_odds.engine import Coup, Detail
from exact_odds.errors import InputError
from exact_odds.shoe import CARDS_PER_COUP, RANK_LABELS, Shoe, ShoeError, falling
from exact_odds.tableau import STANDARD_TABLEAU, Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]

FLOAT_MAX_CARDS = 456
"""Largest shoe evaluated in float64: 456**6 <= 2**53 < 457**6."""
INT64_MAX_CARDS = 1448
"""Largest shoe evaluated in int64: 1448**6 < 2**63 <= 1449**6."""
CHUNK = 256
"""Compositions per block of work (keeps the intermediate matrices in cache)."""

OUTCOMES = ("banker", "player", "tie")
_WINNER_INDEX = {name: i for i, name in enumerate(OUTCOMES)}

# ---------------------------------------------------------------- kinds and parts

# Designations of a kind within a monomial (see the module docstring).
_F, _G, _GG = range(3)
_TYPES = 3
_DESIGNATION_UNITS = (0, 1, 2)
_DESIGNATION_CARDS = (0, 2, 4)
_DIGITS = _TYPES * (CARDS_PER_COUP + 1)
"""A kind's digit in a part code is ``multiplicity * 3 + designation`` (< 21)."""

_RANK_POINTS = tuple(r if r < 10 else 0 for r in range(1, 14))


@dataclass(frozen=True)
class _Space:
    """The kinds of card a detail level distinguishes and how they are split in two groups."""

    detail: Detail
    points: tuple[int, ...]  # point value of each kind
    split: int  # kinds [0, split) form group A, the rest group B

    @property
    def kinds(self) -> int:
        return len(self.points)

    @property
    def suited(self) -> bool:
        return self.detail is Detail.SUITS


def _space(detail: Detail) -> _Space:
    if detail is Detail.POINTS:
        return _Space(detail, tuple(range(10)), 5)
    return _Space(detail, _RANK_POINTS, 7)


def _parts(kinds: int, suited: bool) -> list[tuple[int, ...]]:
    """Every possible part over ``kinds`` kinds: one digit per kind, at most six cards.

    Designations need enough cards of their kind (2 or 4), and a coup designates at most
    two pairs.
    """
    options = [(m, t) for m in range(CARDS_PER_COUP + 1) for t in range(_TYPES if suited else 1)
               if m >= _DESIGNATION_CARDS[t]]
    out: list[tuple[int, ...]] = []

    def walk(prefix: tuple[int, ...], cards: int, units: int) -> None:
        if len(prefix) == kinds:
            out.append(prefix)
            return
        for m, t in options:
            if cards + m <= CARDS_PER_COUP and units + _DESIGNATION_UNITS[t] <= 2:
                walk((*prefix, m * _TYPES + t), cards + m, units + _DESIGNATION_UNITS[t])

    walk((), 0, 0)
    return out


def _part_code(digits: Sequence[int]) -> int:
    return sum(d * _DIGITS**i for i, d in enumerate(digits))


# ---------------------------------------------------------------- playing sequences


def play_points(cards: Array, tableau: Tableau = STANDARD_TABLEAU) -> tuple[Array, Array, Array, Array]:
    """Play coups from point values in dealing order, vectorised.

    ``cards`` has shape ``(n, 6)``: point values 0-9 of the six cards P, B, P, B, then the
    draws (unused trailing cards are ignored). Returns the player total, banker total,
    player cards and banker cards, each of shape ``(n,)``.
    """
    naturals = np.zeros(10, dtype=bool)
    naturals[list(tableau.naturals)] = True
    player_draws = np.array(tableau.player_draws, dtype=bool)
    banker_draws = np.array(tableau.banker_draws, dtype=bool)
    c = np.asarray(cards, dtype=np.int64)
    pt = (c[:, 0] + c[:, 2]) % 10
    bt = (c[:, 1] + c[:, 3]) % 10
    natural = naturals[pt] | naturals[bt]
    p_draws = ~natural & player_draws[pt]
    b_draws = ~natural & banker_draws[bt, np.where(p_draws, 1 + c[:, 4], 0)]
    banker_card = np.where(p_draws, c[:, 5], c[:, 4])
    player = np.where(p_draws, (pt + c[:, 4]) % 10, pt)
    banker = np.where(b_draws, (bt + banker_card) % 10, bt)
    return player, banker, 2 + p_draws.astype(np.int64), 2 + b_draws.astype(np.int64)


COUP_CODES = 12_800
"""Number of coup codes: 100 pairs of totals x 4 card counts x 32 combinations of flags."""
_PLAYER_SUITED, _BANKER_SUITED = 1600, 3200
"""Coup-code bits of the suited flags; in the suited coefficients they mark the variants."""


def coup_code(coup: Coup) -> int:
    """A coup as an integer below ``COUP_CODES`` (totals, cards, pair, suited and twin flags)."""
    return (coup.player + 10 * coup.banker + 100 * (coup.player_cards - 2) + 200 * (coup.banker_cards - 2)
            + 400 * coup.player_pair + 800 * coup.banker_pair + 1600 * coup.player_suited
            + 3200 * coup.banker_suited + 6400 * coup.twin_pair)


def coup_of_code(code: int) -> Coup:
    """The coup of :func:`coup_code`."""
    flags = [bool(code // (400 << i) % 2) for i in range(5)]  # pairs, suited, twin: 400, 800, ..., 6400
    return Coup(code % 10, code // 10 % 10, 2 + code // 100 % 2, 2 + code // 200 % 2, *flags)


@dataclass(frozen=True)
class _Coefficients:
    """The sparse coefficient table ``C[(part A, part B), coup] = arrangements``.

    At ``Detail.SUITS`` the suited bits of the coup codes mark the variants of
    :func:`_suited_variants`, not the suited flags themselves.
    """

    space: _Space
    parts_a: tuple[tuple[int, ...], ...]
    parts_b: tuple[tuple[int, ...], ...]
    a: IntArray  # index into parts_a
    b: IntArray  # index into parts_b
    coup: IntArray  # coup code
    count: IntArray  # number of arrangements


def _sequences_from(space: _Space, first: int) -> Array:
    """Every sequence of six kinds whose first kind is ``first``, shape (K**5, 6)."""
    k = space.kinds
    rest = np.indices((k,) * (CARDS_PER_COUP - 1), dtype=np.int64).reshape(CARDS_PER_COUP - 1, -1).T
    return np.concatenate([np.full((rest.shape[0], 1), first, dtype=np.int64), rest], axis=1)


def _suited_variants(seq: Array) -> Iterator[tuple[Array, bool, bool, Array]]:
    """The inclusion-exclusion variants of rank sequences, for suited pairs.

    Yields (rows, player bit, banker bit, designations). The variant with both bits clear
    counts every dealing of the sequence; a set bit restricts that hand's pair to be suited
    (so a bit needs a pair: ``rows`` selects the sequences it applies to). ``designations``
    (shape (n, 2)) holds ``kind * 3 + designation`` for the player's and the banker's
    suited pair, or -1; when both hands pair in one rank and both bits are set, that rank
    carries the joint designation ``GG``. The ways of each suited combination follow by
    inclusion-exclusion (see :func:`_suited_coefficients`).
    """
    n = seq.shape[0]
    pp = seq[:, 0] == seq[:, 2]
    bp = seq[:, 1] == seq[:, 3]
    same = pp & bp & (seq[:, 0] == seq[:, 1])
    for ps, bs in product((False, True), repeat=2):
        rows = (pp | (not ps)) & (bp | (not bs))
        designations = np.full((n, 2), -1, dtype=np.int64)
        if ps:
            designations[:, 0] = np.where(pp, seq[:, 0] * _TYPES + _G, -1)
        if bs:
            designations[:, 1] = np.where(bp, seq[:, 1] * _TYPES + _G, -1)
        if ps and bs:
            designations[same, 0] = seq[same, 0] * _TYPES + _GG
            designations[same, 1] = -1
        yield rows, ps, bs, designations


@lru_cache(maxsize=8)
def _coefficients(tableau: Tableau, detail: Detail) -> _Coefficients:
    """Play every sequence of six kinds and tabulate arrangements per (part A, part B, coup)."""
    space = _space(detail)
    k = space.kinds
    parts_a = _parts(space.split, space.suited)
    parts_b = _parts(k - space.split, space.suited)
    codes_a = np.array(sorted(_part_code(p) for p in parts_a), dtype=np.int64)
    codes_b = np.array(sorted(_part_code(p) for p in parts_b), dtype=np.int64)
    by_code_a = {_part_code(p): p for p in parts_a}
    by_code_b = {_part_code(p): p for p in parts_b}
    weight = np.array([_DIGITS ** (i if i < space.split else i - space.split) for i in range(k)], dtype=np.int64)
    in_a = np.arange(k) < space.split
    points = np.array(space.points, dtype=np.int64)
    keys: list[IntArray] = []
    counts: list[IntArray] = []
    for first in range(k):
        seq = _sequences_from(space, first)
        player, banker, pc, bc = play_points(points[seq], tableau)
        base = player + 10 * banker + 100 * (pc - 2) + 200 * (bc - 2)
        if detail is not Detail.POINTS:
            pp, bp = seq[:, 0] == seq[:, 2], seq[:, 1] == seq[:, 3]
            base += 400 * pp + 800 * bp + 6400 * (pp & bp & (seq[:, 0] == seq[:, 1]))
        card_weight = _TYPES * weight[seq]
        code_a = np.where(in_a[seq], card_weight, 0).sum(axis=1)
        code_b = np.where(in_a[seq], 0, card_weight).sum(axis=1)
        everything = np.ones(len(seq), dtype=bool)
        variants = _suited_variants(seq) if space.suited else iter([(everything, False, False, None)])
        for rows, ps, bs, designations in variants:
            ca, cb = code_a[rows], code_b[rows]
            if designations is not None:
                for d in designations[rows].T:
                    kind, t = np.maximum(d, 0) // _TYPES, d % _TYPES
                    add = np.where(d >= 0, t * weight[kind], 0)
                    ca = ca + np.where(in_a[kind], add, 0)
                    cb = cb + np.where(in_a[kind], 0, add)
            coup = base[rows] + _PLAYER_SUITED * ps + _BANKER_SUITED * bs
            key = (np.searchsorted(codes_a, ca) * len(codes_b) + np.searchsorted(codes_b, cb)) * COUP_CODES + coup
            uniq, cnt = np.unique(key, return_counts=True)
            keys.append(uniq)
            counts.append(cnt.astype(np.int64))
    uniq, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    total = np.bincount(inverse, weights=np.concatenate(counts)).astype(np.int64)
    return _Coefficients(
        space,
        tuple(by_code_a[int(c)] for c in codes_a),
        tuple(by_code_b[int(c)] for c in codes_b),
        uniq // COUP_CODES // len(codes_b), uniq // COUP_CODES % len(codes_b), uniq % COUP_CODES, total,
    )


# ---------------------------------------------------------------- compiled evaluation


def _block_key(part: tuple[int, ...]) -> tuple[int, int]:
    """(cards, designated pairs) of a part: parts pair with parts of complementary size."""
    return sum(d // _TYPES for d in part), sum(_DESIGNATION_UNITS[d % _TYPES] for d in part)


@dataclass(frozen=True)
class _Group:
    """How to compute the values of a group's parts, one multiplication per part.

    Rows of the value matrix (parts x compositions) are ordered by :func:`_block_key`; row
    0 is the empty part (value 1). Row ``i > 0`` is ``values[parent[i]] * factors[factor[i]]``
    where the parent is the part less its last kind, so it has fewer cards and comes in an
    earlier ``level`` (a slice of rows of equal card count).
    """

    parent: IntArray
    factor: IntArray  # row of the factor table: (kind * 7 + multiplicity) * types + designation
    levels: tuple[tuple[int, int], ...]
    blocks: dict[tuple[int, int], tuple[int, int]]  # block key -> slice of rows
    row: dict[tuple[int, ...], int]  # part -> row


def _group(first_kind: int, parts: Sequence[tuple[int, ...]], types: int) -> _Group:
    """The evaluation plan of ``parts`` and of every part they are built from."""
    need: set[tuple[int, ...]] = set()
    for part in parts:
        p = part
        while any(p) and p not in need:
            need.add(p)
            last = max(i for i, d in enumerate(p) if d)
            p = (*p[:last], 0, *p[last + 1:])
    empty = (0,) * len(parts[0]) if parts else ()
    order = [empty, *sorted(need, key=lambda p: (*_block_key(p), p))]
    row = {p: i for i, p in enumerate(order)}
    parent = [0]
    factor = [0]
    for p in order[1:]:
        last = max(i for i, d in enumerate(p) if d)
        parent.append(row[(*p[:last], 0, *p[last + 1:])])
        m, t = divmod(p[last], _TYPES)
        factor.append(((first_kind + last) * (CARDS_PER_COUP + 1) + m) * types + t)
    blocks: dict[tuple[int, int], tuple[int, int]] = {}
    levels: dict[int, tuple[int, int]] = {}
    for i, p in enumerate(order):
        key = _block_key(p)
        start, _ = blocks.get(key, (i, i))
        blocks[key] = (start, i + 1)
        if i:
            start, _ = levels.get(key[0], (i, i))
            levels[key[0]] = (start, i + 1)
    return _Group(np.array(parent), np.array(factor), tuple(levels.values()), blocks, row)


@dataclass(frozen=True)
class _Block:
    """One dense block of coefficients.

    ``ways[c] += sum_r values_r[r] * (matrix @ values_m[m_rows])[r, c]``: ``matrix`` has
    shape ``(len(r_rows) * classes, len(m_rows))``; ``m_group``/``r_group`` are 0 for group
    A and 1 for group B; the rows are slices of the groups' value matrices.
    """

    m_group: int
    m_rows: tuple[int, int]
    r_group: int
    r_rows: tuple[int, int]
    matrix: IntArray
    matrix_float: Array


@dataclass(frozen=True)
class _Plan:
    """Everything needed to evaluate the ways of each outcome class for many compositions."""

    space: _Space
    classes: int
    groups: tuple[_Group, _Group]
    blocks: tuple[_Block, ...]


def _plan(coefficients: _Coefficients, class_of: IntArray, classes: int) -> _Plan:
    """Collapse coups to classes and lay the coefficients out in dense blocks."""
    co = coefficients
    space = co.space
    cls = class_of[co.coup]
    key = (co.a * len(co.parts_b) + co.b) * classes + cls
    uniq, inverse = np.unique(key, return_inverse=True)
    count = np.bincount(inverse, weights=co.count).astype(np.int64)
    c = uniq % classes
    ib = uniq // classes % len(co.parts_b)
    ia = uniq // classes // len(co.parts_b)
    types = _TYPES if space.suited else 1
    ga = _group(0, [co.parts_a[i] for i in sorted(set(ia.tolist()))], types)
    gb = _group(space.split, [co.parts_b[i] for i in sorted(set(ib.tolist()))], types)
    row_a = np.array([ga.row.get(p, -1) for p in co.parts_a])[ia]
    row_b = np.array([gb.row.get(p, -1) for p in co.parts_b])[ib]
    blocks: list[_Block] = []
    for ka, (a0, a1) in ga.blocks.items():
        for kb, (b0, b1) in gb.blocks.items():
            sel = (row_a >= a0) & (row_a < a1) & (row_b >= b0) & (row_b < b1)
            if not sel.any() or ka[0] + kb[0] != CARDS_PER_COUP:
                continue
            if a1 - a0 <= b1 - b0:  # reduce over the smaller side
                dense = np.zeros((a1 - a0, classes, b1 - b0), dtype=np.int64)
                np.add.at(dense, (row_a[sel] - a0, c[sel], row_b[sel] - b0), count[sel])
                matrix = dense.reshape(-1, b1 - b0)
                blocks.append(_Block(1, (b0, b1), 0, (a0, a1), matrix, matrix.astype(np.float64)))
            else:
                dense = np.zeros((b1 - b0, classes, a1 - a0), dtype=np.int64)
                np.add.at(dense, (row_b[sel] - b0, c[sel], row_a[sel] - a0), count[sel])
                matrix = dense.reshape(-1, a1 - a0)
                blocks.append(_Block(0, (a0, a1), 1, (b0, b1), matrix, matrix.astype(np.float64)))
    if int(sum(b.matrix.sum() for b in blocks)) != int(co.count.sum()):
        raise AssertionError("coefficients lost while laying out blocks")
    return _Plan(space, classes, (ga, gb), tuple(blocks))


def _falling_rows(n: Array, shift: int) -> Array:
    """``falling(n - shift, j)`` for j = 0..6, shape ``(7,) + n.shape``."""
    out = np.empty((CARDS_PER_COUP + 1, *n.shape), dtype=n.dtype)
    out[0] = 1
    for j in range(1, CARDS_PER_COUP + 1):
        np.multiply(out[j - 1], n - (shift + j - 1), out=out[j])
    return out


def _suit_factors(suits: Array) -> tuple[Array, Array]:
    """Per rank: ordered suited pairs, and ordered pairs of suited pairs.

    ``suits`` has shape (13, 4, b). The first counts ordered pairs of distinct cards of one
    suit, ``sum_s n_s (n_s - 1)``; the second ordered 4-tuples of distinct cards with cards
    1, 3 of one suit and cards 2, 4 of one suit. Results have shape (13, b).
    """
    f2 = suits * (suits - 1)
    f4 = f2 * (suits - 2) * (suits - 3)
    suited = f2.sum(axis=1)
    return suited, suited * suited - (f2 * f2).sum(axis=1) + f4.sum(axis=1)


def _factor_table(space: _Space, kinds: Array, suits: Array | None) -> Array:
    """Value of every (kind, multiplicity, designation), rows of shape (kinds*7*types, b)."""
    k, b = kinds.shape
    if not space.suited:
        return _falling_rows(kinds, 0).transpose(1, 0, 2).reshape(-1, b)
    assert suits is not None
    table = np.zeros((k, CARDS_PER_COUP + 1, _TYPES, b), dtype=kinds.dtype)
    table[:, :, _F] = _falling_rows(kinds, 0).transpose(1, 0, 2)
    for t, q in zip((_G, _GG), _suit_factors(suits), strict=True):
        cards = _DESIGNATION_CARDS[t]
        shifted = _falling_rows(kinds, cards).transpose(1, 0, 2)
        table[:, cards:, t] = q[:, None, :] * shifted[:, : CARDS_PER_COUP + 1 - cards]
    return table.reshape(-1, b)


def _group_values(group: _Group, factors: Array) -> Array:
    values = np.empty((len(group.parent), factors.shape[1]), dtype=factors.dtype)
    values[0] = 1
    for start, stop in group.levels:
        np.multiply(values[group.parent[start:stop]], factors[group.factor[start:stop]], out=values[start:stop])
    return values


def _matrix(block: _Block, dtype: np.dtype[Any]) -> Array:
    if dtype == np.float64:
        return block.matrix_float
    return block.matrix if dtype == np.int64 else block.matrix.astype(dtype)


def _run(plan: _Plan, kinds: Array, suits: Array | None) -> Array:
    """Ways of each class (rows) for each composition (columns of ``kinds``), in its dtype."""
    factors = _factor_table(plan.space, kinds, suits)
    values = (_group_values(plan.groups[0], factors), _group_values(plan.groups[1], factors))
    b = kinds.shape[1]
    out = np.zeros((plan.classes, b), dtype=kinds.dtype)
    for block in plan.blocks:
        m = values[block.m_group][block.m_rows[0]:block.m_rows[1]]
        r = values[block.r_group][block.r_rows[0]:block.r_rows[1]]
        partial = (_matrix(block, kinds.dtype) @ m).reshape(len(r), plan.classes, b)
        out += np.einsum("rb,rcb->cb", r, partial) if kinds.dtype != object else (r[:, None, :] * partial).sum(axis=0)
    return out


# ---------------------------------------------------------------- bets


class Payable(Protocol):
    """What bulk evaluation needs of a bet: a name, the detail it looks at, exact payouts."""

    @property
    def name(self) -> str: ...

    @property
    def detail(self) -> Detail: ...

    def payout(self, coup: Coup, /) -> Fraction: ...


def _possible_codes(detail: Detail) -> list[int]:
    """Coup codes whose flags can be recorded at ``detail`` (see :func:`coup_code`)."""
    flags = [0]
    if detail is not Detail.POINTS:
        flags = [p + b + t for p in (0, 400) for b in (0, 800) for t in (0, 6400)]
    if detail is Detail.SUITS:
        flags = [f + s for f in flags for s in (0, 1600, 3200, 4800)]
    return [base + f for base in range(400) for f in flags]


@dataclass(frozen=True)
class TabulatedBet:
    """A bet as a table of exact payouts by coup: hashable and picklable, for worker processes.

    Built by :func:`tabulate`; pays exactly what the original bet pays on every coup that
    can be dealt at its detail.
    """

    name: str
    detail: Detail
    table: tuple[Fraction, ...]  # payout by coup code (codes not recordable at ``detail`` pay 0)

    def payout(self, coup: Coup, /) -> Fraction:
        """Net result of one unit staked on ``coup``."""
        return self.table[coup_code(coup)]


def tabulate(bet: Payable) -> TabulatedBet:
    """The payouts of ``bet`` on every coup its detail can record, as a :class:`TabulatedBet`."""
    table = [Fraction(0)] * COUP_CODES
    for code in _possible_codes(bet.detail):
        table[code] = bet.payout(coup_of_code(code))
    return TabulatedBet(bet.name, bet.detail, tuple(table))


# ---------------------------------------------------------------- classes of outcomes


def _variant(code: int) -> tuple[int, int, int]:
    """(code with the suited bits cleared, player bit, banker bit)."""
    x, y = code // _PLAYER_SUITED % 2, code // _BANKER_SUITED % 2
    return code - _PLAYER_SUITED * x - _BANKER_SUITED * y, x, y


def _suited_coefficients(code: int, value: Callable[[Coup], Fraction]) -> Fraction:
    """What a variant of the suited coefficients contributes per way (inclusion-exclusion).

    With ``X_xy`` the ways of the variant with bits x, y and ``v_ab`` the value of the coup
    with suited flags a, b: the ways with flags exactly (a, b) are the Moebius inversion of
    the ``X``, so ``sum_ab ways_ab v_ab = sum_xy X_xy c_xy`` with
    ``c_xy = sum over a <= x, b <= y of (-1)^(x-a + y-b) v_ab``.
    """
    base, x, y = _variant(code)
    total = Fraction(0)
    for a in range(x + 1):
        for b in range(y + 1):
            sign = -1 if (x - a + y - b) % 2 else 1
            total += sign * value(coup_of_code(base + _PLAYER_SUITED * a + _BANKER_SUITED * b))
    return total


def _compile(tableau: Tableau, detail: Detail, key_of: Callable[[int], Hashable]) -> tuple[_Plan, list[Hashable]]:
    """Group the coup codes of the coefficients into classes by ``key_of(code)``; compile a plan.

    Returns the plan and the key of each class.
    """
    co = _coefficients(tableau, detail)
    keys: dict[Hashable, int] = {}
    class_of = np.zeros(COUP_CODES, dtype=np.int64)
    for code in np.unique(co.coup).tolist():
        class_of[code] = keys.setdefault(key_of(code), len(keys))
    return _plan(co, class_of, len(keys)), list(keys)


@dataclass(frozen=True)
class _Sparse:
    """The coefficients as a list of terms, sorted by coup code, for whole coup distributions.

    ``ways[code] = sum over terms t of count[t] * A[row_a[t]] * B[row_b[t]]``; ``starts`` are
    the first term of each code in ``codes``. At ``Detail.SUITS`` the codes are variants
    (see :func:`_suited_variants`), turned into coups by inclusion-exclusion.
    """

    space: _Space
    groups: tuple[_Group, _Group]
    row_a: IntArray
    row_b: IntArray
    count: IntArray
    starts: IntArray
    codes: tuple[int, ...]


@lru_cache(maxsize=4)
def _sparse(tableau: Tableau, detail: Detail) -> _Sparse:
    co = _coefficients(tableau, detail)
    types = _TYPES if co.space.suited else 1
    ga = _group(0, co.parts_a, types)
    gb = _group(co.space.split, co.parts_b, types)
    order = np.argsort(co.coup, kind="stable")
    coup = co.coup[order]
    starts = np.flatnonzero(np.r_[True, coup[1:] != coup[:-1]])
    row_a = np.array([ga.row[p] for p in co.parts_a])[co.a[order]]
    row_b = np.array([gb.row[p] for p in co.parts_b])[co.b[order]]
    return _Sparse(co.space, (ga, gb), row_a, row_b, co.count[order], starts, tuple(coup[starts].tolist()))


def _sparse_ways(sparse: _Sparse, counts: IntArray, suits: IntArray | None) -> Array:
    """Ways of every code (columns of ``sparse.codes``) for each composition: shape (n, codes)."""
    sizes = counts.sum(axis=1)
    out = np.zeros((len(counts), len(sparse.codes)), dtype=object if (sizes > INT64_MAX_CARDS).any() else np.int64)
    kinds_all = _kind_counts(counts, sparse.space.detail)
    for i, size in enumerate(sizes.tolist()):
        dtype = _dtype_of(size)
        kinds: Array = kinds_all[:, i:i + 1].astype(dtype)
        suit_rows: Array | None = suits[i:i + 1].transpose(1, 2, 0).astype(dtype) if suits is not None else None
        factors = _factor_table(sparse.space, kinds, suit_rows)
        a = _group_values(sparse.groups[0], factors)[:, 0]
        b = _group_values(sparse.groups[1], factors)[:, 0]
        terms: Array = sparse.count.astype(dtype) * a[sparse.row_a] * b[sparse.row_b]
        ways = np.add.reduceat(terms, sparse.starts)
        out[i] = ways.astype(np.int64) if dtype is np.float64 else ways
    return out


@dataclass(frozen=True)
class _BetPass:
    """Classes of coup codes, each with one winner (points only) and one value per bet.

    ``base`` marks the classes whose ways add up to the number of sequences (every class but
    the suited variants). A class's ways times its ``values`` give the bets' numerators.
    """

    plan: _Plan
    base: IntArray  # (classes,) bool
    winner: IntArray  # (classes,) index into OUTCOMES, -1 where not recorded
    values: tuple[tuple[Fraction, ...], ...]  # per class, per bet


@lru_cache(maxsize=32)
def _bet_pass(tableau: Tableau, detail: Detail, bets: tuple[Payable, ...]) -> _BetPass:
    """Classes keyed by the winner (points only) and each bet's payout (suited: its coefficient)."""

    def key(code: int) -> Hashable:
        coup = coup_of_code(code)
        if detail is Detail.SUITS:
            base = _variant(code)[0] == code
            return base, -1, *(_suited_coefficients(code, bet.payout) for bet in bets)
        winner = _WINNER_INDEX[coup.winner] if detail is Detail.POINTS else -1
        return True, winner, *(bet.payout(coup) for bet in bets)

    plan, keys = _compile(tableau, detail, key)
    rows: list[tuple[Any, ...]] = [k for k in keys if isinstance(k, tuple)]
    return _BetPass(plan, np.array([r[0] for r in rows], dtype=bool), np.array([r[1] for r in rows], dtype=np.int64),
                    tuple(tuple(r[2:]) for r in rows))


# ---------------------------------------------------------------- evaluation


def _kind_counts(counts: IntArray, detail: Detail) -> IntArray:
    """Counts per kind (columns: compositions): point classes, or the ranks themselves."""
    if detail is not Detail.POINTS:
        return counts.T
    out = np.zeros((10, counts.shape[0]), dtype=np.int64)
    for i, point in enumerate(_RANK_POINTS):
        out[point] += counts[:, i]
    return out


def _dtype_of(cards: int) -> type:
    if cards <= FLOAT_MAX_CARDS:
        return np.float64
    if cards <= INT64_MAX_CARDS:
        return np.int64
    return object


def _ways(plan: _Plan, counts: IntArray, suits: IntArray | None) -> Array:
    """Exact ways of each class: shape (n, classes), int64 if every shoe fits, else object."""
    n = counts.shape[0]
    sizes = counts.sum(axis=1)
    big = bool((sizes > INT64_MAX_CARDS).any())
    out = np.zeros((n, plan.classes), dtype=object if big else np.int64)
    kinds_all = _kind_counts(counts, plan.space.detail)
    tier = (sizes > FLOAT_MAX_CARDS).astype(np.int64) + (sizes > INT64_MAX_CARDS)
    for level, dtype in enumerate((np.float64, np.int64, object)):
        idx = np.flatnonzero(tier == level)
        for start in range(0, len(idx), CHUNK):
            rows = idx[start:start + CHUNK]
            kinds = kinds_all[:, rows].astype(dtype)
            suit_rows = suits[rows].transpose(1, 2, 0).astype(dtype) if suits is not None else None
            ways = _run(plan, kinds, suit_rows).T
            out[rows] = ways.astype(np.int64) if dtype is np.float64 else ways
    return out


def _sequences(sizes: IntArray) -> Array:
    """N (N-1) ... (N-5) per shoe, int64 when every shoe fits, else Python integers."""
    if int(sizes.max(initial=0)) <= INT64_MAX_CARDS:
        out = np.ones_like(sizes)
        for i in range(CARDS_PER_COUP):
            out = out * (sizes - i)
        return out
    return np.array([falling(int(s), CARDS_PER_COUP) for s in sizes.tolist()], dtype=object)


def _check_counts(compositions: object) -> IntArray:
    """Compositions as an (n, 13) int64 array; a bad one raises :class:`ShoeError`."""
    try:
        counts = np.asarray(compositions)
    except (ValueError, TypeError) as err:
        raise ShoeError(f"compositions must be rows of 13 counts: {err}") from None
    if counts.ndim != 2 or counts.shape[1] != len(RANK_LABELS):
        raise ShoeError(f"compositions must be rows of 13 counts (A..K), got shape {counts.shape}")
    if counts.size and counts.dtype.kind not in "iu":
        raise ShoeError(f"counts must be whole numbers, got {counts.dtype}")
    counts = counts.astype(np.int64)
    bad = np.flatnonzero((counts < 0).any(axis=1))
    if bad.size:
        raise ShoeError(f"composition {bad[0] + 1} has a negative count")
    small = np.flatnonzero(counts.sum(axis=1) < CARDS_PER_COUP)
    if small.size:
        raise ShoeError(f"composition {small[0] + 1} has {counts[small[0]].sum()} cards; a coup needs "
                        f"{CARDS_PER_COUP}")
    return counts


def _check_suits(counts: IntArray, suits: object | None, lines: Sequence[int] | None = None) -> IntArray:
    """Suit counts (n, 13, 4): given, or equal suits where every count divides by 4."""
    if suits is None:
        uneven = np.flatnonzero((counts % 4 != 0).any(axis=1))
        if uneven.size:
            where = f"line {lines[uneven[0]]}" if lines is not None else f"composition {uneven[0] + 1}"
            raise ShoeError(f"{where}: suited bets need a shoe whose suits are known "
                            "(give suit counts, or counts divisible by 4)")
        return np.repeat(counts[:, :, None] // 4, 4, axis=2)
    s = np.asarray(suits, dtype=np.int64)
    if s.shape != (*counts.shape, 4):
        raise ShoeError(f"suit counts must have shape {(*counts.shape, 4)}, got {s.shape}")
    if (s < 0).any() or (s.sum(axis=2) != counts).any():
        raise ShoeError("suit counts must be non-negative and add up to the rank counts")
    return s


def _checked(ways: Array, sequences: Array) -> None:
    """The ways of each composition's outcomes must add up to its sequences."""
    if not (ways.sum(axis=1) == sequences).all():
        raise AssertionError("bulk evaluation lost ways (please report this bug)")


def distributions(compositions: object, *, tableau: Tableau = STANDARD_TABLEAU, detail: Detail = Detail.POINTS,
                  suits: object | None = None) -> list[Dist[Coup]]:
    """The coup distribution of each composition: the bulk equivalent of ``deal``.

    ``compositions`` is a sequence of 13 rank counts (A..K) per shoe; ``suits``, needed only
    at ``Detail.SUITS`` for shoes whose counts do not divide by 4, gives counts per rank and
    suit (shape (n, 13, 4)). The result equals ``[deal(Shoe(c), tableau, detail=detail) ...]``.
    """
    counts = _check_counts(compositions)
    suit_counts = _check_suits(counts, suits) if detail is Detail.SUITS else None
    sparse = _sparse(tableau, detail)
    ways = _sparse_ways(sparse, counts, suit_counts)
    base = np.array([_variant(code)[0] == code for code in sparse.codes])
    _checked(ways[:, base], _sequences(counts.sum(axis=1)))
    out = []
    for row in ways.tolist():
        by_code = dict(zip(sparse.codes, row, strict=True))
        if detail is Detail.SUITS:
            by_code = _suited_ways(by_code)
        out.append(Dist((coup_of_code(code), int(w)) for code, w in by_code.items()))
    return out


def _suited_ways(variants: dict[int, int]) -> dict[int, int]:
    """Ways of each coup from the ways of the suited variants (Moebius inversion).

    With ``X_xy`` the ways of the variant with bits x, y of a base coup: the coup with both
    pairs suited has ``X_11`` ways, the player's only ``X_10 - X_11``, the banker's only
    ``X_01 - X_11``, neither ``X_00 - X_10 - X_01 + X_11``.
    """
    out: dict[int, int] = {}
    for code, ways in variants.items():
        base, x, y = _variant(code)
        if x or y:
            continue
        p, b = base + _PLAYER_SUITED, base + _BANKER_SUITED
        x10, x01, x11 = variants.get(p, 0), variants.get(b, 0), variants.get(p + _BANKER_SUITED, 0)
        out[base] = ways - x10 - x01 + x11
        out[p], out[b], out[p + _BANKER_SUITED] = x10 - x11, x01 - x11, x11
    return out


@dataclass(frozen=True)
class Evaluation:
    """Exact results of :func:`evaluate` for ``n`` compositions and ``k`` bets.

    ``counts``: (n, 13) rank counts. ``sequences``: (n,) ordered six-card sequences
    ``N (N-1) ... (N-5)``. ``outcomes``: (n, 3) ways of banker, player, tie.
    ``numerators``: (n, k) integers such that the expectation of bet ``j`` (net units per
    unit staked, from the bettor's side) is ``numerators[i, j] / (sequences[i] * scales[j])``.
    Integer arrays are int64 when every value fits, else numpy object arrays of Python ints.
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


def _product(ways: Array, table: Sequence[Sequence[int]], bound: int) -> Array:
    """``ways @ table`` exactly: in int64 when ``bound`` (a bound on the result) fits."""
    if ways.dtype == np.int64 and bound < 2**63:
        return ways @ np.array(table, dtype=np.int64).reshape(ways.shape[1], -1)
    matrix = np.empty((ways.shape[1], len(table[0]) if table else 0), dtype=object)
    for c, row in enumerate(table):
        matrix[c, :] = row
    return ways.astype(object) @ matrix


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
    counts = _check_counts(compositions)
    bet_list = tuple(bets)
    sizes = counts.sum(axis=1)
    sequences = _sequences(sizes)
    top = int(sequences.max(initial=0))
    outcomes: Array = np.zeros((len(counts), len(OUTCOMES)), dtype=np.int64)
    numerators: Array = np.zeros((len(counts), len(bet_list)), dtype=np.int64)
    scales = [1] * len(bet_list)
    parts: dict[int, Array] = {}
    for detail, members in _bet_groups(bet_list).items():
        compiled = _bet_pass(tableau, detail, tuple(bet_list[j] for j in members))
        suit_counts = _check_suits(counts, suits, lines) if detail is Detail.SUITS else None
        ways = _ways(compiled.plan, counts, suit_counts)
        _checked(ways[:, compiled.base], sequences)
        if detail is Detail.POINTS:
            indicator = [[int(w == o) for o in range(len(OUTCOMES))] for w in compiled.winner.tolist()]
            outcomes = _product(ways, indicator, top)
        if not members:
            continue
        for col, j in enumerate(members):
            scales[j] = math.lcm(*(v[col].denominator for v in compiled.values))
        table = [[int(v[col] * scales[j]) for col, j in enumerate(members)] for v in compiled.values]
        largest = max(abs(x) for row in table for x in row)
        # Each class's ways are at most the sequences, and a composition's classes (suited
        # variants included) add up to at most four times the sequences.
        numer = _product(ways, table, 4 * top * largest)
        for col, j in enumerate(members):
            parts[j] = numer[:, col]
    if parts:
        dtype = object if any(p.dtype == object for p in parts.values()) else np.int64
        numerators = np.stack([parts[j] for j in range(len(bet_list))], axis=1).astype(dtype)
    return Evaluation(counts, sequences, outcomes, bet_list, numerators, tuple(scales))


def evaluate_shoes(shoes: Sequence[Shoe], *, bets: Iterable[Payable] = (), tableau: Tableau = STANDARD_TABLEAU) -> Evaluation:
    """:func:`evaluate` for :class:`~exact_odds.shoe.Shoe` objects (finite; suits used when known)."""
    if any(shoe.infinite for shoe in shoes):
        raise ShoeError("bulk evaluation needs finite shoes")
    bet_list = tuple(bets)
    suits = None
    if any(bet.detail is Detail.SUITS for bet in bet_list):
        unknown = [i for i, shoe in enumerate(shoes) if shoe.suited is None]
        if unknown:
            raise ShoeError(f"shoe {unknown[0] + 1}: suited bets need a shoe whose suits are known")
        suits = [shoe.suited for shoe in shoes]
    return evaluate([shoe.counts for shoe in shoes], bets=bet_list, tableau=tableau, suits=suits)


# ---------------------------------------------------------------- reading compositions


class CompositionError(InputError):
    """A line of a compositions file that is not 13 non-negative counts of at least 6 cards."""


def _line_error(number: int, body: str, source: str) -> CompositionError:
    """The error for one bad line (its first problem)."""
    where = f"{source}: line {number}"
    fields = body.split(",")
    if len(fields) != len(RANK_LABELS):
        return CompositionError(f"{where}: expected 13 counts (A,2,...,9,T,J,Q,K), got {len(fields)}")
    for i, field in enumerate(fields):
        label = f"count {i + 1} ({RANK_LABELS[i]})"
        text = field.strip()
        if not text.lstrip("+-").isdigit():
            return CompositionError(f"{where}: {label} is not a whole number: {text!r}")
        if int(text) < 0:
            return CompositionError(f"{where}: {label} is negative: {text}")
    cards = sum(int(f) for f in fields)
    return CompositionError(f"{where}: {cards} cards; a coup needs {CARDS_PER_COUP}")


def parse_compositions(text: str, *, source: str = "input") -> tuple[list[int], IntArray]:
    """Compositions from text: one line of 13 comma-separated counts A,2,...,9,T,J,Q,K each.

    ``#`` starts a comment; blank lines are ignored. Returns the line number of each
    composition and the counts, shape (n, 13). A bad line raises :class:`CompositionError`
    naming its number.
    """
    import io
    import warnings

    lines = text.splitlines()
    if "#" not in text and all(line.strip() for line in lines):  # the common case: nothing to skip
        kept = list(enumerate(lines, 1))
        data = text
    else:
        kept = [(n, body) for n, body in ((n, line.split("#", 1)[0].strip()) for n, line in enumerate(lines, 1))
                if body]
        data = "\n".join(body for _, body in kept)
    if not kept:
        return [], np.zeros((0, len(RANK_LABELS)), dtype=np.int64)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            counts = np.loadtxt(io.StringIO(data), delimiter=",", dtype=np.int64, ndmin=2, comments=None)
        good = counts.shape == (len(kept), len(RANK_LABELS)) and bool(
            (counts >= 0).all() and (counts.sum(axis=1) >= CARDS_PER_COUP).all())
    except ValueError:
        good = False
    if not good:
        rows = []
        for number, body in kept:
            fields = body.split(",")
            ok = len(fields) == len(RANK_LABELS) and all(f.strip().lstrip("+").isdigit() for f in fields)
            if not ok or sum(int(f) for f in fields) < CARDS_PER_COUP:
                raise _line_error(number, body, source)
            rows.append([int(f) for f in fields])
        counts = np.array(rows, dtype=np.int64)
    return [n for n, _ in kept], counts.reshape(len(kept), len(RANK_LABELS))
