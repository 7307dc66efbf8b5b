"""Every example in README.md and docs/*.md runs.

The conventions are set out at the top of docs/development.md:

- Shell examples are fenced ```sh, ```bash or ```console blocks. In ```sh and ```bash blocks every
  line that is not blank and not a comment is a command (a trailing ``\\`` continues it on the next
  line); in ```console blocks the commands are the lines that start with ``$ `` and the other
  lines are output (not compared: outputs may change, the exit status may not).
- A command must exit with status 0, unless its trailing comment starts with ``exit N``
  (``exact-odds verify broken.csv   # exit 1: FAIL ...``).
- A block that follows the line ``<!-- not run: REASON -->`` is not run (installing, the whole
  test suite, runs of minutes); the reason is required.
- The commands of one file run in order from one temporary directory that holds a
  copy of ``examples/`` (and a link to ``scripts/``), so ``examples/...`` paths resolve and the
  files a command writes land there for the next one to read. ``exact-odds`` and ``python3`` are this
  checkout's: a plain ``exact-odds ...`` command runs in this process (``exact_odds.cli.main``, the
  imports paid once), any other line in bash.
- Python examples are fenced ```python blocks written as ``>>>`` sessions and run as doctests from
  the repository's root.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import needs

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = ("sh", "bash", "console")
NOT_RUN = re.compile(r"<!--\s*not run:\s*\S[^>]*-->")
EXIT = re.compile(r"#\s*exit\s+(\d+)\b")
TIMEOUT = 120
"""Seconds one command may take; the examples are chosen to take well under one."""

WRITTEN_ELSEWHERE = {"docs/performance.md"}
"""Pages the documents link to that come with the JSON, speed and notebook work; a link to one
of them is not required to resolve until it exists."""


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its first line's number in the file, its lines, and
    whether a ``<!-- not run: ... -->`` marker stands before it."""

    language: str
    line: int
    lines: tuple[str, ...]
    skipped: bool


@dataclass(frozen=True)
class Command:
    """One shell command of a document and the exit status it must end with."""

    document: str
    line: int
    text: str
    status: int


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


SLOW_SHELLS = ("README.md", "docs/checking.md", "docs/bunco.md")
"""The documents whose shell examples take more than about 3 seconds together."""
SHELL_EXTRAS = {"docs/study.md": "matplotlib", "README.md": "openpyxl", "docs/formats.md": "openpyxl"}
"""The documents whose shell examples need an optional extra (``eor --plot``, ``--format xlsx``)."""
PYTHON_EXTRAS = {"docs/json.md": "jsonschema"}
"""The documents whose Python examples need an optional extra (a schema validated)."""


def _cases(*, slow: tuple[str, ...] = (), extras: dict[str, str] | None = None) -> list[object]:
    """:data:`DOCUMENTS` as parameters, marked slow or needing an optional extra where said."""
    extras = extras or {}
    return [pytest.param(d, marks=[*([pytest.mark.slow] if _name(d) in slow else []),
                                   *([needs(extras[_name(d)])] if _name(d) in extras else [])])
            for d in DOCUMENTS]


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(```+)\s*([\w+-]*)", lines[i])
        if not fence:
            i += 1
            continue
        start, marker = i, fence.group(1)
        i += 1
        while i < len(lines) and not lines[i].startswith(marker):
            i += 1
        before = [line for line in lines[:start] if line.strip()]
        skipped = bool(before) and NOT_RUN.fullmatch(before[-1].strip()) is not None
        found.append(Block(fence.group(2), start + 2, tuple(lines[start + 1:i]), skipped))
        i += 1
    return found


def commands(document: Path) -> list[Command]:
    """The shell commands of a document that are run, in order."""
    found: list[Command] = []
    for block in blocks(document.read_text(encoding="utf-8")):
        if block.language not in SHELLS or block.skipped:
            continue
        pending: list[str] = []
        first = 0
        for offset, raw in enumerate(block.lines):
            line = raw.rstrip()
            if not pending:
                if block.language == "console":
                    if not line.startswith("$ "):
                        continue
                    line = line[2:]
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                first = block.line + offset
            if line.endswith("\\"):
                pending.append(line[:-1])
                continue
            text = " ".join([*pending, line]).strip()
            pending = []
            status = EXIT.search(text)
            found.append(Command(_name(document), first, text, int(status.group(1)) if status else 0))
    return found


def _tools(directory: Path) -> dict[str, str]:
    """An environment whose ``exact-odds`` and ``python3`` are this checkout's, in ``directory``."""
    directory.mkdir()
    (directory / "exact-odds").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m exact_odds "$@"\n',
                                          encoding="utf-8")
    (directory / "python3").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    for tool in directory.iterdir():
        tool.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith("EXACT_ODDS_")}
    env.update(PATH=f"{directory}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               EXACT_ODDS_CACHE_DIR=str(directory.parent / "cache"), MPLBACKEND="Agg", COLUMNS="100")
    return env


# ---------------------------------------------------------------- the conventions, on samples

SAMPLE = """\
Text.

```sh
exact-odds odds --decks 1          # one deck
# a comment
exact-odds verify broken.csv \\
    --max-violations 3             # exit 1: FAIL
```

<!-- not run: installs -->

```sh
python3 -m pip install .
```

```console
$ exact-odds roads --input -
Big road
```

```python
>>> 1 + 1
2

```
"""


def test_the_conventions_read_a_sample(tmp_path: Path) -> None:
    found = blocks(SAMPLE)
    assert [(b.language, b.line, b.skipped) for b in found] == [
        ("sh", 4, False), ("sh", 13, True), ("console", 17, False), ("python", 22, False)]
    page = tmp_path / "page.md"
    page.write_text(SAMPLE, encoding="utf-8")
    got = [(c.line, c.text, c.status) for c in commands(page)]
    assert got[0] == (4, "exact-odds odds --decks 1          # one deck", 0)
    assert got[1][0] == 6 and got[1][1].startswith("exact-odds verify broken.csv") and got[1][2] == 1
    assert got[2] == (17, "exact-odds roads --input -", 0)
    assert len(got) == 3


# ---------------------------------------------------------------- the documents' examples run


SHELL_SYNTAX = re.compile(r"[|&;<>`$()*?]")
"""Characters that make a line more than one plain command: such a line runs in bash."""


def in_process(command: str) -> list[str] | None:
    """The arguments of a plain ``exact-odds ...`` command (run by ``main``), else None (run in bash)."""
    words = shlex.split(command, comments=True)
    if not words or words[0] != "exact-odds" or SHELL_SYNTAX.search(command.split("#")[0].replace('"', "")):
        return None
    return words[1:]


def test_plain_commands_run_in_process() -> None:
    assert in_process('exact-odds count --count "4|5=-1, bet=dragon-7"  # a count') is None
    assert in_process("exact-odds odds --decks 8   # exit 0") == ["odds", "--decks", "8"]
    assert in_process("exact-odds odds --format json > odds.json") is None
    assert in_process("python3 examples/broken_simulator.py") is None


def _status(argv: list[str]) -> int:
    """The exit status of ``exact-odds ARGV`` run in this process (``--help`` and ``--version`` exit)."""
    from exact_odds.cli import main

    try:
        return main(argv)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else int(done.code is not None)


@pytest.mark.parametrize("document", _cases(slow=SLOW_SHELLS, extras=SHELL_EXTRAS), ids=_name)
def test_every_shell_example_runs(document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:

    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    (work / "scripts").symlink_to(ROOT / "scripts")
    env = _tools(tmp_path / "bin")
    monkeypatch.chdir(work)
    for key in ("EXACT_ODDS_CACHE_DIR", "MPLBACKEND", "COLUMNS"):
        monkeypatch.setenv(key, env[key])
    failures: list[str] = []
    for command in commands(document):
        started = time.perf_counter()
        argv = in_process(command.text)
        if argv is not None:
            status = _status(argv)
            error = capsys.readouterr().err
        else:
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command.text], cwd=work, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT,
                                  check=False)
            status, error = done.returncode, done.stderr
        seconds = time.perf_counter() - started
        if status != command.status:
            failures.append(f"{command.document}:{command.line}: {command.text}\n  exit {status}, "
                            f"expected {command.status} ({seconds:.1f} s)\n  {error.strip()[-800:]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("document", _cases(extras=PYTHON_EXTRAS), ids=_name)
def test_every_python_example_runs_as_a_doctest(document: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for block in blocks(document.read_text(encoding="utf-8")):
        if block.language in ("python", "pycon"):
            assert any(line.startswith(">>> ") for line in block.lines), (
                f"{_name(document)}:{block.line}: a Python example is a >>> session, so that it runs")
    result = doctest.testfile(str(document), module_relative=False, optionflags=doctest.ELLIPSIS,
                              encoding="utf-8", report=True)
    assert result.failed == 0, f"{_name(document)}: {result.failed} of {result.attempted} examples failed"


# ---------------------------------------------------------------- files and links


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_example_file_named_is_shipped(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/.-])(examples/[\w./-]*\w)", text))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, f"{_name(document)} names files examples/ does not hold: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_relative_link_resolves(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    broken = []
    for target in local:
        path = (document.parent / target).resolve()
        if not path.exists() and _name(path) not in WRITTEN_ELSEWHERE:
            broken.append(target)
    assert not broken, f"{_name(document)} links to missing files: {broken}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """The anchors of a document's headings (lines in fenced blocks are not headings)."""
    found: set[str] = set()
    fence = ""
    for line in document.read_text(encoding="utf-8").splitlines():
        if fence:
            fence = "" if line.startswith(fence) else fence
        elif opening := re.match(r"^```+", line):
            fence = opening.group(0)
        elif heading := re.match(r"^#+ (.+)$", line):
            found.add(_anchor(heading.group(1)))
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_anchor_names_a_heading(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    wrong = []
    for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
        page = (document.parent / target).resolve() if target else document
        if page.suffix == ".md" and page.exists() and anchor not in anchors(page):
            wrong.append(f"{target}#{anchor}")
    assert not wrong, f"{_name(document)} links to headings that do not exist: {wrong}"


# ---------------------------------------------------------------- the quick start


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start\n"):]
    (block,) = [b for b in blocks(section) if b.language in SHELLS][:1]
    return [line for line in block.lines if line.strip()]


def test_the_quick_start_is_two_commands_and_the_second_is_what_ci_runs() -> None:
    first, second = _quick_start()
    assert first == "python3 -m pip install . && exact-odds report"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    (tests,) = [line for line in ci if "pytest" in line]
    assert second == tests.replace("pip install -q ", "pip install "), (second, tests)
