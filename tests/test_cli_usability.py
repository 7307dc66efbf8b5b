"""The small things a command line user expects: --version, errors that point to the help,
"wrote FILE" after --output, completion scripts, progress on a terminal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import body, run

from exact_odds import __version__
from exact_odds.cli import FAMILY_OF

ROOT = Path(__file__).resolve().parent.parent
PYTHON = [sys.executable, "-m", "exact_odds"]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


# ---------------------------------------------------------------- --version


def test_version_prints_the_package_version_and_exits_0() -> None:
    proc = subprocess.run([*PYTHON, "--version"], capture_output=True, text=True, timeout=60, env=ENV)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"exact-odds {__version__}\n" and __version__ != ""


def test_the_version_is_the_installed_packages() -> None:
    """The package's metadata is built from ``exact_odds.__version__``: they cannot differ."""
    from importlib.metadata import version as installed

    assert __version__ == installed("exact-odds")


def test_version_imports_nothing_heavy() -> None:
    code = ("import sys; from exact_odds.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as stop:\n    assert stop.code in (0, None)\n"
            "heavy = {'numpy', 'sympy', 'matplotlib', 'tabulate', 'shtab'} & set(sys.modules)\n"
            "assert not heavy, heavy\n"
            "assert 'exact_odds.cli.options' in sys.modules\n"
            "assert 'exact_odds.cli.reference' not in sys.modules  # no command's family module\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=ENV)
    assert proc.returncode == 0, proc.stderr


# ---------------------------------------------------------------- errors point to the command's help

BAD = {
    "odds": ["--decks", "x"], "edges": ["--config", "nonsense"], "parsheet": ["--bet", "nonsense"],
    "symbolic": ["--shoe", "A=3"], "report": ["--bogus"], "sidebets": ["--bet", "nonsense"],
    "simulate": ["--coups", "-5"], "deal": ["--coup", "0"], "session": ["--bet", "banker", "--bankroll", "x"],
    "roads": ["--input", "/nonexistent/results.txt"], "bunco": ["--seed", "3"], "eor": ["--max-tag", "0"],
    "batch": ["--input", "/nonexistent.csv"], "study": ["--decks", "1"], "count": ["--shoes", "2"],
    "advantage": ["--position", "9"], "chemin-de-fer": ["--model", "C1"], "verify": [], "completion": ["fish"],
}
"""A bad command line of every command: a usage error or bad input."""


def test_every_command_has_a_bad_example() -> None:
    assert set(BAD) == set(FAMILY_OF)


@pytest.mark.parametrize("command", sorted(BAD))
def test_errors_end_with_the_commands_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = run(capsys, command, *BAD[command])
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("exact-odds: error: ") and err.endswith(f" (see 'exact-odds {command} --help')\n"), err


@pytest.mark.parametrize(("argv", "help_of"), [
    (["odds", "--decks", "1", "stray"], "exact-odds odds"), (["eor", "--bogus"], "exact-odds eor"),
    (["nosuchcommand"], "exact-odds"), ([], "exact-odds")])
def test_usage_errors_point_to_the_nearest_help(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                help_of: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.endswith(f" (see '{help_of} --help')\n") and len(err.splitlines()) == 1


def test_a_failed_write_does_not_point_to_the_help(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(text: str) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sys.stdout, "write", fail)
    code, _, err = run(capsys, "odds", "--decks", "1")
    assert code == 2 and err == "exact-odds: error: cannot write to standard output: No space left on device\n"


# ---------------------------------------------------------------- "wrote FILE"


@pytest.mark.parametrize("argv", [("odds", "--decks", "1"), ("deal", "--seed", "7"), ("bunco",),
                                  ("completion", "bash"), ("batch", "--input", str(ROOT / "examples" /
                                                                                   "compositions.csv"))])
def test_output_says_what_it_wrote(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]) -> None:
    target = tmp_path / "out.txt"
    code, out, err = run(capsys, *argv, "--output", str(target))
    assert code == 0 and out == "" and err == f"exact-odds: wrote {str(target)!r}\n"
    assert target.read_text(encoding="utf-8")


@pytest.mark.parametrize(("argv", "name"), [
    (("simulate", "--coups", "20", "--seed", "1", "--log"), "coups.csv"),
    (("eor", "--decks", "1", "--bet", "banker", "--format", "csv", "--plot"), "eor.png"),
    (("count", "--count", "jacobson-dragon-7", "--shoes", "2", "--seed", "1", "--decks", "1", "--plot"), "count.png"),
])
def test_every_file_written_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...],
                                     name: str) -> None:
    """A file of --plot or --log is named on stderr as one of --output is, in the order of the options."""
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    side, target = tmp_path / name, tmp_path / "out.txt"
    code, out, err = run(capsys, *argv, str(side), "--output", str(target))
    assert code == 0 and out == "" and side.stat().st_size and target.stat().st_size
    assert err == f"exact-odds: wrote {str(side)!r}\nexact-odds: wrote {str(target)!r}\n"


def test_quiet_keeps_the_wrote_line_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "eor.csv"
    code, out, err = run(capsys, "eor", "--decks", "1", "--bet", "tie", "--format", "csv", "-o", str(target),
                         "--quiet")
    assert (code, out, err) == (0, "", "") and body(target.read_text()).startswith("# Effects of removal")


def test_no_wrote_line_without_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "odds", "--decks", "1")[2] == ""


# ---------------------------------------------------------------- completion


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_scripts_are_written(capsys: pytest.CaptureFixture[str], shell: str) -> None:
    code, out, err = run(capsys, "completion", shell)
    assert code == 0 and err == "" and "exact-odds" in out
    assert all(word in out for word in ("odds", "parsheet", "decks", "format", "completion"))


BASH_COMPLETE = """
source "$1"
complete_words() {
    COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    _shtab_exact_odds
    printf '%s\\n' "${COMPREPLY[@]}" | sort -u | tr '\\n' ' '; echo
}
complete_words exact-odds od
complete_words exact-odds odds --for
complete_words exact-odds odds --format ''
complete_words exact-odds parsheet --b
complete_words exact-odds completion ''
complete_words exact-odds odds --game examples/games/my-c
complete_words exact-odds sidebets --bet banker dra
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_choices_files_and_bets(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    run(capsys, "completion", "bash", "--output", str(tmp_path / "exact-odds.bash"))
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    proc = subprocess.run(["bash", "-c", BASH_COMPLETE, "bash", str(tmp_path / "exact-odds.bash")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert [line.split() for line in proc.stdout.splitlines()] == [
        ["odds"], ["--format"], ["csv", "html", "json", "latex", "markdown", "table", "xlsx"], ["--bet", "--bets"],
        ["bash", "tcsh", "zsh"], ["examples/games/my-casino.toml"],
        ["dragon-7", "dragon-bonus-banker", "dragon-bonus-player"]]


# ---------------------------------------------------------------- progress


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("quiet", [False, True])
def test_eor_shows_progress_on_a_terminal_only(quiet: bool) -> None:
    import pty

    argv = [*PYTHON, "eor", "--decks", "1", "--bet", "banker,perfect-pair", "--format", "csv"]
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([*argv, *(["--quiet"] if quiet else [])], stdout=subprocess.PIPE, stderr=follower,
                              timeout=120, env=ENV)
        os.close(follower)
        shown = _read_all(leader)
    finally:
        os.close(leader)
    assert proc.returncode == 0 and body(proc.stdout.decode()).startswith("# Effects of removal")
    if quiet:
        assert shown == b""
    else:
        assert b"eor [" in shown and b"100%" in shown and shown.endswith(b"\r")
    piped = subprocess.run(argv, capture_output=True, timeout=120, env=ENV)  # not a terminal: no bar
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout == proc.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("argv", "label"), [
    (("advantage", "--decks", "1", "--position", "1", "--bet", "banker,player"), b"advantage ["),
    (("report", "--decks", "1", "--eor", "--config", "standard"), b"eor ["),
])
def test_long_commands_show_progress_on_a_terminal(argv: tuple[str, ...], label: bytes) -> None:
    """``advantage`` (86 s with every bet and three positions) and ``report --eor`` had run silently."""
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([*PYTHON, *argv, "--format", "csv"], stdout=subprocess.PIPE, stderr=follower,
                              timeout=300, env=ENV)
        os.close(follower)
        shown = _read_all(leader)
    finally:
        os.close(leader)
    assert proc.returncode == 0
    assert label in shown and shown.endswith(b"\r")


def _read_all(fd: int) -> bytes:
    data = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the other end is closed
            return data
        if not chunk:
            return data
        data += chunk


def test_the_games_help_names_only_the_commands_own_options() -> None:
    """--game's help names the options that replace a part of the game where the command has them: odds
    had been told that --cut-card, --config and --bets would, and refused each."""
    import argparse
    import re

    from exact_odds.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen = 0
    for command in {id(p): p for p in sub.choices.values()}.values():
        options = {o for action in command._actions for o in action.option_strings}
        game = next((a for a in command._actions if "--game" in a.option_strings), None)
        if game is None:
            continue
        seen += 1
        named = set(re.findall(r"--[a-z-]+[a-z]", str(game.help)))
        assert named <= options, (command.prog, named - options)
        assert ("--cut-card" in named) == ("--cut-card" in options) and ("--bets" in named) == ("--bets" in options)
    assert seen >= 10


# ---------------------------------------------------------------- words that are true


def test_percentile_columns_are_labelled_as_percentiles(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "study", "--shoes", "2", "--seed", "1", "--decks", "1", "--format", "csv", "-q")[1]
    header = next(line for line in out.splitlines() if line.startswith("bet,full shoe"))
    assert ",min,p1,p5,p25,p50,p75,p95,p99,max," in header and "q25" not in header


def test_a_replayed_record_does_not_claim_a_burn(capsys: pytest.CaptureFixture[str]) -> None:
    """The replay starts with the record's first card: its provenance says so, not "burn by the first card"."""
    out = run(capsys, "study", "--input", str(ROOT / "examples" / "shoe_record.txt"), "--bet", "banker")[1]
    procedure = next(line for line in out.splitlines() if line.startswith("procedure"))
    assert "burn by the first card" not in procedure and "replayed from its first card" in procedure
    data = json.loads(run(capsys, "study", "--input", str(ROOT / "examples" / "shoe_record.txt"), "--bet", "banker",
                          "--format", "json")[1])
    assert data["provenance"]["procedure"] is None
