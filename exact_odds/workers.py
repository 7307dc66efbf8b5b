"""Worker processes for the analyses that deal many shoes (``study``, ``count``): a pool that
stops cleanly.

The pool's processes are spawned (a fresh interpreter each, safe beside threads), use one
BLAS thread each (the pool supplies the parallelism), and ignore Ctrl-C: the terminal sends
SIGINT to every process of the foreground group, and without this each worker would print
its own ``KeyboardInterrupt`` traceback. The parent alone is interrupted; leaving the
``with`` block terminates the workers, so nothing is left running.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables that set a BLAS library's threads (one per worker)."""


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Worker processes started inside this block use one BLAS thread each."""
    saved = {k: os.environ.get(k) for k in BLAS_THREADS}
    os.environ.update({k: "1" for k in BLAS_THREADS})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the parent, which terminates the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def worker_pool(workers: int) -> Iterator[Any]:
    """A ``multiprocessing`` pool of ``workers`` spawned processes that ignore Ctrl-C, terminated
    when the block ends, however it ends.

    SIGINT is blocked in this thread while the workers start, so that they inherit the block
    and even a worker still importing never sees it; a Ctrl-C meanwhile reaches this process as
    soon as the pool exists to be terminated. Only this process reports the interruption.
    """
    import multiprocessing

    mask = hasattr(signal, "pthread_sigmask")
    saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if mask else set()
    # Ignored too: a spawned interpreter that starts with SIGINT ignored keeps it ignored (the block
    # alone did not reach a worker still importing); a Ctrl-C meanwhile stays pending here, blocked.
    main = threading.current_thread() is threading.main_thread()
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        with single_threaded_blas():
            pool = multiprocessing.get_context("spawn").Pool(workers, initializer=ignore_interrupts)
        if main:
            signal.signal(signal.SIGINT, handler)
        with pool:
            if mask:
                signal.pthread_sigmask(signal.SIG_SETMASK, saved)
            yield pool
    finally:
        if main:
            signal.signal(signal.SIGINT, handler)
        if mask:
            signal.pthread_sigmask(signal.SIG_SETMASK, saved)
