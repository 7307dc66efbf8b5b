"""Bets as data: pay lines over coup outcomes with exact payouts, and which shoes can settle them.

Conventions: a payout is the *net* result in units staked: a win at 19:20 is
``Fraction(19, 20)``, a push is ``0``, a loss is ``-1``. A :class:`Bet` is a tuple of
:class:`PayLine` s tried in order; the first line whose rule matches a coup decides the
result, and a coup no line matches loses the stake (``-1``).

Payouts are exact: an ``int``, a :class:`~fractions.Fraction`, or a string such as
``"19/20"``, ``"0.95"`` or ``"11:1"`` (odds: 11 to 1). A Python ``float`` is refused,
because a float payout would silently turn exact arithmetic into floating point.

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
    """An exact payout from an int, a Fraction or a string (``"19/20"``, ``"0.95"``, ``"11:1"``).

    A payout lies between -1 (the stake lost) and 1,000,000,000 (:data:`exact_odds.inputs.validate.PAYOUT`);
    a string is written in ASCII digits, in at most 40 characters. Floats are refused with a
    message that says how to write the number instead; ``where`` starts every message.
    """
    return PAYOUT.parse(value, where, BetError)


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of a pay table: a rule over the coup and the net payout when it holds."""

    label: str
    rule: Rule
    pays: Fraction


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet: ordered pay lines, otherwise the stake is lost.

    ``name`` is the registry key (lower case, hyphenated); ``aliases`` also find it;
    ``source`` cites the pay table; ``detail`` is how much of the first two cards of each
    hand the engine must record for the rules to be evaluated.
    """

    name: str
    lines: tuple[PayLine, ...]
    source: str
    description: str = ""
    aliases: tuple[str, ...] = ()
    detail: Detail = Detail.POINTS
    _deciding: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The lines that can decide a coup (:func:`deciding_lines`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_deciding", deciding_lines(self.rules))

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The rules of the pay lines, in order (what decides a coup; the payouts aside)."""
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
        """Net result of one unit staked on ``coup``."""
        line = self.line_of(coup)
        return line.pays if line is not None else Fraction(-1)


def deciding_lines(rules: Sequence[Rule]) -> tuple[int, ...]:
    """Indices of the pay lines (given by their ``rules``, in order) that can decide a coup: a line whose
    rule equals an earlier line's never does (the earlier decides first), so it is not tried."""
    seen: set[Rule] = set()
    deciding: list[int] = []
    for i, rule in enumerate(rules):
        if rule not in seen:
            seen.add(rule)
            deciding.append(i)
    return tuple(deciding)


def ways_by_line(rules: Sequence[Rule], ways: Iterable[tuple[Coup, int]]) -> list[int]:
    """The ways of the coups each pay line decides (the first whose rule holds, as :meth:`Bet.line_index`
    finds it), the pay lines given by their ``rules`` in order, from ``(coup, ways)`` of every coup; then
    (last) the ways of those no line decides, the stake lost: one pass over the coups."""
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
    """``(usable, omitted)``: the bets ``shoe`` can settle, and the others, each in the given order.

    A bet that looks at suits (:attr:`Detail.SUITS`) needs a shoe whose suits are known; on
    another shoe it is omitted, or with ``strict`` it raises :class:`~exact_odds.core.shoe.ShoeError`
    (a bet the user named should not vanish from a report without a word).

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
