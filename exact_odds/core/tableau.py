"""Drawing rules of punto banco: THE rule, written once as data and executed in one place.

A :class:`Tableau` says which two-card totals are naturals, when the player draws, and when the
banker draws, by banker total and the player's third card (``None`` when the player stood).
The scalar rule is :meth:`Tableau.player_draws_on` / :meth:`Tableau.banker_draws_given`;
:func:`play` plays a coup from point values and :func:`play_many` many coups at once, through
lookup arrays built from the scalar rule (so the two cannot disagree); :func:`player_rule` and
:func:`banker_rule` say it in words. No other module encodes a rule. :func:`load_tableau` reads a table
in the format of ``STANDARD_TOML``, the standard one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import read_user_file
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.sources import TomlText, parse_toml, reraised
from exact_odds.inputs.validate import printable, shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

COLUMNS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
"""Banker-table columns: the player stood, then the player's third card 0..9."""


class TableauError(InputError):
    """A rule table that is incomplete or impossible; the message names the line."""


@dataclass(frozen=True, slots=True)
class Tableau:
    """Drawing rules: ``naturals`` end the coup; ``player_draws[total]`` for totals 0-9; ``banker_draws[total]``
    holds eleven booleans in :data:`COLUMNS` order."""

    name: str
    naturals: frozenset[int]
    player_draws: tuple[bool, ...]
    banker_draws: tuple[tuple[bool, ...], ...]

    def natural(self, player: int, banker: int) -> bool:
        """Whether two-card totals ``player`` and ``banker`` end the coup at once."""
        return player in self.naturals or banker in self.naturals

    def player_draws_on(self, player: int, banker: int) -> bool:
        """Whether the player draws on two-card totals (never after a natural)."""
        return not self.natural(player, banker) and self.player_draws[player]

    def banker_draws_given(self, player: int, banker: int, player_third: int | None) -> bool:
        """Whether the banker draws on two-card totals, given the point value of the player's third card
        (``None``: the player stood); never after a natural."""
        return not self.natural(player, banker) and self.banker_draws[banker][COLUMNS.index(player_third)]


STANDARD_TOML = """\
# Standard punto banco tableau (Wizard of Odds, "Baccarat rules": wizardofodds.com/games/baccarat/basics).
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


def _error(doc: TomlText, pattern: str, message: str) -> TableauError:
    return TableauError(f"{doc.where(doc.first_match(pattern))}: {message}")


def _totals(value: object, key: str, doc: TomlText) -> frozenset[int]:
    at = rf"\s*{key}\s*="
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _error(doc, at, f"{key} must be a list of totals 0-9")
    bad = [v for v in value if not 0 <= v <= 9]
    if bad:
        raise _error(doc, at, f"{key} has impossible total {bad[0]} (totals are 0-9)")
    return frozenset(value)


def _banker_row(total: int, value: object, doc: TomlText) -> tuple[bool, ...]:
    letters = value.split() if isinstance(value, str) else None
    if letters is None or len(letters) != len(COLUMNS) or any(x.upper() not in ("D", "S") for x in letters):
        raise _error(doc, rf"\s*\"?{total}\"?\s*=",
                     f"banker row {total} must be 11 letters D or S (player stood, then third card 0-9)")
    return tuple(x.upper() == "D" for x in letters)


def parse_tableau(text: str, *, source: str = "rules") -> Tableau:
    """A :class:`Tableau` from TOML text in the format of ``STANDARD_TOML`` (a row for every total that is
    not a natural; a row for a natural, a total outside 0-9 or an unknown key is refused)."""
    doc = TomlText.of(text, source)
    data = parse_toml(text, source, TableauError)
    unknown = set(data) - {"name", "naturals", "player_draws", "banker"}
    if unknown:
        key = sorted(unknown)[0]
        raise _error(doc, rf"\s*{re.escape(key)}",
                     unknown_name("key", key, ("name", "naturals", "player_draws", "banker"), ""))
    for key in ("naturals", "player_draws", "banker"):
        if key not in data:
            raise TableauError(f"{source}: missing {shown(key)}")
    naturals = _totals(data["naturals"], "naturals", doc)
    player = _totals(data["player_draws"], "player_draws", doc)
    if player & naturals:
        raise _error(doc, r"\s*player_draws\s*=", f"player_draws names a natural total {min(player & naturals)}")
    banker = data["banker"]
    if not isinstance(banker, dict):
        raise _error(doc, r"\s*banker", "banker must be a table")
    rows: dict[int, tuple[bool, ...]] = {}
    for key, value in banker.items():
        if not re.fullmatch(r"[0-9]", key):  # ASCII: "٣" is no row 3
            raise _error(doc, rf"\s*\"?{re.escape(key)}\"?\s*=", f"banker row {shown(key)} is not a total 0-9")
        total = int(key)
        if total in naturals:
            raise _error(doc, rf"\s*\"?{total}\"?\s*=", f"banker row {total} is a natural and never draws")
        rows[total] = _banker_row(total, value, doc)
    missing = [t for t in range(10) if t not in naturals and t not in rows]
    if missing:
        raise _error(doc, r"\[banker\]", f"banker table has no row for total {missing[0]}")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise _error(doc, r"\s*name", "name must be a string")
    with reraised(lambda message: _error(doc, r"\s*name", message)):
        printable(name, "tableau name")
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


STANDARD_TABLEAU = parse_tableau(STANDARD_TOML)
"""Standard punto banco drawing rules."""


# ---------------------------------------------------------------- the rule in words


def ranges_text(values: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 5]`` as ``"0-3 or 5"``."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 2 else " or ".join(map(str, r)) if len(r) == 2 else str(r[0])
             for r in runs]
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else "no total"


def natural_totals(tableau: Tableau) -> list[int]:
    """The two-card totals that end the coup whatever the other hand holds, e.g. ``[8, 9]``."""
    return [t for t in range(10) if all(tableau.natural(t, other) for other in range(10))]


def _live(tableau: Tableau) -> list[int]:
    """The two-card totals after which the coup goes on (when the other hand has no natural)."""
    ends = natural_totals(tableau)
    return [t for t in range(10) if t not in ends]


def _banker_draws(tableau: Tableau, banker: int, third: int | None) -> bool:
    """Whether the banker draws on ``banker`` given the player's third card, when the coup goes on."""
    return any(tableau.banker_draws_given(player, banker, third) for player in _live(tableau))


def player_rule(tableau: Tableau) -> str:
    """The player's rule in words.

    >>> player_rule(STANDARD_TABLEAU)
    'the player draws on 0-5 and stands on 6 or 7'
    """
    live = _live(tableau)
    draws = [t for t in live if any(tableau.player_draws_on(t, banker) for banker in live)]
    stands = [t for t in live if t not in draws]
    if not stands:
        return f"the player draws on {ranges_text(draws)}"
    if not draws:
        return f"the player stands on {ranges_text(stands)}"
    return f"the player draws on {ranges_text(draws)} and stands on {ranges_text(stands)}"


def banker_rule(tableau: Tableau, banker: int, third: int | None) -> str:
    """The part of the banker's rule that decides banker total ``banker`` (not a natural), in words, given the
    player's third card's point value ``third`` (``None``: he stood).

    >>> banker_rule(STANDARD_TABLEAU, 6, 2)
    "with 6 the banker draws when the player's third card is 6 or 7"
    """
    if third is None:
        draws = [t for t in _live(tableau) if _banker_draws(tableau, t, None)]
        return f"when the player stands, the banker draws on {ranges_text(draws)}"
    cards = [x for x in range(10) if _banker_draws(tableau, banker, x)]
    if len(cards) == 10:
        return f"with {banker} the banker always draws when the player has drawn"
    if not cards:
        return f"with {banker} the banker always stands when the player has drawn"
    return f"with {banker} the banker draws when the player's third card is {ranges_text(cards)}"


# ---------------------------------------------------------------- playing a coup


class IncompleteCoup(ValueError):
    """Fewer point values than the coup draws."""


@dataclass(frozen=True, slots=True)
class Play:
    """How a coup ends: final totals 0-9 and the cards each hand holds (2 or 3)."""

    player: int
    banker: int
    player_cards: int
    banker_cards: int

    @property
    def cards(self) -> int:
        return self.player_cards + self.banker_cards


def play(tableau: Tableau, points: Sequence[int]) -> Play:
    """Play one coup from point values 0-9 in dealing order (P, B, P, B, then the draws; extra values
    ignored, too few raise :class:`IncompleteCoup`).

    >>> play(STANDARD_TABLEAU, [3, 6, 2, 0, 4, 9])  # player 5 draws a 4; banker 6 stands on a 4
    Play(player=9, banker=6, player_cards=3, banker_cards=2)
    """
    if len(points) < 4:
        raise IncompleteCoup("a coup needs four cards")
    return play_totals(tableau, (points[0] + points[2]) % 10, (points[1] + points[3]) % 10, points[4:])


def play_totals(tableau: Tableau, player: int, banker: int, draws: Sequence[int]) -> Play:
    """Finish a coup from the two-card totals and the next point values in the shoe."""
    third = _next(draws, 0) if tableau.player_draws_on(player, banker) else None
    banker_draws = tableau.banker_draws_given(player, banker, third)
    final_banker = (banker + _next(draws, third is not None)) % 10 if banker_draws else banker
    final_player = (player + third) % 10 if third is not None else player
    return Play(final_player, final_banker, 2 + (third is not None), 2 + banker_draws)


def _next(draws: Sequence[int], i: int | bool) -> int:
    if i >= len(draws):
        raise IncompleteCoup("the coup draws more cards than were given")
    return draws[i]


STOOD = 10
"""Column of :attr:`DrawLookup.banker` for a player who stood (columns 0-9: the third card)."""


@dataclass(frozen=True, slots=True)
class DrawLookup:
    """The rule as NumPy arrays from the scalar rule: ``player[p, b]`` on two-card totals, ``banker[p, b, c]``
    with ``c`` the player's third card or :data:`STOOD`."""

    player: NDArray[np.bool_]
    banker: NDArray[np.bool_]


@lru_cache(maxsize=16)
def draw_lookup(tableau: Tableau) -> DrawLookup:
    import numpy as np

    player = np.array([[tableau.player_draws_on(p, b) for b in range(10)] for p in range(10)], dtype=bool)
    banker = np.array([[[tableau.banker_draws_given(p, b, None if c == STOOD else c) for c in range(11)]
                        for b in range(10)] for p in range(10)], dtype=bool)
    return DrawLookup(player, banker)


@dataclass(frozen=True, slots=True)
class Plays:
    """Many coups played at once: arrays of shape (n,) as in :class:`Play`."""

    player: NDArray[Any]
    banker: NDArray[Any]
    player_cards: NDArray[Any]
    banker_cards: NDArray[Any]


def play_many(tableau: Tableau, points: NDArray[Any]) -> Plays:
    """:func:`play` for many coups: ``points`` has shape (6, n), point values 0-9 in dealing order."""
    import numpy as np

    lookup = draw_lookup(tableau)
    pts = np.asarray(points, dtype=np.int16)
    player = (pts[0] + pts[2]) % 10
    banker = (pts[1] + pts[3]) % 10
    hands = 10 * player + banker  # flat indices into the lookup arrays: cheaper than 2-D and 3-D indexing
    player_draws = lookup.player.ravel()[hands]
    third = np.where(player_draws, pts[4], STOOD)
    banker_draws = lookup.banker.ravel()[hands * (STOOD + 1) + third]
    banker_card = np.where(player_draws, pts[5], pts[4])
    return Plays((player + np.where(player_draws, pts[4], 0)) % 10,
                 (banker + np.where(banker_draws, banker_card, 0)) % 10,
                 2 + player_draws.astype(np.int16), 2 + banker_draws.astype(np.int16))
