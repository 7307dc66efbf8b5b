"""What a command loads to start: its own command family, the report code it renders with, no file
machinery it does not use (the whole-process times of docs/performance.md depend on it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import exact_odds.bunco
import exact_odds.report
from exact_odds.cli import FAMILIES, FAMILY_OF, _command_of, family_commands, subcommands

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
    """:data:`FAMILIES` names each family module's commands in the order its ``COMMANDS`` adds them."""
    for family, commands in FAMILIES.items():
        assert tuple(_command_of(add) for add in family_commands(family)) == commands, family
    assert [_command_of(add) for add in subcommands()] == list(FAMILY_OF)


@pytest.mark.parametrize("argv", [
    ["odds", "--decks", "8"], ["edges"], ["parsheet", "--bet", "banker"], ["report"], ["sidebets", "--decks", "8"],
    ["bunco"],
], ids=lambda argv: argv[0])
def test_a_command_imports_its_family_alone(argv: list[str]) -> None:
    """A command loads its own family module of the command line, none of the package's file machinery
    it does not use (the sources of files, the files a command writes, the simulation and the logs of
    Bunco), and none of the heavy packages (NumPy, SymPy, Matplotlib, tabulate)."""
    loaded = _modules_after(argv)
    families = {f"exact_odds.cli.{family}" for family in FAMILIES}
    assert families & loaded == {f"exact_odds.cli.{FAMILY_OF[argv[0]]}"}
    unused = {"exact_odds.inputs.sources", "exact_odds.report.files", "exact_odds.bunco.simulation",
              "exact_odds.bunco.log", "numpy", "sympy", "matplotlib", "tabulate"}
    assert not unused & loaded, unused & loaded


@pytest.mark.parametrize("package", [exact_odds.report, exact_odds.bunco], ids=lambda p: p.__name__)
def test_package_names_are_found_where_they_are_said_to_be(package: object) -> None:
    """Every name of a lazily imported package's ``__all__`` imports from the module its table names."""
    homes: dict[str, tuple[str, ...]] = package._HOMES  # type: ignore[attr-defined]
    names: list[str] = package.__all__  # type: ignore[attr-defined]
    assert sorted(n for found in homes.values() for n in found) == sorted(names)
    for name in names:
        assert getattr(package, name) is not None
    assert set(names) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        package.nonsense  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize("columns", [None, "50", "133", "0", "-3", "x", " 90 "])
def test_the_help_is_as_wide_as_argparse_makes_it(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`~exact_odds.cli.examples.help_width` is argparse's own width, ``shutil.get_terminal_size()``
    less 2, whatever ``$COLUMNS`` says (the terminal, if any, being the same for both)."""
    import shutil

    from exact_odds.cli.examples import help_width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width() == shutil.get_terminal_size().columns - 2
