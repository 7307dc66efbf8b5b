"""The dice and one roll of them, classified by what the rules look at.

A roll of ``count`` fair dice of ``sides`` faces has ``sides**count`` equally likely *ways* (ordered
tuples of faces). The rules look only at how many dice show the round number and whether all dice
show the same face: that pair is a :class:`Roll`, and :func:`roll_outcomes` counts the ways of each.

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

    Alike with matches is a Bunco, alike without a mini Bunco, anything else a plain roll scoring
    per matching die. Rolls are ordered as the pairs ``(matches, alike)``.

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
    """The classes of one roll with their ways (total ``sides**count``), counted, not enumerated.

    ``k`` dice show the round number in ``C(count, k) * (sides-1)**(count-k)`` rolls; the one roll
    with ``k = count`` is the Bunco, and ``sides - 1`` of the ``k = 0`` rolls are mini Buncos (with
    one die, any other face). The result does not depend on the round number (tested, not assumed).

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
