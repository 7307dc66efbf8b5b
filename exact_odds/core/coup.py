"""The coup as a value, its one integer code, and payouts looked up by code.

A :class:`Coup` is what a bet can see of one coup: the final totals, the cards in each
hand, and (when dealt with enough :class:`Detail`) pair flags. Every module that needs a
coup as a number (the bulk evaluator's coefficient tables, the vectorised dealers, the
studies) uses :func:`encode` / :func:`coup_of_code`; there is no other encoding.

The code of a coup is ``10 * player + banker`` (so ``73`` reads "player 7, banker 3")
plus :data:`PLAYER_DREW` and :data:`BANKER_DREW` when a hand holds three cards, plus one
bit per flag: :data:`PLAYER_PAIR`, :data:`BANKER_PAIR`, :data:`PLAYER_SUITED`,
:data:`BANKER_SUITED`, :data:`TWIN_PAIR`; all codes are below :data:`COUP_CODES`.

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
"""Who wins a coup (for the type checker; at run time the alias is its text)."""
OUTCOMES: tuple[Winner, ...] = ("banker", "player", "tie")
"""The three outcomes of a coup, in the order every table and array uses."""


class Detail(IntEnum):
    """How much of the first two cards of each hand a coup records.

    ``POINTS``: totals and card counts only (main bets). ``RANKS``: also whether each
    hand's first two cards pair by rank, and whether both hands pair in the same rank.
    ``SUITS``: also whether they pair by rank and suit (needs a shoe whose suits are
    known). Side-bet bookkeeping is paid only at the detail a bet asks for.
    """

    POINTS = 0
    RANKS = 1
    SUITS = 2


class Coup(NamedTuple):
    """The outcome of one coup.

    ``player``/``banker``: final totals 0-9; ``player_cards``/``banker_cards``: 2 or 3;
    ``player_pair``/``banker_pair``: the hand's first two cards have the same rank;
    ``player_suited``/``banker_suited``: they are the same rank and suit;
    ``twin_pair``: both hands pair, in the same rank (a "twin" or "identical" pair).
    Pair fields are ``False`` unless the coup was dealt with enough :class:`Detail`
    (pairs and twins from ``RANKS``, suited pairs from ``SUITS``).
    """

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
        """``"banker"``, ``"player"`` or ``"tie"``."""
        if self.banker > self.player:
            return "banker"
        if self.player > self.banker:
            return "player"
        return "tie"

    @property
    def natural(self) -> bool:
        """Whether the coup ended on the first four cards with an 8 or 9 (standard naturals)."""
        return self.player_cards == 2 and self.banker_cards == 2 and max(self.player, self.banker) >= 8

    @property
    def cards(self) -> int:
        """Number of cards dealt in the coup, 4 to 6."""
        return self.player_cards + self.banker_cards


def winner_of(coup: Coup) -> Winner:
    """The winner of ``coup`` (a function, for :meth:`exact_odds.core.dist.Dist.map`)."""
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
    """The code of a coup from its parts; works on ints and bools or on NumPy arrays alike.

    ``player_drew``/``banker_drew``: whether the hand holds a third card.
    """
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
    """Every coup by its code: the parts of the code from its most significant (the twin pair's
    flag) to its least (the banker's total), so that the codes come in increasing order."""
    flag = (False, True)
    parts = itertools.product(flag, flag, flag, flag, flag, (2, 3), (2, 3), range(10), range(10))
    make = Coup._make
    return tuple([make((player, banker, player_cards, banker_cards, player_pair, banker_pair, player_suited,
                        banker_suited, twin_pair))
                  for (twin_pair, banker_suited, player_suited, banker_pair, player_pair, banker_cards, player_cards,
                       player, banker) in parts])


def codes_at(detail: Detail) -> list[int]:
    """Every code a coup dealt at ``detail`` can have (flags it cannot record are clear)."""
    allowed = FLAGS_AT[detail]
    return [code for code in range(COUP_CODES) if (code // PLAYER_PAIR) & ~allowed == 0]


def totals_of(codes: Any) -> tuple[Any, Any]:
    """(player total, banker total) of codes (ints or arrays)."""
    return codes % 100 // 10, codes % 10


def winner_index(codes: NDArray[Any]) -> NDArray[np.int64]:
    """Index into :data:`OUTCOMES` of each code's winner: 0 banker, 1 player, 2 tie."""
    import numpy as np

    player, banker = totals_of(np.asarray(codes, dtype=np.int64))
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
    """A bet as a table of exact payouts by coup code: hashable and picklable, for worker processes.

    Built by :func:`tabulate`; pays exactly what the original bet pays on every coup that
    can be dealt at its detail. Two are equal when their names, details and payouts are:
    compared through a SHA-256 digest of them (the payouts that are not zero, by code), computed
    once (and carried by a pickled copy), because bulk evaluation keys its caches by bets and a
    worker receives its own copies with every task (comparing the 12,800 payouts at every lookup
    cost more than evaluating a task).
    """

    name: str = field(compare=False)
    detail: Detail = field(compare=False)
    table: tuple[Fraction, ...] = field(compare=False)
    """The payout by coup code (codes not recordable at ``detail`` pay 0)."""
    _digest: bytes = field(init=False, repr=False)
    """What equality and the hash compare: the SHA-256 digest of the name, the detail and the payouts."""

    def __post_init__(self) -> None:
        nonzero = [(code, x.numerator, x.denominator) for code, x in enumerate(self.table) if x]  # most pay 0
        content = repr((self.name, int(self.detail), len(self.table), nonzero))
        object.__setattr__(self, "_digest", hashlib.sha256(content.encode("utf-8")).digest())

    def payout(self, coup: Coup, /) -> Fraction:
        """Net result of one unit staked on ``coup``."""
        return self.table[coup_code(coup)]


def tabulate(bet: Payable) -> TabulatedBet:
    """The payouts of ``bet`` on every coup its detail can record, as a :class:`TabulatedBet`."""
    table = [Fraction(0)] * COUP_CODES
    for code in codes_at(bet.detail):
        table[code] = bet.payout(coup_of_code(code))
    return TabulatedBet(bet.name, bet.detail, tuple(table))


def payout_lookup(bet: Payable, detail: Detail = Detail.SUITS) -> tuple[NDArray[np.int64], int]:
    """The bet's payout on every coup code that can occur at ``detail``, scaled to integers.

    Returns (table, scale): ``table[code] / scale`` is the exact payout (codes that cannot
    occur at ``detail`` hold 0).
    """
    import numpy as np

    codes = codes_at(detail)
    payouts = [bet.payout(coup_of_code(code)) for code in codes]
    scale = math.lcm(*(p.denominator for p in payouts))
    table = np.zeros(COUP_CODES, dtype=np.int64)
    table[codes] = [int(p * scale) for p in payouts]
    return table, scale
