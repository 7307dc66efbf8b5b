"""The one exception type for bad user input, and the messages shared by several modules.

Every error a user can cause (a bad shoe, rule table, bet file, option value) is an
:class:`InputError` or a subclass, whose message is one line that says what is wrong.
The command line prints it on stderr and exits with status 2. A mistake that several
modules can detect is worded once, here (:func:`suits_unknown`).
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input; ``str(err)`` is one line naming the problem."""


SUITS_HINT = "give whole decks, or counts divisible by 4, and remove cards with their suits, e.g. 'Kh 3d'"
"""What to do about a shoe whose suits are unknown, as the messages of :func:`suits_unknown` say it."""


def suits_unknown(bet: str | None = None, *, where: str = "", hint: str = SUITS_HINT) -> str:
    """The one message for a bet that looks at suits on a shoe whose suits are unknown.

    ``bet`` names the bet (default: suited bets in general); ``where`` prefixes a position
    (``"line 4"``); ``hint`` says how to give the suits. Raise it as a
    :class:`~exact_odds.core.shoe.ShoeError`.

    >>> suits_unknown("perfect-pair", hint="")
    'perfect-pair needs a shoe whose suits are known'
    >>> suits_unknown(where="line 4", hint="give suit counts")
    'line 4: suited bets need a shoe whose suits are known (give suit counts)'
    """
    subject = f"{bet} needs" if bet else "suited bets need"
    return f"{where + ': ' if where else ''}{subject} a shoe whose suits are known{f' ({hint})' if hint else ''}"
