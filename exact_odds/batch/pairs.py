"""Pairs in closed form: the ways of each pair-flag state of the first four cards.

A functional that depends on the pair flags alone (:mod:`exact_odds.batch.leading`) is
``(N-4)(N-5) * sum over states s of w[s] * L_s(c)``, ``L_s`` the ordered four-card beginnings
(player, banker, player, banker) of flag state ``s`` (``code // PLAYER_PAIR``). Those sums
have closed forms in a few sums over ranks, so no table of four-card multisets is needed.
With ``(x)_k`` the falling factorial, ``c_r`` the rank counts, ``N`` the cards and
``S = sum_r (c_r)_2`` (ordered pairs of one rank):

- twin pair (both hands pair in one rank): ``Q = sum_r (c_r)_4``;
- both hands pair, in two ranks: ``X = S**2 - sum_r (c_r)_2**2``;
- the player pairs and the banker does not: ``S (N-2)_2 - X - Q`` (and the same for the banker);
- neither: ``(N)_4 - 2 S (N-2)_2 + X + Q``.

At ``Detail.SUITS`` the states also carry the suited variants of :mod:`exact_odds.batch.suited`
(a hand's pair restricted to one rank *and* suit). With ``e_rs`` the counts per rank and suit,
``g_r = sum_s (e_rs)_2`` (ordered suited pairs of rank ``r``) and ``G = sum_r g_r``:

- the player's pair suited, the banker's a pair of another rank: ``sum_r g_r (S - (c_r)_2)``;
  of the same rank: ``sum_r g_r (c_r - 2)_2``; no pair: ``G (N-2)_2`` less those two;
- both suited, two ranks: ``G**2 - sum_r g_r**2``; one rank: ``sum_r (g_r**2 - sum_s
  (e_rs)_2**2 + sum_s (e_rs)_4)`` (the same suit twice takes four cards of it);

and the banker's variants are the player's by symmetry. All of it is exact in int64 wherever
the sequences ``(N)_6`` are; :mod:`exact_odds.batch.plan` uses it there and checks it against
the four-card tables in the tests.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

NONE, PLAYER, BANKER, BOTH, TWIN = 0, 1, 2, 3, 19
"""Flag states (``code // PLAYER_PAIR``) of the first four cards by rank: no pair, the player's
pair alone, the banker's alone, both in two ranks, both in one rank (a twin pair)."""
PLAYER_SUITED, BANKER_SUITED = 4, 8
"""Bits of a flag state restricting the player's or the banker's pair to be suited."""
RANK_STATES = (NONE, PLAYER, BANKER, BOTH, TWIN)
SUITED_STATES = (PLAYER + PLAYER_SUITED, BOTH + PLAYER_SUITED, TWIN + PLAYER_SUITED,
                 BANKER + BANKER_SUITED, BOTH + BANKER_SUITED, TWIN + BANKER_SUITED,
                 BOTH + PLAYER_SUITED + BANKER_SUITED, TWIN + PLAYER_SUITED + BANKER_SUITED)


def _sum(a: Any, axes: str = "ij->i") -> IntArray:
    """Sums along short rows (``einsum``: several times faster than ``sum(axis=...)`` there)."""
    return np.asarray(np.einsum(axes, a), dtype=np.int64)


def rank_states(counts: IntArray, sizes: IntArray, pairs: IntArray | None = None) -> dict[int, IntArray]:
    """``L_s`` of each rank state (see the module) of rank counts ``counts`` (n, 13) of ``sizes`` cards
    (``pairs``: ``counts * (counts - 1)``, if the caller has it)."""
    pairs = counts * (counts - 1) if pairs is None else pairs
    same = _sum(pairs)
    twin = _sum(pairs * (counts - 2) * (counts - 3))
    both = same * same - _sum(pairs * pairs)
    rest = (sizes - 2) * (sizes - 3)
    alone = same * rest - both - twin
    neither = sizes * (sizes - 1) * rest - 2 * same * rest + both + twin
    return {NONE: neither, PLAYER: alone, BANKER: alone, BOTH: both, TWIN: twin}


def suited_states(counts: IntArray, suits: IntArray, sizes: IntArray) -> dict[int, IntArray]:
    """``L_s`` of every state at ``Detail.SUITS``: the rank states and their suited variants
    (``suits``: counts per rank and suit, (n, 13, 4))."""
    pairs = counts * (counts - 1)
    states = rank_states(counts, sizes, pairs)
    suited = suits * (suits - 1)
    g = _sum(suited, "ijk->ij")
    every = _sum(g)
    other = every * _sum(pairs) - _sum(g * pairs)
    within = _sum(g * (counts - 2) * (counts - 3))
    alone = every * (sizes - 2) * (sizes - 3) - other - within
    squares = _sum(g * g)
    twins = squares - _sum(suited * suited, "ijk->i") + _sum(suited * (suits - 2) * (suits - 3), "ijk->i")
    states.update({PLAYER + PLAYER_SUITED: alone, BANKER + BANKER_SUITED: alone,  # the banker's: by symmetry
                   BOTH + PLAYER_SUITED: other, BOTH + BANKER_SUITED: other,
                   TWIN + PLAYER_SUITED: within, TWIN + BANKER_SUITED: within,
                   BOTH + PLAYER_SUITED + BANKER_SUITED: every * every - squares,
                   TWIN + PLAYER_SUITED + BANKER_SUITED: twins})
    return states


def flag_ways(weights: IntArray, counts: IntArray, suits: IntArray | None, sizes: IntArray,
              fast: ModuleType | None = None) -> IntArray:
    """Ways of the functionals ``weights[state, f]`` (on the pair flags alone) over ordered six-card
    sequences: ``(N-4)(N-5) sum_s w[s] L_s``, int64 (n, f), by the compiled loop ``fast.flag_ways``
    when given. Exact when ``w (N)_6`` fits int64."""
    if fast is not None:
        out = np.empty((len(counts), weights.shape[1]), dtype=np.int64)
        unsuited = np.zeros((0, 0, 0), dtype=np.int64)
        used = np.flatnonzero(weights.any(axis=1))
        fast.flag_ways(np.ascontiguousarray(counts), unsuited if suits is None else np.ascontiguousarray(suits),
                       suits is not None, sizes, np.ascontiguousarray(weights), used, out)
        return out
    states = rank_states(counts, sizes) if suits is None else suited_states(counts, suits, sizes)
    out = np.zeros((len(counts), weights.shape[1]), dtype=np.int64)
    for state, ways in states.items():
        for f in np.flatnonzero(weights[state]).tolist():
            out[:, f] += int(weights[state, f]) * ways
    return out * ((sizes - 4) * (sizes - 5))[:, None]
