"""The ways of one shoe as polynomials in its counts: the fast exact path behind
:func:`exact_odds.engine.enumerator.deal`, in pure Python, the enumerator's integers for any shoe.

A coup using ``u`` cards has ways ``U_u = (N-u) ... (N-5)`` (the unused cards) times a sum over its
used sequences of products of falling factorials of the point-class counts. The sequences are split
into *families* by the first four cards: ``POINTS`` (any), ``PLAYER_PAIR`` or ``BANKER_PAIR`` of class
``c`` (two fewer cards of ``c`` left: a *shift* of 2), ``TWO_PAIRS`` ``(c, d)`` and ``TWINS`` ``(c, c)``.
A family's sum over its free cards is a *segment* per (classes, base coup), ``sum(count * monomial)``
of *factors* ``falling(n_q - shift, m)``; the rank (and suits) a pair takes is a *weight* per class. A
*sum* (:data:`SUMS`) is a family's weighted segments; inclusion-exclusion turns sums into coups, and
Moebius inversion gives the suited flags (:func:`suited_ways`). The tables (:func:`build_single`):
``single-points``, ``single-pairs`` and ``single-winners`` (points merged by winner: the odds alone).

>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.core.tableau import STANDARD_TABLEAU
>>> dist = deal_by_tables(Shoe.decks(8), STANDARD_TABLEAU, Detail.POINTS)
>>> dist.total, dist.ways(lambda c: c.winner == "tie")
(4998398275503360, 475627426473216)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate, product
from operator import mul, sub

from exact_odds.core.coup import (
    BANKER_DREW,
    BANKER_PAIR,
    BANKER_SUITED,
    OUTCOMES,
    PLAYER_DREW,
    PLAYER_PAIR,
    PLAYER_SUITED,
    TWIN_PAIR,
    Coup,
    Detail,
    Winner,
    coup_of_code,
    encode,
)
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, Shoe, ShoeError, falling
from exact_odds.core.tableau import Tableau, play_totals
from exact_odds.engine.store import Arrays, as_array, load
from exact_odds.inputs.errors import suits_unknown

BASE_CODES = 400
"""Coup codes without flags are below this; a slot is ``sum * BASE_CODES + code``."""
SHIFTS = (0, 2, 4)
"""Cards of a class taken by fixed pairs."""


class Family:
    """Which of the first four cards are fixed to pairs (see the module)."""

    POINTS = 0
    PLAYER_PAIR = 1
    BANKER_PAIR = 2
    TWO_PAIRS = 3
    TWINS = 4


VARIANTS = ((0, 0), (1, 0), (0, 1), (1, 1))
"""(player, banker) suited restrictions: 1 = that hand's pair is restricted to one suit."""

SUMS: tuple[tuple[int, int, int], ...] = (
    (Family.POINTS, 0, 0),
    (Family.PLAYER_PAIR, 0, 0), (Family.BANKER_PAIR, 0, 0), (Family.TWO_PAIRS, 0, 0), (Family.TWINS, 0, 0),
    (Family.PLAYER_PAIR, 1, 0), (Family.BANKER_PAIR, 0, 1),
    *((Family.TWO_PAIRS, x, y) for x, y in VARIANTS[1:]), *((Family.TWINS, x, y) for x, y in VARIANTS[1:]),
)
"""Every sum by id: (family, player variant, banker variant). ``RANKS`` needs ids 1-4, ``SUITS`` 1-12."""
FIRST_SUITED_SUM = 5


def sum_id(family: int, x: int = 0, y: int = 0) -> int:
    return SUMS.index((family, x, y))


def factor_id(point: int, shift: int, multiplicity: int) -> int:
    """Index of ``falling(n_point - shift, multiplicity)`` (multiplicity 1-6) in the factor list."""
    return (point * len(SHIFTS) + shift // 2) * CARDS_PER_COUP + multiplicity - 1


def class_key(family: int, c: int, d: int) -> int:
    """Index of a segment's classes in its sum's weight vector: ``c``, ``d`` or ``10 c + d``."""
    return {Family.POINTS: 0, Family.PLAYER_PAIR: c, Family.BANKER_PAIR: d, Family.TWINS: c}.get(family, 10 * c + d)


def winner_code(code: int) -> int:
    """The group of a coup code in ``single-winners``: ``10 * outcome + cards used`` (order of ``OUTCOMES``)."""
    coup = coup_of_code(code)
    return 10 * OUTCOMES.index(coup.winner) + coup.cards


FLOAT_MAX_CARDS = 456
"""Largest shoe (or infinite-deck weight) evaluated in floats, faster than integers: every number formed
is an integer at most ``N**6``, exact in float64 while ``456**6 <= 2**53 < 457**6``."""


class Tables:
    """A single-shoe table: ``arrays`` as stored; ``seg_start``: where each segment's terms begin;
    ``groups``: per family, each (base code, first segment, end segment) in order."""

    __slots__ = ("arrays", "groups", "seg_start")

    def __init__(self, arrays: Arrays) -> None:
        self.arrays = arrays
        self.seg_start = [0, *arrays["seg_end"][:-1]]
        self.groups: dict[int, list[tuple[int, int, int]]] = {}
        start = 0
        for family, code, end in zip(arrays["group_family"], arrays["group_code"], arrays["group_end"], strict=True):
            self.groups.setdefault(family, []).append((code, start, end))
            start = end


@lru_cache(maxsize=8)
def tables(tableau: Tableau, part: str) -> Tables:
    """Table ``single-<part>`` of ``tableau`` (``"points"``, ``"pairs"`` or ``"winners"``): shipped, cached
    or built (:mod:`exact_odds.engine.store`)."""
    return Tables(load(f"single-{part}", tableau, lambda rule: build_single(rule, part)))


def _factors(points: tuple[int, ...], infinite: bool) -> list[int]:
    """Every factor ``falling(n_q - shift, m)`` (infinite deck: ``n_q ** m``), by :func:`factor_id`."""
    out = []
    for n in points:
        for shift in SHIFTS:
            value = 1
            for m in range(CARDS_PER_COUP):
                value *= n if infinite else n - shift - m
                out.append(value)
    return out


@dataclass(frozen=True, slots=True)
class SuitSplit:
    """Of one rank: ordered pairs (``pair``), those of one suit (``suited``), and ordered four-card sequences
    of the rank, a pair to each hand, by suited variant in :data:`VARIANTS` order (``variants``: any, the
    player's suited, the banker's, both) and by suited flags (``twin``: neither, player only, banker only, both)."""

    pair: int
    suited: int
    variants: tuple[int, int, int, int]

    @property
    def twin(self) -> tuple[int, int, int, int]:
        total, p_any, b_any, both = self.variants
        return (total - p_any - b_any + both, p_any - both, b_any - both, both)


def suit_split(by_suit: tuple[int, ...], infinite: bool) -> SuitSplit:
    """The split of one rank from its counts per suit: ``pair = n(n-1)``, ``suited = sum s(s-1)``; a suited
    player pair then any banker pair: ``suited (n-2)(n-3)``; both suited: ``sum_s s(s-1) [(s-2)(s-3) +
    sum_{t != s} t(t-1)]``. Infinite deck: independent draws, powers and products."""
    n = sum(by_suit)
    if infinite:
        pair, suited = n * n, sum(s * s for s in by_suit)
        return SuitSplit(pair, suited, (pair * pair, suited * pair, suited * pair, suited * suited))
    pair, suited = falling(n, 2), sum(falling(s, 2) for s in by_suit)
    both = sum(falling(s, 2) * (falling(s - 2, 2) + suited - falling(s, 2)) for s in by_suit)
    return SuitSplit(pair, suited, (falling(n, 4), suited * falling(n - 2, 2), suited * falling(n - 2, 2), both))


def _weight_vectors(shoe: Shoe, suited: bool) -> list[list[int]]:
    """Each sum's weights by :func:`class_key` (the suited sums' empty unless ``suited``); two pairs of
    different ranks: the product of the pair weights less, when ``c == d``, the terms with ``r == s``."""
    pair = [[0] * 10, [0] * 10]  # by variant and class
    same = [[0] * 10 for _ in VARIANTS]  # by variant pair and class: sum of w_x(r) w_y(r)
    twin = [[0] * 10 for _ in VARIANTS]
    rows = shoe.suited if suited and shoe.suited is not None else [(n,) for n in shoe.counts]  # one suit: unused
    for rank, row in zip(RANKS, rows, strict=True):
        split = suit_split(row, shoe.infinite)
        weights = (split.pair, split.suited)
        for x in (0, 1):
            pair[x][rank.point] += weights[x]
        for v, (x, y) in enumerate(VARIANTS):
            same[v][rank.point] += weights[x] * weights[y]
            twin[v][rank.point] += split.variants[v]
    out: list[list[int]] = []
    for family, x, y in SUMS:
        v = VARIANTS.index((x, y))
        if (x or y) and not suited:
            out.append([])
        elif family == Family.POINTS:
            out.append([1])
        elif family in (Family.PLAYER_PAIR, Family.BANKER_PAIR):
            out.append(pair[x + y])
        elif family == Family.TWINS:
            out.append(twin[v])
        else:
            out.append([pair[x][c] * pair[y][d] - (same[v][c] if c == d else 0) for c in range(10) for d in range(10)])
    return out


def sums(t: Tables, shoe: Shoe, ids: range) -> dict[int, int]:
    """The value of every slot (sum, base code) of sums ``ids`` for ``shoe``, before the unused cards'
    factor: monomials level by level, segments, then each group's weighted segments."""
    a = t.arrays
    number: type[float] | type[int] = float if shoe.size <= FLOAT_MAX_CARDS else int
    factors = list(map(number, _factors(shoe.point_counts(), shoe.infinite)))
    values = [number(1)]
    start = 1
    for stop in a["levels"]:
        values += list(map(mul, map(values.__getitem__, a["parent"][start:stop]),
                           map(factors.__getitem__, a["factor"][start:stop])))
        start = stop
    segment = _segments(t, values)
    keys = a["seg_key"]
    vectors = _weight_vectors(shoe, ids.stop > FIRST_SUITED_SUM)
    out: dict[int, int] = {}
    for s in ids:
        weight = list(map(number, vectors[s])).__getitem__
        for code, i, j in t.groups.get(SUMS[s][0], ()):
            out[s * BASE_CODES + code] = int(sum(map(mul, map(weight, keys[i:j]), segment[i:j])))
    return out


def _segments(t: Tables, values: list[float] | list[int]) -> list[float] | list[int]:
    """Each segment's ``sum(count * monomial)``: a sum per long segment, else a running total's differences."""
    a = t.arrays
    if len(a["mono"]) > 20 * len(a["seg_end"]):
        count, mono, value = memoryview(a["count"]), memoryview(a["mono"]), values.__getitem__
        return [sum(map(mul, map(value, mono[i:j]), count[i:j]))
                for i, j in zip(t.seg_start, a["seg_end"], strict=True)]
    running = [0, *accumulate(map(mul, map(values.__getitem__, a["mono"]), a["count"]))]
    return list(map(sub, map(running.__getitem__, a["seg_end"]), map(running.__getitem__, t.seg_start)))


# Slot offsets of the sums by variant, for :func:`_split`: player and banker pairs, two pairs, twins.
_A, _B, _N, _T = ([sum_id(family, x, y) * BASE_CODES for x, y in variants] for family, variants in (
    (Family.PLAYER_PAIR, VARIANTS[:2]), (Family.BANKER_PAIR, (VARIANTS[0], VARIANTS[2])),
    (Family.TWO_PAIRS, VARIANTS), (Family.TWINS, VARIANTS)))
SUITED_BITS = tuple(x * PLAYER_SUITED + y * BANKER_SUITED for x, y in VARIANTS)


def _split(code: int, slot: dict[int, int], detail: Detail) -> dict[int, int]:
    """Ways of each coup code with base ``code`` from the sums, by inclusion-exclusion (see the module)."""
    points = slot.get(code, 0)
    if detail is Detail.POINTS:
        return {code: points}
    a, b, n, t = ([slot.get(s + code, 0) for s in sums] for sums in (_A, _B, _N, _T))
    both = code + PLAYER_PAIR + BANKER_PAIR
    out = {code: points - a[0] - b[0] + n[0] + t[0], code + PLAYER_PAIR: a[0] - n[0] - t[0],
           code + BANKER_PAIR: b[0] - n[0] - t[0], both: n[0], both + TWIN_PAIR: t[0]}
    if detail is Detail.RANKS:
        return out
    out[code + PLAYER_PAIR + PLAYER_SUITED] = a[1] - n[1] - t[1]
    out[code + BANKER_PAIR + BANKER_SUITED] = b[1] - n[2] - t[2]
    for v, bits in enumerate(SUITED_BITS[1:], 1):
        out[both + bits], out[both + TWIN_PAIR + bits] = n[v], t[v]
    return suited_ways(out)


def variant(code: int) -> tuple[int, int, int]:
    """(code with the suited bits cleared, player bit, banker bit)."""
    x, y = code // PLAYER_SUITED % 2, code // BANKER_SUITED % 2
    return code - PLAYER_SUITED * x - BANKER_SUITED * y, x, y


def suited_ways(variants: dict[int, int]) -> dict[int, int]:
    """Ways of each coup code from the ways of the suited *variants* ``X_xy`` (bits x, y restrict that
    hand's pair to one suit), by Moebius inversion: both ``X11``, the player's only ``X10 - X11``, the
    banker's only ``X01 - X11``, neither ``X00 - X10 - X01 + X11``."""
    out: dict[int, int] = {}
    for code, ways in variants.items():
        base, x, y = variant(code)
        if x or y:
            continue
        p, b = base + PLAYER_SUITED, base + BANKER_SUITED
        x10, x01, x11 = variants.get(p, 0), variants.get(b, 0), variants.get(p + BANKER_SUITED, 0)
        out[base] = ways - x10 - x01 + x11
        out[p], out[b], out[p + BANKER_SUITED] = x10 - x11, x01 - x11, x11
    return out


@cache
def _coup(code: int) -> Coup:
    """The coup of a code (as :func:`exact_odds.core.coup.coup_of_code`, without building all 12,800)."""
    return Coup(code // 10 % 10, code % 10, 2 + code // PLAYER_DREW % 2, 2 + code // BANKER_DREW % 2,
                code // PLAYER_PAIR % 2 == 1, code // BANKER_PAIR % 2 == 1, code // PLAYER_SUITED % 2 == 1,
                code // BANKER_SUITED % 2 == 1, code // TWIN_PAIR % 2 == 1)


_RECENT: dict[tuple[Tableau, Shoe], tuple[dict[int, int], Detail, dict[int, int]]] = {}
RECENT = 8


def _sums_for(tableau: Tableau, shoe: Shoe, detail: Detail) -> dict[int, int]:
    """Every sum ``detail`` needs, from the last :data:`RECENT` shoes' when there: the points table's, and
    the pairs table's (at ``SUITS`` whenever the suits are known: a report asks for them next)."""
    points, done, pairs = _RECENT.pop((tableau, shoe), None) or (None, Detail.POINTS, {})
    if points is None:
        points = sums(tables(tableau, "points"), shoe, range(1))
    if detail > done:
        done = Detail.SUITS if shoe.suited is not None else detail
        pairs = sums(tables(tableau, "pairs"), shoe, range(1, len(SUMS) if done is Detail.SUITS else FIRST_SUITED_SUM))
    if len(_RECENT) == RECENT:
        del _RECENT[next(iter(_RECENT))]
    _RECENT[tableau, shoe] = (points, done, pairs)
    return points if detail is Detail.POINTS else {**points, **pairs}


def _unused(shoe: Shoe) -> list[int]:
    """Ways of the cards a coup of ``u`` cards leaves unused, by ``u``."""
    return [shoe.size ** (CARDS_PER_COUP - u) if shoe.infinite else falling(shoe.size - u, CARDS_PER_COUP - u)
            for u in range(CARDS_PER_COUP + 1)]


@lru_cache(maxsize=64)
def winners_by_tables(shoe: Shoe, tableau: Tableau) -> Dist[Winner]:
    """``winners(deal_by_tables(shoe, tableau))`` from table ``single-winners``."""
    unused = _unused(shoe)
    ways = dict.fromkeys(OUTCOMES, 0)
    for code, value in sums(tables(tableau, "winners"), shoe, range(1)).items():
        ways[OUTCOMES[code // 10]] += value * unused[code % 10]
    return Dist(ways)


def deal_by_tables(shoe: Shoe, tableau: Tableau, detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """:func:`exact_odds.engine.enumerator.deal` by evaluating the single-shoe tables of ``tableau``: the same Dist."""
    if detail is Detail.SUITS and shoe.suited is None:
        raise ShoeError(suits_unknown())
    slot = _sums_for(tableau, shoe, detail)
    unused = _unused(shoe)
    ways: dict[Coup, int] = {}
    for code in sorted(s for s in slot if s < BASE_CODES):
        factor = unused[4 + code // PLAYER_DREW % 2 + code // BANKER_DREW % 2]
        ways.update((_coup(full), w * factor) for full, w in _split(code, slot, detail).items() if w)
    return Dist(ways)


# ---------------------------------------------------------------- building the tables from a drawing rule
# The first four cards by point class, grouped by (classes, two-card totals), each group finished by
# every way the tableau can draw (:func:`exact_odds.core.tableau.play_totals`).

Monomial = tuple[int, ...]
"""Factor ids in increasing order (one per class of card used)."""
Segment = tuple[int, int, int, int]
"""(family, class of the player's pair or -1, class of the banker's pair or -1, base coup code)."""
Finish = list[tuple[int, int, int]]
"""(multiset of the point values drawn after the first four, base code, orderings of those draws)."""
Terms = dict[Segment, dict[int, int]]
"""Per segment: multiset of the free cards used -> orderings (see :func:`_multiset`)."""


def _multiset(cards: tuple[int, ...]) -> int:
    """Point classes as one integer, digit ``q`` in base 7 counting class ``q``: sums of keys add multisets."""
    return sum(7**q for q in cards)


def _finishes(tableau: Tableau) -> dict[tuple[int, int], Finish]:
    """For each pair of two-card totals, the draws that finish a coup and the coup they give."""
    out: dict[tuple[int, int], Finish] = {}
    for pt, bt in product(range(10), repeat=2):
        seen: set[tuple[tuple[int, ...], int]] = set()
        for draws in product(range(10), repeat=2):
            play = play_totals(tableau, pt, bt, draws)
            code = encode(play.player, play.banker, play.player_cards == 3, play.banker_cards == 3)
            seen.add((draws[:play.cards - 4], code))
        orders = Counter((_multiset(used), code) for used, code in seen)
        out[pt, bt] = [(key, code, n) for (key, code), n in sorted(orders.items())]
    return out


def _monomial(key: int, pair_p: int, pair_b: int) -> Monomial:
    """The factor ids of a multiset, each class shifted by the cards its pairs take."""
    out = []
    for q in range(10):
        key, m = divmod(key, 7)
        if m:
            out.append(factor_id(q, 2 * (q == pair_p) + 2 * (q == pair_b), m))
    return tuple(out)


def _family_terms(family: int, pair_p: int, pair_b: int, finishes: dict[tuple[int, int], Finish],
                  terms: Terms) -> None:
    """Add the terms of one family (pair classes ``pair_p``/``pair_b``, -1 if none) to ``terms``."""
    free = [i for i, fixed in enumerate((pair_p, pair_b, pair_p, pair_b)) if fixed < 0]
    groups: Counter[tuple[int, int, int]] = Counter()
    for values in product(range(10), repeat=len(free)):
        four = [pair_p, pair_b, pair_p, pair_b]
        for i, v in zip(free, values, strict=True):
            four[i] = v
        groups[_multiset(values), (four[0] + four[2]) % 10, (four[1] + four[3]) % 10] += 1
    for (cards, pt, bt), ways in groups.items():
        for drawn, code, orders in finishes[pt, bt]:
            segment = terms.setdefault((family, pair_p, pair_b, code), {})
            key = cards + drawn
            segment[key] = segment.get(key, 0) + ways * orders


def _monomial_order(monomials: list[Monomial]) -> tuple[dict[Monomial, int], list[int], list[int], list[int]]:
    """Index every monomial and its prefixes, level by level (0: the empty one): the index, each one's
    parent (less its last factor) and last factor, and the end of each level."""
    need: set[Monomial] = set()
    for mono in monomials:
        while mono and mono not in need:
            need.add(mono)
            mono = mono[:-1]
    index: dict[Monomial, int] = {(): 0}
    parent, factor, levels = [0], [0], []
    for level in range(1, 7):
        for mono in sorted(m for m in need if len(m) == level):
            index[mono] = len(parent)
            parent.append(index[mono[:-1]])
            factor.append(mono[-1])
        levels.append(len(parent))
    return index, parent, factor, levels


@lru_cache(maxsize=1)
def _terms(tableau: Tableau) -> Terms:
    """The terms of every family of ``tableau`` (the last rule's are kept: its two tables are built in turn)."""
    finishes = _finishes(tableau)
    terms: Terms = {}
    _family_terms(Family.POINTS, -1, -1, finishes, terms)
    for c in range(10):
        _family_terms(Family.PLAYER_PAIR, c, -1, finishes, terms)
        _family_terms(Family.BANKER_PAIR, -1, c, finishes, terms)
        _family_terms(Family.TWINS, c, c, finishes, terms)
        for d in range(10):
            _family_terms(Family.TWO_PAIRS, c, d, finishes, terms)
    return terms


def _by_winner(terms: Terms) -> Terms:
    """The points family's terms merged by :func:`winner_code`."""
    out: Terms = {}
    for (family, c, d, code), multisets in terms.items():
        if family == Family.POINTS:
            merged = out.setdefault((family, c, d, winner_code(code)), {})
            for key, n in multisets.items():
                merged[key] = merged.get(key, 0) + n
    return out


def build_single(tableau: Tableau, part: str) -> Arrays:
    """Table ``single-<part>`` of ``tableau``: monomials as a tree (parent times one factor), terms by
    segment, segments by (family, base code, classes); a *group* (one family and base code) is a slot."""
    terms = _by_winner(_terms(tableau)) if part == "winners" else _terms(tableau)
    segments = sorted((s for s in terms if (s[0] == Family.POINTS) == (part != "pairs")),
                      key=lambda s: (s[0], s[3], s[1], s[2]))
    monomials = {s: {_monomial(key, s[1], s[2]): n for key, n in terms[s].items()} for s in segments}
    index, parent, factor, levels = _monomial_order([m for s in segments for m in monomials[s]])
    mono: list[int] = []
    count: list[int] = []
    seg_end: list[int] = []
    for s in segments:
        for i, n in sorted((index[m], n) for m, n in monomials[s].items()):
            mono.append(i)
            count.append(n)
        seg_end.append(len(mono))
    groups = [(family, code) for family, _, _, code in segments]
    ends = [i + 1 for i in range(len(groups)) if i + 1 == len(groups) or groups[i + 1] != groups[i]]
    return {name: as_array(values) for name, values in {
        "parent": parent, "factor": factor, "levels": levels, "mono": mono, "count": count, "seg_end": seg_end,
        "seg_key": [class_key(f, c, d) for f, c, d, _ in segments],
        "group_family": [groups[e - 1][0] for e in ends], "group_code": [groups[e - 1][1] for e in ends],
        "group_end": ends,
    }.items()}
