"""Bunco: exact odds of one roll, of a game of rounds, of a turn, and of a night at the tables.

The rules and their sources are in docs/bunco.md. Ways count ordered tuples of faces, as the baccarat
engine counts cards; probabilities are ``Fraction``, floats appear only in the seeded simulations and
their p-values. Bunco knows nothing of cards.

>>> from exact_odds.bunco import STANDARD_SCORING, Dice, play_game, roll_scores
>>> dice = Dice(3, 6)
>>> roll_scores(dice, STANDARD_SCORING).probability(21)
Fraction(1, 216)
>>> play_game(dice, STANDARD_SCORING).mean
Fraction(151, 36)
"""

from __future__ import annotations

from exact_odds.bunco.dice import (
    ARTICLE_SCORING,
    DEFAULT_ROUNDS,
    DEFAULT_TARGET,
    MAX_DICE,
    MAX_GAME_WORK,
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_TARGET,
    SCORING_RULES,
    STANDARD_SCORING,
    Analysis,
    BuncoError,
    Dice,
    Game,
    Roll,
    ScoringRules,
    Turn,
    UnknownScoringError,
    analyse,
    find_scoring_rules,
    play_game,
    play_turn,
    roll_outcomes,
    roll_scores,
    round_numbers,
)
from exact_odds.bunco.simulation import (
    DEFAULT_ALPHA,
    MIN_EXPECTED,
    Bin,
    ChiSquare,
    Simulation,
    chi_square_test,
    simulate,
    simulate_games,
    simulate_rolls,
    simulate_turns,
)
from exact_odds.bunco.verify import (
    RollLog,
    RollTally,
    RollVerification,
    load_rolls,
    read_roll_blocks,
    read_rolls,
    verify_roll_file,
    verify_rolls,
    write_games,
)

__all__ = [
    "ARTICLE_SCORING", "DEFAULT_ALPHA", "DEFAULT_ROUNDS", "DEFAULT_TARGET", "MAX_DICE", "MAX_GAME_WORK", "MAX_ROUNDS",
    "MAX_SIDES", "MAX_TARGET", "MIN_EXPECTED", "SCORING_RULES", "STANDARD_SCORING", "Analysis", "Bin", "BuncoError",
    "ChiSquare", "Dice", "Game", "Roll", "RollLog", "RollTally", "RollVerification", "ScoringRules", "Simulation",
    "Turn", "UnknownScoringError", "analyse", "chi_square_test", "find_scoring_rules", "load_rolls", "play_game",
    "play_turn", "read_roll_blocks", "read_rolls", "roll_outcomes", "roll_scores", "round_numbers", "simulate",
    "simulate_games", "simulate_rolls", "simulate_turns", "verify_roll_file", "verify_rolls", "write_games"
]
