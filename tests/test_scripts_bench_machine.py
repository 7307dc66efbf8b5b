"""scripts/bench_common.py and scripts/bench_machine.py: jobs of commands run together, and the machine's
limits beside the bench's figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"

BARRIER = """
import os, sys, time
mine, other = sys.argv[1:]
open(mine, "w").close()
for _ in range(2000):
    if os.path.exists(other):
        sys.exit(0)
    time.sleep(0.01)
sys.exit(3)
"""
"""A command that exits 0 only if the command named ``other`` starts while it waits (20 s at most)."""


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, ModuleType]:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import bench_common
    import bench_machine

    return bench_common, bench_machine


def test_a_job_starts_its_commands_together(bench: tuple[ModuleType, ModuleType], tmp_path: Path) -> None:
    common, _ = bench
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    job = [[sys.executable, "-c", BARRIER, a, b], [sys.executable, "-c", BARRIER, b, a]]
    (wall, cpu), = common.alternated_seconds([job], 1)
    assert wall > 0 and cpu > 0


def test_a_failing_command_fails_its_job(bench: tuple[ModuleType, ModuleType], tmp_path: Path) -> None:
    common, _ = bench
    alone = [[sys.executable, "-c", BARRIER, str(tmp_path / "a"), str(tmp_path / "never")]]
    with pytest.raises(subprocess.CalledProcessError):
        common.alternated_seconds([[[sys.executable, "-c", "import sys; sys.exit(5)"]], alone], 1)


def test_two_at_once_is_two_processes_work_against_one(bench: tuple[ModuleType, ModuleType],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _, machine = bench
    monkeypatch.setattr(machine, "COPIES", 3)
    # per copy: plain Python alone, two at once; BLAS alone, two at once
    walls = [1.0, 1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.25, 1.0, 4.0]
    assert machine.two_at_once(walls) == {"plain Python": 1.6, "BLAS products": 1.0}
    jobs = machine.two_at_once_jobs()
    assert [len(job) for job in jobs] == [1, 2, 1, 2] * 3
    assert jobs[1] == jobs[0] * 2 and jobs[4:8] == jobs[:4]


def test_the_products_bound_divides_the_rate(bench: tuple[ModuleType, ModuleType],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _, machine = bench
    monkeypatch.setattr(machine, "_RATE", [20e9])
    assert machine.products_bound(10_000).endswith("2,000,000 compositions/s")
    assert machine.products_bound(10_000, "coups").endswith("2,000,000 coups/s")


def test_the_kernel_products_are_those_of_its_plans(bench: tuple[ModuleType, ModuleType]) -> None:
    """The main bets need two functionals (banker, player) over at most the 5,005 multisets of six cards;
    every registered bet needs more functionals on points than the main bets do."""
    _, machine = bench
    products = machine.kernel_products()
    assert 2 * 715 < products["main"] <= 2 * 5005
    assert products["every"] > 8 * products["main"]
