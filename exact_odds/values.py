"""Immutable values without :mod:`dataclasses`, for the few classes every command loads at start.

A frozen dataclass costs a command that starts in 40 ms about a quarter of its time:
:mod:`dataclasses` imports :mod:`inspect` (and with it ``ast``, ``dis`` and ``tokenize``), and
each class compiles its six methods from source when it is defined. :class:`Value` gives the
same behaviour to a class that lists its fields: set once, then compared, hashed, shown and
pickled by value.

>>> class Point(Value):
...     __slots__ = __match_args__ = ("x", "y")
...
...     def __init__(self, x: int, y: int) -> None:
...         self._set(x=x, y=y)
>>> Point(1, 2) == Point(1, 2), hash(Point(1, 2)) == hash(Point(1, 2)), Point(1, 2)
(True, True, Point(x=1, y=2))
>>> Point(1, 2).x = 3
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'x': a Point is immutable
"""

from __future__ import annotations

from exact_odds.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, ClassVar


class Value:
    """Base of an immutable value whose fields are ``__match_args__`` (in the order ``__init__`` takes
    them), each a slot set once by ``__init__`` through :meth:`_set`; as a frozen dataclass, two values
    are equal when their classes and fields are, and the hash, ``repr`` and pickle follow the fields."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    """The fields that equality and the hash look at: a class's ``__match_args__`` unless it names fewer
    (as a dataclass field with ``compare=False`` is left out), and a subclass inherits them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__match_args__" in cls.__dict__ and "_compared" not in cls.__dict__:
            cls._compared = cls.__match_args__

    def _set(self, **fields: object) -> None:
        """Give fields their values (in ``__init__``: afterwards a value cannot change)."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _fields(self) -> tuple[Any, ...]:
        """The values of the fields, in order."""
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        # As the tuples of the fields compare (each pair first by identity), field by field: two values
        # usually differ in their first field, and reading the others costs more than comparing it.
        if self is other:
            return True
        if not isinstance(other, Value) or other.__class__ is not self.__class__:
            return NotImplemented
        for name in self._compared:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is not theirs and not mine == theirs:
                return False
        return True

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self._compared))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.__match_args__, self._fields(), strict=True))
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Value], tuple[Any, ...]]:
        return type(self), self._fields()
