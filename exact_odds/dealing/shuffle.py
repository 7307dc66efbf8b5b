"""Seeds and shuffles: which cards a seeded run deals, reproducibly (docs/checking.md, "Randomness").

Block ``i`` of :data:`FRESH_BLOCK` coups or :data:`SHOE_BLOCK` shoes draws from :func:`block_rng`; shoe ``i``
is row ``i % SHOE_BLOCK`` of block ``i // SHOE_BLOCK``, whatever the scheduling. The block sizes are part of
what a seed means.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.dealing.procedure import DealingError, shoe_card_codes
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FRESH_BLOCK = 1 << 18
"""Coups per block of fresh shoes."""
SHOE_BLOCK = 2048
"""Shoes per block of whole shoes."""
BATCH_CARDS = 1 << 22
"""The most cards of whole shoes shuffled and dealt at once (not part of what a seed means)."""


def shoes_for(coups: int, cards: int) -> int:
    """About how many shoes of ``cards`` cards deal ``coups`` coups: a coup per six cards, and a shoe more."""
    return -(-coups * CARDS_PER_COUP // max(cards, 1)) + 1


def _batch_rows(cards: int) -> int:
    return max(1, BATCH_CARDS // max(cards, 1))


def batch_end(first: int, stop: int, cards: int) -> int:
    """The end of the batch dealt from shoe ``first`` toward ``stop``: within ``first``'s block, at most
    :data:`BATCH_CARDS` cards, one shoe at least."""
    return min(stop, (first // SHOE_BLOCK + 1) * SHOE_BLOCK, first + _batch_rows(cards))


def random_seed() -> int:
    """A fresh seed from the operating system's entropy."""
    return secrets.randbits(32)


def check_seed(seed: int) -> None:
    """Raise :class:`DealingError` unless ``seed`` is a whole number of at least 0."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DealingError(f"a seed must be a whole number of at least 0, got {shown(seed)}")


def block_rng(seed: int, block: int) -> np.random.Generator:
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))


def fresh_six(rng: np.random.Generator, size: int, n: int, *, infinite: bool = False) -> NDArray[np.int64]:
    """Indices (6, n) into a shoe of ``size`` cards: the first six cards of ``n`` shuffles, by a partial
    Fisher-Yates shuffle tracking only six swaps (with ``infinite``: drawn with replacement)."""
    import numpy as np

    if infinite:
        return np.stack([rng.integers(0, size, size=n) for _ in range(CARDS_PER_COUP)])
    picks = [rng.integers(k, size, size=n) for k in range(CARDS_PER_COUP)]
    dealt: list[NDArray[np.int64]] = []
    moved: list[NDArray[np.int64]] = []  # moved[m]: the card placed at position picks[m] by step m
    for k in range(CARDS_PER_COUP):
        card = picks[k].copy()
        displaced = np.full(n, k, dtype=np.int64)
        for m in range(k):
            card = np.where(picks[k] == picks[m], moved[m], card)
            displaced = np.where(picks[m] == k, moved[m], displaced)
        dealt.append(card)
        moved.append(displaced)
    return np.stack(dealt)


def shuffled_shoes(rng: np.random.Generator, codes: Sequence[int], shoes: int, *,
                   loops: ModuleType | None = None) -> NDArray[np.uint8]:
    """``shoes`` shuffles of ``codes``, one per row in order: ``rng.permuted``, or the same by the compiled
    ``loops`` (:func:`exact_odds.dealing.loops.shuffle_rows`)."""
    import numpy as np

    rows = np.tile(np.asarray(codes, dtype=np.uint8), (shoes, 1))
    if loops is None or len(codes) > 2**32:
        out: NDArray[np.uint8] = rng.permuted(rows, axis=1)
        return out
    bits = rng.bit_generator
    with bits.lock:
        loops.shuffle_rows(bits.ctypes.next_uint32, bits.ctypes.state_address, rows)
    return rows


def shoe_orders(codes: Sequence[int], seed: int, first: int, stop: int, *,
                loops: ModuleType | None = None) -> NDArray[np.uint8]:
    """Shoes ``first`` to ``stop - 1`` of a run with ``seed``, one per row (``loops``: the compiled dealer's).
    The rows of a block before ``first`` are shuffled too, and dropped."""
    import numpy as np

    parts = []
    for block in range(first // SHOE_BLOCK, (stop - 1) // SHOE_BLOCK + 1):
        base = block * SHOE_BLOCK
        start, end = max(first - base, 0), min(stop - base, SHOE_BLOCK)
        rng = _block_at(seed, block, len(codes), start)
        parts.append(shuffled_shoes(rng, codes, end - start, loops=loops))
        _RESUME.state = (seed, block, len(codes), end, rng)
    return np.concatenate(parts)


_RESUME = threading.local()
"""Per thread, ``(seed, block, cards, rows, generator)``: where :func:`shoe_orders` left off."""


def _block_at(seed: int, block: int, cards: int, row: int) -> np.random.Generator:
    """The generator of ``block`` ready to shuffle its row ``row``: the rows before are shuffled and dropped,
    but a worker dealing consecutive tasks of one block takes up where the last task left off."""
    import numpy as np

    saved = getattr(_RESUME, "state", None)
    rng: np.random.Generator
    if saved is not None and saved[:3] == (seed, block, cards) and saved[3] <= row:
        rng, done = saved[4], saved[3]
        _RESUME.state = None  # the generator moves on: never resumed twice
    else:
        rng, done = block_rng(seed, block), 0
    piece = _batch_rows(cards)  # rows are shuffled in order: in pieces, the same draws
    while row > done:
        rng.permuted(np.zeros((min(piece, row - done), cards), dtype=np.intp), axis=1)
        done += min(piece, row - done)
    return rng


def shoe_cards(shoe: Shoe, seed: int, index: int = 0) -> list[int]:
    """The card codes of shoe number ``index`` of a run with ``seed``, in dealing order."""
    check_seed(seed)
    return [int(c) for c in shoe_orders(shoe_card_codes(shoe), seed, index, index + 1)[0]]
