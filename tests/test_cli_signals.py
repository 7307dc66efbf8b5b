"""Interrupting a command: Ctrl-C anywhere (one process, worker processes, Dask), SIGTERM, SIGHUP.

Each test starts a real ``exact-odds`` process in its own process group, waits until it is busy
(its workers started, its temporary file open), then signals the whole group as a terminal's
Ctrl-C does. The command must print exactly one line, leave no temporary file and no worker
running, and exit with 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not Path("/proc/self/task").exists(),
                                reason="POSIX signals and /proc (Linux)")

PYTHON = [sys.executable, "-m", "exact_odds"]
PATIENCE = 60.0
"""Seconds to wait for a command to get busy, and then to stop."""


def _default_sigint() -> None:
    """In the child: take Ctrl-C by default even if the test runner ignores it (a background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    """``exact-odds argv`` in a new process group (its workers join it, as under a terminal)."""
    return subprocess.Popen([*PYTHON, *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_sigint)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.communicate()[1]
            pytest.fail(f"the command never got busy (exit status {proc.returncode}): {err[-2000:]}")
        time.sleep(0.02)


def stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str, str]:
    """Send ``sig`` to the command's process group; its exit status, stdout and stderr."""
    os.killpg(proc.pid, sig)
    out, err = proc.communicate(timeout=PATIENCE)
    return proc.returncode, out, err


STOPPING = pytest.mark.parametrize(("sig", "status", "line"), [
    (signal.SIGINT, 130, "exact-odds: interrupted\n"),
    (signal.SIGTERM, 143, "exact-odds: terminated (SIGTERM)\n"),
    (signal.SIGHUP, 129, "exact-odds: terminated (SIGHUP)\n"),
], ids=["SIGINT", "SIGTERM", "SIGHUP"])
"""Each signal that stops a command, its exit status and its one line on stderr."""


@STOPPING
def test_a_signal_during_a_write_leaves_nothing(tmp_path: Path, sig: int, status: int, line: str) -> None:
    proc = start(["simulate", "--rounds", "1000000000", "--seed", "1", "--log", "coups.csv", "-q"], tmp_path)
    wait_for(lambda: any(tmp_path.glob(".coups.csv.*.tmp")), proc)  # the log is being written
    time.sleep(0.2)
    assert stop(proc, sig) == (status, "", line)
    assert list(tmp_path.iterdir()) == []  # neither the temporary file nor a partial log


@STOPPING
def test_a_signal_with_worker_processes(tmp_path: Path, sig: int, status: int, line: str) -> None:
    """The process group signalled, as a terminal does: one line, no traceback of a worker's nor of
    multiprocessing's resource tracker (which a SIGHUP killed, and whose successor then printed the
    shared memory it did not know), and every worker gone."""
    proc = start(["study", "--shoes", "1000000", "--decks", "1", "--workers", "2", "--seed", "1", "-q",
                  "-o", "study.txt"], tmp_path)
    wait_for(lambda: len(children(proc.pid)) >= 2, proc)  # the workers (and multiprocessing's tracker)
    time.sleep(0.5)  # some may still be importing: they must stay silent too
    workers = children(proc.pid)
    assert stop(proc, sig) == (status, "", line)  # no worker's traceback
    deadline = time.monotonic() + 10
    while any(running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(running(w) for w in workers)
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_with_dask(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        scheduler = cluster.scheduler
        proc = start(["study", "--shoes", "1000000", "--decks", "1", "--dask", cluster.scheduler_address,
                      "--seed", "1", "-q"], tmp_path)
        wait_for(lambda: any(ts.state == "processing" for ts in scheduler.tasks.values()), proc)
        assert stop(proc, signal.SIGINT) == (130, "", "exact-odds: interrupted\n")
    assert list(tmp_path.iterdir()) == []



class _Signals:
    """A descriptor whose ``__set_name__`` receives ``signum``, as a command may while a module it
    imports makes a class (Python 3.11 wraps what the handler raises there in a RuntimeError)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __set_name__(self, owner: type, name: str) -> None:
        signal.raise_signal(self.signum)


def _a_class_made(signum: int) -> None:
    type("Late", (), {"field": _Signals(signum)})


def _an_extension_failing(signum: int) -> None:
    """What a compiled extension does when a signal breaks its initialisation: another error, the
    signal's exception dropped (numpy: 'PyCapsule_Import could not import module "datetime"')."""
    try:
        signal.raise_signal(signum)
    except BaseException:
        raise ImportError("PyCapsule_Import could not import module 'datetime'") from None


def _a_callback_dropping(signum: int) -> None:
    """What a callback from compiled code does with the exception of a signal that arrives in it (the
    compiler behind the ``fast`` extra calls back so while it loads its code): it prints it as
    ignored and goes on; the command then works on, and only the signal sent again can stop it."""
    import ctypes

    ctypes.CFUNCTYPE(None)(lambda: signal.raise_signal(signum))()
    time.sleep(PATIENCE)


def _a_handler_swallowing(signum: int) -> None:
    """Code that swallows any exception (``except BaseException: pass``) as the signal arrives: the
    command works on, and only the signal sent again can stop it."""
    with contextlib.suppress(BaseException):
        signal.raise_signal(signum)
    time.sleep(PATIENCE)


@pytest.mark.parametrize("failure", [_a_class_made, _an_extension_failing, _a_callback_dropping,
                                     _a_handler_swallowing], ids=["class", "extension", "callback", "swallowed"])
@pytest.mark.parametrize(("signum", "status", "line"), [
    (signal.SIGINT, 130, "exact-odds: interrupted\n"),
    (signal.SIGTERM, 143, "exact-odds: terminated (SIGTERM)\n"),
], ids=["SIGINT", "SIGTERM"])
def test_a_signal_that_surfaces_as_another_error_still_stops_cleanly(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        failure: Callable[[int], None], signum: int, status: int, line: str) -> None:
    monkeypatch.setattr("exact_odds.report.files.os.replace", lambda *args: failure(signum))
    assert run(capsys, "odds", "-o", str(tmp_path / "odds.txt"))[::2] == (status, line)
    assert list(tmp_path.iterdir()) == []


def test_an_error_after_no_signal_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise RuntimeError("not a signal")

    monkeypatch.setattr("exact_odds.report.files.os.replace", fail)
    with pytest.raises(RuntimeError, match="not a signal"):
        run(capsys, "odds", "-o", str(tmp_path / "odds.txt"))


SIGNAL_IN_PYRUN = '''
import ctypes, os
import exact_odds.report.files as files

def replace(*args):
    run = ctypes.pythonapi.PyRun_String
    run.restype, run.argtypes = ctypes.py_object, [ctypes.c_char_p, ctypes.c_int, ctypes.py_object, ctypes.py_object]
    run(b"import signal; signal.raise_signal(signal.SIGINT)", 257, {}, {})

files.os = type("os", (), {name: getattr(os, name) for name in dir(os) if not name.startswith("__")})
files.os.replace = replace
'''
"""A ``sitecustomize`` making the command's final rename receive Ctrl-C in code run by ``PyRun_String``,
as in a compiled extension's initialisation."""


def test_ctrl_c_through_the_interpreters_own_code_ends_with_130_not_by_the_signal(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SIGNAL_IN_PYRUN)
    (tmp_path / "out").mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), *sys.path])}
    done = subprocess.run([*PYTHON, "odds", "-o", "odds.txt"], cwd=tmp_path / "out", capture_output=True, text=True,
                          env=env, preexec_fn=_default_sigint, timeout=PATIENCE)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "exact-odds: interrupted\n")
    assert list((tmp_path / "out").iterdir()) == []
