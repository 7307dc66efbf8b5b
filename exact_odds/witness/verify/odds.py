"""The statistical checks of outcomes: banker/player/tie and the pairs, against exact conditional odds.

Each coup's outcome has exact probabilities ``p_i`` given the cards dealt before it in its shoe
(:func:`exact_odds.batch.evaluate` of the shoe less those cards; a fresh full shoe without shoes;
unseen and burned cards change nothing, by exchangeability, and where a shoe stops is a stopping
time). The indicators less ``p_i`` are martingale differences, so ``(S - E)^T V^+ (S - E)``, with
``E = sum p_i`` and ``V = sum (diag p_i - p_i p_i^T)``, is asymptotically chi-square with 2 degrees
of freedom. Pairs depend on the first four cards alone: card counting over the composition
(:func:`pair_odds`), the two counts tested with their exact covariance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.batch import evaluate
from exact_odds.batch.compiled import chosen
from exact_odds.batch.evaluation import Evaluation
from exact_odds.core.coup import OUTCOMES, Payable, codes_at, payout_lookup, winner_index
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.core.tableau import Tableau
from exact_odds.core.verdict import Check, IndicatorSum, statistical_check
from exact_odds.engine.enumerator import deal, winners
from exact_odds.witness.verify.checks import Hands
from exact_odds.witness.verify.log import compiled_loops

PAIRS = ("player pair", "banker pair")


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of coups from compositions: ``outcomes`` (m, 3) banker, player and tie probabilities, ``ev``
    (m, k) each bet's player EV as floats, and ``exact`` the bets' exact EVs when every coup had one and
    the same composition (else ``None``)."""

    outcomes: NDArray[np.float64]
    ev: NDArray[np.float64]
    exact: tuple[Fraction, ...] | None


def full_shoe_odds(shoe: Shoe, tableau: Tableau) -> NDArray[np.float64]:
    """Banker, player and tie probabilities of one coup from the full ``shoe`` (infinite decks too)."""
    return _one_composition(shoe, tableau, (), None if shoe.infinite else np.array([shoe.counts]), None)[0]


def _one_composition(shoe: Shoe, tableau: Tableau, bets: Sequence[Payable], left: NDArray[np.int64] | None,
                     suits: NDArray[np.int64] | None) -> tuple[NDArray[np.float64], tuple[Fraction, ...]]:
    """Outcome probabilities and exact EVs of one composition (``left[0]``, or the infinite ``shoe``)."""
    if left is None:
        dist = winners(deal(shoe, tableau))
        odds = np.array([float(dist.probability(w)) if w in dist else 0.0 for w in OUTCOMES])
        return odds, tuple(deal(shoe, tableau, detail=b.detail).expectation(b.payout) for b in bets)

    ev = evaluate(left[:1], bets=bets, tableau=tableau, suits=None if suits is None else suits[:1])
    return np.asarray(ev.probabilities()[0], dtype=np.float64), tuple(ev.expectation(0, j) for j in range(len(bets)))


def conditional_odds(left: NDArray[np.int64], shoe: Shoe, tableau: Tableau, bets: Sequence[Payable] = (),
                     suits: NDArray[np.int64] | None = None) -> Odds:
    """The :class:`Odds` of a coup dealt from each composition (rows of ``left``; ``suits``: their counts by
    rank and suit, for bets that look at suits); one evaluation when the rows are all alike."""
    n, k = len(left), len(bets)
    if n == 0:
        return Odds(np.zeros((0, 3)), np.zeros((0, k)), None)
    if shoe.infinite or (alike(left) and (suits is None or alike(suits))):
        odds, exact = _one_composition(shoe, tableau, bets, None if shoe.infinite else left, suits)
        ev = np.array([float(x) for x in exact], dtype=np.float64)
        return Odds(np.broadcast_to(odds, (n, 3)), np.broadcast_to(ev, (n, k)), exact)
    return _many_odds(left, tableau, tuple(bets), suits)


def _many_odds(left: NDArray[np.int64], tableau: Tableau, bets: tuple[Payable, ...],
               suits: NDArray[np.int64] | None, kept: _Kept | None = None, jit: bool | None = None) -> Odds:
    """The :class:`Odds` of many compositions in one :func:`exact_odds.batch.evaluate`; bets paid by the winner
    alone are weighed from its banker, player and tie ways (:func:`_by_winner`; compiled:
    :func:`exact_odds.witness.verify.loops.winner_odds`, into ``kept``'s arrays). ``jit``: None decides by size."""
    paid = None if suits is not None or not bets else _by_winner(tableau, bets)
    found = evaluate(left, bets=() if paid is not None else bets, tableau=tableau, suits=suits, jit=jit)
    if paid is not None:
        weights, scales = paid
        if found.sequences.dtype != np.int64 or int(found.sequences.max()) * int(abs(weights).max()) >= 2**63:
            found = evaluate(left, bets=bets, tableau=tableau, jit=jit)  # numerators past int64: the kernel's own
        else:
            fast = chosen("exact_odds.witness.verify.loops", len(left), jit)
            if fast is not None:
                probabilities, ev = (kept or _Kept()).odds(len(found.outcomes), len(bets))
                fast.winner_odds(found.outcomes, found.sequences, weights, np.array(scales, dtype=np.float64),
                                 probabilities, ev)
                return Odds(probabilities, ev, None)
            found = Evaluation(found.counts, found.sequences, found.outcomes, bets,
                               found.outcomes @ weights, scales)  # integer products: exact
    return Odds(np.asarray(found.probabilities(), dtype=np.float64), found.edges(), None)


class _Kept:
    """Arrays of odds kept from call to call (no page faults), grown as needed; a call's odds are views of them."""

    def __init__(self) -> None:
        self.probabilities, self.ev = np.empty(0), np.empty(0)

    def odds(self, n: int, k: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Probabilities (n, 3) in Fortran order and expectations (n, k) in C order, uninitialised (the layouts of
        :meth:`exact_odds.batch.Evaluation.probabilities` and ``edges``)."""
        if self.probabilities.size < 3 * n:
            self.probabilities = np.empty(3 * n)
        if self.ev.size < n * k:
            self.ev = np.empty(n * k)
        return self.probabilities[:3 * n].reshape(3, n).T, self.ev[:n * k].reshape(n, k)


def _part(values: NDArray[np.float64], start: int, rows: int) -> NDArray[np.float64]:
    """Rows ``start`` on of ``values``, copied in its memory order (so later sums add the same floats)."""
    return values[start:start + rows].copy(order="F" if values.flags.f_contiguous else "C")


@lru_cache(maxsize=16)
def _by_winner(tableau: Tableau, bets: tuple[Payable, ...]) -> tuple[NDArray[np.int64], tuple[int, ...]] | None:
    """When every one of ``bets`` pays by the winner alone: its payouts on banker, player and tie (3, k) at the
    scales of :func:`exact_odds.batch.evaluate`'s numerators, and those scales (checked on an eight-deck
    shoe to give its numerators); else ``None``."""
    payouts = []
    for bet in bets:
        table, scale = payout_lookup(bet, bet.detail)
        codes = np.array(codes_at(bet.detail))
        winner = winner_index(codes)
        values = [np.unique(table[codes[winner == w]]) for w in range(len(OUTCOMES))]
        if any(len(v) != 1 for v in values):
            return None
        payouts.append([Fraction(int(v[0]), scale) for v in values])
    sample = evaluate([[32] * 13], bets=bets, tableau=tableau)
    scaled = [[p * s for p in column] for column, s in zip(payouts, sample.scales, strict=True)]
    if any(x.denominator != 1 for column in scaled for x in column):
        return None
    weights = np.array([[int(x) for x in column] for column in scaled], dtype=np.int64).T
    if not np.array_equal(sample.outcomes @ weights, sample.numerators):
        return None
    return weights, sample.scales


def alike(rows: NDArray[Any]) -> bool:
    """Whether the rows of ``rows`` (at least one) are all equal (the last row compared first: a quick no)."""
    return bool((rows[-1] == rows[0]).all() and (rows == rows[0]).all())


def _rows(values: NDArray[Any], keep: NDArray[np.bool_]) -> NDArray[Any]:
    return values if keep.all() else values[keep]


def pair_odds(left: NDArray[np.int64], *, infinite: bool = False,
              size: NDArray[np.int64] | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For each composition ``c`` (rows of ``left``, of ``size`` cards if given): the probability of a player pair
    (= a banker pair), ``S / (N (N - 1))`` with ``S = sum_r c_r (c_r - 1)``, and of both pairs.

    >>> p, both = pair_odds(np.array([[32] * 13]))
    >>> round(float(p[0]) * 415, 6), float(both[0]) < float(p[0]) ** 2 + 1e-4  # 31/415
    (31.0, True)
    """
    if infinite:
        c = left.astype(np.float64)
        n = c @ np.ones(c.shape[1])
        p = ((c / n[:, None]) ** 2).sum(axis=1)
        return p, p * p
    fast = compiled_loops(len(left))
    p, both = np.empty(len(left)), np.empty(len(left))
    sizes = np.zeros(0) if size is None else np.ascontiguousarray(size, dtype=np.float64)
    if fast is not None and fast.pair_probabilities(np.ascontiguousarray(left), _pair_table(TABLED), sizes, p, both):
        return p, both
    c = left.astype(np.float64)
    ones = np.ones(c.shape[1])
    pairs = c * (c - 1)  # whole numbers below 2**53 up to EXACT_SUMS: the same floats in any order of adding
    s, spread = pairs @ ones, (pairs * (4 * c - 6)) @ ones
    n = c @ ones if size is None else size.astype(np.float64)
    # both: (S^2 - sum_r (c_r (c_r - 1))^2 + sum_r (c_r)_4) / (N)_4, and the last two sums are -spread
    return s / (n * (n - 1)), (s * s - spread) / (n * (n - 1) * (n - 2) * (n - 3))


EXACT_SUMS = 50_000
"""The most cards of one rank whose pair terms add exactly in floats (13 times ``4 c^3`` below 2**53)."""
TABLED = 4_096
"""Counts up to which the compiled :func:`pair_odds` looks up its terms in one table (more: NumPy's floats, the
same)."""


@cache
def _pair_table(most: int) -> NDArray[np.float64]:
    """The terms of :func:`pair_odds` by count ``c`` up to ``most``: ``c (c - 1)`` and ``c (c - 1) (4 c - 6)``."""
    c = np.arange(most + 1, dtype=np.float64)
    return np.stack([c * (c - 1), c * (c - 1) * (4 * c - 6)], axis=1)


class OutcomeTally:
    """The outcome and pair counts of a log beside their exact conditional law, block by block, and the exact
    player EV of each of ``bets`` summed over the same coups."""

    def __init__(self, shoe: Shoe, tableau: Tableau, bets: Sequence[Payable] = ()) -> None:
        self.shoe, self.tableau, self.bets = shoe, tableau, tuple(bets)
        self.outcomes, self.pairs = IndicatorSum(OUTCOMES), IndicatorSum(PAIRS)
        self.short = self.left_out = 0
        self.ev = np.zeros(len(self.bets))
        self.exact: tuple[Fraction, ...] | None = None  # while every coup had one composition: its exact EVs
        self._first: NDArray[np.int64] | None = None  # that composition
        self._joined: NDArray[np.int64] | None = None  # :meth:`block_odds`'s compositions, kept from call to call
        self._kept = _Kept()  # and its odds

    def block_odds(self, blocks: Sequence[tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.int64]]],
                   jit: bool | None = None) -> list[Odds | None]:
        """The :class:`Odds` of the coups :meth:`add` tests in several blocks (``(left, ok, size)``, without
        suits), in one evaluation; ``None`` for a block whose compositions are all alike (:meth:`add` evaluates
        it exactly)."""
        tested = [_rows(left, ok & (size >= CARDS_PER_COUP)) for left, ok, size in blocks]
        many = [not self.shoe.infinite and len(t) > 0 and not alike(t) for t in tested]
        if not any(many):
            return [None] * len(blocks)
        joined = [t for t, m in zip(tested, many, strict=True) if m]
        rows = sum(map(len, joined))
        if self._joined is None or len(self._joined) < rows:
            self._joined = np.empty((rows, joined[0].shape[1]), dtype=np.int64)
        found = _many_odds(np.concatenate(joined, out=self._joined[:rows]), self.tableau, self.bets, None, self._kept,
                           jit)
        out: list[Odds | None] = []
        at = 0
        for t, m in zip(tested, many, strict=True):
            out.append(Odds(_part(found.outcomes, at, len(t)), _part(found.ev, at, len(t)), None) if m else None)
            at += len(t) if m else 0
        return out

    def add(self, hands: Hands, left: NDArray[np.int64], idx: NDArray[np.int64], ok: NDArray[np.bool_],
            suits: NDArray[np.int64] | None = None, size: NDArray[np.int64] | None = None,
            odds: Odds | None = None) -> None:
        """Add a block of coups in shoe order: the log's ``hands``, the compositions ``left`` before them (of
        ``size`` cards; ``suits``: by rank and suit, for bets that look at suits), their indices ``idx`` in the
        log, ``ok``: their shoes' cards add up; ``odds``: from :meth:`block_odds`, if it gave them."""
        size = left.sum(axis=1) if size is None else size
        big = ok & (size >= CARDS_PER_COUP)
        self.short += int((ok & ~big).sum())
        self.left_out += int((~ok).sum())
        tested = _rows(left, big)
        if odds is None:
            odds = conditional_odds(tested, self.shoe, self.tableau, self.bets,
                                    None if suits is None else _rows(suits, big))
        if len(odds.outcomes):
            self._share(odds, tested[0] if suits is None else np.append(tested[0], _rows(suits, big)[0]))
            self.ev += odds.ev.sum(axis=0)
        won = np.bincount(hands.winner[_rows(idx, big)], minlength=3)
        if odds.exact is not None and len(odds.outcomes):  # every coup alike (fresh shoes): sums are products
            self.outcomes.add_identical(odds.outcomes[0], np.diag(odds.outcomes[0]), len(odds.outcomes), won)
        else:
            self.outcomes.add_exclusive(odds.outcomes, won)
        self._add_pairs(hands, _rows(left, ok), _rows(idx, ok), _rows(size, ok))

    def _add_pairs(self, hands: Hands, left: NDArray[np.int64], idx: NDArray[np.int64],
                   size: NDArray[np.int64]) -> None:
        seen = np.array([hands.player_pair[idx].sum(), hands.banker_pair[idx].sum()])
        if len(left) and alike(left):  # one composition: one computation
            p, both = (float(x[0]) for x in pair_odds(left[:1], infinite=self.shoe.infinite))
            self.pairs.add_identical(np.array([p, p]), np.array([[p, both], [both, p]]), len(left), seen)
            return
        p_all, both_all = pair_odds(left, infinite=self.shoe.infinite, size=size)
        p, both = p_all.sum(), both_all.sum()
        twice = np.stack([p_all, p_all], axis=1)
        # sum p, added in order as a column sum of ``twice`` adds it, without the slow pass over its rows
        expected = np.full(2, np.cumsum(p_all)[-1] if len(p_all) else 0.0)
        self.pairs.add_sums(len(twice), seen, expected, np.array([[p, both], [both, p]]), twice.T @ twice)

    def _share(self, odds: Odds, first: NDArray[np.int64]) -> None:
        """Keep the exact EVs while every coup so far had one composition (``first``: this block's)."""
        if self._first is None and self.outcomes.trials == 0:
            self._first, self.exact = first, odds.exact
        elif odds.exact is None or self._first is None or not np.array_equal(first, self._first):
            self._first, self.exact = None, None

    def player_ev(self) -> dict[str, Fraction | float]:
        """Each bet's exact player EV over the coups tested: a Fraction when they all had one composition, else the
        mean of the floats."""
        if self.exact is not None:
            return {b.name: x for b, x in zip(self.bets, self.exact, strict=True)}
        n = max(self.outcomes.trials, 1)
        return {b.name: float(x) / n for b, x in zip(self.bets, self.ev.tolist(), strict=True)}

    def left_out_note(self, coups: int, *, shoes: bool) -> str | None:
        """Why the statistical checks left out some of the log's ``coups``, if they did (``shoes``: the log has a
        shoe column)."""
        if not self.left_out:
            return None
        whose = "their shoes deal" if shoes else "each deals"
        return (f"{self.left_out:,} of the log's {coups:,} coups are left out of the statistical checks: {whose} "
                "a card more often than the shoe holds (see the accounting check), so the cards left before "
                "them are unknown.")

    def checks(self, *, shoes: bool) -> tuple[Check, Check]:
        """The ``outcomes`` and ``pairs`` checks (``shoes``: the log has a shoe column)."""
        basis = ("given the cards seen before each coup in its shoe" if shoes
                 else "of a fresh full shoe for every coup")
        notes = [f"Expected: the sum over the coups of the exact probabilities {basis} ({self.shoe}, "
                 f"tableau {self.tableau.name!r}); chi-square with the exact covariance of that sum."]
        dropped = f"{self.left_out:,} coups of shoes that dealt more cards than they hold are left out."
        left_out = [dropped] if self.left_out else []
        if self.short:
            notes.append(f"{self.short:,} coups dealt with fewer than {CARDS_PER_COUP} cards left are left out.")
        notes += left_out
        return (statistical_check("outcomes", self.outcomes.trials, [self.outcomes.test("banker, player, tie")],
                                  self.outcomes.tallies(), notes),
                statistical_check("pairs", self.pairs.trials, [self.pairs.test("player pair, banker pair")],
                                  self.pairs.tallies(),
                                  ["A pair: the hand's first two cards share a rank. Expected: exact card "
                                   "counting over the same compositions.", *left_out]))
