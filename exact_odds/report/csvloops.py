"""Writing tables of integers as CSV, compiled (numba; imported only through :mod:`exact_odds.batch.compiled`):
in one pass the bytes :func:`exact_odds.report.study.int_csv` writes in several NumPy passes."""

from __future__ import annotations

import numba
import numpy as np

_jit = numba.njit(cache=True, nogil=True)

_COMMA, _NEWLINE, _ZERO = 44, 10, 48

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
