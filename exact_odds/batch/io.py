"""Reading compositions: one line of 13 comma-separated rank counts per shoe.

The first line that is neither blank nor a comment may be a header naming the ranks in the order
A, 2, ..., 9, T, J, Q, K: each field a label (``T`` or ``10`` for ten) or a name (``ace`` ...
``king``), any case. A first line whose first field holds a letter must be such a header.
"""

from __future__ import annotations

from io import StringIO
from typing import TYPE_CHECKING

import numpy as np

from exact_odds.batch.compiled import KERNEL, chosen
from exact_odds.core.shoe import CARDS_PER_COUP, RANK_LABELS
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import RANK_COUNT

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]


class CompositionError(InputError):
    """A line of a compositions file that is not 13 non-negative counts of at least 6 cards."""


def _row(number: int, body: str, source: str) -> list[int]:
    """The 13 counts of one line (:data:`exact_odds.inputs.validate.RANK_COUNT`, six cards at least);
    the first problem raises."""
    where = f"{source}: line {number}"
    fields = body.split(",")
    if len(fields) != len(RANK_LABELS):
        raise CompositionError(f"{where}: expected 13 counts (A,2,...,9,T,J,Q,K), got {len(fields)}")
    row = [RANK_COUNT.parse(field, f"{where}: count {i + 1} ({RANK_LABELS[i]})", CompositionError)
           for i, field in enumerate(fields)]
    if sum(row) < CARDS_PER_COUP:
        raise CompositionError(f"{where}: {sum(row)} cards; a coup needs {CARDS_PER_COUP}")
    return row


RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
              "king")
"""The rank names a header may use, in the order of the counts (A, 2, ..., K)."""


def _header_field(i: int, field: str) -> bool:
    """Whether a header field names rank ``i`` (0 = ace)."""
    text = field.strip().lower()
    return text in (RANK_LABELS[i].lower(), RANK_NAMES[i]) or (i == 9 and text == "10")


def _header_line(text: str, source: str) -> int:
    """The number of the header line of ``text`` (0 if none); a header not naming the ranks in order raises."""
    for number, line in enumerate(StringIO(text), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        if not any(c.isalpha() for c in body.split(",", 1)[0]):
            return 0
        fields = body.split(",")
        if len(fields) != len(RANK_LABELS) or not all(_header_field(i, f) for i, f in enumerate(fields)):
            raise CompositionError(f"{source}: line {number}: a header must name the 13 ranks in order: "
                                   f"{','.join(RANK_LABELS)} (or {','.join(RANK_NAMES[:2])},...,{RANK_NAMES[-1]})")
        return number
    return 0


COMMA, NEWLINE, ZERO = 44, 10, 48
MAX_DIGITS = 9


def plain_counts(text: str, jit: bool | None = None) -> IntArray | None:
    """The counts of ``text`` if it is in the plain form (lines of 13 fields of one to nine digits), read
    in a few vectorised passes (or one compiled pass for a large text); None otherwise."""
    data = np.frombuffer(text.encode("ascii", errors="replace"), dtype=np.uint8)
    if not len(data):
        return None
    if data[-1] != NEWLINE:
        data = np.append(data, np.uint8(NEWLINE))
    compiled = chosen(KERNEL, lines := int(np.count_nonzero(data == NEWLINE)), jit)
    if compiled is not None:
        out = np.empty((lines, len(RANK_LABELS)), dtype=np.int64)
        return out if compiled.read_plain(data, out) == lines else None
    digit = (data - ZERO) < 10  # uint8 arithmetic: non-digits wrap above 9
    ends = np.flatnonzero(~digit)
    separators = data[ends]
    fields = len(RANK_LABELS)
    if len(ends) % fields or not digit[0]:
        return None
    pattern = np.full(fields, COMMA, dtype=np.uint8)
    pattern[-1] = NEWLINE
    if not (separators.reshape(-1, fields) == pattern).all():
        return None
    lengths = np.diff(ends, prepend=-1) - 1
    if lengths.min() < 1 or lengths.max() > MAX_DIGITS:
        return None
    values = data[ends - 1].astype(np.int64) - ZERO
    scale = 10
    for k in range(2, int(lengths.max()) + 1):
        values += (data[ends - k].astype(np.int64) - ZERO) * (lengths >= k) * scale  # short fields: masked
        scale *= 10
    return values.reshape(-1, fields)


def _counts_fit(counts: IntArray, jit: bool | None) -> bool:
    """Whether every count is within :data:`exact_odds.inputs.validate.RANK_COUNT` and every row holds a coup."""
    compiled = chosen(KERNEL, len(counts), jit)
    if compiled is not None:
        return bool(compiled.counts_fit(counts, RANK_COUNT.high, CARDS_PER_COUP))
    return bool((counts <= RANK_COUNT.high).all() and (counts.sum(axis=1) >= CARDS_PER_COUP).all())


def parse_compositions(text: str, *, source: str = "input", first_line: int = 1,
                       header: bool = True, jit: bool | None = None) -> tuple[Sequence[int], IntArray]:
    """Compositions from text: lines of 13 comma-separated counts A,2,...,9,T,J,Q,K (each 0 to 40,000 in
    ASCII digits: :data:`~exact_odds.inputs.validate.RANK_COUNT`) after an optional header (see the module);
    ``#`` starts a comment; blank lines are ignored. Returns the line number of each composition (a
    ``range`` when they follow one another) and the counts (n, 13); a bad line raises
    :class:`CompositionError` naming its number. A file read in blocks passes each block's ``first_line``,
    and ``header=False`` after the first; ``jit`` as for :func:`exact_odds.batch.compiled.chosen`.

    >>> list(parse_compositions("# one deck\\n4,4,4,4,4,4,4,4,4,4,4,4,4\\n")[0])
    [2]
    >>> list(parse_compositions("A,2,3,4,5,6,7,8,9,T,J,Q,K\\n4,4,4,4,4,4,4,4,4,4,4,4,4\\n")[0])
    [2]
    """
    head = 0 if text[:1].isdigit() or not header else _header_line(text, source)
    if head == 1 and "#" not in text:  # the common header: the first line, read past
        return parse_compositions(text.partition("\n")[2], source=source, first_line=first_line + 1, header=False,
                                  jit=jit)
    plain = plain_counts(text, jit) if "#" not in text and not head else None
    if plain is not None and _counts_fit(plain, jit):
        return range(first_line, first_line + len(plain)), plain
    header_at = first_line + head - 1  # before the first line when there is no header
    kept = [(n, body) for n, line in enumerate(text.splitlines(), first_line)
            if n != header_at and (body := line.split("#", 1)[0].strip())]
    if not kept:
        return [], np.zeros((0, len(RANK_LABELS)), dtype=np.int64)
    counts = plain_counts("\n".join(body for _, body in kept), jit)  # blank lines and comments left out
    if counts is None or not _counts_fit(counts, jit):
        counts = np.array([_row(number, body, source) for number, body in kept], dtype=np.int64)
    return [n for n, _ in kept], counts.reshape(len(kept), len(RANK_LABELS))
