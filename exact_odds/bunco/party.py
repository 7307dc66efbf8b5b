"""A Bunco party described in a TOML file: players, tables, seats, rounds, the head table's bell and prizes.

Every key is optional, the defaults those of :data:`COMMON_PARTY` (docs/bunco.md, "A party"); a mistake
is one line naming the file and line.

>>> party = parse_party('tables = 2\\nplayers = 8\\n[prizes]\\nties = "roll-off"\\n', source="small.toml")
>>> party.name, party.players, party.tables, party.prizes.ties
('small', 8, 2, 'roll-off')
>>> parse_party("tabels = 2\\n", source="p.toml")
Traceback (most recent call last):
...
exact_odds.bunco.party.PartyError: p.toml:1: unknown key 'tabels' in a party file (did you mean 'tables'?)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from exact_odds.bunco.dice import (
    MAX_DICE,
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_TARGET,
    STANDARD_SCORING,
    BuncoError,
    Dice,
    ScoringRules,
    find_scoring_rules,
)
from exact_odds.inputs.reading import read_user_file
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.sources import TomlText, parse_toml, reraised
from exact_odds.inputs.validate import shown

KEYS = ("name", "players", "tables", "seats", "rounds", "dice", "sides", "target", "scoring", "bunco_ends_turn",
        "tie_break", "movement", "prizes")
"""The keys of a party file, in the order the format lists them."""
PRIZE_KEYS = ("awards", "ties")
"""The keys of its ``[prizes]`` table."""
AWARDS = ("most-buncos", "most-wins", "most-losses", "most-mini-buncos", "most-points")
"""The prizes a party may give, each to the player with the most of one tally of the night."""
MAX_TABLES = 100
"""The most tables a party may have."""
MAX_SEATS = 8
"""The most seats a table may have (an even number: two teams of partners)."""

Movement = Literal["standard", "none"]
Ties = Literal["split", "roll-off"]


class PartyError(BuncoError):
    """A party file that cannot be read or does not describe a party; the message names the line."""


@dataclass(frozen=True, slots=True)
class Prizes:
    """The prizes of the night (names of :data:`AWARDS`) and what a tie for one does (split or roll-off)."""

    awards: tuple[str, ...] = AWARDS
    ties: Ties = "split"


@dataclass(frozen=True, slots=True)
class Party:
    """A night of Bunco: ``tables`` tables of ``seats`` players (odd seats one team, even seats the
    other), ``rounds`` rounds; the head table's bell at ``target`` points stops every table.

    >>> COMMON_PARTY.players, str(COMMON_PARTY.dice)
    (12, '3d6')
    """

    name: str = "common"
    tables: int = 3
    seats: int = 4
    rounds: int = 6
    dice: Dice = field(default_factory=Dice)
    target: int = 21
    scoring: ScoringRules = STANDARD_SCORING
    bunco_ends_turn: bool = False
    tie_break: Literal["roll-off"] = "roll-off"
    movement: Movement = "standard"
    prizes: Prizes = Prizes()

    @property
    def players(self) -> int:
        """Everyone at the party: ``tables * seats``."""
        return self.tables * self.seats


COMMON_PARTY = Party()
"""The common game: 12 players at 3 tables of 4, 6 rounds of 3d6, the bell at 21, standard scoring."""


class _Doc:
    def __init__(self, text: str, source: str) -> None:
        self.data = parse_toml(text, source, PartyError)
        self.text = TomlText.of(text, source)

    def error(self, message: str, key: str, table: str | None = None) -> PartyError:
        line = self.text.top_level_key_line(key) if table is None else self.text.table_key_line(key, table)
        return PartyError(f"{self.text.where(line)}: {message}")


def _unknown(key: str, known: tuple[str, ...], where: str) -> str:
    return unknown_name("key", key, known, f" (known: {', '.join(known)})", where=f" in {where}")


def _whole(doc: _Doc, key: str, default: int, low: int, high: int) -> int:
    value = doc.data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise doc.error(f"{key} must be a whole number from {low} to {high:,}, got {shown(value)}", key)
    return value


def _choice(doc: _Doc, data: dict[str, Any], key: str, default: str, choices: tuple[str, ...],
            table: str | None = None) -> str:
    value = data.get(key, default)
    if value not in choices:
        named = " or ".join(f'"{c}"' for c in choices)
        raise doc.error(f"{key} must be {named}, got {shown(value)}", key, table)
    return str(value)


def _scoring(doc: _Doc) -> ScoringRules:
    name = doc.data.get("scoring", STANDARD_SCORING.name)
    if not isinstance(name, str):
        raise doc.error(f"scoring must be the name of a rule set, got {shown(name)}", "scoring")
    with reraised(doc.error, "scoring"):
        return find_scoring_rules(name)


def _prizes(doc: _Doc) -> Prizes:
    table = doc.data.get("prizes", {})
    if not isinstance(table, dict):
        raise doc.error("prizes must be a table ([prizes])", "prizes")
    for key in table:
        if key not in PRIZE_KEYS:
            raise doc.error(_unknown(key, PRIZE_KEYS, "[prizes]"), key, "prizes")
    awards = table.get("awards", list(AWARDS))
    if not isinstance(awards, list) or not all(isinstance(a, str) for a in awards):
        raise doc.error("awards must be a list of prize names", "awards", "prizes")
    for award in awards:
        if award not in AWARDS:
            raise doc.error(unknown_name("prize", award, AWARDS, f" (choose from {', '.join(AWARDS)})"),
                            "awards", "prizes")
    if len(set(awards)) < len(awards):
        raise doc.error("awards names a prize twice", "awards", "prizes")
    ties = _choice(doc, table, "ties", "split", ("split", "roll-off"), "prizes")
    return Prizes(tuple(awards), "split" if ties == "split" else "roll-off")


def _bool(doc: _Doc, key: str) -> bool:
    value = doc.data.get(key, False)
    if not isinstance(value, bool):
        raise doc.error(f"{key} must be true or false, got {shown(value)}", key)
    return value


def _layout(doc: _Doc) -> tuple[int, int]:
    tables = _whole(doc, "tables", COMMON_PARTY.tables, 1, MAX_TABLES)
    seats = _whole(doc, "seats", COMMON_PARTY.seats, 2, MAX_SEATS)
    if seats % 2:
        raise doc.error(f"seats must be even (two teams of partners a table), got {seats}", "seats")
    players = _whole(doc, "players", tables * seats, 2, MAX_TABLES * MAX_SEATS)
    if players != tables * seats:
        raise doc.error(f"players must fill the tables: {tables} tables of {seats} seats seat {tables * seats}, "
                        f"got {players}", "players")
    return tables, seats


def parse_party(text: str, *, source: str = "party") -> Party:
    """A :class:`Party` from TOML text (``examples/bunco_party.toml``); ``source`` names it in messages."""
    doc = _Doc(text, source)
    for key in doc.data:
        if key not in KEYS:
            raise doc.error(_unknown(key, KEYS, "a party file"), key)
    name = doc.data.get("name", Path(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise doc.error(f"name must be a non-empty string, got {shown(name)}", "name")
    tables, seats = _layout(doc)
    dice = Dice(_whole(doc, "dice", 3, 1, MAX_DICE), _whole(doc, "sides", 6, 1, MAX_SIDES))
    rounds = _whole(doc, "rounds", dice.sides, 1, MAX_ROUNDS)
    if rounds % dice.sides:
        raise doc.error(f"rounds must be whole sets of {dice.sides} (one round per face), got {rounds}", "rounds")
    movement = _choice(doc, doc.data, "movement", "standard", ("standard", "none"))
    _choice(doc, doc.data, "tie_break", "roll-off", ("roll-off",))
    return Party(name=name, tables=tables, seats=seats, rounds=rounds, dice=dice,
                 target=_whole(doc, "target", COMMON_PARTY.target, 1, MAX_TARGET), scoring=_scoring(doc),
                 bunco_ends_turn=_bool(doc, "bunco_ends_turn"),
                 movement="standard" if movement == "standard" else "none", prizes=_prizes(doc))


def load_party(path: str | Path) -> Party:
    """Read a party from a TOML file (see :func:`parse_party`)."""
    return parse_party(read_user_file(path, "party", PartyError), source=str(path))
