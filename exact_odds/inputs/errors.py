"""The one exception type for bad user input (:class:`InputError`, one line; the command line prints it
and exits with status 2), and the messages several modules share: :func:`suits_unknown`, and a missing
optional extra (:func:`require`: ``plot``, ``dask``, ``fast`` or ``xlsx``, imported where used).

>>> installed("json"), installed("no_such_package")
(True, False)
>>> require("no_such_package", "plot", "plots need matplotlib")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: plots need matplotlib: pip install 'exact-odds[plot]'
"""

from __future__ import annotations

import importlib
from importlib.util import find_spec
from types import ModuleType


class InputError(ValueError):
    """Bad user input; ``str(err)`` is one line naming the problem."""


SUITS_HINT = "give whole decks, or counts divisible by 4, and remove cards with their suits, e.g. 'Kh 3d'"
"""What to do about a shoe whose suits are unknown, as the messages of :func:`suits_unknown` say it."""


def suits_unknown(bet: str | None = None, *, where: str = "", hint: str = SUITS_HINT) -> str:
    """The one message for a bet (default: suited bets) that looks at suits on a shoe whose suits are
    unknown; ``where`` prefixes a position, ``hint`` says how to give the suits.

    >>> suits_unknown("perfect-pair", hint="")
    'perfect-pair needs a shoe whose suits are known'
    >>> suits_unknown(where="line 4", hint="give suit counts")
    'line 4: suited bets need a shoe whose suits are known (give suit counts)'
    """
    subject = f"{bet} needs" if bet else "suited bets need"
    return f"{where + ': ' if where else ''}{subject} a shoe whose suits are known{f' ({hint})' if hint else ''}"


EXTRAS = {"plot": "matplotlib", "dask": "distributed", "fast": "numba", "xlsx": "openpyxl"}
"""Each optional extra of the package (``pip install 'exact-odds[EXTRA]'``) and the package it installs."""


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (it is found; nothing is imported)."""
    return find_spec(module) is not None


def require(module: str, extra: str, needed_by: str, error: type[InputError] = InputError) -> ModuleType:
    """``module``, imported now; if it is missing, ``error`` with ``needed_by`` (what needs it) and the
    command that installs ``extra``, one of :data:`EXTRAS`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise error(f"{needed_by}: pip install 'exact-odds[{extra}]'") from None
