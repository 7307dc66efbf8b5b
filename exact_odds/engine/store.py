"""Coefficient tables as data: one file format, the tables shipped with the package, and a user cache.

The integer tables of :mod:`exact_odds.engine.polynomial` and :mod:`exact_odds.batch.coefficients` depend
only on the drawing rule: the standard tableau's are shipped (``scripts/make_coefficients.py``), another's
built on first use and cached, keyed by the rule's content. Nothing here imports NumPy.

File format, version :data:`FORMAT_VERSION` (integers little-endian)::

    exact-odds coefficient table          magic line
    format 1                              header lines "key value"
    table single-points                   the table's name (what it holds)
    tableau 5c0e...                       tableau_key(): SHA-256 of the rule's decisions
    arrays mono:H:35564 count:B:35564 ... name:typecode:length, in payload order
    crc32 1a2b3c4d                        CRC-32 of the header lines above and the payload
    (blank line)
    zlib-compressed payload               the arrays one after the other

A file is trusted only if every check passes, else it is :class:`CorruptTable` (a cache file is then
rebuilt). Cache files are written atomically, in ``$EXACT_ODDS_CACHE_DIR``, else
``$XDG_CACHE_HOME/exact-odds``, else ``~/.cache/exact-odds``; if it cannot be written, tables stay in memory.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import zlib
from array import array
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import lru_cache
from pathlib import Path

from exact_odds.core.tableau import COLUMNS, STANDARD_TABLEAU, Tableau
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import open_user_file

FORMAT_VERSION = 1
"""Version of the file layout and of the tables' meaning; bump it when either changes."""

MAGIC = b"exact-odds coefficient table\n"
CACHE_ENV = "EXACT_ODDS_CACHE_DIR"
"""Environment variable naming the cache directory (tests point it at a temporary directory)."""

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

Arrays = dict[str, "array[int]"]
"""A table's content: named arrays of non-negative integers (typecodes B, H, I, Q)."""

_WIDTHS = {"B": 1, "H": 2, "I": 4, "Q": 8}


class CorruptTable(ValueError):
    """A table file that fails a check (truncated, altered, for another tableau or format)."""


def decisions(tableau: Tableau) -> bytes:
    """Every decision of the rule, one byte each: the player's on each pair of two-card totals, then the
    banker's on each pair and player's third card (:data:`~exact_odds.core.tableau.COLUMNS`)."""
    bits = [tableau.player_draws_on(p, b) for p in range(10) for b in range(10)]
    bits += [tableau.banker_draws_given(p, b, c) for p in range(10) for b in range(10) for c in COLUMNS]
    return bytes(bits)


STANDARD_KEY = "f91cfd7a8e077b4343f580c60d9b5833b87cd2e951b8df4808ea265d9401e9a0"
"""``tableau_key(STANDARD_TABLEAU)``, written out (a test recomputes it)."""


@lru_cache(maxsize=64)
def tableau_key(tableau: Tableau) -> str:
    """SHA-256 (hex) of :func:`decisions`: two files that write the same rule share their tables."""
    if tableau == STANDARD_TABLEAU:  # the common case, without asking the rule 2,200 questions twice
        return STANDARD_KEY
    found = decisions(tableau)
    return STANDARD_KEY if found == decisions(STANDARD_TABLEAU) else hashlib.sha256(found).hexdigest()


def typecode_for(largest: int) -> str:
    """The narrowest unsigned typecode holding ``largest``."""
    for code, width in _WIDTHS.items():
        if largest < 1 << (8 * width):
            return code
    raise OverflowError(f"{largest} does not fit in 64 bits")


def as_array(values: list[int]) -> array[int]:
    """``values`` (non-negative) as the narrowest array."""
    return array(typecode_for(max(values, default=0)), values)


def encode(name: str, key: str, arrays: Mapping[str, array[int]]) -> bytes:
    """The bytes of a table file holding ``arrays`` for the tableau of ``key``."""
    parts = []
    for a in arrays.values():
        if a.itemsize != _WIDTHS[a.typecode]:
            raise ValueError(f"typecode {a.typecode} has an unexpected width on this platform")
        if sys.byteorder == "big":
            a = array(a.typecode, a)
            a.byteswap()
        parts.append(a.tobytes())
    payload = zlib.compress(b"".join(parts), 9)
    fields = " ".join(f"{n}:{a.typecode}:{len(a)}" for n, a in arrays.items())
    header = f"format {FORMAT_VERSION}\ntable {name}\ntableau {key}\narrays {fields}\n".encode("ascii")
    return MAGIC + header + f"crc32 {zlib.crc32(payload, zlib.crc32(header)):08x}\n\n".encode("ascii") + payload


def decode(data: bytes, name: str, key: str) -> Arrays:
    """The arrays of a table file, after every check; :class:`CorruptTable` if one fails."""
    if not data.startswith(MAGIC):
        raise CorruptTable("not a table file")
    head, sep, payload = data[len(MAGIC):].partition(b"\n\n")
    lines = head.split(b"\n")
    if not sep or len(lines) != 5 or not lines[-1].startswith(b"crc32 "):
        raise CorruptTable("bad header")
    header = b"\n".join(lines[:-1]) + b"\n"
    if lines[-1] != f"crc32 {zlib.crc32(payload, zlib.crc32(header)):08x}".encode("ascii"):
        raise CorruptTable("checksum mismatch")
    try:
        fields = dict(line.decode("ascii").partition(" ")[::2] for line in lines[:-1])
        specs = [(n, t, int(size)) for n, t, size in (f.split(":") for f in fields["arrays"].split())]
        raw = zlib.decompress(payload)
    except (KeyError, ValueError, zlib.error) as err:  # UnicodeDecodeError is a ValueError
        raise CorruptTable(f"bad header or payload: {err}") from None
    if fields.get("format") != str(FORMAT_VERSION) or fields.get("table") != name or fields.get("tableau") != key:
        raise CorruptTable(f"not format {FORMAT_VERSION} table {name} of this tableau")
    out: Arrays = {}
    at = 0
    for n, t, size in specs:
        if t not in _WIDTHS:
            raise CorruptTable(f"unknown typecode {t}")
        a = array(t, raw[at:at + size * _WIDTHS[t]])
        if len(a) != size:
            raise CorruptTable("payload shorter than declared")
        if sys.byteorder == "big":
            a.byteswap()
        out[n] = a
        at += size * _WIDTHS[t]
    if at != len(raw):
        raise CorruptTable("payload longer than declared")
    return out


def cache_dir() -> Path:
    """The user cache directory for tables (not created here)."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "exact-odds"


def cache_path(name: str, key: str) -> Path:  # of table ``name`` of the tableau of ``key``
    return cache_dir() / f"{name}-{key[:32]}-v{FORMAT_VERSION}.bin"


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory and an atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; tables are not secret
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


MAX_TABLE_BYTES = 64 * 2**20
"""The most bytes a table file may hold (the largest shipped is about 0.5 MB)."""


def _read(path: str | Path, name: str, key: str) -> Arrays | None:
    """The arrays of a table file, or ``None`` if it is missing, unreadable, corrupt, too large or not a
    regular file."""
    try:
        with open_user_file(path, "table") as fh:
            data = fh.read(MAX_TABLE_BYTES + 1)
        return decode(data, name, key) if len(data) <= MAX_TABLE_BYTES else None
    except (OSError, InputError, CorruptTable):
        return None


def load(name: str, tableau: Tableau, build: Callable[[Tableau], Arrays]) -> Arrays:
    """Table ``name`` of ``tableau``: shipped (the standard rule's), else cached, else built by
    ``build(tableau)`` and cached (if the cache can be written)."""
    key = tableau_key(tableau)
    if key == STANDARD_KEY:
        found = _read(os.path.join(DATA_DIR, f"standard-{name}.bin"), name, key)
        if found is not None:
            return found
    path = cache_path(name, key)
    found = _read(path, name, key)
    if found is not None:
        return found

    arrays = build(tableau)
    with suppress(OSError):
        write_atomic(path, encode(name, key, arrays))
    return arrays
