"""Where a key sits in a TOML file the user wrote: 1-based line numbers for error messages.

Every reader of a user's TOML file names a mistake as ``source:line: message``; :mod:`tomllib` keeps no
line numbers, so :class:`TomlText` finds them in the raw text. Line *indexes* (``start``, ``end``, headers)
are 0-based; the line *numbers* returned are 1-based, 0 meaning "not found".

>>> text = TomlText.of('name = "x"\\n\\n[banker]\\nwin = "1"\\n', "casino.toml")
>>> text.where(text.key_line("win", *text.block(text.headers({"banker"})[0])))
'casino.toml:4'
>>> text.where(text.first_match(r"\\s*tie"))
'casino.toml'
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import printable

_HEADER = re.compile(r"\s*\[\[?([^\]]*)\]\]?\s*(#.*)?$")
_AT_LINE = re.compile(r"\s*\(at line (\d+), column \d+\)$")


@dataclass(frozen=True)  # not slotted: its cached properties keep a __dict__
class TomlText:
    """The lines of one TOML text and the name it is reported under (a path, or e.g. ``"rules"``)."""

    source: str
    lines: tuple[str, ...]

    @classmethod
    def of(cls, text: str, source: str) -> TomlText:
        """The locator of ``text``, reported as ``source``; lines end at LF or CRLF only, as TOML's do."""
        lines = [line.removesuffix("\r") for line in text.split("\n")] if text else []
        return cls(source, tuple(lines[:-1] if text.endswith("\n") else lines))

    def where(self, line: int) -> str:
        """``source:line``, or just ``source`` when ``line`` is 0 (not found)."""
        return f"{self.source}:{line}" if line else self.source

    def first_match(self, pattern: str, start: int = 0, end: int | None = None) -> int:
        """1-based number of the first line in ``[start, end)`` that ``pattern`` matches at its start; 0 if none."""
        for i in range(start, len(self.lines) if end is None else end):
            if re.match(pattern, self.lines[i]):
                return i + 1
        return 0

    def key_line(self, key: str, start: int = 0, end: int | None = None) -> int:
        """1-based number of the first line ``key = ...`` (key bare or quoted) in ``[start, end)``; 0 if none."""
        return self.first_match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=", start, end)

    @cached_property
    def _headers(self) -> tuple[tuple[int, str], ...]:
        """(index, table name) of every header line, read once (thousands of tables stay linear)."""
        found = []
        for i, line in enumerate(self.lines):
            header = _HEADER.match(line)
            if header:
                found.append((i, re.sub(r"[\s\"']", "", header.group(1))))
        return tuple(found)

    @cached_property
    def _names(self) -> dict[int, str]:
        return dict(self._headers)

    def header_name(self, index: int) -> str | None:
        """The table name of a header line (``[[a.b]]`` gives ``"a.b"``), or None for other lines."""
        return self._names.get(index)

    def headers(self, names: Collection[str] | None = None) -> list[int]:
        """0-based indexes of the table headers, in order: every one, or those of the tables ``names``."""
        return [i for i, name in self._headers if names is None or name in names]

    def block(self, header: int, among: Collection[str] | None = None) -> tuple[int, int]:
        """``(start, end)``: the lines of the table whose header is at index ``header``, up to the next
        header (of the tables ``among``, if given)."""
        headers = self._headers
        for k in range(bisect_right(headers, (header, "\U0010ffff")), len(headers)):
            i, name = headers[k]
            if among is None or name in among:
                return header, i
        return header, len(self.lines)

    def top_level_key_line(self, key: str) -> int:
        """1-based line of a top-level ``key =`` before the first table, else of a table ``[key]`` or
        ``[key.sub]``; 0 if none."""
        headers = self.headers()
        line = self.key_line(key, 0, headers[0] if headers else None)
        if line:
            return line
        return next((i + 1 for i in headers if (self.header_name(i) or "").split(".")[0] == key), 0)

    def table_key_line(self, key: str | None, table: str, index: int = 0) -> int:
        """1-based line of ``key =`` in the ``index``-th table ``[table]`` (of its header if ``key`` is None)."""
        starts = self.headers({table})
        if index >= len(starts):
            return 0
        start, end = self.block(starts[index])
        return start + 1 if key is None else self.key_line(key, start, end)


def toml_error_line(message: str) -> tuple[int, str]:
    """The line of a :class:`tomllib.TOMLDecodeError` (from its message: Python 3.11's has no line attribute;
    0 if absent) and its message without ``(at line N, column M)``.

    >>> toml_error_line("Expected '=' after a key in a key/value pair (at line 3, column 5)")
    (3, "Expected '=' after a key in a key/value pair")
    """
    at = _AT_LINE.search(message)
    return (int(at.group(1)), message[:at.start()]) if at else (0, message)


MAX_TOML_DEPTH = 32
"""The deepest nesting a TOML file may have (header and dotted-key parts, arrays and inline tables, added
up): deeper is refused before :mod:`tomllib`, which fails on ``x = [[[...]]]``, reads it."""

_TOML_TOKEN = re.compile(r'"""|\'\'\'|["\'#\[\]{}\n=,.]')
_STRING_END = {'"""': re.compile(r'(?:[^\\]|\\.)*?"""', re.S), "\'\'\'": re.compile(r".*?\'\'\'", re.S),
               '"': re.compile(r'(?:[^"\\\n]|\\.)*"'), "'": re.compile(r"[^'\n]*'")}


@dataclass(slots=True)
class _Nesting:
    """Where :func:`toml_depth` is: the depth of the current table (``header``), array or inline table
    (``level``; ``outer``, those around it), value (``value``), and the key's parts so far (``parts``; 0: none)."""

    header: int = 0
    level: int = 0
    value: int = 0
    parts: int = 1
    outer: list[int] = field(default_factory=list)

    def open(self) -> int:
        self.outer.append(self.level)
        self.level = self.value + 1
        self.value = self.level
        return self.level

    def close(self) -> None:
        # an extra closing bracket is tomllib's to report
        self.level = self.outer.pop() if self.outer else self.header
        self.value, self.parts = self.level, 0


def toml_depth(text: str, limit: int = MAX_TOML_DEPTH) -> int:
    """The 1-based line where the nesting of ``text`` first passes ``limit`` (:data:`MAX_TOML_DEPTH`), or 0.

    >>> toml_depth("a = [[1], [2]]\\nb = '[[['\\n"), toml_depth("x = " + "[" * 40 + "]" * 40)
    (0, 1)
    >>> toml_depth("[a.b]\\nc.d = 1.5\\n", limit=3), toml_depth("[a.b]\\nc.d = 1.5\\n", limit=4)
    (2, 0)
    >>> toml_depth("['a.b.c']\\nx = { y.z = [1] }\\n", limit=3)
    2
    """
    at, line, pos = _Nesting(), 1, 0
    brackets: list[str] = []  # the open arrays and inline tables, "[" or "{"
    while (token := _TOML_TOKEN.search(text, pos)) is not None:
        kind, pos = token.group(), token.end()
        if kind in _STRING_END:
            close = _STRING_END[kind].match(text, pos)
            if close is None:  # an unclosed string: tomllib reports it
                return 0
            line += text.count("\n", pos, close.end())
            pos = close.end()
        elif kind == "#":
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
        elif kind == "\n":
            line += 1
            if not brackets:
                at.level = at.value = at.header
                at.parts = 1
        elif kind == ".":
            if at.parts:
                at.parts += 1
                if at.level + at.parts > limit:
                    return line
        elif kind == "=":
            at.value, at.parts = at.level + at.parts, 0
            if at.value > limit:
                return line
        elif kind == ",":
            at.value, at.parts = at.level, 1 if brackets and brackets[-1] == "{" else 0
        elif kind == "[" and not brackets and at.parts:  # a table header: its parts, one more for [[...]]
            pos, depth = _header(text, pos, limit)
            if depth > limit:
                return line
            at.header = at.level = at.value = depth
            at.parts = 0
        elif kind in "[{":
            brackets.append(kind)
            if at.open() > limit:
                return line
            at.parts = 1 if kind == "{" else 0
        else:  # "]" or "}"
            if brackets:
                brackets.pop()
            at.close()
    return 0


_HEADER_TOKEN = re.compile(r'["\'\].\n]')


def _header(text: str, pos: int, limit: int) -> tuple[int, int]:
    """Where the table header from ``pos`` (after its ``[``) ends, and its depth (parts, one more for ``[[``),
    the scan stopping once it passes ``limit``."""
    array = text.startswith("[", pos)
    depth = 1 + array
    pos += array
    while (token := _HEADER_TOKEN.search(text, pos)) is not None:
        kind, pos = token.group(), token.end()
        if kind == ".":
            depth += 1
            if depth > limit:
                break
        elif kind in "\"'":
            close = _STRING_END[kind].match(text, pos)
            if close is None:
                break
            pos = close.end()
        else:  # "]" ends the header; a line break is tomllib's to report
            if kind == "\n":
                pos -= 1
            break
    return pos, depth


def parse_toml(text: str, source: str, error: type[InputError] = InputError) -> dict[str, Any]:
    """The data of a TOML text the user wrote; every failure one line ``source:line: ...``."""
    where = TomlText.of("", source).where
    deep = toml_depth(text)
    if deep:
        raise error(f"{where(deep)}: nested more than {MAX_TOML_DEPTH} deep (tables, dotted keys, arrays and inline "
                    "tables, counted together)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, message = toml_error_line(str(err))
        raise error(f"{where(line)}: not valid TOML: {message}") from None
    except RecursionError:  # not reached after the depth check; kept as a guard
        raise error(f"{source}: arrays or inline tables nested too deep") from None
    except ValueError:  # an integer of more digits than int() converts (4,300)
        raise error(f"{source}: a whole number with more digits than can be read") from None


@contextmanager
def reraised(error: Callable[..., InputError], *where: object) -> Iterator[None]:
    """Run the block; an :class:`InputError` it raises is raised again as ``error(message, *where)``, the
    reader's own error, which names the file and line (``source:line: message``)."""
    try:
        yield
    except InputError as err:
        raise error(str(err), *where) from None


def text_value(value: object, what: str, wrong: str, error: Callable[..., InputError], *where: object,
               required: bool = True) -> str:
    """A string from a user's file, stripped, checked to hold no control character (``what`` names it in that
    message); ``error(wrong, *where)`` if it is no string, or blank when ``required``."""
    if not isinstance(value, str) or (required and not value.strip()):
        raise error(wrong, *where)
    with reraised(error, *where):
        return printable(value, what).strip()
