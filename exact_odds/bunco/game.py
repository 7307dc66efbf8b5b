"""A game of rounds, one roll per round (the Linux Journal article's game): its total points.

Round ``r`` (1-based) plays for the face ``(r - 1) % sides + 1``. Rounds are independent, so the
total's distribution is the convolution of the rounds' score distributions, with ways over the
``sides**(count*rounds)`` sequences of faces. Mean and variance are exact ``Fraction``s.

>>> from exact_odds.bunco import STANDARD_SCORING
>>> game = play_game(Dice(3, 6), STANDARD_SCORING)
>>> game.mean, game.variance
(Fraction(151, 36), Fraction(128615, 7776))
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.base import BuncoError, ascending, check_whole_number, points
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
    """Round numbers of a game: round r (1-based) uses ``(r - 1) % sides + 1``.

    Six rounds of six-sided dice use 1..6; more rounds than sides cycle through the faces again.
    Because every face is alike, the round number never changes the odds of a roll; the cycling
    matters only for the simulation, which rolls the real round numbers.

    >>> round_numbers(7, 6)
    (1, 2, 3, 4, 5, 6, 1)
    """
    return tuple((r - 1) % sides + 1 for r in range(1, rounds + 1))


@dataclass(frozen=True, slots=True)
class Game:
    """The total points of a game of ``rounds`` rounds, one roll per round.

    ``totals`` has ways over ``sides**(count*rounds)`` sequences of faces, totals in increasing order.
    """

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
        return self.totals.expectation(points)

    @property
    def variance(self) -> Fraction:
        """Variance of the total points (population variance of the exact distribution)."""
        return self.totals.variance(points)

    def more_than(self, k: int) -> Fraction:
        """P(total > k), exactly, for any integer ``k``."""
        return self.totals.probability(lambda t: t > k)

    def _repr_html_(self) -> str:
        """The game as a table in a notebook: each total's ways, exact probability and P(total > it)."""
        above = self.survival()
        total = self.totals.total
        rows = [[t, w, Fraction(w, total), Approx(w / total), above[t]] for t, w in self.totals.items()]
        return html_table(["total points", "ways", "probability", "≈", "P(more)"], rows,
                          caption=f"A game of {self.rounds} rounds, {self.dice}, {self.rules}",
                          notes=[f"mean {self.mean} ≈ {float(self.mean):.6g}, variance {self.variance} ≈ "
                                 f"{float(self.variance):.6g}"])

    def survival(self) -> dict[int, Fraction]:
        """P(total > t) for every possible total ``t`` (one pass over the totals, largest first)."""
        above, out = 0, {}
        for t, w in sorted(self.totals.items(), reverse=True):
            out[t] = Fraction(above, self.totals.total)
            above += w
        return dict(sorted(out.items()))


def _refuse_too_many_totals(work: int, dice: Dice, rounds: int) -> None:
    """A :class:`BuncoError` once the convolution would visit more than :data:`MAX_GAME_WORK` pairs."""
    if work > MAX_GAME_WORK:
        raise BuncoError(f"a game of {rounds} rounds of {dice} under these points has too many distinct totals "
                         "to compute exactly here; use fewer rounds or dice")


def play_game(dice: Dice, rules: ScoringRules, *, rounds: int = DEFAULT_ROUNDS) -> Game:
    """The exact distribution of a game's total: one roll per round, rounds numbered by :func:`round_numbers`.

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
        _refuse_too_many_totals(work, dice, rounds)
        totals = totals.combine(scores, operator.add)
    return Game(dice, rules, numbers, ascending(totals))
