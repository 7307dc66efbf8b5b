"""Edge sorting over dealt shoes: what knowing the group of the first card of every coup is worth.

Sorted card backs tell the bettor the *group* of each coup's first card (high, 6 to 9, or low, say):
the bettor makes the best bet for that group, or sits out (integers compared). Over a study's shoes
each way of playing is set beside flat betting, with intervals over shoes (docs/study.md).

>>> from exact_odds.bets import find_bet
>>> from exact_odds.analysis.information import Information
>>> high = Information.grouped([1], {"high": "6|7|8|9"})
>>> values, choices = coup_values([[32] * 13], high, [find_bet("banker"), find_bet("player")])
>>> [round(100 * v, 3) for v in values[0].tolist()]  # with the group, without it
[6.765, 0.0]
>>> choices.tolist()  # high: player, other: banker, without the group: sit out
[[1, 0, -1]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.analysis.information.bulk import FirstCardValues, first_card_values
from exact_odds.core.shoe import RANKS, SUITS
from exact_odds.core.stats import Estimate
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.study.estimates import per_coup, per_shoe

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.analysis.information import Information
    from exact_odds.core.coup import Payable

    Array = npt.NDArray[Any]

SIT_OUT = -1
"""The choice of sitting out."""


def _scaled(values: FirstCardValues) -> tuple[Array, int]:
    """Numerators over a common denominator, ``EV(i, g, b) = scaled[i, g, b] / (lcm * ways[i, g])``
    (Python integers when int64 could overflow)."""
    lcm = math.lcm(*values.scales)
    factors = [lcm // s for s in values.scales]
    num = values.numerators
    if num.dtype != object and int(np.abs(num).max(initial=0)) * max(factors, default=1) >= 2**62:
        num = num.astype(object)
    return num * np.array(factors, dtype=num.dtype), lcm


def _best(scaled: Array) -> tuple[Array, Array]:
    best = np.argmax(scaled, axis=-1)
    return best, np.take_along_axis(scaled, best[..., None], axis=-1)[..., 0]


def coup_values(compositions: object, information: Information, bets: Sequence[Payable],
                tableau: Tableau = STANDARD_TABLEAU) -> tuple[Array, Array]:
    """Per composition (13 rank counts a row): ``values`` (n, 2), ``E[max(EV, 0)]`` over the groups of the
    first card and ``max(EV, 0)`` without the group; ``choices`` (n, groups + 1), the bet made for each
    group, then without it (:data:`SIT_OUT` when no bet is positive or the group holds no card)."""
    found = first_card_values(compositions, information, bets, tableau)
    scaled, lcm = _scaled(found)
    best, top = _best(scaled)
    bet = np.asarray(top > 0, dtype=np.bool_)
    with_group = np.where(bet, top, 0).sum(axis=1)
    plain_best, plain_top = _best(scaled.sum(axis=1))
    plain_bet = np.asarray(plain_top > 0, dtype=np.bool_)
    den = np.asarray(found.ways.sum(axis=1), dtype=np.float64) * lcm
    values = np.stack([np.asarray(with_group, dtype=np.float64) / den,
                       np.asarray(np.where(plain_bet, plain_top, 0), dtype=np.float64) / den], axis=1)
    choices = np.concatenate([np.where(bet, best, SIT_OUT), np.where(plain_bet, plain_best, SIT_OUT)[:, None]],
                             axis=1)
    return values, choices.astype(np.int8)


@dataclass(frozen=True, slots=True)
class Play:
    """One way of betting over a study (bettor's side, units staked): ``bet_share`` of coups bet (``None``
    for a difference of two plays), the exact expectations added up (``expected_*``) and what the bets
    paid (``realised_*``), per coup dealt and per shoe."""

    name: str
    bet_share: float | None
    expected_per_coup: Estimate
    realised_per_coup: Estimate
    expected_per_shoe: Estimate
    realised_per_shoe: Estimate


@dataclass(frozen=True, slots=True)
class Choice:
    """How often the first card was in ``group`` and the best play was ``bet`` (``None``: sit out)."""

    group: str
    bet: str | None
    share: float


@dataclass(frozen=True, slots=True)
class EdgeSortStudy:
    """Edge sorting over the shoes of a study: ``plays`` (given the group, without it, then flat betting on
    each bet), ``gains`` (edge sorting minus the best flat bet and minus no group, paired), and
    ``choices`` (what the sorted first card said and what was bet)."""

    information: Information
    bets: tuple[str, ...]
    plays: tuple[Play, ...]
    gains: tuple[Play, ...]
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class SortColumns:
    """What a study recorded for edge sorting, coup by coup: :func:`coup_values`'s ``values`` and ``choices``,
    the ``first`` card's code, each bet's ``player_ev`` and ``result``, and each coup's ``shoe``."""

    values: Array
    choices: Array
    first: Array
    player_ev: Array
    result: Array
    shoe: Array
    shoes: int


def _play(name: str, bet: Array | None, expected: Array, realised: Array, c: SortColumns) -> Play:
    return Play(name, None if bet is None else float(np.mean(bet)), per_coup(expected, c.shoe, c.shoes),
                per_coup(realised, c.shoe, c.shoes), per_shoe(expected, c.shoe, c.shoes),
                per_shoe(realised, c.shoe, c.shoes))


def _made(choice: Array, c: SortColumns) -> tuple[Array, Array]:
    made = choice != SIT_OUT
    return made, np.where(made, c.result[np.arange(len(choice)), np.maximum(choice, 0)], 0.0)


def study_edge_sort(information: Information, bets: Sequence[str], c: SortColumns) -> EdgeSortStudy:
    """Edge sorting's results over the coups of a study (see :class:`EdgeSortStudy`)."""
    labels = information.labels[0]
    group_of = np.array([labels.index(information.label_of(0, RANKS[code // 4], SUITS[code % 4]))
                         for code in range(4 * len(RANKS))])
    group = group_of[c.first]
    chosen = c.choices[np.arange(len(group)), group]
    made, realised = _made(chosen, c)
    plain_made, plain_realised = _made(c.choices[:, -1], c)
    expected, plain_expected = c.values[:, 0], c.values[:, 1]
    plays = [_play(f"edge sorting: best play given the group ({', '.join(labels)})", made, expected, realised, c),
             _play("no group: best play given the cards seen", plain_made, plain_expected, plain_realised, c)]
    flat = [_play(f"flat {name}", np.ones(len(group), dtype=bool), c.player_ev[:, j], c.result[:, j], c)
            for j, name in enumerate(bets)]
    top = max(range(len(bets)), key=lambda j: (flat[j].expected_per_coup.value, -j))
    gains = (_play(f"edge sorting - flat {bets[top]}", None, expected - c.player_ev[:, top],
                   realised - c.result[:, top], c),
             _play("edge sorting - no group", None, expected - plain_expected, realised - plain_realised, c))
    choices = tuple(Choice(label, None if b == SIT_OUT else bets[b], float(np.mean((group == g) & (chosen == b))))
                    for g, label in enumerate(labels) for b in [*range(len(bets)), SIT_OUT]
                    if np.any((group == g) & (chosen == b)))
    return EdgeSortStudy(information, tuple(bets), (*plays, *flat), gains, choices)
