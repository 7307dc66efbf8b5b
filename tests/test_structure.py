"""The shape of the code: sizes explained, one home for the drawing rule, tests that mirror the package.

These guard the design (see docs/development.md): a module over 800 lines or a function over 80
lines says why in a ``# Long:`` comment (a length is a smell to explain, never a reason to split by
size); no drawing rule outside ``exact_odds/core/tableau.py``; no comments that point at the tracker
instead of explaining the code; every source module has a test module named after it (or a concept
test listed in :data:`COVERED_BY`); a short top level of ``exact_odds/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "exact_odds"
TESTS = Path(__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
LONG_MODULE = 800
LONG_FUNCTION = 80
WHY_LONG = re.compile(r"#\s*(Long|Size):")
"""The comment that explains a long module (anywhere in it) or a long function (inside it)."""
MAX_TOP_ENTRIES = 16


def _relative(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def _explained(lines: list[str]) -> bool:
    return any(WHY_LONG.search(line) for line in lines)


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_a_long_module_says_why(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= LONG_MODULE or _explained(lines), \
        f"{_relative(path)} has {len(lines)} lines: say why in a '# Long:' comment, or split it by concept"


def _long_functions(path: Path) -> list[str]:
    """The functions over :data:`LONG_FUNCTION` lines with no ``# Long:`` comment inside them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    return [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > LONG_FUNCTION
            and not _explained(lines[node.lineno - 1:node.end_lineno])]


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_a_long_function_says_why(path: Path) -> None:
    assert _long_functions(path) == [], "say why in a '# Long:' comment inside the function"


def test_the_function_length_check_can_fail(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(90))
    source = tmp_path / "long.py"
    source.write_text(f"def long() -> None:\n{body}\n", encoding="utf-8")
    assert _long_functions(source) == ["long (91 lines)"]
    source.write_text(f"def long() -> None:\n    # Long: one table, row by row.\n{body}\n", encoding="utf-8")
    assert _long_functions(source) == []


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
# The rules of chemin de fer leave decisions free: core/choices.py holds them beside the tableau, and reads a
# tableau's data to give punto banco's rule as the case with no free decision.
ALLOWED = {("exact_odds/core/coup.py", "the naturals written out"),
           ("exact_odds/bets/user.py", "the naturals written out"),
           ("exact_odds/core/choices.py", "the naturals written out"),
           ("exact_odds/core/choices.py", "a banker-table row"),
           ("exact_odds/core/choices.py", "the tableau's raw data read")}


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


def _top_entries() -> list[str]:
    return sorted(p.name for p in PACKAGE.iterdir() if p.name != "__pycache__")


def test_the_top_of_the_package_is_short() -> None:
    """At most 16 entries at the top of ``exact_odds/``: the concept packages, game.py, the entry points."""
    entries = _top_entries()
    assert len(entries) <= MAX_TOP_ENTRIES, entries


def test_no_home_made_typing_or_records() -> None:
    """Records are frozen dataclasses and typing comes from the standard library: no ``hints.py`` or ``values.py``."""
    assert [_relative(p) for p in MODULES if p.name in ("hints.py", "values.py")] == []


# ---------------------------------------------------------------- tests that mirror the package
# The naming scheme: exact_odds/PACKAGE/MODULE.py is tested in tests/test_PACKAGE_MODULE.py, or in
# tests/test_PACKAGE_MODULE_ASPECT.py when one module needs several (e.g. test_core_tableau_custom.py);
# exact_odds/game.py in tests/test_game.py. A test named for a package or a concept
# (test_bunco.py, test_study.py, test_cli_golden.py, test_cli_hostile_input.py, ...) covers the modules
# COVERED_BY lists.

COVERED_BY: dict[str, str] = {
    # The bulk algorithm's parts, each checked through the kernel that runs them against the reference
    # enumerator (every way: NumPy, Python integers, compiled) and through the bets' evaluation.
    "batch/coefficients.py": "test_batch_plan.py",
    "batch/loops.py": "test_batch_compiled.py",
    # Games with choices: the rules with free cells, the solver and its report, tested as one game.
    "core/choices.py": "test_analysis_chemin.py",
    "report/chemin.py": "test_cli_chemin.py",
    # Partial information: one concept in four modules, tested through its public functions.
    "analysis/information/bulk.py": "test_analysis_information.py",
    "analysis/information/given.py": "test_analysis_information.py",
    "analysis/information/knowledge.py": "test_analysis_information.py",
    "analysis/symbolic_expressions.py": "test_analysis_symbolic.py",
    # Bunco: every exact distribution against brute force from the printed rules, in one module.
    "bunco/dice.py": "test_bunco.py",
    "bunco/simulation.py": "test_bunco.py",
    "bunco/verify.py": "test_bunco.py",
    # Command families: each command is run (outputs, formats, bad input) with the analysis it shows;
    # every command and format is also pinned byte for byte by test_cli_golden.py.
    "cli/completion.py": "test_cli_usability.py",
    "cli/options.py": "test_cli_vocabulary.py",  # one vocabulary: what every option means
    "cli/simulation.py": "test_witness_simulate.py",
    "cli/study.py": "test_study.py",
    "core/coup.py": "test_engine_enumerator.py",  # the coup encoding, with the enumerator that makes coups
    "core/verdict.py": "test_witness_verify.py",
    # Dealing: the vectorised dealer against the scalar one and the oracle; the documented shuffle.
    "dealing/dealer.py": "test_witness_simulate.py",
    "dealing/loops.py": "test_witness_simulate.py",
    "dealing/procedure.py": "test_witness_simulate.py",
    "dealing/shuffle.py": "test_study.py",
    "inputs/sources.py": "test_inputs_reading.py",  # toml_depth and parse_toml
    # Presentation: rows and text of each command, pinned byte for byte by the golden outputs; the JSON
    # shapes by the schemas.
    "report/base.py": "test_cli_printable_names.py",
    "report/odds.py": "test_cli_golden.py",
    "report/simulation.py": "test_cli_golden.py",
    "report/study.py": "test_cli_golden.py",
    # A study: dealing against a reference, exact edges, identical results whatever the workers.
    "study/checks.py": "test_study.py",
    "study/cluster.py": "test_study.py",
    "study/records.py": "test_study.py",
    "study/replay.py": "test_study.py",
    "study/run.py": "test_study.py",
    # Verify: logs from an independent dealer (tests/oracle_dealer.py) through the public functions.
    "witness/verify/checks.py": "test_witness_verify.py",
    "witness/verify/core.py": "test_witness_verify.py",
    "witness/verify/log.py": "test_witness_verify.py",
    "witness/verify/read.py": "test_witness_verify.py",
}
"""Source modules (below ``exact_odds/``) tested by a concept test rather than a module named for them."""

SOURCES = [p for p in MODULES if p.stem not in ("__init__", "__main__")]


def _key(path: Path) -> str:
    """``analysis/information/given.py`` -> ``analysis_information_given``: the name its test module carries."""
    return "_".join(path.relative_to(PACKAGE).with_suffix("").parts)


def _named(tests: list[str], keys: set[str]) -> set[str]:
    """The keys that the test modules ``tests`` (names without ``test_``) are named after: for each, the
    longest key it equals or opens with ``KEY_``."""
    named = set()
    for name in tests:
        matches = [k for k in keys if name == k or name.startswith(k + "_")]
        if matches:
            named.add(max(matches, key=len))
    return named


def _named_modules() -> set[str]:
    return _named([t.stem.removeprefix("test_") for t in TESTS.glob("test_*.py")], {_key(p) for p in SOURCES})


@pytest.mark.parametrize("path", SOURCES, ids=_relative)
def test_every_module_has_a_test_module(path: Path) -> None:
    relative = path.relative_to(PACKAGE).as_posix()
    if _key(path) in _named_modules():
        assert relative not in COVERED_BY, f"{relative} has a test module named for it: drop it from COVERED_BY"
        return
    assert relative in COVERED_BY, f"{relative}: add tests/test_{_key(path)}.py (or a COVERED_BY entry)"
    assert (TESTS / COVERED_BY[relative]).exists(), f"{relative}: tests/{COVERED_BY[relative]} does not exist"


def test_the_naming_rule_finds_the_longest_module() -> None:
    """``test_report_advantage_play.py`` names ``report/advantage_play.py``, not ``report/advantage.py``; an
    aspect after the module's name still names the module; a package's name alone names no module."""
    keys = {"report_advantage", "report_advantage_play", "core_tableau", "study_run"}
    assert _named(["report_advantage_play"], keys) == {"report_advantage_play"}
    assert _named(["core_tableau_custom", "study"], keys) == {"core_tableau"}


# ---------------------------------------------------------------- no import cycles


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _run_time_imports(path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``path`` imports at run time, wherever the import stands (at the top
    or in a function), but not under ``if TYPE_CHECKING:``; ``from a import b`` counts ``a.b`` when that
    is a module, else ``a``."""
    name = _module_name(path)
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = ".".join([*base[: len(base) - node.level + 1], node.module or ""]) if node.level else node.module
            module = (module or "").rstrip(".")
            for alias in node.names:
                found.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {module for module in found if module in known and module != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    known = {_module_name(path) for path in MODULES}
    graph = {_module_name(path): _run_time_imports(path, known) for path in MODULES}
    assert _cycles(graph) == []


def test_the_cycle_check_can_fail() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
