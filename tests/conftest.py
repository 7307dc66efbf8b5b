"""Shared test helpers; ``from conftest import run`` in a test module (pytest puts tests/ on sys.path)."""

from __future__ import annotations

import pytest

from exact_odds.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line on ``argv`` in-process: its exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
