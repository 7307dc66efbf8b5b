"""Figures that look finished: every title and label inside the figure, no empty band under the title,
one layout for every figure, and a figure for ``count``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run

from exact_odds.analysis.removal import effects_of_removal
from exact_odds.bets import find_bet
from exact_odds.core.shoe import Shoe
from exact_odds.report import plots
from exact_odds.study.counting import find_count
from exact_odds.study.run import run_study

pytest.importorskip("matplotlib")


def _texts(fig: Any) -> Iterator[Any]:
    """Every title and axis label of a figure that is shown."""
    if fig._suptitle is not None:
        yield fig._suptitle
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        yield from (ax.title, ax.xaxis.label, ax.yaxis.label)


def _inside(fig: Any) -> list[str]:
    """The texts of ``fig`` drawn (partly) outside it."""
    fig.canvas.draw()
    renderer, box = fig.canvas.get_renderer(), fig.bbox
    outside = []
    for text in _texts(fig):
        extent = text.get_window_extent(renderer)
        if text.get_text() and (extent.x0 < box.x0 - 1 or extent.x1 > box.x1 + 1 or extent.y1 > box.y1 + 1
                                or extent.y0 < box.y0 - 1):
            outside.append(text.get_text())
    return outside


def _study(bets: list[str], **more: Any) -> Any:
    return run_study(Shoe.decks(8), shoes=6, seed=5, bets=[find_bet(b) for b in bets], **more)


@pytest.mark.parametrize("bets", [["banker"], ["banker", "player", "tie"]])
def test_the_study_figure_keeps_its_title_whole_and_close(bets: list[str]) -> None:
    fig = plots.study_drawing(_study(bets))
    assert _inside(fig) == []
    assert fig.get_layout_engine() is not None  # constrained: no band left empty under the title
    title = fig._suptitle.get_window_extent(fig.canvas.get_renderer())
    top = max(ax.title.get_window_extent(fig.canvas.get_renderer()).y1 for ax in fig.axes if ax.get_visible())
    assert title.y0 - top < 0.25 * fig.dpi  # under a quarter of an inch between the title and the panels
    plots._pyplot().close(fig)


def test_the_eor_figure_keeps_every_label_inside() -> None:
    shoe = Shoe.decks(1)
    removals = effects_of_removal(shoe, [find_bet(b) for b in ("banker", "player", "tie", "dragon-7")])
    fig = plots.eor_drawing(removals, [r.count() for r in removals], "Effects of removal, 1 deck " * 3)
    assert _inside(fig) == []
    plots._pyplot().close(fig)


def test_count_draws_a_figure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "count.png"
    code, _, err = run(capsys, "count", "--count", "jacobson-dragon-7", "--shoes", "3", "--seed", "1", "--decks", "1",
                       "--plot", str(picture), "-q")
    assert code == 0, err
    assert picture.read_bytes().startswith(b"\x89PNG")
    study = run_study(Shoe.decks(1), shoes=3, seed=1, bets=[find_bet("dragon-7")],
                      counts=[find_count("jacobson-dragon-7")])
    fig = plots.count_drawing(study)
    assert _inside(fig) == []
    plots._pyplot().close(fig)
