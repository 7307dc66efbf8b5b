"""Examples at the end of every command's ``--help``: real command lines, shown as written.

Each command passes ``**examples(...)`` to ``add_parser``: an epilog headed ``examples:`` with one
command line an entry, and a help formatter that wraps the description as usual but leaves the
examples as they are. A test runs every example line (so that none goes stale).
"""

from __future__ import annotations

from typing import Any

from exact_odds.cli.options import HelpFormatter as WidthFormatter

HEADING = "examples:"
"""The first line of every command's epilog."""


class HelpFormatter(WidthFormatter):
    """The commands' help formatter (:class:`exact_odds.cli.options.HelpFormatter`), except that an epilog
    of examples is kept line for line."""

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
