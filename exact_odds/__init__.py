"""exact-odds: exact odds of casino games by full enumeration.

The public API; see the README for examples. NumPy and SymPy are loaded only by the functions that
need them.
"""

from __future__ import annotations

from exact_odds.analysis.conditional import Dealt, deal_given, explain_coup, parse_dealt
from exact_odds.analysis.edges import ParLine, ParSheet, house_edge, par_sheet
from exact_odds.analysis.removal import Correlation, LinearCount, Removal, effects_of_removal, suggest_count
from exact_odds.analysis.roads import Roads, build_roads, parse_results
from exact_odds.analysis.sessions import one_hand, ruin_probability, session_distribution
from exact_odds.bunco import (
    ARTICLE_SCORING,
    SCORING_RULES,
    STANDARD_SCORING,
    BuncoError,
    Dice,
    ScoringRules,
    find_scoring_rules,
    play_game,
    play_turn,
    roll_scores,
)
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.shoe import RANKS, SUITS, Card, Rank, Shoe, ShoeError, Suit, parse_card, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau, TableauError, load_tableau, parse_tableau
from exact_odds.dealing.procedure import Procedure
from exact_odds.engine.enumerator import deal, sequences, winners
from exact_odds.inputs.errors import InputError
from exact_odds.witness.simulate import Simulation, SimulationCheck, simulate, simulate_sessions

__version__ = "0.1.0"
"""The program's version (the package's metadata is built from it)."""

__all__ = ["ARTICLE_SCORING", "RANKS", "SCORING_RULES", "STANDARD_SCORING", "STANDARD_TABLEAU", "SUITS", "BuncoError",
           "Card", "Correlation", "Coup", "Dealt", "Detail", "Dice", "Dist", "InputError", "LinearCount", "ParLine",
           "ParSheet", "Procedure", "Rank", "Removal", "Roads", "ScoringRules", "Shoe", "ShoeError", "Simulation",
           "SimulationCheck", "Suit", "Tableau", "TableauError", "Ways", "build_roads", "deal", "deal_given",
           "effects_of_removal", "explain_coup", "find_scoring_rules", "house_edge", "load_tableau", "one_hand",
           "par_sheet", "parse_card", "parse_cards", "parse_dealt", "parse_results", "parse_tableau", "play_game",
           "play_turn", "roll_scores", "ruin_probability", "sequences", "session_distribution", "simulate",
           "simulate_sessions", "suggest_count", "winners"]
