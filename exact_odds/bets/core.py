"""Bets as data: pay lines over coup outcomes with exact payouts, and which shoes can settle them.

A payout is the *net* result in units staked (19:20 is ``Fraction(19, 20)``, a push ``0``, a loss
``-1``). A :class:`Bet`'s pay lines are tried in order; the first whose rule matches decides, and a
coup no line matches loses the stake. A ``float`` payout is refused: it would turn exact arithmetic
into floating point.

>>> exact_payout("19/20"), exact_payout("0.95"), exact_payout("11:1"), exact_payout("1:2")
(Fraction(19, 20), Fraction(19, 20), Fraction(11, 1), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from exact_odds.core.coup import Coup, Detail, Payable
from exact_odds.core.shoe import Shoe, ShoeError
from exact_odds.inputs.errors import InputError, suits_unknown
from exact_odds.inputs.validate import PAYOUT

Rule = Callable[[Coup], bool]


class BetError(InputError):
    """An unknown bet, a bad payout or a bad bet definition."""


def exact_payout(value: object, *, where: str = "payout") -> Fraction:
    """An exact payout from an int, a Fraction or a string (``"19/20"``, ``"0.95"``, ``"11:1"``), within
    :data:`exact_odds.inputs.validate.PAYOUT`; ``where`` starts every message."""
    return PAYOUT.parse(value, where, BetError)


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of a pay table: a rule over the coup and the net payout when it holds."""

    label: str
    rule: Rule
    pays: Fraction


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet: ordered pay lines, otherwise the stake is lost. ``source`` cites the pay table; ``detail`` is
    what the engine must record for the rules."""

    name: str
    lines: tuple[PayLine, ...]
    source: str
    description: str = ""
    aliases: tuple[str, ...] = ()
    detail: Detail = Detail.POINTS
    _deciding: tuple[int, ...] = field(init=False, repr=False, compare=False)  # deciding_lines(rules)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_deciding", deciding_lines(self.rules))

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The rules of the pay lines, in order."""
        return tuple(line.rule for line in self.lines)

    def line_index(self, coup: Coup) -> int:
        """Index in :attr:`lines` of the pay line that decides ``coup``; ``len(lines)`` if the stake is lost."""
        for i in self._deciding:
            if self.lines[i].rule(coup):
                return i
        return len(self.lines)

    def line_of(self, coup: Coup) -> PayLine | None:
        """The pay line that decides ``coup``, or ``None`` if the stake is lost."""
        i = self.line_index(coup)
        return self.lines[i] if i < len(self.lines) else None

    def payout(self, coup: Coup) -> Fraction:
        line = self.line_of(coup)
        return line.pays if line is not None else Fraction(-1)


def deciding_lines(rules: Sequence[Rule]) -> tuple[int, ...]:
    """Indices of the pay lines (by their ``rules``) that can decide a coup: not those whose rule repeats an
    earlier line's."""
    first: dict[Rule, int] = {}
    for i, rule in enumerate(rules):
        first.setdefault(rule, i)
    return tuple(first.values())


def ways_by_line(rules: Sequence[Rule], ways: Iterable[tuple[Coup, int]]) -> list[int]:
    """From ``(coup, ways)`` of every coup, the ways each pay line (by its ``rules``) decides, as
    :meth:`Bet.line_index` decides, then (last) the ways no line decides: one pass over the coups."""
    deciding = [(i, rules[i]) for i in deciding_lines(rules)]
    by_line = [0] * (len(rules) + 1)
    for coup, n in ways:
        for i, rule in deciding:
            if rule(coup):
                by_line[i] += n
                break
        else:
            by_line[-1] += n
    return by_line


B = TypeVar("B", bound=Payable)


def usable_bets(shoe: Shoe, bets: Iterable[B], *, strict: bool = False) -> tuple[list[B], list[B]]:
    """``(usable, omitted)``: the bets ``shoe`` can settle and the others (a suited bet needs known suits; with
    ``strict``, one omitted raises :class:`~exact_odds.core.shoe.ShoeError`).

    >>> from exact_odds.bets import find_bet
    >>> unsuited = Shoe.from_counts([5] * 13)
    >>> [[b.name for b in part] for part in usable_bets(unsuited, [find_bet("banker"), find_bet("perfect-pair")])]
    [['banker'], ['perfect-pair']]
    """
    usable: list[B] = []
    omitted: list[B] = []
    for bet in bets:
        (omitted if bet.detail is Detail.SUITS and shoe.suited is None else usable).append(bet)
    if strict and omitted:
        raise ShoeError(suits_unknown(omitted[0].name))
    return usable, omitted
