"""Cards as codes and the dealing procedure: how cards reach the table (fresh shoes, or burn, cut card and
last coup; docs/checking.md, "Dealing", says it in words with its sources).

Cards are small integers, ``4 * (rank - 1) + suit`` (0-51, suits in the order of
:data:`~exact_odds.core.shoe.SUITS`); a shoe whose suits are unknown is dealt as spades. The cards
burned face down are never seen: :func:`burn` keeps them apart.

>>> from exact_odds.core.shoe import parse_card
>>> card_code(parse_card("Kh")), code_card(49), card_point(49), burn_value(49)
(49, Card(rank=<Rank.KING: 13>, suit=<Suit.HEARTS: 'h'>), 0, 10)
>>> Procedure().describe()
'whole shoes: burn by the first card, cut card 16 cards from the end, one more coup after the cut card'
>>> Procedure().burned(36)  # a ten turned: it and ten more cards
11
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, SUITS, Card, Shoe
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CARD_CODES = 52


def card_code(card: Card) -> int:
    """The code of a card (a card without a suit counts as a spade)."""
    return 4 * (card.rank - 1) + (SUITS.index(card.suit) if card.suit is not None else 0)


def code_card(code: int, *, suited: bool = True) -> Card:
    """The card of a code (without its suit when ``suited`` is false)."""
    return Card(RANKS[code // 4], SUITS[code % 4] if suited else None)


def card_point(code: int) -> int:
    """The baccarat point value of a card code."""
    return RANKS[code // 4].point


def burn_value(code: int) -> int:
    """How many cards a turned card orders burned: its point value, 10 for a ten or a court card (Wizard of
    Odds, "Baccarat" rules, wizardofodds.com/games/baccarat/basics)."""
    return card_point(code) or 10


@lru_cache(maxsize=1)
def point_lookup() -> NDArray[np.int16]:
    """:func:`card_point` of every card code, as a read-only array."""
    import numpy as np

    out: NDArray[np.int16] = np.array([card_point(c) for c in range(CARD_CODES)], dtype=np.int16)
    out.flags.writeable = False
    return out


def shoe_card_codes(shoe: Shoe) -> list[int]:
    """Every card of the shoe (one deck's worth of weight for the infinite deck) as codes, sorted."""
    suited = shoe.suited or tuple((n, 0, 0, 0) for n in shoe.counts)  # unknown suits: all spades
    return [4 * i + s for i, row in enumerate(suited) for s, n in enumerate(row) for _ in range(n)]


def shoe_of_codes(codes: list[int], *, suited: bool) -> Shoe:
    """The shoe made of the cards ``codes`` (with its suits when ``suited``)."""
    count = Counter(codes)
    rows = tuple(tuple(count[4 * i + suit] for suit in range(4)) for i in range(13))
    return Shoe(tuple(map(sum, rows)), rows if suited else None)


# ---------------------------------------------------------------- the procedure

LastCoup = Literal["one-more", "this"]

MAX_BURN = 11
"""The most cards the burn can take: the turned card and ten more."""


class DealingError(InputError):
    """A dealing procedure, seed or shoe that cannot deal (e.g. a cut card too near the end)."""


@dataclass(frozen=True, slots=True)
class Procedure:
    """How cards reach the table (see the module): ``fresh`` shoes, or whole shoes with or without the
    ``burn``, ``cut`` cards behind the cut card and the ``last_coup`` rule."""

    fresh: bool = False
    cut: int = 16
    last_coup: LastCoup = "one-more"
    burn: bool = True

    @property
    def min_cut(self) -> int:
        """The fewest cards behind the cut card that always leave enough for the last coup."""
        return 11 if self.last_coup == "one-more" else 6

    def check(self, shoe: Shoe) -> None:
        """Raise :class:`DealingError` unless this procedure can deal from ``shoe``."""
        if self.last_coup not in ("one-more", "this"):
            raise DealingError(f"last coup rule must be 'one-more' or 'this', got {shown(self.last_coup)}")
        if self.fresh:
            return
        if shoe.infinite:
            raise DealingError("an infinite deck has no cut card: whole shoes need a finite number of decks (an "
                               "infinite deck deals fresh shoes only: simulate --fresh)")
        if self.cut < self.min_cut:
            raise DealingError(
                f"a cut card {self.cut} cards from the end can leave too few cards for the last coup "
                f"(with the {shown(self.last_coup)} rule it needs at least {self.min_cut})")
        need = self.cut + (MAX_BURN if self.burn else 0) + CARDS_PER_COUP
        if shoe.size < need:
            raise DealingError(f"a shoe of {shoe.size} cards is too small for a cut card {self.cut} cards "
                               f"from the end (it needs at least {need} cards)")

    def describe(self) -> str:
        """One line for reports."""
        if self.fresh:
            return "a freshly shuffled full shoe for every coup"
        return f"whole shoes: {self.shoe_rules()}"

    def shoe_rules(self) -> str:
        """The burn, the cut card and the last-coup rule, in words (for whole shoes)."""
        burn = "burn by the first card" if self.burn else "no burn"
        last = "one more coup after the cut card" if self.last_coup == "one-more" else (
            "the coup with the cut card is the last")
        return f"{burn}, cut card {self.cut} cards from the end, {last}"

    def burned(self, turned: int) -> int:
        """Cards the burn takes when the first card is ``turned`` (0 without a burn): the first coup's index."""
        return 1 + burn_value(turned) if self.burn else 0

    def last(self, start: Any, used: Any, size: int) -> Any:
        """Whether the coup dealt from ``start`` with ``used`` cards is the last of ``size``; ints or arrays."""
        limit = size - self.cut
        return start >= limit if self.last_coup == "one-more" else start + used > limit


STANDARD_PROCEDURE = Procedure()
"""The default procedure: whole shoes, the burn, a cut card 16 cards from the end, one more coup after it."""


@dataclass(frozen=True, slots=True)
class Burn:
    """The burn of each shoe: ``start`` (shoes,), the first coup's index; ``turned`` and ``hidden`` (shoes, 52),
    the card turned face up and the cards burned face down, by card code."""

    start: NDArray[np.int64]
    turned: NDArray[np.int16]
    hidden: NDArray[np.int16]


@lru_cache(maxsize=2)
def _burned_lookup(burn: bool) -> NDArray[np.int64]:
    import numpy as np

    return np.array([Procedure(burn=burn).burned(c) for c in range(CARD_CODES)], dtype=np.int64)


def burn(cards: NDArray[np.integer], procedure: Procedure) -> Burn:
    """The burn of every shoe of ``cards`` (shoes, cards per shoe): the one account of it."""
    import numpy as np

    shoes = len(cards)
    rows = np.arange(shoes)
    start = _burned_lookup(procedure.burn)[cards[:, 0]]
    turned = np.zeros((shoes, CARD_CODES), dtype=np.int16)
    hidden = np.zeros((shoes, CARD_CODES), dtype=np.int16)
    if procedure.burn:
        turned[rows, cards[:, 0]] = 1
        for j in range(1, MAX_BURN):
            hidden[rows, cards[:, j]] += j < start
    return Burn(start, turned, hidden)
