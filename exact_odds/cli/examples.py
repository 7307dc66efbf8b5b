"""Examples at the end of every command's ``--help``: real command lines, shown as written (a test runs
each); and the width every help is wrapped to (:func:`help_width`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HEADING = "examples:"
"""The first line of every command's epilog."""


def help_width() -> int:
    """The width a help is wrapped to, found as argparse finds it (``shutil.get_terminal_size().columns - 2``)
    without importing :mod:`shutil` (with its archive modules, a tenth of a short command's start)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0:
        try:
            columns = 0 if stdout is None else os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter (every parser's, see :class:`exact_odds.cli.options.Parser`), its width
    :func:`help_width`, an epilog of examples kept line for line."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, help_width() if width is None else width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return text if text.startswith(HEADING) else super()._fill_text(text, width, indent)


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords giving a command the example ``lines`` (each a whole command line, with
    an optional ``# comment`` after it) at the end of its help."""
    body = "\n".join(f"  {line}" for line in lines)
    return {"epilog": f"{HEADING}\n{body}"}
