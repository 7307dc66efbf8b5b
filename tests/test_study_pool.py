"""A study's worker processes (exact_odds.study_pool): how many start, that the command line starts
them before it imports NumPy and the study's modules, and that their warm-up prepares a study of
the main bets (tests/test_study.py checks that results do not depend on the workers)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from conftest import jit_setting

from exact_odds.batch import evaluation
from exact_odds.bets import find_bet
from exact_odds.dealing import STANDARD_PROCEDURE, shoe_card_codes
from exact_odds.shoe import Shoe
from exact_odds.study_pool import study_workers
from exact_odds.study_tasks import Task, pack, run_task, warm_up
from exact_odds.tableau import STANDARD_TABLEAU

MAIN = [find_bet(n) for n in ("banker", "player", "tie")]


def test_one_process_works_beside_this_one_per_task_at_most() -> None:
    with study_workers(3, 2, 52) as workers:  # two shoes: two tasks of one shoe
        assert workers is not None
        assert workers.processes == len(workers.pool._pool) == 1
    with study_workers(2, 1, 52) as workers:  # one task: this process alone
        assert workers is None
    with study_workers(1, 1000, 52) as workers:
        assert workers is None


def test_a_warmed_up_process_has_the_plans_of_a_study_of_the_main_bets() -> None:
    with jit_setting("0"):
        evaluation._bet_pass.cache_clear()
        warm_up(0)
        made = evaluation._bet_pass.cache_info().misses
        task = Task(1, 0, 2, tuple(shoe_card_codes(Shoe.decks(1))), STANDARD_PROCEDURE, STANDARD_TABLEAU,
                    pack(MAIN, ()), np.zeros((13, 3), dtype=np.int64), np.zeros((13, 0), dtype=np.int64))
        assert len(run_task(task).shoe) > 0
        assert evaluation._bet_pass.cache_info().misses == made  # no plan made again


PROBE = """
import os
import sys
from exact_odds import study_pool
from exact_odds.cli import main

started = study_pool.study_workers
seen = []

def spy(*args):
    seen.append(sorted(m for m in ("numpy", "exact_odds.study") if m in sys.modules))
    return started(*args)

os.environ.pop("OPENBLAS_NUM_THREADS", None)

study_pool.study_workers = spy
status = main(["study", "--shoes", "3", "--decks", "1", "--seed", "1", "--workers", "2", "-q"])
print(status, seen, os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_the_command_line_starts_the_workers_before_it_imports_numpy_and_the_study() -> None:
    """... and this process, working beside them, then uses one BLAS thread too."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 [[]] 1"
