"""What a command loads to start: its own command family, and no heavy package (the whole-process times of
docs/performance.md depend on it)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import exact_odds
import exact_odds.bunco
import exact_odds.report
from exact_odds.cli import FAMILY_OF, build_parser, command_parsers

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
from exact_odds.cli import main
main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(argv: list[str]) -> set[str]:
    """The modules a fresh process has imported after running the command line ``argv``: without
    :mod:`site` (``-S``), whose start-up hooks may import anything, reading the package from ``ROOT``."""
    done = subprocess.run([sys.executable, "-S", "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=120)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_the_table_of_families_is_the_modules_own() -> None:
    """:data:`FAMILY_OF` names each command's module, whose ``_add_<command>`` adds it alone, in the help's order."""
    for command in FAMILY_OF:
        assert [p.prog for p in command_parsers(build_parser(command))] == [f"exact-odds {command}"], command
    assert [p.prog.split()[1] for p in command_parsers(build_parser())] == list(FAMILY_OF)


@pytest.mark.parametrize("argv", [
    ["odds", "--decks", "8"], ["edges"], ["parsheet", "--bet", "banker"], ["report"], ["sidebets", "--decks", "8"],
    ["bunco"],
], ids=lambda argv: argv[0])
def test_a_command_imports_its_family_alone(argv: list[str]) -> None:
    """A command loads its own family module of the command line, and none of the heavy packages (NumPy,
    SymPy, Matplotlib, tabulate): the modules that need them import them in the functions that use them."""
    loaded = _modules_after(argv)
    families = {f"exact_odds.cli.{family}" for family in FAMILY_OF.values()}
    assert families & loaded == {f"exact_odds.cli.{FAMILY_OF[argv[0]]}"}
    heavy = {"numpy", "sympy", "matplotlib", "tabulate"}
    assert not heavy & loaded, heavy & loaded


@pytest.mark.parametrize("package", [exact_odds, exact_odds.report, exact_odds.bunco], ids=lambda p: p.__name__)
def test_package_names_are_the_modules_own(package: object) -> None:
    """Every name of a package's ``__all__`` is one of its attributes, and each class and function among
    them (the aliases of built-in types aside) is defined in one of the package's own modules."""
    names: list[str] = package.__all__  # type: ignore[attr-defined]
    prefix = package.__name__ + "."  # type: ignore[attr-defined]
    for name in names:
        value = getattr(package, name)
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__ != "builtins":  # Ways = int
            assert value.__module__.startswith(prefix), (name, value.__module__)
    assert set(names) <= set(dir(package))


@pytest.mark.parametrize("columns", [None, "50", "133", "0", "-3", "x", " 90 "])
def test_the_help_is_as_wide_as_argparse_makes_it(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`~exact_odds.cli.options.help_width` is argparse's own width, ``shutil.get_terminal_size()``
    less 2, whatever ``$COLUMNS`` says (the terminal, if any, being the same for both)."""
    import shutil

    from exact_odds.cli.options import help_width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width() == shutil.get_terminal_size().columns - 2
