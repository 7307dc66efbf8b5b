"""Bets as data: pay lines over coup outcomes with exact payouts, and a registry.

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

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.engine import Coup, Detail
from exact_odds.errors import InputError

Rule = Callable[[Coup], bool]


class BetError(InputError):
    """An unknown bet, a bad payout or a bad bet definition."""


def exact_payout(value: object, *, where: str = "payout") -> Fraction:
    """An exact payout from an int, a Fraction or a string (``"19/20"``, ``"0.95"``, ``"11:1"``).

    Floats are refused with a message that says how to write the number instead.
    """
    if isinstance(value, bool):
        raise BetError(f"{where}: expected a number, got {value!r}")
    if isinstance(value, float):
        raise BetError(f"{where}: {value!r} is a float; write it as a string such as \"19/20\" or \"0.95\"")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip()
        odds = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?::|to)\s*(\d+(?:\.\d+)?)", text)
        try:
            if odds:
                return Fraction(odds.group(1)) / Fraction(odds.group(2))
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            pass
        raise BetError(f"{where}: {value!r} is not an exact number (write e.g. \"19/20\", \"0.95\" or \"11:1\")")
    raise BetError(f"{where}: expected a number or a string, got {type(value).__name__}")


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: a rule over the coup and the net payout when it holds."""

    label: str
    rule: Rule
    pays: Fraction


@dataclass(frozen=True)
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

    def line_of(self, coup: Coup) -> PayLine | None:
        """The pay line that decides ``coup``, or ``None`` if the stake is lost."""
        for line in self.lines:
            if line.rule(coup):
                return line
        return None

    def payout(self, coup: Coup) -> Fraction:
        """Net result of one unit staked on ``coup``."""
        line = self.line_of(coup)
        return line.pays if line is not None else Fraction(-1)


BETS: dict[str, Bet] = {}
"""Every registered bet by name."""

_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def register(bet: Bet) -> Bet:
    """Add a bet to the registry (its name and aliases must be new); returns it."""
    for key in (bet.name, *bet.aliases):
        k = _key(key)
        if k in BETS or k in _ALIASES:
            raise ValueError(f"bet name {key!r} is registered twice")
    BETS[_key(bet.name)] = bet
    for alias in bet.aliases:
        _ALIASES[_key(alias)] = _key(bet.name)
    return bet


def find_bet(name: str) -> Bet:
    """The registered bet called ``name`` (or one of its aliases), case-insensitively.

    An unknown name raises :class:`BetError` listing the valid names.
    """
    k = _key(name)
    k = _ALIASES.get(k, k)
    if k in BETS:
        return BETS[k]
    raise BetError(f"unknown bet {name!r}; known bets: {', '.join(sorted(BETS))}")


def registered(names: Iterable[str] | None = None) -> list[Bet]:
    """The named bets, or every registered bet in registration order."""
    return [find_bet(n) for n in names] if names is not None else list(BETS.values())
