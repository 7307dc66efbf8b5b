"""Exact discrete distributions as integer ways per outcome.

A :class:`Dist` maps each outcome to a non-negative integer number of *ways*.
Probabilities are ``ways / total`` and are returned as :class:`fractions.Fraction`;
nothing here ever produces a float. The class knows nothing about cards or dice.

>>> coin = Dist({"heads": 1, "tails": 1})
>>> coin.probability("heads")
Fraction(1, 2)
>>> coin.expectation(lambda side: 1 if side == "heads" else -1)
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Generic, TypeVar

from exact_odds.core.notebook import Approx, html_table

K = TypeVar("K", bound=Hashable)
J = TypeVar("J", bound=Hashable)

Ways = int
"""A count of equally likely elementary outcomes (for cards: ordered card sequences)."""


class Dist(Generic[K]):
    """An immutable finite distribution: outcome -> integer ways (outcomes with zero ways are dropped)."""

    __slots__ = ("_total", "_ways")

    def __init__(self, ways: Mapping[K, int] | Iterable[tuple[K, int]]) -> None:
        pairs = ways.items() if isinstance(ways, Mapping) else ways
        merged: dict[K, int] = {}
        for outcome, count in pairs:
            if not isinstance(count, int) or isinstance(count, bool):
                raise TypeError(f"ways must be integers, got {count!r} for {outcome!r}")
            if count < 0:
                raise ValueError(f"ways must be non-negative, got {count} for {outcome!r}")
            if count:
                merged[outcome] = merged.get(outcome, 0) + count
        self._ways = merged
        self._total = sum(merged.values())

    @property
    def total(self) -> Ways:
        return self._total

    def ways(self, event: K | Callable[[K], bool]) -> Ways:
        """Ways of one outcome, or of every outcome satisfying a predicate."""
        if callable(event):
            return sum(n for k, n in self._ways.items() if event(k))
        return self._ways.get(event, 0)

    def probability(self, event: K | Callable[[K], bool]) -> Fraction:
        """Exact probability of one outcome or of a predicate over outcomes."""
        if not self._total:
            raise ZeroDivisionError("probability of an empty distribution")
        return Fraction(self.ways(event), self._total)

    def expectation(self, value: Callable[[K], int | Fraction]) -> Fraction:
        """Exact expected value of ``value(outcome)``; values must be int or Fraction."""
        if not self._total:
            raise ZeroDivisionError("expectation of an empty distribution")
        acc = Fraction(0)
        for outcome, count in self._ways.items():
            v = value(outcome)
            if not isinstance(v, (int, Fraction)):
                raise TypeError(f"expectation needs exact values, got {type(v).__name__}")
            acc += count * v
        return acc / self._total

    def variance(self, value: Callable[[K], int | Fraction]) -> Fraction:
        """Exact (population) variance of ``value(outcome)``.

        >>> Dist({-1: 1, 1: 1}).variance(lambda x: x)
        Fraction(1, 1)
        """
        mean = self.expectation(value)
        return self.expectation(lambda k: (value(k) - mean) ** 2)

    def map(self, f: Callable[[K], J]) -> Dist[J]:
        """The distribution of ``f(outcome)``, ways of equal images added."""
        return Dist((f(k), n) for k, n in self._ways.items())

    def combine(self, other: Dist[J], f: Callable[[K, J], K]) -> Dist[K]:
        """The distribution of ``f(a, b)`` for independent ``a`` and ``b`` (ways multiply).

        >>> die = Dist({i: 1 for i in range(1, 7)})
        >>> two = die.combine(die, lambda a, b: a + b)
        >>> two[7], two.total
        (6, 36)
        """
        out: dict[K, int] = {}
        for a, m in self._ways.items():
            for b, n in other._ways.items():
                k = f(a, b)
                out[k] = out.get(k, 0) + m * n
        return Dist(out)

    def items(self) -> Iterator[tuple[K, Ways]]:
        return iter(self._ways.items())

    def __iter__(self) -> Iterator[K]:
        return iter(self._ways)

    def __len__(self) -> int:
        return len(self._ways)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._ways

    def __getitem__(self, outcome: K) -> Ways:
        return self._ways.get(outcome, 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._ways == other._ways

    def __hash__(self) -> int:
        return hash(frozenset(self._ways.items()))

    def __repr__(self) -> str:
        return f"Dist({self._ways!r})"

    def _repr_html_(self) -> str:
        """The distribution as a table in a notebook: each outcome's ways and exact probability.

        >>> row = Dist({"heads": 1, "tails": 3})._repr_html_().splitlines()[4]
        >>> row.replace(' style="text-align:right"', "")
        '<tr><td style="text-align:left">heads</td><td>1</td><td>1/4</td><td>0.25</td></tr>'
        """
        total = self._total
        rows = ([k, n, Fraction(n, total), Approx(n / total)] for k, n in self._ways.items())
        noun = "outcome" if len(self) == 1 else "outcomes"
        return html_table(["outcome", "ways", "probability", "≈"], rows,
                          caption=f"{len(self):,} {noun}, {total:,} ways in all")
