"""A study's worker processes (exact_odds.study.tasks): how many start, that they and the command line
use one BLAS thread each, and that their warm-up prepares a study of the main bets
(tests/test_study.py checks that results do not depend on the workers)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields

import numpy as np
import pytest
from conftest import jit_setting

from exact_odds.batch import evaluation
from exact_odds.bets import find_bet
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, shoe_card_codes
from exact_odds.study.tasks import Task, pack, run_task, study_workers, warm_up

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

os.environ.pop("OPENBLAS_NUM_THREADS", None)
from exact_odds.cli import main

assert "numpy" not in sys.modules
status = main(["study", "--shoes", "3", "--decks", "1", "--seed", "1", "--workers", "2", "-q"])
print(status, os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_the_command_line_and_its_workers_use_one_blas_thread() -> None:
    """The command line sets one BLAS thread before the study's modules load NumPy: this process and
    the workers it starts (which inherit its environment) work side by side, one thread each."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 1"


def test_a_study_deals_the_same_shoes_with_the_compiled_dealer_and_with_numpy() -> None:
    """:func:`exact_odds.study.tasks.deal_shoes`: every field the same (the cards not seen before each coup,
    by rank and by card, counted by the compiled loop, or round by round by NumPy), with the burn and a cut
    card."""
    from exact_odds.core.coup import Detail
    from exact_odds.dealing.procedure import Procedure
    from exact_odds.study.tasks import deal_shoes

    for shoe, procedure in ((Shoe.decks(8), STANDARD_PROCEDURE), (Shoe.decks(1), Procedure(cut=13, burn=False))):
        codes = tuple(shoe_card_codes(shoe))
        dealt = []
        for setting in ("0", "1"):
            with jit_setting(setting):
                dealt.append(deal_shoes(7, 3, 40, procedure, STANDARD_TABLEAU, codes, Detail.SUITS))
        for name in (f.name for f in fields(dealt[0])):
            plain, fast = getattr(dealt[0], name), getattr(dealt[1], name)
            assert fast.dtype == plain.dtype and np.array_equal(fast, plain), name


def test_a_study_process_loads_the_compiled_loops_from_a_quarter_of_a_million_coups(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A study's share of :data:`STUDY_JIT_MIN` coups or more is worth the compiled loops
    (:func:`exact_odds.batch.compiled.wanted`), a smaller one not, as the kernel's own threshold says."""
    from exact_odds.batch import compiled
    from exact_odds.study.tasks import STUDY_JIT_MIN

    monkeypatch.delenv(compiled.JIT_ENV, raising=False)
    for share, wanted in ((STUDY_JIT_MIN - 1, False), (STUDY_JIT_MIN, True), (compiled.JIT_MIN + 1, True)):
        assert compiled.wanted(share, worth=STUDY_JIT_MIN) is wanted
        assert compiled.wanted(share) is (share >= compiled.JIT_MIN)
