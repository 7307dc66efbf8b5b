"""Everything ``exact-odds bunco`` prints, exactly: the roll, the game and the turn of one configuration.

>>> from exact_odds.bunco import STANDARD_SCORING, Dice
>>> a = analyse(Dice(3, 6), STANDARD_SCORING, more_than=(3, 10))
>>> a.roll_mean, a.roll_variance
(Fraction(151, 216), Fraction(128615, 46656))
>>> a.game_bunco_probability == 1 - Fraction(215, 216) ** 6
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.base import BuncoError, ascending
from exact_odds.bunco.dice import Dice, Roll, roll_outcomes
from exact_odds.bunco.game import DEFAULT_ROUNDS, Game, play_game
from exact_odds.bunco.scoring import ScoringRules
from exact_odds.bunco.turn import DEFAULT_TARGET, Turn, play_turn
from exact_odds.core.dist import Dist
from exact_odds.inputs.validate import shown


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
        return ascending(self.roll.map(self.rules.score))

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
