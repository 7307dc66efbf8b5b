"""The figures of a command's HTML page, drawn only when the page is asked for
(:func:`exact_odds.cli.options.render` takes them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from exact_odds.report.document import Figure
from exact_odds.report.plots import eor_svg

if TYPE_CHECKING:
    from exact_odds.analysis.removal import LinearCount, Removal


def removal_figures(removals: Sequence[Removal], counts: Sequence[LinearCount], *,
                    title: str) -> Callable[[], list[Figure]]:
    """The figures of an HTML page that shows effects of removal: one bar chart per bet (drawn when asked)."""

    def draw() -> list[Figure]:
        return [Figure(title, eor_svg(removals, counts, title=title))]

    return draw


def figure(title: str, draw: Callable[[], str]) -> Callable[[], list[Figure]]:
    """The figures of an HTML page: one drawing, ``draw()`` giving its ``<svg>`` (called only for the page)."""

    def figures() -> list[Figure]:
        return [Figure(title, draw())]

    return figures
