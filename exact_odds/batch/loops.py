"""The bulk kernel's element-wise loops, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each loop does what a step of :mod:`exact_odds.batch.kernel` does with NumPy, on the same
float64 numbers in the same order of operations, so the results are the same exact integers;
compiled, a chunk's factors, part values and stage sums are computed in one pass over data
that stays in the processor's cache, where NumPy makes a pass over memory per operation. The
matrix products stay in BLAS. Compiled code is cached on disk (numba's cache: next to this
file, or the user's cache directory when that is not writable), so a process pays the
compilation once per machine and a load of about a tenth of a second afterwards.

Arrays are C-contiguous; compositions are columns (the last axis) throughout.
"""

from __future__ import annotations

import numba
import numpy as np

from exact_odds.batch.pairs import BANKER, BANKER_SUITED, BOTH, NONE, PLAYER, PLAYER_SUITED, TWIN

_jit = numba.njit(cache=True, nogil=True)


@_jit
def point_counts(counts, points, out):
    """``out[points[r], i] += counts[i, r]``: point-class counts (10, n) of rank counts (n, 13), int64,
    added into ``out`` (zeros)."""
    for i in range(counts.shape[0]):
        for r in range(counts.shape[1]):
            out[points[r], i] += counts[i, r]


@_jit
def part_values(factors, parent, factor, values, weights, sums):
    """``values[0] = 1``; ``values[p] = values[parent[p]] * factors[factor[p]]`` for every later part
    (a part's parent always comes before it), as in :func:`exact_odds.batch.kernel.part_values`;
    the parts past the rows of ``values``, if any, are weighed instead of stored
    (:func:`weighed_tail`)."""
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
    * values[parent[p]] * factors[factor[p]]`` for two functionals (f = 0, 1), the parents being
    rows of ``values``: the product ``weights @ values[tail]`` that the parts' values would
    otherwise be stored for, made as they are (four parts at a time, so that each pass over the
    sums adds four terms). Non-negative integer terms: exact below ``2**53`` in any order."""
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
def stage_sums(partial, values, rows, out):
    """``out[f] = sum over r of partial[r, f] * values[rows[r]]`` (the rows in order), shape (F, b)."""
    out[:, :] = 0.0
    for r in range(partial.shape[0]):
        weight = values[rows[r]]
        for f in range(partial.shape[1]):
            src, dst = partial[r, f], out[f]
            for i in range(dst.shape[0]):
                dst[i] += src[i] * weight[i]


@_jit
def combine(found, sequences, starts, columns, weights, divisors, members, out):
    """Each bet's numerator ``out[i, members[j]] = (sum over t in [starts[j], starts[j + 1]) of
    weights[t] * x[i, columns[t]]) / divisors[j]``, ``x`` being the functionals ``found`` (n, F)
    and, as column ``F``, the ``sequences``: non-negative integers as uint64, ``weights`` the
    coefficients modulo ``2**64`` (uint64 arithmetic wraps), so a result known to lie within int64
    is exact. Blocks of 256 compositions are turned to columns first, so that the sums run along
    them. Returns how many results did not divide exactly (none, unless ways were lost)."""
    n, functionals = found.shape
    block = np.empty((functionals + 1, 256), dtype=np.uint64)
    acc = np.empty(256, dtype=np.uint64)
    inexact = 0
    for first in range(0, n, 256):
        width = min(256, n - first)
        for i in range(width):
            for c in range(functionals):
                block[c, i] = found[first + i, c]
            block[functionals, i] = sequences[first + i]
        for j in range(members.shape[0]):
            acc[:width] = 0
            for t in range(starts[j], starts[j + 1]):
                source, weight = block[columns[t]], weights[t]
                for i in range(width):
                    acc[i] += source[i] * weight
            divisor, column = divisors[j], members[j]
            for i in range(width):
                out[first + i, column] = np.int64(acc[i])
            if divisor != 1:
                for i in range(width):
                    value = out[first + i, column]
                    if value % divisor != 0:
                        inexact += 1
                    out[first + i, column] = value // divisor
    return inexact


@_jit
def chunk_kinds(counts, kind_of, start, kinds):
    """``kinds[k, i]``: the cards of kind ``k`` (``kind_of[rank]``) of composition ``start + i`` of
    the rank counts ``counts`` (n, 13)."""
    kinds[:, :] = 0
    for i in range(kinds.shape[1]):
        row = counts[start + i]
        for r in range(row.shape[0]):
            kinds[kind_of[r], i] += row[r]


@_jit
def chunk_values(counts, kind_of, start, parent, factor, kinds, factors, values, weights, sums):
    """A chunk's kind counts, factor table and part values in one call, for the ``values.shape[1]``
    compositions from row ``start`` of the rank counts ``counts`` (n, 13): ``kinds[k, i]``, the
    cards of kind ``k`` (``kind_of[rank]``); ``factors[k * 7 + j, i] = falling(kinds[k, i], j)``
    (products in the order of :func:`exact_odds.batch.kernel._float_falling`); then
    :func:`part_values` (with the weighed tail of ``weights`` and ``sums``)."""
    chunk_kinds(counts, kind_of, start, kinds)
    depth = factors.shape[0] // kinds.shape[0]
    for k in range(kinds.shape[0]):
        first, column = factors[k * depth], kinds[k]
        for i in range(first.shape[0]):
            first[i] = 1.0
        for j in range(1, depth):
            prev, this = factors[k * depth + j - 1], factors[k * depth + j]
            for i in range(this.shape[0]):
                this[i] = prev[i] * (column[i] - (j - 1))
    part_values(factors, parent, factor, values, weights, sums)


@_jit
def suited_factors(suits, start, kinds, factors):
    """The factor table of suited pairs (:func:`exact_odds.batch.kernel._float_table` at
    ``Detail.SUITS``, the same float64 operations) for the ``factors.shape[1]`` compositions from
    row ``start`` of the suit counts ``suits`` (n, 13, 4), the kinds (ranks) counted in ``kinds``:
    row ``(k * 7 + m) * 3 + t`` holds ``falling(n_k, m)`` (``t = 0``), ``falling(n_k - 2, m - 2)``
    times the ordered suited pairs (``t = 1``, ``m >= 2``), ``falling(n_k - 4, m - 4)`` times the
    ordered pairs of suited pairs (``t = 2``, ``m >= 4``), else 0."""
    factors[:, :] = 0.0
    for k in range(kinds.shape[0]):
        base = k * 21
        for i in range(factors.shape[1]):
            counts = suits[start + i, k]
            s0, s1, s2, s3 = float(counts[0]), float(counts[1]), float(counts[2]), float(counts[3])
            f0, f1, f2, f3 = s0 * (s0 - 1), s1 * (s1 - 1), s2 * (s2 - 1), s3 * (s3 - 1)
            suited = f0 + f1 + f2 + f3
            squares = 0.0 + f0 * f0 + f1 * f1 + f2 * f2 + f3 * f3
            quads = 0.0 + f0 * (s0 - 2) * (s0 - 3) + f1 * (s1 - 2) * (s1 - 3) + f2 * (s2 - 2) * (s2 - 3) + \
                f3 * (s3 - 2) * (s3 - 3)
            pairs = suited * suited - squares + quads
            n = float(kinds[k, i])
            plain, one, two = 1.0, 1.0, 1.0
            for m in range(7):
                if m > 0:
                    plain = plain * (n - (m - 1))
                factors[base + m * 3, i] = plain
                if m > 2:
                    one = one * (n - (m - 1))
                if m >= 2:
                    factors[base + m * 3 + 1, i] = one * suited
                if m > 4:
                    two = two * (n - (m - 1))
                if m >= 4:
                    factors[base + m * 3 + 2, i] = two * pairs


@_jit
def chunk_suited_values(counts, suits, kind_of, start, parent, factor, kinds, factors, values, weights, sums):
    """:func:`chunk_values` at ``Detail.SUITS``: the kinds (ranks), the factor table of
    :func:`suited_factors` from the suit counts ``suits`` (n, 13, 4), then :func:`part_values`."""
    chunk_kinds(counts, kind_of, start, kinds)
    suited_factors(suits, start, kinds, factors)
    part_values(factors, parent, factor, values, weights, sums)


@_jit
def stage_into(partial, values, rows, columns, sizes, leading, start, limit, total, out, bad):
    """A stage's sums (:func:`stage_sums`, into the work array ``total``) written to
    ``out[start + i, columns[f]]`` as int64, times ``(N - 4)(N - 5)`` when ``leading``;
    ``bad[i]`` set where a sum reached ``limit`` (``2**53``: not proven exact; the row is redone).
    Returns how many compositions were bad."""
    stage_sums(partial, values, rows, total)
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
def flag_ways(counts, suits, suited, sizes, weights, used, out):
    """:func:`exact_odds.batch.pairs.flag_ways` in one pass: per composition the sums over ranks
    (and suits when ``suited``) of :mod:`exact_odds.batch.pairs`, the ways ``L_s`` of each flag
    state, and ``out[i, f] = (N-4)(N-5) sum_s weights[s, f] L_s`` over the states ``used`` (those
    of some weight; int64, exact where it fits)."""
    states = np.zeros(weights.shape[0], dtype=np.int64)
    for i in range(counts.shape[0]):
        same, twin, squares = 0, 0, 0
        every, paired, within, gsquares, twins = 0, 0, 0, 0, 0
        for r in range(counts.shape[1]):
            c = counts[i, r]
            p = c * (c - 1)
            same += p
            twin += p * (c - 2) * (c - 3)
            squares += p * p
            if suited:
                g, esquares, fours = 0, 0, 0
                for s in range(suits.shape[2]):
                    e = suits[i, r, s]
                    q = e * (e - 1)
                    g += q
                    esquares += q * q
                    fours += q * (e - 2) * (e - 3)
                every += g
                paired += g * p
                within += g * (c - 2) * (c - 3)
                gsquares += g * g
                twins += g * g - esquares + fours
        size = sizes[i]
        rest = (size - 2) * (size - 3)
        both = same * same - squares
        states[NONE] = size * (size - 1) * rest - 2 * same * rest + both + twin
        states[PLAYER] = states[BANKER] = same * rest - both - twin
        states[BOTH], states[TWIN] = both, twin
        if suited:
            other = every * same - paired
            states[PLAYER + PLAYER_SUITED] = states[BANKER + BANKER_SUITED] = every * rest - other - within
            states[BOTH + PLAYER_SUITED] = states[BOTH + BANKER_SUITED] = other
            states[TWIN + PLAYER_SUITED] = states[TWIN + BANKER_SUITED] = within
            states[BOTH + PLAYER_SUITED + BANKER_SUITED] = every * every - gsquares
            states[TWIN + PLAYER_SUITED + BANKER_SUITED] = twins
        tail = (size - 4) * (size - 5)
        for f in range(weights.shape[1]):
            total = 0
            for k in range(used.shape[0]):
                total += weights[used[k], f] * states[used[k]]
            out[i, f] = total * tail
