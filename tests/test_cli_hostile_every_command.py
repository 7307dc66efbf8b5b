"""The hostile inputs of the contract, for every command that takes them (found from the parser, so that a
command or an option added later is covered the day it is added).

- numbers ``int()`` refuses or that exceed its 4,300 digits (``--decks ²``, 5,000 digits, 800 nines,
  ``--shoe A=1`` then 5,000 zeros) in every command with a shoe; payouts of 4,000 nines, ``1e100000``,
  ``1e999999999`` and ``-2`` in every command with ``--config``;
- a FIFO, ``/dev/zero``, ``/dev/urandom``, a name of 5,000 characters and bytes that are not UTF-8 as
  every file a command reads, and TOML nested 100,000 deep as every TOML file;
- a device node, a directory, a name of 5,000 characters and a missing directory as every file a
  command writes;
- a full disk, a closed standard output and ``PYTHONIOENCODING=ascii`` under every command.

Each case: exit status 2 (or, for an ASCII-only output, 0), exactly one line on stderr, within the
fuzzing suite's budgets of CPU and memory (the cases run as :func:`test_cli_fuzz.sandboxed` runs them: in a
fork, its memory growth measured), and no temporary file left.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli_fuzz import BASE, COMMANDS, FORKING, _kind, _name, case_directory, problem, sandboxed

from exact_odds.cli import main

pytestmark = pytest.mark.skipif(not FORKING, reason="POSIX fork and /proc (Linux)")

PYTHON = [sys.executable, "-m", "exact_odds"]
QUICK: dict[str, tuple[str, ...]] = {**BASE, "session": ("--bet", "banker", "--hands", "5", "--sessions", "10"),
                                     "simulate": ("--rounds", "200"), "study": ("--shoes", "1", "--decks", "1"),
                                     "count": ("--count", "jacobson-dragon-7", "--shoes", "1", "--decks", "1"),
                                     "bunco": ("--simulate", "20")}
"""A fast good command line of each command."""


def _options(command: str) -> dict[str, argparse.Action]:
    return {_name(a): a for a in COMMANDS[command]._actions if a.option_strings}


def _with(command: str, option: str, *values: str) -> tuple[str, ...]:
    """The quick command line of ``command`` with ``option`` set (replacing the same option of the quick line)."""
    base = list(QUICK.get(command, ()))
    if option in base:
        i = base.index(option)
        del base[i:i + 2]
    if option in ("--decks", "--shoe") and "--decks" in base:  # they exclude each other
        i = base.index("--decks")
        del base[i:i + 2]
    return (command, *base, option, *values)


def _refused(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], workdir: Path) -> str:
    """Run ``argv`` sandboxed; require exit status 2, one line, no other problem; return the line."""
    outcome = sandboxed(capsys, argv, workdir)
    found = problem(outcome, workdir)
    assert found is None, f"{argv[:6]}: {found}\n{outcome.crash or outcome.err}"
    assert outcome.code == 2, (argv[:6], outcome.code, outcome.out[:300])
    return outcome.err


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Each command once in this process, so that forked cases start with its imports loaded."""
    for command, argv in QUICK.items():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                contextlib.suppress(Exception):
            main([command, *argv])


@pytest.fixture
def workdir() -> Iterator[Path]:
    with case_directory() as path:
        yield path


# ---------------------------------------------------------------- numbers

SHOE_COMMANDS = sorted(c for c in COMMANDS if "--decks" in _options(c))
CONFIG_COMMANDS = sorted(c for c in COMMANDS if "--config" in _options(c))
NUMBERS = {"superscript": ("--decks", "²"), "5000-digits": ("--decks", "9" * 5000),
           "800-nines": ("--decks", "9" * 800), "shoe-5000-zeros": ("--shoe", "A=1" + "0" * 5000)}
PAYOUTS = {"4000-nines": "9" * 4000, "long-exponent": "1e100000", "huge-exponent": "1e999999999", "negative": "-2"}


def test_the_shoe_commands_are_found() -> None:
    assert {"odds", "edges", "study", "simulate", "session", "verify"} <= set(SHOE_COMMANDS)


@pytest.mark.parametrize("number", sorted(NUMBERS))
@pytest.mark.parametrize("command", SHOE_COMMANDS)
def test_hostile_numbers_in_every_shoe_command(capsys: pytest.CaptureFixture[str], workdir: Path, command: str,
                                               number: str) -> None:
    option, value = NUMBERS[number]
    err = _refused(capsys, _with(command, option, value), workdir)
    assert "must be a whole number" in err and len(err) < 500, err


@pytest.mark.parametrize("payout", sorted(PAYOUTS))
@pytest.mark.parametrize("command", CONFIG_COMMANDS)
def test_hostile_payouts_in_every_configuration(capsys: pytest.CaptureFixture[str], workdir: Path, command: str,
                                                payout: str) -> None:
    config = workdir / "config.toml"
    config.write_text(f'[banker]\nwin = "{PAYOUTS[payout]}"\n[player]\nwin = "1"\n[tie]\nwin = "8"\n')
    err = _refused(capsys, _with(command, "--config", str(config)), workdir)
    assert ":2: banker win: " in err and len(err) < 500, err


# ---------------------------------------------------------------- files that are no files, or not text

FILE_OPTIONS = sorted((c, _name(a)) for c, p in COMMANDS.items() for a in p._actions if _kind(a) == "file")
SPECIALS = {"fifo": "it is a FIFO", "/dev/zero": "it is a character device", "/dev/urandom": "it is a character device",
            "long-name": "(5,000 characters): File name too long"}
PATHS = {"long-name": "L" * 5000}


def test_the_file_options_are_found() -> None:
    found = set(FILE_OPTIONS)
    assert {("batch", "--input"), ("verify", "log"), ("bunco", "--verify"), ("odds", "--rules"),
            ("simulate", "--verify-rules"), ("study", "--input"), ("roads", "--input")} <= found


def _reading(command: str, option: str, path: str) -> tuple[str, ...]:
    if option == "log" or (command, option) in (("verify", "--input"), ("bunco", "--verify"), ("bunco", "--party"),
                                                ("bunco", "--tally")):
        return (command, path) if option == "log" else (command, option, path)  # the file alone
    extra = ("--verify",) if option == "--verify-rules" else ()
    return (*_with(command, option, path), *extra)


@pytest.mark.parametrize("special", sorted(SPECIALS))
@pytest.mark.parametrize(("command", "option"), FILE_OPTIONS)
def test_every_file_refuses_what_is_no_file(capsys: pytest.CaptureFixture[str], workdir: Path, command: str,
                                            option: str, special: str) -> None:
    if special.startswith("/dev/") and not Path(special).exists():
        pytest.skip("no device nodes")
    err = _refused(capsys, _reading(command, option, PATHS.get(special, special)), workdir)
    name_or_file = (command, option, special) == ("simulate", "--bets", "long-name")  # can be no file: a bet name
    assert (SPECIALS[special] if not name_or_file else "unknown bet 'LLLL") in err and len(err) < 1000, err


TOML_OPTIONS = sorted([*((c, o) for c, o in FILE_OPTIONS if o in ("--rules", "--bets", "--game", "--verify-rules")),
                       *((c, "--config") for c in CONFIG_COMMANDS)])


@pytest.mark.parametrize(("command", "option"), TOML_OPTIONS)
def test_every_toml_file_refuses_deep_nesting(capsys: pytest.CaptureFixture[str], workdir: Path, command: str,
                                              option: str) -> None:
    path = workdir / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    err = _refused(capsys, _reading(command, option, str(path)), workdir)
    assert ":1: nested more than 32 deep" in err, err


WRITTEN = sorted((c, _name(a)) for c, p in COMMANDS.items() for a in p._actions if _kind(a) == "written")
TARGETS = {"device": "/dev/null", "directory": "dir", "long-name": "L" * 5000 + ".png", "missing-directory": "no/x.png"}


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize(("command", "option"), WRITTEN)
def test_every_written_file_refuses_a_bad_target(capsys: pytest.CaptureFixture[str], workdir: Path, command: str,
                                                 option: str, target: str) -> None:
    """A device node, a directory, a name too long, a missing directory: refused in one line, nothing written."""
    before = sorted(p.name for p in workdir.iterdir())
    err = _refused(capsys, _with(command, option, TARGETS[target]), workdir)
    assert len(err) < 1000 and sorted(p.name for p in workdir.iterdir()) == before, err


@pytest.mark.parametrize(("command", "option"), FILE_OPTIONS)
def test_every_file_refuses_bytes_that_are_not_utf8(capsys: pytest.CaptureFixture[str], workdir: Path,
                                                    command: str, option: str) -> None:
    path = workdir / "bad.txt"
    start = {"verify": b"player,banker\nKh 5d,7s 8c\n", "bunco": b"round,dice\n1,1 2 3\n"}.get(command, b"#\n#\n")
    if option == "--tally":
        start = b"round,table,player,wins,losses,buncos,mini_buncos,points\n1,1,A,1,0,0,0,5\n"
    path.write_bytes(start + b"\xff\xfe\x80 x = 1\n")
    err = _refused(capsys, _reading(command, option, str(path)), workdir)
    assert "is not UTF-8 text (line 3)" in err, err


# ---------------------------------------------------------------- a standard output that fails


def _one_line(proc: subprocess.CompletedProcess[str], start: str) -> None:
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith(start), proc.stderr[-2000:]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_on_a_full_disk(command: str, tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*PYTHON, command, *QUICK.get(command, ())], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, cwd=tmp_path)
    _one_line(proc, "exact-odds: error: cannot write to standard output: No space left on device")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_with_stdout_closed(command: str, tmp_path: Path) -> None:
    proc = subprocess.run(["/bin/sh", "-c", '"$@" >&-', "sh", *PYTHON, command, *QUICK.get(command, ())],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    _one_line(proc, "exact-odds: error: cannot write to standard output: it is closed")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_under_an_ascii_encoding(command: str, tmp_path: Path) -> None:
    """Either the output fits in ASCII (a good run) or one line says which encoding to use."""
    proc = subprocess.run([*PYTHON, command, *QUICK.get(command, ())], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    if proc.returncode == 0:
        assert proc.stderr == "" and proc.stdout.isascii()
    else:
        _one_line(proc, "exact-odds: error: cannot write to standard output: its encoding (ascii)")


STDIN_READERS = [("batch", "--input", "-"), ("verify", "-"), ("roads", "--input", "-"), ("study", "--input", "-"),
                 ("bunco", "--verify", "-")]
"""The command lines that read standard input ('-')."""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no device nodes")
@pytest.mark.parametrize("source", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("argv", STDIN_READERS, ids=" ".join)
def test_standard_input_that_never_ends(argv: tuple[str, ...], source: str, tmp_path: Path) -> None:
    """Standard input of endless zeros or random bytes: read under the cap (or line by line), refused in one line."""
    with open(source, "rb") as endless:
        proc = subprocess.run([*PYTHON, *argv], stdin=endless, capture_output=True, text=True, timeout=60,
                              cwd=tmp_path)
    _one_line(proc, "exact-odds: error: ")  # random bytes may begin with a line of UTF-8: then what it lacks
    assert proc.stdout == "", proc.stdout[:300]
