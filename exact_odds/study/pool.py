"""Where a study's shoes are dealt: tasks of shoes, and the worker processes beside this one.

``--workers W`` runs the tasks (:func:`task_size`) in this process and W-1 spawned workers
(:func:`study_workers`). A worker is ready only after about 0.75 s, so the command line starts them
before it reads the shoe and the bets and hands them to :func:`exact_odds.study.run.run_study`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from exact_odds.core.shoe import CARDS_PER_COUP
from exact_odds.study.tasks import warm_up
from exact_odds.study.workers import worker_pool

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
    """The processes that work beside this one on ``shoes`` shoes of ``cards`` cards in tasks of
    ``per_task`` shoes (default :func:`task_size`), ``workers`` in all (None: this process alone).

    Each starts preparing at once (:func:`exact_odds.study.tasks.warm_up`) with one BLAS thread, and
    they are terminated when the block ends, however it ends.
    """
    tasks = -(-shoes // (per_task or task_size(shoes, workers, cards)))
    processes = min(workers, tasks) - 1
    if processes < 1:
        yield None
        return
    with worker_pool(processes, warm_up, process_share(shoes, cards, workers)) as pool:
        yield Workers(pool, processes)
