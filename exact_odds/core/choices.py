"""Drawing rules with free decisions (chemin de fer): each decision drawn, stood, left free, or mixed.

A :class:`ChoiceRules` holds each decision's **drawing probability** (1 draws, 0 stands, a fraction
between) or :data:`FREE`, left to the side that decides; a tableau is the case with no free cell. The
Player's decisions are keyed by his total or his two cards' point values (:data:`Pair`), the Banker's
by his total or two cards against the Player's third card (:data:`~exact_odds.core.tableau.COLUMNS`).
:data:`PARLOUR_RULES` is Kemeny and Snell's game (1957); a rules file changes its cells
(docs/chemin-de-fer.md, "Rules files").

>>> rules = parse_choice_rules('[player]\\n5 = "9/11"\\n[banker]\\n7 = "S S S S S S S S S S S"')
>>> rules.player_decision((2, 3)), rules.banker_decision((3, 4), None), rules.banker_decision((0, 3), 4) is None
(Fraction(9, 11), Fraction(0, 1), True)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeAlias

from exact_odds.core.tableau import COLUMNS, Tableau, parse_tableau
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import read_user_file
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.sources import TomlText, parse_toml
from exact_odds.inputs.validate import Exact, printable, shown

Decision: TypeAlias = Fraction | None
"""A drawing probability from 0 (stand) to 1 (draw), or :data:`FREE`."""
Pair: TypeAlias = tuple[int, int]
"""Two cards' point values 0-9, the smaller first: ``(1, 4)`` is an ace and a four."""

FREE: Decision = None
"""A decision left to the side that makes it."""
NATURALS = frozenset({8, 9})
"""Two-card totals that end the coup."""
DRAW, STAND = Fraction(1), Fraction(0)
PAIRS: tuple[Pair, ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
"""The 55 two-card hands by point values."""
HANDS: tuple[Pair, ...] = tuple(p for p in PAIRS if sum(p) % 10 not in NATURALS)
"""The 44 two-card hands that are not naturals, on which somebody may have to decide."""
TOTALS = tuple(t for t in range(10) if t not in NATURALS)
"""The two-card totals that are not naturals: 0-7."""

_CELL = Exact(Fraction(0), Fraction(1), hint="write D, S, F or a drawing probability such as 9/11",
              noun="D, S, F or a drawing probability")
_LETTERS: dict[str, Decision] = {"D": DRAW, "S": STAND, "F": FREE}


class ChoiceRulesError(InputError):
    """A rules file that is malformed or names a decision that cannot occur; the message names the line."""


def total(cards: Pair) -> int:
    """The baccarat total of two cards' point values."""
    return (cards[0] + cards[1]) % 10


def pair_text(cards: Pair) -> str:
    """``"1+4"``: how a two-card hand is written in rules files and reports."""
    return f"{cards[0]}+{cards[1]}"


def decision_text(decision: Decision) -> str:
    """``D``, ``S``, ``F`` or the drawing probability (``9/11``)."""
    if decision is None:
        return "F"
    return {DRAW: "D", STAND: "S"}.get(decision, str(decision))


@dataclass(frozen=True, slots=True)
class ChoiceRules:
    """Every decision as a drawing probability or :data:`FREE`: ``player`` by total 0-9, ``banker`` by total
    (a row in :data:`COLUMNS` order); ``player_cards`` and ``banker_cards`` override them by two cards."""

    name: str
    player: tuple[Decision, ...]
    banker: tuple[tuple[Decision, ...], ...]
    player_cards: tuple[tuple[Pair, Decision], ...] = ()
    banker_cards: tuple[tuple[Pair, tuple[Decision, ...]], ...] = ()

    @classmethod
    def from_tableau(cls, tableau: Tableau) -> ChoiceRules:
        """A tableau's rules, no cell free (its naturals must be 8 and 9, as chemin de fer's are)."""
        if tableau.naturals != NATURALS:
            raise ChoiceRulesError(f"tableau {shown(tableau.name)}: chemin de fer's naturals are 8 and 9")
        return cls(tableau.name, tuple(Fraction(d) for d in tableau.player_draws),
                   tuple(tuple(Fraction(d) for d in row) for row in tableau.banker_draws))

    def player_decision(self, cards: Pair) -> Decision:
        """The Player's decision on two cards (his total's unless the cards have their own)."""
        return dict(self.player_cards).get(cards, self.player[total(cards)])

    def banker_decision(self, cards: Pair, third: int | None) -> Decision:
        """The Banker's decision on two cards against the Player's third card (``None``: he stood)."""
        row = dict(self.banker_cards).get(cards, self.banker[total(cards)])
        return row[COLUMNS.index(third)]

    def text(self) -> str:
        """Every decision in words, one line a hand (the name aside): two files that say the same hold the same."""
        lines = [f"player {t} {decision_text(self.player[t])}" for t in TOTALS]
        lines += [f"player {pair_text(c)} {decision_text(d)}" for c, d in self.player_cards]
        lines += [f"banker {t} {' '.join(map(decision_text, self.banker[t]))}" for t in TOTALS]
        lines += [f"banker {pair_text(c)} {' '.join(map(decision_text, row))}" for c, row in self.banker_cards]
        return "\n".join(lines) + "\n"

    def key(self) -> str:
        """SHA-256 (hex) of :meth:`text`, as outputs name the rules they were computed under."""
        return hashlib.sha256(self.text().encode()).hexdigest()


PARLOUR_RULES = ChoiceRules(
    name="chemin de fer",
    player=(DRAW,) * 5 + (FREE,) + (STAND,) * 4,
    banker=((FREE,) * len(COLUMNS),) * 10,
)
"""Kemeny and Snell's game: Player draws on 0-4, chooses on 5, stands on 6-7; Banker chooses everywhere."""


def _cell(text: str, where: str) -> Decision:
    letter = text.strip().upper()
    if letter in _LETTERS:
        return _LETTERS[letter]
    return _CELL.parse(text, where, ChoiceRulesError)


def _hand(key: str, side: str, doc: TomlText) -> int | Pair:
    """A row key: a total ``"5"`` or two cards ``"1+4"``; a natural or a total that does not exist is refused."""
    at = doc.where(doc.table_key_line(key, side))
    cards = re.fullmatch(r"([0-9])\s*\+\s*([0-9])", key)
    if cards:
        a, b = sorted((int(cards.group(1)), int(cards.group(2))))
        if (a + b) % 10 in NATURALS:
            raise ChoiceRulesError(f"{at}: {side} {a}+{b} is a natural: the coup ends, so this decision cannot "
                                   "be reached")
        return a, b
    if not re.fullmatch(r"[0-9]", key):
        raise ChoiceRulesError(f"{at}: {side} total {shown(printable(key, 'key'))} does not exist (totals are 0-9, two "
                               "cards are written like \"1+4\")")
    if int(key) in NATURALS:
        raise ChoiceRulesError(f"{at}: {side} {key} is a natural: the coup ends, so this decision cannot be reached")
    return int(key)


def _banker_row(value: object, where: str) -> tuple[Decision, ...]:
    cells = value.split() if isinstance(value, str) else None
    if cells is None or len(cells) != len(COLUMNS):
        raise ChoiceRulesError(f"{where}: a banker row is 11 cells D, S, F or a drawing probability (Player "
                               "stood, then his third card 0-9)")
    return tuple(_cell(c, f"{where}: column {_column_name(COLUMNS[i])}") for i, c in enumerate(cells))


def _column_name(column: int | None) -> str:
    return "'player stood'" if column is None else f"'third card {column}'"


def _table(data: Mapping[str, object], key: str, doc: TomlText) -> Mapping[str, object]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ChoiceRulesError(f"{doc.where(doc.top_level_key_line(key))}: {key} must be a table")
    return value


def parse_choice_rules(text: str, *, source: str = "rules") -> ChoiceRules:
    """:class:`ChoiceRules` from TOML text: cells of :data:`PARLOUR_RULES` replaced (a tableau file gives its
    rule, nothing free). A decision that cannot occur, or a free Banker cell that cannot be reached, is refused."""
    doc = TomlText.of(text, source)
    data = parse_toml(text, source, ChoiceRulesError)
    if "player_draws" in data or "naturals" in data:  # a tableau file: punto banco's rule, nothing free
        return ChoiceRules.from_tableau(parse_tableau(text, source=source))
    unknown = sorted(set(data) - {"name", "player", "banker"})
    if unknown:
        raise ChoiceRulesError(f"{doc.where(doc.top_level_key_line(unknown[0]))}: "
                               + unknown_name("key", unknown[0], ("name", "player", "banker"),
                                              " (a rules file has name, [player] and [banker])"))
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise ChoiceRulesError(f"{doc.where(doc.top_level_key_line('name'))}: name must be a string")
    rules = replace(PARLOUR_RULES, name=printable(name, "rules name", ChoiceRulesError))
    rules = _with_cells(rules, "player", _table(data, "player", doc), doc)
    banker = _table(data, "banker", doc)
    rules = _with_cells(rules, "banker", banker, doc)
    _check_reachable(rules, banker, doc)
    return rules


def _with_cells(rules: ChoiceRules, side: str, table: Mapping[str, object], doc: TomlText) -> ChoiceRules:
    """``rules`` with the cells (player) or rows (banker) of ``table``, by total or by two cards."""
    totals: list[Any] = list(getattr(rules, side))
    cards: dict[Pair, Any] = {}
    for key, value in table.items():
        hand = _hand(key, side, doc)
        where = doc.where(doc.table_key_line(key, side))
        if side == "banker":
            cell: Any = _banker_row(value, where)
        elif isinstance(value, str):
            cell = _cell(value, where)
        else:
            raise ChoiceRulesError(f"{where}: a player cell is a string: D, S, F or a drawing probability")
        if isinstance(hand, int):
            totals[hand] = cell
        else:
            cards[hand] = cell
    changes: dict[str, Any] = {side: tuple(totals), f"{side}_cards": tuple(sorted(cards.items()))}
    return replace(rules, **changes)


def _check_reachable(rules: ChoiceRules, written: Mapping[str, object], doc: TomlText) -> None:
    """A free Banker cell written in a column the Player's rules never lead to is refused."""
    player = [rules.player_decision(hand) for hand in HANDS]
    never_draws = all(d == STAND for d in player)
    always_draws = all(d == DRAW for d in player)
    for key in written:
        hand = _hand(key, "banker", doc)
        row = rules.banker[hand] if isinstance(hand, int) else dict(rules.banker_cards)[hand]
        for column, decision in zip(COLUMNS, row, strict=True):
            unreached = never_draws if column is not None else always_draws
            if decision is None and unreached:
                why = "the player never draws" if column is not None else "the player always draws"
                line = doc.table_key_line(key, "banker")
                raise ChoiceRulesError(f"{doc.where(line)}: banker {key}, column {_column_name(column)}, is free "
                                       f"but {why}: this decision cannot be reached")


def load_choice_rules(path: str | Path) -> ChoiceRules:
    """Read :class:`ChoiceRules` from a TOML file (see :func:`parse_choice_rules`)."""
    return parse_choice_rules(read_user_file(path, "rules", ChoiceRulesError), source=str(path))
