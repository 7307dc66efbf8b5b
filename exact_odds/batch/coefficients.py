"""The coefficient table: arrangements of each multiset of kinds that deal each coup.

Every outcome count is a fixed non-negative integer combination of monomials (see
:mod:`exact_odds.batch.kinds`): ``ways[coup] = sum_S C[S, coup] * monomial_S(composition)``,
where ``C[S, coup]`` counts the arrangements of the multiset ``S`` of six kinds that produce
the coup (5,005 multisets of six point classes; 18,564 of six ranks). ``C`` is computed once
per rule table by playing every sequence of kinds through :func:`exact_odds.core.tableau.play_many`
(the one vectorised tableau): :func:`build_coefficients`. The standard rule's tables are shipped
with the package and any other rule's are cached on disk (:mod:`exact_odds.engine.store`), so
:func:`coefficients` builds a table at most once per rule. Coups are named by their
:func:`exact_odds.core.coup.encode` code; at ``Detail.SUITS`` the suited bits mark the variants of
:mod:`exact_odds.batch.suited` instead.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.kinds import DIGITS, TYPES, Part, Space, part_code, parts_of, space_of
from exact_odds.batch.suited import suited_variants
from exact_odds.core.coup import BANKER_SUITED, COUP_CODES, PLAYER_SUITED, Detail, encode
from exact_odds.core.shoe import CARDS_PER_COUP
from exact_odds.core.tableau import Tableau, play_many
from exact_odds.engine.store import Arrays, load, typecode_for

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]


@dataclass(frozen=True)
class Coefficients:
    """The sparse coefficient table ``C[(part A, part B), coup] = arrangements``, one term per entry.

    ``a``/``b`` index ``parts_a``/``parts_b`` (each sorted by part code); ``coup`` is the coup
    code (at ``Detail.SUITS``, its suited bits name the variant); ``count`` the arrangements.
    """

    space: Space
    parts_a: tuple[Part, ...]
    parts_b: tuple[Part, ...]
    a: IntArray
    b: IntArray
    coup: IntArray
    count: IntArray


@dataclass(frozen=True)
class _PartIndex:
    """How to find the parts of a sequence of kinds: sorted part codes and each kind's digit weight."""

    codes_a: IntArray  # part codes of group A, sorted
    codes_b: IntArray
    weight: IntArray  # per kind: DIGITS ** (position of the kind in its group)
    in_a: Array  # per kind: whether it belongs to group A

    def pair(self, code_a: IntArray, code_b: IntArray) -> IntArray:
        """Index of each (part A, part B) among ``len(codes_a) * len(codes_b)`` pairs."""
        return np.searchsorted(self.codes_a, code_a) * len(self.codes_b) + np.searchsorted(self.codes_b, code_b)

    def designate(self, code_a: IntArray, code_b: IntArray, designations: IntArray) -> tuple[IntArray, IntArray]:
        """Part codes with designations (``kind * TYPES + designation`` rows, or -1) added."""
        for d in designations:
            kind, t = np.maximum(d, 0) // TYPES, d % TYPES
            add = np.where(d >= 0, t * self.weight[kind], 0)
            code_a = code_a + np.where(self.in_a[kind], add, 0)
            code_b = code_b + np.where(self.in_a[kind], 0, add)
        return code_a, code_b


def _sequences_from(space: Space, first: int) -> IntArray:
    """Every sequence of six kinds whose first kind is ``first``, shape (6, K**5), dealing order."""
    rest = np.indices((space.kinds,) * (CARDS_PER_COUP - 1), dtype=np.int64).reshape(CARDS_PER_COUP - 1, -1)
    return np.concatenate([np.full((1, rest.shape[1]), first, dtype=np.int64), rest], axis=0)


def _coup_codes(tableau: Tableau, space: Space, seq: IntArray) -> IntArray:
    """The code of the coup each sequence of kinds deals (suited bits clear).

    The tableau decides what is drawn; pairs and twins are read from the kinds (ranks).
    """
    points = np.array(space.points, dtype=np.int16)
    play = play_many(tableau, points[seq])
    drew = (play.player_cards == 3, play.banker_cards == 3)
    if space.detail is Detail.POINTS:
        return np.asarray(encode(play.player, play.banker, *drew), dtype=np.int64)
    pp, bp = seq[0] == seq[2], seq[1] == seq[3]
    twin = pp & bp & (seq[0] == seq[1])
    return np.asarray(encode(play.player, play.banker, *drew, pp, bp, twin_pair=twin), dtype=np.int64)


def _tally(tableau: Tableau, space: Space, index: _PartIndex, first: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Distinct keys ``pair * COUP_CODES + coup`` and their arrangements, for sequences from ``first``."""
    seq = _sequences_from(space, first)
    base = _coup_codes(tableau, space, seq)
    card_weight = TYPES * index.weight[seq]
    in_a = index.in_a[seq]
    code_a = np.where(in_a, card_weight, 0).sum(axis=0)
    code_b = np.where(in_a, 0, card_weight).sum(axis=0)
    if not space.suited:
        uniq, cnt = np.unique(index.pair(code_a, code_b) * COUP_CODES + base, return_counts=True)
        yield uniq, cnt.astype(np.int64)
        return
    for rows, ps, bs, designations in suited_variants(seq):
        ca, cb = index.designate(code_a[rows], code_b[rows], designations[:, rows])
        coup = base[rows] + PLAYER_SUITED * ps + BANKER_SUITED * bs
        uniq, cnt = np.unique(index.pair(ca, cb) * COUP_CODES + coup, return_counts=True)
        yield uniq, cnt.astype(np.int64)


@lru_cache(maxsize=8)
def coefficients(tableau: Tableau, detail: Detail) -> Coefficients:
    """The coefficient table of ``tableau`` at ``detail``: shipped for the standard rule, else cached on
    disk after one :func:`build_coefficients` (see :mod:`exact_odds.engine.store`); cached in memory too."""
    space = space_of(detail)
    arrays = load(f"batch-{detail.name.lower()}", tableau, lambda rule: to_arrays(build_coefficients(rule, detail)))
    parts_a, parts_b = _parts(space)
    a, b, coup, count = (np.frombuffer(arrays[n], dtype=arrays[n].typecode).astype(np.int64)
                         for n in ("a", "b", "coup", "count"))
    return Coefficients(space, parts_a, parts_b, a, b, coup, count)


def _parts(space: Space) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    """Every part of group A and of group B, each sorted by part code (the order ``a``/``b`` index)."""
    return tuple(parts_of(space.split, space.suited)), tuple(parts_of(space.kinds - space.split, space.suited))


def to_arrays(co: Coefficients) -> Arrays:
    """The integer arrays of a coefficient table as stored (:mod:`exact_odds.engine.store`), each in its
    narrowest type."""
    out: Arrays = {}
    for name, values in (("a", co.a), ("b", co.b), ("coup", co.coup), ("count", co.count)):
        code = typecode_for(int(values.max(initial=0)))
        out[name] = array(code, values.astype(np.dtype(code)).tobytes())
    return out


def build_coefficients(tableau: Tableau, detail: Detail, case_of_kind: tuple[int, ...] | None = None) -> Coefficients:
    """Play every sequence of six kinds and tabulate arrangements per (part A, part B, coup).

    With ``case_of_kind`` (a case number per kind), the first card's case is kept apart: the coup
    column holds ``case * COUP_CODES + code`` (what the value of knowing the first card needs).
    """
    space = space_of(detail)
    by_code_a = {part_code(p): p for p in parts_of(space.split, space.suited)}
    by_code_b = {part_code(p): p for p in parts_of(space.kinds - space.split, space.suited)}
    index = _PartIndex(
        np.array(sorted(by_code_a), dtype=np.int64),
        np.array(sorted(by_code_b), dtype=np.int64),
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
    nb = len(index.codes_b)
    return Coefficients(
        space,
        tuple(by_code_a[int(c)] for c in index.codes_a),
        tuple(by_code_b[int(c)] for c in index.codes_b),
        pair // nb, pair % nb, coup, total,
    )
