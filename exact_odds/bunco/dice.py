"""The dice and the exact odds ``exact-odds bunco`` reports: one roll, a game of rounds, a turn at the table.

A roll of ``count`` dice of ``sides`` faces has ``sides**count`` equally likely *ways* (ordered tuples
of faces); the rules look only at how many dice show the round number and whether all dice are alike
(a :class:`Roll`). A game: one roll a round. A turn: roll while each roll scores, until the points
``target`` (capped there). Ways count every sequence of faces, the rolls after a turn ended included.
The rule sets and their sources: docs/bunco.md.

>>> roll_outcomes(Dice(3, 6)).map(lambda roll: roll.kind)
Dist({'plain': 210, 'mini Bunco': 5, 'Bunco': 1})
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

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache

from exact_odds.core.dist import Dist, Ways
from exact_odds.core.notebook import Approx, html_table
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.validate import BUNCO_DICE, shown

MAX_DICE = BUNCO_DICE.high
"""The most dice a roll may have, 20 (the limits keep every exact computation to a second or two)."""
MAX_SIDES = 100
"""The most faces a die may have."""
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


class BuncoError(InputError):
    """A bad Bunco input (dice, round number, points, rounds, target, simulation options); one line."""


def check_whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) within ``low..high`` (``high`` None: no bound)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BuncoError(f"{name} must be a whole number, got {shown(value)}")
    if value < low:
        raise BuncoError(f"{name} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise BuncoError(f"{name} must be at most {high}, got {value}")
    return value


def check_alpha(alpha: float | Fraction) -> None:
    """Refuse a significance level that is not strictly between 0 and 1."""
    if not 0 < alpha < 1:
        raise BuncoError(f"the significance level must lie strictly between 0 and 1, got {alpha}")


def ascending(dist: Dist[int]) -> Dist[int]:
    """The same ways with the outcomes in increasing order, as reports list them."""
    return Dist(sorted(dist.items()))


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` fair dice of ``sides`` faces (numbered 1..sides); ``Dice(3, 6)`` is the game's.

    >>> str(Dice(3, 6)), Dice(3, 6).ways
    ('3d6', 216)
    """

    count: int = 3
    sides: int = 6

    def __post_init__(self) -> None:
        check_whole_number("the number of dice", self.count, 1, MAX_DICE)
        check_whole_number("the number of sides", self.sides, 1, MAX_SIDES)

    @property
    def ways(self) -> Ways:
        """Equally likely ordered rolls: ``sides ** count``."""
        return int(self.sides**self.count)

    def check_round(self, round_number: int) -> int:
        """``round_number`` if it is a face of these dice (1..sides), else a :class:`BuncoError`."""
        if not isinstance(round_number, int) or isinstance(round_number, bool):
            raise BuncoError(f"the round number must be a whole number, got {shown(round_number)}")
        if not 1 <= round_number <= self.sides:
            raise BuncoError(f"the round number must be a face of the dice, 1 to {self.sides}, got {round_number}")
        return round_number

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True, order=True)
class Roll:
    """The class of one roll: how many dice show the round number, and whether all dice are alike
    (with matches a Bunco, without a mini Bunco); ordered as the pairs ``(matches, alike)``.

    >>> Roll(3, alike=True).kind, Roll(0, alike=True).kind, Roll(2, alike=False).describe()
    ('Bunco', 'mini Bunco', '2 dice show the round number')
    """

    matches: int
    alike: bool

    @property
    def kind(self) -> str:
        """``"Bunco"``, ``"mini Bunco"`` or ``"plain"``."""
        if self.alike:
            return "Bunco" if self.matches else "mini Bunco"
        return "plain"

    def describe(self) -> str:
        """A phrase for reports, e.g. ``"Bunco"`` or ``"2 dice show the round number"``."""
        if self.kind != "plain":
            return self.kind
        if self.matches == 0:
            return "no die shows the round number"
        return f"{self.matches} {'die shows' if self.matches == 1 else 'dice show'} the round number"


@cache
def roll_outcomes(dice: Dice, *, round_number: int = 1) -> Dist[Roll]:
    """The classes of one roll with their ways (total ``sides**count``): ``k`` dice show the round number
    in ``C(count, k) * (sides-1)**(count-k)`` rolls, and ``sides - 1`` of the ``k = 0`` rolls are mini
    Buncos. The result does not depend on the round number (tested, not assumed).

    >>> roll_outcomes(Dice(3, 6))[Roll(0, alike=True)]
    5
    """
    dice.check_round(round_number)
    n, minis = dice.count, dice.sides - 1
    ways = [math.comb(n, k) * minis ** (n - k) for k in range(n + 1)]
    outcomes = {Roll(k, alike=False): ways[k] for k in range(1, n)}
    outcomes[Roll(0, alike=False)] = ways[0] - minis
    outcomes[Roll(0, alike=True)] = minis
    outcomes[Roll(n, alike=True)] = ways[n]
    return Dist(sorted(outcomes.items()))


class UnknownScoringError(BuncoError):
    """A scoring rule set name that is not in :data:`SCORING_RULES`."""


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """Points for a Bunco, a mini Bunco and each die showing the round number; ``source`` (where the
    numbers come from) takes no part in equality.

    >>> rules = ScoringRules("mine", bunco=30, mini=10, per_die=2)
    >>> rules.score(Roll(3, alike=True)), rules.score(Roll(0, alike=True)), rules.score(Roll(2, alike=False))
    (30, 10, 4)
    >>> rules == ScoringRules("mine", 30, 10, 2, source="my notes")
    True
    """

    name: str
    bunco: int
    mini: int
    per_die: int
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        check_whole_number("Bunco points", self.bunco, 0)
        check_whole_number("mini Bunco points", self.mini, 0)
        check_whole_number("points per die", self.per_die, 0)

    def score(self, roll: Roll) -> int:
        """The points of one roll under these rules."""
        if roll.alike:
            return self.bunco if roll.matches else self.mini
        return roll.matches * self.per_die

    def with_points(self, *, bunco: int | None = None, mini: int | None = None,
                    per_die: int | None = None) -> ScoringRules:
        """These rules with some points replaced; named ``custom`` if anything changed.

        >>> STANDARD_SCORING.with_points(bunco=21) is STANDARD_SCORING, STANDARD_SCORING.with_points(bunco=25).name
        (True, 'custom')
        """
        new = replace(self, bunco=self.bunco if bunco is None else bunco, mini=self.mini if mini is None else mini,
                      per_die=self.per_die if per_die is None else per_die)
        if new == self:
            return self
        return replace(new, name="custom", source=f"{self.name} rules with points given by the user")

    def __str__(self) -> str:
        unit = "point" if self.per_die == 1 else "points"
        return (f"{self.name} (Bunco {self.bunco}, mini Bunco {self.mini}, {self.per_die} {unit} per die "
                f"showing the round number)")


STANDARD_SCORING = ScoringRules("standard", 21, 5, 1, source=(
    "Bunco as commonly played: Bunco 21, mini (baby) Bunco 5, 1 point per die showing the round number "
    "(e.g. buncobabz.com 'How to play'; the text of D. Taylor, Linux Journal, 21 January 2018)"))
ARTICLE_SCORING = ScoringRules("article", 25, 5, 1, source=(
    "the shell script of D. Taylor, 'Shell Scripting a Bunco Game', Linux Journal, 21 January 2018, "
    "which sets score=25 for a Bunco although the article's text says 21"))
SCORING_RULES: dict[str, ScoringRules] = {rules.name: rules for rules in (STANDARD_SCORING, ARTICLE_SCORING)}
"""The built-in scoring rule sets by name."""


def find_scoring_rules(name: str) -> ScoringRules:
    """The rule set called ``name`` (case-insensitive); an unknown name lists the valid ones."""
    key = name.strip().lower()
    if key not in SCORING_RULES:
        raise UnknownScoringError(unknown_name("Bunco scoring rules", name, SCORING_RULES,
                                               f" (choose from {', '.join(SCORING_RULES)})"))
    return SCORING_RULES[key]


def roll_scores(dice: Dice, rules: ScoringRules, *, round_number: int = 1) -> Dist[int]:
    """One roll's score: points -> ways, total ``sides**count``, scores in increasing order.

    >>> roll_scores(Dice(3, 6), STANDARD_SCORING)
    Dist({0: 120, 1: 75, 2: 15, 5: 5, 21: 1})
    """
    return ascending(roll_outcomes(dice, round_number=round_number).map(rules.score))


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
