"""Building the single-shoe tables of :mod:`exact_odds.engine.polynomial` from a drawing rule.

Pure Python, under half a second for both tables: every way the first four cards can fall by point
class (10,000 sequences for the points family, 100 for each pair family, one for two pairs) is
grouped by (classes, two-card totals), and each group is finished by every way the tableau can
draw (:func:`exact_odds.core.tableau.play_totals`, the one scalar rule). A term counts the orderings
of the used cards that give one coup; the result is laid out as described in
:mod:`exact_odds.engine.polynomial`.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

from exact_odds.core.coup import encode
from exact_odds.core.tableau import Tableau, play_totals
from exact_odds.engine.polynomial import Family, class_key, factor_id, winner_code
from exact_odds.engine.store import Arrays, as_array

Monomial = tuple[int, ...]
"""Factor ids in increasing order (one per class of card used), as in :mod:`exact_odds.engine.polynomial`."""
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
    """The factor ids of a multiset's falling factorials, each class shifted by the cards its pairs take."""
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
    """Index every monomial and its prefixes, level by level (fewer factors first).

    Returns the index, each monomial's parent (itself less its last factor) and last factor, and the
    end of each level; index 0 is the empty monomial (value 1).
    """
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
    """The points family's terms merged by :func:`~exact_odds.engine.polynomial.winner_code`: all the odds need."""
    out: Terms = {}
    for (family, c, d, code), multisets in terms.items():
        if family == Family.POINTS:
            merged = out.setdefault((family, c, d, winner_code(code)), {})
            for key, n in multisets.items():
                merged[key] = merged.get(key, 0) + n
    return out


def build_single(tableau: Tableau, part: str) -> Arrays:
    """Table ``single-<part>`` of ``tableau``, laid out as :mod:`exact_odds.engine.polynomial` reads it: ``points``
    (the points family), ``pairs`` (the pair families) or ``winners`` (the points family by winner).

    Segments are ordered by (family, base code, classes); a *group* is the segments of one family and
    base code, whose weighted sum is a slot.
    """
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
