"""Bets: pay tables over coup outcomes, the built-in bets and configurations as values, user bets.

:data:`BUILTIN_BETS` and :data:`BUILTIN_CONFIGURATIONS` are immutable; :func:`load_bets` returns bets,
and ``BUILTIN_BETS.extended(bets)`` is the set a command works with.
"""

from exact_odds.bets.core import Bet, BetError, PayLine, Rule, exact_payout, usable_bets
from exact_odds.bets.main import (
    BUILTIN_CONFIGURATIONS,
    Configuration,
    configuration_from,
    find_configuration,
    load_configuration,
    parse_configuration,
)
from exact_odds.bets.side import BUILTIN_BETS, find_bet, registered
from exact_odds.bets.user import load_bets, parse_bets
from exact_odds.inputs.registry import Registry

__all__ = ["BUILTIN_BETS", "BUILTIN_CONFIGURATIONS", "Bet", "BetError", "Configuration", "PayLine",
           "Registry", "Rule", "configuration_from", "exact_payout", "find_bet", "find_configuration", "load_bets",
           "load_configuration", "parse_bets", "parse_configuration", "registered", "usable_bets"]
