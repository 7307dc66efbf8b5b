"""Reading compositions' text, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each function does in one pass over the bytes what :func:`exact_odds.batch.io.plain_counts` does in NumPy,
with the same counts or the same refusal. Text is a ``uint8`` array of ASCII bytes; tables are
C-contiguous ``int64`` arrays, one composition a row.
"""

from __future__ import annotations

import numba

_jit = numba.njit(cache=True, nogil=True)

_COMMA, _NEWLINE, _ZERO = 44, 10, 48
_MAX_DIGITS = 9


@_jit
def read_plain(data, out):
    """Read text in the plain form (lines of ``fields`` fields of one to nine digits, a newline at the end)
    into ``out``; the number of rows read, or -1 when the text is not in that form or does not fit."""
    size, fields = data.shape[0], out.shape[1]
    if size == 0 or data[size - 1] != _NEWLINE:
        return -1
    flat = out.reshape(-1)
    i, k = 0, 0
    while i < size:  # a line; the last byte, a newline, stops every field before the end
        if k == flat.shape[0]:
            return -1
        for col in range(fields):
            start, value, c = i, 0, data[i]
            while _ZERO <= c <= _ZERO + 9:
                value = value * 10 + (c - _ZERO)
                i += 1
                c = data[i]
            if i == start or i - start > _MAX_DIGITS or c != (_COMMA if col < fields - 1 else _NEWLINE):
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
