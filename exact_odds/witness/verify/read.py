"""Reading a log of coups (docs/formats.md): CSV with a header, or JSON Lines with the same keys, line by line.

A line that cannot be read raises :class:`LogError` naming it; nothing is held but the columns of a
:class:`~exact_odds.witness.verify.log.CoupLog`.

>>> log = read_log(["shoe,player,banker,winner", "1,Kh 5d 9c,7s Qd,banker", "1,2c 6h,As 4d 9h,tie"])
>>> len(log), log.hands(1), log.labels["winner"].tolist()
(2, ('2c 6h', 'As 4d 9h'), [0, 2])
>>> read_log(["player,banker", "Kh 5d,7s X"])
Traceback (most recent call last):
  ...
exact_odds.witness.verify.read.LogError: line 2: column 'banker': unknown rank 'X' (use A, 2-9, T or 10, J, Q, K)
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.core.shoe import SUITS, ShoeError, parse_card
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import json_objects, user_lines
from exact_odds.inputs.registry import name_key
from exact_odds.inputs.validate import NET_RESULT
from exact_odds.witness.verify.log import BURN_SLOTS, LABELS, MISSING, SLOTS, CoupLog

KNOWN = ("shoe", "burn", "player", "banker", *LABELS)
"""The columns a log may have besides ``net:<bet>``."""
REQUIRED = ("player", "banker")
NET = "net:"


class LogError(InputError):
    """A log that cannot be read; the message names the line (or the row of coups given in memory)."""


def column_key(name: str) -> str:
    """A column's name as the reader knows it: ``"Player Pair"`` -> ``"player_pair"``, ``"net: Banker"``
    -> ``"net:banker"`` (a bet's name keeps its hyphens)."""
    text = name.strip().lower()
    if text.startswith(NET):
        return NET + name_key(text[len(NET):])
    return re.sub(r"[\s-]+", "_", text)


BLOCK = 65_536
"""Coups parsed together, column by column."""


class _Column:
    """How one column's texts become values, with a memo of the texts seen; ``empty``: the value of an empty
    field (``EMPTY``: an error). No value is ``None``."""

    def __init__(self, parse: Callable[[str], Any], empty: Any) -> None:
        self.parse, self.empty, self.seen = parse, empty, dict[str, Any]()

    def values(self, texts: Sequence[str]) -> list[Any]:
        seen = self.seen
        values = list(map(seen.get, texts))
        if None in values:
            for i in [i for i, v in enumerate(values) if v is None]:
                if texts[i] not in seen:
                    seen[texts[i]] = self.parse(texts[i]) if texts[i].strip() else self.empty
                values[i] = seen[texts[i]]
        return values

    def unseen(self, texts: Sequence[str]) -> int:
        """The first of ``texts`` not learnt: the one :meth:`values` raised on."""
        return next(i for i, text in enumerate(texts) if text not in self.seen)


def _card(token: str) -> int:
    """A card's code ``8 * rank + suit + 1`` (suit 0-3, or -1 for none)."""
    card = parse_card(token)
    return 8 * int(card.rank) + 1 + (SUITS.index(card.suit) if card.suit is not None else MISSING)


_CARDS = _Column(_card, None)
"""Every card text met (a few hundred: a bad text raises, and is not kept)."""


def _word(words: Mapping[str, int], what: str) -> Callable[[str], int]:
    """A parser of the ``words`` (any case), whose error says the text is not ``what``."""
    def parse(text: str) -> int:
        key = text.strip().lower()
        if key in words:
            return words[key]
        raise ValueError(f"{text.strip()!r} is not {what}")

    return parse


def _net(text: str) -> tuple[float, int]:
    """A net result and the decimals it was written with (``"0.95"`` -> ``(0.95, 2)``)."""
    key = text.strip()
    value = NET_RESULT.parse(key, "")  # at most 40 characters: no number takes long to build
    decimals = len(key) - key.index(".") - 1 if "." in key and "e" not in key.lower() else 0
    return float(value), min(decimals, 100)


_WINNER = _word({"banker": 0, "b": 0, "player": 1, "p": 1, "tie": 2, "t": 2},
               "a winner (banker, player, tie or B, P, T)")
_BOOLEAN = _word({"true": 1, "yes": 1, "1": 1, "false": 0, "no": 0, "0": 0}, "a boolean (true/false, 1/0, yes/no)")
_TOTAL = _word({str(d): d for d in range(10)}, "a total 0-9")
_PARSERS: dict[str, Callable[[str], int]] = {
    "winner": _WINNER, "player_total": _TOTAL, "banker_total": _TOTAL,
    "natural": _BOOLEAN, "player_pair": _BOOLEAN, "banker_pair": _BOOLEAN,
}


EMPTY = -2
"""The value of an empty field that must not be empty."""


def hands_column(texts: Sequence[str], lines: Sequence[int], *, key: str = "player",
                 where: str = "line", sizes: tuple[int, int] = (2, 3)) -> NDArray[np.int8]:
    """Hands written as ``"Kh 10d 9"``, parsed a column at a time: shape (n, 7), each row the hand's
    size, three ranks (1-13; 0 pads) and three suits (0-3; -1 for none). A hand holds ``sizes``
    (least, most) cards: 2 or 3, or 0 to 3 for the ``burn`` column.

    >>> hands_column(["Kh 10d 9", "as 2♠"], [2, 3]).tolist()
    [[3, 13, 10, 9, 1, 2, -1], [2, 1, 2, 0, 0, 0, -1]]
    """
    joined = " ".join(texts)
    if "," in joined or "\t" in joined:
        texts = [" ".join(t.replace(",", " ").split()) for t in texts]
        joined = " ".join(texts)
    tokens = joined.split()
    least, most = sizes
    if len(tokens) == joined.count(" ") + 1:  # single spaces only: a hand's size is its spaces plus one
        size = np.fromiter(map(str.count, texts, itertools.repeat(" ")), dtype=np.int64, count=len(texts)) + 1
        size[np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) == 0] = 0
    else:
        size = np.fromiter(map(len, map(str.split, texts)), dtype=np.int64, count=len(texts))
    bad = np.flatnonzero((size < least) | (size > most))
    if bad.size:
        i = int(bad[0])
        problem = "is empty" if size[i] == 0 else f"holds {size[i]} cards; " + (
            "a hand holds 2 or 3" if sizes == (2, 3) else f"it holds {least} to {most}")
        raise LogError(f"{where} {lines[i]}: column {key!r} {problem}")
    try:
        code = np.array(_CARDS.values(tokens), dtype=np.int16)
    except ShoeError as err:
        hand = int(np.searchsorted(np.cumsum(size), _CARDS.unseen(tokens), side="right"))
        raise LogError(f"{where} {lines[hand]}: column {key!r}: {err}") from None
    cards = np.stack([code // 8, code % 8 - 1], axis=1).astype(np.int8)
    out = np.zeros((len(texts), 7), dtype=np.int8)
    out[:, 0] = size
    out[:, 4:] = MISSING
    starts = np.cumsum(size) - size
    for j in range(3):
        has = size > j
        out[has, 1 + j] = cards[starts[has] + j, 0]
        out[has, 4 + j] = cards[starts[has] + j, 1]
    return out


class LogBuilder:
    """Columns of a log, filled a block of coups at a time; ``where`` names a position in messages (``"line"`` or
    ``"row"``)."""

    def __init__(self, *, where: str = "line") -> None:
        self.where = where
        self.columns: list[str] = []
        self.ignored: list[str] = []
        self.count = 0  # coups added
        self.held = 0  # coups held in ``parts`` (those not yet taken by :meth:`take_shoes`)
        self.shoes: dict[str, int] = {}
        self.parts: dict[str, list[NDArray[Any]]] = {"ranks": [], "suits": [], "player_cards": [],
                                                     "banker_cards": [], "lines": []}
        self.parsers: dict[str, _Column] = {}

    def add_column(self, name: str, line: int) -> None:
        """Declare a column (the header's, or a key first met on a JSON line); earlier coups lack it."""
        key = column_key(name)
        if key in self.columns:
            raise LogError(f"{self.where} {line}: column {key!r} is given twice")
        if key == "shoe" and self.count:
            raise LogError(f"{self.where} {line}: a shoe column must be there from the first coup")
        self.columns.append(key)
        if key == "shoe":
            self.parsers[key] = _Column(lambda t: self.shoes.setdefault(t.strip(), len(self.shoes)), EMPTY)
            self.parts[key] = []
        elif key in _PARSERS:
            self.parsers[key] = _Column(_PARSERS[key], MISSING)
            self.parts[key] = [np.full(self.held, MISSING, dtype=np.int8)]
        elif key.startswith(NET):
            self.parsers[key] = _Column(_net, (float("nan"), 0))
            self.parts[key] = [np.full((self.held, 2), (float("nan"), 0))]
        elif key == "burn":
            self.parts[key] = [np.zeros((self.held, 7), dtype=np.int8)]
        elif key not in KNOWN:
            self.ignored.append(name.strip())

    def check_required(self, line: int) -> None:
        missing = [c for c in REQUIRED if c not in self.columns]
        if missing:
            raise LogError(f"{self.where} {line}: the log has no {missing[0]!r} column (required: player, banker)")

    def _values(self, key: str, texts: Sequence[str], lines: Sequence[int]) -> list[Any]:
        column = self.parsers[key]
        try:
            values = column.values(texts)
        except (ValueError, ShoeError) as err:
            raise LogError(f"{self.where} {lines[column.unseen(texts)]}: column {key!r}: {err}") from None
        if column.empty == EMPTY and EMPTY in values:
            raise LogError(f"{self.where} {lines[values.index(EMPTY)]}: column {key!r} is empty")
        return values

    def add_block(self, fields: Mapping[str, Sequence[str]], lines: Sequence[int]) -> None:
        """Add coups from their fields, column by column (a column missing from ``fields`` is empty)."""
        n = len(lines)
        blank = [""] * n
        player, banker = (hands_column(fields.get(key, blank), lines, key=key, where=self.where) for key in REQUIRED)
        if "burn" in self.parts:
            self.parts["burn"].append(hands_column(fields.get("burn", blank), lines, key="burn", where=self.where,
                                                   sizes=(0, BURN_SLOTS)))
        for key in self.parsers:
            values = self._values(key, fields.get(key, blank), lines)
            self.parts[key].append(np.array(values, dtype=np.float64 if key.startswith(NET) else np.int32))
        ranks, suits = _dealing_order(player, banker)
        for key, value in (("ranks", ranks), ("suits", suits), ("player_cards", player[:, 0]),
                           ("banker_cards", banker[:, 0]), ("lines", np.asarray(lines, dtype=np.int32))):
            self.parts[key].append(value)
        self.count += n
        self.held += n

    def build(self) -> CoupLog:
        """The log read so far (of the coups :meth:`take_shoes` has not taken)."""
        return self._log(self._joined(), tuple(self.shoes))

    def take_shoes(self, *, every: bool = False) -> CoupLog | None:
        """The whole shoes held but the last (``every``: all the coups held), taken out of the builder; ``None``
        when there are none (a shoe is never split). Raises :class:`Interleaved` when a shoe held goes on after
        another shoe began (its coups cannot be taken a block at a time)."""
        if not self.held:
            return None
        joined = self._joined()
        names = tuple(self.shoes)
        cut = self.held
        if "shoe" in self.parts:
            shoe = joined["shoe"]
            if bool((shoe[1:] < shoe[:-1]).any()):
                raise Interleaved("the log's shoes are interleaved")
            if not every:
                cut = int(np.searchsorted(shoe, shoe[-1]))
            if not cut:
                return None
            present, local = np.unique(shoe[:cut], return_inverse=True)
            joined["shoe"] = np.concatenate([local.astype(np.int32), shoe[cut:]])
            names = tuple(names[i] for i in present.tolist())
        self.parts = {key: [value[cut:]] for key, value in joined.items()}
        self.held -= cut
        return self._log({key: value[:cut] for key, value in joined.items()}, names)

    def _joined(self) -> dict[str, NDArray[Any]]:
        joined: dict[str, NDArray[Any]] = {}
        for key, parts in self.parts.items():
            joined[key] = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
            self.parts[key] = [joined[key]]
        return joined

    def _log(self, parts: Mapping[str, NDArray[Any]], shoe_names: tuple[str, ...]) -> CoupLog:
        def joined(key: str, dtype: type) -> NDArray[Any]:
            return parts[key].astype(dtype, copy=False)

        ranks = joined("ranks", np.int8).reshape(-1, SLOTS)
        suits = joined("suits", np.int8).reshape(-1, SLOTS)
        shoe = joined("shoe", np.int32) if "shoe" in self.columns else None
        labels = {k: joined(k, np.int8) for k in self.columns if k in _PARSERS}
        nets = {k[len(NET):]: (joined(k, np.float64).reshape(-1, 2)[:, 0].copy(),
                               joined(k, np.float64).reshape(-1, 2)[:, 1].astype(np.int8))
                for k in self.columns if k.startswith(NET)}
        burn = joined("burn", np.int8).reshape(-1, 7) if "burn" in self.parts else None
        return CoupLog(ranks, suits, joined("player_cards", np.int8), joined("banker_cards", np.int8), shoe,
                       shoe_names, joined("lines", np.int32), labels, nets, tuple(self.columns),
                       tuple(self.ignored), None if burn is None else burn[:, 1:4].copy(),
                       None if burn is None else np.where(burn[:, 1:4] > 0, burn[:, 4:], MISSING).astype(np.int8))


class Interleaved(LogError):
    """A log whose shoes are interleaved, met while it is read a block at a time (:func:`read_blocks`)."""


def _dealing_order(player: NDArray[np.int8], banker: NDArray[np.int8]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Ranks and suits in dealing order (P, B, P, B, player's third, banker's third) from the hands as parsed."""
    drew = (player[:, 0] == 3)[:, None]
    out = []
    for offset, pad in ((1, 0), (4, MISSING)):
        p, b = player[:, offset:offset + 3], banker[:, offset:offset + 3]
        fifth = np.where(drew[:, 0], p[:, 2], b[:, 2])
        sixth = np.where(drew[:, 0], b[:, 2], pad)
        out.append(np.stack([p[:, 0], b[:, 0], p[:, 1], b[:, 1], fifth, sixth], axis=1).astype(np.int8))
    return out[0], out[1]


def _in_blocks(items: Iterator[tuple[int, Any]], add: Callable[[Sequence[Any], Sequence[int]], None]) -> Iterator[None]:
    """Pass numbered ``items`` to ``add(items, numbers)`` a block at a time, yielding after each block."""
    while block := list(itertools.islice(items, BLOCK)):
        numbers, rows = zip(*block, strict=True)
        add(rows, numbers)
        yield


def _add_rows(rows: Iterator[tuple[int, list[str]]], keys: Sequence[str], builder: LogBuilder) -> Iterator[None]:
    """Add numbered CSV rows, a block at a time (blank rows skipped)."""
    def add(texts: Sequence[list[str]], numbers: Sequence[int]) -> None:
        builder.add_block(dict(zip(keys, zip(*texts, strict=True), strict=True)), numbers)

    def full() -> Iterator[tuple[int, list[str]]]:
        for number, row in rows:
            if len(row) == len(keys):
                yield number, row
            elif row and not (len(row) == 1 and not row[0].strip()):
                raise LogError(f"line {number}: {len(row)} fields, but the header has {len(keys)}")

    return _in_blocks(full(), add)


def _quoted_rows(first: int, lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """Numbered rows read by the csv module (quoted fields, commas and line breaks inside them)."""
    reader = csv.reader(lines)
    try:
        for row in reader:
            yield first + reader.line_num - 1, row
    except csv.Error as err:
        raise LogError(f"line {first + reader.line_num - 1}: {err}") from None


def _plain_block(lines: list[str], first: int, keys: Sequence[str], builder: LogBuilder) -> Iterator[None]:
    """Add a block of lines without quotes: split at commas, the columns taken as slices of one list
    (lines with the wrong number of commas, or blank, go the slow way, which names the bad line)."""
    width = len(keys)
    if list(map(str.count, lines, itertools.repeat(","))).count(width - 1) == len(lines):
        text = ("".join(lines) if lines[0].endswith("\n") else "\n".join(lines)).replace("\r\n", "\n")
        fields = (text[:-1] if text.endswith("\n") else text).replace("\n", ",").split(",")
        if len(fields) == width * len(lines):
            builder.add_block({k: fields[j::width] for j, k in enumerate(keys)}, range(first, first + len(lines)))
            yield
            return
    yield from _add_rows(((first + i, line.rstrip("\r\n").split(",")) for i, line in enumerate(lines)), keys,
                         builder)


def _read_csv(header: str, first: int, lines: Iterator[str], builder: LogBuilder) -> Iterator[None]:
    """Read a CSV log whose header line ``header`` is line ``first``; ``lines`` are the lines after it (yields
    after each block of coups added). Blocks of plain lines are split at commas (fast); from the first quote
    on, the csv module reads the rest."""
    if '"' in header:
        rows = _quoted_rows(first, itertools.chain([header], lines))
        _, names = next(rows)
    else:
        rows, names = iter(()), header.rstrip("\r\n").split(",")
    for name in names:
        builder.add_column(name, first)
    builder.check_required(first)
    keys = [column_key(h) for h in names]
    start = first + 1
    while True:
        block = list(itertools.islice(lines, BLOCK))
        if not block:
            break
        if '"' in "".join(block):
            rows = _quoted_rows(start, itertools.chain(block, lines))
            break
        yield from _plain_block(block, start, keys, builder)
        start += len(block)
    yield from _add_rows(rows, keys, builder)


def _json_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value))
    return str(value)


def _add_objects(objects: Iterable[tuple[int, Mapping[str, object]]], builder: LogBuilder) -> Iterator[None]:
    """Add coups given as numbered objects (JSON lines, rows in memory), a block at a time."""
    def add(rows: Sequence[dict[str, str]], numbers: Sequence[int]) -> None:
        builder.add_block({k: [r.get(k, "") for r in rows] for k in builder.columns}, numbers)

    return _in_blocks(_object_rows(objects, builder), add)


def _object_rows(objects: Iterable[tuple[int, Mapping[str, object]]],
                 builder: LogBuilder) -> Iterator[tuple[int, dict[str, str]]]:
    """Each object as the texts of its fields, by column; keys first met become columns."""
    known: dict[str, str] = {}
    for count, (number, obj) in enumerate(objects):
        for name in obj:
            if name not in known:
                known[name] = column_key(name)
                builder.add_column(name, number)
                if count and known[name] == "shoe":
                    raise LogError(f"{builder.where} {number}: a shoe column must be there from the first coup")
        if not count:
            builder.check_required(number)
        yield number, {known[k]: _json_text(v) for k, v in obj.items()}


def read_log(lines: Iterable[str], *, source: str = "log") -> CoupLog:
    """Read a log from its lines (a file object, ``sys.stdin``, or a list of strings): CSV with a header, or JSON
    Lines when the first line that is not blank starts with ``{``. ``source`` names it in errors."""
    builder = LogBuilder()
    for _ in _read(lines, builder):
        pass
    _some_coups(builder, source)
    return builder.build()


def read_blocks(lines: Iterable[str], *, source: str = "log", coups: int | None = None) -> Iterator[CoupLog]:
    """Read a log as :func:`read_log` does, a block of whole shoes at a time, each of at least ``coups`` coups
    (default :data:`BLOCK`) but the last. A log whose shoes are interleaved raises :class:`Interleaved`.

    >>> lines = ["shoe,player,banker", *[f"{1 + i // 3},Kh 5d,7s Qd" for i in range(7)]]
    >>> [(len(b), b.shoe_names) for b in read_blocks(lines, coups=2)]
    [(6, ('1', '2')), (1, ('3',))]
    """
    least = BLOCK if coups is None else coups
    builder = LogBuilder()
    for _ in _read(lines, builder):
        if builder.held >= least:
            taken = builder.take_shoes()
            if taken is not None:
                yield taken
    _some_coups(builder, source)
    rest = builder.take_shoes(every=True)
    if rest is not None:
        yield rest


def _read(lines: Iterable[str], builder: LogBuilder) -> Iterator[None]:
    rest = iter(lines)
    for number, text in enumerate(rest, 1):
        if text.strip():
            if text.lstrip().startswith("{"):
                numbered = itertools.chain([(number, text)], enumerate(rest, number + 1))
                yield from _add_objects(json_objects(numbered, LogError, ("player", "banker")), builder)
            else:
                yield from _read_csv(text, number, rest, builder)
            break


def _some_coups(builder: LogBuilder, source: str) -> None:
    if not builder.count:
        raise LogError(f"{source}: the log holds no coups (expected a header line and one coup a line)")


def load_log(path: str | Path) -> CoupLog:
    """Read the log file at ``path`` (``"-"``: standard input), line by line under the size caps of
    :func:`exact_odds.inputs.reading.user_lines`."""
    source = "standard input" if str(path) == "-" else str(path)
    return read_log(user_lines(path, "log", LogError, newline=""), source=source)


def rows_log(rows: Iterable[Mapping[str, object]]) -> CoupLog:
    """A log from rows in memory: mappings with the keys of the file format, whose values may be texts, cards or
    lists of them (a hand), booleans or numbers; a bad row raises :class:`LogError` naming it (from ``row 1``).

    >>> from exact_odds.core.shoe import parse_cards
    >>> log = rows_log([{"player": parse_cards("9h 4c 2d"), "banker": "Kd 5s", "natural": False}])
    >>> log.hands(0), log.labels["natural"].tolist()
    (('9h 4c 2d', 'Kd 5s'), [0])
    """
    builder = LogBuilder(where="row")
    for _ in _add_objects(enumerate(rows, 1), builder):
        pass
    if not builder.count:
        raise LogError("the log holds no coups")
    return builder.build()
