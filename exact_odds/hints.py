"""The few names of :mod:`typing` that a class needs when it is defined, without importing :mod:`typing`.

Importing :mod:`typing` costs a command that starts in 60 ms about 7 ms of its time (it imports
:mod:`contextlib` and builds some hundred classes), and each ``typing.NamedTuple`` class compiles its
string annotations when it is defined (about 0.3 ms a class more than :func:`collections.namedtuple`).
The modules every single-shoe command loads therefore import their class-building names from here:

- :data:`NamedTuple` builds the same class as ``typing.NamedTuple`` (fields from the annotations, in
  order, defaults from their values, the methods of the class body), by :func:`collections.namedtuple`,
  but keeps the annotations as written rather than as ``ForwardRef`` objects (``typing.get_type_hints``
  reads both alike);
- :data:`Protocol` and :data:`Generic` are plain bases (a protocol is checked by the type checker,
  never at run time here), and ``Generic[T]`` is :data:`Generic` itself;
- :func:`TypeVar` names a type variable for the type checker and is its name at run time;
- :data:`TYPE_CHECKING` is False, as ``typing.TYPE_CHECKING`` is at run time.

The type checker sees :mod:`typing`'s own names (this module re-exports them under ``TYPE_CHECKING``),
and a name used only in annotations (``Any``, ``Literal``, ``ClassVar``...) is imported from
:mod:`typing` under ``if TYPE_CHECKING:`` where it is used. A test checks that these commands never
load :mod:`typing`.

>>> class Point(NamedTuple):
...     x: int
...     y: int = 0
...
...     def norm(self) -> int:
...         return abs(self.x) + abs(self.y)
>>> Point(3, -4).norm(), Point(1), Point._fields, Point.__annotations__
(7, Point(x=1, y=0), ('x', 'y'), {'x': 'int', 'y': 'int'})
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Generic as Generic
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
    from typing import TypeVar as TypeVar
else:
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
    """Names of a class body that the named tuple class keeps as :func:`collections.namedtuple` made them."""

    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                             "_make", "_replace", "_asdict", "_source"})
    """Names a class body may not define: they are the named tuple's own (as ``typing.NamedTuple`` says)."""

    class _NamedTupleMeta(type):
        """Makes ``class C(NamedTuple): ...`` a :func:`collections.namedtuple` class, as ``typing`` does."""

        def __new__(mcs, typename: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
            annotations = dict(namespace.get("__annotations__", {}))
            defaults = [name for name in annotations if name in namespace]
            if defaults and defaults != list(annotations)[-len(defaults):]:
                raise TypeError(f"{typename}: a field without a default follows one with a default")
            made = collections.namedtuple(typename, list(annotations), module=str(namespace["__module__"]),
                                          defaults=[namespace[name] for name in defaults])
            made.__annotations__ = annotations
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in made._fields:
                    setattr(made, key, value)
            return made

    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    Protocol = object

    class Generic:
        """A base whose subscript (``Generic[T]``) is itself: the class's parameters are for the type checker."""

        __slots__ = ()

        def __class_getitem__(cls, parameters: object) -> type:
            return cls

    def TypeVar(name: str, *constraints: object, **options: object) -> str:
        """The name of a type variable: at run time it only stands in ``Generic[...]`` subscripts."""
        return name
