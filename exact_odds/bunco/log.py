"""A log of dice rolls, one roll a line: the format ``exact-odds bunco --verify`` reads and ``--log`` writes.

CSV with a header, or JSON Lines with the same keys (when the first line that is not blank starts
with ``{``); column names are case-insensitive. ``round`` (required; round ``r`` plays for the face
``(r - 1) mod sides + 1``), ``dice`` (required: the faces, ``3 5 3``), ``score`` (optional, checked
against the rules) and ``game`` (optional, not tested); other columns are ignored and listed (docs/bunco.md).
A line that cannot be read raises a :class:`~exact_odds.bunco.dice.BuncoError` naming its line.

>>> log = read_rolls(["round,dice,score", "1,1 1 1,21", '2,"3,5,3",0'], Dice(3, 6))
>>> log.rounds.tolist(), log.faces.tolist(), log.scores.tolist() if log.scores is not None else None
([1, 2], [[1, 1, 1], [3, 5, 3]], [21, 0])
>>> read_rolls(["round,dice", "1,1 7 1"], Dice(3, 6))
Traceback (most recent call last):
  ...
exact_odds.bunco.dice.BuncoError: line 2: column 'dice': 7 is not a face of 3d6 (1 to 6)
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from exact_odds.bunco.dice import BuncoError, Dice
from exact_odds.inputs.reading import json_objects, user_lines
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

COLUMNS = ("game", "round", "dice", "score")
"""The columns a log of rolls may have, in the order ``--log`` writes them."""
REQUIRED = ("round", "dice")


@dataclass(frozen=True, eq=False, slots=True)
class RollLog:
    """Rolls as NumPy columns: ``rounds``, ``faces`` (n, dice), ``scores`` (-1 where the log gave none,
    ``None`` without a score column), ``lines`` read from; the log's ``columns`` and those ``ignored``."""

    rounds: NDArray[np.int64]
    faces: NDArray[np.int64]
    scores: NDArray[np.int64] | None
    lines: NDArray[np.int64]
    columns: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.rounds.shape[0])


def _whole(text: str, what: str, low: int) -> int:
    key = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", key):  # ASCII digits, never a number too long to convert
        raise ValueError(f"{shown(key)} is not {what}")
    value = int(key)
    if value < low:
        raise ValueError(f"{value} is not {what}")
    return value


def _faces(text: str, dice: Dice) -> list[int]:
    """The faces of one roll, ``"3 5 3"`` (or ``"3,5,3"``), checked against the dice."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != dice.count:
        raise ValueError(f"{len(tokens)} dice; the game rolls {dice.count}")
    faces = []
    for token in tokens:
        face = _whole(token, f"a face of {dice} (1 to {dice.sides})", 1)
        if face > dice.sides:
            raise ValueError(f"{face} is not a face of {dice} (1 to {dice.sides})")
        faces.append(face)
    return faces


class _Builder:
    """Rolls added a row at a time from their fields (texts), checked as they come."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.columns: list[str] = []
        self.ignored: list[str] = []
        self.rounds: list[int] = []
        self.faces: list[int] = []
        self.scores: list[int] = []
        self.lines: list[int] = []
        self.count = 0  # rolls added, those taken by :meth:`take` included

    def header(self, names: Iterable[str], line: int) -> None:
        for name in names:
            key = name.strip().lower()
            if key in self.columns:
                raise BuncoError(f"line {line}: column {shown(key)} is given twice")
            self.columns.append(key)
            if key not in COLUMNS:
                self.ignored.append(name.strip())
        missing = [c for c in REQUIRED if c not in self.columns]
        if missing:
            raise BuncoError(f"line {line}: the log has no {shown(missing[0])} column (required: round, dice)")

    def add(self, fields: Mapping[str, str], line: int) -> None:
        for key in REQUIRED:
            if not fields.get(key, "").strip():
                raise BuncoError(f"line {line}: column {shown(key)} is empty")
        try:
            key = "round"
            number = _whole(fields["round"], "a round (1, 2, 3, ...)", 1)
            key = "dice"
            faces = _faces(fields["dice"], self.dice)
            key = "score"
            score = fields.get("score", "").strip() if "score" in self.columns else ""
            points = _whole(score, "a score (a whole number, 0 or more)", 0) if score else -1
        except ValueError as err:
            raise BuncoError(f"line {line}: column {shown(key)}: {err}") from None
        self.rounds.append(number)
        self.faces += faces
        self.scores.append(points)
        self.lines.append(line)
        self.count += 1

    def some_rolls(self, source: str) -> None:
        if not self.count:
            raise BuncoError(f"{source}: the log holds no rolls (expected a header line and one roll a line)")

    def take(self) -> RollLog:
        import numpy as np

        scores = np.array(self.scores, dtype=np.int64) if "score" in self.columns else None
        log = RollLog(np.array(self.rounds, dtype=np.int64),
                      np.array(self.faces, dtype=np.int64).reshape(-1, self.dice.count), scores,
                      np.array(self.lines, dtype=np.int64), tuple(self.columns), tuple(self.ignored))
        self.rounds, self.faces, self.scores, self.lines = [], [], [], []
        return log


BLOCK = 65_536
"""Rolls read before a block of them is passed on (:func:`read_roll_blocks`)."""


def _csv_rows(first: int, header: str, lines: Iterator[str], builder: _Builder) -> Iterator[None]:
    """Add the rows of a CSV log whose header is line ``first``, yielding after every :data:`BLOCK` rows."""
    reader = csv.reader(itertools.chain([header], lines))
    try:
        names = next(reader)
        builder.header(names, first)
        keys = [n.strip().lower() for n in names]
        for row in reader:
            line = first + reader.line_num - 1
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(keys):
                raise BuncoError(f"line {line}: {len(row)} fields, but the header has {len(keys)}")
            builder.add(dict(zip(keys, row, strict=True)), line)
            if len(builder.rounds) % BLOCK == 0:
                yield
    except csv.Error as err:
        raise BuncoError(f"line {first + reader.line_num - 1}: {err}") from None


def _json_text(value: object) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value))
    return "" if value is None else str(value)


def _json_rows(numbered: Iterable[tuple[int, str]], builder: _Builder) -> Iterator[None]:
    """Add the rows of a JSON Lines log (its first object's keys are its columns), as :func:`_csv_rows`."""
    for line, obj in json_objects(numbered, BuncoError, ("round", "dice")):
        fields = {str(k).strip().lower(): _json_text(v) for k, v in obj.items()}
        if len(fields) < len(obj):  # keys that differ only in case or spaces: one would silently win
            twice = next(k for k in fields if sum(str(o).strip().lower() == k for o in obj) > 1)
            raise BuncoError(f"line {line}: key {shown(twice)} is given twice")
        if not builder.columns:
            builder.header(obj, line)
        builder.add(fields, line)
        if len(builder.rounds) % BLOCK == 0:
            yield


def read_rolls(lines: Iterable[str], dice: Dice, *, source: str = "log") -> RollLog:
    """Read a log of rolls of ``dice`` from its lines (a file object, ``sys.stdin``, a list of strings)."""
    builder = _Builder(dice)
    for _ in _rows(lines, builder):
        pass
    builder.some_rolls(source)
    return builder.take()


def read_roll_blocks(lines: Iterable[str], dice: Dice, *, source: str = "log") -> Iterator[RollLog]:
    """Read a log of rolls as :func:`read_rolls` does, a block of :data:`BLOCK` rolls at a time.

    >>> [len(b) for b in read_roll_blocks(["round,dice", "1,1 2 3", "2,4 5 6"], Dice(3, 6))]
    [2]
    """
    builder = _Builder(dice)
    for _ in _rows(lines, builder):
        yield builder.take()
    builder.some_rolls(source)
    if builder.rounds:
        yield builder.take()


def _rows(lines: Iterable[str], builder: _Builder) -> Iterator[None]:
    """Add the rows of the log of ``lines`` to ``builder``, yielding after every :data:`BLOCK` rows."""
    rest = iter(lines)
    for number, text in enumerate(rest, 1):
        if text.strip():
            if text.lstrip().startswith("{"):
                yield from _json_rows(itertools.chain([(number, text)], enumerate(rest, number + 1)), builder)
            else:
                yield from _csv_rows(number, text, rest, builder)
            break


def load_rolls(path: str | Path, dice: Dice) -> RollLog:
    """Read the log file at ``path`` (``"-"``: standard input; :func:`exact_odds.inputs.reading.user_lines`)."""
    source = "standard input" if str(path) == "-" else str(path)
    return read_rolls(user_lines(path, "log", BuncoError, newline=""), dice, source=source)


def write_games(out: TextIO, faces: NDArray[np.int64], scores: NDArray[np.int64], *, first_game: int = 1,
                header: bool = True) -> None:
    """Write games of rolls as a log: ``faces`` (games, rounds, dice), ``scores`` (games, rounds), games
    numbered from ``first_game``.

    >>> import io, numpy as np
    >>> buf = io.StringIO()
    >>> write_games(buf, np.array([[[1, 1, 1], [3, 5, 3]]]), np.array([[21, 0]]))
    >>> print(buf.getvalue().strip())
    game,round,dice,score
    1,1,1 1 1,21
    1,2,3 5 3,0
    """
    if header:
        out.write(",".join(COLUMNS) + "\n")
    games, rounds = scores.shape
    rolls = [" ".join(map(str, roll)) for roll in faces.reshape(games * rounds, -1).tolist()]
    points = scores.reshape(-1).tolist()
    out.writelines(f"{first_game + i // rounds},{i % rounds + 1},{rolls[i]},{points[i]}\n"
                   for i in range(games * rounds))
