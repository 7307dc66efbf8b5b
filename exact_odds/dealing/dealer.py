"""The dealers: the vectorised one (many coups, or many whole shoes in lockstep, at once, through
:func:`~exact_odds.core.tableau.play_many`; :mod:`~exact_odds.dealing.loops` compiled) and the scalar
reference it is tested against (one coup at a time through :func:`~exact_odds.core.tableau.play`). One
procedure, shuffle and dealer serve every command, so a seed deals the same shoes everywhere:

>>> from exact_odds.dealing.procedure import shoe_card_codes
>>> from exact_odds.dealing.shuffle import shoe_orders
>>> simple = play_shoe_simple(shoe_cards(Shoe.decks(8), seed=7))
>>> fast = play_shoes(shoe_orders(shoe_card_codes(Shoe.decks(8)), 7, 0, 1), STANDARD_TABLEAU, Procedure())
>>> [start for start, _ in simple] == fast.start.tolist()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from exact_odds.core.coup import Coup, Detail, Winner, encode
from exact_odds.core.shoe import CARDS_PER_COUP, MIN_CARDS_PER_COUP, RANKS, SUITS, Card, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, STOOD, Tableau, draw_lookup, play, play_many
from exact_odds.dealing.procedure import (
    CARD_CODES,
    STANDARD_PROCEDURE,
    Burn,
    DealingError,
    Procedure,
    burn,
    card_point,
    code_card,
    point_lookup,
    shoe_of_codes,
)
from exact_odds.dealing.shuffle import batch_end, shoe_cards

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Progress = Callable[[int, int], None]
"""A progress callback: ``progress(done, total)`` in units of coups (or of shoes, where a run counts shoes)."""


def deal_coups(cards: NDArray[np.integer], tableau: Tableau = STANDARD_TABLEAU,
               detail: Detail = Detail.POINTS) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    """Deal many coups from ``cards`` (6, n), card codes in dealing order: their codes and the cards each used."""
    import numpy as np

    plays = play_many(tableau, point_lookup()[cards])
    pairs, suits = detail >= Detail.RANKS, detail >= Detail.SUITS
    player_pair = pairs and cards[0] // 4 == cards[2] // 4
    banker_pair = pairs and cards[1] // 4 == cards[3] // 4
    twin = pairs and player_pair & banker_pair & (cards[0] // 4 == cards[1] // 4)
    code = encode(plays.player, plays.banker, plays.player_cards - 2, plays.banker_cards - 2, player_pair,
                  banker_pair, suits and cards[0] == cards[2], suits and cards[1] == cards[3], twin)
    used = plays.player_cards + plays.banker_cards
    return code.astype(np.int16), used.astype(np.int8)


@dataclass(frozen=True, slots=True)
class ShoePlay:
    """Coups dealt from a block of shoes, shoe by shoe: each one's code, ``shoe`` (row), ``start`` (its first
    card's index), and when asked for the cards ``left`` before it, by card code (n, 52)."""

    codes: NDArray[np.int16]
    shoe: NDArray[np.int32]
    start: NDArray[np.int32]
    left: NDArray[np.int16] | None
    burn: Burn

    def unseen(self) -> NDArray[np.int64]:
        """The cards not seen before each coup, by rank (n, 13): those left and those burned face down."""
        import numpy as np

        hidden = self.burn.hidden.reshape(-1, len(RANKS), len(SUITS)).sum(axis=2, dtype=np.int64)
        return self._add_left(np.take(hidden, self.shoe, axis=0))

    def left_ranks(self) -> NDArray[np.int64]:
        """:attr:`left` by rank (shape (n, 13))."""
        import numpy as np

        return self._add_left(np.zeros((len(self.shoe), len(RANKS)), dtype=np.int64))

    def _add_left(self, counts: NDArray[np.int64]) -> NDArray[np.int64]:
        """``counts`` (n, 13) plus the cards left by rank, added in place suit by suit (several times faster
        than a reduction over the suits)."""
        assert self.left is not None, "play the shoes with compositions=True"
        left = self.left.reshape(-1, len(RANKS), len(SUITS))
        for suit in range(len(SUITS)):
            counts += left[:, :, suit]
        return counts

    def unseen_cards(self) -> NDArray[np.int64]:
        """The cards not seen before each coup, by card code (n, 52): those left and those burned face down."""
        assert self.left is not None, "play the shoes with compositions=True"
        import numpy as np

        return np.asarray(self.left + self.burn.hidden[self.shoe], dtype=np.int64)


DEALT_PER_COMPOSITION = 10
"""Coups the compiled dealer deals in the time it saves on one composition of the kernel."""
LOCKSTEP_ROUND = 1000
"""Coups the compiled dealer deals in the time a round of NumPy's lockstep dealer costs beside its coups."""


def compiled_dealer(coups: int, shoes: int = 0, cards: int = 0) -> ModuleType | None:
    """The compiled dealer (:mod:`exact_odds.dealing.loops`) for about ``coups`` coups from ``shoes`` whole
    shoes of ``cards`` cards (none for fresh coups), or None when NumPy's is as fast."""
    # numpy-backed: single-shoe commands never load it
    from exact_odds.batch.compiled import chosen

    batches = -(-shoes // batch_end(0, shoes, cards)) if shoes > 0 else 0
    rounds = batches * (cards // MIN_CARDS_PER_COUP)
    return chosen("exact_odds.dealing.loops", (coups + LOCKSTEP_ROUND * rounds) // DEALT_PER_COMPOSITION)


def play_shoes(cards: NDArray[np.integer], tableau: Tableau, procedure: Procedure,
               detail: Detail = Detail.POINTS, *, compositions: bool = False,
               loops: ModuleType | None = None) -> ShoePlay:
    """Deal every shoe of ``cards`` (shoes, cards per shoe; shuffles of the same cards) in lockstep, a coup per
    shoe a round, to each one's last coup; ``loops`` (:func:`compiled_dealer`) deal the same coups in one pass."""
    import numpy as np

    shoes, size = cards.shape
    rows = np.arange(shoes)
    burnt = burn(cards, procedure)
    full = np.bincount(cards[0], minlength=CARD_CODES).astype(np.int64)
    left = (full - burnt.turned - burnt.hidden).astype(np.int16) if compositions else None
    if loops is not None:
        return _compiled_play(loops, np.ascontiguousarray(cards, dtype=np.uint8), tableau, procedure, detail,
                              burnt, left)
    pos = burnt.start.copy()
    active = np.ones(shoes, dtype=bool)
    offsets = np.arange(CARDS_PER_COUP)
    rec_codes, rec_start, rec_active, rec_left = [], [], [], []
    while active.any():
        index = np.minimum(pos[:, None] + offsets, size - 1)
        six = np.take_along_axis(cards, index, axis=1).T
        code, used = deal_coups(six, tableau, detail)
        rec_codes.append(code)
        rec_start.append(pos.copy())
        rec_active.append(active.copy())
        if left is not None:
            rec_left.append(left.copy())
            for j in range(CARDS_PER_COUP):
                left[rows, six[j]] -= active & (j < used)
        last = procedure.last(pos, used, size)
        pos = np.where(active, pos + used, pos)
        active &= ~last
    mask = np.array(rec_active).T
    shoe_of = np.broadcast_to(rows[:, None], mask.shape)[mask]
    return ShoePlay(
        codes=np.array(rec_codes).T[mask],
        shoe=shoe_of.astype(np.int32),
        start=np.array(rec_start).T[mask].astype(np.int32),
        left=np.stack(rec_left, axis=1)[mask] if rec_left else None,
        burn=burnt,
    )


def _compiled_play(loops: ModuleType, cards: NDArray[np.uint8], tableau: Tableau, procedure: Procedure,
                   detail: Detail, burnt: Burn, initial: NDArray[np.int16] | None) -> ShoePlay:
    """:func:`play_shoes` by the compiled loops (the cards left before each coup from ``initial``, if given)."""
    import numpy as np

    shoes, size = cards.shape
    most = shoes * (size // MIN_CARDS_PER_COUP + 1)
    codes, shoe, start = np.empty(most, np.int16), np.empty(most, np.int32), np.empty(most, np.int32)
    lookup = draw_lookup(tableau)
    weights = np.asarray(encode(*np.eye(9, dtype=np.int64)), dtype=np.int64)  # each part's weight in the code
    n = loops.play_shoes(cards, burnt.start, point_lookup(), lookup.player, lookup.banker, STOOD, weights,
                         detail >= Detail.RANKS, detail >= Detail.SUITS, size - procedure.cut,
                         procedure.last_coup == "one-more", codes, shoe, start)
    shoe, start = shoe[:n].copy(), start[:n].copy()
    left = None
    if initial is not None:
        left = np.empty((n, initial.shape[1]), np.int16)
        loops.cards_left(cards, burnt.start, initial, shoe, start, left)
    return ShoePlay(codes=codes[:n].copy(), shoe=shoe, start=start, left=left, burn=burnt)


# ---------------------------------------------------------------- the scalar reference dealer


def deal_coup_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU,
                     detail: Detail = Detail.POINTS) -> tuple[Coup, int]:
    """Deal one coup from card codes in order (P, B, P, B, then draws): the coup and the cards it used."""
    hand = play(tableau, [card_point(c) for c in cards[:CARDS_PER_COUP]])
    p1, b1, p2, b2 = cards[:4]
    pairs = detail >= Detail.RANKS
    suits = detail >= Detail.SUITS
    player_pair = pairs and p1 // 4 == p2 // 4
    banker_pair = pairs and b1 // 4 == b2 // 4
    coup = Coup(hand.player, hand.banker, hand.player_cards, hand.banker_cards, player_pair, banker_pair,
                suits and p1 == p2, suits and b1 == b2, player_pair and banker_pair and p1 // 4 == b1 // 4)
    return coup, hand.cards


def play_shoe_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU,
                     procedure: Procedure = STANDARD_PROCEDURE,
                     detail: Detail = Detail.POINTS) -> list[tuple[int, Coup]]:
    """Deal a whole shuffled shoe by the procedure, one coup at a time: (index of its first card, coup)."""
    pos = procedure.burned(cards[0])
    out: list[tuple[int, Coup]] = []
    while True:
        coup, used = deal_coup_simple(cards[pos:pos + CARDS_PER_COUP], tableau, detail)
        out.append((pos, coup))
        last = procedure.last(pos, used, len(cards))
        pos += used
        if last:
            return out


@dataclass(frozen=True, slots=True)
class ShoeCoup:
    """Coup number ``coup`` (1-based) of the ``coups`` of a simulated shoe: the index of its first card, the
    burned cards, the shoe ``remaining`` before it, and the next six cards in dealing order."""

    coup: int
    coups: int
    start: int
    burn: tuple[Card, ...]
    remaining: Shoe
    cards: tuple[Card, ...]


def _whole_shoes(shoe: Shoe, procedure: Procedure, why: str) -> None:
    procedure.check(shoe)
    if procedure.fresh:
        raise DealingError(why)


def shoe_coup(shoe: Shoe, seed: int, *, coup: int = 1, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
              procedure: Procedure = STANDARD_PROCEDURE) -> ShoeCoup:
    """Coup number ``coup`` of shoe number ``index`` of a run of whole shoes with ``seed``."""
    _whole_shoes(shoe, procedure, "a coup from a fresh shoe has no place in a shoe: leave out --fresh")
    cards = shoe_cards(shoe, seed, index)
    coups = play_shoe_simple(cards, tableau, procedure)
    if not 1 <= coup <= len(coups):
        raise DealingError(f"this shoe has {len(coups)} coups; choose a coup from 1 to {len(coups)}")
    start = coups[coup - 1][0]
    suited = shoe.suited is not None
    burned = cards[:procedure.burned(cards[0])]
    return ShoeCoup(coup, len(coups), start, tuple(code_card(c, suited=suited) for c in burned),
                    shoe_of_codes(cards[start:], suited=suited),
                    tuple(code_card(c, suited=suited) for c in cards[start:start + CARDS_PER_COUP]))


def shoe_winners(shoe: Shoe, seed: int, *, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
                 procedure: Procedure = STANDARD_PROCEDURE) -> list[Winner]:
    """The winner of every coup of shoe number ``index`` of a run of whole shoes with ``seed``."""
    _whole_shoes(shoe, procedure, "fresh shoes make no shoe to follow: leave out --fresh")
    return [coup.winner for _, coup in play_shoe_simple(shoe_cards(shoe, seed, index), tableau, procedure)]
