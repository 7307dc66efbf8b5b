"""The command line, in a process without NumPy loaded, runs one BLAS thread unless the user chose."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exact_odds.study.blas import BLAS_THREADS, one_thread_unless_chosen

# The command line run in a fresh process, then NumPy loaded (OpenBLAS starts its threads then): the
# BLAS variables it sees and the threads of the process.
PROBE = """import json, os, sys
from exact_odds.study.blas import BLAS_THREADS
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
