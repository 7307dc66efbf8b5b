"""Reading compositions' text, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each function does in one pass over the bytes what :func:`exact_odds.batch.io.plain_counts` does in
several vectorised NumPy passes, with the same results: the same counts, or the same refusal of text
not in the plain form (the general reader then takes over and words the error). The writer of
integer tables is the report's (:mod:`exact_odds.report.csvloops`).

Array conventions: text is a one-dimensional ``uint8`` array of ASCII bytes (``np.frombuffer``
of the encoded text, or a buffer to fill); tables are C-contiguous ``int64`` arrays of shape
(rows, columns), one composition a row, so a row is one line of text.
"""

from __future__ import annotations

import numba

_jit = numba.njit(cache=True, nogil=True)

_COMMA, _NEWLINE, _ZERO = 44, 10, 48
_MAX_DIGITS = 9
"""A plain field has at most nine digits (its value then fits any integer type easily)."""


@_jit
def read_plain(data, out):
    """Read text in the plain form into ``out`` (rows, fields), int64, C-contiguous: ASCII digits,
    commas and newlines only, each line ``fields`` non-empty fields of at most nine digits, no blank
    line, and a newline at the end (the caller adds one if missing). Returns the number of rows read,
    or -1 when the text is not in that form or has more lines than ``out`` has rows (nothing else
    is promised of ``out`` then)."""
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
