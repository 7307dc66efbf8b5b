"""Reading the files a user names, safely: regular files only (refused without blocking), a size cap per
kind, UTF-8 checked by line (docs/formats.md says it for users); ``-`` is standard input where a command
says so. Every refusal is one :class:`~exact_odds.inputs.errors.InputError` naming the file.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import IO

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

MiB = 1 << 20

CAP = MiB
"""The most bytes of a file read whole: rules, configuration, bets, game, a recorded shoe, results."""

MAX_LINE = MiB
"""The most bytes of one line of a file read line by line (a log)."""

STDIN = "-"
"""The file name that means standard input, where a command takes it."""

_NAME = 256
"""A file name longer than this is cut short in messages."""

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _size_text(n: int) -> str:
    return f"{n // MiB} MiB" if n % MiB == 0 else f"{n:,} bytes"


def _not_regular(mode: int) -> str | None:
    """What a file that is not a regular file is (``"a FIFO"``), or None."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names a regular file (after links), never an error (for ``--config standard``)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def exists(path: str | Path) -> bool:
    """Whether ``path`` names anything (a FIFO too: it is then refused as a file, not taken for a name)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def open_user_file(path: str | Path, what: str, error: type[InputError] = InputError) -> IO[bytes]:
    """The file ``path`` opened for reading in binary, if it is a regular file; ``what`` names the kind
    of file in messages (``cannot read rules file ...``)."""
    name = str(path)
    if not name:
        raise error(f"no {what} file named (the file name is empty)")
    try:
        kind = _not_regular(os.stat(name).st_mode)  # a FIFO or a device is refused before it is opened
        if kind is None:
            fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
            kind = _not_regular(os.fstat(fd).st_mode)  # the file opened is the one looked at
            if kind is None:
                os.set_blocking(fd, True)
                return os.fdopen(fd, "rb")
            os.close(fd)
    except OSError as err:
        raise error(f"cannot read {what} file {shown(name, _NAME)}: {err.strerror}") from None
    except ValueError as err:  # a NUL character in the name
        raise error(f"cannot read {what} file {shown(name, _NAME)}: {err}") from None
    raise error(f"cannot read {what} file {shown(name, _NAME)}: it is {kind}, not a regular file")


BOM = b"\xef\xbb\xbf"
"""The byte-order mark spreadsheets write at the start of UTF-8 text: read as nothing."""


def _decoded(data: bytes, name: str, what: str, error: type[InputError], first_line: int = 1) -> str:
    """``data`` as UTF-8 text with universal newlines; a bad byte names its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + first_line
        raise error(f"{what} file {name} is not UTF-8 text (line {line})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_user_file(path: str | Path, what: str, error: type[InputError] = InputError, *,
                   cap: int | None = None, stdin: bool = False) -> str:
    """The UTF-8 text of a file the user named, read whole under :data:`CAP` (else ``cap``); with ``stdin``,
    ``-`` reads standard input."""
    limit = CAP if cap is None else cap
    name = str(path)
    if stdin and name == STDIN:
        return _read_stdin(what, error, limit)
    with open_user_file(path, what, error) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as err:
            raise error(f"cannot read {what} file {shown(name, _NAME)}: {err.strerror}") from None
    if len(data) > limit:
        raise error(f"{what} file {shown(name, _NAME)} is larger than {_size_text(limit)}, "
                    f"the most a {what} file may hold")
    return _decoded(data.removeprefix(BOM), shown(name, _NAME), what, error)


def _read_stdin(what: str, error: type[InputError], limit: int) -> str:
    buffer = getattr(sys.stdin, "buffer", None)  # None: standard input replaced by text (tests)
    data: str | bytes = sys.stdin.read(limit + 1) if buffer is None else buffer.read(limit + 1)
    if len(data) > limit:
        raise error(f"standard input is larger than {_size_text(limit)}, the most a {what} file may hold")
    return data if isinstance(data, str) else _decoded(data.removeprefix(BOM), "on standard input", what, error)


BLOCK = 8 * MiB
"""Bytes of whole lines :func:`user_blocks` reads at a time (some 200,000 compositions)."""


def user_blocks(path: str | Path, what: str, error: type[InputError] = InputError, *, block: int | None = None,
                max_line: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """The text of a file the user named (``-``: standard input) in blocks of about ``block`` bytes of whole
    lines (ends of line read as ``\n``), each with the number of its first line: any size in bounded memory."""
    name = str(path)
    shown_name = "on standard input" if name == STDIN else shown(name, _NAME)
    raw = _stdin_bytes() if name == STDIN else open_user_file(path, what, error)
    with nullcontext(raw) if name == STDIN else raw:  # standard input stays open
        first, pending, opening = 1, b"", True
        while True:
            try:
                data = raw.read(block or BLOCK)
            except OSError as err:
                raise error(f"cannot read {what} file {shown_name}: {err.strerror}") from None
            if not data:  # the end: a last line without its end of line
                if pending:
                    yield first, _decoded(pending, shown_name, what, error, first)
                return
            pending, opening = pending + (data.removeprefix(BOM) if opening else data), False
            cut = pending.rfind(b"\n") + 1
            whole, pending = pending[:cut], pending[cut:]
            if len(pending) > max_line:
                line = first + whole.count(b"\n")
                raise error(f"{what} file {shown_name}: line {line} is longer than {_size_text(max_line)}")
            if whole:
                yield first, _decoded(whole, shown_name, what, error, first)
                first += whole.count(b"\n")


def _stdin_bytes() -> IO[bytes]:
    buffer = getattr(sys.stdin, "buffer", None)
    return buffer if buffer is not None else io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))


def user_lines(path: str | Path, what: str, error: type[InputError] = InputError, *, newline: str | None = None,
               max_line: int = MAX_LINE) -> Iterator[str]:
    """The lines of a file the user named (``-``: standard input), read one at a time, each with its end
    of line (``newline`` as :func:`open` takes it: ``""`` for CSV)."""
    stdin = str(path) == STDIN
    raw = _stdin_bytes() if stdin else open_user_file(path, what, error)
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="surrogateescape", newline=newline)
    try:
        yield from _checked_lines(text, "on standard input" if stdin else shown(str(path), _NAME), what, error,
                                  max_line)
    finally:
        if stdin:
            text.detach()  # standard input stays open
        else:
            text.close()


def _checked_lines(text: IO[str], name: str, what: str, error: type[InputError], max_line: int) -> Iterator[str]:
    number = 0
    while True:
        try:
            line = text.readline(max_line + 1)
        except OSError as err:
            raise error(f"cannot read {what} file {name}: {err.strerror}") from None
        if not line:
            return
        number += 1
        if len(line) > max_line:
            raise error(f"{what} file {name}: line {number} is longer than {max_line:,} characters")
        if not line.isascii():
            try:
                line.encode("utf-8")
            except UnicodeEncodeError:
                raise error(f"{what} file {name} is not UTF-8 text (line {number})") from None
        yield line


class _RepeatedKey(Exception):
    """A key met twice in one JSON object (its one argument)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return obj


def _json_line(text: str, line: int, error: type[InputError]) -> object:
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        raise error(f"line {line}: not valid JSON: {err.msg}") from None
    except RecursionError:
        raise error(f"line {line}: not valid JSON: nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts (4,300 by default)
        raise error(f"line {line}: not valid JSON: a number too long") from None
    except _RepeatedKey as err:
        raise error(f"line {line}: key {shown(err.args[0])} given twice") from None


def json_objects(numbered: Iterable[tuple[int, str]], error: type[InputError],
                 keys: Iterable[str]) -> Iterator[tuple[int, dict[str, object]]]:
    """Each line of a log in JSON Lines that is not blank, as its number and its object; ``keys``, the first
    keys such an object has, are named when a line holds something else.

    >>> list(json_objects([(1, '{"round": 1}'), (2, "  ")], InputError, ["round", "dice"]))
    [(1, {'round': 1})]
    >>> list(json_objects([(3, "[1, 2]")], InputError, ["round", "dice"]))
    Traceback (most recent call last):
    ...
    exact_odds.inputs.errors.InputError: line 3: a JSON line must be an object with keys round, dice, ...
    >>> list(json_objects([(4, '{"round": 1, "round": 2}')], InputError, ["round", "dice"]))
    Traceback (most recent call last):
    ...
    exact_odds.inputs.errors.InputError: line 4: key 'round' given twice
    """
    named = ", ".join(keys)
    for line, text in numbered:
        if not text.strip():
            continue
        obj = _json_line(text, line, error)
        if not isinstance(obj, dict):
            raise error(f"line {line}: a JSON line must be an object with keys {named}, ...")
        yield line, obj
