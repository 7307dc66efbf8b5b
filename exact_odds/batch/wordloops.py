"""Loops of the integers of shoes past int64 in 64-bit words, compiled (numba): imported only
through :mod:`exact_odds.batch.compiled`, used by :mod:`exact_odds.batch.widepass`.

The sequences ``N (N-1) ... (N-5)`` as words, and integer combinations of words (the bets'
numerators) divided exactly and checked, each written as an item of a pickle of a list of
Python integers (opcode LONG1: a byte count, then the integer's bytes, little-endian two's
complement), so that loading the pickle makes every Python integer at once and runs no code;
and the pair bets' closed forms in words (modulo ``2**64`` and two primes). Words are
little-endian 64-bit words held in int64 arrays (the bits; their values are non-negative);
arrays are C-contiguous.
"""

from __future__ import annotations

import numba
import numpy as np

_jit = numba.njit(cache=True, nogil=True)


@_jit
def sequence_words(sizes, order, words):
    """``words[i]``: ``N (N-1) ... (N-5)`` for ``N = sizes[order[i]]`` (at least 6), as little-endian
    64-bit words (int64 holding the bits; enough of them: higher bits are
    dropped). Up to 2,097,151 cards the two halves ``N (N-1) (N-2)`` and ``(N-3) (N-4) (N-5)`` fit
    int64 and their product is made from 32-bit halves; larger shoes on 32-bit limbs
    (:func:`_sequence_limbs`)."""
    mask = np.uint64(0xFFFFFFFF)
    for i in range(order.shape[0]):
        n = sizes[order[i]]
        if n > 2_097_151 or words.shape[1] < 2:
            _sequence_limbs(n, words[i])
            continue
        a = np.uint64(n * (n - 1) * (n - 2))
        b = np.uint64((n - 3) * (n - 4) * (n - 5))
        a0, a1, b0, b1 = a & mask, a >> np.uint64(32), b & mask, b >> np.uint64(32)
        low, middle = a0 * b0, a1 * b0
        carry = (low >> np.uint64(32)) + (middle & mask) + (a0 * b1 & mask)
        words[i, 0] = np.int64((low & mask) | (carry << np.uint64(32)))
        words[i, 1] = np.int64(a1 * b1 + (middle >> np.uint64(32)) + (a0 * b1 >> np.uint64(32))
                               + (carry >> np.uint64(32)))
        words[i, 2:] = 0


@_jit
def _sequence_limbs(n, words):
    """``words`` (W,): ``N (N-1) ... (N-5)`` as little-endian 64-bit words, on 32-bit limbs (uint64
    arithmetic: ``limb + limb * half + carry`` stays below ``2**64``)."""
    size = 2 * words.shape[0]
    product = np.zeros(size + 2, dtype=np.uint64)
    step = np.zeros(size + 2, dtype=np.uint64)
    mask = np.uint64(0xFFFFFFFF)
    product[0] = 1
    used = 1
    for j in range(6):
        f = np.uint64(n - j)
        step[:] = 0
        for k in range(2):
            half = (f >> np.uint64(32 * k)) & mask
            carry = np.uint64(0)
            for t in range(used):
                v = step[t + k] + product[t] * half + carry
                step[t + k] = v & mask
                carry = v >> np.uint64(32)
            step[used + k] += carry
        used = min(used + 2, size)
        product[:] = step
    for w in range(words.shape[0]):
        words[w] = np.int64(product[2 * w] | (product[2 * w + 1] << np.uint64(32)))


@_jit
def pickled_combinations(words, starts, columns, coefficients, divisors, rules, slots, positions, size, out):
    """Integer combinations of each row's integers, divided exactly, as the items of a pickle.

    ``words`` (m, c, W): non-negative integers as little-endian 64-bit words (int64 holding the
    bits). Combination ``j`` of row ``i`` is ``x = sum over e in starts[j]:starts[j + 1] of
    coefficients[e] * words[i, columns[e]]`` (the coefficients' magnitudes adding up to less than
    ``2**31``), summed on 32-bit limbs in int64, then ``x / divisors[j]`` (``1 <= divisor < 2**31``),
    which must be exact. ``rules[j]``: 0 any result, 1 it must be zero (and is not written). A
    written result goes to record ``k = positions[i] * kept + slots[j]`` (``kept``: the results
    written per row, so that a row's are side by side) of the pickle ``out`` (uint64,
    :data:`~exact_odds.batch.widepass.HEAD` first): the opcode LONG1 and ``size`` (``size + 2`` a
    multiple of 8) at byte ``6 + k (size + 2)``, then ``size`` bytes of little-endian two's
    complement, which must hold it, from word ``1 + k (size + 2) / 8`` on, written a word at a
    time (the last word's two high bytes are the next record's opcode and size: the caller writes
    the first record's, and the stop after the last). Returns how many checks failed (inexact,
    nonzero, too large)."""
    rows, count, kept = words.shape[0], 2 * words.shape[2] + 2, slots.max() + 1
    limbs = np.empty(count, dtype=np.int64)
    halves = np.zeros((words.shape[1], count), dtype=np.int64)
    mask = (1 << 32) - 1
    bad = 0
    for i in range(rows):
        for c in range(words.shape[1]):
            for w in range(words.shape[2]):
                halves[c, 2 * w] = words[i, c, w] & mask
                halves[c, 2 * w + 1] = (words[i, c, w] >> 32) & mask
        for j in range(starts.shape[0] - 1):
            at = 1 + (positions[i] * kept + slots[j]) * ((2 + size) >> 3)
            if starts[j + 1] == starts[j] + 1 and coefficients[starts[j]] == 1 and divisors[j] == 1 and rules[j] == 0:
                bad += _copy_record(words[i, columns[starts[j]]], size, out, at)
                continue
            negative = _combination(halves, coefficients, columns, starts[j], starts[j + 1], limbs)
            d, rest = divisors[j], 0
            if d != 1:  # on the magnitude
                if negative:
                    _negate(limbs)
                for t in range(count - 1, -1, -1):
                    v = (rest << 32) | limbs[t]
                    limbs[t] = v // d
                    rest = v - limbs[t] * d
                if negative:
                    _negate(limbs)
            bit, sign = 8 * size - 1, mask if negative else 0  # the bits from the sign bit up: all the sign
            wrong = (limbs[bit >> 5] >> (bit & 31)) != (sign >> (bit & 31))
            for t in range((bit >> 5) + 1, count):
                wrong |= limbs[t] != sign
            if rest or wrong or (rules[j] == 1 and limbs.any()):
                bad += 1
            if rules[j] == 1:
                continue
            _write_record(limbs, size, out, at)
    return bad


@_jit
def _combination(halves, coefficients, columns, first, stop, limbs):
    """``limbs`` (32-bit, two's complement, the sign extended to the last) of ``sum over e in
    first:stop of coefficients[e] * halves[columns[e]]`` (each row of ``halves``: an integer's
    32-bit limbs); returns whether it is negative."""
    if first == stop:  # no term: zero
        limbs[:] = 0
    else:
        a, c = coefficients[first], columns[first]
        for t in range(limbs.shape[0]):
            limbs[t] = a * halves[c, t]
    for e in range(first + 1, stop):
        a, c = coefficients[e], columns[e]
        for t in range(limbs.shape[0]):
            limbs[t] += a * halves[c, t]
    carry, mask = 0, (1 << 32) - 1
    for t in range(limbs.shape[0]):
        v = limbs[t] + carry
        limbs[t] = v & mask
        carry = v >> 32
    return carry < 0


@_jit
def _write_record(limbs, size, out, at):
    """32-bit limbs as the ``size`` bytes of a LONG1 record from word ``at`` of ``out`` on, and the
    next record's opcode and size (:func:`pickled_combinations`)."""
    last = ((2 + size) >> 3) - 1
    for w in range(last):
        out[at + w] = np.uint64(limbs[2 * w]) | (np.uint64(limbs[2 * w + 1]) << np.uint64(32))
    word = np.uint64(limbs[2 * last]) | (np.uint64(limbs[2 * last + 1]) << np.uint64(32))
    out[at + last] = (word & np.uint64(0xFFFFFFFFFFFF)) | np.uint64((size << 56) | (0x8A << 48))


@_jit
def _copy_record(column, size, out, at):
    """A non-negative integer of little-endian 64-bit words ``column`` as a record (:func:`_write_record`);
    returns 1 if it does not fit (from the sign bit up, its bits must be zero), else 0."""
    last = ((2 + size) >> 3) - 1
    for w in range(last):
        out[at + w] = np.uint64(column[w]) if w < column.shape[0] else np.uint64(0)
    word = np.uint64(column[last]) if last < column.shape[0] else np.uint64(0)
    out[at + last] = (word & np.uint64(0xFFFFFFFFFFFF)) | np.uint64((size << 56) | (0x8A << 48))
    high = word >> np.uint64(47)
    for w in range(last + 1, column.shape[0]):
        high |= np.uint64(column[w])
    return 1 if high else 0


@_jit
def _negate(limbs):
    """Two's complement of 32-bit limbs, in place (``2**(32 len) - x`` for ``x`` below that)."""
    carry = 1
    mask = (1 << 32) - 1
    for t in range(limbs.shape[0]):
        v = ((~limbs[t]) & mask) + carry
        limbs[t] = v & mask
        carry = v >> 32


@_jit
def flag_words(counts, sizes, order, weights, used, primes, inverses, words):
    """The closed forms of :mod:`exact_odds.batch.pairs` (rank states only) for shoes past int64:
    ``words[i, f]`` = ``(N-4)(N-5) sum_s weights[s, f] L_s`` of the composition ``counts[order[i]]``
    (``sizes``: its cards; ``used``: the states of some weight) as two little-endian 64-bit words,
    from its values modulo ``2**64`` (the same arithmetic, wrapping in uint64) and modulo the two
    primes ``p, q`` below ``2**31`` (:func:`_flag_residues`), by the Chinese remainder theorem:
    ``x = a + 2**64 y``, ``y = y_p + p ((y_q - y_p) / p mod q)``, ``y_p = (x_p - a) / 2**64 mod p``
    (``inverses``: ``2**-64 mod p``, ``2**-64 mod q``, ``p**-1 mod q``). Exact for integers below
    ``2**64 p q`` (the caller's bound)."""
    states = np.zeros((2, weights.shape[0]), dtype=np.int64)
    wrapped = np.zeros(weights.shape[0], dtype=np.uint64)
    reduced = np.zeros((2, weights.shape[0], weights.shape[1]), dtype=np.int64)
    for k in range(2):
        for s in range(weights.shape[0]):
            for f in range(weights.shape[1]):
                reduced[k, s, f] = weights[s, f] % primes[k]
    p, q = primes[0], primes[1]
    for i in range(order.shape[0]):
        row, n = counts[order[i]], sizes[order[i]]
        _wrapped_states(row, np.uint64(n), wrapped)
        tail = np.uint64(n - 4) * np.uint64(n - 5)
        for f in range(weights.shape[1]):
            a = np.uint64(0)
            for k in range(used.shape[0]):
                a += np.uint64(weights[used[k], f]) * wrapped[used[k]]
            words[i, f, 0] = np.int64(a * tail)
        for m in range(2):
            modulus = primes[m]
            inverse = 1.0 / modulus
            _flag_residues(row, n, modulus, inverse, states[m])
            rest = _mulmod((n - 4) % modulus, (n - 5) % modulus, modulus, inverse)
            for f in range(weights.shape[1]):
                x = 0
                for k in range(used.shape[0]):
                    x += _mulmod(reduced[m, used[k], f], states[m, used[k]], modulus, inverse)
                x = _mulmod(x % modulus, rest, modulus, inverse)
                low = np.int64(np.uint64(words[i, f, 0]) % np.uint64(modulus))
                found = _mulmod((x - low) % modulus, inverses[m], modulus, inverse)
                if m == 1:
                    y = _mulmod((found - words[i, f, 1]) % q, inverses[2], q, inverse)
                    words[i, f, 1] += p * y
                else:
                    words[i, f, 1] = found


@_jit
def _mulmod(a, b, p, inverse):
    """``a * b mod p`` for ``0 <= a, b < p < 2**31`` (``inverse = 1.0 / p``): the product fits int64,
    the float64 quotient is within one."""
    r = a * b - np.int64(np.float64(a) * np.float64(b) * inverse) * p
    if r < 0:
        return r + p
    return r - p if r >= p else r


@_jit
def _reduce(x, p, inverse):
    """``x mod p`` for ``0 <= x < 2**53`` (``inverse = 1.0 / p``; the float64 quotient is within one)."""
    r = x - np.int64(np.float64(x) * inverse) * p
    if r < 0:
        return r + p
    return r - p if r >= p else r


@_jit
def _wrapped_states(row, n, out):
    """The rank states' ``L_s`` (:mod:`exact_odds.batch.pairs`) modulo ``2**64`` (uint64 arithmetic wraps)."""
    same, twin, squares = np.uint64(0), np.uint64(0), np.uint64(0)
    for r in range(row.shape[0]):
        c = np.uint64(row[r])
        pair = c * (c - np.uint64(1))
        same += pair
        twin += pair * (c - np.uint64(2)) * (c - np.uint64(3))
        squares += pair * pair
    rest = (n - np.uint64(2)) * (n - np.uint64(3))
    both = same * same - squares
    out[0] = n * (n - np.uint64(1)) * rest - np.uint64(2) * same * rest + both + twin
    out[1] = out[2] = same * rest - both - twin
    out[3], out[19] = both, twin


@_jit
def _flag_residues(row, n, p, inverse, out):
    """The rank states' ``L_s`` modulo a prime ``p`` below ``2**31`` (:func:`_mulmod`), for rank counts
    below ``2**21``."""
    same, twin, squares = 0, 0, 0
    for r in range(row.shape[0]):  # counts below 2**21 (the caller's bound): products of two fit
        c = row[r]
        pair = _reduce(c * (c - 1), p, inverse)
        same += pair
        twin += _mulmod(pair, _reduce((c - 2) * (c - 3), p, inverse), p, inverse)
        squares += _mulmod(pair, pair, p, inverse)
    same, twin, squares = same % p, twin % p, squares % p
    m = n % p
    rest = _mulmod((m - 2) % p, (m - 3) % p, p, inverse)
    both = (_mulmod(same, same, p, inverse) - squares) % p
    together = _mulmod(same, rest, p, inverse)
    out[0] = (_mulmod(_mulmod(m, (m - 1) % p, p, inverse), rest, p, inverse) - 2 * together + both + twin) % p
    out[1] = out[2] = (together - both - twin) % p
    out[3], out[19] = both, twin
