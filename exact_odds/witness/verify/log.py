"""A log of coups as columns (:class:`CoupLog`), written as CSV, and walked shoe by shoe (:func:`compositions`).

Conventions of :class:`CoupLog`: each coup's cards in *dealing order* (player, banker, player, banker, then the
player's third card if drawn and the banker's) in six slots: ``ranks`` 1-13 (0 past the coup's cards), ``suits``
0-3 in :data:`~exact_odds.core.shoe.SUITS` order (-1 when not given); ``player_cards``/``banker_cards`` 2 or 3.
``shoe``: index into ``shoe_names`` (the values the log wrote), or ``None``: every coup from a fresh full shoe.
``burn_ranks``/``burn_suits``: cards shown before a coup besides its hands. ``labels`` are what the log
*claims*: ``winner`` (index into ``OUTCOMES``), totals 0-9, ``natural``/``player_pair``/``banker_pair`` 0 or 1;
:data:`MISSING` where not given. ``nets``: a bet's net units on one unit staked (NaN where missing) and the
decimals written. A log may interleave shoes; each shoe's coups keep the order the log lists them in.

>>> import numpy as np
>>> cards = np.array([[48, 20, 33, 21, 0, 0]])  # K♠ 6♠ 9♥ 6♥: player 9, banker 2 (a natural)
>>> log = CoupLog.from_dealt(cards, player_cards=[2], banker_cards=[2])
>>> log.hands(0)
('Ks 9h', '6s 6h')
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, TextIO

import numpy as np
from numpy.typing import NDArray

from exact_odds.batch import compiled
from exact_odds.core.coup import (
    BANKER_DREW,
    BANKER_PAIR,
    COUP_CODES,
    OUTCOMES,
    PLAYER_DREW,
    PLAYER_PAIR,
    Detail,
    winner_index,
)
from exact_odds.core.shoe import RANK_LABELS, SUITS
from exact_odds.core.verdict import Violation

SLOTS = 6
"""Card slots per coup: the most cards a coup deals."""
BURN_SLOTS = 3
"""The most cards a log's ``burn`` column may show before one coup."""
LABELS = ("winner", "player_total", "banker_total", "natural", "player_pair", "banker_pair")
"""The label columns a log may carry, in the order they are written."""
MISSING = -1
"""A label (or a suit) the log does not give."""


def compiled_loops(count: int, jit: bool | None = None) -> ModuleType | None:
    """verify's compiled loops for a call on ``count`` cards or coups, or None for NumPy
    (:func:`exact_odds.batch.compiled.chosen`)."""
    return compiled.chosen("exact_odds.witness.verify.loops", count, jit)


@dataclass(frozen=True, eq=False, slots=True)
class CoupLog:
    """Coups as NumPy columns (conventions: the module's docstring)."""

    ranks: NDArray[np.int8]
    suits: NDArray[np.int8]
    player_cards: NDArray[np.int8]
    banker_cards: NDArray[np.int8]
    shoe: NDArray[np.int32] | None = None
    shoe_names: tuple[str, ...] = ()
    lines: NDArray[np.int32] | None = None
    labels: dict[str, NDArray[np.int8]] = field(default_factory=dict)
    nets: dict[str, tuple[NDArray[np.float64], NDArray[np.int8]]] = field(default_factory=dict)
    columns: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    burn_ranks: NDArray[np.int8] | None = None
    burn_suits: NDArray[np.int8] | None = None

    def __len__(self) -> int:
        return int(self.ranks.shape[0])

    @property
    def suited(self) -> bool:
        """Whether every card dealt (and every burn card shown) carries its suit."""
        burn = self.burn_suits is None or self.burn_ranks is None or bool(
            np.all((self.burn_suits >= 0) | (self.burn_ranks == 0)))
        return bool(np.all((self.suits >= 0) | (self.ranks == 0))) and burn

    def banker_third_slot(self) -> NDArray[np.int64]:
        """The slot of each coup's banker third card: 5 after a player's third card, else 4."""
        return np.asarray(4 + (self.player_cards == 3), dtype=np.int64)

    def hands(self, i: int) -> tuple[str, str]:
        """The cards of coup ``i`` as the log would write them."""
        player, banker = _card_texts(_slice(self, i, i + 1))
        return player[0], banker[0]

    def shoe_name(self, i: int) -> str | None:
        """The log's ``shoe`` value of coup ``i`` (``None`` without shoes)."""
        return None if self.shoe is None else self.shoe_names[int(self.shoe[i])]

    @classmethod
    def from_dealt(cls, cards: Any, *, player_cards: Any = None, banker_cards: Any = None, codes: Any = None,
                   detail: Detail = Detail.POINTS, shoe: Any = None, burn: Any = None, suited: bool = True,
                   rows: Any = None, start: Any = None) -> CoupLog:
        """A log of coups a simulator dealt, from its arrays.

        ``cards``: shape (n, 6), card codes ``4 * (rank - 1) + suit`` in dealing order (values past a coup's
        cards ignored); or, given ``rows`` and ``start``, each shoe's card codes in dealing order, coup ``i``'s
        cards ``cards[rows[i]]`` from ``start[i]`` on. Either ``player_cards``/``banker_cards`` or the coup
        ``codes`` say how many cards each hand holds; ``codes`` also become labels (winner and totals; pairs at
        ``detail`` ``RANKS`` or more), so the simulator's own bookkeeping is checked too. ``shoe``: each coup's
        shoe number, or ``None`` (fresh shoes). ``burn``: (n, k) card codes shown before each coup besides its
        hands (-1 for none). ``suited=False``: the suits in the codes mean nothing.
        """
        said = None if codes is None else _code_columns(np.asarray(codes))
        if said is not None:
            player_cards, banker_cards = said[0], said[1]
        if player_cards is None or banker_cards is None:
            raise ValueError("give player_cards and banker_cards, or the coup codes")
        p = np.asarray(player_cards, dtype=np.int8)
        b = np.asarray(banker_cards, dtype=np.int8)
        ranks, suits = _dealt_cards(cards, p + b, suited, rows, start)
        named = CODE_LABELS[: 5 if detail >= Detail.RANKS else 3]
        labels = {} if said is None else dict(zip(named, said[2:2 + len(named)], strict=True))
        shoe_arr, names = (None, ()) if shoe is None else _shoe_numbers(np.asarray(shoe))
        burn_ranks = burn_suits = None
        if burn is not None:
            shown = np.asarray(burn, dtype=np.int8).reshape(len(ranks), -1)
            burn_ranks, burn_suits = _rank_suit(shown, shown >= 0, suited)
        columns = ("shoe",) * (shoe is not None) + ("burn",) * (burn is not None) + ("player", "banker", *labels)
        return cls(ranks, suits, p, b, shoe_arr, names, None, labels, {}, columns, (), burn_ranks, burn_suits)


def _dealt_cards(cards: Any, used: NDArray[np.int8], suited: bool, rows: Any,
                 start: Any) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """The ranks and suits of each coup's ``used`` cards, as :meth:`CoupLog.from_dealt` takes them."""
    fast = None if rows is None else compiled_loops(len(used))
    if fast is not None:
        ranks, suits = np.empty((len(used), SLOTS), dtype=np.int8), np.empty((len(used), SLOTS), dtype=np.int8)
        fast.shoe_cards(cards, rows, start, used, suited, ranks, suits)
        return ranks, suits
    if rows is None:
        codes = np.asarray(cards).reshape(-1, SLOTS)
    else:
        codes = cards[rows[:, None], np.minimum(start[:, None].astype(np.intp) + np.arange(SLOTS), cards.shape[1] - 1)]
    return _rank_suit(codes.astype(np.int8), used[:, None] > np.arange(SLOTS, dtype=np.int8), suited)


CODE_LABELS = ("winner", "player_total", "banker_total", "player_pair", "banker_pair")
"""The labels a coup code gives, in the order of :func:`_code_values`' rows 2 on."""


def _code_values(codes: NDArray[np.int64]) -> list[NDArray[np.int64]]:
    """What each coup code says: cards of the player and of the banker, then :data:`CODE_LABELS`."""
    return [2 + codes // PLAYER_DREW % 2, 2 + codes // BANKER_DREW % 2, winner_index(codes), codes % 100 // 10,
            codes % 10, codes // PLAYER_PAIR % 2, codes // BANKER_PAIR % 2]


@cache
def _every_code() -> NDArray[np.int8]:
    return np.array(_code_values(np.arange(COUP_CODES, dtype=np.int64)), dtype=np.int8)


def _code_columns(codes: NDArray[Any]) -> NDArray[np.int8]:
    """:func:`_code_values` of ``codes`` as int8 rows: looked up in the table of every code when all are codes."""
    if not codes.size or (int(codes.min()) >= 0 and int(codes.max()) < COUP_CODES):
        return np.take(_every_code(), codes, axis=1)
    return np.array(_code_values(np.asarray(codes, dtype=np.int64)), dtype=np.int8)


def _rank_suit(codes: NDArray[np.int8], used: NDArray[np.bool_], suited: bool) -> tuple[NDArray[np.int8],
                                                                                        NDArray[np.int8]]:
    """Ranks (1-13; 0 where not ``used``) and suits (0-3; :data:`MISSING` where not used or not ``suited``) of
    card codes ``4 * (rank - 1) + suit``."""
    ranks = np.where(used, (codes >> 2) + 1, 0).astype(np.int8)
    suits = np.where(used & suited, codes & 3, MISSING).astype(np.int8)
    return ranks, suits


def _shoe_numbers(shoe: NDArray[Any]) -> tuple[NDArray[np.int32], tuple[str, ...]]:
    """Each coup's shoe as an index into the shoes' names (sorted), as ``np.unique`` gives them; without a sort
    when the values come in order (a simulator's)."""
    values: NDArray[Any]
    inverse: NDArray[Any]
    if shoe.ndim == 1 and shoe.size and bool((shoe[1:] >= shoe[:-1]).all()):
        change = np.empty(len(shoe), dtype=bool)
        change[0] = True
        np.not_equal(shoe[1:], shoe[:-1], out=change[1:])
        values, inverse = shoe[change], np.cumsum(change, dtype=np.int32) - 1
    else:
        values, inverse = np.unique(shoe, return_inverse=True)
    return np.asarray(inverse, dtype=np.int32), tuple(map(str, values.tolist()))


def _card_names(ranks: NDArray[np.int8], suits: NDArray[np.int8]) -> NDArray[Any]:
    """Each card as text (``"Ks"``, ``"9"`` without a suit, ``""`` for no card), vectorised."""
    names = np.array([[""] + [r + (SUITS[s].value if s >= 0 else "") for s in (-1, 0, 1, 2, 3)]
                      for r in RANK_LABELS], dtype=object)
    names = np.vstack([np.full((1, 6), "", dtype=object), names])
    return np.asarray(names[ranks, suits + 2])


def _card_texts(log: CoupLog) -> tuple[list[str], list[str]]:
    text = _card_names(log.ranks, log.suits)
    rows = np.arange(len(log))

    def third(drew: NDArray[np.bool_], card: NDArray[Any]) -> NDArray[Any]:
        return np.where(drew, " " + card, "").astype(object)

    player = text[:, 0] + " " + text[:, 2] + third(log.player_cards == 3, text[:, 4])
    banker = text[:, 1] + " " + text[:, 3] + third(log.banker_cards == 3, text[rows, log.banker_third_slot()])
    return player.tolist(), banker.tolist()


def write_log(log: CoupLog, out: TextIO, *, header: bool = True, chunk: int = 65_536) -> None:
    """Write ``log`` as CSV with a header: ``shoe`` and ``burn`` (if any), ``player``, ``banker``, then its labels.

    ``read_log`` reads the result back into an equal log. A simulator that writes its coups a block at a time
    passes ``header=False`` after the first block (the blocks carry the same labels).

    >>> import sys
    >>> write_log(CoupLog.from_dealt(np.array([[48, 20, 33, 21, 0, 0]]), codes=[92]), sys.stdout)
    player,banker,winner,player_total,banker_total
    Ks 9h,6s 6h,player,9,2
    """
    labels = [name for name in LABELS if name in log.labels]
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow([*(["shoe"] if log.shoe is not None else []), *(["burn"] if log.burn_ranks is not None else []),
                         "player", "banker", *labels])
    for start in range(0, len(log), chunk):
        part = _slice(log, start, min(len(log), start + chunk))
        player, banker = _card_texts(part)
        columns: list[Sequence[str]] = []
        if part.shoe is not None:
            columns.append([part.shoe_names[s] for s in part.shoe.tolist()])
        if part.burn_ranks is not None and part.burn_suits is not None:
            shown = _card_names(part.burn_ranks, part.burn_suits).tolist()
            columns.append([" ".join(c for c in row if c) for row in shown])
        columns += [player, banker]
        columns += [[label_text(name, v) for v in part.labels[name].tolist()] for name in labels]
        writer.writerows(zip(*columns, strict=True))


def label_text(name: str, value: int) -> str:
    """A label's value as the log writes it (``""`` when missing)."""
    if value == MISSING:
        return ""
    if name == "winner":
        return OUTCOMES[value]
    if name.endswith("_total"):
        return str(value)
    return "true" if value else "false"


def _slice(log: CoupLog, start: int, stop: int) -> CoupLog:
    cut = slice(start, stop)
    return CoupLog(log.ranks[cut], log.suits[cut], log.player_cards[cut], log.banker_cards[cut],
                   None if log.shoe is None else log.shoe[cut], log.shoe_names,
                   None if log.lines is None else log.lines[cut], {k: v[cut] for k, v in log.labels.items()},
                   {k: (v[cut], d[cut]) for k, (v, d) in log.nets.items()}, log.columns, log.ignored,
                   None if log.burn_ranks is None else log.burn_ranks[cut],
                   None if log.burn_suits is None else log.burn_suits[cut])


BLOCK = 65_536
"""Coups per block of the vectorised passes (keeps the per-card arrays to a few tens of MB)."""


@dataclass(frozen=True, eq=False, slots=True)
class ShoeOrder:
    """The coups of a log shoe by shoe: ``order``, indices into the log, each shoe's coups together; ``first``, in
    that order, whether the coup opens its shoe; ``number``, in the log's order, each coup's number in its shoe
    (from 1); ``shoes``: how many (``None`` without a shoe column)."""

    order: NDArray[np.int64]
    first: NDArray[np.bool_]
    number: NDArray[np.int64]
    shoes: int | None


def shoe_order(log: CoupLog, *, first_number: int = 1) -> ShoeOrder:
    """The :class:`ShoeOrder` of ``log``; without shoes its coups are numbered from ``first_number``."""
    n = len(log)
    if log.shoe is None:
        return ShoeOrder(np.arange(n), np.ones(n, dtype=bool), np.arange(first_number, first_number + n), None)
    ascending = bool((log.shoe[1:] >= log.shoe[:-1]).all())  # a simulator's log: its coups in shoe order
    order = np.arange(n) if ascending else np.argsort(log.shoe, kind="stable")
    sorted_shoe = log.shoe[order]
    first = np.ones(n, dtype=bool)
    first[1:] = sorted_shoe[1:] != sorted_shoe[:-1]
    starts = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    number = np.empty(n, dtype=np.int64)
    number[order] = np.arange(n) - starts + 1
    return ShoeOrder(order, first, number, len(log.shoe_names))


def violation(log: CoupLog, shoes: ShoeOrder, i: int, message: str) -> Violation:
    """The violation ``message`` of coup ``i`` of the log, which it names: ``"coup 12 of shoe 3: ..."``."""
    name = log.shoe_name(i)
    line = None if log.lines is None else int(log.lines[i])
    place = f"coup {int(shoes.number[i])}" + (f" of shoe {name}" if name is not None else "")
    return Violation(i, line, name, int(shoes.number[i]), f"{place}: {message}")


def kind_counts(kinds: NDArray[Any], n_kinds: int, shift: int = 1) -> NDArray[np.int32]:
    """Counts per kind of each row of ``kinds`` (b, slots; kind ``k`` written ``k + 1 - shift``, less for none)."""
    return counts_by(np.arange(kinds.shape[0]), kinds, kinds.shape[0], n_kinds, shift=shift)


def counts_by(group: NDArray[Any], kinds: NDArray[Any], groups: int, n_kinds: int, *,
              shift: int = 1) -> NDArray[np.int32]:
    """:func:`kind_counts` added up by group (``group``: each row's, 0..groups-1): shape (groups, n_kinds)."""
    fast = compiled_loops(kinds.size)
    if fast is not None:
        out = np.empty((groups, n_kinds), dtype=np.int32)
        fast.group_counts(np.ascontiguousarray(group), np.ascontiguousarray(kinds), shift, out)
        return out
    width = n_kinds + 1
    index_type = np.int32 if groups * width < 2**31 else np.int64
    offset: NDArray[Any] = group.astype(index_type) * width + shift
    flat = kinds.astype(index_type) + offset[:, None]
    counts = np.bincount(flat.ravel(), minlength=groups * width).reshape(groups, width)[:, 1:]
    return np.asarray(counts, dtype=np.int32)


def _before_in_shoe(own: NDArray[Any], opens: NDArray[np.bool_], carry: NDArray[Any]) -> NDArray[Any]:
    """The sum of ``own`` over the earlier rows of each row's shoe (``opens``: the row opens its shoe; ``carry``:
    the sum of the earlier blocks' rows of the shoe the block goes on with)."""
    cum = np.cumsum(own, axis=0, dtype=own.dtype)
    cum -= own
    latest = np.maximum.accumulate(np.where(opens, np.arange(len(own)), 0))
    before: NDArray[Any] = cum - np.take(cum, latest, axis=0)
    if not opens[0]:
        continuing = int(np.argmax(opens)) if opens.any() else len(own)
        before[:continuing] += carry
    return before


def bounds(n: int, block: int = BLOCK, offset: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of the blocks of ``n`` rows, cut where a longer walk's rows ``offset`` on are cut.

    >>> list(bounds(5, 4)), list(bounds(5, 4, offset=2))
    ([(0, 4), (4, 5)], [(0, 2), (2, 5)])
    """
    start = 0
    while start < n:
        stop = min(n, start + block - (offset + start) % block)
        yield start, stop
        start = stop


def seen_before(kinds: NDArray[Any], burn: NDArray[Any] | None, n_kinds: int, first: NDArray[np.bool_], *,
                shift: int = 1, block: int = BLOCK,
                offset: int = 0) -> Iterator[tuple[int, int, NDArray[np.int32], NDArray[np.int32]]]:
    """Walk coups in shoe order (``kinds``, ``burn``: each coup's hand and burn cards as :func:`kind_counts` takes
    them; ``first``: the coup opens its shoe) and yield ``(start, stop, before, own)`` per block cut by
    :func:`bounds`: ``before[i]`` counts the cards of each kind seen in coup ``start + i``'s shoe before its
    hands (its own burn too), ``own[i]`` the coup's own cards (its burn included).

    >>> kinds = np.array([[0, 1, 2, 3, -1, -1], [0, 0, 4, 5, 6, -1]])  # two coups of one shoe
    >>> [before.tolist() for _, _, before, _ in seen_before(kinds, None, 7, np.array([True, False]))]
    [[[0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 0, 0, 0]]]
    """
    carry = np.zeros(n_kinds, dtype=np.int32)
    for start, stop in bounds(len(kinds), block, offset):
        own = kind_counts(kinds[start:stop], n_kinds, shift)
        burned = None
        if burn is not None:
            burned = _sparse_counts(burn[start:stop], n_kinds, shift)
            own += burned
        before = _before_in_shoe(own, first[start:stop], carry)
        carry = before[-1] + own[-1]
        yield start, stop, before if burned is None else before + burned, own


def _sparse_counts(values: NDArray[Any], n_kinds: int, shift: int) -> NDArray[np.int32]:
    """:func:`kind_counts` of rows that are mostly empty (the burn cards a log shows)."""
    counts = np.zeros((len(values), n_kinds), dtype=np.int32)
    rows, slots = np.nonzero(values >= 1 - shift)
    np.add.at(counts, (rows, values[rows, slots].astype(np.intp) - 1 + shift), 1)
    return counts


def compositions(log: CoupLog, shoes: ShoeOrder, counts: tuple[int, ...], *, deplete: bool = True,
                 block: int = BLOCK, offset: int = 0) -> Iterator[tuple[int, int, NDArray[np.int64],
                                                                         NDArray[np.int64], NDArray[np.int64]]]:
    """Yield ``(start, stop, composition, dealt, size)`` per block of coups in shoe order (cut by :func:`bounds`):
    the rank counts left before each coup (``counts`` itself when the shoe is not ``deplete``-d, as an infinite
    deck), the cards its shoe had shown before it, and the composition's size."""
    base = np.asarray(counts, dtype=np.int64)
    full = int(base.sum())
    ranks = np.take(log.ranks, shoes.order, axis=0)
    burn = None if log.burn_ranks is None else np.take(log.burn_ranks, shoes.order, axis=0)
    fast = compiled_loops(len(ranks))
    if fast is not None:
        walk = _compiled_walk(fast, ranks, burn, shoes.first, base, bounds(len(ranks), block, offset))
    else:
        walk = ((start, stop, np.asarray(base - before, dtype=np.int64), _row_sums(before))
                for start, stop, before, _ in seen_before(ranks, burn, 13, shoes.first, shift=0, block=block,
                                                          offset=offset))
    for start, stop, left, dealt in walk:
        if deplete:
            yield start, stop, left, dealt, full - dealt
        else:
            yield start, stop, np.broadcast_to(base, left.shape), dealt, np.full(len(dealt), full, dtype=np.int64)


def _compiled_walk(fast: ModuleType, ranks: NDArray[np.int8], burn: NDArray[np.int8] | None,
                   first: NDArray[np.bool_], base: NDArray[np.int64],
                   cuts: Iterator[tuple[int, int]]) -> Iterator[tuple[int, int, NDArray[np.int64], NDArray[np.int64]]]:
    """``(start, stop, left, dealt)`` of :func:`compositions` by the compiled loop (the same integers)."""
    seen = np.zeros(len(base), dtype=np.int64)
    shown = np.zeros((len(ranks), 0), dtype=np.int8) if burn is None else burn
    for start, stop in cuts:
        left, dealt = np.empty((stop - start, len(base)), dtype=np.int64), np.empty(stop - start, dtype=np.int64)
        fast.compositions(ranks[start:stop], shown[start:stop], first[start:stop], base, seen, left, dealt)
        yield start, stop, left, dealt


def _row_sums(counts: NDArray[np.int32]) -> NDArray[np.int64]:
    """The sum of each row of ``counts`` (small whole numbers: exact in floats; BLAS adds them fastest)."""
    return (counts.astype(np.float64) @ np.ones(counts.shape[1])).astype(np.int64)


def card_kinds(ranks: NDArray[np.int8], suits: NDArray[np.int8]) -> NDArray[np.int64]:
    """Cards as the 52 kinds ``4 * (rank - 1) + suit`` (-1 for no card, or a card without its suit)."""
    return np.asarray(np.where((suits >= 0) & (ranks > 0), (ranks.astype(np.int64) - 1) * 4 + suits, -1))


def suit_compositions(log: CoupLog, shoes: ShoeOrder, suited: tuple[tuple[int, ...], ...], *,
                      block: int = BLOCK, offset: int = 0) -> Iterator[NDArray[np.int64]]:
    """The counts by rank and suit (b, 13, 4) left before each coup, block by block as :func:`compositions` walks
    them (every card of the log carries its suit)."""
    base = np.asarray(suited, dtype=np.int64).reshape(52)
    kinds = card_kinds(log.ranks, log.suits)[shoes.order]
    burn = None if log.burn_ranks is None or log.burn_suits is None else \
        card_kinds(log.burn_ranks, log.burn_suits)[shoes.order]
    for _, _, before, _ in seen_before(kinds, burn, 52, shoes.first, block=block, offset=offset):
        yield np.asarray(base - before, dtype=np.int64).reshape(-1, 13, 4)
