"""A casino's game in one TOML file: the shoe, the tableau, the pay table, the side bets, the dealing.

A :class:`Game` gathers what a par sheet of one casino's table depends on; ``--game FILE`` gives it to
every baccarat command, and an option given beside it replaces that part. The format (every key
optional) is in docs/formats.md, "A casino's game"; ``examples/games/`` has a file per built-in
configuration. File names are relative to the game file, and every mistake names the file and line.

>>> game = parse_game('decks = 6\\nconfiguration = "tie-9"\\nside_bets = ["dragon-7"]\\n', source="casino.toml")
>>> game.name, game.shoe.size, game.configuration.name, [bet.name for bet in game.bets]
('casino', 312, 'tie-9', ['tie-9/banker', 'tie-9/player', 'tie-9/tie', 'dragon-7'])
>>> parse_game('decks = 6\\nside_bets = ["banker"]\\n', source="casino.toml")
Traceback (most recent call last):
...
exact_odds.game.GameError: casino.toml:2: side_bets names 'banker', a main bet: the main bets come from configuration
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from exact_odds.bets import BUILTIN_BETS, BUILTIN_CONFIGURATIONS, Bet, Configuration, Registry, parse_bets
from exact_odds.bets.main import STANDARD_CONFIG, is_main_bet, load_configuration, parse_configuration
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau, load_tableau, parse_tableau
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, Procedure
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import is_file, read_user_file
from exact_odds.inputs.registry import name_key, unknown_key
from exact_odds.inputs.sources import TomlText, parse_toml, reraised, text_value
from exact_odds.inputs.validate import shown

KEYS = ("name", "description", "source", "decks", "shoe", "tableau", "configuration", "side_bets", "procedure", "bet")
PROCEDURE_KEYS = ("burn", "cut_card", "last_coup")
BUILTIN_TABLEAUX: dict[str, Tableau] = {STANDARD_TABLEAU.name: STANDARD_TABLEAU}
DEFAULT_DECKS = 8
"""Decks in the shoe of a game that names none (the command line's default too)."""


class GameError(InputError):
    """A game file that cannot be read or does not describe a game; the message names the line."""


@dataclass(frozen=True, slots=True)
class Game:
    """One casino's punto banco: ``configuration`` is the main bets' pay table, ``side_bets`` those offered
    (named, then the file's own), ``defined`` the bets the file defines (commands know them by name)."""

    name: str
    shoe: Shoe
    tableau: Tableau
    configuration: Configuration
    side_bets: tuple[Bet, ...] = ()
    procedure: Procedure = STANDARD_PROCEDURE
    defined: tuple[Bet, ...] = ()
    description: str = ""
    source: str = ""

    @property
    def bets(self) -> tuple[Bet, ...]:
        """Every bet offered: the main bets, then the side bets."""
        return (*self.configuration.bets, *self.side_bets)


STANDARD_GAME = Game("standard", Shoe.decks(DEFAULT_DECKS), STANDARD_TABLEAU, STANDARD_CONFIG)
"""Eight decks, the standard tableau and pay table, no side bets, the standard procedure."""


class _Doc:
    """The text of a game file: its data, its lines (for error messages) and its folder (for file names)."""

    def __init__(self, text: str, source: str, base: Path) -> None:
        self.text = TomlText.of(text, source)
        self.source, self.base = source, base
        self.data = parse_toml(text, source, GameError)  # nesting, syntax and long numbers checked

    def error(self, message: str, key: str | None = None, table: str | None = None) -> GameError:
        """``source:line: message``, the line of ``key`` (in ``[table]`` if given; of its header if no key)."""
        if table is not None:
            line = self.text.table_key_line(key, table) or self.text.table_key_line(None, table)
        else:
            line = 0 if key is None else (self.text.top_level_key_line(key)
                                          or self.text.first_match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*[.=]"))
        return GameError(f"{self.text.where(line)}: {message}")

    def path(self, value: str) -> Path:
        """A file named in the game, relative to the game file's folder."""
        path = Path(value).expanduser()
        return path if path.is_absolute() else self.base / path

    def inline(self, table: str, *, strip: bool = True) -> str:
        """The text with only ``[table]`` and ``[table.*]`` kept, other lines blank (line numbers stay), checked
        to hold all of the table (not dotted keys or ``{...}``); with ``strip``, ``[table]`` blanked and the
        prefix dropped (``[tableau.banker]`` becomes ``[banker]``)."""
        lines = self.text.lines
        out = [""] * len(lines)
        for i in self.text.headers():
            name = self.text.header_name(i) or ""
            if name != table and not name.startswith(table + "."):
                continue
            start, end = self.text.block(i)
            out[start:end] = lines[start:end]
            if strip:
                brackets = "[[" if lines[i].lstrip().startswith("[[") else "["
                inner = name[len(table) + 1:]
                out[i] = f"{brackets}{inner}{brackets.replace('[', ']')}" if inner else ""
        text = "\n".join(out) + "\n"
        held = tomllib.loads(text)
        if (held if strip else held.get(table)) != self.data[table]:
            form = "[[bet]] tables" if table == "bet" else f"a [{table}] table (sub-tables as [{table}.NAME])"
            raise self.error(f"write {table} as {form}, not with dotted keys or {{...}}", table)
        return text


def _text(doc: _Doc, key: str, default: str) -> str:
    wrong = f"{key} must be a{' non-empty' if key == 'name' else ''} string"
    return text_value(doc.data.get(key, default), f"game {key}", wrong, doc.error, key, required=key == "name")


def _shoe(doc: _Doc) -> Shoe:
    """``decks = N`` (or ``"inf"``), or ``shoe = "A=32,..."``, or 8 decks."""
    if "decks" in doc.data and "shoe" in doc.data:
        raise doc.error("give decks or shoe, not both", "shoe")
    if "shoe" in doc.data:
        spec = doc.data["shoe"]
        if not isinstance(spec, str):
            raise doc.error("shoe must be a composition by rank in a string, e.g. \"A=32,2=32,...,K=32\"", "shoe")
        with reraised(doc.error, "shoe"):
            return Shoe.parse(spec)
    with reraised(doc.error, "decks"):
        decks = validate.decks(doc.data.get("decks", DEFAULT_DECKS), "decks")  # 1 to 10,000, or "inf"
    return Shoe.infinite_deck() if decks is None else Shoe.decks(decks)


T = TypeVar("T")


def _built_in_file_or_table(doc: _Doc, key: str, built_in: Mapping[str, T], default: str,
                            parse: Callable[[str], T], load: Callable[[Path], T]) -> T:
    """The value of ``key`` (``default`` if absent): a name of ``built_in``, a file read by ``load``, or an inline
    ``[key]`` table, whose text ``parse`` reads."""
    value = doc.data.get(key, default)
    if isinstance(value, dict):
        return parse(doc.inline(key))
    if not isinstance(value, str):
        raise doc.error(f"{key} must be a name, a file name or a [{key}] table", key)
    if name_key(value) in built_in:
        return built_in[name_key(value)]
    if not is_file(doc.path(value)):
        raise doc.error(f"{key} {shown(value)} is neither a built-in {key} ({', '.join(built_in)}) nor a file", key)
    return load(doc.path(value))


def _side_bets(doc: _Doc) -> tuple[tuple[Bet, ...], tuple[Bet, ...]]:
    """``(offered, defined)``: the bets of ``side_bets`` then the file's own ``[[bet]]`` s, and the latter."""
    defined: tuple[Bet, ...] = ()
    if "bet" in doc.data:
        defined = parse_bets(doc.inline("bet", strip=False), source=doc.source, joining=BUILTIN_BETS)
    known: Registry[Bet] = BUILTIN_BETS.extended(defined)
    names = doc.data.get("side_bets", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise doc.error("side_bets must be a list of bet names, e.g. [\"player-pair\", \"dragon-7\"]", "side_bets")
    offered: list[Bet] = []
    for name in names:
        with reraised(doc.error, "side_bets"):
            bet = known.find(name)
        if is_main_bet(bet):
            raise doc.error(f"side_bets names {shown(name)}, a main bet: the main bets come from configuration",
                            "side_bets")
        if bet not in offered:
            offered.append(bet)
    return (*offered, *(bet for bet in defined if bet not in offered)), defined


def _procedure(doc: _Doc, shoe: Shoe) -> Procedure:
    """The ``[procedure]`` table (burn, cut card, last-coup rule), checked against the game's shoe."""
    table = doc.data.get("procedure")
    if table is None:
        return STANDARD_PROCEDURE
    if not isinstance(table, dict):
        raise doc.error("procedure must be a table ([procedure])", "procedure")
    for key in table:
        if key not in PROCEDURE_KEYS:
            raise doc.error(unknown_key(key, PROCEDURE_KEYS, " in [procedure]"), key, "procedure")
    burn, cut, last = (table.get(key, default) for key, default in zip(
        PROCEDURE_KEYS, (STANDARD_PROCEDURE.burn, STANDARD_PROCEDURE.cut, STANDARD_PROCEDURE.last_coup), strict=True))
    if not isinstance(burn, bool):
        raise doc.error(f"burn must be true or false, got {shown(burn)}", "burn", "procedure")
    with reraised(doc.error, "cut_card", "procedure"):
        cut = validate.CUT_CARD.check(cut, "cut_card")  # 0 to 520,000
    if last not in ("one-more", "this"):
        raise doc.error(f"last_coup must be \"one-more\" or \"this\", got {shown(last)}", "last_coup", "procedure")
    procedure = Procedure(cut=cut, last_coup="this" if last == "this" else "one-more", burn=burn)
    if not shoe.infinite:
        with reraised(doc.error, "cut_card" if "cut_card" in table else None, "procedure"):
            procedure.check(shoe)
    return procedure


def parse_game(text: str, *, source: str = "game", base: str | Path = ".") -> Game:
    """A :class:`Game` from TOML text; ``source`` names it in messages, and the files it names are in ``base``."""
    doc = _Doc(text, source, Path(base))
    for key in doc.data:
        if key not in KEYS:
            raise doc.error(unknown_key(key, KEYS, " in a game file"), key)
    shoe = _shoe(doc)
    offered, defined = _side_bets(doc)
    name = _text(doc, "name", Path(source).stem)
    tableau = _built_in_file_or_table(doc, "tableau", BUILTIN_TABLEAUX, STANDARD_TABLEAU.name,
                                      lambda text: parse_tableau(text, source=source), load_tableau)
    configuration = _built_in_file_or_table(doc, "configuration", BUILTIN_CONFIGURATIONS, STANDARD_CONFIG.name,
                                            lambda text: parse_configuration(text, source=source), load_configuration)
    return Game(name, shoe, tableau, configuration, offered, _procedure(doc, shoe), defined,
                _text(doc, "description", ""), _text(doc, "source", ""))


def load_game(path: str | Path) -> Game:
    """Read a game from a TOML file (see :func:`parse_game`); the files it names are relative to it."""
    text = read_user_file(path, "game", GameError)
    return parse_game(text, source=str(path), base=Path(path).parent)
