"""Fuzzing the command line: hostile arguments and files for every command and every option.

Hypothesis builds each case from the parser itself (every subcommand, every option, found by
introspection, so that an option is fuzzed the day it is added): a few options of one command
with hostile values (numbers in every spelling: Unicode digits, 5,000 digits, NaN, infinities,
1e999999999, int64's edges; shoe and card specs; odd names), hostile input files (deep TOML,
random and non-UTF-8 bytes, the example files mutated, /dev/zero, /dev/urandom, a FIFO, a
directory, names of 5,000 characters) and hostile output targets (a FIFO, a link to /dev/null,
a directory, a missing directory).

The contract every case must keep:

- exit status 0, 1 or 2, and never a traceback;
- on 2: exactly one line on stderr, ``exact-odds: error: ...``, and nothing on stdout;
- on 0 or 1: nothing on stderr;
- at most :data:`TIME_BUDGET` seconds of CPU and :data:`MEMORY_BUDGET` MB of memory growth;
- no temporary file left behind.

How a case runs: in a fork of the test process (no interpreter start-up, caches warm, so a case
costs milliseconds), in its own directory, with its address space capped (a runaway allocation
raises ``MemoryError`` instead of taking the machine down) and a wall-clock backstop that kills
its process group (a read from a FIFO that blocks forever). Without ``fork`` (Windows) a case
runs in-process with the time check only. :func:`test_subprocess_limits` runs a few cases as real
processes under ``resource`` limits, as a user would.

How many cases: the Hypothesis profile (see ``tests/conftest.py``). ``ci``, the default and what CI
runs with the rest of the suite, tries ``FUZZ_CI`` (20) command lines per command, a sample that
changes from run to run; ``thorough`` tries 2,000 per command, and ``EXACT_ODDS_FUZZ_EXAMPLES=N``
sets the number whatever the profile.

Running the thorough fuzzing
----------------------------
Before a release, or after changing how a number, a name or a file is read::

    EXACT_ODDS_HYPOTHESIS=thorough python3 -m pytest tests/test_cli_fuzz.py

On a shared 2-core machine it is long (some 3 to 5 minutes per command for 2,000 cases, more for the
commands that deal coups: ``session``, ``simulate``, ``study``, ``count``), so run it command by
command, in the background, each to a report of its own::

    for c in odds edges sidebets study session; do
        EXACT_ODDS_HYPOTHESIS=thorough EXACT_ODDS_FUZZ_REPORT=fuzz-$c.jsonl \
            python3 -m pytest -q "tests/test_cli_fuzz.py::test_hostile_command_lines[$c]" --hypothesis-show-statistics
    done

Run it on a copy of the tree (``git archive HEAD | tar -x -C /tmp/copy``) when you go on editing
meanwhile: the commands import their modules when they run, so an edit made during the run shows up
as findings that are not. ``EXACT_ODDS_FUZZ_REPORT`` names a file to survey rather than stop at
the first failure: each problem is appended to it as a JSON line (command line, problem, traceback,
CPU, memory growth) and the run goes on; an empty or missing file means nothing was found.
``--hypothesis-show-statistics`` counts the exit statuses and the :data:`PENDING` cases met. A
failure prints the ``@reproduce_failure`` blob and the command line to run again.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pickle
import re
import resource
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from conftest import fuzz_settings, run
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from exact_odds.cli import WRITTEN_FILES, build_parser, main

EXAMPLES = Path(__file__).parent.parent / "examples"

TIME_BUDGET = 5.0
"""CPU seconds a case may take (the contract: under 5 s)."""
MEMORY_BUDGET = 500
"""MB a case may grow by (the contract: under 500 MB)."""
WALL_LIMIT = 30.0
"""Seconds after which a case is killed (a blocked read, a loop that never ends)."""
ADDRESS_SPACE = 2 << 30
"""Bytes of address space a forked case may add: past them an allocation raises MemoryError."""
REPORT = os.environ.get("EXACT_ODDS_FUZZ_REPORT")

# ---------------------------------------------------------------- running one case


@dataclass(frozen=True)
class Outcome:
    """What one command line did: exit status (``None`` if it raised or was killed), output, cost."""

    code: int | None
    out: str
    err: str
    crash: str
    cpu: float
    growth_mb: float
    killed: bool


def _statm() -> tuple[int, int]:
    """This process's (address space, resident set) in bytes, from /proc."""
    size, resident = Path("/proc/self/statm").read_text().split()[:2]
    page = os.sysconf("SC_PAGE_SIZE")
    return int(size) * page, int(resident) * page


FORKING = hasattr(os, "fork") and Path("/proc/self/statm").exists()


def _child(capsys: pytest.CaptureFixture[str], argv: Sequence[str], workdir: Path, pipe: int) -> None:
    """Run ``argv`` in this forked process and send the result up ``pipe``; never returns."""
    status = 70
    try:
        os.setpgid(0, 0)
        os.chdir(workdir)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115  (``-`` reads nothing, not pytest's stdin)
        space, _ = _statm()
        resource.setrlimit(resource.RLIMIT_AS, (space + ADDRESS_SPACE, resource.RLIM_INFINITY))
        try:
            result: tuple[Any, ...] = (*run(capsys, *argv), "")
        except BaseException:  # the contract is broken: report the traceback
            out, err = capsys.readouterr()
            result = (None, out, err, traceback.format_exc())
        payload = memoryview(pickle.dumps(result))
        while payload:
            payload = payload[os.write(pipe, payload):]
        status = 0
    finally:
        os._exit(status)


def _collect(pipe: int, pid: int) -> tuple[bytes, bool]:
    """Read the child's result until it closes the pipe, or kill its group after :data:`WALL_LIMIT`."""
    deadline = time.monotonic() + WALL_LIMIT
    chunks: list[bytes] = []
    killed = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            killed = True
            break
        if select.select([pipe], [], [], left)[0]:
            chunk = os.read(pipe, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(pipe)
    return b"".join(chunks), killed


def sandboxed(capsys: pytest.CaptureFixture[str], argv: Sequence[str], workdir: Path) -> Outcome:
    """Run the command line ``argv`` in a fork of this process (see the module), or in-process without fork."""
    if not FORKING:
        return _in_process(capsys, argv, workdir)
    _, resident = _statm()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(capsys, argv, workdir, write)
    os.close(write)
    data, killed = _collect(read, pid)
    _, status, usage = os.wait4(pid, 0)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)  # anything the case left running (worker processes)
    if not data:
        how = (f"signal {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status)
               else f"exit status {os.waitstatus_to_exitcode(status)}")
        code, out, err, crash = None, "", "", "killed" if killed else f"the case died without a result ({how})"
    else:
        code, out, err, crash = pickle.loads(data)
    growth = usage.ru_maxrss / 1024 - resident / 2**20
    return Outcome(code, out, err, crash, usage.ru_utime + usage.ru_stime, growth, killed)


def _in_process(capsys: pytest.CaptureFixture[str], argv: Sequence[str], workdir: Path) -> Outcome:
    start, cwd = time.process_time(), os.getcwd()
    os.chdir(workdir)
    try:
        code, out, err, crash = (*run(capsys, *argv), "")
    except Exception:
        out, err = capsys.readouterr()
        code, crash = None, traceback.format_exc()
    finally:
        os.chdir(cwd)
    return Outcome(code, out, err, crash, time.process_time() - start, 0.0, False)


WROTE = "exact-odds: wrote "
"""The one line a successful command may say on stderr: that it wrote its ``--output`` file."""


def problem(outcome: Outcome, workdir: Path) -> str | None:
    """What breaks the contract (see the module), or ``None``."""
    if outcome.killed:
        return f"still running after {WALL_LIMIT:.0f} s"
    if outcome.crash:
        return f"raised {outcome.crash.strip().splitlines()[-1][:300]}"
    if "Traceback" in outcome.err:
        return "a traceback on stderr"
    if outcome.code not in (0, 1, 2):
        return f"exit status {outcome.code}"
    lines = outcome.err.splitlines()
    if outcome.code == 2 and (len(lines) != 1 or not lines[0].startswith("exact-odds: error: ")):
        return f"exit status 2 with {len(lines)} lines on stderr"
    if outcome.code == 2 and outcome.out:
        return "exit status 2 with output on stdout"
    said = [line for line in lines if not line.startswith(WROTE)]
    if outcome.code in (0, 1) and said:
        return f"exit status {outcome.code} with stderr {outcome.err[:200]!r}"
    if outcome.cpu > TIME_BUDGET:
        return f"{outcome.cpu:.1f} s of CPU"
    if outcome.growth_mb > MEMORY_BUDGET:
        return f"grew by {outcome.growth_mb:.0f} MB"
    left = [p.name for p in workdir.rglob(".*.tmp")]
    if left:
        return f"left temporary files {left}"
    return None


def shown_argv(argv: Sequence[str]) -> str:
    """A command line as one would type it, long arguments cut."""
    return "exact-odds " + " ".join(shlex.quote(a if len(a) <= 60 else f"{a[:40]}…({len(a)} chars)") for a in argv)


PENDING: list[tuple[str, str, str]] = [
]
"""Known problems not fixed yet: (why, pattern of the command line, pattern of the problem). A case that
matches is counted (``--hypothesis-show-statistics``), not failed, unless ``EXACT_ODDS_FUZZ_PENDING=fail``;
remove an entry when its fix lands. Empty: every problem the fuzzing has found is fixed, each with a
regression test (``NAMED`` below, ``tests/test_cli_hostile_findings.py``)."""


def _pending(argv: Sequence[str], found: str) -> str | None:
    if os.environ.get("EXACT_ODDS_FUZZ_PENDING") == "fail":
        return None
    line = " ".join(argv)
    return next((why for why, command, what in PENDING if re.search(command, line) and re.search(what, found)), None)


def _count(what: str) -> None:
    """Count ``what`` in Hypothesis's statistics (``--hypothesis-show-statistics``), inside a Hypothesis test."""
    if currently_in_test_context():
        event(what)


def check(capsys: pytest.CaptureFixture[str], argv: Sequence[str], workdir: Path) -> None:
    """Run ``argv`` sandboxed and fail (or, with ``EXACT_ODDS_FUZZ_REPORT``, record) a broken contract.

    A case over the CPU budget alone runs once more, and fails only if it is over it again: its first
    run may have paid for compiling loops that were not in the on-disk cache yet (a fresh clone has
    none), which no input can cause twice."""
    outcome = sandboxed(capsys, argv, workdir)
    found = problem(outcome, workdir)
    if found is not None and outcome.cpu > TIME_BUDGET and problem(replace(outcome, cpu=0.0), workdir) is None:
        outcome = sandboxed(capsys, argv, workdir)
        found = problem(outcome, workdir)
    _count(f"exit status {outcome.code}")
    if found is None:
        return
    pending = _pending(argv, found)
    if pending:
        _count(f"pending: {pending}")
        return
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"argv": shown_argv(argv), "problem": found, "code": outcome.code,
                                 "stderr": outcome.err[-2000:], "traceback": outcome.crash[-4000:],
                                 "cpu": round(outcome.cpu, 2), "growth_mb": round(outcome.growth_mb)}) + "\n")
        return
    detail = "\n".join((outcome.crash or outcome.err).splitlines()[-24:])
    pytest.fail(f"{shown_argv(argv)}: {found}\n{detail}", pytrace=False)


@pytest.mark.parametrize(("costs", "fails"), [((6.0, 1.0), False), ((6.0, 6.0), True), ((1.0,), False)])
def test_a_case_over_the_cpu_budget_runs_once_more(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path, costs: tuple[float, ...], fails: bool) -> None:
    """:func:`check`: over the CPU budget once (a first run that compiled loops) passes, twice fails."""
    runs = iter(Outcome(0, "", "", "", cost, 0.0, False) for cost in costs)
    monkeypatch.setattr(sys.modules[__name__], "sandboxed", lambda *_: next(runs))
    monkeypatch.setattr(sys.modules[__name__], "REPORT", None)
    if fails:
        with pytest.raises(pytest.fail.Exception, match="s of CPU"):
            check(capsys, ["odds"], tmp_path)
    else:
        check(capsys, ["odds"], tmp_path)
    assert next(runs, None) is None


# ---------------------------------------------------------------- hostile values

SPECIAL_NUMBERS = (
    "0", "-1", "-0", "+3", " 8 ", "1_000", "0x10", "1e3", "0.5", "19/20", "3/0", "1/0", "0/0", "-1/2", "1:0",
    "nan", "NaN", "inf", "-inf", "infinity", "1e308", "1e309", "1e-324", "1e999999999", "1e-999999999",
    "1e100000", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
    "4294967296", "2147483648", "", " ", "\t", "\u00a0", "one", "8decks", "8 8", "--8", "1,000",
    "²", "٣", "３", "߃", "𝟙", "1٣", "Ⅷ", "½", "८",
)
UNICODE_DIGITS = "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹０１２３４５６７８９²³¹⁰𝟎𝟏𝟐߀߁߂०१२"

leading_zeros: st.SearchStrategy[str] = st.tuples(st.sampled_from(["", "-", "+"]), st.integers(1, 6000),
                                                 st.sampled_from(["8", "1", "0", "19/20", "0.5", "1e3", "2:1", "9" * 9])
                                                 ).map(lambda t: f"{t[0]}{'0' * t[1]}{t[2]}")
"""A number after thousands of leading zeros: read as the number, never converted whole."""
empty_values: st.SearchStrategy[str] = st.sampled_from(["", " ", ",", ",,", "|", "=", "a=", "1=7|", "1=|7", "high=",
                                                        "high=6||7", "banker,", ",banker", "name=, bet=dragon-7"])
"""Values that are empty, or hold an empty item: refused, never read as "nothing" or "the default"."""
control_names: st.SearchStrategy[str] = st.tuples(
    st.sampled_from(["banker", "high=6|7|8|9", "1=7", "name=n, 4|5=1, bet=dragon-7, tc>=4", "banker=5,player=4,tie=1"]),
    st.sampled_from(["\x1b[31m", "\x07", "\n", "\r", "\t", "\x85", "\u2028", "\x7f", "\x1b]0;x\x07"]),
    st.integers(0, 8)).map(lambda t: t[0][:t[2]] + t[1] + t[0][t[2]:])
"""A name of the command line with a control character in it (refused, as in a file)."""
numbers: st.SearchStrategy[str] = st.one_of(
    st.integers(-3, 60).map(str),
    leading_zeros,
    st.sampled_from(SPECIAL_NUMBERS),
    st.integers(-(10**40), 10**40).map(str),
    st.integers(1, 8).map(lambda k: str(10 ** (6 * k))),
    st.integers(800, 6000).map(lambda n: "9" * n),
    st.text(alphabet=UNICODE_DIGITS + "0123456789", min_size=1, max_size=4),
    st.floats().map(repr),
    st.fractions().map(str),
)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
ODD_RANKS = ("10", "X", "a", "k", "٣", "1", "0", "", "AA", "♠")
rank_tokens = st.one_of(st.sampled_from(RANKS), st.sampled_from(ODD_RANKS))
card_tokens = st.one_of(
    rank_tokens,
    st.tuples(st.sampled_from(RANKS), st.sampled_from("shdcxS♠♥")).map("".join),
)
shoe_specs = st.one_of(
    st.lists(st.tuples(rank_tokens, numbers).map("=".join), min_size=1, max_size=14).map(",".join),
    st.just("A=1" + "0" * 5000),
    st.sampled_from(["A=4,K=10", "A=32", "", "=", "A==4", "A=4,A=4", "K=100"]),
)
card_lists = st.lists(card_tokens, max_size=12).map(lambda cs: ",".join(cs)) | st.lists(card_tokens, max_size=12).map(
    " ".join)
BET_NAMES = ("banker", "player", "tie", "tie-9/banker", "player-pair", "perfect-pair", "dragon-7", "panda-8",
             "egalite-3", "big", "tiger")
bet_names = st.one_of(
    st.sampled_from(BET_NAMES),
    st.lists(st.sampled_from(BET_NAMES), min_size=1, max_size=4).map(",".join),
    st.sampled_from(["", ",", "banker,,tie", "BANKER", "no-such-bet", "banker\u200b", "é", "-", "all"]),
)
positions = st.one_of(st.integers(-2, 8).map(str), st.sampled_from(["1,3", "1-4", "4-1", "1-", "P1", "B2", "0-9",
                                                                    "1,1", "1-6,1-6", "١"]))
groups = st.one_of(
    st.lists(st.tuples(st.sampled_from(["high", "low", "x", "", "other"]),
                       st.lists(rank_tokens, min_size=1, max_size=5).map("|".join)).map("=".join),
             min_size=1, max_size=4).map(",".join),
    st.lists(rank_tokens, max_size=6).map("|".join),
)
known_specs = st.lists(st.tuples(positions, st.lists(card_tokens, max_size=3).map("|".join)).map("=".join),
                       min_size=1, max_size=3).map(" ".join)
dealt = st.tuples(st.lists(card_tokens, max_size=3), st.lists(card_tokens, max_size=3)).map(
    lambda pb: f"P: {' '.join(pb[0])} B: {' '.join(pb[1])}") | card_lists
count_specs = st.one_of(
    st.sampled_from(["jacobson-dragon-7", "wizard-panda-8", "hilo", ""]),
    st.tuples(st.lists(st.tuples(st.lists(rank_tokens, min_size=1, max_size=4).map("|".join), numbers)
                       .map(lambda rt: f"{rt[0]}={rt[1]}"), min_size=1, max_size=4).map(", ".join),
              bet_names, numbers).map(lambda x: f"{x[0]}, bet={x[1]}, tc>={x[2]}"),
)
verify_counts = st.lists(st.tuples(st.sampled_from(["banker", "player", "tie", "player-pair", "x"]), numbers)
                         .map("=".join), min_size=1, max_size=5).map(",".join)
dask_addresses = st.sampled_from(["", "tcp://", "nonsense", "inproc://x", "tcp://[::1:9", "ucx://127.0.0.1:1",
                                  "tcp://127.0.0.1:9", "tcp://127.0.0.1:99999", "127.0.0.1:1"])
"""Malformed scheduler addresses, and addresses where nothing listens (refused at once)."""
odd_text = st.text(max_size=30).filter(lambda t: "\x00" not in t) | st.sampled_from(
    ["\udcff", "-", "--", "=", "x" * 5000])
"""Odd text; never a NUL, which no real command line can hold."""

SHAPES: dict[str, st.SearchStrategy[str]] = {
    "--shoe": shoe_specs, "--remove": card_lists, "--dealt": dealt, "--known": known_specs, "--bet": bet_names,
    "--bets": bet_names, "--count": count_specs, "--counts": verify_counts, "--groups": groups,
    "--edge-sort": groups, "--position": positions, "--dask": dask_addresses,
}
"""Options whose values have a shape of their own; every other option gets numbers or odd text."""
SPEC_OPTIONS = ("--bet", "--known", "--count", "--counts", "--groups", "--edge-sort")
"""Options made of names: they also get empty values and control characters."""

# ---------------------------------------------------------------- hostile files


def _config_seed() -> str:
    return ('name = "fuzz"\n[banker]\nwin = "19/20"\n[[banker.special]]\ntotal = 6\npays = "1/2"\n'
            '[player]\nwin = "1"\n[tie]\nwin = "9:1"\n')


def _seed(option: str) -> str:
    """A good file for ``option``, to be mutated."""
    from exact_odds.core.tableau import STANDARD_TOML

    files = {"--input": "compositions.csv", "--record": "shoe_record.txt", "--results": "results.txt",
             "log": "coups_log.csv", "--game": "games/my-casino.toml", "--party": "bunco_party.toml",
             "--tally": "bunco_tally.csv"}
    if option in ("--rules", "--verify-rules"):
        return STANDARD_TOML
    if option == "--config":
        return _config_seed()
    if option == "--verify":  # bunco's log of rolls
        return "round,dice,score\n1,3 5 6,0\n1,1 1 1,1\n2,2 2 2,21\n"
    path = EXAMPLES / files.get(option, "side_bets.toml")
    return path.read_text(encoding="utf-8") if path.exists() else _config_seed()


NUMBER = re.compile(r"-?\d+(?:[./:]\d+)?")


@st.composite
def mutated(draw: st.DrawFn, seed: str) -> bytes:
    """``seed`` with a few numbers made hostile, or cut, repeated, nested deep, or sprinkled with bytes."""
    kind = draw(st.sampled_from(["numbers", "numbers", "cut", "bytes", "repeat", "deep", "field"]))
    if kind == "numbers":
        spans = [m.span() for m in NUMBER.finditer(seed)]
        for a, b in sorted(draw(st.lists(st.sampled_from(spans), min_size=1, max_size=3, unique=True)) if spans
                           else [], reverse=True):
            seed = seed[:a] + draw(numbers) + seed[b:]
        return seed.encode("utf-8", "surrogatepass")
    raw = seed.encode("utf-8")
    at = draw(st.integers(0, len(raw)))
    if kind == "cut":
        return raw[:at]
    if kind == "bytes":
        return raw[:at] + draw(st.binary(min_size=1, max_size=20)) + raw[at:]
    if kind == "repeat":
        lines = raw.splitlines(keepends=True) or [b"\n"]
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(i, min(len(lines) - 1, i + 8)))
        return b"".join(lines[:j + 1]) + b"".join(lines[i:j + 1]) * draw(st.integers(2, 5000)) + b"".join(lines[j + 1:])
    if kind == "deep":
        return raw[:at] + b"\n" + draw(deep_toml) + b"\n" + raw[at:]
    line = draw(st.sampled_from(raw.splitlines() or [b""]))
    return raw + b"\n" + line.replace(b",", b",,") + b"\n" + line[: len(line) // 2] + b"\n"


deep_toml: st.SearchStrategy[bytes] = st.integers(1, 100_000).flatmap(lambda d: st.sampled_from([
    b"x = " + b"[" * d + b"]" * d,
    b"x = " + b"{a = " * d + b"1" + b"}" * d,
    b"[" + b".".join([b"a"] * (3 * d)) + b"]",
    b"[[" + b".".join([b"a"] * (3 * d)) + b"]]",
    b".".join([b"a"] * d) + b" = 1",
    b"x = { " + b".".join([b"a"] * d) + b" = 1 }",
    b"[" + b".".join([b'"a.b"'] * min(d, 40)) + b"]\n" + b".".join([b"'[c]'"] * min(d, 40)) + b" = [[1.5]]",
    b"x = " + b"[" * d,
]))
"""TOML nested deep by brackets, table headers (up to 300,000 parts) and dotted keys, quoted parts too."""
generic_files: st.SearchStrategy[bytes] = st.one_of(
    st.binary(max_size=2000),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    deep_toml,
    st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe" + "x = 1".encode("utf-16-le"), b"\x00" * 100, b"\n" * 10_000,
                     b"x" * 1_000_000, b"\r\n\r\n", b"win = \"1e100000\"\n"]),
)
SPECIAL_FILES = ("/dev/null", "/dev/zero", "/dev/urandom", "fifo", "dir", "missing.toml", "L" * 5000, "",
                 "link-to-fifo", "dangling-link", "exists.txt")


@dataclass(frozen=True)
class Content:
    """A file to make in the case's directory before the run."""

    name: str
    data: bytes


def input_files(option: str) -> st.SearchStrategy[str | Content]:
    """A hostile input file for ``option``: a special path or made content."""
    suffix = {"--input": ".csv", "log": ".csv", "--record": ".txt", "--results": ".txt", "--verify": ".csv"}.get(
        option, ".toml")
    made = st.one_of(mutated(_seed(option)), mutated(_seed(option)), generic_files)
    return st.one_of(st.sampled_from(SPECIAL_FILES), made.map(lambda data: Content(f"in{suffix}", data)))


def output_files(option: str) -> st.SearchStrategy[str]:
    """A hostile (or good) target for an option naming a file the command writes."""
    names = ["new.out", "exists.txt", "fifo", "dir", "missing/x", "", "L" * 5000, "link-to-null", "link-to-fifo",
             "dangling-link", "dir/../new2.out", "./", "é.out", "\udcff.out"]
    if option == "--plot":
        names += ["p.png", "p.txt", "p", "p.pgf", "p.PNG", "p.svg", "p."]
    return st.sampled_from(names)


def prepare(workdir: Path) -> None:
    """The special files the strategies name, made in a case's directory."""
    (workdir / "exists.txt").write_text("old\n")
    (workdir / "exists.txt").chmod(0o640)
    os.mkfifo(workdir / "fifo")
    (workdir / "dir").mkdir()
    (workdir / "link-to-null").symlink_to("/dev/null")
    (workdir / "link-to-fifo").symlink_to(workdir / "fifo")
    (workdir / "dangling-link").symlink_to(workdir / "nowhere" / "x")


# ---------------------------------------------------------------- command lines from the parser


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


COMMANDS = _commands()
BASE: dict[str, tuple[str, ...]] = {
    "parsheet": ("--bet", "banker"),
    "session": ("--bet", "banker", "--hands", "20", "--sessions", "50"),
    "simulate": ("--rounds", "2000"),
    "study": ("--shoes", "2", "--decks", "1"),
    "count": ("--count", "jacobson-dragon-7", "--shoes", "2", "--decks", "1"),
    "eor": ("--bet", "banker"),
    "batch": ("--input", str(EXAMPLES / "compositions.csv")),
    "bunco": ("--simulate", "200"),
    "verify": (str(EXAMPLES / "coups_log.csv"),),
    "completion": ("bash",),
}
"""Arguments that keep a command fast and valid, so that a case's hostile options are what it tests
(an option the case sets replaces them)."""
sizes: st.SearchStrategy[str] = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from([t for t in SPECIAL_NUMBERS if t not in ("1_000", "1e3", "1,000")
                     and (not t.strip().lstrip("+").isdigit() or len(t.strip()) > 9)]),
    st.integers(10**12, 10**40).map(str),
    st.integers(800, 6000).map(lambda n: "9" * n),
    st.text(alphabet=UNICODE_DIGITS, min_size=1, max_size=3),
)
"""Values of an option that sizes the work (shoes, coups, sessions, decks): small good ones, bad ones,
and sizes far beyond any documented bound, which must be refused at once. A big request within the
bounds (a million shoes) is a workload, not hostile input: it takes the time it needs, so the
fuzzer does not ask for one."""
WORK_SIZES = ("--decks", "--shoes", "--rounds", "--hands", "--sessions", "--simulate", "--reference-shoes",
              "--max-tag", "--dice", "--sides", "--night")
SAFE_INTS = {"--workers": st.integers(-2, 3).map(str) | st.sampled_from(["0", "", "x", "1e3", "٢"])}
"""Options whose big values are not tested in-process: a thousand worker processes is a fork bomb."""


def _kind(action: argparse.Action) -> str:
    strings = set(action.option_strings)
    if strings & set(WRITTEN_FILES):
        return "written"
    if action.nargs == 0:
        return "flag"
    if action.choices:
        return "choice"
    metavar = str(action.metavar or "")
    if ("FILE" in metavar and "NAME" not in metavar) or metavar == "LOG":  # bunco --verify LOG reads a log too
        return "file"
    return "value"


def _name(action: argparse.Action) -> str:
    return max(action.option_strings, key=len) if action.option_strings else action.dest


def value_strategy(action: argparse.Action) -> st.SearchStrategy[str | Content]:
    """Hostile values of one option."""
    name, kind = _name(action), _kind(action)
    if kind == "written":
        return output_files(name)
    if kind == "file":
        return input_files(name if action.option_strings else "log")
    if kind == "choice":
        return st.sampled_from([str(c) for c in action.choices or ()]) | odd_text
    if name == "--config":  # a name or a file
        return st.sampled_from(["standard", "tie-9", "", "nonesuch"]) | input_files(name)
    if name in SAFE_INTS:
        return SAFE_INTS[name]
    if name in WORK_SIZES:
        return sizes | odd_text
    if name in SPEC_OPTIONS:
        return SHAPES[name] | empty_values | control_names
    return SHAPES.get(name, numbers | odd_text)


@dataclass(frozen=True)
class Case:
    """One command line to run: arguments, some of them files to make first."""

    command: str
    parts: tuple[str | Content, ...]

    def argv(self, workdir: Path) -> list[str]:
        """The command line, after making its files in ``workdir``."""
        out = [self.command]
        for i, part in enumerate(self.parts):
            if isinstance(part, Content):
                path = workdir / f"{i}-{part.name}"
                path.write_bytes(part.data)
                out.append(str(path))
            else:
                out.append(part)
        return out


def _fragment(draw: st.DrawFn, action: argparse.Action) -> list[str | Content]:
    if action.nargs == 0:
        return [action.option_strings[0]]
    values: list[str | Content] = [draw(value_strategy(action))]
    if action.nargs in ("+", "*"):
        values += draw(st.lists(value_strategy(action), max_size=2))
    if not action.option_strings:
        return values
    option = draw(st.sampled_from(action.option_strings))
    if all(isinstance(v, str) for v in values) and len(values) == 1 and draw(st.integers(0, 5)) == 0:
        return [f"{option}={values[0]}"]
    return [option, *values]


@st.composite
def command_lines(draw: st.DrawFn, command: str) -> Case:
    """A command line of ``command``: its base arguments less those replaced, and one to three hostile options."""
    parser = COMMANDS[command]
    actions = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    chosen = draw(st.lists(st.sampled_from(actions), min_size=1, max_size=3, unique_by=id))
    parts: list[str | Content] = []
    for action in chosen:
        parts += _fragment(draw, action)
        if action.option_strings and action.nargs != 0 and draw(st.integers(0, 9)) == 0:  # repeated
            parts += _fragment(draw, action)
    taken = {s for a in chosen for s in a.option_strings}
    exclusive = [{s for a in g._group_actions for s in a.option_strings} for g in parser._mutually_exclusive_groups]
    taken |= {s for g in exclusive if g & taken for s in g}
    base = list(BASE.get(command, ()))
    kept: list[str] = []
    i = 0
    while i < len(base):
        if base[i].startswith("--"):
            if base[i] not in taken:
                kept += base[i:i + 2]
            i += 2
        else:
            if not any(not a.option_strings for a in chosen):
                kept.append(base[i])
            i += 1
    if draw(st.integers(0, 19)) == 0:
        parts.append(draw(st.sampled_from(["--", "-", "--decks", "-x", "--no-such-option", "extra", "-oo"])))
    return Case(command, (*kept, *parts))


@contextlib.contextmanager
def case_directory() -> Iterator[Path]:
    """A fresh directory with the special files, for one case."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as name:
        workdir = Path(name)
        prepare(workdir)
        yield workdir


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Run each command once in this process, and again with the example side bets where it takes
    ``--bets``, so that forked cases start with its imports, caches and compiled loops (a forked case
    that compiles them itself takes seconds: 8 s of CPU for ``study --bets`` on a fresh clone)."""
    for command, parser in COMMANDS.items():
        argv = [command, *BASE.get(command, ())]
        takes_bets = any("--bets" in action.option_strings for action in parser._actions)
        for line in ([argv, [*argv, "--bets", str(EXAMPLES / "side_bets.toml")]] if takes_bets else [argv]):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                    contextlib.suppress(Exception):  # a command that fails here fails its cases, with the reason
                main(line)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@fuzz_settings()
@given(data=st.data())
def test_hostile_command_lines(capsys: pytest.CaptureFixture[str], command: str, data: st.DataObject) -> None:
    """Every command keeps the contract (see the module) on hostile arguments and files."""
    case = data.draw(command_lines(command), label="case")
    with case_directory() as workdir:
        check(capsys, case.argv(workdir), workdir)


# ---------------------------------------------------------------- named cases and real processes

NAMED: list[tuple[str, ...]] = [
    ("odds", "--decks", "²"),
    ("odds", "--decks", "9" * 5000),
    ("odds", "--shoe", "A=1" + "0" * 5000),
    ("odds", "--decks", "9" * 800),
    ("study", "--shoes", "2", "--seed", "-1"),
    ("bunco", "--alpha", "1/0"),
    ("eor", "--plot", "eor.txt"),
    ("odds", "--output", "L" * 5000),
    ("odds", "--output", "link-to-null"),
    ("odds", "--output", "fifo"),
    ("odds", "--output", "dir"),
    ("study", "--shoes", "2", "--thresholds", "nan"),
    ("simulate", "--rounds", "100", "--alpha", "nan"),
    # found by the fuzzing, each fixed where it began
    ("study", "--shoes", "1", "--decks", "1", "--dask", "ucx://127.0.0.1:1"),
    ("deal", "--seed=--"),
    ("study", "--shoes", "1", "--decks", "1", "--thresholds=--"),
    ("simulate", "--rounds", "100", "--bets", "x" * 300),
    ("study", "--shoes", "2", "--decks", "1", "--edge-sort", ""),
    ("advantage", "--position", "1-4"),
    ("odds", "--decks", "0" * 5000 + "8"),
    ("study", "--shoes", "2", "--decks", "1", "--thresholds", "1e6", "-1e6", "0"),
    ("sidebets", "--bet="),
    ("sidebets", "--bet=,"),
    ("odds", "--known", "1=7|"),
    ("advantage", "--groups", ""),
    ("advantage", "--groups", "hi\x1b[31mgh=6|7|8|9"),
    ("count", "--shoes", "2", "--decks", "1", "--count", "name=\x07, 4|5=1, bet=dragon-7, tc>=4"),
]
"""The hostile inputs the contract names, and what the fuzzing found, kept as explicit examples so that a
regression reads well."""


@pytest.mark.parametrize("argv", NAMED, ids=lambda a: shown_argv(a)[:60])
def test_named_hostile_inputs(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """Each keeps the contract, and is refused (exit status 2) but for the one good request among them."""
    with case_directory() as workdir:
        outcome = sandboxed(capsys, argv, workdir)
        found = problem(outcome, workdir)
    assert found is None, f"{shown_argv(argv)}: {found}\n{outcome.crash or outcome.err}"
    assert outcome.code == (0 if argv in GOOD_NAMED else 2), (outcome.code, outcome.err)


GOOD_NAMED = {("odds", "--decks", "0" * 5000 + "8"),
              ("study", "--shoes", "2", "--decks", "1", "--thresholds", "1e6", "-1e6", "0")}
"""Named cases that are good requests: they must run within the budgets."""


def _limits(megabytes: int, seconds: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))

    return apply


SUBPROCESS_CASES: list[tuple[str, ...]] = [
    ("odds", "--rules", "/dev/zero"),
    ("batch", "--input", "/dev/urandom"),
    ("odds", "--rules", "deep.toml"),
    ("odds", "--game", "deep-header.toml"),
    ("odds", "--decks", "9" * 5000),
    ("odds", "--output", "link-to-null"),
    ("session", "--bet", "banker", "--sessions", "10", "--plot", "dir"),
]
"""Real processes under ``resource`` limits (address space, CPU), as a user runs them."""
SUBPROCESS_MEMORY = 1500
"""MB of address space a real process gets (the interpreter with numpy and sympy takes about 600)."""


@pytest.mark.skipif(not FORKING, reason="needs POSIX resource limits")
@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=lambda a: shown_argv(a)[:60])
def test_subprocess_limits(argv: tuple[str, ...]) -> None:
    with case_directory() as workdir:
        (workdir / "deep.toml").write_text("x = " + "[" * 1000 + "]" * 1000)
        (workdir / "deep-header.toml").write_text("[x" + ".a" * 300_000 + "]\n")
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "exact_odds", *argv], cwd=workdir, capture_output=True,
                              text=True, timeout=WALL_LIMIT, env=env,
                              preexec_fn=_limits(SUBPROCESS_MEMORY, int(TIME_BUDGET) + 5))
        elapsed = time.monotonic() - start
        lines = proc.stderr.splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("exact-odds: error: "), proc.stderr
        assert proc.stdout == "" and elapsed < WALL_LIMIT
        assert not list(workdir.rglob(".*.tmp"))
