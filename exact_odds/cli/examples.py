"""Examples at the end of every command's ``--help``: real command lines, shown as written; and the
width every help is wrapped to (:func:`help_width`).

Each command passes ``**examples(...)`` to ``add_parser``: an epilog headed ``examples:`` with one
command line an entry, and a help formatter that wraps the description as usual but leaves the
examples as they are. A test runs every example line (so that none goes stale).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HEADING = "examples:"
"""The first line of every command's epilog."""


def help_width() -> int:
    """The width a help is wrapped to, in characters, found as argparse finds it
    (``shutil.get_terminal_size().columns - 2``) without importing :mod:`shutil` (with its archive
    modules, a tenth of a short command's start): ``$COLUMNS`` if a positive whole number, else
    the columns of the terminal on the process's standard output, else 80; less 2."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__
        try:
            columns = 0 if stdout is None else os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns - 2


class WidthFormatter(argparse.HelpFormatter):
    """argparse's help formatter, its width found by :func:`help_width` (every parser's, see
    :class:`exact_odds.cli.options.Parser`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, help_width() if width is None else width)


class HelpFormatter(WidthFormatter):
    """The commands' help formatter (:class:`WidthFormatter`), except that an epilog of examples is kept
    line for line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(HEADING):
            return text
        return super()._fill_text(text, width, indent)


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords giving a command the example ``lines`` (each a whole command line, with
    an optional ``# comment`` after it) at the end of its help."""
    body = "\n".join(f"  {line}" for line in lines)
    return {"epilog": f"{HEADING}\n{body}", "formatter_class": HelpFormatter}


def example_lines(epilog: str | None) -> list[str]:
    """The command lines of an epilog made by :func:`examples` (none for another epilog)."""
    if not epilog or not epilog.startswith(HEADING):
        return []
    return [line.strip() for line in epilog.splitlines()[1:] if line.strip()]
