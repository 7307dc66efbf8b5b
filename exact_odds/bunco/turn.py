"""A turn at the table: roll while each roll scores, and stop at the points target.

A roll scoring nothing ends the turn; reaching ``target`` points (21 by default) ends the turn and
the round. Points are capped at the target (a Bunco worth 25 still ends a turn at 21). Ways count
sequences of ``max_rolls`` rolls, those after the turn ended too (as the baccarat tables count the
cards a coup does not use), so every way is an integer over ``(sides**count)**max_rolls``.

>>> from exact_odds.bunco import STANDARD_SCORING
>>> turn = play_turn(Dice(3, 6), STANDARD_SCORING)
>>> turn.max_rolls, turn.rolls.probability(1)
(21, Fraction(121, 216))
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.base import ascending, check_whole_number
from exact_odds.bunco.dice import Dice
from exact_odds.bunco.scoring import ScoringRules, roll_scores
from exact_odds.core.dist import Dist
from exact_odds.core.notebook import Approx, html_table

MAX_TARGET = 100
"""The highest points target (cap) of a turn."""
DEFAULT_TARGET = 21
"""A turn, and the round at the table, ends when the player reaches 21 points."""

PointsWays = dict[int, int]
"""Turns by their points so far: points -> ways."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn: ``outcomes`` maps (points, rolls) to ways over sequences of ``max_rolls`` rolls."""

    dice: Dice
    rules: ScoringRules
    round_number: int
    target: int
    max_rolls: int
    outcomes: Dist[tuple[int, int]]

    @property
    def points(self) -> Dist[int]:
        """Points at the end of the turn (0..target; ``target`` means the turn reached it)."""
        return ascending(self.outcomes.map(operator.itemgetter(0)))

    @property
    def rolls(self) -> Dist[int]:
        """The number of rolls in the turn (1..max_rolls)."""
        return ascending(self.outcomes.map(operator.itemgetter(1)))

    @property
    def reach_probability(self) -> Fraction:
        """P(the turn reaches the target), which ends the round at the table."""
        return self.outcomes.probability(lambda pr: pr[0] >= self.target)

    @property
    def expected_points(self) -> Fraction:
        """Expected points of the turn (capped at the target)."""
        return self.outcomes.expectation(operator.itemgetter(0))

    @property
    def expected_rolls(self) -> Fraction:
        """Expected number of rolls in the turn, the last (non-scoring or target-reaching) one included."""
        return self.outcomes.expectation(operator.itemgetter(1))

    def _repr_html_(self) -> str:
        points = self.points
        rows = [[p, w, Fraction(w, points.total), Approx(w / points.total)] for p, w in points.items()]
        notes = [f"P(reach {self.target}) = {self.reach_probability} ≈ {float(self.reach_probability):.6g}; "
                 f"expected points {float(self.expected_points):.6g}, expected rolls {float(self.expected_rolls):.6g}"]
        return html_table(["points", "ways", "probability", "≈"], rows, notes=notes,
                          caption=f"A turn in round {self.round_number} to {self.target} points, {self.dice}, "
                                  f"{self.rules}")


def most_rolls(scores: Dist[int], target: int) -> int:
    """The longest a turn can last: ``ceil(target / m)`` rolls, ``m`` the least positive score (1 if none).

    >>> most_rolls(Dist({0: 120, 1: 75, 2: 15, 5: 5, 21: 1}), 21), most_rolls(Dist({0: 1, 3: 1}), 7)
    (21, 3)
    """
    positive = [x for x in scores if x > 0]
    return -(-target // min(positive)) if positive else 1


def roll_once_more(live: PointsWays, scores: Dist[int], target: int) -> tuple[PointsWays, PointsWays]:
    """Every turn still going rolls once more: (the turns still going, the turns that end on this roll).

    >>> roll_once_more({0: 1}, Dist({0: 1, 1: 1, 2: 1}), 2)
    ({1: 1}, {0: 1, 2: 1})
    """
    going: PointsWays = {}
    ended: PointsWays = {}
    for before, ways in live.items():
        for score, score_ways in scores.items():
            after = min(before + score, target)
            bucket = ended if score == 0 or after == target else going
            bucket[after] = bucket.get(after, 0) + ways * score_ways
    return going, ended


def play_turn(dice: Dice, rules: ScoringRules, *, round_number: int = 1, target: int = DEFAULT_TARGET) -> Turn:
    """The exact distribution of one turn: a Markov chain on points 0..target with no cycles (points
    only grow), so rolling every live turn forward :func:`most_rolls` times is exact.

    To 2 points, a turn gets there at once (a roll of 2, 5 or 21: 21 ways of 216) or after a
    1-point roll (75 ways) by any scoring roll (96 ways):

    >>> from exact_odds.bunco import STANDARD_SCORING
    >>> turn = play_turn(Dice(3, 6), STANDARD_SCORING, target=2)
    >>> turn.reach_probability == Fraction(21, 216) + Fraction(75, 216) * Fraction(96, 216) == Fraction(163, 648)
    True
    """
    dice.check_round(round_number)
    check_whole_number("the points target", target, 1, MAX_TARGET)
    scores = roll_scores(dice, rules, round_number=round_number)
    max_rolls = most_rolls(scores, target)
    outcomes: dict[tuple[int, int], int] = {}
    live: PointsWays = {0: 1}
    for rolls in range(1, max_rolls + 1):
        live, ended = roll_once_more(live, scores, target)
        unused = scores.total ** (max_rolls - rolls)
        outcomes.update({(points, rolls): ways * unused for points, ways in ended.items()})
    assert not live, "a turn outlived max_rolls"
    return Turn(dice, rules, round_number, target, max_rolls, Dist(sorted(outcomes.items())))
