"""exact_odds.values.Value: fields left out of equality and the hash (``_compared``) behave as a frozen
dataclass's ``field(compare=False)``, which is the oracle here; a subclass inherits them."""

from __future__ import annotations

import itertools
import pickle
from dataclasses import dataclass, field

from exact_odds.values import Value


class Noted(Value):
    """Two compared fields and a note that is shown and pickled but not compared."""

    __slots__ = __match_args__ = ("x", "y", "note")
    _compared = ("x", "y")
    x: int
    y: int
    note: str

    def __init__(self, x: int, y: int, note: str = "") -> None:
        self._set(x=x, y=y, note=note)


class MoreNoted(Noted):
    """A subclass with no fields of its own."""

    __slots__ = ()


class Plain(Value):
    """Every field compared (``_compared`` left to its default)."""

    __slots__ = __match_args__ = ("x", "note")
    x: int
    note: str

    def __init__(self, x: int, note: str) -> None:
        self._set(x=x, note=note)


@dataclass(frozen=True)
class NotedOracle:
    x: int
    y: int
    note: str = field(default="", compare=False)


CASES = [(0, 0, ""), (0, 0, "a"), (0, 1, ""), (1, 0, "a"), (1, 1, "b")]


def test_a_field_left_out_of_equality_and_the_hash_as_a_dataclass_leaves_it() -> None:
    for one, other in itertools.product(CASES, repeat=2):
        assert (Noted(*one) == Noted(*other)) == (NotedOracle(*one) == NotedOracle(*other))
        assert (MoreNoted(*one) == MoreNoted(*other)) == (NotedOracle(*one) == NotedOracle(*other))
    for case in CASES:
        assert hash(Noted(*case)) == hash(NotedOracle(*case))
        assert repr(Noted(*case)) == repr(NotedOracle(*case)).replace("NotedOracle", "Noted")
        assert pickle.loads(pickle.dumps(Noted(*case))).note == case[2]
    assert MoreNoted(1, 1) != Noted(1, 1)  # the classes differ


def test_every_field_is_compared_unless_a_class_says_otherwise() -> None:
    assert Plain._compared == ("x", "note")
    assert Plain(1, "a") != Plain(1, "b")
    assert hash(Plain(1, "a")) == hash((1, "a"))
