"""A study's records of every coup, where they are kept, and the sums made of each task's part.

The records are kept in one array per field, sized for the most coups the shoes can deal, in shared
memory with worker processes; each task writes its rows into its own slot, joined in the order of the
shoes only when asked for. The sums are made where a task runs, as exact parts and per-shoe sums, so
the printed figures are the same floats, bit for bit, whatever the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.core.coup import FLAGS_AT, PLAYER_PAIR, TabulatedBet
from exact_odds.core.stats import exact_parts, exact_sum, sum_exact_parts
from exact_odds.study.workers import mapped, shared_buffer, shared_work

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.study.tasks import Workers

    Array = npt.NDArray[Any]

DECK = 52
"""Cards per deck: a true count is the running count per deck unseen."""
ALIGN = 64
"""Bytes each field's array starts on in a shared buffer."""
QUANTILES = (0.0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0)
"""The quantiles of each bet's player EVs a study reports."""
HISTOGRAM_BINS = 20
"""The bins of the histogram of each bet's player EVs (equal, between the least and the greatest)."""


@dataclass(frozen=True, slots=True)
class CoupRecords:
    """One row per coup dealt, in the order of the shoes and of the deal (m coups, k bets): ``unseen``
    cards; ``edges`` (m, k), each bet's player EV (float, sign exact); ``favourable``, EV > 0 exactly;
    ``running`` counts; ``probabilities`` (m, 3) and ``winner``: banker, player, tie; ``results``, what one
    unit on each bet paid; ``first``, the first card's code (0-51); ``count_running`` (m, c), the counts
    of one's own; ``sort_values`` and ``sort_choices``: :func:`exact_odds.study.edge_sorting.coup_values`."""

    shoe: Array
    unseen: Array
    edges: Array
    favourable: Array
    running: Array
    probabilities: Array
    winner: Array
    results: Array
    first: Array
    count_running: Array
    sort_values: Array
    sort_choices: Array

    def true_counts(self, bet: int) -> Array:
        """The running count of bet number ``bet`` per deck unseen."""
        return true_counts(self.running[:, bet], self.unseen)


def true_counts(running: Array, unseen: Array) -> Array:
    """The running counts ``running`` (m,) per deck of the ``unseen`` cards (m,)."""
    return np.asarray(running * DECK / unseen, dtype=np.float64)


Layout = tuple[tuple[str, str, int | None], ...]
"""Each field of the records: name, dtype, columns (None: one value a coup)."""


FIGURE_FIELDS = ("unseen", "edges", "favourable", "running")
"""The fields a study's own figures may read (to give a sum of zero its sign)."""


def record_layout(bets: int, counts: int, sort_columns: tuple[int, int], every: bool = True) -> Layout:
    """The fields of the records of ``bets`` bets, ``counts`` counts of one's own and edge sorting's
    ``sort_columns`` (values, choices; (0, 0) without it): ``every`` field, or only :data:`FIGURE_FIELDS`."""
    fields = (("shoe", "i8", None), ("unseen", "i8", None), ("edges", "f8", bets), ("favourable", "?", bets),
              ("running", "i8", bets), ("probabilities", "f8", 3), ("winner", "i8", None), ("results", "f8", bets),
              ("first", "i8", None), ("count_running", "i8", counts), ("sort_values", "f8", sort_columns[0]),
              ("sort_choices", "i1", sort_columns[1]))
    return fields if every else tuple(field for field in fields if field[0] in FIGURE_FIELDS)


def _shape(rows: int, columns: int | None) -> tuple[int, ...]:
    return (rows,) if columns is None else (rows, columns)


def _offsets(layout: Layout, rows: int) -> tuple[list[int], int]:
    """Where each field starts in a buffer of ``rows`` rows, and the buffer's bytes."""
    starts, at = [], 0
    for _, dtype, columns in layout:
        starts.append(at)
        at += -(-math.prod(_shape(rows, columns)) * np.dtype(dtype).itemsize // ALIGN) * ALIGN
    return starts, at


class RecordStore:
    """The records of a study being filled: one array per field, with room for ``rows`` coups."""

    def __init__(self, arrays: dict[str, Array]) -> None:
        self.arrays = arrays

    @staticmethod
    def private(layout: Layout, rows: int) -> RecordStore:
        """A store in this process's memory (pages are taken as rows are written)."""
        return RecordStore({name: np.empty(_shape(rows, columns), dtype=dtype) for name, dtype, columns in layout})

    @staticmethod
    def over(buffer: Any, layout: Layout, rows: int) -> RecordStore:
        """A store viewing ``buffer`` (of the bytes :func:`_offsets` gives at least)."""
        starts, _ = _offsets(layout, rows)
        return RecordStore({name: np.frombuffer(buffer, dtype=dtype, count=math.prod(_shape(rows, columns)),
                                                offset=start)
                            .reshape(_shape(rows, columns))
                            for (name, dtype, columns), start in zip(layout, starts, strict=True)})

    @staticmethod
    def attached(path: str, layout: Layout, rows: int) -> RecordStore:
        """In a worker process: the shared store at ``path`` (:func:`records_store`)."""
        return RecordStore.over(mapped(path), layout, rows)

    def put(self, part: CoupRecords, at: int) -> None:
        """Write the rows of ``part`` from row ``at`` on."""
        for name, array in self.arrays.items():
            values = getattr(part, name)
            array[at:at + len(values)] = values

    def take(self, source: RecordStore, first: int, at: int, rows: int) -> None:
        """Copy ``rows`` rows of ``source`` from row ``first`` on to row ``at`` on (``at <= first`` when
        ``source`` is this store: the rows are moved down)."""
        if source is not self or first != at:
            for name, array in self.arrays.items():
                array[at:at + rows] = source.arrays[name][first:first + rows]


Piece = tuple[RecordStore, int, int]
"""The records of one task: the store they are in, their first row there, and their rows."""


class RecordParts:
    """A study's records as its tasks left them (``pieces``, in the order of the shoes), in this
    process's store (``own``) or the workers'; joined in ``own`` when first asked for (rows only move down)."""

    def __init__(self, own: RecordStore, pieces: Sequence[Piece]) -> None:
        self.own = own
        self.pieces = tuple(pieces)
        self.rows = sum(rows for _, _, rows in pieces)

    @property
    def complete(self) -> bool:
        """Whether every field of the records is kept (else only :data:`FIGURE_FIELDS`)."""
        return len(self.own.arrays) == len(CoupRecords.__dataclass_fields__)

    def columns(self) -> dict[str, Array]:
        """Each field kept, every row in order (views of ``own``, the rows moved there once)."""
        at = 0
        for source, first, rows in self.pieces:
            self.own.take(source, first, at, rows)
            at += rows
        self.pieces = ((self.own, 0, at),)
        return {name: array[:at] for name, array in self.own.arrays.items()}

    def joined(self) -> CoupRecords:
        """All the records, in order (:meth:`columns`; only when :attr:`complete`)."""
        return CoupRecords(**self.columns())


def realised(bets: Sequence[TabulatedBet], payouts: Array, codes: Array) -> Array:
    """What one unit on each bet paid on each coup, shape (m, k), from codes dealt at the bets'
    highest detail (each bet reads only the flags its own detail records)."""
    out = np.zeros((len(codes), len(bets)), dtype=np.float64)
    for j, bet in enumerate(bets):
        out[:, j] = payouts[j][codes % PLAYER_PAIR + PLAYER_PAIR * (codes // PLAYER_PAIR & FLAGS_AT[bet.detail])]
    return out


Spread = tuple["Array", "Array", "Array"]
"""A bet's player EVs: their :data:`QUANTILES`, and their histogram's counts and bounds."""

_SpreadPart = tuple[tuple[str, Layout, int], tuple[tuple[int, int], ...], int, bool]
"""Half the spread of a bet in a shared store: the store (path, layout, rows), each task's (first row,
rows), the bet, and whether the half is the histogram (else the quantiles)."""


def _half(edges: Array, histogram: bool) -> tuple[Array, ...]:
    """The histogram's counts and bounds of ``edges``, or their quantiles (``edges`` is reordered)."""
    if histogram:
        return tuple(np.histogram(edges, bins=HISTOGRAM_BINS))
    return (np.quantile(edges, QUANTILES, overwrite_input=True),)


def _gathered(store: RecordStore, slots: Sequence[tuple[int, int]], bet: int) -> Array:
    edges = store.arrays["edges"]
    return np.concatenate([edges[first:first + rows, bet] for first, rows in slots])


def _shared_half(part: _SpreadPart) -> tuple[Array, ...]:
    where, slots, bet, histogram = part
    return _half(_gathered(RecordStore.attached(*where), slots, bet), histogram)


def spreads(parts: RecordParts, workers: Workers | None, shared: tuple[tuple[str, Layout, int], RecordStore] | None,
            bets: int) -> list[Spread]:
    """The spread of each of ``bets`` bets, its quantiles and histogram found in this process and by the
    ``workers`` at once from the ``shared`` store (where, store); here alone without workers."""
    if workers is None or shared is None:
        edges = parts.columns()["edges"]
        return [(np.quantile(edges[:, j], QUANTILES), *np.histogram(edges[:, j], bins=HISTOGRAM_BINS))
                for j in range(bets)]
    where, store = shared
    slots = tuple((first, rows) for _, first, rows in parts.pieces)
    halves = [(where, slots, j, histogram) for histogram in (False, True) for j in range(bets)]
    found = dict(shared_work(workers.pool, workers.processes, _shared_half,
                             lambda half: _half(_gathered(store, slots, half[2]), half[3]), halves))
    return [(found[j][0], found[bets + j][0], found[bets + j][1]) for j in range(bets)]


@contextmanager
def records_store(workers: Workers | None, layout: Layout,
                  rows: int) -> Iterator[tuple[tuple[str, Layout, int], RecordStore] | None]:
    """Where the ``workers`` write their records, in shared memory: what a task needs to find it (path,
    layout, rows) and the store; None without workers."""
    if workers is None:
        yield None
        return
    with shared_buffer(_offsets(layout, rows)[1]) as (path, buffer):
        yield (path, layout, rows), RecordStore.over(buffer, layout, rows)


@dataclass(frozen=True, slots=True)
class PartSums:
    """What the statistics need of the coups of some shoes: per bet, the exact parts of sums of player EVs,
    all (``edges``), of the ``favourable`` coups, and per true-count threshold (coups, parts; none without a
    count); ``shoes`` (shoes, 7), per shoe its coups, the sums of the three probabilities and the wins."""

    coups: int
    edges: tuple[Array, ...]
    favourable: tuple[int, ...]
    favourable_edges: tuple[Array, ...]
    thresholds: tuple[tuple[tuple[int, Array], ...], ...]
    shoes: Array


def part_sums(part: CoupRecords, first: int, stop: int, thresholds: Sequence[float],
              counted: Sequence[bool]) -> PartSums:
    """The sums of ``part``, the records of shoes ``first`` to ``stop - 1``; ``counted[j]``: bet ``j`` has a count."""
    edges, favourable = part.edges, part.favourable
    by_threshold = []
    for j, has in enumerate(counted):
        true = part.true_counts(j) if has else None
        by_threshold.append(tuple((int(sel.sum()), exact_parts(edges[sel, j]))
                                  for sel in ((true >= t) for t in thresholds)) if true is not None else ())
    shoe, size = part.shoe - first, stop - first
    columns: list[Array] = [np.bincount(shoe, minlength=size).astype(np.float64)]
    columns += [np.bincount(shoe, weights=part.probabilities[:, i], minlength=size) for i in range(3)]
    columns += [np.bincount(shoe, weights=(part.winner == i).astype(np.float64), minlength=size) for i in range(3)]
    return PartSums(len(part.shoe), tuple(exact_parts(edges[:, j]) for j in range(edges.shape[1])),
                    tuple(int(n) for n in favourable.sum(axis=0)),
                    tuple(exact_parts(edges[favourable[:, j], j]) for j in range(edges.shape[1])),
                    tuple(by_threshold), np.stack(columns, axis=1))


def joined_sums(parts: Sequence[PartSums]) -> PartSums:
    """The sums of all the parts, in order (their exact parts are kept, to be added once)."""
    bets, joined = range(len(parts[0].edges)), np.concatenate
    thresholds = tuple(tuple((sum(p.thresholds[j][t][0] for p in parts), joined([p.thresholds[j][t][1] for p in parts]))
                             for t in range(len(parts[0].thresholds[j]))) for j in bets)
    return PartSums(sum(p.coups for p in parts), tuple(joined([p.edges[j] for p in parts]) for j in bets),
                    tuple(sum(p.favourable[j] for p in parts) for j in bets),
                    tuple(joined([p.favourable_edges[j] for p in parts]) for j in bets), thresholds,
                    np.concatenate([p.shoes for p in parts]))


def total(parts: Array, values: Callable[[], Array]) -> float:
    """The sum whose exact parts are ``parts``, as :func:`exact_odds.core.stats.exact_sum` gives it for
    ``values()`` (called only for a total of zero, whose sign depends on the values)."""
    found = sum_exact_parts([parts])
    return found if found else exact_sum(values())
