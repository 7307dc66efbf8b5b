"""exact-odds: exact odds of casino games by full enumeration.

The public API; see the README for examples.
"""

from exact_odds.bunco import (
    SCORING_RULES,
    BuncoError,
    Dice,
    ScoringRules,
    find_scoring_rules,
    play_game,
    play_turn,
    roll_scores,
)
from exact_odds.conditional import Dealt, deal_given, explain_coup, parse_dealt
from exact_odds.dist import Dist, Ways
from exact_odds.edges import ParLine, ParSheet, house_edge, par_sheet
from exact_odds.engine import Coup, Detail, deal, sequences, winners
from exact_odds.errors import InputError
from exact_odds.removal import Correlation, LinearCount, Removal, effects_of_removal, suggest_count
from exact_odds.roads import Roads, build_roads, parse_results
from exact_odds.sessions import one_hand, ruin_probability, session_distribution
from exact_odds.shoe import RANKS, SUITS, Card, Rank, Shoe, ShoeError, Suit, parse_card, parse_cards
from exact_odds.simulate import Procedure, Simulation, Verification, simulate, simulate_sessions, verify
from exact_odds.tableau import STANDARD_TABLEAU, Tableau, TableauError, load_tableau, parse_tableau

__all__ = [
    "RANKS",
    "SCORING_RULES",
    "STANDARD_TABLEAU",
    "SUITS",
    "BuncoError",
    "Card",
    "Correlation",
    "Coup",
    "Dealt",
    "Detail",
    "Dice",
    "Dist",
    "InputError",
    "LinearCount",
    "ParLine",
    "ParSheet",
    "Procedure",
    "Rank",
    "Removal",
    "Roads",
    "ScoringRules",
    "Shoe",
    "ShoeError",
    "Simulation",
    "Suit",
    "Tableau",
    "TableauError",
    "Verification",
    "Ways",
    "build_roads",
    "deal",
    "deal_given",
    "effects_of_removal",
    "explain_coup",
    "find_scoring_rules",
    "house_edge",
    "load_tableau",
    "one_hand",
    "par_sheet",
    "parse_card",
    "parse_cards",
    "parse_dealt",
    "parse_results",
    "parse_tableau",
    "play_game",
    "play_turn",
    "roll_scores",
    "ruin_probability",
    "sequences",
    "session_distribution",
    "simulate",
    "simulate_sessions",
    "suggest_count",
    "verify",
    "winners",
]
