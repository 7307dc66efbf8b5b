"""What every Bunco module shares: its error, the whole-number check, and outcomes in increasing order."""

from __future__ import annotations

from exact_odds.core.dist import Dist
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown


class BuncoError(InputError):
    """A bad Bunco input: dice, round number, points, rounds, target or simulation options.

    Like every :class:`~exact_odds.inputs.errors.InputError` its message is one line, which the command
    line prints before it exits with status 2.
    """


def check_whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an ``int`` within ``low..high`` (no upper bound if ``high`` is None).

    Anything else raises a one-line :class:`BuncoError` that names ``name``. A ``bool`` is refused
    although Python counts it as an ``int``: ``True`` dice is a mistake, not one die.

    >>> check_whole_number("the number of dice", 3, 1, 20)
    3
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


def ascending(dist: Dist[int]) -> Dist[int]:
    """The same ways with the outcomes in increasing order, the order in which reports list them.

    >>> ascending(Dist({21: 1, 0: 120, 5: 5}))
    Dist({0: 120, 5: 5, 21: 1})
    """
    return Dist(sorted(dist.items()))


def points(value: int) -> int:
    """The points themselves: the value whose mean and variance a points distribution reports.

    >>> Dist({0: 1, 2: 1}).expectation(points)
    Fraction(1, 1)
    """
    return value
