"""The dice and one roll of them, classified by what the rules look at.

A roll of ``count`` fair dice with ``sides`` faces (numbered 1..sides) has ``sides**count``
equally likely *ways*: the ordered tuples of faces. The rules look at two things only: how many
dice show the round number, and whether every die shows the same face. :class:`Roll` is that
pair, and :func:`roll_outcomes` counts the ways of each class without listing a single tuple.

>>> roll_outcomes(Dice(3, 6)).map(lambda roll: roll.kind)
Dist({'plain': 210, 'mini Bunco': 5, 'Bunco': 1})
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from exact_odds.bunco.base import BuncoError, check_whole_number
from exact_odds.core.dist import Dist, Ways
from exact_odds.inputs.validate import BUNCO_DICE, shown

MAX_DICE = BUNCO_DICE.high
"""The most dice a roll may have, 20 (the limits keep every exact computation to a second or two)."""
MAX_SIDES = 100
"""The most faces a die may have."""


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
    """The class of one roll: how many dice show the round number, and whether all dice are alike.

    ``alike and matches`` is a Bunco (then ``matches`` is the number of dice), ``alike and not
    matches`` a mini Bunco, anything else a plain roll, which scores per matching die. Rolls are
    ordered as the pairs ``(matches, alike)`` are, and only against rolls.

    >>> Roll(3, alike=True).kind, Roll(0, alike=True).kind, Roll(2, alike=False).describe()
    ('Bunco', 'mini Bunco', '2 dice show the round number')
    >>> sorted([Roll(1, alike=False), Roll(0, alike=True), Roll(0, alike=False)])[0]
    Roll(matches=0, alike=False)
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


def _matching_ways(dice: Dice, k: int) -> Ways:
    """Rolls in which exactly ``k`` dice show the round number: ``C(count, k) * (sides-1)**(count-k)``."""
    misses: Ways = (dice.sides - 1) ** (dice.count - k)  # the other dice, each on any other face
    return math.comb(dice.count, k) * misses


@cache
def roll_outcomes(dice: Dice, *, round_number: int = 1) -> Dist[Roll]:
    """The classes of one roll with their ways (total ``sides**count``), by counting, not enumerating.

    Of the rolls in which ``k`` dice show the round number (:func:`_matching_ways`), the single
    ``k = count`` roll is the Bunco, and ``sides - 1`` of the ``k = 0`` rolls (every die on one
    other face) are mini Buncos. With one die every face is trivially "all alike", so the round
    number is a Bunco and any other face a mini Bunco: the rules read literally. By symmetry the
    result does not depend on the round number (the tests check this, it is not assumed).

    >>> roll_outcomes(Dice(3, 6))[Roll(0, alike=True)]
    5
    """
    dice.check_round(round_number)
    n, minis = dice.count, dice.sides - 1
    ways: dict[Roll, int] = {Roll(k, alike=False): _matching_ways(dice, k) for k in range(1, n)}
    ways[Roll(0, alike=False)] = _matching_ways(dice, 0) - minis
    ways[Roll(0, alike=True)] = minis
    ways[Roll(n, alike=True)] = _matching_ways(dice, n)
    return Dist(sorted(ways.items()))
