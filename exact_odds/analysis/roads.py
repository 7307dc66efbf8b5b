"""Baccarat scoreboards ("roads"): the bead plate, the big road and the three derived roads.

The rules (Wizard of Odds, "Baccarat Score Boards"; the derived roads as printed on Macau
scorecards: "first look at evenness, then at presence or a straight drop"):

- **Bead plate**: every coup (banker ``B``, player ``P``, tie ``T``) in order, down columns of six.
- **Big road**: banker and player wins only, a streak of one side down a column, a change of side
  starting a new column. A tie is marked on the latest entry (ties before the first win on the first
  entry). A streak longer than six rows, or one that meets a taken cell, turns right along its row (the
  *dragon tail*); each new streak still starts at the top of the column after the previous streak's first.
- **Derived roads** (big eye boy ``k = 1``, small road ``k = 2``, cockroach road ``k = 3``) mark each
  big-road entry from a starting point on red or blue. The first entry of column ``c`` is red if columns
  ``c-1`` and ``c-1-k`` have the same length ("even"), else blue. An entry in row ``r >= 1`` of column
  ``c`` is blue if column ``c-k`` ends exactly at row ``r - 1``, red if it reaches row ``r`` ("presence")
  or ends above ("straight drop"). The road starts at the big road's column ``k`` (0-based), row 1, or if
  that column has a single entry, at the top of column ``k + 1``. Lengths include dragon tails; red and
  blue are then drawn like the big road.

>>> roads = build_roads(parse_results("B B P T B B B P P B P"))
>>> [len(c) for c in roads.streaks]
[2, 1, 3, 2, 1, 1]
>>> "".join(roads.big_eye_boy), "".join(roads.small_road), "".join(roads.cockroach)
('BBRBRBB', 'RBBBBB', 'RRR')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Literal

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

Result = Literal["B", "P", "T"]
Colour = Literal["R", "B"]
"""Derived-road marks: ``R`` red, ``B`` blue."""

ROWS = 6
"""Rows of every scoreboard grid."""

_WORDS: dict[str, Result] = {"b": "B", "banker": "B", "banco": "B", "p": "P", "player": "P", "punto": "P",
                             "t": "T", "tie": "T", "egalite": "T"}


class RoadsError(InputError):
    """Results that cannot be read; the message names the bad token."""


MAX_RESULTS = 10_000
"""The most coup results whose roads are drawn (some 120 shoes; the drawing grows with the results)."""
_TOO_MANY = f"more than {MAX_RESULTS:,} results; roads are drawn for at most {MAX_RESULTS:,} coups"


def parse_results(text: str, *, source: str = "results") -> tuple[Result, ...]:
    """Coup results from text: ``B``/``P``/``T`` or ``banker``/``player``/``tie``, separated by white space or
    commas or written together (``BBPTB``); ``#`` starts a comment. At most :data:`MAX_RESULTS` results."""
    out: list[Result] = []
    for number, line in enumerate(text.splitlines(), 1):
        for token in re.split(r"[\s,;]+", line.split("#", 1)[0].strip()):
            if not token:
                continue
            word = _WORDS.get(token.lower())
            if word is not None:
                out.append(word)
            elif re.fullmatch(r"[bptBPT]+", token):
                out.extend(_WORDS[ch.lower()] for ch in token)
            else:
                raise RoadsError(f"{source}:{number}: unknown result {shown(token)} "
                                 "(use B, P, T or banker, player, tie)")
        if len(out) > MAX_RESULTS:
            raise RoadsError(f"{source}:{number}: {_TOO_MANY}")
    return tuple(out)


def from_winners(winners: Sequence[str]) -> tuple[Result, ...]:
    """Results from winner names (``"banker"``, ``"player"``, ``"tie"``), as the engine's coups give them."""
    return tuple(_WORDS[w] for w in winners)


@dataclass(frozen=True, slots=True)
class Entry:
    """A big-road entry: the winning side and the ties marked on it."""

    winner: Literal["B", "P"]
    ties: int = 0


def streaks(results: Sequence[Result]) -> list[list[Entry]]:
    """The big road's columns before placing: each streak of one side, ties marked on its entries."""
    columns: list[list[Entry]] = []
    leading = 0
    for r in results:
        if r == "T":
            if columns:
                last = columns[-1][-1]
                columns[-1][-1] = Entry(last.winner, last.ties + 1)
            else:
                leading += 1
            continue
        entry = Entry(r, leading if not columns else 0)
        leading = 0
        if columns and columns[-1][-1].winner == r:
            columns[-1].append(entry)
        else:
            columns.append([entry])
    return columns


def derived(columns: Sequence[Sequence[object]], k: int) -> list[Colour]:
    """The marks of a derived road from the big road's streaks (``k``: 1 big eye boy, 2 small, 3 cockroach)."""
    lengths = [len(c) for c in columns]
    if len(lengths) > k and lengths[k] >= 2:
        start = (k, 1)
    elif len(lengths) > k + 1:
        start = (k + 1, 0)
    else:
        return []
    out: list[Colour] = []
    for c, length in enumerate(lengths):
        for r in range(length):
            if (c, r) < start:  # entries come in (column, row) order
                continue
            if r == 0:
                out.append("R" if lengths[c - 1] == lengths[c - 1 - k] else "B")
            else:
                out.append("B" if lengths[c - k] == r else "R")
    return out


def place(columns: Sequence[Sequence[object]], rows: int = ROWS) -> dict[tuple[int, int], object]:
    """Grid positions (column, row) of every item of the streaks: streak ``i`` starts at the top of column
    ``i`` and goes down while the cell below is free and inside the grid, then right for good (a dragon tail)."""
    grid: dict[tuple[int, int], object] = {}
    for i, column in enumerate(columns):
        x, y, turned = i, 0, False
        while (x, y) in grid:  # the top cell is taken only by very long tails: move right
            x += 1
        for n, item in enumerate(column):
            if n:
                if not turned and y + 1 < rows and (x, y + 1) not in grid:
                    y += 1
                else:
                    turned = True
                    x += 1
                    while (x, y) in grid:
                        x += 1
            grid[(x, y)] = item
    return grid


def bead_plate(results: Sequence[Result], rows: int = ROWS) -> dict[tuple[int, int], object]:
    """Grid positions of the bead plate: every result down columns of ``rows``."""
    return {(i // rows, i % rows): r for i, r in enumerate(results)}


@dataclass(frozen=True, slots=True)
class Roads:
    """All five scoreboards of a shoe's results."""

    results: tuple[Result, ...]
    streaks: list[list[Entry]]
    big_eye_boy: list[Colour]
    small_road: list[Colour]
    cockroach: list[Colour]

    def counts(self) -> dict[Result, int]:
        """Coups won by the banker (``B``), by the player (``P``), and ties (``T``)."""
        return {r: self.results.count(r) for r in ("B", "P", "T")}

    def grids(self) -> dict[str, dict[tuple[int, int], object]]:
        """Every road as grid positions: bead plate, big road, big eye boy, small road, cockroach road."""
        return {
            "bead plate": bead_plate(self.results),
            "big road": place(self.streaks),
            "big eye boy": place([list(run) for _, run in groupby(self.big_eye_boy)]),
            "small road": place([list(run) for _, run in groupby(self.small_road)]),
            "cockroach road": place([list(run) for _, run in groupby(self.cockroach)]),
        }


def build_roads(results: Sequence[Result]) -> Roads:
    """The scoreboards of a sequence of at most :data:`MAX_RESULTS` coup results."""
    if len(results) > MAX_RESULTS:
        raise RoadsError(_TOO_MANY)
    columns = streaks(results)
    return Roads(tuple(results), columns, derived(columns, 1), derived(columns, 2), derived(columns, 3))
