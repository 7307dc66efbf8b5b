"""The dealer's loops over whole shoes, compiled (numba); imported only through :mod:`exact_odds.batch.compiled`.

:func:`play_shoes` deals shoe by shoe the coups NumPy's lockstep dealer deals round by round (the same
tableau lookups and coup codes); :func:`shuffle_rows` draws the same numbers as ``Generator.permuted``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

_jit = numba.njit(cache=True, nogil=True)


@_jit
def play_shoes(cards: NDArray[np.uint8], start: NDArray[np.int64], points: NDArray[np.int16],
               player_draws: NDArray[np.bool_], banker_draws: NDArray[np.bool_], stood: int,
               weights: NDArray[np.int64], pairs: bool, suited: bool, limit: int, one_more: bool,
               codes: NDArray[np.int16], shoe: NDArray[np.int32], starts: NDArray[np.int32]) -> int:
    """Deal every shoe of ``cards`` from ``start[s]`` to its last coup (with ``one_more`` the one starting at
    ``limit`` or later, else the one whose cards pass ``limit``; cards past the end read as the last).
    ``weights``: each part's weight in the code, in :func:`exact_odds.core.coup.encode`'s order. Writes each
    coup's code, shoe and first card's index; returns the number of coups."""
    last_card = cards.shape[1] - 1
    n = 0
    c = np.zeros(6, np.int64)  # the coup's six cards
    for s in range(cards.shape[0]):
        pos = start[s]
        while True:
            for e in range(6):
                c[e] = cards[s, min(pos + e, last_card)]
            player2 = (points[c[0]] + points[c[2]]) % 10
            banker2 = (points[c[1]] + points[c[3]]) % 10
            player_drew = player_draws[player2, banker2]
            third = points[c[4]] if player_drew else stood
            banker_drew = banker_draws[player2, banker2, third]
            player = (player2 + points[c[4]]) % 10 if player_drew else player2
            banker_card = points[c[5]] if player_drew else points[c[4]]
            banker = (banker2 + banker_card) % 10 if banker_drew else banker2
            player_pair = pairs and c[0] // 4 == c[2] // 4
            banker_pair = pairs and c[1] // 4 == c[3] // 4
            twin = player_pair and banker_pair and c[0] // 4 == c[1] // 4
            code = (weights[0] * player + weights[1] * banker + weights[2] * player_drew + weights[3] * banker_drew
                    + weights[4] * player_pair + weights[5] * banker_pair + weights[6] * (suited and c[0] == c[2])
                    + weights[7] * (suited and c[1] == c[3]) + weights[8] * twin)
            used = 4 + player_drew + banker_drew
            codes[n], shoe[n], starts[n] = code, s, pos
            n += 1
            if (pos >= limit) if one_more else (pos + used > limit):
                break
            pos += used
    return n


@_jit
def cards_left(cards: NDArray[np.uint8], start: NDArray[np.int64], initial: NDArray[np.int16],
               shoe: NDArray[np.int32], starts: NDArray[np.int32], left: NDArray[np.int16]) -> None:
    """``left[i]``: the cards left before coup ``i`` (as :func:`play_shoes` wrote them), by card code: the
    shoe's ``initial`` counts less its cards from ``start[shoe]`` up to the coup's first."""
    current = -1
    pos = 0
    last_card = cards.shape[1] - 1
    running = np.zeros(initial.shape[1], np.int16)
    for i in range(shoe.shape[0]):
        s = shoe[i]
        if s != current:
            running[:] = initial[s]
            pos, current = start[s], s
        while pos < starts[i]:
            running[cards[s, min(pos, last_card)]] -= 1
            pos += 1
        left[i] = running


@_jit
def shuffle_rows(next_uint32: Any, state: int, rows: NDArray[np.uint8]) -> None:
    """Shuffle each row in place, in order, as ``Generator.permuted(rows, axis=1)`` does: Fisher-Yates from the
    last item down, ``j`` drawn as NumPy's ``random_interval`` draws it (masked 32-bit draws, rejected
    above ``i``) from the bit generator's ``ctypes`` ``next_uint32(state)``."""
    n = rows.shape[1]
    for r in range(rows.shape[0]):
        row = rows[r]
        for i in range(n - 1, 0, -1):
            mask = i | (i >> 1)
            mask |= mask >> 2
            mask |= mask >> 4
            mask |= mask >> 8
            mask |= mask >> 16
            j = next_uint32(state) & mask
            while j > i:
                j = next_uint32(state) & mask
            item = row[i]
            row[i] = row[j]
            row[j] = item
