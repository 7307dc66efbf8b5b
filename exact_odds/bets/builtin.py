"""The built-in bets as one value: every configuration's main bets, then the side bets.

:data:`BUILTIN_BETS` never changes; a command that also knows a user's bets works on
``BUILTIN_BETS.extended(bets)``, a new value.

>>> find_bet("Banco") is find_bet("banker")
True
>>> list(BUILTIN_BETS)[:4]
['banker', 'player', 'tie', 'tie-9/banker']
"""

from __future__ import annotations

from collections.abc import Iterable

from exact_odds.bets.core import Bet, BetError
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS
from exact_odds.bets.side import SIDE_BETS
from exact_odds.inputs.registry import Registry

BUILTIN_BETS: Registry[Bet] = Registry(
    "bet", (*(bet for config in BUILTIN_CONFIGURATIONS.values() for bet in config.bets), *SIDE_BETS),
    error=BetError, sort_listing=True)
"""Every built-in bet by name, in the order reports list them: main bets by configuration, then side bets."""


def find_bet(name: str) -> Bet:
    """The built-in bet called ``name`` or an alias, in any spelling (else a :class:`BetError` naming them)."""
    return BUILTIN_BETS.find(name)


def registered(names: Iterable[str] | None = None) -> list[Bet]:
    """The named built-in bets, or every built-in bet in registration order."""
    return [find_bet(n) for n in names] if names is not None else list(BUILTIN_BETS.values())
