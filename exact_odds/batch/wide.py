"""Integers past int64 as arrays of 32-bit limbs: integer combinations of them, and Python integers.

Arithmetic on numpy arrays of Python integers costs about 60 ns an operation, and the numbers of
shoes past 1,448 cards (up to about ``2**124``) need a few dozen per composition and bet. Here
each integer becomes ``count`` little-endian 32-bit limbs (int64 arrays, one ``int.to_bytes``
each), an integer combination of columns is one float64 matrix product per limb (exact: a limb
times the sum of the coefficients' magnitudes stays below ``2**53``), carries are propagated in
int64, and the results become Python integers together (:func:`from_bytes_rows`).
"""

from __future__ import annotations

import pickle
from itertools import repeat
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]

LIMB_BITS = 32
"""Bits per limb."""
COEFFICIENT_LIMIT = 2**53 // 2**LIMB_BITS
"""The sum of a combination's coefficient magnitudes must stay below this (exact float64 products)."""
_ORDER: Literal["little"] = "little"


ROWS = 512
"""Rows of :func:`combine` at a time."""
_LONG1 = 0x8A
"""The pickle opcode of an integer of at most 255 bytes, little-endian two's complement."""
_HEAD = b"\x80\x02](", b"e."
"""A protocol-2 pickle of a list: PROTO 2, EMPTY_LIST, MARK; after the items APPENDS, STOP."""


def from_bytes_rows(data: npt.NDArray[np.uint8]) -> Array:
    """The Python integers of rows of little-endian two's complement bytes ``data`` (n, width), an
    object array (n,): the same as ``int.from_bytes(row, "little", signed=True)`` for each, made
    in one pass of C, about half the cost of calling ``int.from_bytes`` per integer. The rows
    become a pickle of a list of integers (opcode LONG1 each; integers alone, so loading it runs
    no code)."""
    n, width = data.shape
    if not 0 < width < 256:
        raise ValueError("integers of 1 to 255 bytes")
    items = np.empty(n, dtype=[("opcode", "u1"), ("size", "u1"), ("data", f"V{width}")])
    items["opcode"], items["size"] = _LONG1, width
    items["data"] = np.ascontiguousarray(data).view(f"V{width}").ravel()
    found = pickle.loads(_HEAD[0] + items.tobytes() + _HEAD[1])
    out: Array = np.fromiter(found, dtype=np.object_, count=n)
    return out


def limbs_for(bits: int) -> int:
    """Limbs holding an integer of ``bits`` bits, its sign, and one limb more (for :func:`combine`'s check)."""
    return bits // LIMB_BITS + 2


def to_limbs(values: Array, count: int) -> IntArray:
    """Non-negative Python integers below ``2**(32 count)`` (object array) as 32-bit limbs, int64,
    shape ``values.shape + (count,)``, least significant first (``int.to_bytes`` refuses larger)."""
    data = b"".join(map(int.to_bytes, values.ravel().tolist(), repeat(4 * count), repeat(_ORDER)))
    return np.frombuffer(data, dtype="<u4").astype(np.int64).reshape(*values.shape, count)


def combine(limbs: IntArray, table: IntArray, count: int) -> IntArray:
    """``limbs`` (n, c, L) combined by ``table`` (c, k) of integers, as ``count > L`` normalised
    limbs (n, k, count): each limb below ``2**32``, the whole the two's complement of the result,
    which must fit in ``32 (count - 1)`` bits, its sign included (checked: the last limb only
    extends the sign). Rows go :data:`ROWS` at a time, so that the carries' passes stay in cache."""
    if int(np.abs(table).sum(axis=0).max(initial=0)) >= COEFFICIENT_LIMIT:
        raise ValueError("coefficients too large for exact limbs")
    n, _, width = limbs.shape
    out = np.empty((count, n, table.shape[1]), dtype=np.int64)  # a limb's products side by side (contiguous)
    weights = table.astype(np.float64)
    mask = (1 << LIMB_BITS) - 1
    for start in range(0, n, ROWS):
        block = out[:, start:start + ROWS]
        block[:width] = np.ascontiguousarray(limbs[start:start + ROWS].transpose(2, 0, 1), dtype=np.float64) @ weights
        block[width:] = 0
        for i in range(count - 1):
            carry = block[i] >> LIMB_BITS
            block[i] &= mask
            block[i + 1] += carry
        block[-1] &= mask
        if (block[-1] != (block[-2] >> (LIMB_BITS - 1)) * mask).any():
            raise AssertionError("bulk evaluation lost ways (please report this bug)")
    return out.transpose(1, 2, 0)


def to_integers(limbs: IntArray) -> Array:
    """Python integers of normalised limbs (last axis, two's complement), object array of the other
    axes (:func:`from_bytes_rows`)."""
    data = np.ascontiguousarray(limbs, dtype="<u4").view(np.uint8).reshape(-1, 4 * limbs.shape[-1])
    return from_bytes_rows(data).reshape(limbs.shape[:-1])
