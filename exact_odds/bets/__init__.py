"""Bets: pay tables over coup outcomes, a registry, and the built-in bets.

Importing this package registers every built-in bet.
"""

from exact_odds.bets import main as _main  # noqa: F401  (registers the main bets)
from exact_odds.bets import side as _side  # noqa: F401  (registers the side bets)
from exact_odds.bets.core import BETS, Bet, BetError, PayLine, Rule, exact_payout, find_bet, register, registered
from exact_odds.bets.main import (
    CONFIGURATIONS,
    Configuration,
    configuration_from,
    find_configuration,
    load_configuration,
    parse_configuration,
)
from exact_odds.bets.user import load_bets, parse_bets

__all__ = ["BETS", "CONFIGURATIONS", "Bet", "BetError", "Configuration", "PayLine", "Rule", "configuration_from",
           "exact_payout", "find_bet", "find_configuration", "load_bets", "load_configuration", "parse_bets",
           "parse_configuration", "register", "registered"]
