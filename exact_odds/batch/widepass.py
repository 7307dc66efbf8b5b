"""Shoes past int64 on the compiled path, in 64-bit words until the end.

The kernel's exact sums come out of :func:`~exact_odds.batch.modfused.residue_words` as
little-endian 64-bit words (a pass of pair bets: the closed forms of :mod:`exact_odds.batch.pairs`
modulo ``2**64`` and two primes, :func:`~exact_odds.batch.wordloops.flag_words`). Here the
sequences ``N (N-1) ... (N-5)`` are made in words too
(:func:`~exact_odds.batch.wordloops.sequence_words`), and every integer an evaluation keeps
(banker, player, the sequences, the bets' numerators) is an integer combination of those words
over a small divisor, with its checks (a count of every sequence equal to the sequences, the
division exact, the result within its bytes): one compiled pass on 32-bit limbs
(:func:`~exact_odds.batch.wordloops.pickled_combinations`) writes each result as an item of one
pickle, and loading it makes the Python integers, once, at the end (no Python integer of a
functional; the tie is two subtractions of Python integers, :mod:`exact_odds.batch.evaluation`).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.compiled import loops, module
from exact_odds.batch.kinds import kind_counts
from exact_odds.batch.plan import INT64_MAX_CARDS, RESIDUE_WORK, VARIANTS, Plan
from exact_odds.batch.residues import moduli_limit, primes_below
from exact_odds.core.shoe import CARDS_PER_COUP, falling

if TYPE_CHECKING:
    import numpy.typing as npt


    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]

COEFFICIENT_LIMIT = 2**31
"""A combination's coefficients' magnitudes must add up to less than this, and a divisor be below
it (32-bit limbs times the sum, and a remainder times ``2**32``, stay below ``2**63``)."""
ANY, ZERO = 0, 1
"""The checks of a combination besides its division: none; it must be zero (then it is a check alone,
and not returned)."""
HEAD, TAIL = b"\x80\x02N0](", b"e."
"""A protocol-2 pickle of a list: PROTO 2, NONE and POP (two bytes that do nothing, so that the items'
bytes start on 8-byte words), EMPTY_LIST, MARK; after the items APPENDS, STOP."""


HALF_MAX_CARDS = 2_097_151
"""Largest shoe whose three-card sequences ``N (N-1) (N-2)`` int64 holds (below ``2**63``)."""


def _falling_int64(sizes: IntArray, start: int, count: int) -> IntArray:
    """``(N - start) (N - start - 1) ... (N - start - count + 1)`` per shoe, int64 (it must fit)."""
    out = np.ones_like(sizes)
    for i in range(start, start + count):
        out = out * (sizes - i)
    return out


def sequences(sizes: IntArray) -> Array:
    """N (N-1) ... (N-5) per shoe, int64 when every shoe fits, else Python integers (the
    product of two int64 halves, three cards each, up to :data:`HALF_MAX_CARDS` cards)."""
    largest = int(sizes.max(initial=0))
    if largest <= INT64_MAX_CARDS:
        return _falling_int64(sizes, 0, CARDS_PER_COUP)
    if largest <= HALF_MAX_CARDS:
        half = CARDS_PER_COUP // 2
        first, second = _falling_int64(sizes, 0, half), _falling_int64(sizes, half, half)
        product: Array = first.astype(object) * second.astype(object)
        return product
    return np.array([falling(int(s), CARDS_PER_COUP) for s in sizes.tolist()], dtype=object)


def loaded(count: int) -> tuple[ModuleType, ModuleType] | None:
    """The compiled loops of :func:`combined` for ``count`` compositions past int64 (each counting
    :data:`~exact_odds.batch.plan.RESIDUE_WORK`), or None (NumPy: the usual steps)."""
    work = count * RESIDUE_WORK
    residue_loops, word_loops = module("exact_odds.batch.modloops", work), module("exact_odds.batch.wordloops", work)
    return None if residue_loops is None or word_loops is None else (residue_loops, word_loops)


def usable(combinations: Sequence[tuple[tuple[int, ...], int, int]]) -> bool:
    """Whether :func:`combined` can take these combinations (coefficients and divisors small enough)."""
    return all(sum(map(abs, c)) < COEFFICIENT_LIMIT and 0 < d < COEFFICIENT_LIMIT for c, d, _ in combinations)


def _pair_words(plan: Plan, counts: IntArray, sizes: IntArray, order: IntArray, fast: ModuleType) -> IntArray | None:
    """The plan's sums as two 64-bit words each (len(order), functionals, 2) by the closed forms of
    :mod:`exact_odds.batch.pairs` modulo ``2**64`` and two primes (:func:`~exact_odds.batch.wordloops
    .flag_words`) when every functional depends on the pair flags by rank alone and the sums stay
    below the moduli's product (at most ``VARIANTS w N**6``, as :func:`~exact_odds.batch.plan.ways`
    bounds them), else None (the kernel's tables)."""
    if plan.flags is None or plan.space.suited or not len(order):
        return None
    p, q = primes_below(2**31, 2)
    top = max(int(plan.flags.max(initial=0)), *plan.weights)
    if VARIANTS * top * int(sizes[order[-1]]) ** CARDS_PER_COUP >= 2**64 * p * q:
        return None
    words = np.empty((len(order), plan.classes, 2), dtype=np.int64)
    inverses = np.array([pow(2**64, -1, p), pow(2**64, -1, q), pow(p, -1, q)], dtype=np.int64)
    fast.flag_words(counts, sizes, order, np.ascontiguousarray(plan.flags), np.flatnonzero(plan.flags.any(axis=1)),
                    np.array([p, q], dtype=np.int64), inverses, words)
    return words


def combined(plan: Plan, counts: IntArray, sizes: IntArray, rows: IntArray, fast: tuple[ModuleType, ModuleType],
             combinations: Sequence[tuple[tuple[int, ...], int, int]]) -> Array:
    """Each combination (:func:`usable`) of the plan's exact sums and the sequences, for the
    compositions ``counts[rows]`` (rank counts; ``sizes``: their cards), divided exactly and
    checked: an object array of Python integers (len(rows), combinations but the checks alone);
    ``fast``: :mod:`exact_odds.batch.modloops` and :mod:`exact_odds.batch.wordloops` (:func:`loaded`).
    A failed check raises ``AssertionError``.
    The kernel takes the shoes smallest first (``order``, so that its chunks take few primes), and
    each result is written straight to its place among ``rows``."""
    place = np.argsort(sizes[rows], kind="stable")
    order = rows[place]
    words = _pair_words(plan, counts, sizes, order, fast[1])
    if words is None:
        from exact_odds.batch.modfused import residue_words  # imported when a pass first needs the kernel's tables

        kinds = kind_counts(counts, plan.space.detail, loops(len(counts)))
        words = residue_words(plan, kinds, order, sizes, moduli_limit(plan), fast[0])
        for functional, twin in plan.copies:
            words[:, functional] = words[:, twin]
    sequences = np.empty((len(order), 1, words.shape[2]), dtype=np.int64)
    fast[1].sequence_words(sizes, order, sequences[:, 0])
    words = np.concatenate([words, sequences], axis=1)
    starts, columns, coefficients = [0], [], []
    for combo, _, _ in combinations:
        used = [(c, a) for c, a in enumerate(combo) if a]
        columns += [c for c, _ in used]
        coefficients += [a for _, a in used]
        starts.append(len(columns))
    rules = np.array([rule for _, _, rule in combinations], dtype=np.int64)
    slots = np.cumsum(rules != ZERO) - 1
    kept = int((rules != ZERO).sum())
    largest = max(plan.weights, default=1) * int(sizes[order[-1]]) ** CARDS_PER_COUP if len(order) else 1
    size = -(-(max(sum(map(abs, c)) for c, _, _ in combinations) * largest).bit_length() // 8) + 1  # and a sign
    size += -(size + 2) % 8  # records of whole words
    out = np.empty(len(HEAD) + kept * len(order) * (2 + size) + len(TAIL), dtype=np.uint8)
    out[:len(HEAD)], out[len(HEAD):len(HEAD) + 2] = tuple(HEAD), (0x8A, size)
    bad = fast[1].pickled_combinations(words, np.array(starts, dtype=np.int64), np.array(columns, dtype=np.int64),
                                       np.array(coefficients, dtype=np.int64),
                                       np.array([d for _, d, _ in combinations], dtype=np.int64), rules, slots,
                                       place, size, out.view(np.uint64))
    out[len(out) - len(TAIL):] = tuple(TAIL)
    if bad:
        raise AssertionError("bulk evaluation lost ways (please report this bug)")
    found: Array = np.fromiter(pickle.loads(out.data), dtype=np.object_, count=kept * len(order))
    return found.reshape(len(order), kept)
