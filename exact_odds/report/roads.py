"""Text for ``roads``: the bead plate, the big road and the derived roads drawn in the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from exact_odds.analysis.roads import ROWS, Entry

if TYPE_CHECKING:
    from exact_odds.analysis.roads import Roads


_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "reset": "\x1b[0m"}


def _road_cell(road: str, item: object, color: bool) -> str:
    """Two characters for one cell of a road (with ANSI colours when asked)."""
    letter: str
    if isinstance(item, Entry):
        letter, ties = item.winner, "" if not item.ties else str(item.ties) if item.ties < 10 else "+"
        hue = "red" if letter == "B" else "blue"
    else:
        letter, ties = str(item), ""
        if road == "bead plate":
            hue = {"B": "red", "P": "blue", "T": "green"}[letter]
        else:
            hue = "red" if letter == "R" else "blue"
    if not color:
        return f"{letter}{ties or ' '}"
    return f"{_ANSI[hue]}{letter}{_ANSI['green'] + ties if ties else ' '}{_ANSI['reset']}"


def _road_lines(road: str, grid: dict[tuple[int, int], object], color: bool) -> list[str]:
    width = max((x for x, _ in grid), default=-1) + 1
    return ["|" + "".join(_road_cell(road, grid[(x, y)], color) if (x, y) in grid else "  " for x in range(width))
            .rstrip() for y in range(ROWS)]


ROAD_LEGENDS = {
    "bead plate": "every coup down columns of six: B banker, P player, T tie",
    "big road": "streaks of banker (B) and player (P) wins; a digit counts the ties marked on an entry",
    "big eye boy": "R red, B blue: the big road's columns compared one column apart",
    "small road": "R red, B blue: the big road's columns compared two columns apart",
    "cockroach road": "R red, B blue: the big road's columns compared three columns apart",
}


def roads_text(roads: Roads, heading: str, *, color: bool = False) -> str:
    """The five scoreboards drawn in the terminal, with a heading and legends."""
    counts = roads.counts()
    lines = [heading, f"{len(roads.results)} coups: banker {counts['B']}, player {counts['P']}, tie {counts['T']}."]
    for name, grid in roads.grids().items():
        lines += ["", f"{name.capitalize()} ({ROAD_LEGENDS[name]})", *(_road_lines(name, grid, color) or ["|"])]
    return "\n".join(lines) + "\n"


def roads_json(roads: Roads, heading: str) -> dict[str, object]:
    """The ``roads --format json`` object: results, the derived marks, and every grid cell as [column, row, text]."""
    def cell(item: object) -> object:
        return {"winner": item.winner, "ties": item.ties} if isinstance(item, Entry) else item

    return {
        "heading": heading, "results": "".join(roads.results),
        "big_eye_boy": "".join(roads.big_eye_boy), "small_road": "".join(roads.small_road),
        "cockroach_road": "".join(roads.cockroach),
        "grids": {name.replace(" ", "_"): [[x, y, cell(item)] for (x, y), item in sorted(grid.items())]
                  for name, grid in roads.grids().items()},
    }
