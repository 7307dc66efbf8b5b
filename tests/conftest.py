"""Shared test helpers; ``from conftest import run`` in a test module (pytest puts tests/ on sys.path).

Hypothesis profiles
-------------------
The environment variable ``EXACT_ODDS_HYPOTHESIS`` chooses how hard the property tests and the
fuzzing suite (``tests/test_cli_fuzz.py``) look:

``ci`` (the default)
    Each property test runs the examples it asks for (``@settings(max_examples=...)``, kept
    where a test is costly) or Hypothesis's 100; the fuzzing suite runs :data:`FUZZ_CI`
    hostile command lines per command. The whole suite stays a few minutes on 2 cores.
``thorough``
    2,000 generated cases per test that does not ask for fewer, and 2,000 hostile command
    lines per command in the fuzzing suite (about an hour on 2 cores); run it before a
    release, or after changing how input is read::

        EXACT_ODDS_HYPOTHESIS=thorough python3 -m pytest tests/test_cli_fuzz.py

``EXACT_ODDS_FUZZ_EXAMPLES=N`` sets the hostile command lines per command of the fuzzing suite
whatever the profile (e.g. 300 for the commands that deal many coups: ``session``, ``simulate``,
``study``, ``count``).

Both profiles turn Hypothesis's deadline off (a shoe evaluation may take longer than 200 ms on a
slow machine) and print the blob that reproduces a failure (``@reproduce_failure``).

Optional packages
-----------------
A test that needs an optional extra (matplotlib, Dask, numba, jsonschema, the notebook runner) asks
for it with ``pytest.importorskip`` and is skipped where it is missing, so that a plain ``pytest``
passes without the extras. In CI (the variable ``CI`` set; ``.ci/run`` installs ``.[test]``, every
extra) such a skip is a failure instead (:func:`pytest_runtest_makereport`), so that nothing is
quietly left out there. :func:`installed` and :func:`needs` do the same for a parametrized case.

Slow tests
----------
A test (or a parametrized case) that takes more than about 3 seconds on 2 cores is marked
``@pytest.mark.slow``: ``pytest -m "not slow"`` runs the rest in under 3 minutes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from exact_odds.batch.compiled import JIT_ENV
from exact_odds.cli import main

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("thorough", deadline=None, print_blob=True, max_examples=2000,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = os.environ.get("EXACT_ODDS_HYPOTHESIS", "ci")
settings.load_profile(PROFILE)  # an unknown name fails at once, naming the profiles

FUZZ_CI = 20
"""Hostile command lines per command under the ``ci`` profile."""
FUZZ_EXAMPLES = os.environ.get("EXACT_ODDS_FUZZ_EXAMPLES", "")
"""Hostile command lines per command if set (any profile): a budget for a long run of the costly commands."""

_TABLE_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """Cache the coefficient tables of custom tableaux in a fresh directory, never the user's
    (``EXACT_ODDS_CACHE_DIR``, see :mod:`exact_odds.engine.store`; subprocesses inherit it); leave out
    the modules of compiled loops where numba is missing (:func:`_compiled_modules`)."""
    import tempfile

    _TABLE_CACHE.append(tempfile.mkdtemp(prefix="exact-odds-tables-"))
    os.environ["EXACT_ODDS_CACHE_DIR"] = _TABLE_CACHE[-1]
    if not IN_CI and find_spec("numba") is None:
        config.option.ignore = [*(config.option.ignore or []), *map(str, _compiled_modules())]


NEEDS_NUMBA = re.compile(r"^(import numba|from numba)\b", re.MULTILINE)


def _compiled_modules() -> list[Path]:
    """The package's modules of compiled loops (``import numba`` at their top; imported only through
    :mod:`exact_odds.batch.compiled`): they hold no doctest, and where numba is missing (outside CI)
    ``--doctest-modules`` leaves them out instead of failing to import them."""
    package = Path(__file__).parent.parent / "exact_odds"
    return [path for path in sorted(package.rglob("*.py")) if NEEDS_NUMBA.search(path.read_text(encoding="utf-8"))]


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    for path in _TABLE_CACHE:
        shutil.rmtree(path, ignore_errors=True)


EXTRAS = frozenset({"matplotlib", "dask", "distributed", "numba", "jsonschema", "referencing", "nbclient",
                    "nbformat", "ipykernel", "openpyxl"})
"""The optional packages ``.[test]`` installs (the plot, dask, fast and xlsx extras, the schema and notebook checks);
scipy, which the tests use where it happens to be installed, is not one of them."""
IN_CI = bool(os.environ.get("CI"))


def installed(package: str) -> bool:
    """Whether the optional ``package`` (one of :data:`EXTRAS`) is installed; in CI a missing one fails."""
    assert package in EXTRAS, package
    if find_spec(package) is not None:
        return True
    if IN_CI:
        pytest.fail(f"{package} is missing in CI (.ci/run installs .[test])", pytrace=False)
    return False


def needs(package: str) -> pytest.MarkDecorator:
    """A mark for a test or a parametrized case that needs the optional ``package``: skipped where it is
    missing, a failure in CI (see :func:`installed`)."""
    return pytest.mark.skipif(not installed(package), reason=f"needs {package} (an optional extra)")


def _missing_extra(message: str) -> str | None:
    """The optional package a skip's message says could not be imported (``pytest.importorskip``), if any."""
    found = re.search(r"could not import '[^']+': No module named '([^'.]+)", message)
    return found.group(1) if found and found.group(1) in EXTRAS else None


def _fail_in_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    """Turn ``report``, a skip because an optional extra is missing, into a failure in CI."""
    if IN_CI and report.skipped and isinstance(report.longrepr, tuple):
        package = _missing_extra(report.longrepr[2])
        if package is not None:
            report.outcome = "failed"
            report.longrepr = f"{package} is missing in CI (.ci/run installs .[test]): {report.longrepr[2]}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """In CI, a test skipped because an optional extra is missing fails."""
    report = yield
    _fail_in_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector
                               ) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """In CI, a test module skipped because an optional extra is missing is a collection error."""
    report = yield
    _fail_in_ci(report)
    return report


def fuzz_settings(ci: int = FUZZ_CI) -> settings:
    """Settings for a fuzzing test: ``ci`` examples under the ``ci`` profile, else the profile's number."""
    quiet = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]  # capsys is read afresh in each case
    if FUZZ_EXAMPLES:
        return settings(max_examples=int(FUZZ_EXAMPLES),
                        suppress_health_check=[*settings().suppress_health_check, *quiet])
    if PROFILE == "ci":
        return settings(max_examples=ci, suppress_health_check=quiet)
    return settings(suppress_health_check=[*settings().suppress_health_check, *quiet])


def body(out: str) -> str:
    """A command's output without the provenance at its top: the text block up to the first blank line,
    or CSV's leading ``#`` lines, or JSON Lines' first line (a JSON document keeps its ``"provenance"``)."""
    if out.startswith("program "):
        return out.split("\n\n", 1)[1]
    if out.startswith("# program: "):
        return "".join(line for line in out.splitlines(keepends=True) if not line.startswith("# ")
                       or line.split(":", 1)[0][2:] not in PROVENANCE_LABELS)
    if out.startswith('{"provenance": '):
        return out.split("\n", 1)[1]
    return out


PROVENANCE_LABELS = ("program", "tableau", "configuration", "shoe", "procedure", "seed")
"""The labels of the provenance's lines in text and CSV."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line on ``argv`` in-process: its exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, out: str, err: str, *words: str) -> bool:
    """Exit status 2, nothing on stdout, and on stderr one line (ending in a newline) that opens with
    ``exact-odds: error: `` and contains each of ``words``."""
    return (code == 2 and out == "" and err.count("\n") == 1 and err.endswith("\n")
            and err.startswith("exact-odds: error: ") and all(w in err for w in words))


def needed_tool(path: str | None, what: str) -> str:
    """``path`` of a program a test needs: skipped where it is missing, but a failure in CI, whose
    ``.ci/run`` installs ``what``."""
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is missing in CI (.ci/run installs it)")
        pytest.skip(f"{what} is not installed")
    return path


@contextmanager
def jit_setting(setting: str) -> Iterator[None]:
    """Run the block with ``EXACT_ODDS_JIT`` set to ``setting`` (``"1"``: the compiled loops at any
    size, ``"0"``: NumPy alone), restored after."""
    before = os.environ.get(JIT_ENV)
    os.environ[JIT_ENV] = setting
    try:
        yield
    finally:
        os.environ.pop(JIT_ENV)
        if before is not None:
            os.environ[JIT_ENV] = before
