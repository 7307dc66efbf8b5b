"""A game of rounds, one roll per round (the Linux Journal article's game): its total points.

Round ``r`` (1-based) plays for the face ``(r - 1) % sides + 1``. Rounds are independent, so the
total is the convolution of the rounds' scores, with ways over the ``sides**(count*rounds)``
sequences of faces.

>>> from exact_odds.bunco import STANDARD_SCORING
>>> game = play_game(Dice(3, 6), STANDARD_SCORING)
>>> game.mean, game.variance
(Fraction(151, 36), Fraction(128615, 7776))
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.base import BuncoError, ascending, check_whole_number
from exact_odds.bunco.dice import Dice
from exact_odds.bunco.scoring import ScoringRules, roll_scores
from exact_odds.core.dist import Dist
from exact_odds.core.notebook import Approx, html_table

MAX_ROUNDS = 60
"""The most rounds a game may have."""
MAX_GAME_WORK = 3_000_000
"""The most (total, score) pairs a game's convolution may visit; past it the game is refused, not slow."""
DEFAULT_ROUNDS = 6
"""A game of Bunco is six rounds, one per face of the die."""


def round_numbers(rounds: int, sides: int) -> tuple[int, ...]:
    """Round numbers of a game: round r (1-based) plays for ``(r - 1) % sides + 1``.

    The round number never changes the odds of a roll; it matters only to the simulation.

    >>> round_numbers(7, 6)
    (1, 2, 3, 4, 5, 6, 1)
    """
    return tuple((r - 1) % sides + 1 for r in range(1, rounds + 1))


@dataclass(frozen=True, slots=True)
class Game:
    """The total points of a game of ``rounds`` rounds, one roll per round; ``totals`` in increasing order."""

    dice: Dice
    rules: ScoringRules
    round_numbers: tuple[int, ...]
    totals: Dist[int]

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return len(self.round_numbers)

    @property
    def mean(self) -> Fraction:
        """Expected total points."""
        return self.totals.expectation(lambda total: total)

    @property
    def variance(self) -> Fraction:
        """Variance of the total points (of the exact distribution)."""
        return self.totals.variance(lambda total: total)

    def more_than(self, k: int) -> Fraction:
        """P(total > k), exactly, for any integer ``k``."""
        return self.totals.probability(lambda t: t > k)

    def survival(self) -> dict[int, Fraction]:
        """P(total > t) for every possible total ``t``."""
        above, out = 0, {}
        for t, w in sorted(self.totals.items(), reverse=True):
            out[t] = Fraction(above, self.totals.total)
            above += w
        return dict(sorted(out.items()))

    def _repr_html_(self) -> str:
        above = self.survival()
        total = self.totals.total
        rows = [[t, w, Fraction(w, total), Approx(w / total), above[t]] for t, w in self.totals.items()]
        return html_table(["total points", "ways", "probability", "≈", "P(more)"], rows,
                          caption=f"A game of {self.rounds} rounds, {self.dice}, {self.rules}",
                          notes=[f"mean {self.mean} ≈ {float(self.mean):.6g}, variance {self.variance} ≈ "
                                 f"{float(self.variance):.6g}"])


def play_game(dice: Dice, rules: ScoringRules, *, rounds: int = DEFAULT_ROUNDS) -> Game:
    """The exact distribution of a game's total.

    >>> from exact_odds.bunco import STANDARD_SCORING
    >>> play_game(Dice(3, 6), STANDARD_SCORING).more_than(3)
    Fraction(10284191, 22674816)
    """
    check_whole_number("the number of rounds", rounds, 1, MAX_ROUNDS)
    numbers = round_numbers(rounds, dice.sides)
    totals: Dist[int] = Dist({0: 1})
    work = 0
    for number in numbers:
        scores = roll_scores(dice, rules, round_number=number)
        work += len(totals) * len(scores)
        if work > MAX_GAME_WORK:
            raise BuncoError(f"a game of {rounds} rounds of {dice} under these points has too many distinct "
                             "totals to compute exactly here; use fewer rounds or dice")
        totals = totals.combine(scores, operator.add)
    return Game(dice, rules, numbers, ascending(totals))
