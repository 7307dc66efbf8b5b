"""The worker pool: its processes keep out of Ctrl-C from their start and use one BLAS thread
each; the parent never ignores Ctrl-C, and one arriving while the pool starts is raised once
the pool exists (tests/test_cli_signals.py signals real commands). The command line, in a process without
NumPy loaded, runs one BLAS thread unless the user chose."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from exact_odds.study.workers import (
    BLAS_THREADS,
    _held_interrupts,
    mapped,
    one_thread_unless_chosen,
    shared_buffer,
    shared_work,
    worker_pool,
)

POSIX = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")


@POSIX
def test_workers_block_and_ignore_ctrl_c_and_the_parent_neither() -> None:
    handler = signal.getsignal(signal.SIGINT)
    with worker_pool(2) as pool:
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())
        assert signal.getsignal(signal.SIGINT) == handler
        assert signal.SIGINT in pool.apply(signal.pthread_sigmask, (signal.SIG_BLOCK, ()))  # inherited at spawn
        assert pool.apply(signal.getsignal, (signal.SIGINT,)) == signal.SIG_IGN
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())
    assert signal.getsignal(signal.SIGINT) == handler


def test_workers_use_one_blas_thread_and_the_parent_keeps_its_setting() -> None:
    before = {k: os.environ.get(k) for k in BLAS_THREADS}
    with worker_pool(1, importlib.import_module, "numpy") as pool:  # OpenBLAS starts its threads on import
        assert pool.apply(os.getenv, ("OPENBLAS_NUM_THREADS",)) == "1"
        if Path("/proc/self/task").exists():
            assert len(pool.apply(os.listdir, ("/proc/self/task",))) == 1
    assert {k: os.environ.get(k) for k in BLAS_THREADS} == before


def test_a_failed_preparation_leaves_the_work_to_the_tasks() -> None:
    """A preparation that raises neither kills the worker (the pool would start another for ever) nor
    hides the failure: a task that needs the same thing meets it and reports it here."""
    with worker_pool(1, importlib.import_module, "exact_odds_no_such_module") as pool:
        assert pool.apply_async(os.getpid).get(timeout=60) != os.getpid()
        with pytest.raises(ModuleNotFoundError, match="exact_odds_no_such_module"):
            pool.apply_async(importlib.import_module, ("exact_odds_no_such_module",)).get(timeout=60)


def test_workers_run_their_preparation_first(tmp_path: Path) -> None:
    with worker_pool(1, os.chdir, str(tmp_path)) as pool:
        assert pool.apply(os.getcwd) == str(tmp_path)


@POSIX
def test_a_ctrl_c_while_the_pool_starts_is_held_then_raised() -> None:
    reached = False
    with pytest.raises(KeyboardInterrupt), _held_interrupts() as release:
        signal.raise_signal(signal.SIGINT)  # held: the pool is not there yet to be terminated
        reached = True
        release()
    assert reached
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_nothing_is_raised_without_a_ctrl_c() -> None:
    with _held_interrupts() as release:
        release()
        release()  # once only
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_pool_is_terminated_when_the_block_is_interrupted() -> None:
    with pytest.raises(KeyboardInterrupt), worker_pool(1) as pool:
        processes = list(pool._pool)
        raise KeyboardInterrupt
    for process in processes:
        process.join(10)
        assert not process.is_alive()


def test_a_shared_buffer_is_seen_by_the_workers_and_removed_however_the_block_ends() -> None:
    with shared_buffer(1 << 16) as (path, buffer), worker_pool(1) as pool:
        view = memoryview(buffer)
        assert pool.apply(_write_through, (path,)) == 0
        assert bytes(view[:3]) == b"abc"
        view.release()
    assert not os.path.exists(path)
    with pytest.raises(KeyboardInterrupt), shared_buffer(10) as (path, _):
        raise KeyboardInterrupt
    assert not os.path.exists(path)


def _write_through(path: str) -> int:
    """In a worker: write b"abc" at the start of the shared buffer; return what was there."""
    buffer = mapped(path)
    before = buffer[0]
    buffer[:3] = b"abc"
    return before


def test_shared_work_does_each_item_once_the_pool_from_the_first_this_process_from_the_last() -> None:
    items = list(range(40))
    with worker_pool(1) as pool:
        pool.apply(int)  # its process is ready
        done = list(shared_work(pool, 1, _square_where, _square_where_slowly, items))
    assert sorted(i for i, _ in done) == items
    assert all(square == items[i] ** 2 for i, (square, _) in done)
    here = [i for i, (_, pid) in done if pid == os.getpid()]
    assert here and 39 in here and 0 not in here
    assert len(here) < len(items)
    assert all(i > j for i in here for j in items if j not in here)  # the ones done here are the last ones


def test_the_pool_is_given_no_item_before_its_process_is_ready(tmp_path: Path) -> None:
    """A worker still preparing holds up nothing: this process takes every item meanwhile (without the
    wait, the pool would hold the first two until its preparation ends, here when a timer lets it)."""
    go = tmp_path / "go"
    timer = threading.Timer(10, go.touch)
    timer.start()
    try:
        with worker_pool(1, _wait_for, str(go)) as pool:
            done = list(shared_work(pool, 1, _square_where, _square_where, list(range(6))))
    finally:
        timer.cancel()
    assert sorted(i for i, _ in done) == list(range(6))
    assert all(pid == os.getpid() for _, (_, pid) in done)


def _wait_for(path: str) -> None:
    """A worker's preparation that ends when the file ``path`` exists."""
    while not os.path.exists(path):
        time.sleep(0.01)


def _square_where(x: int) -> tuple[int, int]:
    """x squared, and the process that found it."""
    return x * x, os.getpid()


def _square_where_slowly(x: int) -> tuple[int, int]:
    """:func:`_square_where` taking 20 ms (this process's share: the pool, once ready, takes some)."""
    time.sleep(0.02)
    return _square_where(x)


class _HeldPool:
    """A stand-in for a pool of one process: holds the items given until told to end the oldest."""

    def __init__(self) -> None:
        self.held: list[tuple[int, Any]] = []
        self.given: list[int] = []

    def apply_async(self, remote: Any, args: tuple[int, ...], callback: Any, error_callback: Any) -> None:
        if not args:  # asked whether its process is ready: at once
            callback(None)
            return
        self.given.append(args[0])
        self.held.append((args[0], callback))

    def end_oldest(self) -> None:
        item, callback = self.held.pop(0)
        callback(item)


def test_when_few_items_are_left_the_pool_holds_one_per_process() -> None:
    pool, here, most = _HeldPool(), [], []

    def local(item: int) -> int:  # while this process works on an item, the pool ends one
        here.append(item)
        if pool.held:
            left = 10 - len(pool.given) - len(here)  # given to neither yet
            pool.end_oldest()
            most.append((left, len(pool.held)))
        if len(pool.given) + len(here) == 10:  # all given: the pool ends what it holds
            while pool.held:
                pool.end_oldest()
        return item

    done = dict(shared_work(pool, 1, abs, local, list(range(10))))
    assert sorted(done) == list(range(10)) and sorted(pool.given + here) == list(range(10))
    assert [left for left, _ in most] == [7, 5, 3, 1, 0]
    assert [held for _, held in most] == [2, 2, 2, 1, 0]  # two at a time, then one once two or fewer are left


# The command line run in a fresh process, then NumPy loaded (OpenBLAS starts its threads then): the
# BLAS variables it sees and the threads of the process.
PROBE = """import json, os, sys
from exact_odds.study.workers import BLAS_THREADS
from exact_odds.cli import main
main(["odds", "--decks", "1"])
import numpy
print(json.dumps({k: os.environ.get(k) for k in BLAS_THREADS}))
print(len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else -1)
"""


def _probe(env: dict[str, str]) -> tuple[dict[str, str | None], int]:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, env=env)
    *_, variables, threads = done.stdout.splitlines()
    return json.loads(variables), int(threads)


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}


def test_the_command_line_runs_one_blas_thread() -> None:
    variables, threads = _probe(_clean_env())
    assert variables == dict.fromkeys(BLAS_THREADS, "1")
    if Path("/proc/self/task").exists() and (os.cpu_count() or 1) > 1:
        assert threads == 1


def test_a_users_choice_stands_whole() -> None:
    variables, _ = _probe({**_clean_env(), "OPENBLAS_NUM_THREADS": "2"})
    assert variables == {"OMP_NUM_THREADS": None, "OPENBLAS_NUM_THREADS": "2", "MKL_NUM_THREADS": None}


@pytest.mark.parametrize("chosen", [*BLAS_THREADS, None])
def test_one_thread_unless_any_is_set(chosen: str | None) -> None:
    environ = {"PATH": "/bin"} if chosen is None else {"PATH": "/bin", chosen: "4"}
    assert one_thread_unless_chosen(environ) is (chosen is None)
    expected = {"PATH": "/bin", **dict.fromkeys(BLAS_THREADS, "1")} if chosen is None else {"PATH": "/bin", chosen: "4"}
    assert environ == expected
