"""The one vectorised dealer: many coups, or many whole shoes in lockstep, at once.

A coup is played by :func:`exact_odds.core.tableau.play_many` (the tableau's one vectorised
form of its rule) from the cards' point values, and written as the one coup code of
:func:`exact_odds.core.coup.encode`. :func:`play_shoes` deals whole shoes by the
:class:`~exact_odds.dealing.procedure.Procedure` (burn, cut card, last coup). The scalar
dealer of :mod:`exact_odds.dealing.simple` does the same one coup at a time; tests check
that both agree on many random shoes and tableaux.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from exact_odds.core.coup import Detail, encode
from exact_odds.core.shoe import CARDS_PER_COUP, MIN_CARDS_PER_COUP, RANKS, SUITS
from exact_odds.core.tableau import STANDARD_TABLEAU, STOOD, Tableau, draw_lookup, play_many
from exact_odds.dealing.cards import CARD_CODES, point_lookup
from exact_odds.dealing.procedure import Burn, Procedure, burn
from exact_odds.dealing.shuffle import batch_end

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Progress = Callable[[int, int], None]
"""A progress callback: ``progress(done, total)`` in units of coups (or of shoes, where a run counts shoes)."""


def deal_coups(cards: NDArray[np.integer], tableau: Tableau = STANDARD_TABLEAU,
               detail: Detail = Detail.POINTS) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    """Deal many coups at once from ``cards`` of shape (6, n) (card codes in dealing order).

    Returns the coup codes (:func:`exact_odds.core.coup.encode`) and the number of cards each
    coup used (4 to 6). Pair flags are recorded as far as ``detail`` asks: pairs by rank and
    the twin pair from ``RANKS``, suited pairs (the same card code) from ``SUITS``.
    """
    import numpy as np

    plays = play_many(tableau, point_lookup()[cards])
    player_pair: Any = False
    banker_pair: Any = False
    twin: Any = False
    if detail >= Detail.RANKS:
        ranks = cards // 4
        player_pair, banker_pair = ranks[0] == ranks[2], ranks[1] == ranks[3]
        twin = player_pair & banker_pair & (ranks[0] == ranks[1])
    suits = detail >= Detail.SUITS
    code = encode(plays.player, plays.banker, plays.player_cards - 2, plays.banker_cards - 2, player_pair,
                  banker_pair, suits and cards[0] == cards[2], suits and cards[1] == cards[3], twin)
    used = plays.player_cards + plays.banker_cards
    return code.astype(np.int16), used.astype(np.int8)


@dataclass(frozen=True, slots=True)
class ShoePlay:
    """Coups dealt from a block of shoes, in order shoe by shoe.

    ``codes``: coup codes; ``shoe``: the shoe (row) of each coup; ``start``: the index of
    the coup's first card in its shoe; ``left``: when asked for, the cards left in the shoe
    before each coup (the burn's cards are gone), counted by card code (shape (n, 52));
    ``burn``: what the burn did to each shoe.
    """

    codes: NDArray[np.int16]
    shoe: NDArray[np.int32]
    start: NDArray[np.int32]
    left: NDArray[np.int16] | None
    burn: Burn

    def unseen(self) -> NDArray[np.int64]:
        """The cards not seen before each coup, by rank (shape (n, 13)): the cards left in the shoe and
        those burned face down. The turned burn card and the cards of the shoe's earlier coups are seen."""
        import numpy as np

        hidden = self.burn.hidden.reshape(-1, len(RANKS), len(SUITS)).sum(axis=2, dtype=np.int64)
        return self._add_left(np.take(hidden, self.shoe, axis=0))

    def left_ranks(self) -> NDArray[np.int64]:
        """:attr:`left` by rank (shape (n, 13))."""
        import numpy as np

        return self._add_left(np.zeros((len(self.shoe), len(RANKS)), dtype=np.int64))

    def _add_left(self, counts: NDArray[np.int64]) -> NDArray[np.int64]:
        """``counts`` (n, 13) plus the cards left before each coup by rank, added in place suit by suit
        (a reduction over the four suits, or a second array of the coups' size, takes several times as
        long)."""
        assert self.left is not None, "play the shoes with compositions=True"
        left = self.left.reshape(-1, len(RANKS), len(SUITS))
        for suit in range(len(SUITS)):
            counts += left[:, :, suit]
        return counts

    def unseen_cards(self) -> NDArray[np.int64]:
        """:meth:`unseen` by card code (shape (n, 52))."""
        assert self.left is not None, "play the shoes with compositions=True"
        import numpy as np

        return np.asarray(self.left + self.burn.hidden[self.shoe], dtype=np.int64)


DEALT_PER_COMPOSITION = 10
"""Coups the compiled dealer deals in the time it saves on one composition of the kernel (about 0.1 us
a coup, against 1 us): it loads the compiled loops (about 0.6 s and 120 MB) only for runs ten times as
large (a study that wants them for its compositions passes them itself)."""


LOCKSTEP_ROUND = 1000
"""Coups the compiled dealer deals in the time a round of NumPy's lockstep dealer costs beside its coups
(90 to 300 us: a round deals one coup of every shoe of a batch, so a batch of a few shoes of many cards
takes about as many rounds as coups, a quarter of its cards at most)."""


def compiled_dealer(coups: int, shoes: int = 0, cards: int = 0) -> ModuleType | None:
    """The compiled dealer (:mod:`exact_odds.dealing.loops`) for a run of about ``coups`` coups, from
    ``shoes`` whole shoes of ``cards`` cards dealt in batches (:func:`exact_odds.dealing.batch_end`; none
    for fresh coups), or None for NumPy's (:func:`exact_odds.batch.compiled.module` decides on the
    coups and NumPy's rounds)."""
    # numpy-backed: single-shoe commands never load it
    from exact_odds.batch.compiled import module

    batches = -(-shoes // batch_end(0, shoes, cards)) if shoes > 0 else 0
    rounds = batches * (cards // MIN_CARDS_PER_COUP)
    return module("exact_odds.dealing.loops", (coups + LOCKSTEP_ROUND * rounds) // DEALT_PER_COMPOSITION)


def play_shoes(cards: NDArray[np.integer], tableau: Tableau, procedure: Procedure,
               detail: Detail = Detail.POINTS, *, compositions: bool = False,
               loops: ModuleType | None = None) -> ShoePlay:
    """Deal every shoe of ``cards`` (shape (shoes, cards per shoe), all shuffles of the same cards) in
    lockstep, one coup per shoe a round, until the procedure's last coup of each. ``loops``: the
    compiled loops (:mod:`exact_odds.dealing.loops`, from :func:`exact_odds.batch.compiled.module`),
    which deal the same coups shoe by shoe in one pass (and count the cards left before each)."""
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
    """:func:`play_shoes` by the compiled loops (the same coups; the cards left before each, from each
    shoe's ``initial`` cards after the burn, if given)."""
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
