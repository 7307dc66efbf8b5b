"""Side bets defined by the user in TOML: pay lines as conditions over the coup outcome.

No code is evaluated: a ``[[bet]]`` holds ``[[bet.line]]`` pay lines, each a payout and conditions
that must all hold (the keys of :data:`FIELDS`); the first line that matches decides, and a coup no
line matches loses the stake. The format is in docs/formats.md, "Side bets of your own". Reading
a file changes nothing global: the bets are returned, checked against the set they will join.

>>> bets = parse_bets('''
... [[bet]]
... name = "doc-dragon"
... source = "example"
... [[bet.line]]
... pays = "40:1"
... winner = "banker"
... banker_total = 7
... banker_cards = 3
... ''')
>>> bets[0].lines[0].label, bets[0].lines[0].pays
('winner banker, banker_total 7, banker_cards 3', Fraction(40, 1))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TypeGuard

from exact_odds.bets.core import Bet, BetError, PayLine, exact_payout
from exact_odds.bets.side import BUILTIN_BETS
from exact_odds.core.coup import OUTCOMES, Coup, Detail, Winner
from exact_odds.inputs.reading import read_user_file
from exact_odds.inputs.registry import Registry, name_key, unknown_key
from exact_odds.inputs.sources import TomlText, parse_toml, reraised, text_value
from exact_odds.inputs.validate import printable, shown

# ---------------------------------------------------------------- the condition vocabulary


@dataclass(frozen=True, slots=True)
class Field:
    """One condition key: how to read it off a coup, its kind and range of values, the detail it needs."""

    read: Callable[[Coup], object]
    kind: str  # "int", "bool" or "winner"
    low: int
    high: int
    detail: Detail


FIELDS: dict[str, Field] = {
    "winner": Field(lambda c: c.winner, "winner", 0, 0, Detail.POINTS),
    "player_total": Field(lambda c: c.player, "int", 0, 9, Detail.POINTS),
    "banker_total": Field(lambda c: c.banker, "int", 0, 9, Detail.POINTS),
    "player_cards": Field(lambda c: c.player_cards, "int", 2, 3, Detail.POINTS),
    "banker_cards": Field(lambda c: c.banker_cards, "int", 2, 3, Detail.POINTS),
    "cards": Field(lambda c: c.cards, "int", 4, 6, Detail.POINTS),
    "margin": Field(lambda c: abs(c.player - c.banker), "int", 0, 9, Detail.POINTS),
    "natural": Field(lambda c: c.natural, "bool", 0, 1, Detail.POINTS),
    "player_natural": Field(lambda c: c.player_cards == 2 and c.player >= 8, "bool", 0, 1, Detail.POINTS),
    "banker_natural": Field(lambda c: c.banker_cards == 2 and c.banker >= 8, "bool", 0, 1, Detail.POINTS),
    "player_pair": Field(lambda c: c.player_pair, "bool", 0, 1, Detail.RANKS),
    "banker_pair": Field(lambda c: c.banker_pair, "bool", 0, 1, Detail.RANKS),
    "twin_pair": Field(lambda c: c.twin_pair, "bool", 0, 1, Detail.RANKS),
    "pairs": Field(lambda c: c.player_pair + c.banker_pair, "int", 0, 2, Detail.RANKS),
    "player_suited_pair": Field(lambda c: c.player_suited, "bool", 0, 1, Detail.SUITS),
    "banker_suited_pair": Field(lambda c: c.banker_suited, "bool", 0, 1, Detail.SUITS),
    "suited_pairs": Field(lambda c: c.player_suited + c.banker_suited, "int", 0, 2, Detail.SUITS),
}
"""Every condition key, in the order labels list them."""

WINNERS: tuple[Winner, ...] = OUTCOMES
LINE_KEYS = ("label", "pays")
BET_KEYS = ("name", "source", "description", "aliases", "line")
MAX_LINES = 200
"""Pay lines a bet may have: every coup tries them in order, and real pay tables have a few dozen at most."""
MAX_FILE_LINES = 1000
"""Pay lines a bets file may have in all (each bet has one at least), which bounds the work it asks for."""


@dataclass(frozen=True, slots=True)
class Conditions:
    """A pay-line rule: ``(key, allowed values)`` pairs that must all hold (equal by value, so loading the
    same file twice gives equal bets)."""

    tests: tuple[tuple[str, frozenset[object]], ...]

    def __call__(self, coup: Coup) -> bool:
        return all(FIELDS[key].read(coup) in allowed for key, allowed in self.tests)

    @property
    def detail(self) -> Detail:
        return max((FIELDS[key].detail for key, _ in self.tests), default=Detail.POINTS)


# ---------------------------------------------------------------- locating errors


_TABLES = ("bet", "bet.line")


@dataclass(frozen=True, slots=True)
class _Where:
    """A bets file's lines, to name the line of a ``[[bet]]`` or of one of its ``[[bet.line]]`` in a message."""

    text: TomlText

    def line_no(self, bet: int, line: int | None = None, key: str | None = None) -> int:
        """1-based line of ``key`` in the bet (or its pay line), else of the table header; 0 if unknown."""
        bets = self.text.headers({"bet"})
        if bet >= len(bets):
            return 0
        start = bets[bet]
        if line is not None:
            end = self.text.block(start, {"bet"})[1]
            own = [i for i in self.text.headers({"bet.line"}) if start < i < end]
            if line >= len(own):
                return start + 1
            start = own[line]
        first, end = self.text.block(start, _TABLES)
        return (self.text.key_line(key, first, end) if key is not None else 0) or first + 1

    def error(self, message: str, bet: int, line: int | None = None, key: str | None = None) -> BetError:
        return BetError(f"{self.text.where(self.line_no(bet, line, key))}: {message}")


# ---------------------------------------------------------------- parsing values


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_values(key: str, field: Field, value: object) -> frozenset[object]:
    """The allowed numbers of a number condition: n, [low, high] or {one_of = [...]}."""
    if _is_int(value):
        numbers = [value]
    elif isinstance(value, list):
        if len(value) != 2 or not all(_is_int(v) for v in value):
            raise BetError(f"{key} = [low, high] needs two whole numbers, got {shown(value)}")
        numbers = value  # the two ends, checked below before the range is built
    elif isinstance(value, dict):
        listed = value.get("one_of")
        if set(value) != {"one_of"} or not isinstance(listed, list) or not listed or not all(
                _is_int(v) for v in listed):
            raise BetError(f"{key} = {{ one_of = [...] }} needs a non-empty list of whole numbers")
        numbers = listed
    else:
        raise BetError(f"{key} must be a whole number, [low, high] or {{ one_of = [...] }}, got {shown(value)}")
    bad = [n for n in numbers if not field.low <= n <= field.high]
    if bad:
        raise BetError(f"{key} must be {field.low}-{field.high}, got {shown(bad[0])}")
    if isinstance(value, list):
        low, high = value
        if low > high:
            raise BetError(f"{key} = [{low}, {high}] is empty: give the low end first")
        return frozenset(range(low, high + 1))
    return frozenset(numbers)


def _condition(key: str, value: object) -> frozenset[object]:
    """The allowed values of one condition (else a :class:`BetError` saying what is wrong)."""
    field = FIELDS[key]
    if field.kind == "bool":
        if not isinstance(value, bool):
            raise BetError(f"{key} must be true or false, got {shown(value)}")
        return frozenset([value])
    if field.kind == "winner":
        names = value if isinstance(value, list) else [value]
        if not names or not all(isinstance(n, str) and n in WINNERS for n in names):
            raise BetError(f"winner must be \"banker\", \"player\" or \"tie\" (or a list of them), got {shown(value)}")
        return frozenset(names)
    return _int_values(key, field, value)


def _pays(value: object) -> Fraction:
    if isinstance(value, str) and value.strip().lower() in ("push", "lose"):
        return Fraction(0) if value.strip().lower() == "push" else Fraction(-1)
    return exact_payout(value, where="pays")  # -1 ("lose") at least


def _text(value: frozenset[object]) -> str:
    """Allowed values in words: ``7``, ``4-9``, ``0/5/9``, ``banker/tie``, ``true``."""
    numbers = sorted(v for v in value if isinstance(v, int) and not isinstance(v, bool))
    if len(numbers) == len(value) and len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return "/".join(str(v).lower() if isinstance(v, bool) else str(v) for v in sorted(value, key=str))


def _label(tests: tuple[tuple[str, frozenset[object]], ...]) -> str:
    return ", ".join(f"{key} {_text(allowed)}" for key, allowed in tests) or "any coup"


# ---------------------------------------------------------------- bets


def _pay_line(entry: object, where: _Where, b: int, j: int) -> tuple[PayLine, Detail]:
    """One ``[[bet.line]]``: its pay line and the engine detail its conditions need."""
    if not isinstance(entry, dict):
        raise where.error("each [[bet.line]] must be a table", b, j)
    unknown = [k for k in entry if k not in FIELDS and k not in LINE_KEYS]
    if unknown:
        raise where.error(unknown_key(unknown[0], (*LINE_KEYS, *FIELDS)), b, j, unknown[0])
    if "pays" not in entry:
        raise where.error("a pay line needs pays (e.g. pays = \"11:1\")", b, j)
    with reraised(where.error, b, j, "pays"):
        pays = _pays(entry["pays"])
    tests: list[tuple[str, frozenset[object]]] = []
    for key in FIELDS:  # a fixed order, so equal conditions compare equal
        if key in entry:
            with reraised(where.error, b, j, key):
                tests.append((key, _condition(key, entry[key])))
    label = entry.get("label", _label(tuple(tests)))
    if not isinstance(label, str) or not label.strip():
        raise where.error("label must be a non-empty string", b, j, "label")
    with reraised(where.error, b, j, "label"):
        printable(label, "pay-line label")
    rule = Conditions(tuple(tests))
    return PayLine(label, rule, pays), rule.detail


def _text_key(table: Mapping[str, object], key: str, where: _Where, b: int, *, required: bool) -> str:
    return text_value(table.get(key, ""), f"bet {key}", f"a bet needs {key} = \"...\" (a non-empty string)",
                      where.error, b, None, key if key in table else None, required=required)


def _bet(table: object, where: _Where, b: int) -> Bet:
    if not isinstance(table, dict):
        raise where.error("each [[bet]] must be a table", b)
    unknown = [k for k in table if k not in BET_KEYS]
    if unknown:
        raise where.error(unknown_key(unknown[0], BET_KEYS), b, None, unknown[0])
    name = _text_key(table, "name", where, b, required=True)
    source = _text_key(table, "source", where, b, required=True)
    description = _text_key(table, "description", where, b, required=False)
    aliases = table.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
        raise where.error("aliases must be a list of names", b, None, "aliases")
    with reraised(where.error, b, None, "aliases"):
        for alias in aliases:
            printable(alias, "bet alias")
    entries = table.get("line")
    if not isinstance(entries, list) or not entries:
        raise where.error(f"bet {shown(name)} has no pay lines (add [[bet.line]] tables)", b)
    if len(entries) > MAX_LINES:
        raise where.error(f"bet {shown(name)} has {len(entries):,} pay lines; at most {MAX_LINES} are allowed", b)
    parsed = [_pay_line(entry, where, b, j) for j, entry in enumerate(entries)]
    lines = tuple(line for line, _ in parsed)
    detail = max(d for _, d in parsed)
    return Bet(name, lines, source, description or _describe(lines), tuple(a.strip() for a in aliases), detail)


def _describe(lines: tuple[PayLine, ...]) -> str:
    return "; ".join(f"{line.label}: pays {line.pays}" for line in lines) + "."


def parse_bets(text: str, *, source: str = "bets", joining: Registry[Bet] = BUILTIN_BETS) -> tuple[Bet, ...]:
    """The bets of a TOML bets file; nothing global changes. A name or alias already in ``joining`` (the set
    the bets will join) is an error unless it is the very same bet; every :class:`BetError` names the line."""
    where = _Where(TomlText.of(text, source))
    data = parse_toml(text, source, BetError)
    unknown = [k for k in data if k != "bet"]
    if unknown:
        line = where.text.first_match(rf"\s*\[*\s*{re.escape(unknown[0])}\b")
        raise BetError(f"{where.text.where(line)}: {unknown_key(unknown[0], ('bet',))}; write each bet as [[bet]]")
    tables = data.get("bet")
    if not isinstance(tables, list) or not tables:
        raise BetError(f"{source}: no bets (write each bet as a [[bet]] table)")
    bets = _bets(tables, where)
    _check_names(bets, where, joining)
    return bets


def _bets(tables: list[object], where: _Where) -> tuple[Bet, ...]:
    """Each ``[[bet]]`` table's bet, with at most :data:`MAX_FILE_LINES` pay lines in all."""
    bets: list[Bet] = []
    lines = 0
    for b, table in enumerate(tables):
        bets.append(_bet(table, where, b))
        lines += len(bets[-1].lines)
        if lines > MAX_FILE_LINES:
            raise where.error(f"the file has more than {MAX_FILE_LINES:,} pay lines in all (this bet passes them)", b)
    return tuple(bets)


def _check_names(bets: tuple[Bet, ...], where: _Where, joining: Registry[Bet]) -> None:
    """Every name and alias is new, within the file and in ``joining`` (or names the same bet)."""
    seen: dict[str, int] = {}
    for b, bet in enumerate(bets):
        for key in (bet.name, *bet.aliases):
            k = name_key(key)
            if k in seen:
                raise where.error(f"bet name {shown(key)} is used twice in this file", b, None, "name")
            seen[k] = b
            existing = joining.get(key)
            if existing is not None and existing != bet:
                raise where.error(f"bet name {shown(key)} is already taken by the bet {shown(existing.name)}; "
                                  "choose another",
                                  b, None, "name" if key == bet.name else "aliases")


def load_bets(path: str | Path, *, joining: Registry[Bet] = BUILTIN_BETS) -> tuple[Bet, ...]:
    """Read and check the bets of a TOML file (see :func:`parse_bets`); nothing global changes."""
    return parse_bets(read_user_file(path, "bets", BetError), source=str(path), joining=joining)
