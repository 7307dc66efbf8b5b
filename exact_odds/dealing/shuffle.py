"""Seeds and shuffles: which cards a seeded run deals, reproducibly.

Every random number comes from NumPy's ``numpy.random.default_rng`` (the PCG64 generator)
seeded by ``numpy.random.SeedSequence``. Work is cut into blocks of fixed size
(:data:`FRESH_BLOCK` coups or :data:`SHOE_BLOCK` shoes); block ``i`` draws from
``default_rng(SeedSequence(seed, spawn_key=(i,)))`` (:func:`block_rng`), so a run depends
only on the seed and the options, never on timing or on how the work is scheduled. Shoe
``i`` of a run is row ``i % SHOE_BLOCK`` of block ``i // SHOE_BLOCK`` (:func:`shoe_orders`):
it depends only on the seed and ``i``, so the simulator, the studies and the ``deal`` and
``roads`` commands deal the same shoes for the same seed. The block sizes are part of what a
seed means: changing them changes every run. NumPy is imported lazily.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.dealing.cards import shoe_card_codes
from exact_odds.dealing.procedure import DealingError
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FRESH_BLOCK = 1 << 18
"""Coups per block of fresh shoes (part of what a seed means: changing it changes the streams)."""

SHOE_BLOCK = 2048
"""Shoes per block of whole shoes (part of what a seed means)."""

BATCH_CARDS = 1 << 22
"""The most cards of whole shoes shuffled and dealt at once (4 MB of card codes, and what dealing them
takes beside): 8-deck shoes come a whole :data:`SHOE_BLOCK` at a time, shoes of 10,000 decks eight at
a time. Not part of what a seed means: a shoe depends only on the seed and its index."""


def shoes_for(coups: int, cards: int) -> int:
    """About how many shoes of ``cards`` cards deal ``coups`` coups: a coup per six cards, and a shoe
    more (shoes whose cut card comes early deal fewer, and more of them are then dealt)."""
    return -(-coups * CARDS_PER_COUP // max(cards, 1)) + 1


def _batch_rows(cards: int) -> int:
    """The most shoes of ``cards`` cards shuffled at once: :data:`BATCH_CARDS` cards, one shoe at least."""
    return max(1, BATCH_CARDS // max(cards, 1))


def batch_end(first: int, stop: int, cards: int) -> int:
    """One past the last shoe of the batch dealt from shoe ``first`` on toward ``stop`` (shoes of ``cards``
    cards): within the block of :data:`SHOE_BLOCK` shoes that holds ``first``, at most
    :data:`BATCH_CARDS` cards, and one shoe at least."""
    return min(stop, (first // SHOE_BLOCK + 1) * SHOE_BLOCK, first + _batch_rows(cards))


def random_seed() -> int:
    """A fresh seed from the operating system's entropy (reports print it so a run can be repeated)."""
    return secrets.randbits(32)


def check_seed(seed: int) -> None:
    """Raise :class:`DealingError` unless ``seed`` is a whole number of at least 0."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DealingError(f"a seed must be a whole number of at least 0, got {shown(seed)}")


def block_rng(seed: int, block: int) -> np.random.Generator:
    """The generator of block ``block``: ``default_rng(SeedSequence(seed, spawn_key=(block,)))``."""
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))


def fresh_six(rng: np.random.Generator, size: int, n: int, *, infinite: bool = False) -> NDArray[np.int64]:
    """Indices (6, n) into a shoe of ``size`` cards: the first six cards of ``n`` independent shuffles.

    A partial Fisher-Yates shuffle: step ``k`` picks a position uniformly among the cards
    not yet dealt and swaps it forward; only the six swaps are tracked, which gives the six
    cards exactly the law of the first six cards of a full shuffle. With ``infinite`` every
    card is drawn independently (with replacement).
    """
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
    """``shoes`` independent uniform shuffles of ``codes``, one per row: ``rng.permuted`` of the rows,
    or the same shuffles by the compiled ``loops`` (:func:`exact_odds.dealing.loops.shuffle_rows`).

    Rows are shuffled in order, so row ``i`` does not depend on how many rows follow it.
    """
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
    """Shoes ``first`` to ``stop - 1`` of a run with ``seed``: shuffles of ``codes``, one per row
    (``loops``: the compiled dealer's, :func:`exact_odds.dealing.dealer.compiled_dealer`, which
    shuffles the same rows).

    Shoe ``i`` is row ``i % SHOE_BLOCK`` of ``shuffled_shoes(block_rng(seed, i // SHOE_BLOCK),
    codes, SHOE_BLOCK)``; it depends only on the seed and its index, so any split of the
    shoes among workers deals the same shoes (the rows of a block before ``first`` are
    shuffled too, and dropped).
    """
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
"""Per thread, the generator of the last block :func:`shoe_orders` dealt from, left after row
``rows``: ``(seed, block, cards, rows, generator)``."""


def _block_at(seed: int, block: int, cards: int, row: int) -> np.random.Generator:
    """The generator of ``block`` ready to shuffle its row ``row`` (shoes of ``cards`` cards).

    The rows before are shuffled and dropped, as the block's stream demands, but only those
    not already passed: a worker dealing consecutive tasks of one block (``study``, ``count``)
    takes up its generator where the previous task left it instead of shuffling the block
    again from its first row. Shuffles draw the same numbers whatever the array's type, so
    the rows skipped are shuffled as the cheapest one.
    """
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
