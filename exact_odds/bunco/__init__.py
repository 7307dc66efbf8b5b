"""Bunco: exact odds of one roll, of a game of rounds, and of a turn at the table.

The rules (for ``count`` dice of ``sides`` faces, in a round whose *round number* is one of
``1..sides``): a **Bunco** when every die shows the round number; a **mini Bunco** when every die
shows one and the same other face; otherwise each die that shows the round number scores
``per_die`` points. The standard points are Bunco 21, mini ("baby") Bunco 5, one point per die
(e.g. the "How to play" page of Bunco Babz, buncobabz.com, and Dave Taylor, "Shell Scripting a
Bunco Game", Linux Journal, 21 January 2018, whose text says 21 and whose script scores 25).

Counting convention (as for the baccarat engine): *ways* count ordered tuples of faces, so a
roll has ``sides**count`` equally likely ways, a game of R rounds ``sides**(count*R)``, and a
turn ``(sides**count)**max_rolls``. Probabilities are ``Fraction``; no float ever enters the
exact results. Floats appear only in the seeded simulation (the witness) and its p-values.

The modules, one concept each:

* :mod:`~exact_odds.bunco.dice`: the dice and the class of one roll (:class:`Dice`, :class:`Roll`);
* :mod:`~exact_odds.bunco.scoring`: scoring rule sets by name (:data:`STANDARD_SCORING`, :data:`ARTICLE_SCORING`);
* :mod:`~exact_odds.bunco.game`: a game of rounds, one roll each (:func:`play_game`);
* :mod:`~exact_odds.bunco.turn`: a turn at the table, rolling to the target (:func:`play_turn`);
* :mod:`~exact_odds.bunco.analysis`: everything the ``bunco`` command reports (:func:`analyse`);
* :mod:`~exact_odds.bunco.chi_square` and :mod:`~exact_odds.bunco.simulation`: the seeded
  simulation and the tests that judge it (:func:`simulate`);
* :mod:`~exact_odds.bunco.log` and :mod:`~exact_odds.bunco.verify`: a log of rolls that any program
  made (:func:`read_rolls`, :func:`write_games`) and its check against the exact odds (:func:`verify_rolls`;
  :func:`verify_roll_file` reads a file of any length a block at a time);
* :mod:`~exact_odds.bunco.base`: the error and the checks they share.

Bunco knows nothing of cards: of the package it imports only :mod:`exact_odds.core.dist`,
:mod:`exact_odds.inputs.errors`, the reading and checking of user input (:mod:`exact_odds.inputs.reading`,
:mod:`exact_odds.inputs.validate`), :mod:`exact_odds.core.notebook`, and :mod:`exact_odds.core.stats` and
:mod:`exact_odds.core.verdict` (numpy only when a simulation or a verification runs).

>>> from exact_odds.bunco import STANDARD_SCORING, Dice, play_game, roll_scores
>>> dice = Dice(3, 6)
>>> roll_scores(dice, STANDARD_SCORING).probability(21)
Fraction(1, 216)
>>> play_game(dice, STANDARD_SCORING).mean
Fraction(151, 36)
"""

from __future__ import annotations

from exact_odds.bunco.analysis import Analysis, analyse
from exact_odds.bunco.base import BuncoError
from exact_odds.bunco.chi_square import DEFAULT_ALPHA, MIN_EXPECTED, Bin, ChiSquare, chi_square_test
from exact_odds.bunco.dice import MAX_DICE, MAX_SIDES, Dice, Roll, roll_outcomes
from exact_odds.bunco.game import DEFAULT_ROUNDS, MAX_GAME_WORK, MAX_ROUNDS, Game, play_game, round_numbers
from exact_odds.bunco.log import RollLog, load_rolls, read_roll_blocks, read_rolls, write_games
from exact_odds.bunco.scoring import (
    ARTICLE_SCORING,
    SCORING_RULES,
    STANDARD_SCORING,
    ScoringRules,
    UnknownScoringError,
    find_scoring_rules,
    roll_scores,
)
from exact_odds.bunco.simulation import Simulation, simulate, simulate_games, simulate_rolls, simulate_turns
from exact_odds.bunco.turn import DEFAULT_TARGET, MAX_TARGET, Turn, play_turn
from exact_odds.bunco.verify import RollTally, RollVerification, verify_roll_file, verify_rolls

__all__ = [
    "ARTICLE_SCORING",
    "DEFAULT_ALPHA",
    "DEFAULT_ROUNDS",
    "DEFAULT_TARGET",
    "MAX_DICE",
    "MAX_GAME_WORK",
    "MAX_ROUNDS",
    "MAX_SIDES",
    "MAX_TARGET",
    "MIN_EXPECTED",
    "SCORING_RULES",
    "STANDARD_SCORING",
    "Analysis",
    "Bin",
    "BuncoError",
    "ChiSquare",
    "Dice",
    "Game",
    "Roll",
    "RollLog",
    "RollTally",
    "RollVerification",
    "ScoringRules",
    "Simulation",
    "Turn",
    "UnknownScoringError",
    "analyse",
    "chi_square_test",
    "find_scoring_rules",
    "load_rolls",
    "play_game",
    "play_turn",
    "read_roll_blocks",
    "read_rolls",
    "roll_outcomes",
    "roll_scores",
    "round_numbers",
    "simulate",
    "simulate_games",
    "simulate_rolls",
    "simulate_turns",
    "verify_roll_file",
    "verify_rolls",
    "write_games",
]
