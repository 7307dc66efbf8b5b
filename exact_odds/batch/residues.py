"""Exact sums for shoes past int64: the kernel modulo a few primes, rebuilt into Python integers.

For a shoe of ``N`` cards a functional's sum is at most ``w N**6`` (weights at most ``w``),
past ``2**63`` beyond 1,448 cards. Each chunk is evaluated modulo primes ``p`` whose product
exceeds that bound, and the integers are rebuilt by the Chinese remainder theorem (Garner's
mixed-radix digits, then Python integers).

Arithmetic modulo ``p``. Residues are non-negative integers below ``p``, held in ``int64``
(factors, digits) or in ``float64`` (part values, exact below ``2**53``) for the BLAS
products. A product of two residues is reduced with a float64 estimate of the quotient
(off by at most one, as the estimate's error is below ``p * 2**-51`` and ``p <= 2**44``)
and the remainder taken exactly in wrapping ``int64`` arithmetic, then corrected by ``p``
(:func:`mul_mod`). A block's product ``matrix @ values`` adds at most ``rowsum`` residues
times the block's weights, so it is exact in float64 while ``rowsum * p < 2**53``: the primes
are the largest below ``2**53 / (rowsum + 1)`` (:func:`moduli_limit`), at most ``2**44``
(``2**31`` when suits are counted, whose factor table multiplies residues in plain
``int64``). For the main bets' plan that is about ``2**39.8``: three primes for a shoe of
10,000 decks (``2**114`` sequences), where primes below ``2**21`` took six.

Every step runs compiled (``fast``, :mod:`exact_odds.batch.modloops`) or in NumPy; both give
the same residues, the same digits and the same integers.
"""

from __future__ import annotations

import math
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.kernel import buffer, factor_table
from exact_odds.batch.wide import from_bytes_rows
from exact_odds.core.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Plan, Stage

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    Array = npt.NDArray[Any]

FLOAT_EXACT = 2**53
"""A non-negative float64 integer below this is exact."""
MODULUS_CAP = 2**44
"""The primes stay at most this (the quotient estimate of :func:`mul_mod` is then off by one at most)."""
SUITED_CAP = 2**31
"""With suits counted, the primes stay below this (the suit factors multiply residues in int64)."""
WORD_BITS = 64
"""Bits per word of the rebuilt integers (little-endian 64-bit words held in int64)."""


# ---------------------------------------------------------------- primes


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 3.3 * 10**24`` (the first 13 primes as bases)."""
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    if n < 2:
        return False
    if n in bases:
        return True
    if any(n % b == 0 for b in bases):
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=16)
def primes_below(limit: int, count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below ``limit``, largest first."""
    out: list[int] = []
    n = limit - 1 if limit % 2 == 0 else limit - 2
    while len(out) < count:
        if _is_prime(n):
            out.append(n)
        n -= 2
    return tuple(out)


def moduli_limit(plan: Plan) -> int:
    """The bound on the plan's primes: every block's sums of products stay below ``2**53``."""
    rowsum = max((int(block.matrix.sum(axis=1).max(initial=0)) for stage in plan.stages for block in stage.blocks),
                 default=0)
    cap = SUITED_CAP if plan.space.suited else MODULUS_CAP
    return min(cap, FLOAT_EXACT // (rowsum + 1))


def moduli(limit: int, bound: int) -> tuple[int, ...]:
    """The fewest of the largest primes below ``limit`` whose product exceeds ``bound``."""
    count = 1
    while True:
        chosen = primes_below(limit, count)
        if np.prod(np.array(chosen, dtype=object)) > bound:
            return chosen
        count += 1


# ---------------------------------------------------------------- arithmetic modulo p (NumPy)


def mul_mod(a: Array, b: Array | int, p: int) -> IntArray:
    """``a * b mod p`` for residues (int64 or float64 holding integers below ``p <= 2**44``), int64."""
    quotient = np.floor(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64) * (1.0 / p))
    with np.errstate(over="ignore"):
        r = np.asarray(a, dtype=np.int64) * np.asarray(b, dtype=np.int64) - quotient.astype(np.int64) * p
    r += p * (r < 0)
    r -= p * (r >= p)
    return r


def _falling_mod(kinds: IntArray, p: int) -> IntArray:
    """``falling(n, j) mod p`` for j = 0..6, rows ``kind * 7 + j`` (the unsuited factor table), int64."""
    k, b = kinds.shape
    out = np.empty((k, CARDS_PER_COUP + 1, b), dtype=np.int64)
    out[:, 0] = 1
    for j in range(1, CARDS_PER_COUP + 1):
        out[:, j] = mul_mod(out[:, j - 1], np.maximum(kinds - (j - 1), 0) % p, p)
    return out.reshape(-1, b)


def _part_values_mod(plan: Plan, factors: IntArray, p: int) -> FloatArray:
    """Residues of every part's value, level by level, as float64 (for the BLAS products)."""
    layout = plan.layout
    values = np.empty((len(layout.parent), factors.shape[1]), dtype=np.float64)
    values[0] = 1
    for start, stop in layout.levels:
        values[start:stop] = mul_mod(values[layout.parent[start:stop]], factors[layout.factor[start:stop]], p)
    return values


def _stage_sums_mod(stage: Stage, values: FloatArray, p: int) -> IntArray:
    """The stage's sums mod ``p``: each block's product reduced, weighed by its row part, added."""
    b = values.shape[1]
    total = np.zeros((len(stage.functionals), b), dtype=np.int64)
    for block in stage.blocks:
        (m0, m1), (r0, r1) = block.m_rows, block.r_rows
        product = (block.matrix @ values[m0:m1]).reshape(r1 - r0, -1, b).astype(np.int64) % p
        total += mul_mod(product, values[r0:r1, None, :], p).sum(axis=0)
        total %= p
    return total


def _digits(residues: IntArray, primes: tuple[int, ...]) -> IntArray:
    """Garner's mixed-radix digits ``d`` of the integers with these residues (first axis: per prime):
    the integer is ``d[0] + p0 (d[1] + p1 (d[2] + ...))``."""
    digits = np.empty_like(residues)
    for i, p in enumerate(primes):
        x = residues[i]
        for j in range(i):
            x = mul_mod((x - digits[j]) % p, pow(primes[j], -1, p), p)
        digits[i] = x
    return digits


def _integers(digits: IntArray, primes: tuple[int, ...]) -> Array:
    """The Python integers of Garner's digits (object array of the digits' shape less the first axis)."""
    big: Array = digits[-1].astype(object)
    for d, p in zip(digits[-2::-1], primes[-2::-1], strict=True):
        big = big * p + d.astype(object)
    return big


# ---------------------------------------------------------------- one chunk


@lru_cache(maxsize=16)
def _inverses(primes: tuple[int, ...]) -> IntArray:
    """``inverses[i, j]``: the inverse of ``primes[j]`` modulo ``primes[i]`` (for j < i; else 0)."""
    out = np.zeros((len(primes), len(primes)), dtype=np.int64)
    for i, p in enumerate(primes):
        for j in range(i):
            out[i, j] = pow(primes[j], -1, p)
    return out


def from_words(words: IntArray) -> Array:
    """The non-negative Python integers of little-endian 64-bit words (last axis; int64 holding the
    bits), an object array of the other axes (:func:`~exact_odds.batch.wide.from_bytes_rows`, a
    zero byte above the words for the sign)."""
    count = words.shape[-1]
    data = np.zeros((words.size // max(count, 1), 8 * count + 1), dtype=np.uint8)
    data[:, :-1] = np.ascontiguousarray(words).view(np.uint8).reshape(len(data), -1)
    return from_bytes_rows(data).reshape(words.shape[:-1])


def _block_products(stage: Stage, values: FloatArray) -> FloatArray:
    """Per row part of the stage and functional, the block's BLAS product ``matrix @ values[m_rows]``
    (float64 integers below ``2**53``), shape (rows, functionals, b), in a reused buffer."""
    b = values.shape[1]
    partial = buffer(f"residue-partial{stage.depth}", (stage.rows, len(stage.functionals), b))
    for block in stage.blocks:
        (m0, m1), (r0, r1) = block.m_rows, block.r_rows
        np.matmul(block.matrix, values[m0:m1], out=partial[block.at:block.at + r1 - r0].reshape(-1, b))
    return partial


def _factors(plan: Plan, kinds: IntArray, suits: IntArray | None, p: int, fast: ModuleType | None) -> IntArray:
    """The factor table modulo ``p`` (rows as in :func:`~exact_odds.batch.kernel.factor_table`), int64."""
    if plan.space.suited:
        table: IntArray = factor_table(plan.space, kinds, suits, p, dtype=np.int64)
        return table
    if fast is None:
        return _falling_mod(kinds, p)
    table = np.empty((kinds.shape[0] * (CARDS_PER_COUP + 1), kinds.shape[1]), dtype=np.int64)
    fast.falling_mod(kinds, p, table)
    return table


def _residues(plan: Plan, kinds: IntArray, suits: IntArray | None, p: int, fast: ModuleType | None) -> list[IntArray]:
    """Each stage's sums (functionals x compositions) modulo ``p``."""
    factors = _factors(plan, kinds, suits, p, fast)
    if fast is None:
        values = _part_values_mod(plan, factors, p)
        return [_stage_sums_mod(stage, values, p) for stage in plan.stages]
    values = buffer("residue-values", (len(plan.layout.parent), kinds.shape[1]))
    fast.part_values_mod(factors, plan.layout.parent, plan.layout.factor, p, values)
    out = []
    for stage in plan.stages:
        total = np.empty((len(stage.functionals), kinds.shape[1]), dtype=np.int64)
        fast.stage_sums_mod(_block_products(stage, values), values, stage.value_rows, p, total)
        out.append(total)
    return out


def residue_sums(plan: Plan, kinds: IntArray, suits: IntArray | None, bound: int, limit: int,
                 fast: ModuleType | None) -> list[Array]:
    """Each stage's exact sums (functionals x compositions; Python integers, object arrays) for
    a chunk whose sums are all below ``bound``, modulo primes below ``limit`` (:func:`moduli`):
    ``kinds`` (kinds, b), ``suits`` (13, 4, b) when suits count; compiled with ``fast``
    (:mod:`exact_odds.batch.modloops`), else in NumPy."""
    primes = moduli(limit, bound)
    kinds = np.ascontiguousarray(kinds)
    residues = [_residues(plan, kinds, suits, p, fast) for p in primes]
    out = []
    for s in range(len(plan.stages)):
        stacked = np.stack([r[s] for r in residues])
        if fast is None:
            out.append(_integers(_digits(stacked, primes), primes))
            continue
        top = math.prod(primes).bit_length()
        words = np.empty((*stacked.shape[1:], -(-top // WORD_BITS)), dtype=np.int64)
        fast.rebuild_words(stacked.reshape(len(primes), -1), np.array(primes, dtype=np.int64), _inverses(primes),
                           words.reshape(-1, words.shape[-1]))
        used = -(-bound.bit_length() // WORD_BITS)
        if words[..., used:].any():
            raise AssertionError("bulk evaluation lost ways (please report this bug)")
        out.append(from_words(words[..., :used]))
    return out
