"""scripts/bench_bars.py: the figures of issue 13's bar, recorded across processes and shown as a table."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bars", SCRIPTS / "bench_bars.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_figures_from_several_processes_make_one_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bars = _module()
    path = tmp_path / "bars.jsonl"
    monkeypatch.setenv(bars.BARS_ENV, str(path))
    bars.bar("`odds`", "52 ms", "<= 60 ms", True)
    child = (f"import sys; sys.path.insert(0, {str(SCRIPTS)!r}); import bench_bars; "
             "bench_bars.bar('`verify`', '9 | 8', '>= 1', False)")
    subprocess.run([sys.executable, "-c", child], check=True)
    rows = bars.recorded(str(path))
    assert [r["figure"] for r in rows] == ["`odds`", "`verify`"]
    assert bars.table(rows).splitlines()[2:] == ["| `odds` | 52 ms | <= 60 ms | yes |",
                                                 "| `verify` | 9 \\| 8 | >= 1 | no |"]


def test_nothing_is_recorded_without_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bars = _module()
    monkeypatch.delenv(bars.BARS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    bars.bar("`odds`", "52 ms", "<= 60 ms", True)
    assert list(tmp_path.iterdir()) == []


def test_the_docstring_example_runs() -> None:
    assert doctest.testmod(_module()).failed == 0
