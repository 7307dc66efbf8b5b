"""Loops of the exact sums modulo primes, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each loop does what a NumPy step of :mod:`exact_odds.batch.residues` does, with the same
reduction of products (a float64 estimate of the quotient, the remainder in wrapping int64
arithmetic, one correction), so the residues, digits and integers are the same; compiled, a
chunk's factors, part values, and each block's reduction, weighing and sum are one pass each
over data in the processor's cache. The matrix products stay in BLAS.

Residues are below ``p <= 2**44``; arrays are C-contiguous, compositions in the last axis.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic

_jit = numba.njit(cache=True, nogil=True)

LIMB_BITS = 16
"""Bits per limb while rebuilding integers: a limb times a prime (at most 2**44) stays below 2**60."""
LIMBS_PER_WORD = 4
"""Limbs per 64-bit word of the rebuilt integers."""


@_jit
def mul_mod(a, b, p, inverse):
    """``a * b mod p`` for integers ``0 <= a, b < p`` (int64 or float64 holding them), ``inverse = 1.0 / p``."""
    q = np.int64(np.float64(a) * np.float64(b) * inverse)  # truncated: the floor of a non-negative estimate
    r = np.int64(a) * np.int64(b) - q * p
    if r < 0:
        r += p
    elif r >= p:
        r -= p
    return r


def _fma_typing(typingctx, a, b, c):
    """The signature and code of :data:`_fma` (numba's form of an intrinsic)."""

    def codegen(context, builder, signature, args):
        return builder.fma(*args)

    return types.float64(types.float64, types.float64, types.float64), codegen


_fma = cast("Callable[[float, float, float], float]", intrinsic(_fma_typing))
"""``a * b + c`` rounded once (the processor's fused multiply-add; float64), in compiled code."""


@_jit
def mul_mod_float(a, b, p, inverse):
    """``a * b mod p`` in float64 alone (vectorises where :func:`mul_mod` does not), for integers
    ``0 <= a, b < p <= 2**44`` held in float64, ``inverse = 1.0 / p``.

    ``h = fl(a b)`` and ``l = a b - h`` (exact: the error of a rounded product is a float64, which
    the fused multiply-add gives); ``q = floor(fl(h inverse))`` is within one of ``floor(a b / p)``
    (the relative error of ``h inverse`` is below ``3 * 2**-53`` and ``a b / p < p <= 2**44``);
    ``h - q p`` is an integer of magnitude below ``2p + 2**35 < 2**46`` (``|l| <= 2**35`` as
    ``a b < 2**88``), so the fused multiply-add gives it exactly, and adding ``l`` gives
    ``a b - q p`` exactly, in ``[-p, 2p)``: one correction either way leaves the residue."""
    h = a * b
    low = _fma(a, b, -h)
    r = _fma(-np.floor(h * inverse), p, h) + low
    r = r + p if r < 0.0 else r
    return r - p if r >= p else r


@_jit
def falling_mod(kinds, p, out):
    """``out[k * 7 + j, i] = falling(kinds[k, i], j) mod p`` for j = 0..6 (out int64, (kinds * 7, b))."""
    inverse = 1.0 / p
    depth = out.shape[0] // kinds.shape[0]
    for k in range(kinds.shape[0]):
        row = kinds[k]
        for i in range(row.shape[0]):
            out[k * depth, i] = 1
        for j in range(1, depth):
            prev, this = out[k * depth + j - 1], out[k * depth + j]
            for i in range(row.shape[0]):
                step = max(row[i] - (j - 1), 0)
                if step >= p:
                    step %= p
                this[i] = mul_mod(prev[i], step, p, inverse)


@_jit
def part_values_mod(factors, parent, factor, p, values):
    """``values[0] = 1``; ``values[r] = values[parent[r]] * factors[factor[r]] mod p`` for every later
    part (float64 holding the residues; a part's parent comes before it)."""
    inverse = 1.0 / p
    for i in range(values.shape[1]):
        values[0, i] = 1.0
    for r in range(1, parent.shape[0]):
        this, up, step = values[r], values[parent[r]], factors[factor[r]]
        for i in range(this.shape[0]):
            this[i] = mul_mod(up[i], step[i], p, inverse)


@_jit
def add_weighed(src, weight, p, inverse, dst, width):
    """``dst[i] = (dst[i] + (src[i] mod p) * weight[i]) mod p`` for ``i < width``: ``src`` a block
    product's row (float64 integers below 2**53), ``weight`` residues (float64), ``dst`` int64 residues."""
    for i in range(width):
        x = src[i]
        reduced = np.int64(x) - np.int64(x * inverse) * p
        if reduced < 0:
            reduced += p
        elif reduced >= p:
            reduced -= p
        s = dst[i] + mul_mod(reduced, weight[i], p, inverse)
        dst[i] = s - p if s >= p else s


@_jit
def stage_sums_mod(partial, values, rows, p, out):
    """``out[f] = sum over r of (partial[r, f] mod p) * values[rows[r]] mod p``: a stage's block
    products (float64 integers below 2**53, shape (row parts, F, b)) reduced, weighed by their row
    part (residues, float64) and added, int64 (F, b)."""
    inverse = 1.0 / p
    out[:, :] = 0
    for r in range(partial.shape[0]):
        weight = values[rows[r]]
        for f in range(partial.shape[1]):
            add_weighed(partial[r, f], weight, p, inverse, out[f], out.shape[1])


@_jit
def rebuild_words(residues, primes, inverses, words):
    """The integers below ``prod(primes)`` with these residues (``residues[k, i]`` mod ``primes[k]``), as
    little-endian 64-bit words ``words[i, w]`` (int64 holding the bits): Garner's digits
    (``inverses[k, j]``, the inverse of ``primes[j]`` mod ``primes[k]``), then Horner's rule on
    16-bit limbs."""
    count = primes.shape[0]
    digits = np.empty(count, dtype=np.int64)
    limbs = np.empty(words.shape[1] * LIMBS_PER_WORD, dtype=np.int64)
    mask = (1 << LIMB_BITS) - 1
    for i in range(residues.shape[1]):
        for k in range(count):
            p = primes[k]
            inverse = 1.0 / p
            x = residues[k, i]
            for j in range(k):
                x -= digits[j] % p if digits[j] >= p else digits[j]
                if x < 0:
                    x += p
                x = mul_mod(x, inverses[k, j], p, inverse)
            digits[k] = x
        limbs[:] = 0
        for k in range(count - 1, -1, -1):  # v = v * p_k + d_k from v = 0
            carry = digits[k]
            for m in range(limbs.shape[0]):
                t = limbs[m] * primes[k] + carry
                limbs[m] = t & mask
                carry = t >> LIMB_BITS
        for w in range(words.shape[1]):
            word = 0
            for s in range(LIMBS_PER_WORD):
                word |= limbs[w * LIMBS_PER_WORD + s] << (LIMB_BITS * s)
            words[i, w] = word


@_jit
def chunk_residues(kinds, order, start, primes, parent, factor, chunk_kinds, factors, values, bounds, slots, weights,
                   partial):
    """A chunk's kind counts, factor tables and part values, approximate and modulo every prime, in
    one call.

    The chunk is the ``width = chunk_kinds.shape[1]`` compositions ``order[start:start + width]``
    (columns of the kind counts ``kinds``, (kinds, n)). ``factors[0]``: the falling factorials in
    float64, rounded; ``factors[1 + k]``: the same modulo prime ``k`` (float64 residues); shape
    (1 + primes, kinds * 7, width). ``values[r, 0]``: part ``r``'s value in float64, rounded (each
    product rounded: a part of ``c`` cards takes at most ``c - 1`` roundings); ``values[r, 1 + k]``:
    its value modulo prime ``k`` (float64 residues, :func:`mul_mod_float`); shape (parts,
    1 + primes, width): one BLAS product per block serves them all. A part's values for every
    prime are made together, while its parent's are in cache. The parts past the rows of
    ``values`` (the *tail*, if any) are not stored but weighed as they are made
    (:func:`_weigh_tail`: ``bounds``, ``slots``, ``weights``, ``partial``)."""
    width = chunk_kinds.shape[1]
    for k in range(kinds.shape[0]):
        for i in range(width):
            chunk_kinds[k, i] = kinds[k, order[start + i]]
    _falling_tables(chunk_kinds, primes, factors)
    for block in range(primes.shape[0] + 1):
        first = values[0, block]
        for i in range(width):
            first[i] = 1.0
    for r in range(1, values.shape[0]):
        this, up, step = values[r, 0], values[parent[r], 0], factors[0, factor[r]]
        for i in range(width):
            this[i] = up[i] * step[i]
        for k in range(primes.shape[0]):
            p = np.float64(primes[k])
            inverse = 1.0 / p
            this, up, step = values[r, 1 + k], values[parent[r], 1 + k], factors[1 + k, factor[r]]
            for i in range(width):
                this[i] = mul_mod_float(up[i], step[i], p, inverse)
    for segment in range(slots.shape[0]):
        for block in range(primes.shape[0] + 1):
            _weigh_tail(factors[block], parent, factor, values, block, bounds[segment], bounds[segment + 1], weights,
                        partial, slots[segment], primes[block - 1] if block else 0)


@_jit
def _weigh_tail(factors, parent, factor, values, block, first, end, weights, partial, slot, prime):
    """``partial[slot, f, block] = sum over the parts q in [first, end) of weights[f, q] * value(q)`` for two
    functionals (f = 0, 1), ``value(q) = values[parent[q], block] * factors[factor[q]]`` (parents
    stored in ``values``) rounded in float64 when ``prime`` is 0, else modulo ``prime``
    (:func:`mul_mod_float`; the weighed residues added unreduced, exact as a block product is: the
    weights' sums times the prime stay below ``2**53``): the product ``weights @ values[first:end]``
    that the parts would otherwise be stored for, four parts at a time (a pass over the sums adds
    four terms)."""
    a, b = partial[slot, 0, block], partial[slot, 1, block]
    a[:] = 0.0
    b[:] = 0.0
    p = np.float64(max(prime, 1))
    inverse = 1.0 / p
    q = first
    while q < end:
        last = min(q + 4, end) - 1
        q1, q2, q3 = min(q + 1, last), min(q + 2, last), min(q + 3, last)
        u0, s0, u1, s1 = values[parent[q], block], factors[factor[q]], values[parent[q1], block], factors[factor[q1]]
        u2, s2, u3, s3 = values[parent[q2], block], factors[factor[q2]], values[parent[q3], block], factors[factor[q3]]
        w0, w1, w2, w3 = weights[0, q], weights[0, q1], weights[0, q2], weights[0, q3]
        x0, x1, x2, x3 = weights[1, q], weights[1, q1], weights[1, q2], weights[1, q3]
        if last < q + 3:  # fewer than four parts left: the repeated last one weighs nothing
            w3, x3 = 0.0, 0.0
            if last < q + 2:
                w2, x2 = 0.0, 0.0
                if last < q + 1:
                    w1, x1 = 0.0, 0.0
        if prime:
            for i in range(a.shape[0]):
                v0, v1 = mul_mod_float(u0[i], s0[i], p, inverse), mul_mod_float(u1[i], s1[i], p, inverse)
                v2, v3 = mul_mod_float(u2[i], s2[i], p, inverse), mul_mod_float(u3[i], s3[i], p, inverse)
                a[i] += (w0 * v0 + w1 * v1) + (w2 * v2 + w3 * v3)
                b[i] += (x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)
        else:
            for i in range(a.shape[0]):
                v0, v1, v2, v3 = u0[i] * s0[i], u1[i] * s1[i], u2[i] * s2[i], u3[i] * s3[i]
                a[i] += (w0 * v0 + w1 * v1) + (w2 * v2 + w3 * v3)
                b[i] += (x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)
        q = last + 1


@_jit
def _falling_tables(chunk_kinds, primes, factors):
    """``factors[0, k * 7 + j, i] = falling(chunk_kinds[k, i], j)`` in float64 (rounded), and
    ``factors[1 + m]`` the same modulo ``primes[m]`` (float64 residues), for j = 0..6."""
    depth = factors.shape[1] // chunk_kinds.shape[0]
    for k in range(chunk_kinds.shape[0]):
        column = chunk_kinds[k]
        for m in range(primes.shape[0] + 1):
            table = factors[m]
            for i in range(column.shape[0]):
                table[k * depth, i] = 1.0
        for j in range(1, depth):
            rounded = factors[0]
            for i in range(column.shape[0]):
                rounded[k * depth + j, i] = rounded[k * depth + j - 1, i] * max(column[i] - (j - 1), 0)
            for m in range(primes.shape[0]):
                p = np.float64(primes[m])
                inverse, table = 1.0 / p, factors[1 + m]
                for i in range(column.shape[0]):
                    step = np.float64(max(column[i] - (j - 1), 0) % primes[m])
                    table[k * depth + j, i] = mul_mod_float(table[k * depth + j - 1, i], step, p, inverse)


@_jit
def weigh_piece(partial, values, rows, primes, approximate, residues, first):
    """Add a piece of a stage's block products, weighed by their row parts, to its sums.

    ``partial[r, f, b]`` (float64 integers: the products of the values ``values[:, b]`` of
    :func:`chunk_residues`, row part ``rows[r]``), ``approximate`` (F, width): the sums in float64,
    rounded; ``residues`` (primes, F, width): the sums modulo each prime, float64 integers left
    unreduced (:func:`_weigh_residues`); both set to zero first when ``first``."""
    if first:
        approximate[:, :] = 0.0
        residues[:, :, :] = 0.0
    width = approximate.shape[1]
    for r in range(partial.shape[0]):
        weight = values[rows[r], 0]
        for f in range(partial.shape[1]):
            src, dst = partial[r, f, 0], approximate[f]
            for i in range(width):
                dst[i] += src[i] * weight[i]
    for k in range(primes.shape[0]):
        _weigh_residues(partial, values, rows, k, primes[k], residues[k])


@_jit
def _weigh_residues(partial, values, rows, k, prime, out):
    """``out[f] += sum over r of partial[r, f, 1 + k] * values[rows[r], 1 + k]``, congruent modulo
    ``p = prime`` (float64 integers, (F, width), unreduced), in float64 alone (vector instructions).

    Each term ``x w`` (``x`` a block product, an integer below ``2**53``; ``w`` a residue below
    ``p <= 2**44``) is replaced by ``t = x w - q p`` with ``q = floor(fl(fl(x w) / p))``: the
    estimate's relative error is below ``3.01 * 2**-53`` and ``x w / p < 2**53``, so ``|q - x w / p|
    < 4.01`` and ``|t| < 4.01 p``; ``h = fl(x w)`` and ``l = x w - h`` (exact, a fused multiply-add;
    ``|l| <= 2**44``), ``h - q p`` is an integer of magnitude below ``4.01 p + 2**44 < 2**47``, so the
    fused multiply-add gives it exactly, and adding ``l`` gives ``t`` exactly. The terms are added
    unreduced: a stage's fewer than ``2**53 / (5 p)`` row parts (:func:`~exact_odds.batch.modfused.prepared`
    checks) keep the sum an exact integer below ``2**53`` in magnitude (:func:`_reduce` ends it)."""
    p = np.float64(prime)
    inverse = 1.0 / p
    width = out.shape[1]
    for r in range(partial.shape[0]):
        weight = values[rows[r], 1 + k]
        for f in range(partial.shape[1]):
            src, dst = partial[r, f, 1 + k], out[f]
            for i in range(width):
                h = src[i] * weight[i]
                low = _fma(src[i], weight[i], -h)
                dst[i] += _fma(-np.floor(h * inverse), p, h) + low


@_jit
def _reduce(sums, prime):
    """``sums mod prime`` in place (float64 integers below ``2**53`` in magnitude, (F, width)): a
    quotient estimate within one of the true one, the remainder (below ``2p`` in magnitude) exact
    from a fused multiply-add, corrected once either way."""
    p = np.float64(prime)
    inverse = 1.0 / p
    for f in range(sums.shape[0]):
        dst = sums[f]
        for i in range(dst.shape[0]):
            x = dst[i]
            reduced = _fma(-np.floor(x * inverse), p, x)
            reduced = reduced + p if reduced < 0.0 else reduced
            dst[i] = reduced - p if reduced >= p else reduced


@_jit
def stage_words(approximate, residues, primes, inverses, radix, rebase, powers, sizes, order, start, leading,
                columns, bits, words):
    """A stage's sums (:func:`weigh_piece`: ``approximate`` (F, width), rounded, and ``residues``
    (primes, F, width), unreduced) reduced, times ``(N - 4)(N - 5)`` when ``leading``, and rebuilt
    (:func:`_rebuild_into`) into ``words[start + i, columns[f]]`` (the chunk's compositions in the
    order of ``order``). Returns how many integers reached ``2**bits`` (the bound of the chunk: none
    should)."""
    count, width = primes.shape[0], residues.shape[2]
    if leading:
        for i in range(width):
            n = sizes[order[start + i]]
            rest = np.float64(n - 4) * np.float64(n - 5)  # at most three roundings
            for f in range(approximate.shape[0]):
                approximate[f, i] *= rest
    for k in range(count):
        _reduce(residues[k], primes[k])
        if leading:
            p = primes[k]
            inverse = 1.0 / p
            res = residues[k]
            for i in range(width):
                n = sizes[order[start + i]]
                rest = np.float64(mul_mod((n - 4) % p, (n - 5) % p, p, inverse))
                for f in range(res.shape[0]):
                    res[f, i] = mul_mod_float(res[f, i], rest, np.float64(p), inverse)
    return _rebuild_into(approximate, residues, primes, inverses, radix, rebase, powers, start, columns, bits, words)


@_jit
def _offset_digits(approximate, residues, primes, inverses, rebase, powers, mantissa, exponent, digits):
    """For integers ``x`` near the float64 integers ``approximate`` (width,) with ``residues``
    (primes, width): ``approximate = mantissa 2**exponent`` (mantissa below ``2**53``), and
    Garner's digits of ``x - approximate + M // 2`` (:func:`_rebuild_into`)."""
    count, width = primes.shape[0], residues.shape[1]
    for i in range(width):
        a = approximate[i]
        if a < 2.0**53:
            mantissa[i], exponent[i] = np.int64(a), 0
        else:
            fraction, e = math.frexp(a)
            mantissa[i], exponent[i] = np.int64(fraction * 2.0**53), e - 53
    for k in range(count):
        p = primes[k]
        inverse = 1.0 / p
        x, d = residues[k], digits[k]
        for i in range(width):
            m = mantissa[i]
            m -= np.int64(m * inverse) * p
            m = m + p if m < 0 else (m - p if m >= p else m)
            y = np.int64(x[i]) - mul_mod(m, powers[k, exponent[i]], p, inverse) + rebase[k]
            y = y + p if y < 0 else y
            d[i] = y - p if y >= p else y
        for j in range(k):
            inv, below = inverses[k, j], digits[j]
            for i in range(width):
                y = d[i] - (below[i] % p if below[i] >= p else below[i])
                d[i] = mul_mod(y + p if y < 0 else y, inv, p, inverse)


@_jit
def _rebuild_into(approximate, residues, primes, inverses, radix, rebase, powers, start, columns, bits, words):
    """The integers ``x`` near ``approximate`` (F, width; float64 integers ``a``, ``|x - a|`` below
    half the product ``M`` of the primes, less one) with ``residues`` (primes, F, width), into
    ``words[start + i, columns[f]]``: ``d = x - a + M // 2`` lies in ``[0, M)``, so it is the
    integer of the residues ``x - a + M // 2 mod p`` (``rebase[k]``: ``M // 2 mod p``; ``a mod p``
    from ``a = m 2**e``, ``powers[k, e] = 2**e mod p``), by Garner's digits (``inverses[k, j]``,
    the inverse of ``primes[j]`` mod ``primes[k]``) and ``sum over k of digit k * radix[k]`` on
    16-bit limbs (``radix[k]``: the limbs of the product of the primes before ``k``; the last row,
    those of ``M // 2``); then ``x = a + d - M // 2`` with one pass of carries. Returns how many
    integers were negative or reached ``2**bits``."""
    count, width, size = primes.shape[0], residues.shape[2], radix.shape[1]
    digits = np.empty((count, width), dtype=np.int64)
    mantissa = np.empty(width, dtype=np.int64)
    exponent = np.empty(width, dtype=np.int64)
    mask = (1 << LIMB_BITS) - 1
    bad = 0
    for f in range(residues.shape[1]):
        _offset_digits(approximate[f], residues[:, f], primes, inverses, rebase, powers, mantissa, exponent, digits)
        for i in range(width):
            dst = words[start + i, columns[f]]
            m, e = mantissa[i], exponent[i]
            c, high = 0, 0
            for t in range(size):
                v = c - radix[count, t]
                for k in range(count):
                    v += digits[k, i] * radix[k, t]
                low = t * LIMB_BITS - e  # the bits of a = m 2**e in this limb
                if -LIMB_BITS < low < 53:
                    v += (m >> low) & mask if low >= 0 else (m << -low) & mask
                limb = v & mask
                c = v >> LIMB_BITS
                if t * LIMB_BITS >= bits:
                    high |= limb
                elif (t + 1) * LIMB_BITS > bits:
                    high |= limb >> (bits - t * LIMB_BITS)
                w = t // LIMBS_PER_WORD
                if w < dst.shape[0]:
                    dst[w] = limb if t % LIMBS_PER_WORD == 0 else dst[w] | (limb << (LIMB_BITS * (t % LIMBS_PER_WORD)))
            if high or c:
                bad += 1
    return bad
