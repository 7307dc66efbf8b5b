"""Registries as values: named things (bets, configurations) looked up by name, never mutated.

:meth:`Registry.extended` returns a new one, so loading a user's file changes nothing global. Names
compare through :func:`name_key`; an unknown name gets :func:`unknown_name`, which suggests the nearest.

>>> from typing import NamedTuple
>>> class Colour(NamedTuple):
...     name: str
...     aliases: tuple[str, ...] = ()
>>> colours = Registry("colour", [Colour("dark red", ("maroon",)), Colour("blue")])
>>> list(colours), colours.find("Maroon").name
(['dark-red', 'blue'], 'dark red')
>>> colours.find("green")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: unknown colour 'green'; known colours: dark-red, blue
>>> colours.find("blu")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: unknown colour 'blu' (did you mean 'blue'?)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol, TypeVar

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown


def name_key(name: str) -> str:
    """The canonical form of a name: lower case, trimmed, runs of blanks and underscores as one hyphen.

    >>> name_key("  Dragon_Bonus  Player ")
    'dragon-bonus-player'
    """
    return re.sub(r"[\s_]+", "-", name.strip().lower())


NEAR = 0.6
"""How close a known name must be to be suggested (:func:`difflib.get_close_matches`'s ratio)."""


def nearest(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` closest to ``name`` (by :func:`name_key`), or ``None`` when none is :data:`NEAR`.

    >>> nearest("super6", ["standard", "super-6", "ez"]), nearest("sidebet", ["sidebets", "edges"])
    ('super-6', 'sidebets')
    >>> print(nearest("zzz", ["standard"]))
    None
    """
    keys: dict[str, str] = {}
    for known in names:
        keys.setdefault(name_key(known), known)
    close = difflib.get_close_matches(name_key(name)[:200], list(keys), n=1, cutoff=NEAR)
    return keys[close[0]] if close else None


def unknown_name(what: str, name: str, names: Iterable[str], listing: str, *, where: str = "") -> str:
    """The one message for a ``name`` that is none of ``names``: the nearest name, else the caller's
    ``listing`` (with its own punctuation); ``where``: ``" in [x]"``.

    >>> unknown_name("command", "sidebet", ["odds", "sidebets"], " (choose from odds, sidebets)")
    "unknown command 'sidebet' (did you mean 'sidebets'?)"
    >>> unknown_name("key", "zz", ["tables"], " (known: tables)")
    "unknown key 'zz' (known: tables)"
    """
    close = nearest(name, names)
    return f"unknown {what} {shown(name)}{where}" + (listing if close is None else f" (did you mean {close!r}?)")


def unknown_key(key: str, known: Sequence[str], where: str = "") -> str:
    """:func:`unknown_name` for a key of a user's file, listing the ``known`` keys."""
    return unknown_name("key", key, known, f" (known: {', '.join(known)})", where=where)


class Named(Protocol):
    """What a registry holds: a value with a name and aliases."""

    @property
    def name(self) -> str: ...  # pragma: no cover

    @property
    def aliases(self) -> tuple[str, ...]: ...  # pragma: no cover


N = TypeVar("N", bound=Named)


class Registry(Mapping[str, N]):
    """Named values by canonical name (:func:`name_key`), in registration order; immutable.

    ``registry[name]`` takes any spelling of a name or an alias; :meth:`find` is the lookup for user
    input. Two values may share a name or alias only if equal (the later one is then skipped).
    """

    __slots__ = ("_aliases", "_error", "_items", "_kind", "_sort_listing")

    def __init__(self, kind: str, items: Iterable[N] = (), *, error: type[InputError] = InputError,
                 sort_listing: bool = False) -> None:
        self._kind, self._error, self._sort_listing = kind, error, sort_listing
        self._items: dict[str, N] = {}
        self._aliases: dict[str, str] = {}
        for item in items:
            self._add(item)

    def _add(self, item: N) -> None:
        keys = [name_key(n) for n in (item.name, *item.aliases)]
        for name, key in zip((item.name, *item.aliases), keys, strict=True):
            taken = self.get(key)
            if taken == item:
                return
            if taken is not None:
                raise self._error(f"{self._kind} name {shown(name)} is already taken by the {self._kind} "
                                  f"{shown(taken.name)}")
        self._items[keys[0]] = item
        self._aliases.update((key, keys[0]) for key in keys[1:])

    def __getitem__(self, name: str) -> N:
        key = name_key(name)
        return self._items[self._aliases.get(key, key)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Registry({self._kind!r}: {', '.join(self._items)})"

    def find(self, name: str) -> N:
        """The value called ``name`` or an alias; else the registry's error, suggesting the nearest name
        (an alias suggests its value's name) or listing the names (sorted with ``sort_listing``)."""
        found = self.get(name)
        if found is None:
            names = sorted(self._items) if self._sort_listing else list(self._items)
            close = nearest(name, [*self._items, *self._aliases])
            canonical = None if close is None else self._aliases.get(close, close)
            known = names if canonical is None else [canonical]
            raise self._error(unknown_name(self._kind, name, known, f"; known {self._kind}s: {', '.join(names)}"))
        return found

    def extended(self, more: Iterable[N]) -> Registry[N]:
        """A new registry with ``more`` after these values; a name already taken by another value is an error."""
        return Registry(self._kind, [*self._items.values(), *more], error=self._error,
                        sort_listing=self._sort_listing)
