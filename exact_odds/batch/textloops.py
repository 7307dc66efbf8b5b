"""Reading and writing compositions' text, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each function does in one pass over the bytes what :func:`exact_odds.batch.io._plain_counts`
(reading) and :func:`exact_odds.report.study._int_csv` (writing) do in several vectorised NumPy
passes, with the same results: the same counts, or the same refusal of text not in the plain
form (the general reader then takes over and words the error), and the same bytes written.

Array conventions: text is a one-dimensional ``uint8`` array of ASCII bytes (``np.frombuffer``
of the encoded text, or a buffer to fill); tables are C-contiguous ``int64`` arrays of shape
(rows, columns), one composition a row, so a row is one line of text.
"""

from __future__ import annotations

import numba
import numpy as np

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


_PAIRS = np.frombuffer("".join(f"{i:02d}" for i in range(100)).encode("ascii"), dtype=np.uint8).copy()
"""The 200 bytes ``00 01 ... 99``: the two ASCII digits of each number below 100."""
_POWERS = np.array([10**k for k in range(1, 8)], dtype=np.int64)
"""10, 100, ..., 10**7: a number below 10**8 has one digit more than the powers it reaches."""
_BLOCK = 10**8
"""Values are written eight digits at a time: an int64 has at most three blocks."""


@_jit
def _write_short(out, pos, value):
    """Write ``value`` (0 <= value < 10**8) at ``out[pos:]`` without leading zeros; returns the end."""
    count = 1
    while count < 8 and value >= _POWERS[count - 1]:
        count += 1
    end = at = pos + count
    while value >= 100:  # two digits at a time, from the right
        rest = value // 100
        pair = 2 * (value - 100 * rest)
        out[at - 1], out[at - 2] = _PAIRS[pair + 1], _PAIRS[pair]
        at -= 2
        value = rest
    if value >= 10:
        out[at - 1], out[at - 2] = _PAIRS[2 * value + 1], _PAIRS[2 * value]
    else:
        out[at - 1] = _ZERO + value
    return end


@_jit
def _write_block(out, pos, value):
    """Write ``value`` (0 <= value < 10**8) at ``out[pos:pos + 8]`` as exactly eight digits."""
    high, low = value // 10_000, value % 10_000
    for at, part in ((pos, high), (pos + 4, low)):  # four digits each, two pairs
        top, bottom = 2 * (part // 100), 2 * (part % 100)
        out[at], out[at + 1] = _PAIRS[top], _PAIRS[top + 1]
        out[at + 2], out[at + 3] = _PAIRS[bottom], _PAIRS[bottom + 1]


@_jit
def write_int_csv(table, out):
    """Write the non-negative int64 ``table`` (rows, columns) into ``out`` (uint8) as CSV: decimal
    values without leading zeros (``0`` for zero), a comma between values, ``\\n`` after each row.
    ``out`` must hold 20 bytes per value (19 digits and a separator). Returns the bytes written."""
    pos = 0
    for i in range(table.shape[0]):
        for j in range(table.shape[1]):
            value = table[i, j]
            if value < _BLOCK:
                pos = _write_short(out, pos, value)
            elif value < _BLOCK * _BLOCK:
                pos = _write_short(out, pos, value // _BLOCK)
                _write_block(out, pos, value % _BLOCK)
                pos += 8
            else:
                pos = _write_short(out, pos, value // (_BLOCK * _BLOCK))
                _write_block(out, pos, value // _BLOCK % _BLOCK)
                _write_block(out, pos + 8, value % _BLOCK)
                pos += 16
            out[pos] = _COMMA
            pos += 1
        out[pos - 1] = _NEWLINE
    return pos
