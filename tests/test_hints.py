"""exact_odds.hints: the class-building names of typing, without typing, make the same classes."""

from __future__ import annotations

import pickle
import typing
from typing import Any

import pytest

from exact_odds import hints

LIGHT: Any = hints
"""The module as it is at run time (the type checker sees typing's own names in it)."""


def _point_class(base: Any) -> Any:
    """The same named tuple class body on ``base`` (``typing.NamedTuple`` or the light one)."""

    class Point(base):  # type: ignore[misc]
        """A point of the plane."""

        x: int
        y: int = 0
        label: str = "origin"

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

        @property
        def flipped(self) -> Any:
            return self._replace(x=self.y, y=self.x)

        KIND = "point"

    return Point


def test_a_named_tuple_is_the_same_class_as_typings() -> None:
    """Fields, defaults, methods, class attributes, docstring, repr, equality and the named tuple's own
    methods all as ``typing.NamedTuple`` makes them; the annotations as written (typing makes each a
    ``ForwardRef``, the cost this module saves), which ``typing.get_type_hints`` reads alike."""
    light, reference = _point_class(LIGHT.NamedTuple), _point_class(typing.NamedTuple)
    assert light.__bases__ == reference.__bases__ == (tuple,)
    for name in ("_fields", "_field_defaults", "__doc__", "__match_args__", "KIND", "__module__", "__qualname__",
                 "__name__"):
        assert getattr(light, name) == getattr(reference, name), name
    assert light.__annotations__ == {"x": "int", "y": "int", "label": "str"}
    assert typing.get_type_hints(light) == typing.get_type_hints(reference) == {"x": int, "y": int, "label": str}
    a, b = light(3, -4), reference(3, -4)
    assert (repr(a), a.norm(), tuple(a.flipped), a._asdict()) == (repr(b), b.norm(), tuple(b.flipped), b._asdict())
    assert a == b == (3, -4, "origin") and hash(a) == hash(b)
    assert light._make([1, 2, "x"]) == reference._make([1, 2, "x"])
    assert light(x=1, label="y") == reference(x=1, label="y")
    with pytest.raises(TypeError):
        light()


def test_a_named_tuple_pickles_by_its_name() -> None:
    """A class of the package made by the light NamedTuple pickles and unpickles to itself."""
    from exact_odds.core.shoe import Card

    assert isinstance(Card, type) and Card.__mro__[1] is tuple
    card = Card(*(getattr(Card, "_field_defaults", {}).get(f, 1) for f in Card._fields))
    assert pickle.loads(pickle.dumps(card)) == card


@pytest.mark.parametrize("base", [LIGHT.NamedTuple, typing.NamedTuple], ids=["light", "typing"])
def test_a_named_tuple_refuses_what_typing_refuses(base: object) -> None:
    """A field without a default after one with a default is a TypeError, a body that defines the
    named tuple's own methods an AttributeError: the same errors as ``typing.NamedTuple`` raises."""
    with pytest.raises(TypeError):

        class Late(base):  # type: ignore[misc,valid-type]
            x: int = 0
            y: int

    with pytest.raises(AttributeError):

        class Own(base):  # type: ignore[misc,valid-type]
            x: int

            def _asdict(self) -> dict[str, object]:
                return {}


def test_the_other_names_only_stand_for_the_type_checker() -> None:
    """Protocol and Generic are plain bases (``Generic[T]`` is Generic), TypeVar gives the name, and
    TYPE_CHECKING is False at run time."""
    t = LIGHT.TypeVar("T", bound=int)

    class Box(LIGHT.Generic[t]):  # type: ignore[misc]
        __slots__ = ("item",)

    class Sized(LIGHT.Protocol):  # type: ignore[misc]
        def size(self) -> int:
            return 0

    assert t == "T" and Box.__mro__[1:] == (LIGHT.Generic, object)
    assert Box[int] is Box  # type: ignore[misc]
    assert Sized.__mro__ == (Sized, object) and LIGHT.TYPE_CHECKING is False
