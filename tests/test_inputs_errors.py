"""The optional extras: a missing one is one InputError naming the extra to install, never an ImportError."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from exact_odds.inputs.errors import EXTRAS, InputError, installed, require


class PlotError(InputError):
    """A caller's own error class."""


def test_a_present_module_is_returned_imported() -> None:
    assert require("json", "plot", "never said") is sys.modules["json"]


def test_a_missing_module_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # importing it now raises ImportError
    with pytest.raises(PlotError, match=r"^--plot needs matplotlib: pip install 'exact-odds\[plot\]'$"):
        require("matplotlib", "plot", "--plot needs matplotlib", PlotError)


def test_installed_imports_nothing() -> None:
    assert installed("this_package_does_not_exist") is False
    assert installed("json") is True


def test_every_extra_is_declared_in_the_project() -> None:
    """The extras named here are the project's own optional dependencies."""
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["project"]["optional-dependencies"]
    for extra, module in EXTRAS.items():
        assert extra in declared
        assert any(requirement.startswith(module) or module in requirement for requirement in declared[extra]), extra
