"""The compiled path of shoes past int64, a chunk at a time with as few steps as possible.

The residue path (:mod:`exact_odds.batch.residues`) evaluates a chunk's sums modulo a few
primes and rebuilds the integers. Here, as the float path does (:mod:`exact_odds.batch.fused`),
a chunk of ``width`` compositions takes three kinds of step, whatever the number of primes:
one compiled call for its kind counts, factor tables and part values modulo every prime (prime
``k``'s in the columns ``k * width ...`` of one array), one BLAS product per block of each
stage over every prime's columns at once, and one compiled call per stage that reduces the
products, weighs and adds them, multiplies the four-card stage by ``(N-4)(N-5)``, and rebuilds
the integers by Garner's digits into 64-bit words. The work arrays and the views the products
read and write are made once per plan, number of primes and width (per thread). Compositions
are taken smallest shoe first, so a chunk takes the fewest primes its largest shoe allows. The
words of every composition become Python integers at the end, one ``int.from_bytes`` each.

The residues, digits and integers are those of the NumPy steps of
:mod:`exact_odds.batch.residues` (the same reduction of every product).
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from exact_odds.batch.residues import FLOAT_EXACT, WORD_BITS, _inverses, primes_below
from exact_odds.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Plan, Stage

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]

LIMB_BITS = 16
"""Bits per limb of the compiled reconstruction (a digit below 2**44 times a limb stays below 2**60)."""
LIMBS_PER_WORD = WORD_BITS // LIMB_BITS
WIDTH = 128
"""Compositions per chunk: with three primes the part values take about 2.8 MB (912 parts)."""
MOST_PRIMES = 8
"""The most primes a chunk may need here (shoes of up to about 10**11 cards at 2**38 a prime)."""


class _StageWork(NamedTuple):
    """One stage's products (matrix, values read, partial written), the rows weighing the partial
    sums, the output columns of its functionals, and its residues (work)."""

    products: tuple[tuple[FloatArray, FloatArray, FloatArray], ...]
    partial: FloatArray
    rows: IntArray
    columns: IntArray
    leading: bool
    residues: IntArray


class Prepared(NamedTuple):
    """Work arrays of one plan for chunks of ``width`` compositions modulo ``primes``."""

    plan: Plan
    primes: IntArray
    inverses: IntArray
    radix: IntArray
    kinds: IntArray
    factors: IntArray
    values: FloatArray
    stages: tuple[_StageWork, ...]


def _merged(stage: Stage, limit: int) -> list[tuple[tuple[int, int], tuple[int, int], FloatArray]]:
    """The stage's blocks as (m_rows, r_rows, matrix), those of the same row parts over adjacent
    rows of the other side merged into one product where the merged rows' sums of weights times
    a prime below ``limit`` stay below ``2**53`` (the products stay exact)."""
    cap = (FLOAT_EXACT - 1) // (limit - 1)
    merged: list[tuple[tuple[int, int], tuple[int, int], FloatArray]] = []
    for block in sorted(stage.blocks, key=lambda b: (b.r_rows, b.m_rows)):
        if merged and merged[-1][1] == block.r_rows and merged[-1][0][1] == block.m_rows[0]:
            matrix = np.concatenate([merged[-1][2], block.matrix], axis=1)
            if matrix.sum(axis=1).max() <= cap:
                merged[-1] = ((merged[-1][0][0], block.m_rows[1]), block.r_rows, matrix)
                continue
        merged.append((block.m_rows, block.r_rows, block.matrix))
    return merged


def _stage_work(stage: Stage, values: FloatArray, count: int, width: int, limit: int) -> _StageWork:
    """The views of a stage's block products over every prime's columns, and its work arrays."""
    functionals, columns = len(stage.functionals), count * width
    merged = _merged(stage, limit)
    partial = np.empty((sum(r1 - r0 for _, (r0, r1), _ in merged), functionals, count, width), dtype=np.float64)
    products, at = [], 0
    for (m0, m1), (r0, r1), matrix in merged:
        products.append((matrix, values[m0:m1].reshape(m1 - m0, columns),
                         partial[at:at + r1 - r0].reshape(-1, columns)))
        at += r1 - r0
    rows = np.array([r for _, r_rows, _ in merged for r in range(*r_rows)], dtype=np.int64)
    return _StageWork(tuple(products), partial, rows, np.array(stage.functionals, dtype=np.int64),
                      stage.depth < CARDS_PER_COUP, np.empty((count, functionals, width), dtype=np.int64))


def _prepare(plan: Plan, primes: tuple[int, ...], width: int, limit: int) -> Prepared:
    """Work arrays and product views of ``plan`` for chunks of ``width`` compositions."""
    count, kinds = len(primes), plan.space.kinds
    values = np.empty((len(plan.layout.parent), count, width), dtype=np.float64)
    return Prepared(plan, np.array(primes, dtype=np.int64), _inverses(primes), _radix(primes),
                    np.empty((kinds, width), dtype=np.int64),
                    np.empty((kinds * (CARDS_PER_COUP + 1), width), dtype=np.int64), values,
                    tuple(_stage_work(stage, values, count, width, limit) for stage in plan.stages))


def _radix(primes: tuple[int, ...]) -> IntArray:
    """``radix[k]``: the 16-bit limbs of the product of the primes before ``k`` (Garner's place
    values), as many limbs as whole 64-bit words of the product of every prime take."""
    size = -(-math.prod(primes).bit_length() // WORD_BITS) * LIMBS_PER_WORD
    place = [math.prod(primes[:k]) for k in range(len(primes))]
    return np.array([[(v >> (LIMB_BITS * m)) & ((1 << LIMB_BITS) - 1) for m in range(size)] for v in place],
                    dtype=np.int64)


_LOCAL = threading.local()


def prepared(plan: Plan, primes: tuple[int, ...], width: int, limit: int) -> Prepared:
    """The :class:`Prepared` work of ``plan`` for ``width`` compositions modulo ``primes`` (below
    ``limit``), made once per thread (threads evaluating at once never share one)."""
    cache: dict[tuple[int, tuple[int, ...], int], Prepared] = _LOCAL.__dict__.setdefault("prepared", {})
    key = (id(plan), primes, width)
    found = cache.get(key)
    if found is None or found.plan is not plan:
        if len(cache) > 16:
            cache.clear()
        found = cache[key] = _prepare(plan, primes, width, limit)
    return found


@lru_cache(maxsize=16)
def _products(limit: int) -> tuple[int, ...]:
    """``products[k]``: the product of the ``k + 1`` largest primes below ``limit``."""
    primes = primes_below(limit, MOST_PRIMES)
    return tuple(math.prod(primes[:k + 1]) for k in range(MOST_PRIMES))


def chunk_primes(limit: int, bound: int) -> tuple[int, ...]:
    """The fewest of the largest primes below ``limit`` whose product exceeds ``bound``
    (:func:`~exact_odds.batch.residues.moduli`, from cached products)."""
    for k, product in enumerate(_products(limit)):
        if product > bound:
            return primes_below(limit, MOST_PRIMES)[:k + 1]
    raise ValueError("shoe too large for the residue path")


def _chunk(work: Prepared, fast: ModuleType, kinds: IntArray, order: IntArray, sizes: IntArray, start: int,
           bits: int, words: IntArray) -> int:
    """Evaluate the compositions ``order[start:start + width]`` into ``words[start:]``; return how
    many integers reached ``2**bits``."""
    layout = work.plan.layout
    fast.chunk_residues(kinds, order, start, work.primes, layout.parent, layout.factor, work.kinds, work.factors,
                        work.values)
    bad = 0
    for stage in work.stages:
        for matrix, source, target in stage.products:
            np.matmul(matrix, source, out=target)
        bad += fast.stage_words(stage.partial, work.values, stage.rows, work.primes, work.inverses, work.radix, sizes,
                                order, start, stage.leading, stage.columns, bits, stage.residues, words)
    return int(bad)


def residue_words(plan: Plan, kinds: IntArray, order: IntArray, sizes: IntArray, limit: int,
                  fast: ModuleType) -> IntArray:
    """Every functional's exact sum for the compositions ``order`` (columns of the kind counts
    ``kinds``, (kinds, n); smallest shoe first, so that chunks take few primes) as little-endian
    64-bit words (int64 holding the bits), shape (len(order), functionals, words); ``sizes``: the
    cards of each shoe, ``limit``: the primes' bound (:func:`~exact_odds.batch.residues.moduli_limit`)."""
    top = max(plan.weights, default=1)
    n = len(order)
    largest = top * int(sizes[order].max(initial=0)) ** CARDS_PER_COUP
    words = np.zeros((n, plan.classes, max(1, -(-largest.bit_length() // WORD_BITS))), dtype=np.int64)
    bad = 0
    for start in range(0, n, WIDTH):
        stop = min(start + WIDTH, n)
        bound = top * int(sizes[order[start:stop]].max()) ** CARDS_PER_COUP
        work = prepared(plan, chunk_primes(limit, bound), stop - start, limit)
        bad += _chunk(work, fast, kinds, order, sizes, start, bound.bit_length(), words)
    if bad:
        raise AssertionError("bulk evaluation lost ways (please report this bug)")
    return words
