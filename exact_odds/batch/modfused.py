"""The compiled path of shoes past int64, a chunk at a time with as few steps as possible.

One pass fewer. The NumPy steps (:mod:`exact_odds.batch.residues`) take primes whose product
exceeds the bound ``B = w N**6`` of the sums (three of about ``2**39.8`` for a 10,000-deck shoe).
Here each sum ``x`` is also computed in plain float64, rounded: every quantity being a sum of
non-negative terms, the result ``a`` is an integer with ``|x - a| <= gamma_K x`` where
``gamma_K = K u / (1 - K u)``, ``u = 2**-53`` and ``K`` counts the roundings along any term
(at most five in a part's value, a product and ``M - 1`` additions in a block product of ``M``
columns in any order, a product and ``R - 1`` additions in the weighing of ``R`` row parts,
three for ``(N-4)(N-5)``: :func:`roundings`). Then primes whose product ``M`` exceeds
``2 ceil(K B / (2**53 - K)) + 2`` suffice: ``x - a + M // 2`` lies in ``[0, M)`` and is the
integer of its residues. That is about ``2**70`` for 10,000 decks: two primes and a float pass,
which costs less than a third prime's (no reductions).

Steps. As the float path does (:mod:`exact_odds.batch.fused`), a chunk of ``width``
compositions takes a few kinds of step whatever the number of primes: one compiled call for its
kind counts, factor tables and part values (rounded, and modulo every prime, side by side in one
array); BLAS products of each stage's blocks over all of them at once, in pieces of at most
:data:`PIECE_BYTES` each weighed by its row parts and added to the stage's sums by a compiled
call while it is in the processor's cache (the residues in float64 alone, in vector
instructions, reduced once at the end: :func:`~exact_odds.batch.modloops.weigh_piece`); and one
compiled call per stage that reduces the sums, multiplies the four-card stage by ``(N-4)(N-5)``
and rebuilds the integers into 64-bit words. The main bets' six-card parts (409 of 912) are not
stored: the first call weighs them into their sums as it makes them (:func:`_tail`; a product and
at most ``M - 1`` additions along a term, as in a block product), sparing BLAS two thin products
that would read them back from memory. The work arrays and the
views the products read and write are made once per plan, primes, width and words (per thread).
Compositions are taken smallest shoe first, so a chunk takes the fewest primes its largest shoe
allows. The words of every composition become Python integers at the end, together.

The integers are those of the NumPy steps: each is proven exact either way, and checked (the
sums must be non-negative and within their bound).
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from exact_odds.batch.fused import TAIL_FUNCTIONALS, tail_reads
from exact_odds.batch.residues import FLOAT_EXACT, WORD_BITS, _inverses, primes_below
from exact_odds.core.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Plan, Stage

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]

LIMB_BITS = 16
"""Bits per limb of the compiled reconstruction (a digit below 2**44 times a limb stays below 2**60)."""
LIMBS_PER_WORD = WORD_BITS // LIMB_BITS
"""16-bit limbs per 64-bit word."""
WIDTH = 128
"""Compositions per chunk: with the rounded values and two primes the part values take about 2.8 MB (912 parts)."""
MOST_PRIMES = 64
"""The most primes a chunk may take (fewer when they are large, :func:`_products`): enough for shoes of
``2**63`` cards."""
EXPONENTS = 1100
"""Powers of two kept modulo each prime: the exponents of float64 integers (below ``2**1024``)."""


PIECE_BYTES = 2**19
"""The most bytes of block products one BLAS call writes: they are weighed (:func:`~exact_odds.batch.modloops
.weigh_piece`) while they are in the processor's cache (the every-bet plan's 77 row parts of 18 functionals,
4.3 MB a chunk, were written to memory and read back; this machine has 512 KB of cache per core)."""


class _StageWork(NamedTuple):
    """One stage's pieces of block products (matrix rows, values read, products written as BLAS
    writes them and as rows of row parts, the value rows weighing them), the tail's sums (weighed
    by the empty part: row 0), the output columns of its functionals, and its sums (work)."""

    pieces: tuple[tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray], ...]
    tail: FloatArray
    tail_rows: IntArray
    columns: IntArray
    leading: bool
    approximate: FloatArray
    residues: FloatArray


class _Tail(NamedTuple):
    """The parts weighed as they are made (:func:`_tail`): segments of parts ``bounds[s]:bounds[s + 1]``
    (one merged block each), the row of ``partial`` (the stage's tail sums) each is weighed into,
    and the weights (two functionals by part, zero but the tail's)."""

    bounds: IntArray
    slots: IntArray
    weights: FloatArray
    partial: FloatArray


class Prepared(NamedTuple):
    """Work arrays of one plan for chunks of ``width`` compositions modulo ``primes``, and the
    constants of the reconstruction (:func:`_constants`)."""

    plan: Plan
    primes: IntArray
    inverses: IntArray
    radix: IntArray
    rebase: IntArray
    powers: IntArray
    kinds: IntArray
    factors: FloatArray
    values: FloatArray
    stages: tuple[_StageWork, ...]
    tail: _Tail


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


def check_row_parts(rows: int, limit: int) -> None:
    """Refuse a stage of ``rows`` row parts modulo primes below ``limit`` unless ``5 rows limit < 2**53``:
    its weighed residues are added unreduced, each below ``4.01 p`` in magnitude
    (:func:`exact_odds.batch.modloops.weigh_piece`), and their sums must stay exact."""
    if 5 * rows * limit >= FLOAT_EXACT:
        raise ValueError("too many row parts for the residue path")


def _stage_work(stage: Stage, values: FloatArray, count: int, width: int, limit: int) -> _StageWork:
    """The pieces of a stage's block products over every prime's columns, of at most
    :data:`PIECE_BYTES` each (but those of the tail's parts, past the rows of ``values``:
    :func:`_tail`), and its work arrays."""
    functionals, columns = len(stage.functionals), count * width
    merged = _merged(stage, limit)
    most = max(1, PIECE_BYTES // (functionals * columns * 8))  # row parts a piece
    buffer = np.empty((most, functionals, count, width), dtype=np.float64)
    pieces, tail = [], 0
    for (m0, m1), (r0, r1), matrix in merged:
        if m0 >= len(values):
            tail += 1
            continue
        for first in range(r0, r1, most):
            last = min(first + most, r1)
            pieces.append((np.ascontiguousarray(matrix[(first - r0) * functionals:(last - r0) * functionals]),
                           values[m0:m1].reshape(m1 - m0, columns), buffer[:last - first].reshape(-1, columns),
                           buffer[:last - first], np.arange(first, last, dtype=np.int64)))
    check_row_parts(sum(r1 - r0 for _, (r0, r1), _ in merged), limit)
    return _StageWork(tuple(pieces), np.empty((tail, functionals, count, width), dtype=np.float64),
                      np.zeros(tail, dtype=np.int64), np.array(stage.functionals, dtype=np.int64),
                      stage.depth < CARDS_PER_COUP, np.empty((functionals, width), dtype=np.float64),
                      np.empty((count - 1, functionals, width), dtype=np.float64))


def roundings(plan: Plan, limit: int) -> int:
    """``K``: more than the roundings along any term of a sum computed in float64 (five in a part's
    value, one product and the additions of the widest block product, one product and the
    additions of the weighing over the stage's row parts, three for ``(N-4)(N-5)``, and some to spare)."""
    return max((16 + max(m1 - m0 for (m0, m1), _, _ in merged) + sum(r1 - r0 for _, (r0, r1), _ in merged)
                for merged in (_merged(stage, limit) for stage in plan.stages)), default=16)


def _tail(plan: Plan, limit: int) -> tuple[int, list[tuple[int, int, int, FloatArray]]]:
    """The first part of the layout's tail (:func:`~exact_odds.batch.fused.tail_reads`) and its
    segments (first part, end, row of the stage's tail sums, matrix): one per product reading it,
    as :func:`_merged` cuts them to keep their sums exact. Those parts are weighed as they are
    made (:func:`exact_odds.batch.modloops.chunk_residues`)."""
    reads = [(s, m_rows, r_rows, len(stage.functionals), matrix) for s, stage in enumerate(plan.stages)
             for m_rows, r_rows, matrix in _merged(stage, limit)]
    first, tail = tail_reads(plan, reads)
    return first, [(m0, m1, at, matrix) for at, (_, (m0, m1), _, _, matrix) in enumerate(tail)]


def _tail_work(plan: Plan, limit: int, stages: tuple[_StageWork, ...]) -> _Tail:
    """The arrays of :class:`_Tail` for the segments of :func:`_tail` (none: empty arrays)."""
    first, segments = _tail(plan, limit)
    if not segments:
        return _Tail(np.array([first], dtype=np.int64), np.zeros(0, dtype=np.int64),
                     np.zeros((TAIL_FUNCTIONALS, 0)), np.zeros((0, TAIL_FUNCTIONALS, 0, 0)))
    stage = next(work for work in stages if len(work.tail))
    weights = np.zeros((TAIL_FUNCTIONALS, len(plan.layout.parent)), dtype=np.float64)  # by part
    weights[:, first:len(plan.layout.parent)] = np.concatenate([matrix for *_, matrix in segments], axis=1)
    return _Tail(np.array([m0 for m0, *_ in segments] + [segments[-1][1]], dtype=np.int64),
                 np.array([at for _, _, at, _ in segments], dtype=np.int64), weights, stage.tail)


def _prepare(plan: Plan, primes: tuple[int, ...], width: int, limit: int, words: int) -> Prepared:
    """Work arrays and product views of ``plan`` for chunks of ``width`` compositions (the rounded
    values and those modulo each prime side by side: ``1 + len(primes)`` blocks of columns)."""
    count, kinds = 1 + len(primes), plan.space.kinds
    values = np.empty((_tail(plan, limit)[0], count, width), dtype=np.float64)
    stages = tuple(_stage_work(stage, values, count, width, limit) for stage in plan.stages)
    return Prepared(plan, np.array(primes, dtype=np.int64), _inverses(primes), *_constants(primes, words),
                    np.empty((kinds, width), dtype=np.int64),
                    np.empty((count, kinds * (CARDS_PER_COUP + 1), width), dtype=np.float64), values, stages,
                    _tail_work(plan, limit, stages))


def _limbs(value: int, size: int) -> list[int]:
    """The ``size`` least significant 16-bit limbs of a non-negative integer."""
    return [(value >> (LIMB_BITS * m)) & ((1 << LIMB_BITS) - 1) for m in range(size)]


@lru_cache(maxsize=32)
def _constants(primes: tuple[int, ...], words: int) -> tuple[IntArray, IntArray, IntArray]:
    """The reconstruction's constants: ``radix[k]`` the 16-bit limbs of the product of the primes
    before ``k`` (Garner's place values) and ``radix[-1]`` those of ``M // 2`` (``M``: the product of
    every prime), as many limbs as ``words`` 64-bit words hold; ``rebase[k] = M // 2 mod p_k``;
    ``powers[k, e] = 2**e mod p_k``."""
    size = max(words, -(-math.prod(primes).bit_length() // WORD_BITS)) * LIMBS_PER_WORD
    half = math.prod(primes) // 2
    radix = np.array([_limbs(math.prod(primes[:k]), size) for k in range(len(primes))] + [_limbs(half, size)],
                     dtype=np.int64)
    rebase = np.array([half % p for p in primes], dtype=np.int64)
    powers = np.ones((len(primes), EXPONENTS), dtype=np.int64)
    modulus = np.array(primes, dtype=np.int64)
    for e in range(1, EXPONENTS):  # residues below 2**44: doubling stays in int64
        powers[:, e] = 2 * powers[:, e - 1] % modulus
    return radix, rebase, powers


_LOCAL = threading.local()


def prepared(plan: Plan, primes: tuple[int, ...], width: int, limit: int, words: int) -> Prepared:
    """The :class:`Prepared` work of ``plan`` for ``width`` compositions modulo ``primes`` (below
    ``limit``) into integers of ``words`` 64-bit words, made once per thread (threads evaluating at
    once never share one)."""
    cache: dict[tuple[int, tuple[int, ...], int, int], Prepared] = _LOCAL.__dict__.setdefault("prepared", {})
    key = (id(plan), primes, width, words)
    found = cache.get(key)
    if found is None or found.plan is not plan:
        if len(cache) > 16:
            cache.clear()
        found = cache[key] = _prepare(plan, primes, width, limit, words)
    return found


def row_limit(plan: Plan, limit: int) -> int:
    """``limit``, or less where a stage's row parts would pass the bound of :func:`check_row_parts`
    (a smaller limit merges blocks at least as much, so its stages have no more row parts)."""
    rows = max((sum(r1 - r0 for _, (r0, r1), _ in _merged(stage, limit)) for stage in plan.stages), default=1)
    return min(limit, (FLOAT_EXACT - 1) // (5 * max(rows, 1)))


def _constants_of(plan: Plan, limit: int) -> tuple[int, int]:
    """:func:`roundings` and the primes' bound (:func:`row_limit`), once per plan and thread."""
    cache: dict[int, tuple[Plan, int, int]] = _LOCAL.__dict__.setdefault("roundings", {})
    found = cache.get(id(plan))
    if found is None or found[0] is not plan:
        if len(cache) > 16:
            cache.clear()
        bound = row_limit(plan, limit)
        found = cache[id(plan)] = (plan, roundings(plan, bound), bound)
    return found[1], found[2]


@lru_cache(maxsize=16)
def _products(limit: int) -> tuple[int, ...]:
    """``products[k]``: the product of the ``k + 1`` largest primes below ``limit``, for as many primes
    as the reconstruction takes (its sums of digits times 16-bit limbs stay below ``2**63``)."""
    most = min(MOST_PRIMES, 2**(63 - LIMB_BITS) // limit - 1)
    primes = primes_below(limit, most)
    return tuple(math.prod(primes[:k + 1]) for k in range(most))


def chunk_primes(limit: int, bound: int) -> tuple[int, ...]:
    """The fewest of the largest primes below ``limit`` whose product exceeds ``bound`` (as
    :func:`~exact_odds.batch.residues.moduli`, from cached products)."""
    for k, product in enumerate(_products(limit)):
        if product > bound:
            return primes_below(limit, len(_products(limit)))[:k + 1]
    raise ValueError("shoe too large for the residue path")


def _chunk(work: Prepared, fast: ModuleType, kinds: IntArray, order: IntArray, sizes: IntArray, start: int,
           bits: int, words: IntArray) -> int:
    """Evaluate the compositions ``order[start:start + width]`` into ``words[start:]``; return how
    many integers reached ``2**bits``."""
    layout = work.plan.layout
    tail = work.tail
    fast.chunk_residues(kinds, order, start, work.primes, layout.parent, layout.factor, work.kinds, work.factors,
                        work.values, tail.bounds, tail.slots, tail.weights, tail.partial)
    bad = 0
    for stage in work.stages:
        fast.weigh_piece(stage.tail, work.values, stage.tail_rows, work.primes, stage.approximate, stage.residues, True)
        for matrix, source, target, products, rows in stage.pieces:
            np.matmul(matrix, source, out=target)
            fast.weigh_piece(products, work.values, rows, work.primes, stage.approximate, stage.residues, False)
        bad += fast.stage_words(stage.approximate, stage.residues, work.primes, work.inverses, work.radix, work.rebase,
                                work.powers, sizes, order, start, stage.leading, stage.columns, bits, words)
    return int(bad)


def residue_words(plan: Plan, kinds: IntArray, order: IntArray, sizes: IntArray, limit: int,
                  fast: ModuleType) -> IntArray:
    """Every functional's exact sum for the compositions ``order`` (columns of the kind counts
    ``kinds``, (kinds, n); smallest shoe first, so that chunks take few primes) as little-endian
    64-bit words (int64 holding the bits), shape (len(order), functionals, words); ``sizes``: the
    cards of each shoe, ``limit``: the primes' bound (:func:`~exact_odds.batch.residues.moduli_limit`)."""
    top, n = max(plan.weights, default=1), len(order)
    spare, limit = _constants_of(plan, limit)
    largest = top * int(sizes[order].max(initial=0)) ** CARDS_PER_COUP
    words = np.zeros((n, plan.classes, max(1, -(-largest.bit_length() // WORD_BITS))), dtype=np.int64)
    bad, starts = 0, range(0, n, WIDTH)
    for start, largest in zip(starts, np.maximum.reduceat(sizes[order], starts).tolist() if n else [], strict=True):
        bound = top * largest ** CARDS_PER_COUP
        error = -(-spare * bound // (FLOAT_EXACT - spare))  # at least gamma_K * bound
        work = prepared(plan, chunk_primes(limit, 2 * error + 2), min(WIDTH, n - start), limit, words.shape[2] + 1)
        bad += _chunk(work, fast, kinds, order, sizes, start, bound.bit_length(), words)
    if bad:
        raise AssertionError("bulk evaluation lost ways (please report this bug)")
    return words
