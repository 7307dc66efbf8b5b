"""The main bets (banker, player, tie) and the main-bet configurations of the casinos.

Payouts are net units (:mod:`exact_odds.bets.core`); banker and player push on a tie unless a pay
table says otherwise. A :class:`Configuration` is the pay table of one kind of table; the built-in
ones (:data:`BUILTIN_CONFIGURATIONS`) name their bets ``"tie-9/tie"``, ``"super-6/banker"``...,
except the standard ``banker``, ``player`` and ``tie``. :func:`load_configuration` reads a casino's
own (:data:`EXAMPLE_TOML`).

>>> find_configuration("super-6").bet("banker").payout(Coup(5, 6, 3, 3))
Fraction(1, 2)
>>> [c.name for c in BUILTIN_CONFIGURATIONS.values()]
['standard', 'tie-9', 'commission-4', 'super-6', 'ez']

Each configuration cites its sources; their published 8-deck edges are checked in the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from exact_odds.bets.core import Bet, BetError, PayLine, exact_payout
from exact_odds.core.coup import OUTCOMES, Coup, Winner
from exact_odds.inputs.reading import exists, read_user_file
from exact_odds.inputs.registry import Registry, name_key, unknown_name
from exact_odds.inputs.sources import TomlText, parse_toml, reraised, text_value
from exact_odds.inputs.validate import name as checked_name
from exact_odds.inputs.validate import shown

ROLES: tuple[Winner, ...] = OUTCOMES
"""The three main bets of a configuration, in order."""

WIZARD = "Wizard of Odds, Baccarat (wizardofodds.com/games/baccarat/)"
WIZARD_EZ = "Wizard of Odds, EZ Baccarat (wizardofodds.com/games/ez-baccarat/)"
JACOBSON_SUPER_6 = ("E. Jacobson, Card Counting the Super Six Baccarat Side Bet, American Casino Guide "
                    "(americancasinoguide.com/casino-news/card-counting-the-super-six-baccarat-side-bet.html)")


# ---------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class WinWith:
    """The rule "``side`` wins" (or the hands tie), optionally with the winning (tied) ``total`` and the
    winning hand's number of ``cards`` (not for a tie).

    >>> WinWith("banker", 7, 3)(Coup(player=5, banker=7, player_cards=3, banker_cards=3))
    True
    """

    side: Winner
    total: int | None = None
    cards: int | None = None

    def __call__(self, coup: Coup) -> bool:
        # The winner compared here rather than read from ``coup.winner``: a par sheet asks every coup.
        player, banker, side = coup.player, coup.banker, self.side
        if side == "player":
            return player > banker and (self.total is None or player == self.total) and (
                self.cards is None or coup.player_cards == self.cards)
        won = banker > player if side == "banker" else side == "tie" and banker == player
        return won and (self.total is None or banker == self.total) and (
            self.cards is None or coup.banker_cards == self.cards)

    def __str__(self) -> str:
        if self.side == "tie":
            return "tie" + (f" on {self.total}" if self.total is not None else "")
        if self.total is not None:
            cards = {None: "", 2: "two-card ", 3: "three-card "}[self.cards]
            return f"{self.side} wins with {cards}{self.total}"
        return f"{self.side} wins" + {None: "", 2: " with two cards", 3: " with three cards"}[self.cards]


banker_wins = WinWith("banker")
player_wins = WinWith("player")


def odds_text(pays: Fraction) -> str:
    """A net payout as casino odds: ``19:20``, ``8:1``, ``1:2`` (a push is ``0:1``)."""
    return f"{pays.numerator}:{pays.denominator}"


def _phrase(line: PayLine) -> str:  # "banker wins: 19:20", "tie: push"
    return f"{line.label.removesuffix(' (push)')}: {odds_text(line.pays) if line.pays else 'push'}"


# ---------------------------------------------------------------- building bets from a pay table


@dataclass(frozen=True, slots=True)
class Special:
    """A win of the bet's side with a given total (and number of cards)."""

    total: int
    cards: int | None
    pays: Fraction


@dataclass(frozen=True, slots=True)
class Pays:
    """One main bet's pay table in net units: a win, special wins tried first, and (banker, player) a tie."""

    win: Fraction
    specials: tuple[Special, ...] = ()
    tie: Fraction = Fraction(0)


def _line(rule: WinWith, pays: Fraction) -> PayLine:
    label = str(rule) + (" (push)" if pays == 0 else "")
    return PayLine(label, rule, pays)


def main_bet(name: str, side: Winner, pays: Pays, *, source: str, aliases: tuple[str, ...] = ()) -> Bet:
    """A bet on ``side``: its special lines, a plain win, then (banker, player) the tie; described from them."""
    lines = [_line(WinWith(side, s.total, s.cards), s.pays) for s in pays.specials]
    lines.append(_line(WinWith(side), pays.win))
    if side != "tie":
        lines.append(_line(WinWith("tie"), pays.tie))
    description = "; ".join(_phrase(line) for line in lines)
    return Bet(name, tuple(lines), source, description[0].upper() + description[1:] + ".", aliases=aliases)


# ---------------------------------------------------------------- configurations


@dataclass(frozen=True, slots=True)
class Configuration:
    """A named pay table: the banker, player and tie ``bets`` in :data:`ROLES` order, and its ``source``."""

    name: str
    description: str
    source: str
    bets: tuple[Bet, ...]
    aliases: tuple[str, ...] = ()

    def bet(self, role: str) -> Bet:
        """The configuration's ``"banker"``, ``"player"`` or ``"tie"`` bet."""
        key = name_key(role)
        for r, bet in zip(ROLES, self.bets, strict=True):
            if key in (r, name_key(bet.name)):
                return bet
        raise BetError(f"configuration {shown(self.name)} has no bet {shown(role)}; its bets: {', '.join(ROLES)}")


def build_configuration(name: str, description: str, source: str, pays: Mapping[Winner, Pays], *,
                        plain_names: bool = False) -> Configuration:
    """A :class:`Configuration` whose bets are named ``NAME/banker`` etc. (or plain names)."""
    bets = tuple(main_bet(role if plain_names else f"{name}/{role}", role, pays[role], source=source,
                          aliases=_STANDARD_ALIASES[role] if plain_names else ())
                 for role in ROLES)
    return Configuration(name, description, source, bets)


_STANDARD_ALIASES: dict[Winner, tuple[str, ...]] = {
    "banker": ("b", "banco", "standard/banker"),
    "player": ("p", "punto", "standard/player"),
    "tie": ("t", "egalite", "standard/tie"),
}


def _pays(banker: str | int, player: str | int, tie: str | int, *,
          specials: tuple[Special, ...] = ()) -> dict[Winner, Pays]:
    """Main-bet pays with banker specials; banker and player push on a tie."""
    return {"banker": Pays(exact_payout(banker), specials), "player": Pays(exact_payout(player)),
            "tie": Pays(exact_payout(tie))}


STANDARD_CONFIG = build_configuration(
    "standard", "Player 1:1, banker 19:20 (5% commission), tie 8:1; banker and player push on a tie.",
    WIZARD, _pays("19/20", 1, 8), plain_names=True)
BANKER, PLAYER, TIE = STANDARD_CONFIG.bets

BUILTIN_CONFIGURATIONS: Registry[Configuration] = Registry("configuration", (
    STANDARD_CONFIG,
    build_configuration("tie-9", "As standard, but a tie pays 9:1.", WIZARD, _pays("19/20", 1, 9)),
    build_configuration("commission-4", "As standard, but banker wins pay 24:25 (4% commission).", WIZARD,
                        _pays("24/25", 1, 8)),
    build_configuration(
        "super-6", "No commission: banker wins pay 1:1, except a banker win with 6, which pays 1:2 (Punto 2000).",
        JACOBSON_SUPER_6, _pays(1, 1, 8, specials=(Special(6, None, Fraction(1, 2)),))),
    build_configuration(
        "ez", "EZ Baccarat: no commission; a banker win with a three-card 7 (the Dragon 7) is a push.",
        f"{WIZARD_EZ}; {JACOBSON_SUPER_6}", _pays(1, 1, 8, specials=(Special(7, 3, Fraction(0)),))),
), error=BetError)
"""The built-in configurations by name, in the order reports list them (an immutable value)."""


def find_configuration(name: str) -> Configuration:
    """The built-in configuration called ``name`` (in any spelling; else a :class:`BetError` naming them)."""
    return BUILTIN_CONFIGURATIONS.find(name)


def is_main_bet(bet: Bet, configurations: Registry[Configuration] = BUILTIN_CONFIGURATIONS) -> bool:
    """Whether ``bet`` is the banker, player or tie bet of one of ``configurations`` (default: the built-in ones)."""
    return any(bet in config.bets for config in configurations.values())


# ---------------------------------------------------------------- configurations from TOML

EXAMPLE_TOML = """\
# A casino's pay table for the main bets. Payouts are net units per unit staked, written
# exactly as strings ("19/20", "0.95", "11:1") or integers; a float such as 0.95 is refused.
name = "my-casino"
description = "Banker 19:20, but a banker win with 6 pays 1:2; tie 9:1."
source = "the casino's rules card"

[banker]
win = "19/20"
# tie = "0"                  # what a banker bet gets on a tie (default 0, a push)

[[banker.special]]           # optional, any number: a banker win with this total ...
total = 6
# cards = 3                  # ... and (optional) this number of cards in the banker's hand
pays = "1/2"

[player]
win = "1"

[tie]
win = "9"
"""
"""An example configuration file, the format read by :func:`parse_configuration`."""

_TOP_KEYS = {"name", "description", "source", *ROLES}
_BET_KEYS = {"banker": {"win", "tie", "special"}, "player": {"win", "tie", "special"}, "tie": {"win", "special"}}
_SPECIAL_KEYS = {"total", "cards", "pays"}


def _where(doc: TomlText, key: str | None, section: str | None = None, index: int = 0) -> str:
    """``source:line`` of ``key =`` (else of the header) in the ``index``-th ``[section]``, or at the top level."""
    if section is not None:
        return doc.where(doc.table_key_line(key, section, index) or doc.table_key_line(None, section, index))
    return doc.where(doc.top_level_key_line(key) if key is not None else 0)


def _error(doc: TomlText, message: str, key: str | None, section: str | None = None, index: int = 0) -> BetError:
    return BetError(f"{_where(doc, key, section, index)}: {message}")


MAX_SPECIALS = 100
"""The most ``[[ROLE.special]]`` tables of one bet (a total 0-9 with 2, 3 or any number of cards makes 30)."""


def _whole(value: object, what: str, allowed: range) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
        raise BetError(f"{what} must be a whole number {allowed.start}-{allowed.stop - 1}, got {shown(value)}")
    return value


def _special(item: object, role: Winner, index: int, doc: TomlText) -> Special:
    """One ``[[ROLE.special]]`` table; its lines are looked up only for a message (a file of many stays linear)."""
    section = f"{role}.special"
    if not isinstance(item, dict):
        raise _error(doc, f"{section} must be an array of tables ([[{section}]])", "special", role)
    unknown = sorted(set(item) - _SPECIAL_KEYS)
    if unknown:
        raise _error(doc, unknown_name("key", unknown[0], _SPECIAL_KEYS, " (use total, cards, pays)",
                                       where=f" in [[{section}]]"), unknown[0], section, index)
    for key in ("total", "pays"):
        if key not in item:
            raise _error(doc, f"[[{section}]] needs {shown(key)}", None, section, index)
    cards = item.get("cards")
    if cards is not None and role == "tie":
        raise _error(doc, "a tie special takes a total only, not cards", "cards", section, index)
    error = partial(_error, doc)
    with reraised(error, "total", section, index):
        total = _whole(item["total"], f"{role} special total", range(10))
    with reraised(error, "cards", section, index):
        count = None if cards is None else _whole(cards, f"{role} special cards", range(2, 4))
    with reraised(error, "pays", section, index):
        return Special(total, count, exact_payout(item["pays"], where=f"{role} special pays"))


def _bet_table(data: dict[str, object], role: Winner, doc: TomlText) -> Pays:
    """The pays of one bet's table; the tie entry only for banker and player."""
    table = data.get(role)
    if table is None:
        raise _error(doc, f"missing [{role}] (give at least: win = \"...\")", None)
    if not isinstance(table, dict):
        raise _error(doc, f"{role} must be a table ([{role}])", role)
    unknown = sorted(set(table) - _BET_KEYS[role])
    if unknown:
        raise _error(doc, unknown_name("key", unknown[0], sorted(_BET_KEYS[role]),
                                       f" (use {', '.join(sorted(_BET_KEYS[role]))})", where=f" in [{role}]"),
                     unknown[0], role)
    if "win" not in table:
        raise _error(doc, f"[{role}] needs win = \"...\" (the net payout of a win)", None, role)
    win = exact_payout(table["win"], where=f"{_where(doc, 'win', role)}: {role} win")
    tie = exact_payout(table.get("tie", 0), where=f"{_where(doc, 'tie', role)}: {role} tie")
    specials = table.get("special", [])
    if not isinstance(specials, list):
        raise _error(doc, f"{role}.special must be an array of tables ([[{role}.special]])", "special", role)
    if len(specials) > MAX_SPECIALS:
        raise _error(doc, f"[{role}] has {len(specials):,} special lines; at most {MAX_SPECIALS} are allowed",
                     None, role)
    return Pays(win, tuple(_special(item, role, i, doc) for i, item in enumerate(specials)), tie)


def _text(data: dict[str, object], key: str, default: str, doc: TomlText) -> str:
    return text_value(data.get(key, default), f"configuration {key}", f"{key} must be a non-empty string",
                      partial(_error, doc), key)


def parse_configuration(text: str, *, source: str = "configuration") -> Configuration:
    """A :class:`Configuration` from TOML text in the format of :data:`EXAMPLE_TOML` (a :class:`BetError`
    naming ``source`` and the line for any mistake).

    >>> parse_configuration(EXAMPLE_TOML).bet("banker").payout(Coup(5, 6, 3, 3))
    Fraction(1, 2)
    """
    doc = TomlText.of(text, source)
    data = parse_toml(text, source, BetError)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise _error(doc, unknown_name("bet or key", unknown[0], sorted(_TOP_KEYS),
                                       f" (a configuration has name, description, source and the bets "
                                       f"{', '.join(ROLES)})"), unknown[0])
    name = _text(data, "name", Path(source).stem, doc)
    if "/" in name:
        raise _error(doc, f"name {shown(name)} must not contain '/'", "name")
    pays = {role: _bet_table(data, role, doc) for role in ROLES}
    description = _text(data, "description", "A pay table read from " + source, doc)
    return build_configuration(name, description, _text(data, "source", source, doc), pays)


def load_configuration(path: str | Path) -> Configuration:
    """Read a configuration from a TOML file (see :func:`parse_configuration`)."""
    return parse_configuration(read_user_file(path, "configuration", BetError), source=str(path))


def configuration_from(name_or_path: str) -> Configuration:
    """A built-in configuration by name, or one read from a TOML file (else a :class:`BetError` naming them)."""
    checked_name(name_or_path, "the configuration", BetError,
                 examples=f"give one of {', '.join(BUILTIN_CONFIGURATIONS)} or a TOML file")
    if name_or_path in BUILTIN_CONFIGURATIONS:
        return BUILTIN_CONFIGURATIONS[name_or_path]
    if exists(name_or_path) or name_or_path.endswith(".toml"):
        return load_configuration(name_or_path)
    raise BetError(unknown_name("configuration", name_or_path, BUILTIN_CONFIGURATIONS,
                                f"; give one of {', '.join(BUILTIN_CONFIGURATIONS)} or a TOML file"))
