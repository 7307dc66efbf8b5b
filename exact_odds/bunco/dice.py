"""The dice, one roll of them classified by what the rules look at, and the scoring rule sets.

A roll of ``count`` dice of ``sides`` faces has ``sides**count`` equally likely *ways* (ordered tuples
of faces). The rules look only at how many dice show the round number and whether all dice are alike:
that pair is a :class:`Roll`. The built-in rule sets and their sources: docs/bunco.md.

>>> roll_outcomes(Dice(3, 6)).map(lambda roll: roll.kind)
Dist({'plain': 210, 'mini Bunco': 5, 'Bunco': 1})
>>> roll_scores(Dice(3, 6), STANDARD_SCORING).probability(21)
Fraction(1, 216)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache

from exact_odds.core.dist import Dist, Ways
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.validate import BUNCO_DICE, shown

MAX_DICE = BUNCO_DICE.high
"""The most dice a roll may have, 20 (the limits keep every exact computation to a second or two)."""
MAX_SIDES = 100
"""The most faces a die may have."""


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
