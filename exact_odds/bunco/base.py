"""What every Bunco module shares: its error, the checks of whole numbers and of a significance level."""

from __future__ import annotations

from fractions import Fraction

from exact_odds.core.dist import Dist
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown


class BuncoError(InputError):
    """A bad Bunco input (dice, round number, points, rounds, target, simulation options); one line."""


def check_whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) within ``low..high`` (``high`` None: no bound).

    >>> check_whole_number("the number of dice", 0, 1, 20)
    Traceback (most recent call last):
    ...
    exact_odds.bunco.base.BuncoError: the number of dice must be at least 1, got 0
    """
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
    """The same ways with the outcomes in increasing order, as reports list them.

    >>> ascending(Dist({21: 1, 0: 120, 5: 5}))
    Dist({0: 120, 5: 5, 21: 1})
    """
    return Dist(sorted(dist.items()))
