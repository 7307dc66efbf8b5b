"""Effects of removal: how each rank taken out of the shoe moves each bet's expectation.

The effect of removal of a rank ``r`` on a bet is ``EV(shoe without one card of rank r) - EV(shoe)``, ``EV``
the bettor's net result per unit staked, exactly (a bet that looks at suits averages the suits, by
count); weighted by the composition the effects add up to zero. A *balanced linear count* turns them into
small integer tags summing to zero over one deck; its *betting correlation* (Griffin, *The Theory of
Blackjack*, ch. 4) is kept exactly as its square and a sign.

>>> from exact_odds.bets import find_bet
>>> from exact_odds.core.shoe import Shoe
>>> (banker,) = effects_of_removal(Shoe.decks(8), [find_bet("banker")])
>>> banker.effects[4]  # one five removed from eight decks
Fraction(-551647413608, 6671039365092375)
>>> sum(n * e for n, e in zip(banker.shoe.counts, banker.effects))
Fraction(0, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from exact_odds.bets import BUILTIN_BETS, usable_bets
from exact_odds.core.coup import Detail
from exact_odds.core.notebook import Percent, html_table
from exact_odds.core.shoe import CARDS_PER_COUP, RANK_LABELS, RANKS, Shoe, ShoeError
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.inputs.errors import InputError, suits_unknown

if TYPE_CHECKING:
    from exact_odds.core.coup import Payable

MAX_TAG = 2
"""Default largest tag (in absolute value) of a suggested count."""


@dataclass(frozen=True, slots=True)
class Correlation:
    """A correlation coefficient kept exactly: ``sign * sqrt(squared)``."""

    squared: Fraction
    sign: int

    def rounded(self, digits: int) -> Fraction:
        """The correlation rounded to ``digits`` decimals (half away from zero), exactly."""
        scaled = self.squared * 4 * 10 ** (2 * digits)
        twice = math.isqrt(scaled.numerator // scaled.denominator)  # floor(2 |c| 10^d)
        return Fraction(self.sign * ((twice + 1) // 2), 10**digits)

    def __float__(self) -> float:
        return self.sign * math.sqrt(self.squared)


def correlation(xs: Sequence[Fraction | int], ys: Sequence[Fraction | int], weights: Sequence[int]) -> Correlation:
    """The weighted Pearson correlation of ``xs`` and ``ys``, exactly (0 when either is constant), by
    integer moments: with ``S`` the total weight, ``S**2 cov = S Sxy - Sx Sy``."""
    s = sum(weights)
    if not s:
        raise ValueError("correlation needs a positive total weight")
    xs, ys = _integers(xs), _integers(ys)
    sx = sum(w * x for w, x in zip(weights, xs, strict=True))
    sy = sum(w * y for w, y in zip(weights, ys, strict=True))
    cov = s * sum(w * x * y for w, x, y in zip(weights, xs, ys, strict=True)) - sx * sy
    vx = s * sum(w * x * x for w, x in zip(weights, xs, strict=True)) - sx * sx
    vy = s * sum(w * y * y for w, y in zip(weights, ys, strict=True)) - sy * sy
    if not vx or not vy:
        return Correlation(Fraction(0), 0)
    return Correlation(Fraction(cov * cov, vx * vy), (cov > 0) - (cov < 0))


def _integers(values: Sequence[Fraction | int]) -> list[int]:
    """The values times the least common multiple of their denominators."""
    scale = math.lcm(*(Fraction(v).denominator for v in values))
    return [int(Fraction(v) * scale) for v in values]


@dataclass(frozen=True, slots=True)
class LinearCount:
    """Integer tags per rank (A..K); the running count adds the tag of each card seen."""

    tags: tuple[int, ...]
    correlation: Correlation

    def running(self, seen: Sequence[int]) -> int:
        """The running count after seeing ``seen[i]`` cards of each rank."""
        return sum(t * n for t, n in zip(self.tags, seen, strict=True))


@dataclass(frozen=True, slots=True)
class Removal:
    """The effects of removal of one bet for one shoe: ``effects[i]`` is EV(shoe less one card of rank
    ``RANKS[i]``) - ``expectation``, or ``None`` when the shoe has no card of that rank."""

    bet: Payable
    shoe: Shoe
    expectation: Fraction
    effects: tuple[Fraction | None, ...]

    def removed(self, rank_index: int) -> Fraction | None:
        """EV of the shoe less one card of rank ``RANKS[rank_index]``."""
        effect = self.effects[rank_index]
        return None if effect is None else self.expectation + effect

    def count(self, *, max_tag: int = MAX_TAG) -> LinearCount:
        """The balanced linear count with the best betting correlation (see :func:`suggest_count`)."""
        return suggest_count(self.effects, self.shoe.counts, max_tag=max_tag)

    def as_dict(self) -> dict[str, Fraction | None]:
        """Effects by rank label: ``{"A": ..., "2": ..., ..., "K": ...}``."""
        return dict(zip(RANK_LABELS, self.effects, strict=True))

    def _repr_html_(self) -> str:
        """The effects as a table in a notebook: each rank's exact effect, and the tag of the suggested count."""
        count = self.count()
        rows = [[label, effect, None if effect is None else Percent(effect), tag]
                for label, effect, tag in zip(RANK_LABELS, self.effects, count.tags, strict=True)]
        notes = [f"player_ev of the full shoe {self.expectation} ≈ {float(self.expectation):.4%}; the suggested "
                 f"count's betting correlation {float(count.correlation):.4f}"]
        return html_table(["rank removed", "effect on player_ev", "≈", "tag"], rows,
                          caption=f"Effects of removal of one card on {self.bet.name}, {self.shoe}", notes=notes)


def _check_shoe(shoe: Shoe) -> None:
    if shoe.infinite:
        raise ShoeError("effects of removal need a finite shoe (the infinite deck does not change)")
    if shoe.size <= CARDS_PER_COUP:
        raise ShoeError(f"effects of removal need a shoe of at least {CARDS_PER_COUP + 1} cards, "
                        f"this one has {shoe.size}")


Effects = list[tuple[Fraction, list[Fraction | None]]]
"""Per bet: the full-shoe EV and the effect of removal of each rank (None if absent)."""


def _effects(shoe: Shoe, bets: Sequence[Payable], tableau: Tableau, *, suits: bool) -> Effects:
    """EV and effects of removal by rank, in one bulk evaluation; with ``suits``, a card of each suit
    removed, weighted by the suit's count."""
    # numpy-backed: single-shoe commands never load it
    from exact_odds.batch import evaluate

    if suits and shoe.suited is None:
        raise ShoeError(suits_unknown())
    full = [list(row) for row in shoe.suited] if suits and shoe.suited else [[n] for n in shoe.counts]
    grids = [full]
    removals: list[tuple[int, int]] = []
    for i, row in enumerate(full):
        for s, n in enumerate(row):
            if n:
                grid = [list(r) for r in full]
                grid[i][s] -= 1
                grids.append(grid)
                removals.append((i, n))
    ev = evaluate([[sum(r) for r in grid] for grid in grids], bets=bets, tableau=tableau,
                  suits=grids if suits else None)
    out: Effects = []
    for j in range(len(bets)):
        values = ev.expectations(j)
        sums: dict[int, Fraction] = {}
        for k, (i, n) in enumerate(removals, 1):
            sums[i] = sums.get(i, Fraction(0)) + n * values[k]
        effects: list[Fraction | None] = [None] * len(RANKS)
        for i, total in sums.items():
            effects[i] = total / shoe.counts[i] - values[0]
        out.append((values[0], effects))
    return out


def effects_of_removal(shoe: Shoe, bets: Iterable[Payable] | None = None, *,
                       tableau: Tableau = STANDARD_TABLEAU,
                       progress: Callable[[int, int], None] | None = None) -> list[Removal]:
    """Exact effects of removal of every rank on each bet (default: every built-in bet usable on the shoe).
    ``progress(done, total)``, if given, is called with the bets evaluated so far, after each pass."""
    _check_shoe(shoe)
    choice: Iterable[Payable] = BUILTIN_BETS.values() if bets is None else bets
    chosen, _ = usable_bets(shoe, choice, strict=bets is not None)
    plain = [b for b in chosen if b.detail is not Detail.SUITS]
    suited = [b for b in chosen if b.detail is Detail.SUITS]
    report = progress or (lambda done, total: None)
    report(0, len(chosen))
    results: dict[str, tuple[Fraction, list[Fraction | None]]] = {}
    for group, suits in ((plain, False), (suited, True)):
        if group:
            results.update(zip((b.name for b in group), _effects(shoe, group, tableau, suits=suits), strict=True))
            report(len(results), len(chosen))
    return [Removal(b, shoe, results[b.name][0], tuple(results[b.name][1])) for b in chosen]


# ---------------------------------------------------------------- suggested counts


def _groups(effects: Sequence[Fraction | None]) -> list[tuple[Fraction, list[int]]]:
    """Ranks with equal effects share a tag: (effect, rank indices), ranks absent left out."""
    groups: dict[Fraction, list[int]] = {}
    for i, e in enumerate(effects):
        if e is not None:
            groups.setdefault(e, []).append(i)
    return list(groups.items())


def _scales(groups: Sequence[tuple[Fraction, list[int]]], max_tag: int) -> list[Fraction]:
    """Scales ``k`` between the points where some ``round(k * effect)`` changes."""
    top = max(abs(e) for e, _ in groups)
    limit = (max_tag + Fraction(1, 2)) / top
    cuts = sorted({(j + Fraction(1, 2)) / abs(e) for e, _ in groups if e for j in range(max_tag + 1)} | {limit})
    points = [c for c in cuts if c <= limit]
    return [(a + b) / 2 for a, b in zip([Fraction(0), *points[:-1]], points, strict=True)]


def _balance(numerators: list[int], denominator: int, sizes: list[int], max_tag: int) -> list[int] | None:
    """Integer tags (:func:`_tags`) of weighted sum 0 nearest to the targets ``numerators[g] / denominator``:
    the least ``sum of size * |tag - target|``, then the smallest last tag, and so on.

    A dynamic programme over the groups, its state the weighted sum so far. A layer lists codes by state:
    the cost shifted left 3 bits a group, plus each group's tag index at bits ``3 g``, so that ``min``
    orders them as wanted; codes of ``none`` and above are states not reached.
    """
    shift = 3 * len(sizes)
    choices = [[(m * t, (m * abs(t * denominator - a) << shift) + (j << 3 * g))
                for j, t in enumerate(_tags(a, denominator, max_tag))]
               for g, (a, m) in enumerate(zip(numerators, sizes, strict=True))]
    if not all(choices):
        return None
    none = 3 * denominator * sum(sizes) + 1 << shift  # above any code: a tag is within 2.5 of its target
    rest = [(0, 0)]  # rest[-1 - g]: the least and the greatest weighted sum of the groups after group g
    for options in reversed(choices[1:]):
        rest.append((rest[-1][0] + options[0][0], rest[-1][1] + options[-1][0]))
    low, codes = 0, [0]
    for options, (least, most) in zip(choices, reversed(rest), strict=True):
        start = max(low + options[0][0], -most)
        width = min(low + len(codes) - 1 + options[-1][0], -least) + 1 - start
        if width <= 0:
            return None
        room = width + options[-1][0] - options[0][0]
        padded = [none] * room + codes + [none] * room
        rows = [map(extra.__add__, padded[room + start - low - step:][:width]) for step, extra in options]
        codes = list(map(min, *rows) if len(rows) > 1 else rows[0])
        low = start
    if codes[0] >= none:
        return None
    return [_tags(a, denominator, max_tag)[codes[0] >> 3 * g & 7] for g, a in enumerate(numerators)]


def _tags(numerator: int, denominator: int, max_tag: int) -> range:
    """The tags :func:`_balance` tries for a group of target ``numerator / denominator`` (a positive
    denominator): within 2 of the target rounded half away from zero, at most ``max_tag``."""
    base = (2 * abs(numerator) + denominator) // (2 * denominator) * (-1 if numerator < 0 else 1)
    return range(max(-max_tag, base - 2), min(max_tag, base + 2) + 1)


def suggest_count(effects: Sequence[Fraction | None], composition: Sequence[int], *,
                  max_tag: int = MAX_TAG) -> LinearCount:
    """The balanced linear count (tags at most ``max_tag``) best correlated with ``effects``.

    Tags proportional to the effects, rounded, then balanced with the least distortion; the scale of the
    highest betting correlation wins, ties going to smaller tags. Every tag is 0 when every effect is zero
    or no balanced count with tags up to ``max_tag`` exists (:func:`larger_count` finds one).

    >>> a, b = Fraction(1, 2000), Fraction(-1008, 100000)  # ranks A-8, the 9; T-K balance them
    >>> effects = [a] * 8 + [b] + [-(32 * a + 4 * b) / 16] * 4
    >>> suggest_count(effects, [32] * 13).tags == (0,) * 13, effects_are_zero(effects)
    (True, False)
    >>> max_tag, count = larger_count(effects, [32] * 13, above=2)
    >>> max_tag, count.tags
    (4, (0, 0, 0, 0, 0, 0, 0, 0, -4, 1, 1, 1, 1))
    """
    if max_tag < 1:
        raise InputError(f"the largest tag must be at least 1, got {max_tag}")
    return _suggested(tuple(effects), tuple(composition), max_tag)


def effects_are_zero(effects: Sequence[Fraction | None]) -> bool:
    """Whether every effect is zero (or absent): no linear count can help, whatever its tags."""
    return not any(effects)


def larger_count(effects: Sequence[Fraction | None], composition: Sequence[int], *, above: int,
                 up_to: int = 10) -> tuple[int, LinearCount] | None:
    """The smallest largest tag past ``above`` (at most ``up_to``) for which :func:`suggest_count` finds a
    count with a tag that is not 0, and that count; ``None`` if none does (or every effect is zero)."""
    if effects_are_zero(effects):
        return None
    for max_tag in range(above + 1, up_to + 1):
        count = suggest_count(effects, composition, max_tag=max_tag)
        if any(count.tags):
            return max_tag, count
    return None


@lru_cache(maxsize=64)
def _suggested(effects: tuple[Fraction | None, ...], composition: tuple[int, ...], max_tag: int) -> LinearCount:
    """:func:`suggest_count`, once for equal effects (many bets share their banker, player or tie's)."""
    groups = _groups(effects)
    weights = [n if e is not None else 0 for n, e in zip(composition, effects, strict=True)]
    values = _integers([e if e is not None else Fraction(0) for e in effects])
    zero = LinearCount((0,) * len(effects), Correlation(Fraction(0), 0))
    if not groups or not any(e for e, _ in groups):
        return zero
    unit = math.lcm(*(e.denominator for e, _ in groups))
    scaled = [e.numerator * (unit // e.denominator) for e, _ in groups]  # the groups' effects times unit
    sizes = [len(r) for _, r in groups]
    best: tuple[tuple[Fraction, int, int], LinearCount] | None = None
    for k in _scales(groups, max_tag):
        tags = _balance([k.numerator * e for e in scaled], k.denominator * unit, sizes, max_tag)
        if tags is None or not any(tags):
            continue
        per_rank = [0] * len(effects)
        for t, (_, ranks) in zip(tags, groups, strict=True):
            for i in ranks:
                per_rank[i] = t
        corr = correlation(per_rank, values, weights)
        signed = corr.squared * corr.sign
        rank = (signed, -max(abs(t) for t in per_rank), -sum(abs(t) for t in per_rank))
        if best is None or rank > best[0]:
            best = (rank, LinearCount(tuple(per_rank), corr))
    return best[1] if best is not None else zero
