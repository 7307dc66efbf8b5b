"""Scoring rule sets: what a Bunco, a mini Bunco and each matching die are worth, by name.

A **Bunco**: every die shows the round number; a **mini Bunco**: every die shows one other face;
otherwise each die showing the round number scores ``per_die``. Two rule sets are built in
(:data:`SCORING_RULES`): ``standard`` (Bunco 21, mini Bunco 5, 1 point per die, as commonly played)
and ``article``, what the shell script of Dave Taylor's Linux Journal article (2018) does: a Bunco
scores 25.

>>> roll_scores(Dice(3, 6), STANDARD_SCORING).probability(21)
Fraction(1, 216)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from exact_odds.bunco.base import BuncoError, ascending, check_whole_number
from exact_odds.bunco.dice import Dice, Roll, roll_outcomes
from exact_odds.core.dist import Dist
from exact_odds.inputs.registry import unknown_name


class UnknownScoringError(BuncoError):
    """A scoring rule set name that is not in :data:`SCORING_RULES`."""


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """Points for a Bunco, a mini Bunco and each die showing the round number (whole, at least 0).

    ``source`` says where the numbers come from; it takes no part in equality.

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
"""Bunco 21, mini Bunco 5, 1 point per die showing the round number: the game as commonly played."""
ARTICLE_SCORING = ScoringRules("article", 25, 5, 1, source=(
    "the shell script of D. Taylor, 'Shell Scripting a Bunco Game', Linux Journal, 21 January 2018, "
    "which sets score=25 for a Bunco although the article's text says 21"))
"""Bunco 25, mini Bunco 5, 1 point per die: what the Linux Journal article's script does."""
SCORING_RULES: dict[str, ScoringRules] = {rules.name: rules for rules in (STANDARD_SCORING, ARTICLE_SCORING)}
"""The built-in scoring rule sets by name."""


def find_scoring_rules(name: str) -> ScoringRules:
    """The rule set called ``name`` (case-insensitive); an unknown name lists the valid ones.

    >>> find_scoring_rules(" Article ").bunco
    25
    """
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
