"""The files of one command commit together, two options never name one file, and ``-o -`` is stdout.

A command that writes a side file (``simulate --log``, ``bunco --log``, ``session --plot``,
``eor --plot``) and a report (``--output``) renames them into place only once every one has
been written: if the report fails, at its write or at its rename, no target is created or
replaced and no temporary file is left. ``--log``, ``--plot`` and ``--output`` naming the same
file (after links) are refused before any work; ``--output -`` is standard output.
"""

from __future__ import annotations

import errno
import os
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import one_line_error, run

from exact_odds.inputs.errors import InputError
from exact_odds.report.files import atomic_file, committed_together

SIDE_FILES = {
    "simulate": (("simulate", "--coups", "10", "--seed", "1", "-q", "--log"), "o8.csv"),
    "bunco": (("bunco", "--simulate", "10", "--seed", "1", "--log"), "o9.csv"),
    "session": (("session", "--bet", "banker", "--seed", "1", "-q", "--sessions", "10", "--hands", "10", "--plot"),
                "g2.png"),
    "eor": (("eor", "--decks", "1", "--bet", "banker", "-q", "--plot"), "g3.png"),
}
"""A command line ending in its side-file option, and the side file's name, by command."""

DRAWN = {"session", "eor"}
"""The commands whose side file is a figure (they need matplotlib)."""

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0 and Path("/proc/self").exists()
"""Running as root where /proc exists: /proc then looks writable to a permission check."""


def leftovers(directory: Path) -> list[str]:
    """Temporary files of an atomic write left in ``directory``."""
    return sorted(p.name for p in directory.glob(".*.tmp"))


def _side_command(command: str, directory: Path) -> tuple[list[str], Path]:
    """``command``'s line writing its side file into ``directory``, and that file."""
    if command in DRAWN:
        pytest.importorskip("matplotlib")
    words, name = SIDE_FILES[command]
    side = directory / name
    return [*words, str(side)], side


def _fail_the_report(monkeypatch: pytest.MonkeyPatch, report: Path, stage: str) -> None:
    """Make writing ``report`` fail with a full disk: its temporary file cannot be made (``write``),
    or it cannot be renamed into place (``rename``); every other file is written as usual."""
    full = OSError(errno.ENOSPC, "No space left on device")
    if stage == "write":
        mkstemp = tempfile.mkstemp

        def failing_mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
            if str(kwargs.get("prefix", "")).startswith(f".{report.name}."):
                raise full
            return mkstemp(*args, **kwargs)  # type: ignore[call-overload, no-any-return]

        monkeypatch.setattr("exact_odds.report.files.tempfile.mkstemp", failing_mkstemp)
    else:
        replace = os.replace

        def failing_replace(src: str, dst: str | Path) -> None:
            if os.path.realpath(dst) == os.path.realpath(report):
                raise full
            replace(src, dst)

        monkeypatch.setattr("exact_odds.report.files.os.replace", failing_replace)


# ---------------------------------------------------------------- side files commit with the report


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
@pytest.mark.parametrize("stage", ["write", "rename"])
@pytest.mark.parametrize("command", list(SIDE_FILES))
def test_a_failed_report_leaves_no_side_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch, command: str, stage: str,
                                             existing: bool) -> None:
    argv, side = _side_command(command, tmp_path)
    report = tmp_path / "report.txt"
    if existing:
        side.write_text("old side\n")
        report.write_text("old report\n")
    _fail_the_report(monkeypatch, report, stage)
    code, out, err = run(capsys, *argv, "-o", str(report))
    assert one_line_error(code, out, err, "cannot write", "No space left on device")
    if existing:
        assert (side.read_text(), report.read_text()) == ("old side\n", "old report\n")
    else:
        assert not side.exists() and not report.exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command", list(SIDE_FILES))
def test_the_side_file_and_report_are_written_together(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       command: str) -> None:
    argv, side = _side_command(command, tmp_path)
    report = tmp_path / "report.txt"
    code, _, _ = run(capsys, *argv, "-o", str(report))
    assert code in (0, 1) and side.stat().st_size > 0 and report.read_text().startswith("program ")
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not ROOT, reason="/proc looks writable to root alone")
@pytest.mark.parametrize("command", list(SIDE_FILES))
def test_a_directory_that_takes_no_files_is_refused_before_any_work(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path, command: str) -> None:
    argv, _ = _side_command(command, tmp_path)
    code, out, err = run(capsys, *argv, "-o", "/proc/x")
    assert one_line_error(code, out, err, "cannot write '/proc/x'", "does not take new files")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_standard_output_leaves_no_side_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    class Full:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    argv, _ = _side_command("simulate", tmp_path)
    monkeypatch.setattr(sys, "stdout", Full())
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err, "cannot write to standard output")
    assert list(tmp_path.iterdir()) == []


def test_files_committed_together_put_back_the_old_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rename that fails after another has succeeded: the renamed target gets its old file back."""
    first, second, third = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    first.write_text("old a\n")
    _fail_the_report(monkeypatch, third, "rename")
    with pytest.raises(InputError, match="No space left on device"), committed_together():
        for path in (first, second, third):
            with committed_together(), atomic_file(path) as fh:  # an inner block joins the outer one
                fh.write("new\n")
            assert not second.exists()
    assert first.read_text() == "old a\n" and sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_an_error_in_the_block_writes_none_of_its_files(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), committed_together():
        with atomic_file(tmp_path / "a.txt") as fh:
            fh.write("a\n")
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- two options naming one file


def _same_names(tmp_path: Path, how: str) -> tuple[str, str]:
    """Two names of one file in ``tmp_path``: the same string, two spellings, a link, a hard link."""
    target = tmp_path / "o6.csv"
    if how == "same":
        return str(target), str(target)
    if how == "spelling":
        return str(target), str(tmp_path / "." / "o6.csv")
    target.write_text("old\n")
    other = tmp_path / "other.csv"
    if how == "symlink":
        other.symlink_to(target)
    else:
        os.link(target, other)
    return str(target), str(other)


@pytest.mark.parametrize("how", ["same", "spelling", "symlink", "hard-link"])
@pytest.mark.parametrize("command", ["simulate", "bunco"])
def test_log_and_output_naming_one_file_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    command: str, how: str) -> None:
    log, output = _same_names(tmp_path, how)
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    code, out, err = run(capsys, *SIDE_FILES[command][0], log, "-o", output)
    assert one_line_error(code, out, err, "--log and --output name the same file", f"'exact-odds {command} --help'")
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("command", ["session", "eor"])
def test_plot_and_output_naming_one_file_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     command: str) -> None:
    argv, side = _side_command(command, tmp_path)
    code, out, err = run(capsys, *argv, "--output", str(tmp_path / "." / side.name))
    assert one_line_error(code, out, err, "--plot and --output name the same file")
    assert list(tmp_path.iterdir()) == []


def test_different_files_are_taken(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv, side = _side_command("bunco", tmp_path)
    code, _, err = run(capsys, *argv, "-o", str(tmp_path / "o6.csv"))
    assert code == 0 and side.exists()
    assert err == f"exact-odds: wrote '{side}'\nexact-odds: wrote '{tmp_path / 'o6.csv'}'\n"  # each file named


# ---------------------------------------------------------------- -o - is standard output


@pytest.mark.parametrize("argv", [("odds", "--decks", "1"), ("bunco", "--simulate", "10", "--seed", "1"),
                                  ("deal", "--seed", "7"), ("completion", "bash")], ids=lambda argv: argv[0])
@pytest.mark.parametrize("dash", ["-o", "--output"])
def test_output_dash_is_standard_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], dash: str) -> None:
    monkeypatch.chdir(tmp_path)
    expected = run(capsys, *argv)
    assert run(capsys, *argv, dash, "-") == expected and expected[0] == 0 and expected[1]
    assert list(tmp_path.iterdir()) == []


def test_plot_dash_is_refused_before_any_work(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``-`` means standard output, which takes no picture: refused, where it wrote a file named '-'."""
    monkeypatch.chdir(tmp_path)
    assert one_line_error(*run(capsys, "eor", "--decks", "1", "--plot", "-"), "--plot", "a picture goes to a file")
    assert list(tmp_path.iterdir()) == []


def test_output_dash_beside_a_log(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--coups", "10", "--seed", "1", "-q", "--log", "o8.csv", "-o", "-")
    assert code == 0 and out.startswith("program ") and err == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o8.csv"]


def test_every_output_option_says_dash_is_standard_output() -> None:
    import argparse

    from exact_odds.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {name: next((a.help for a in parser._actions if "--output" in a.option_strings), None)
             for name, parser in sub.choices.items()}
    with_output = {name: text for name, text in helps.items() if text is not None}
    assert len(with_output) > 10 and all("'-': stdout" in str(text) for text in with_output.values())
