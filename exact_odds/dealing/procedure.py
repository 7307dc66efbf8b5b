"""The dealing procedure: how cards reach the table (fresh shoes, or burn, cut card and last coup).

After Wizard of Odds, "Baccarat" rules (wizardofodds.com/games/baccarat/basics) and
Wikipedia, "Punto banco":

- *Whole shoes* (the default). The whole shoe is shuffled. The burn: the first card is
  turned face up and its value says how many further cards are burned face down (ace 1,
  2-9 their pip value, a ten or a court card 10; :func:`~exact_odds.dealing.cards.burn_value`).
  A cut card is placed with ``cut`` cards behind it (default 16). ``last_coup="one-more"``
  (Wizard of Odds): when the cut card comes out during a coup, that coup is finished and one
  more is dealt; when it comes out before the first card of a coup, that coup is the last.
  ``last_coup="this"`` (Wikipedia's description, the cut card "in front of the seventh from
  last card", ``cut=7``): the coup during which the cut card comes out is the last. Either
  way the shoe is then finished.
- *Fresh shoes* (``fresh=True``): every coup is the first six cards of a freshly shuffled
  full shoe (no burn, no cut card). Fresh shoes also allow the infinite deck.

The turned burn card is seen by everyone; the cards burned face down are never seen, so a
bettor's exact expectation keeps them in the composition (by exchangeability):
:func:`burn` says which cards the burn takes and which of them stay hidden.

>>> Procedure().describe()
'whole shoes: burn by the first card, cut card 16 cards from the end, one more coup after the cut card'
>>> Procedure().burned(36)  # a ten turned: it and ten more cards
11
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.dealing.cards import CARD_CODES, burn_value
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

LastCoup = Literal["one-more", "this"]
"""The last-coup rule: one more coup after the one with the cut card, or that coup is the last."""

MAX_BURN = 11
"""The most cards the burn can take: the turned card and ten more."""


class DealingError(InputError):
    """A dealing procedure, seed or shoe that cannot deal (e.g. a cut card too near the end)."""


@dataclass(frozen=True, slots=True)
class Procedure:
    """How cards reach the table (see the module docstring for the rules and their sources).

    ``fresh``: every coup from a freshly shuffled full shoe. Otherwise ``burn`` says whether
    the burn is done, ``cut`` how many cards lie behind the cut card, and ``last_coup``
    whether one more coup follows the one in which the cut card comes out (``"one-more"``)
    or that coup is the last (``"this"``).
    """

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
        """Cards the burn takes from a shoe whose first card has code ``turned``: that card and
        :func:`~exact_odds.dealing.cards.burn_value` more (0 without a burn). The first coup
        starts at this index."""
        return 1 + burn_value(turned) if self.burn else 0

    def last(self, start: Any, used: Any, size: int) -> Any:
        """Whether the coup dealt from index ``start`` with ``used`` cards is the shoe's last
        (``size`` cards in the shoe); ints or NumPy arrays alike."""
        limit = size - self.cut
        return start >= limit if self.last_coup == "one-more" else start + used > limit


STANDARD_PROCEDURE = Procedure()
"""The default procedure: whole shoes, the burn, a cut card 16 cards from the end, one more coup after it."""


@dataclass(frozen=True, slots=True)
class Burn:
    """What the burn does to each shoe of a block (arrays over shoes).

    ``start``: (shoes,) index of the first card of the first coup (0 without a burn).
    ``turned``: (shoes, 52) the card turned face up (seen by everyone), counted by card code.
    ``hidden``: (shoes, 52) the cards burned face down (never seen), counted by card code.
    The burn removes ``turned + hidden`` from the shoe before the first coup.
    """

    start: NDArray[np.int64]
    turned: NDArray[np.int16]
    hidden: NDArray[np.int16]


@lru_cache(maxsize=2)
def _burned_lookup(burn: bool) -> NDArray[np.int64]:
    import numpy as np

    return np.array([Procedure(burn=burn).burned(c) for c in range(CARD_CODES)], dtype=np.int64)


def burn(cards: NDArray[np.integer], procedure: Procedure) -> Burn:
    """The burn of every shoe of ``cards`` (shape (shoes, cards per shoe), card codes in order).

    The one account of the burn: the vectorised dealer removes ``turned + hidden`` from
    each shoe, and a study keeps ``hidden`` among the cards not yet seen.
    """
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
