"""Bulk work's element-wise loops, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each loop does in one pass what a NumPy step does (of :mod:`exact_odds.batch.plan` on the same float64
numbers in the same order, or of :func:`exact_odds.batch.io.plain_counts`), so the results are the same
exact integers, or the same refusal. The matrix products stay in BLAS. Compiled code is cached on disk.
Arrays are C-contiguous; compositions are columns of the kernel's arrays, rows of a text's counts.
"""

from __future__ import annotations

import numba
import numpy as np

from exact_odds.batch import coefficients
from exact_odds.batch.io import COMMA, MAX_DIGITS, NEWLINE, ZERO

_jit = numba.njit(cache=True, nogil=True)

falling_into = _jit(coefficients.falling_into)


@_jit
def part_values(factors, parent, factor, values, weights, sums):
    """:func:`exact_odds.batch.plan.part_values` a row at a time; the parts past the rows of ``values``,
    if any, are weighed instead of stored (:func:`weighed_tail`)."""
    first = values[0]
    for i in range(first.shape[0]):
        first[i] = 1.0
    for p in range(1, values.shape[0]):
        this, up, step = values[p], values[parent[p]], factors[factor[p]]
        for i in range(this.shape[0]):
            this[i] = up[i] * step[i]
    if parent.shape[0] > values.shape[0]:
        weighed_tail(factors, parent, factor, values, weights, sums)


@_jit
def weighed_tail(factors, parent, factor, values, weights, sums):
    """``sums[f] = sum over the parts p past the rows of values of weights[f, p - len(values)]
    * values[parent[p]] * factors[factor[p]]`` for f = 0, 1, four parts at a time."""
    first, end = values.shape[0], parent.shape[0]
    a, b = sums[0], sums[1]
    a[:] = 0.0
    b[:] = 0.0
    p = first
    while p + 3 < end:
        u0, s0, u1, s1 = values[parent[p]], factors[factor[p]], values[parent[p + 1]], factors[factor[p + 1]]
        u2, s2, u3, s3 = values[parent[p + 2]], factors[factor[p + 2]], values[parent[p + 3]], factors[factor[p + 3]]
        k = p - first
        w0, w1, w2, w3 = weights[0, k], weights[0, k + 1], weights[0, k + 2], weights[0, k + 3]
        x0, x1, x2, x3 = weights[1, k], weights[1, k + 1], weights[1, k + 2], weights[1, k + 3]
        for i in range(a.shape[0]):
            v0, v1, v2, v3 = u0[i] * s0[i], u1[i] * s1[i], u2[i] * s2[i], u3[i] * s3[i]
            a[i] += (w0 * v0 + w1 * v1) + (w2 * v2 + w3 * v3)
            b[i] += (x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)
        p += 4
    for q in range(p, end):
        up, step, w, x = values[parent[q]], factors[factor[q]], weights[0, q - first], weights[1, q - first]
        for i in range(a.shape[0]):
            v = up[i] * step[i]
            a[i] += w * v
            b[i] += x * v


@_jit
def chunk_kinds(counts, kind_of, start, kinds):
    """``kinds[k, i]``: the cards of kind ``k`` (``kind_of[rank]``) of composition ``start + i``."""
    kinds[:, :] = 0
    for i in range(kinds.shape[1]):
        row = counts[start + i]
        for r in range(row.shape[0]):
            kinds[kind_of[r], i] += row[r]


@_jit
def chunk_values(counts, kind_of, start, parent, factor, kinds, factors, values, weights, sums):
    """A chunk's kind counts, factor table (``factors[k * 7 + j, i] = falling(kinds[k, i], j)``) and
    part values in one call."""
    chunk_kinds(counts, kind_of, start, kinds)
    depth = factors.shape[0] // kinds.shape[0]
    for k in range(kinds.shape[0]):
        falling_into(kinds[k], 0, factors[k * depth:(k + 1) * depth])
    part_values(factors, parent, factor, values, weights, sums)


@_jit
def stage_into(partial, values, rows, columns, sizes, leading, start, limit, total, out, bad):
    """A stage's sums ``total[f] = sum over r of partial[r, f] * values[rows[r]]`` (the rows in order), written
    to ``out[start + i, columns[f]]`` as int64, times ``(N - 4)(N - 5)`` when ``leading``; ``bad[i]`` set where
    a sum reached ``limit``. Returns how many were bad."""
    total[:, :] = 0.0
    for r in range(partial.shape[0]):
        weight = values[rows[r]]
        for f in range(partial.shape[1]):
            src, dst = partial[r, f], total[f]
            for i in range(dst.shape[0]):
                dst[i] += src[i] * weight[i]
    found = 0
    for i in range(total.shape[1]):
        rest = (sizes[start + i] - 4) * (sizes[start + i] - 5) if leading else 1
        for f in range(total.shape[0]):
            x = total[f, i]
            if x >= limit:
                bad[i] = True
            out[start + i, columns[f]] = np.int64(x) * rest
        if bad[i]:
            found += 1
    return found


@_jit
def read_plain(data, out):
    """Read text in the plain form (lines of ``fields`` fields of one to nine digits, a newline at the end)
    into ``out``; the number of rows read, or -1 when the text is not in that form or does not fit."""
    size, fields = data.shape[0], out.shape[1]
    if size == 0 or data[size - 1] != NEWLINE:
        return -1
    flat = out.reshape(-1)
    i, k = 0, 0
    while i < size:  # a line; the last byte, a newline, stops every field before the end
        if k == flat.shape[0]:
            return -1
        for col in range(fields):
            start, value, c = i, 0, data[i]
            while ZERO <= c <= ZERO + 9:
                value = value * 10 + (c - ZERO)
                i += 1
                c = data[i]
            if i == start or i - start > MAX_DIGITS or c != (COMMA if col < fields - 1 else NEWLINE):
                return -1
            flat[k] = value
            k += 1
            i += 1
    return k // fields if k else -1


@_jit
def counts_fit(counts, high, least):
    """Whether every count is at most ``high`` and every row sums to at least ``least``."""
    for i in range(counts.shape[0]):
        total = 0
        for r in range(counts.shape[1]):
            if counts[i, r] > high:
                return False
            total += counts[i, r]
        if total < least:
            return False
    return True
