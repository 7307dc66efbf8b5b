"""How a command stops on a signal: Ctrl-C (SIGINT), SIGTERM and SIGHUP raise an exception in the
main thread, so that ``with`` blocks clean up (temporary files, workers), and the command line
ends with one line and the status 128 + the signal (see :mod:`exact_odds.cli`).

The exception a handler raises does not always reach the command line as itself, so each signal
is also recorded (:data:`RECEIVED`): raised while a module is imported it may surface as another
error; raised in a callback from compiled code (numba) it is printed as "ignored" and dropped, and
is then delivered again (:func:`_send_again`); swallowed anywhere else, it is sent again every
:data:`WATCH_INTERVAL` until the command line has stopped on it. After Ctrl-C, ``python -m`` would
end the process by SIGINT at exit whatever the status, so the process ends itself (:func:`exit_now`).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread so that ``with`` blocks clean up (temporary files, workers)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that end a command cleanly, as Ctrl-C does (SIGKILL cannot be caught)."""

RECEIVED: list[int] = []
"""The signals received while :func:`signals_end_cleanly` ran, in order (it empties the list first)."""

REDELIVERY_DELAY = 0.01
"""Seconds after a dropped signal's exception before the signal is sent again (time for the callback
that dropped it to return)."""

WATCH_INTERVAL = 1.0
"""Seconds after a signal's exception before the signal is sent again, should the command line not
have stopped on it by then (an exception swallowed on its way), and so on until it has."""


class _Watch:
    """Whether :func:`signals_end_cleanly` is running, and whether the command line has stopped on
    the signals received (:func:`stopping`)."""

    active = False
    stopped = False
    run = 0  # which run of the block a signal came in (a later run must not receive it)


def stopping() -> None:
    """Called by the command line once it stops on a signal: no need to send it again."""
    _Watch.stopped = True


def _send_again(signum: int, delay: float) -> None:
    """In ``delay`` seconds, send ``signum`` to this process again (from a thread), unless the command
    line has stopped on it or the run of :func:`signals_end_cleanly` it came in has ended."""
    run = _Watch.run

    def check() -> None:
        if _Watch.active and not _Watch.stopped and _Watch.run == run:
            os.kill(os.getpid(), signum)

    timer = threading.Timer(delay, check)
    timer.daemon = True
    timer.start()


def _record(signum: int, stop: BaseException) -> None:
    """Record ``signum`` and raise ``stop``; but while the command is already unwinding after an earlier
    signal (cleanup must not be cut short), only record it and look again later."""
    RECEIVED.append(signum)
    _send_again(signum, WATCH_INTERVAL)
    if len(RECEIVED) > 1 and sys.exc_info()[1] is not None:
        return
    raise stop


@contextmanager
def signals_end_cleanly() -> Iterator[None]:
    """While the block runs: Ctrl-C raises KeyboardInterrupt, :data:`TERMINATING` signals raise
    :class:`Terminated`; each is recorded in :data:`RECEIVED`, and sent again if dropped (see the module).

    Signals the process ignores (under ``nohup``) stay ignored, a SIGINT handler other than Python's
    own is left alone, and outside the main thread nothing changes. The previous handlers (and the hook
    of unraisable exceptions) are given back however the block ends.
    """
    previous: dict[int, Any] = {}
    hook = sys.unraisablehook

    def interrupt(signum: int, frame: object) -> None:
        _record(signum, KeyboardInterrupt())

    def terminate(signum: int, frame: object) -> None:
        _record(signum, Terminated(signum))

    def dropped(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)) and RECEIVED:
            # A signal arriving while the timer starts raises here, inside the hook, where Python would
            # print it: it was recorded, and its own watch sends it again (_record), so it is dropped.
            with suppress(KeyboardInterrupt, Terminated):
                _send_again(RECEIVED[-1], REDELIVERY_DELAY)
        else:
            hook(unraisable)

    RECEIVED.clear()
    _Watch.active, _Watch.stopped, _Watch.run = True, False, _Watch.run + 1
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)
        for sig in TERMINATING:
            if signal.getsignal(sig) != signal.SIG_IGN:
                previous[sig] = signal.signal(sig, terminate)
    except ValueError:  # not the main thread (checked without importing threading)
        pass
    sys.unraisablehook = dropped
    try:
        yield
    finally:
        _Watch.active = False
        sys.unraisablehook = hook
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def exit_now(status: int) -> None:
    """End the process with ``status`` at once: exit handlers run (workers' semaphores released,
    temporary directories removed), standard streams flushed, and no more (see the module)."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with suppress(OSError, ValueError):
                stream.flush()
    os._exit(status)
