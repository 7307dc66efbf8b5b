"""The shape of the code: rooms of a readable size, one home for the drawing rule.

These guard the design (see docs/development.md): no module over 800 lines (a guide: a longer one
explains itself in the code, and none is split for its size alone),
no function over 60 lines, no drawing rule outside ``exact_odds/core/tableau.py``, and no
comments that point at the tracker instead of explaining the code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "exact_odds"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 60


def _relative(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_module_is_at_most_800_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{_relative(path)} has {lines} lines: say in the code why it is one concept"


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_functions_are_at_most_60_lines(path: Path) -> None:
    assert _long_functions(path) == []


def test_the_function_length_check_can_fail(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(70))
    source = tmp_path / "long.py"
    source.write_text(f"def long() -> None:\n{body}\n", encoding="utf-8")
    assert _long_functions(source) == ["long (71 lines)"]


# A drawing rule shows up as the standard banker table's data (a row of D/S letters), as
# the player's "draws on 0-5" (`<= 5` on a total), or as tests of the naturals 8 and 9.
RULE_PATTERNS = {
    "a banker-table row": re.compile(r"[\"']\s*[DS](\s+[DS]){10}\s*[\"']"),
    "the player's drawing threshold": re.compile(r"(total|player|pt)\w*\s*<=\s*5\b"),
    "the naturals written out": re.compile(r"\{\s*8\s*,\s*9\s*\}|\(\s*8\s*,\s*9\s*\)|in \(8, 9\)|>= 8\b"),
    "the banker's stand-on-7 rule": re.compile(r"banker\w*\s*(<=\s*6|<\s*7|==\s*7)\b"),
    "the tableau's raw data read": re.compile(r"\.(player_draws|banker_draws|naturals)\b|banker_draws_on\("),
}
RULE_HOME = PACKAGE / "core" / "tableau.py"
# A Coup's `natural` property describes the outcome for bets (the standard naturals, as the
# pay tables printed on layouts mean them); it decides no draw.
ALLOWED = {("exact_odds/core/coup.py", "the naturals written out"),
           ("exact_odds/bets/user.py", "the naturals written out")}


@pytest.mark.parametrize("path", [p for p in MODULES if p != RULE_HOME], ids=_relative)
def test_no_drawing_rule_outside_the_tableau(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [what for what, pattern in RULE_PATTERNS.items()
             if pattern.search(text) and (_relative(path), what) not in ALLOWED]
    assert found == [], f"{_relative(path)} encodes {found}: ask exact_odds.core.tableau instead"


def test_the_rule_patterns_find_the_rule_in_its_home() -> None:
    text = RULE_HOME.read_text(encoding="utf-8")
    assert RULE_PATTERNS["a banker-table row"].search(text)


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_no_tracker_references_in_comments(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\bissue \d+", text, re.IGNORECASE), f"{_relative(path)} refers to an issue number"


def test_every_module_sits_in_a_layer_of_the_import_contract() -> None:
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    layers = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")["layers"]
    named = {name.strip().removeprefix("exact_odds.") for layer in layers for name in layer.split(":")}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert sorted((modules | packages) - named) == []
