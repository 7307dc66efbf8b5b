"""The exact odds ``exact-odds bunco`` reports: a game of rounds, a turn at the table, and their analysis.

A game: one roll a round. A turn: roll while each roll scores, until the points ``target`` (capped
there). Ways count every sequence of faces, the rolls after a turn ended included (docs/bunco.md).

>>> from exact_odds.bunco import STANDARD_SCORING
>>> turn = play_turn(Dice(3, 6), STANDARD_SCORING)
>>> turn.max_rolls, turn.rolls.probability(1)
(21, Fraction(121, 216))
>>> a = analyse(Dice(3, 6), STANDARD_SCORING, more_than=(3, 10))
>>> a.roll_mean, a.roll_variance
(Fraction(151, 216), Fraction(128615, 46656))
>>> a.game_bunco_probability == 1 - Fraction(215, 216) ** 6
True
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.dice import (
    BuncoError,
    Dice,
    Roll,
    ScoringRules,
    ascending,
    check_whole_number,
    roll_outcomes,
    roll_scores,
)
from exact_odds.core.dist import Dist
from exact_odds.core.notebook import Approx, html_table
from exact_odds.inputs.validate import shown

MAX_ROUNDS = 60
"""The most rounds a game may have."""
MAX_GAME_WORK = 3_000_000
"""The most (total, score) pairs a game's convolution may visit; past it the game is refused, not slow."""
DEFAULT_ROUNDS = 6
"""A game of Bunco is six rounds, one per face of the die."""
MAX_TARGET = 100
"""The highest points target (cap) of a turn."""
DEFAULT_TARGET = 21
"""A turn, and the round at the table, ends when the player reaches 21 points."""

PointsWays = dict[int, int]
"""Turns by their points so far: points -> ways."""


def round_numbers(rounds: int, sides: int) -> tuple[int, ...]:
    """Round numbers of a game: round r (1-based) plays for ``(r - 1) % sides + 1``.

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
    >>> game = play_game(Dice(3, 6), STANDARD_SCORING)
    >>> game.mean, game.variance, game.more_than(3)
    (Fraction(151, 36), Fraction(128615, 7776), Fraction(10284191, 22674816))
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
    """The longest a turn can last: ``ceil(target / m)`` rolls, ``m`` the least positive score (1 if none)."""
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
    """The exact distribution of one turn, rolling every live turn forward :func:`most_rolls` times
    (points only grow). To 2 points: at once (2, 5 or 21: 21 ways of 216), or 1 point then any score:

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


@dataclass(frozen=True, slots=True)
class Analysis:
    """The roll, the game, the turn, and the asked tails P(total > k)."""

    dice: Dice
    rules: ScoringRules
    round_number: int
    roll: Dist[Roll]
    game: Game
    turn: Turn
    more_than: tuple[int, ...]

    @property
    def scores(self) -> Dist[int]:
        """One roll's score distribution, scores in increasing order."""
        return roll_scores(self.dice, self.rules, round_number=self.round_number)

    @property
    def bunco_probability(self) -> Fraction:
        """P(a roll is a Bunco): ``1 / sides**count``."""
        return self.roll.probability(lambda r: r.kind == "Bunco")

    @property
    def mini_probability(self) -> Fraction:
        """P(a roll is a mini Bunco): ``(sides - 1) / sides**count``."""
        return self.roll.probability(lambda r: r.kind == "mini Bunco")

    @property
    def roll_mean(self) -> Fraction:
        """Expected points of one roll."""
        return self.scores.expectation(lambda score: score)

    @property
    def roll_variance(self) -> Fraction:
        """Variance of one roll's points."""
        return self.scores.variance(lambda score: score)

    @property
    def game_bunco_probability(self) -> Fraction:
        """P(at least one Bunco in the game's rounds): one minus the product of P(no Bunco) per round."""
        none = Fraction(1)
        for number in self.game.round_numbers:
            none *= 1 - roll_outcomes(self.dice, round_number=number).probability(lambda r: r.kind == "Bunco")
        return 1 - none

    def tails(self) -> dict[int, Fraction]:
        """P(total > k) of the game for each asked ``k``."""
        return {k: self.game.more_than(k) for k in self.more_than}


def analyse(dice: Dice, rules: ScoringRules, *, round_number: int = 1, rounds: int = DEFAULT_ROUNDS,
            target: int = DEFAULT_TARGET, more_than: Sequence[int] = (3,)) -> Analysis:
    """Roll, game and turn for one configuration; ``more_than`` lists the k of P(total > k)."""
    for k in more_than:
        if not isinstance(k, int) or isinstance(k, bool):
            raise BuncoError(f"k of P(total > k) must be a whole number, got {shown(k)}")
    return Analysis(dice, rules, round_number, roll_outcomes(dice, round_number=round_number),
                    play_game(dice, rules, rounds=rounds),
                    play_turn(dice, rules, round_number=round_number, target=target), tuple(more_than))
