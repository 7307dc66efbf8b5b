"""Every example in every command's ``--help`` runs, and exits 0 (so that no example goes stale)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest
from conftest import run

from exact_odds.cli import build_parser
from exact_odds.cli.options import HEADING

ROOT = Path(__file__).resolve().parent.parent


def example_lines(epilog: str | None) -> list[str]:
    """The command lines of an epilog made by :func:`exact_odds.cli.options.examples` (none for another)."""
    if not epilog or not epilog.startswith(HEADING):
        return []
    return [line.strip() for line in epilog.splitlines()[1:] if line.strip()]


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by name."""
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


COMMANDS = _commands()


def test_every_command_has_two_to_four_examples_of_itself() -> None:
    for name, parser in COMMANDS.items():
        lines = example_lines(parser.epilog)
        assert 2 <= len(lines) <= 4, name
        assert any(shlex.split(line, comments=True)[1] == name for line in lines), name
        assert all(line.startswith("exact-odds ") for line in lines), name


def test_examples_are_shown_line_for_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "odds", "--help")
    text = capsys.readouterr().out
    assert f"\n{HEADING}\n  exact-odds odds --decks 6\n" in text
    assert "exact-odds odds --dealt 'P: 9h 4c B: Kd'\n" in text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_examples_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                          name: str) -> None:
    """The examples of one command, in order (one may read a file an earlier one wrote), in a fresh
    directory that has the repository's examples/."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    for line in example_lines(COMMANDS[name].epilog):
        argv = shlex.split(line, comments=True)
        assert argv[0] == "exact-odds"
        code, out, err = run(capsys, *argv[1:])
        assert code == 0, f"{line}: exit {code}, {err}"
        assert out or "--output" in argv or "-o" in argv, line
