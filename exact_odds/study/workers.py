"""Worker processes for the analyses that deal many shoes (``study``, ``count``): a pool that stops
cleanly, memory shared with this process, and one BLAS thread a process.

The pool's processes are spawned and ignore Ctrl-C (the terminal sends it to the whole foreground
group): the parent alone is interrupted, and leaving the ``with`` block terminates the workers. Shared
memory (:func:`shared_buffer`) is a file in ``/dev/shm`` (or the temporary directory), removed when the
block ends. The bulk paths multiply in pieces that stay in cache, where a second BLAS thread gains little
and, spinning, takes two to three times the CPU: so every process, the command line's too, runs one.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import queue
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager, nullcontext, suppress
from functools import lru_cache
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables that set a BLAS library's threads (read once, when NumPy loads it)."""
ONE_THREAD = dict.fromkeys(BLAS_THREADS, "1")
"""Those variables, each set to one thread."""


def one_thread_unless_chosen(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Set every variable of :data:`BLAS_THREADS` to 1 in ``environ`` unless one is set already (the user's
    choice); return whether they were set. Effective before NumPy is imported, and inherited."""
    if any(k in environ for k in BLAS_THREADS):
        return False
    environ.update(ONE_THREAD)
    return True


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Worker processes started inside this block use one BLAS thread each."""
    saved = {k: os.environ.get(k) for k in BLAS_THREADS}
    os.environ.update(ONE_THREAD)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def ignore_interrupts(ready: Callable[..., object] | None = None, *args: Any) -> None:
    """In a worker process: leave Ctrl-C to the parent, then run ``ready(*args)``, the preparation. It only
    saves time, so its failure is left to the first task to meet again (a pool whose initializer raises
    starts a new process for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if ready is not None:
        with suppress(Exception):
            ready(*args)


@contextmanager
def _held_interrupts() -> Iterator[Callable[[], None]]:
    """Hold a Ctrl-C that arrives in the block until the function given is called (or the block ends),
    then restore the handler and raise a Ctrl-C held again."""
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    done: list[bool] = []

    def release() -> None:
        if not done:
            done.append(True)
            signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
            if held:
                signal.raise_signal(signal.SIGINT)

    try:
        yield release
    finally:
        release()


@contextmanager
def _blocked(name: str) -> Iterator[None]:
    """Block the signal called ``name`` in this thread inside the block, where there are signal masks."""
    if not hasattr(signal, "pthread_sigmask") or not hasattr(signal, name):
        yield
        return
    saved = signal.pthread_sigmask(signal.SIG_BLOCK, {getattr(signal, name)})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, saved)


def _start_tracker() -> None:
    """Start multiprocessing's resource tracker now (starting it unblocks SIGINT in its thread, which the
    workers spawned after would inherit), with SIGHUP blocked, which it keeps: a terminal closing
    killed it, and this process's cleanup then printed its successor's tracebacks."""
    with _blocked("SIGHUP"):
        resource_tracker.ensure_running()


@contextmanager
def worker_pool(workers: int, ready: Callable[..., object] | None = None, *args: Any) -> Iterator[Any]:
    """A ``multiprocessing`` pool of ``workers`` spawned processes that ignore Ctrl-C, each running
    ``ready(*args)`` as it starts; terminated when the block ends (a Ctrl-C while it starts is raised
    inside the block)."""
    _start_tracker()
    main = threading.current_thread() is threading.main_thread()  # handlers are set there only
    with _held_interrupts() if main else nullcontext(lambda: None) as release:
        with _blocked("SIGINT"), single_threaded_blas():
            pool = multiprocessing.get_context("spawn").Pool(workers, initializer=ignore_interrupts,
                                                             initargs=(ready, *args))
        with pool:
            release()
            yield pool


SHARED_DIRECTORY = "/dev/shm"
"""Where shared buffers go when there is room: memory, not disk."""


def _shared_directory(size: int) -> str:
    try:
        found = os.statvfs(SHARED_DIRECTORY)
    except OSError:
        return tempfile.gettempdir()
    return SHARED_DIRECTORY if found.f_bavail * found.f_frsize >= size else tempfile.gettempdir()


@contextmanager
def shared_buffer(size: int) -> Iterator[tuple[str, mmap.mmap]]:
    """A buffer of ``size`` zero bytes that workers map too by the path given (:func:`mapped`)."""
    _start_tracker()
    fd, path = tempfile.mkstemp(prefix="exact-odds-shared-", dir=_shared_directory(size))
    name = "/" + os.path.basename(path) if os.path.dirname(path) == SHARED_DIRECTORY else None
    try:
        if name is not None:  # removed by the tracker should this process be killed
            resource_tracker.register(name, "shared_memory")
        os.ftruncate(fd, max(size, 1))
        buffer = mmap.mmap(fd, max(size, 1))
        os.close(fd)
        fd = -1
        yield path, buffer
    finally:
        if fd >= 0:
            os.close(fd)
        os.unlink(path)
        if name is not None:
            resource_tracker.unregister(name, "shared_memory")


@lru_cache(maxsize=2)
def mapped(path: str) -> mmap.mmap:
    """In a worker process: the buffer of :func:`shared_buffer` at ``path`` (mapped once)."""
    with open(path, "r+b") as file:
        return mmap.mmap(file.fileno(), 0)


class _Split:
    """Which items are still to be taken: the pool from the first on, this process from the last on; the
    pool's ``processes`` hold two items each while more than two each are left, then one."""

    def __init__(self, items: int, processes: int) -> None:
        self.lock = threading.Lock()
        self.bounds = [0, items]  # the next item for the pool, one past the next for this process
        self.given = 0  # items given to the pool and not ended
        self.processes = processes

    def for_pool(self) -> int | None:
        """The next item to give the pool, or None (none left, or few left and the pool holds enough)."""
        with self.lock:
            first, stop = self.bounds
            if first >= stop or (self.given >= self.processes and stop - first <= 2 * self.processes):
                return None
            self.bounds[0] += 1
            self.given += 1
            return first

    def ended_in_pool(self) -> None:
        """One item given to the pool has ended."""
        with self.lock:
            self.given -= 1

    def for_here(self) -> int | None:
        """The next item for this process, or None (none left)."""
        with self.lock:
            if self.bounds[0] >= self.bounds[1]:
                return None
            self.bounds[1] -= 1
            return self.bounds[1]


def shared_work(pool: Any, processes: int, remote: Callable[[T], R], local: Callable[[T], R],
                items: Sequence[T]) -> Iterator[tuple[int, R]]:
    """Work on ``items`` in the ``processes`` processes of ``pool`` (``remote``) and in this process
    (``local``), the pool from the first on, this process from the last on; yield (index, result) as
    each ends (a worker's error is raised here).

    The pool is given items only once its processes answer (ready after their preparation), so no item
    waits for a worker still starting. Then the pool's result thread keeps two items given to each
    process, one when few are left, so that no item waits in the pool while this process has run out.
    """
    split = _Split(len(items), processes)
    ended: queue.SimpleQueue[tuple[int, Any, BaseException | None]] = queue.SimpleQueue()

    def give() -> None:
        index = split.for_pool()
        if index is None:
            return

        def ok(value: R) -> None:
            split.ended_in_pool()
            ended.put((index, value, None))
            give()

        def failed(err: BaseException) -> None:
            ended.put((index, None, err))

        try:
            pool.apply_async(remote, (items[index],), callback=ok, error_callback=failed)
        except ValueError as err:  # the pool is closing: this process is leaving the block
            failed(err)

    def answered(_: object) -> None:
        give()
        give()

    for _ in range(processes):
        with suppress(ValueError):  # the pool is closing: this process is leaving the block
            pool.apply_async(int, (), callback=answered, error_callback=answered)  # ready when it answers
    done = 0
    while done < len(items):
        try:
            found, value, err = ended.get_nowait()
        except queue.Empty:
            index = split.for_here()
            if index is not None:
                done += 1
                yield index, local(items[index])
                continue
            found, value, err = ended.get()  # nothing left to take: wait for the pool
        if err is not None:
            raise err
        done += 1
        yield found, value
