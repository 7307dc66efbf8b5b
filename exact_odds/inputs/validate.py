"""The one check of the numbers and names a user gives: ASCII digits, finite values, stated bounds.

Every number from an option (the ``option`` methods are argparse ``type=`` functions) or a file goes
through here: one message per mistake, and a number refused *before* it is built (digits counted before
``int()``, exponents bounded before ``10**e``). A **whole number** is ASCII digits with a sign; a **real
number** a finite decimal with an optional exponent; an **exact number** a whole number, a decimal, a
fraction (``19/20``) or, for payouts, odds (``11:1``, ``1 to 2``), never a ``float`` (see docs/formats.md).
The bounds (inclusive unless said) are named at the end of the module.

>>> DECKS.parse("8", "--decks")
8
>>> DECKS.parse("٣", "--decks")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: --decks must be a whole number from 1 to 10,000, got '٣'
>>> PAYOUT.parse("-2", "banker win")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: banker win: '-2' loses more than the stake (the least is -1)
"""

# No ``from __future__ import annotations``: the bounds' fields are typed by classes, not strings compiled on import.
import argparse
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from exact_odds.inputs.errors import InputError

MAX_NUMBER_TEXT = 40
"""The most characters of a real or exact number (a whole number: no more digits than its bound)."""

MAX_NAME = 4096
"""The most characters of a name (a configuration, or a file name given in its place: a path's longest)."""

_WHOLE = re.compile(r"[+-]?([0-9]+)")  # compiled now (every count of a compositions file); the others on first use
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,2})?"
_EXACT = rf"({_DECIMAL})|([+-]?[0-9]+)\s*/\s*([0-9]+)"
_ODDS = r"([0-9]+(?:\.[0-9]+)?)\s*(?::|to)\s*([0-9]+(?:\.[0-9]+)?)"
_LEADING_ZEROS = re.compile(r"(?<![0-9.])0+(?=[0-9])")
"""Zeros before the first digit of a run of digits (not after a decimal point), dropped in one pass."""
_LONG = r"[+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?(?:\s*(?:/|:|to)\s*[0-9.]+(?:[eE][+-]?[0-9]+)?)?"
"""A number written with more characters or a longer exponent than an exact number may have."""


SHOWN = 60
"""The most characters of a value a message quotes whole; a longer one is cut to :data:`SHOWN_START`."""
SHOWN_START = 40

T = TypeVar("T")


def shown(value: object, limit: int = SHOWN) -> str:
    """A value as a message quotes it: its ``repr``, cut with ``…`` and its length past ``limit`` characters
    (a huge number is never converted to text).

    >>> shown("x"), shown("9" * 5000)
    ("'x'", "'9999999999999999999999999999999999999999…' (5,000 characters)")
    >>> shown(list(range(1000)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1…(4,890 characters)'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of {math.floor(value.bit_length() * math.log10(2)) + 1:,} digits or so"
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        start = repr(value[:min(SHOWN_START, limit)])
        return f"{start[:-1]}…{start[-1]} ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:min(SHOWN_START, limit)]}…({len(text):,} characters)"


def _number(n: int) -> str:
    """A bound as messages write it: ``10,000``; a power of two past 10**12 as ``2**64 - 1``."""
    if n > 10**12 and (n + 1) & n == 0:
        return f"2**{n.bit_length()} - 1"
    return f"{n:,}"


def _must(what: str) -> str:
    return f"{what} must" if what else "must"


def _as_option(parse: Callable[[str], T], text: str) -> T:
    """An argparse ``type=``: ``parse(text)``, its error argparse's (written ``--shoes must be ...``)."""
    try:
        return parse(text)
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


@dataclass(frozen=True, slots=True)
class Whole:
    """Whole numbers from ``low`` to ``high``; ``also`` names another accepted word (``or 'inf'``)."""

    low: int
    high: int
    also: str = ""

    def error(self, value: object, what: str, error: type[InputError] = InputError) -> InputError:
        return error(f"{_must(what)} be a whole number from {_number(self.low)} to {_number(self.high)}{self.also}, "
                     f"got {shown(value)}")

    def check(self, value: object, what: str, error: type[InputError] = InputError) -> int:
        """``value`` if it is an ``int`` (not a ``bool``) within the bound (e.g. read from TOML)."""
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value
        raise self.error(value, what, error)

    def parse(self, text: str, what: str, error: type[InputError] = InputError) -> int:
        """The whole number written in ``text`` (spaces around allowed), refused unconverted if too long."""
        match = _WHOLE.fullmatch(text.strip())
        if match is None:
            raise self.error(text, what, error)
        digits = match.group(1).lstrip("0") or "0"  # leading zeros: never converted, however many
        if len(digits) > len(str(max(abs(self.low), abs(self.high)))):
            raise self.error(text, what, error)
        value = -int(digits) if match.group(0).startswith("-") else int(digits)
        if not self.low <= value <= self.high:
            raise self.error(text, what, error)
        return value

    def option(self, text: str) -> int:
        return _as_option(lambda t: self.parse(t, ""), text)


@dataclass(frozen=True, slots=True)
class Real:
    """Finite real numbers from ``low`` to ``high`` (``open``: both ends excluded)."""

    low: float
    high: float
    open: bool = False

    def error(self, value: object, what: str, error: type[InputError] = InputError) -> InputError:
        if self.open:
            return error(f"{_must(what)} be a number strictly between {self.low:g} and {self.high:g}, "
                         f"got {shown(value)}")
        return error(f"{_must(what)} be a finite number from {_number(int(self.low))} to {_number(int(self.high))}, "
                     f"got {shown(value)}")

    def parse(self, text: str, what: str, error: type[InputError] = InputError) -> float:
        """The number written in ``text``: a decimal with an optional two-digit exponent; no NaN or infinity."""
        t = without_leading_zeros(text.strip())
        if len(t) > MAX_NUMBER_TEXT or re.fullmatch(_DECIMAL, t) is None:
            raise self.error(text, what, error)
        number = float(t)
        inside = self.low < number < self.high if self.open else self.low <= number <= self.high
        if not (math.isfinite(number) and inside):
            raise self.error(text, what, error)
        return number

    def option(self, text: str) -> float:
        return _as_option(lambda t: self.parse(t, ""), text)


@dataclass(frozen=True, slots=True)
class Exact:
    """Exact numbers (:class:`~fractions.Fraction`) from ``low`` to ``high`` (``open``: ends excluded);
    ``odds``: also ``"11:1"`` and ``"1 to 2"``; ``hint`` says in messages how to write one."""

    low: Fraction
    high: Fraction
    open: bool = False
    odds: bool = False
    hint: str = "write e.g. 20, 12.5 or 25/2"
    noun: str = "an exact number"

    def _range(self) -> str:
        if self.open:
            return f"strictly between {self.low} and {self.high}"
        return f"from {_exact_bound(self.low)} to {_exact_bound(self.high)}"

    def not_exact(self, value: object, what: str, error: type[InputError] = InputError) -> InputError:
        where = f"{what}: " if what else ""
        if isinstance(value, float):
            return error(f"{where}{value!r} is a float; write it as a string such as \"19/20\" or \"0.95\""
                         if self.odds else f"{where}{value!r} is a float")
        if not isinstance(value, str):
            return error(f"{where}expected a number or a string, got {type(value).__name__}")
        text = without_leading_zeros(value.strip())
        if (len(text) > MAX_NUMBER_TEXT or re.search(r"[eE][+-]?[0-9]{3}", text)) and re.fullmatch(_LONG, text):
            return error(f"{where}{shown(value)} is too long to be read exactly here (at most "
                         f"{MAX_NUMBER_TEXT} characters, exponents of at most two digits)")
        return error(f"{where}{shown(value)} is not {self.noun} ({self.hint})")

    def out_of_range(self, value: object, what: str, error: type[InputError] = InputError) -> InputError:
        where = f"{what}: " if what else ""
        if self.odds and self.low == -1 and isinstance(value, (str, int, Fraction)) and _below(value, self.low):
            return error(f"{where}{shown(value)} loses more than the stake (the least is -1)")
        return error(f"{where}{shown(value)} is out of range: it must be {self._range()}")

    def check(self, value: Fraction, what: str, error: type[InputError] = InputError,
              original: object = None) -> Fraction:
        """``value`` if it lies within the bound."""
        inside = self.low < value < self.high if self.open else self.low <= value <= self.high
        if not inside:
            raise self.out_of_range(value if original is None else original, what, error)
        return value

    def parse(self, value: object, what: str, error: type[InputError] = InputError) -> Fraction:
        """An exact number from an ``int``, a :class:`~fractions.Fraction` or a string (see the module)."""
        if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
            raise self.not_exact(value, what, error)
        if isinstance(value, (int, Fraction)):
            if isinstance(value, int) and value.bit_length() > 256:
                raise self.out_of_range(value, what, error)
            return self.check(Fraction(value), what, error)
        number = _exact_text(value.strip(), odds=self.odds)
        if number is None:
            raise self.not_exact(value, what, error)
        return self.check(number, what, error, original=value)

    def option(self, text: str) -> Fraction:
        try:
            return self.parse(text, "")
        except InputError:
            raise argparse.ArgumentTypeError(f"must be {self.noun} {self._range()} ({self.hint}), "
                                             f"got {shown(text)}") from None


def _exact_bound(bound: Fraction) -> str:
    return _number(int(bound)) if bound.denominator == 1 else str(bound)  # 10,000 or 1/10


def _below(value: str | int | Fraction, low: Fraction) -> bool:
    number = value if not isinstance(value, str) else _exact_text(value.strip(), odds=True)
    return number is not None and number < low


def without_leading_zeros(text: str) -> str:
    """``text`` without the zeros that start a run of digits (one pass; the number written is the same).

    >>> [without_leading_zeros(t) for t in ("0008", "-00.50", "1e-05", "0")]
    ['8', '-0.50', '1e-5', '0']
    """
    return _LEADING_ZEROS.sub("", text) if "0" in text else text


def _exact_text(text: str, *, odds: bool) -> Fraction | None:
    """The exact number ``text`` writes (the forms of the module docstring), or None."""
    text = without_leading_zeros(text)
    if len(text) > MAX_NUMBER_TEXT:
        return None
    plain = _plain_ratio(text, odds=odds)
    return plain if plain is not None else _written_number(text, odds=odds)


def _plain_ratio(text: str, *, odds: bool) -> Fraction | None:
    """The built-in pay tables' forms (digits, or ``a/b``, ``a:b``) read without regular expressions, or None."""
    top, sep, bottom = text.partition(":" if odds and ":" in text else "/")
    if not (top.isascii() and top.isdigit()) or (sep and not (bottom.isascii() and bottom.isdigit())):
        return None
    den = int(bottom) if sep else 1
    return Fraction(int(top), den) if den else None


def _written_number(text: str, *, odds: bool) -> Fraction | None:
    if odds:
        match = re.fullmatch(_ODDS, text)
        if match:
            divisor = Fraction(match.group(2))
            return Fraction(match.group(1)) / divisor if divisor else None
    match = re.fullmatch(_EXACT, text)
    if match is None:
        return None
    if match.group(1) is not None:
        return Fraction(match.group(1))
    den = int(match.group(3))
    return Fraction(int(match.group(2)), den) if den else None


_CONTROL_NAMES = {"\n": "a line break", "\r": "a line break", "\v": "a line break", "\f": "a line break",
                  "\x85": "a line break", "\t": "a tab", "\x00": "a NUL", "\x1b": "an escape"}


def control_character(text: str) -> str | None:
    """The first control character of ``text`` in words (``"a line break"``, ``"U+0007"``), or ``None``:
    Unicode's controls (Cc) and line and paragraph separators (Zl, Zp), which would break a line of text."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            if unicodedata.category(ch) != "Cc":
                return f"a line break, U+{ord(ch):04X}"
            return _CONTROL_NAMES.get(ch, f"U+{ord(ch):04X}")
    return None


def printable(text: str, what: str, error: type[InputError] = InputError) -> str:
    """``text`` (a name, label or source from a user's file, which reports print) if it holds no control
    character, else ``error``."""
    bad = control_character(text)
    if bad is not None:
        raise error(f"{what} {shown(text)} contains a control character ({bad})")
    return text


def name(text: object, what: str, error: type[InputError] = InputError, *, examples: str = "") -> str:
    """A name the user gave (a configuration, a file): not empty, at most :data:`MAX_NAME` characters,
    no control characters; returned stripped of surrounding spaces."""
    hint = f" ({examples})" if examples else ""
    if not isinstance(text, str) or not text.strip():
        raise error(f"{what} must not be empty{hint}, got {shown(text)}")
    if len(text) > MAX_NAME or control_character(text) is not None:
        raise error(f"{what} must be a name of at most {MAX_NAME} printable characters{hint}, got {shown(text)}")
    return text.strip()


def spec(text: str, what: str, error: type[InputError] = InputError) -> str:
    """A value the user typed (``--bet``, ``--known``, ``--groups``): not blank, no control character.

    >>> spec("high=6|7|8|9", "--groups")
    'high=6|7|8|9'
    >>> spec(" ", "--groups")
    Traceback (most recent call last):
    ...
    exact_odds.inputs.errors.InputError: --groups must not be empty, got ' '
    """
    if not text.strip():
        raise error(f"{_must(what)} not be empty, got {shown(text)}")
    bad = control_character(text)
    if bad is not None:
        raise error(f"{_must(what)} not contain a control character ({bad}), got {shown(text)}")
    return text


def spec_option(text: str) -> str:
    return _as_option(lambda t: spec(t, ""), text)


DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "inproc")
"""The schemes of a Dask scheduler's address that ``distributed`` itself can connect with."""
_DASK = r"(?:([A-Za-z][A-Za-z0-9+.-]*)://)?([^\s/]+)"


def dask_address(text: str, what: str = "") -> str:
    """A Dask scheduler's address (``tcp://HOST:PORT``, or ``HOST:PORT``), checked for its shape and a
    scheme of :data:`DASK_SCHEMES` (not whether a scheduler answers)."""
    match = re.fullmatch(_DASK, text.strip()) if len(text) <= MAX_NAME else None
    if match is None or (match.group(1) or "tcp").lower() not in DASK_SCHEMES:
        raise InputError(f"{_must(what)} be a scheduler address such as tcp://HOST:PORT ({', '.join(DASK_SCHEMES)}), "
                         f"got {shown(text)}")
    return text.strip()


def dask_option(text: str) -> str:
    return _as_option(dask_address, text)


# ---------------------------------------------------------------- the bounds

DECKS = Whole(1, 10_000)  # --decks, a game's decks
DECKS_TABLE = Whole(1, 64)  # chemin-de-fer --decks-table
CHEMIN_SHOES = Whole(1, 100)  # chemin-de-fer --shoes
RANK_COUNT = Whole(0, 40_000)  # one rank's count in --shoe or a batch line
CUT_CARD = Whole(0, 520_000)  # --cut-card: cards behind the cut card
COUP = Whole(1, 130_000)  # deal --coup
COUPS = Whole(1, 10**9)  # simulate --coups
SHOES = Whole(1, 10**7)  # --shoes of simulate, study, count, verify
REFERENCE_SHOES = Whole(2, 10**7)  # verify --reference-shoes
SESSIONS = Whole(0, 10**7)  # session --sessions
HANDS = Whole(1, 100_000)  # session --hands
WORKERS = Whole(1, 256)  # --workers
SEED = Whole(0, 2**64 - 1)  # --seed
MAX_TAG = Whole(1, 10)  # --max-tag (each tag within -10..10)
TAG = Whole(-1_000, 1_000)  # a tag of --count
VIOLATIONS = Whole(0, 10**6)  # --max-violations
OBSERVED = Whole(0, 10**15)  # a count of verify --counts
THRESHOLD = Real(-1e6, 1e6)  # study --thresholds
ALPHA = Real(0.0, 1.0, open=True)  # --alpha of simulate and verify
EXACT_ALPHA = Exact(Fraction(0), Fraction(1), open=True, hint="write e.g. 0.001 or 1/1000")  # bunco --alpha
THRESHOLD_EXACT = Exact(Fraction(-10**6), Fraction(10**6), hint="write a number such as 4, -1.5 or 11/2")  # tc>=T
PAYOUT = Exact(Fraction(-1), Fraction(10**9), odds=True, hint='write e.g. "19/20", "0.95" or "11:1"')
BANKROLL = Exact(Fraction(1), Fraction(10**9), hint="write e.g. 20 or 12.5")  # session --bankroll
NET_RESULT = Exact(Fraction(-10**9), Fraction(10**9), hint="write e.g. 0.95, -1 or 19/20", noun="a number")  # net:<bet>
COMMISSION = Exact(Fraction(0), Fraction(1, 10), hint="write e.g. 1/20 or 0.05", noun="a commission")
BANQUE_SHARE = Exact(Fraction(0), Fraction(1), open=True, hint="write e.g. 1/2 or 0.4", noun="a share")
BUNCO_COUNT = Whole(1, 10**8)  # bunco --simulate, --night
BUNCO_POINTS = Whole(0, 10**6)  # Bunco's points options and --target
BUNCO_DICE = Whole(1, 20)  # bunco --dice
BUNCO_SIZE = Whole(1, 100)  # bunco --sides, --round, --rounds
BUNCO_K = Whole(-10**6, 10**6)  # bunco --more-than
BUNCO_TALLY = Whole(0, 999_999_999)  # a number of a Bunco tally sheet

DECKS_OR_INF = Whole(DECKS.low, DECKS.high, " or 'inf'")
INFINITE = ("inf", "infinite", "infinity")
"""The words ``--decks`` takes for the infinite-deck limit (any case)."""


def decks(value: object, what: str = "--decks", error: type[InputError] = InputError) -> int | None:
    """A number of decks from text or an int (``None`` for ``inf``: the infinite-deck limit).

    >>> decks("8"), decks(" INF ")
    (8, None)
    """
    if isinstance(value, str):
        if value.strip().lower() in INFINITE:
            return None
        return DECKS_OR_INF.parse(value, what, error)
    return DECKS_OR_INF.check(value, what, error)
