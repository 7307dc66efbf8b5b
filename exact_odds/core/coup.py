"""The coup as a value, its one integer code (:func:`encode`, :func:`coup_of_code`), and payouts by code.

The code is ``10 * player + banker`` (``73``: player 7, banker 3), plus :data:`PLAYER_DREW` and
:data:`BANKER_DREW` when a hand holds three cards, plus one bit per pair flag; all codes are below
:data:`COUP_CODES`.

>>> code = coup_code(Coup(7, 3, 3, 2, player_pair=True))
>>> code, coup_of_code(code) == Coup(7, 3, 3, 2, player_pair=True)
(573, True)
"""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Winner: TypeAlias = "Literal['banker', 'player', 'tie']"
OUTCOMES: tuple[Winner, ...] = ("banker", "player", "tie")
"""The three outcomes of a coup, in the order every table and array uses."""


class Detail(IntEnum):
    """How much of each hand's first two cards a coup records: ``POINTS`` (totals and card counts),
    ``RANKS`` (also pairs and the twin pair), ``SUITS`` (also suited pairs; needs a shoe whose suits are known)."""

    POINTS = 0
    RANKS = 1
    SUITS = 2


class Coup(NamedTuple):
    """The outcome of one coup: final totals 0-9 and cards per hand (2 or 3); ``*_pair``: the hand's first
    two cards have the same rank, ``*_suited``: also the same suit, ``twin_pair``: both hands pair in the
    same rank. Pair fields are ``False`` unless the coup was dealt with enough :class:`Detail`."""

    player: int
    banker: int
    player_cards: int
    banker_cards: int
    player_pair: bool = False
    banker_pair: bool = False
    player_suited: bool = False
    banker_suited: bool = False
    twin_pair: bool = False

    @property
    def winner(self) -> Winner:
        if self.banker > self.player:
            return "banker"
        if self.player > self.banker:
            return "player"
        return "tie"

    @property
    def natural(self) -> bool:
        """The coup ended on the first four cards with an 8 or 9 (standard naturals)."""
        return self.player_cards == 2 and self.banker_cards == 2 and max(self.player, self.banker) >= 8

    @property
    def cards(self) -> int:
        return self.player_cards + self.banker_cards


def winner_of(coup: Coup) -> Winner:
    return coup.winner


# ---------------------------------------------------------------- the code

PLAYER_DREW, BANKER_DREW = 100, 200
PLAYER_PAIR, BANKER_PAIR, PLAYER_SUITED, BANKER_SUITED, TWIN_PAIR = 400, 800, 1600, 3200, 6400
COUP_CODES = 12_800
"""Number of coup codes: 100 pairs of totals x 4 card counts x 32 combinations of flags."""

FLAGS_AT: dict[Detail, int] = {Detail.POINTS: 0, Detail.RANKS: 1 | 2 | 16, Detail.SUITS: 31}
"""The flags a coup dealt at each detail can carry, as bits of ``code // PLAYER_PAIR``
(1 player pair, 2 banker pair, 4 player suited, 8 banker suited, 16 twin pair)."""

T = TypeVar("T")


def encode(player: T, banker: T, player_drew: Any, banker_drew: Any, player_pair: Any = False,
           banker_pair: Any = False, player_suited: Any = False, banker_suited: Any = False,
           twin_pair: Any = False) -> T:
    """The code of a coup from its parts (``*_drew``: the hand holds a third card); ints or NumPy arrays."""
    return (10 * player + banker + PLAYER_DREW * player_drew + BANKER_DREW * banker_drew  # type: ignore[operator,no-any-return]
            + PLAYER_PAIR * player_pair + BANKER_PAIR * banker_pair + PLAYER_SUITED * player_suited
            + BANKER_SUITED * banker_suited + TWIN_PAIR * twin_pair)


def coup_code(coup: Coup) -> int:
    """A coup as an integer below :data:`COUP_CODES`."""
    return encode(coup.player, coup.banker, coup.player_cards == 3, coup.banker_cards == 3, coup.player_pair,
                  coup.banker_pair, coup.player_suited, coup.banker_suited, coup.twin_pair)


def coup_of_code(code: int) -> Coup:
    """The coup of a code (the inverse of :func:`coup_code`)."""
    return coup_table()[code]


@lru_cache(maxsize=1)
def coup_table() -> tuple[Coup, ...]:
    """Every coup by its code: the parts from the most significant (the twin flag) down to the banker total, so
    codes increase; the totals first in a :class:`Coup`, then the other fields in reverse."""
    flag = (False, True)
    parts = itertools.product(flag, flag, flag, flag, flag, (2, 3), (2, 3), range(10), range(10))
    return tuple([Coup(*part[7:], *reversed(part[:7])) for part in parts])


def codes_at(detail: Detail) -> list[int]:
    """Every code a coup dealt at ``detail`` can have (flags it cannot record are clear)."""
    allowed = FLAGS_AT[detail]
    return [code for code in range(COUP_CODES) if (code // PLAYER_PAIR) & ~allowed == 0]


def winner_index(codes: NDArray[Any]) -> NDArray[np.int64]:
    """Index into :data:`OUTCOMES` of each code's winner: 0 banker, 1 player, 2 tie."""
    import numpy as np

    codes = np.asarray(codes, dtype=np.int64)
    player, banker = codes % 100 // 10, codes % 10
    return np.asarray(np.where(banker > player, 0, np.where(player > banker, 1, 2)), dtype=np.int64)


# ---------------------------------------------------------------- payouts by code


class Payable(Protocol):
    """What a payout lookup needs of a bet: a name, the detail it looks at, exact payouts."""

    @property
    def name(self) -> str: ...

    @property
    def detail(self) -> Detail: ...

    def payout(self, coup: Coup, /) -> Fraction: ...


@dataclass(frozen=True, slots=True)
class TabulatedBet:
    """A bet as a table of exact payouts by coup code (:func:`tabulate`): hashable and picklable, for workers.

    Equality and the hash compare a SHA-256 digest of the name, detail and nonzero payouts, computed once:
    caches are keyed by bets, and comparing 12,800 payouts at every lookup would cost more than a task.
    """

    name: str = field(compare=False)
    detail: Detail = field(compare=False)
    table: tuple[Fraction, ...] = field(compare=False)  # by coup code; codes not recordable at detail pay 0
    _digest: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        nonzero = [(code, x.numerator, x.denominator) for code, x in enumerate(self.table) if x]  # most pay 0
        content = repr((self.name, int(self.detail), len(self.table), nonzero))
        object.__setattr__(self, "_digest", hashlib.sha256(content.encode("utf-8")).digest())

    def payout(self, coup: Coup, /) -> Fraction:
        return self.table[coup_code(coup)]


def tabulate(bet: Payable) -> TabulatedBet:
    """The payouts of ``bet`` on every coup its detail can record, as a :class:`TabulatedBet`."""
    table = [Fraction(0)] * COUP_CODES
    for code in codes_at(bet.detail):
        table[code] = bet.payout(coup_of_code(code))
    return TabulatedBet(bet.name, bet.detail, tuple(table))


def payout_lookup(bet: Payable, detail: Detail = Detail.SUITS) -> tuple[NDArray[np.int64], int]:
    """``(table, scale)``: ``table[code] / scale`` is the bet's exact payout (0 on codes ``detail`` cannot record)."""
    import numpy as np

    codes = codes_at(detail)
    payouts = [bet.payout(coup_of_code(code)) for code in codes]
    scale = math.lcm(*(p.denominator for p in payouts))
    table = np.zeros(COUP_CODES, dtype=np.int64)
    table[codes] = [int(p * scale) for p in payouts]
    return table, scale
