"""Drawing rules of punto banco as literal data.

A :class:`Tableau` says when a coup ends on the first four cards (naturals), when the
player draws a third card, and when the banker draws, by banker total (0-7) and the
player's third card (``None`` when the player stood, else its point value 0-9).

The standard table, as printed on punto banco layouts and in Wizard of Odds' "Baccarat
rules" (wizardofodds.com/games/baccarat/basics):

    player: draws on 0-5, stands on 6-7
    banker: 0-2 draws; 3 draws unless the player's third card is 8; 4 draws on 2-7;
            5 draws on 4-7; 6 draws on 6-7; 7 stands; with no player third card the
            banker draws on 0-5 and stands on 6-7
    a natural (8 or 9 on two cards) in either hand ends the coup

Another table can be loaded from TOML with :func:`load_tableau`; see ``STANDARD_TOML``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from exact_odds.errors import InputError, read_user_file

NO_THIRD = None
"""Column key of the banker table when the player stood."""

COLUMNS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
"""Banker-table columns: the player stood, then the player's third card 0..9."""


class TableauError(InputError):
    """A rule table that is incomplete or impossible; the message names the line."""


@dataclass(frozen=True)
class Tableau:
    """Drawing rules.

    ``naturals``: two-card totals that end the coup for both hands.
    ``player_draws``: for each player two-card total 0..9, whether the player draws
    (only totals that are not naturals are consulted).
    ``banker_draws``: for each banker total 0..9, eleven booleans in ``COLUMNS`` order.
    """

    name: str
    naturals: frozenset[int]
    player_draws: tuple[bool, ...]
    banker_draws: tuple[tuple[bool, ...], ...]

    def banker_draws_on(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the banker draws with ``banker_total`` given the player's third card."""
        return self.banker_draws[banker_total][COLUMNS.index(player_third)]


def _row(draw_on: set[int | None]) -> tuple[bool, ...]:
    return tuple(c in draw_on for c in COLUMNS)


_ALL = set(COLUMNS)
STANDARD = Tableau(
    name="standard",
    naturals=frozenset({8, 9}),
    player_draws=tuple(t <= 5 for t in range(10)),
    banker_draws=(
        _row(_ALL),
        _row(_ALL),
        _row(_ALL),
        _row(_ALL - {8}),
        _row({None, 2, 3, 4, 5, 6, 7}),
        _row({None, 4, 5, 6, 7}),
        _row({6, 7}),
        _row(set()),
        _row(set()),
        _row(set()),
    ),
)
"""Standard punto banco drawing rules."""

STANDARD_TOML = """\
# Standard punto banco tableau.
name = "standard"
# Two-card totals that end the coup at once for both hands.
naturals = [8, 9]
# Player two-card totals on which the player draws a third card.
player_draws = [0, 1, 2, 3, 4, 5]

[banker]
# One row per banker two-card total 0-7: D = banker draws, S = banker stands.
# Columns: player stood (-), then the player's third card 0 1 2 3 4 5 6 7 8 9.
#    -  0  1  2  3  4  5  6  7  8  9
0 = "D  D  D  D  D  D  D  D  D  D  D"
1 = "D  D  D  D  D  D  D  D  D  D  D"
2 = "D  D  D  D  D  D  D  D  D  D  D"
3 = "D  D  D  D  D  D  D  D  D  S  D"
4 = "D  S  S  D  D  D  D  D  D  S  S"
5 = "D  S  S  S  S  D  D  D  D  S  S"
6 = "S  S  S  S  S  S  S  D  D  S  S"
7 = "S  S  S  S  S  S  S  S  S  S  S"
"""


def _line_of(text: str, pattern: str) -> int:
    """1-based line number of the first line matching ``pattern`` (0 if none)."""
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(pattern, line):
            return number
    return 0


def _where(source: str, line: int) -> str:
    return f"{source}:{line}" if line else source


def _totals(value: object, key: str, text: str, source: str) -> frozenset[int]:
    line = _line_of(text, rf"\s*{key}\s*=")
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TableauError(f"{_where(source, line)}: {key} must be a list of totals 0-9")
    bad = [v for v in value if not 0 <= v <= 9]
    if bad:
        raise TableauError(f"{_where(source, line)}: {key} has impossible total {bad[0]} (totals are 0-9)")
    return frozenset(value)


def _banker_row(total: int, value: object, text: str, source: str) -> tuple[bool, ...]:
    line = _line_of(text, rf"\s*\"?{total}\"?\s*=")
    letters = value.split() if isinstance(value, str) else None
    if letters is None or len(letters) != len(COLUMNS) or any(x.upper() not in ("D", "S") for x in letters):
        raise TableauError(
            f"{_where(source, line)}: banker row {total} must be 11 letters D or S "
            "(player stood, then third card 0-9)"
        )
    return tuple(x.upper() == "D" for x in letters)


def parse_tableau(text: str, *, source: str = "rules") -> Tableau:
    """A :class:`Tableau` from TOML text in the format of ``STANDARD_TOML``.

    Every banker total that can occur after no natural (0 to 7, less the naturals) needs a
    row; a row for a natural total, a total outside 0-9 or an unknown key is refused.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TableauError(f"{source}: not valid TOML: {err}") from None
    unknown = set(data) - {"name", "naturals", "player_draws", "banker"}
    if unknown:
        key = sorted(unknown)[0]
        line = _line_of(text, rf"\s*{re.escape(key)}")
        raise TableauError(f"{_where(source, line)}: unknown key {key!r}")
    for key in ("naturals", "player_draws", "banker"):
        if key not in data:
            raise TableauError(f"{source}: missing {key!r}")
    naturals = _totals(data["naturals"], "naturals", text, source)
    player = _totals(data["player_draws"], "player_draws", text, source)
    if player & naturals:
        line = _line_of(text, r"\s*player_draws\s*=")
        raise TableauError(f"{_where(source, line)}: player_draws names a natural total {min(player & naturals)}")
    banker = data["banker"]
    if not isinstance(banker, dict):
        line = _line_of(text, r"\s*banker")
        raise TableauError(f"{_where(source, line)}: banker must be a table")
    rows: dict[int, tuple[bool, ...]] = {}
    for key, value in banker.items():
        if not re.fullmatch(r"\d", key):
            line = _line_of(text, rf"\s*\"?{re.escape(key)}\"?\s*=")
            raise TableauError(f"{_where(source, line)}: banker row {key!r} is not a total 0-9")
        total = int(key)
        if total in naturals:
            line = _line_of(text, rf"\s*\"?{total}\"?\s*=")
            raise TableauError(f"{_where(source, line)}: banker row {total} is a natural and never draws")
        rows[total] = _banker_row(total, value, text, source)
    needed = [t for t in range(10) if t not in naturals]
    missing = [t for t in needed if t not in rows]
    if missing:
        line = _line_of(text, r"\[banker\]")
        raise TableauError(f"{_where(source, line)}: banker table has no row for total {missing[0]}")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        line = _line_of(text, r"\s*name")
        raise TableauError(f"{_where(source, line)}: name must be a string")
    never = (False,) * len(COLUMNS)
    return Tableau(
        name=name,
        naturals=naturals,
        player_draws=tuple(t in player for t in range(10)),
        banker_draws=tuple(rows.get(t, never) for t in range(10)),
    )


def load_tableau(path: str | Path) -> Tableau:
    """Read a rule table from a TOML file (see :func:`parse_tableau`)."""
    return parse_tableau(read_user_file(path, "rules", TableauError), source=str(path))
