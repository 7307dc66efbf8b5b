"""A study's tasks: dealing and evaluating some shoes, run in this process, in worker processes beside
it, or on Dask (:func:`gather`).

Each task writes its records into its own slot of a store (:mod:`exact_odds.study.records`) and returns
their sums. ``--workers W`` runs them in this process and W-1 spawned workers (:func:`study_workers`),
which the command line starts first: a worker is ready only after about 0.75 s.
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.analysis.information import Information
from exact_odds.batch import evaluate
from exact_odds.batch.compiled import load, wanted
from exact_odds.bets.main import STANDARD_CONFIG
from exact_odds.core.coup import Detail, Payable, TabulatedBet, tabulate, winner_index
from exact_odds.core.shoe import CARDS_PER_COUP, MIN_CARDS_PER_COUP
from exact_odds.core.tableau import Tableau
from exact_odds.dealing.dealer import compiled_dealer, play_shoes
from exact_odds.dealing.procedure import CARD_CODES, Procedure
from exact_odds.dealing.shuffle import shoe_orders
from exact_odds.study.cluster import connect
from exact_odds.study.edge_sorting import coup_values
from exact_odds.study.records import (
    CoupRecords,
    Layout,
    PartSums,
    RecordParts,
    RecordStore,
    joined_sums,
    part_sums,
    realised,
)
from exact_odds.study.workers import shared_work, worker_pool

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]


@dataclass(frozen=True, slots=True)
class Dealt:
    """The coups of some shoes: which shoe, where each coup starts, who won, what was not seen."""

    shoe: Array  # (m,) shoe index of each coup
    start: Array  # (m,) position of the coup's first card
    winner: Array  # (m,) 0 banker, 1 player, 2 tie
    unseen: Array  # (m, 13) cards not seen before the coup, by rank
    unseen_cards: Array | None  # (m, 52) the same by card code, at Detail.SUITS
    code: Array  # (m,) the coup's code, flags recorded as far as the dealing detail asks
    first: Array  # (m,) the code (0-51) of the coup's first card


def deal_shoes(seed: int, first: int, stop: int, procedure: Procedure, tableau: Tableau, codes: Sequence[int],
               detail: Detail = Detail.POINTS, *, jit: bool = False) -> Dealt:
    """Deal shoes ``first`` to ``stop - 1`` of a study with the simulator's shoes and dealer (compiled with
    ``jit`` or where :func:`exact_odds.dealing.dealer.compiled_dealer` says: the same coups)."""
    coups = (stop - first) * len(codes) // MIN_CARDS_PER_COUP
    loops = load("exact_odds.dealing.loops") if jit else compiled_dealer(coups, stop - first, len(codes))
    orders = shoe_orders(codes, seed, first, stop, loops=loops)
    play = play_shoes(orders, tableau, procedure, detail, compositions=True, loops=loops)
    shoe, start = play.shoe.astype(np.int64), play.start.astype(np.int64)
    return Dealt(shoe + first, start, winner_index(play.codes), play.unseen(),
                 play.unseen_cards() if detail is Detail.SUITS else None, play.codes.astype(np.int64),
                 orders[shoe, start].astype(np.int64))


@dataclass(frozen=True, slots=True)
class Task:
    """A unit of work: deal and evaluate shoes ``first`` to ``stop - 1`` of a study."""

    seed: int
    first: int
    stop: int
    codes: tuple[int, ...]
    procedure: Procedure
    tableau: Tableau
    bets: bytes  # the bets, and those edge sorting chooses among, packed by pack
    tags: Array  # (13, k)
    count_tags: Array  # (13, c): the counts of one's own
    sorting: Information | None = None  # edge sorting: the groups of the first card
    share: int = 0  # compositions the process running this task evaluates in all (about)
    thresholds: tuple[float, ...] = ()  # the true-count thresholds of the bets with a count
    store: tuple[str, Layout, int] | None = None  # a worker's records: the shared store's path, layout, rows

    def sums(self, part: CoupRecords) -> PartSums:
        """The sums of this task's records."""
        return part_sums(part, self.first, self.stop, self.thresholds,
                         [bool(self.tags[:, j].any()) for j in range(self.tags.shape[1])])

    @property
    def slot(self) -> int:
        """The first row of this task's records in a store: room for the most coups of the shoes before."""
        return self.first * (len(self.codes) // MIN_CARDS_PER_COUP)


def pack(bets: Sequence[Payable], sort_bets: Sequence[Payable]) -> bytes:
    """The tabulated bets and edge sorting's, as the few KB a task carries (a plain pickle takes hundreds)."""
    return zlib.compress(pickle.dumps((tuple(map(tabulate, bets)), tuple(map(tabulate, sort_bets)))))


@lru_cache(maxsize=4)
def unpack(packed: bytes) -> tuple[tuple[TabulatedBet, ...], tuple[TabulatedBet, ...], Array]:
    """The bets and edge sorting's packed by :func:`pack`, and each bet's payout by coup code as floats."""
    bets, sort_bets = pickle.loads(zlib.decompress(packed))
    return bets, sort_bets, np.array([[float(x) for x in t.table] for t in bets], dtype=np.float64)


STUDY_JIT_MIN = 250_000
"""Coups from which a process of a study loads the compiled loops (the ``worth`` of
:func:`exact_odds.batch.compiled.wanted`): they save about 3.5 us a coup and take 0.6 to 1 s to load."""


def run_task(task: Task) -> CoupRecords:
    """Deal and evaluate one task's shoes (runs in a worker process or on a Dask worker)."""
    jit = wanted(task.share, worth=STUDY_JIT_MIN)
    bets, sort_bets, payouts = unpack(task.bets)
    detail = max((b.detail for b in bets), default=Detail.POINTS)
    dealt = deal_shoes(task.seed, task.first, task.stop, task.procedure, task.tableau, task.codes, detail, jit=jit)
    counts = dealt.unseen
    seen_ranks = np.bincount(task.codes, minlength=CARD_CODES).reshape(13, 4).sum(axis=1) - counts
    suits = dealt.unseen_cards.reshape(-1, 13, 4) if dealt.unseen_cards is not None else None
    ev = evaluate(counts, bets=bets, tableau=task.tableau, suits=suits, jit=jit)
    if task.sorting is not None:
        values, choices = coup_values(counts, task.sorting, sort_bets, task.tableau)
    else:  # no columns: the records of a study without edge sorting
        values, choices = np.zeros((len(counts), 0)), np.zeros((len(counts), 0), dtype=np.int8)
    return CoupRecords(dealt.shoe, counts.sum(axis=1), ev.edges(), ev.favourable(), seen_ranks @ task.tags,
                       ev.probabilities(), dealt.winner, realised(bets, payouts, dealt.code), dealt.first,
                       seen_ranks @ task.count_tags, values, choices)


def _run_shared(task: Task) -> tuple[int, PartSums]:
    assert task.store is not None
    part = run_task(task)
    RecordStore.attached(*task.store).put(part, task.slot)
    return len(part.shoe), task.sums(part)


def _run_local(own: RecordStore, shared: RecordStore, task: Task) -> tuple[int, PartSums]:
    """In this process, beside workers: run one task into ``own``, its player EVs into ``shared`` too."""
    part = run_task(task)
    own.put(part, task.slot)
    shared.arrays["edges"][task.slot:task.slot + len(part.edges)] = part.edges
    return len(part.shoe), task.sums(part)


def gather(tasks: Sequence[Task], own: RecordStore, shared: RecordStore | None, *, workers: Workers | None,
           dask: str | None, progress: Callable[[int], None]) -> tuple[RecordParts, PartSums]:
    """Run the tasks in this process and the ``workers`` (each task's records in its slot of ``own`` or
    ``shared``), on Dask, or here alone; their records and sums in the order of the shoes."""
    if workers is not None and shared is not None:
        done: dict[int, tuple[int, PartSums]] = {}
        here: set[int] = set()  # the first shoes of the tasks run in this process

        def ran(task: Task) -> tuple[int, PartSums]:
            here.add(task.first)
            return _run_local(own, shared, task)

        for i, found in shared_work(workers.pool, workers.processes, _run_shared, ran, tasks):
            done[i] = found
            progress(tasks[i].stop - tasks[i].first)
        pieces = [(own if t.first in here else shared, t.slot, done[i][0]) for i, t in enumerate(tasks)]
        return RecordParts(own, pieces), joined_sums([done[i][1] for i in range(len(tasks))])
    at, sums, pieces = 0, list[PartSums](), list[tuple[RecordStore, int, int]]()
    for task, part in zip(tasks, _results(tasks, dask), strict=True):
        own.put(part, at)
        pieces.append((own, at, len(part.shoe)))
        at += len(part.shoe)
        sums.append(task.sums(part))
        progress(task.stop - task.first)
    return RecordParts(own, pieces), joined_sums(sums)


def _results(tasks: Sequence[Task], dask: str | None) -> Iterator[CoupRecords]:
    if dask is not None:
        with connect(dask) as client:
            for future in client.map(run_task, tasks, pure=False):
                yield future.result()
        return
    yield from map(run_task, tasks)


def warm_up(share: int) -> None:
    """In a worker process, as it starts: one small evaluation of the main bets, tabulated as tasks carry
    them (the compiled loops loaded if they will be used, the plans of a study of the main bets made)."""
    evaluate(np.full((1, 13), 4, dtype=np.int64), bets=map(tabulate, STANDARD_CONFIG.bets),
             jit=wanted(share, worth=STUDY_JIT_MIN))


SHOES_PER_TASK = 400
"""The most shoes dealt and evaluated per task: shoes are dealt in lockstep, so larger tasks spend less
on each round of the dealer, up to the size whose arrays stay in cache."""
TASK_CARDS = SHOES_PER_TASK * 416
"""The most cards per task, those of :data:`SHOES_PER_TASK` shoes of 8 decks: shoes of more cards come
fewer to a task, so that its arrays stay near 40 MB whatever the shoe."""


def task_size(shoes: int, workers: int, cards: int) -> int:
    """Shoes per task for shoes of ``cards`` cards: :data:`SHOES_PER_TASK` (fewer past 416 cards), or
    with several workers fewer, so that each gets four tasks at least. The results do not depend on it."""
    most = max(1, min(SHOES_PER_TASK, TASK_CARDS // max(cards, 1)))
    return most if workers <= 1 else max(1, min(most, -(-shoes // (4 * workers))))


def process_share(shoes: int, cards: int, processes: int) -> int:
    """About how many coups each of ``processes`` processes evaluates (:func:`exact_odds.batch.compiled.wanted`)."""
    return shoes * cards // CARDS_PER_COUP // max(1, processes)


@dataclass(frozen=True, slots=True)
class Workers:
    """Worker processes started for a study: a ``multiprocessing`` pool of ``processes`` processes."""

    pool: Any
    processes: int


@contextmanager
def study_workers(workers: int, shoes: int, cards: int, per_task: int | None = None) -> Iterator[Workers | None]:
    """The processes that work beside this one on ``shoes`` shoes of ``cards`` cards in tasks of ``per_task``
    shoes (default :func:`task_size`), ``workers`` in all (None: this process alone); each runs :func:`warm_up`
    as it starts, and all are terminated when the block ends."""
    tasks = -(-shoes // (per_task or task_size(shoes, workers, cards)))
    processes = min(workers, tasks) - 1
    if processes < 1:
        yield None
        return
    with worker_pool(processes, warm_up, process_share(shoes, cards, workers)) as pool:
        yield Workers(pool, processes)
