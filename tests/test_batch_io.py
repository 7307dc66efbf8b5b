"""The compiled reader of compositions (exact_odds.batch.loops) against the NumPy one.

``EXACT_ODDS_JIT=1`` runs the compiled loops at any size, ``0`` NumPy alone: every text must give
the same counts, or the same error word for word, either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from exact_odds.batch.compiled import JIT_ENV, KERNEL, chosen
from exact_odds.batch.io import parse_compositions, plain_counts

pytest.importorskip("numba")

T = TypeVar("T")
BOTH = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the environment is set afresh each time
DECK = "4,4,4,4,4,4,4,4,4,4,4,4,4"


def _outcome(text: str) -> object:
    """What parse_compositions makes of ``text``: the line numbers and counts, or the error's type and words."""
    try:
        lines, counts = parse_compositions(text, source="in.csv")
    except Exception as error:  # the error itself is compared
        return type(error), str(error)
    return list(lines), counts.tolist()


def _both(monkeypatch: pytest.MonkeyPatch, run: Callable[[], T]) -> tuple[T, T]:
    """``run()`` with NumPy alone, then with the compiled loops."""
    found = []
    for setting in ("0", "1"):
        monkeypatch.setenv(JIT_ENV, setting)
        assert (chosen(KERNEL, 1) is not None) == (setting == "1")
        found.append(run())
    return found[0], found[1]


def test_the_compiled_loops_are_used_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JIT_ENV, "1")
    loops = chosen(KERNEL, 1)
    assert loops is not None and loops.__name__ == KERNEL
    monkeypatch.setenv(JIT_ENV, "0")
    assert chosen(KERNEL, 10**9) is None


# ---------------------------------------------------------------- reading

COUNT = st.integers(0, 40_000) | st.integers(0, 40)
ROWS = st.lists(st.lists(COUNT, min_size=13, max_size=13), min_size=1, max_size=12)


KINDS = ["plain", "blank", "fields-", "fields+", "digits", "ascii", "space", "comment", "header", "crlf", "sign",
         "empty-field", "big"]
"""The ways a text may stray from the plain form (or not: ``plain``)."""


def _mutated(rows: list[list[int]], kind: str, data: st.DataObject) -> str:
    """The rows as plain text, then spoilt at one line in the way ``kind`` names."""
    lines = [",".join(map(str, row)) for row in rows]
    at = data.draw(st.integers(0, len(lines) - 1))
    if kind == "blank":
        lines.insert(at, data.draw(st.sampled_from(["", " ", "\t"])))
    elif kind == "fields-":
        lines[at] = lines[at].rsplit(",", 1)[0]
    elif kind == "fields+":
        lines[at] += ",4"
    elif kind == "digits":
        first = data.draw(st.sampled_from(["1234567890", "0000000000", "123456789"]))
        lines[at] = first + lines[at][lines[at].index(","):]
    elif kind == "ascii":
        lines[at] = lines[at].replace("4", data.draw(st.sampled_from(["\u0664", "é", "\u00a0"])), 1)
    elif kind == "space":
        lines[at] = lines[at].replace(",", data.draw(st.sampled_from([" ,", ", ", " , "])), 1)
    elif kind == "comment":
        lines[at] += data.draw(st.sampled_from([" # note", "#", "# 1,2"]))
    elif kind == "header":
        lines.insert(0, data.draw(st.sampled_from(["A,2,3,4,5,6,7,8,9,T,J,Q,K", "ace,two", "a,b,c"])))
    elif kind == "crlf":
        lines[at] += "\r"
    elif kind == "sign":
        lines[at] = data.draw(st.sampled_from(["+", "-"])) + lines[at]
    elif kind == "empty-field":
        lines[at] = "," + lines[at].split(",", 1)[1]
    elif kind == "big":
        lines[at] = "40001" + lines[at][lines[at].index(","):]
    return "\n".join(lines) + data.draw(st.sampled_from(["\n", "", "\n\n"]))


@pytest.mark.parametrize("kind", KINDS)
@settings(BOTH, max_examples=25)
@given(ROWS, st.data())
@example([[4] * 13], None)
def test_reader_equals_numpy(monkeypatch: pytest.MonkeyPatch, kind: str, rows: list[list[int]],
                             data: st.DataObject | None) -> None:
    text = DECK + "\n" if data is None else _mutated(rows, kind, data)
    numpy, compiled = _both(monkeypatch, lambda: _outcome(text))
    assert numpy == compiled
    plain_numpy, plain_compiled = _both(monkeypatch, lambda: plain_counts(text))
    assert (plain_numpy is None) == (plain_compiled is None)
    if plain_numpy is not None and plain_compiled is not None:
        assert plain_numpy.tolist() == plain_compiled.tolist()


@pytest.mark.parametrize(("text", "message"), [
    ("", None),
    ("\n", None),
    (DECK, None),
    (DECK + "\n\n" + DECK + "\n", None),
    (DECK + ",4\n", "line 1: expected 13 counts"),
    ("4," + DECK[4:] + "\n", "line 1: expected 13 counts"),
    ("1234567890" + DECK[1:] + "\n", "line 1: count 1 (A)"),
    (DECK.replace("4", "\u0664", 1) + "\n", "line 1: count 1 (A)"),
    ("0,0,0,0,0,0,0,0,0,0,0,0,5\n", "line 1: 5 cards; a coup needs 6"),
    (DECK + "\n" + "40001" + DECK[1:] + "\n", "line 2: count 1 (A)"),
])
def test_reader_examples(monkeypatch: pytest.MonkeyPatch, text: str, message: str | None) -> None:
    numpy, compiled = _both(monkeypatch, lambda: _outcome(text))
    assert numpy == compiled
    plain_numpy, plain_compiled = _both(monkeypatch, lambda: plain_counts(text))
    assert (None if plain_numpy is None else plain_numpy.tolist()) == (
        None if plain_compiled is None else plain_compiled.tolist())
    if message is not None:
        assert isinstance(numpy, tuple) and message in str(numpy[1])
