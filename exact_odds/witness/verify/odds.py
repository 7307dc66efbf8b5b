"""The statistical checks of outcomes: banker/player/tie and the pairs, against exact conditional odds.

For every coup the hypothesis ("this log was dealt by the tableau from well-shuffled shoes")
gives the exact probabilities of its outcomes *given every card dealt before it in its shoe*:
the shoe less those cards is a composition, and :func:`exact_odds.batch.evaluate` gives its
exact banker/player/tie ways in bulk (a fresh full shoe for every coup of a log without
shoes). Cards burned or never shown change nothing: by exchangeability the unseen cards are
as likely to be any of the cards not yet seen. Where a shoe stops (cut card, last coup) is
decided by the cards already dealt, a stopping time, so it cannot bias the test.

The indicator ``x_i`` of coup ``i``'s outcome, less its conditional probabilities ``p_i``,
is then a martingale difference; the counts ``S = sum x_i`` have expectation ``E = sum p_i``
and covariance ``V = sum (diag p_i - p_i p_i^T)`` (a sum of multinomials, independent given
the past), and ``(S - E)^T V^+ (S - E)`` is asymptotically chi-square with 2 degrees of
freedom (martingale central limit theorem; ``V^+``: the pseudo-inverse, as banker, player
and tie add up to the number of coups).

Pairs are decided by the first four cards alone, so their conditional probabilities are
plain card counting over the composition ``c`` (``N`` cards): a player pair (cards 1 and 3)
has ``sum_r c_r (c_r - 1) / (N (N - 1))``, the banker's (cards 2 and 4) the same, and both
``(S^2 - sum_r (c_r (c_r - 1))^2 + sum_r c_r (c_r - 1) (c_r - 2) (c_r - 3)) / (N)_4`` with
``S = sum_r c_r (c_r - 1)``; the two counts get a chi-square with their exact covariance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch import Evaluation, evaluate
from exact_odds.batch.compiled import chosen
from exact_odds.core.coup import OUTCOMES, Payable, codes_at, payout_lookup, winner_index
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe
from exact_odds.core.tableau import Tableau
from exact_odds.core.verdict import Check, IndicatorSum, statistical_check
from exact_odds.engine.enumerator import deal, winners
from exact_odds.witness.verify.checks import Hands
from exact_odds.witness.verify.log import compiled_loops

if TYPE_CHECKING:
    from numpy.typing import NDArray

PAIRS = ("player pair", "banker pair")


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact odds of coups dealt from compositions: banker, player and tie probabilities
    ``outcomes`` (m, 3), each bet's player EV ``ev`` (m, k) as floats, and ``exact``: the bets'
    exact EVs when every coup had one and the same composition (else ``None``)."""

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


def coup_odds(left: NDArray[np.int64], shoe: Shoe, tableau: Tableau) -> NDArray[np.float64]:
    """Banker, player and tie probabilities of a coup dealt from each composition (rows of ``left``)."""
    return conditional_odds(left, shoe, tableau).outcomes


def conditional_odds(left: NDArray[np.int64], shoe: Shoe, tableau: Tableau, bets: Sequence[Payable] = (),
                     suits: NDArray[np.int64] | None = None) -> Odds:
    """The :class:`Odds` of a coup dealt from each composition (rows of ``left``; ``suits``: their
    counts by rank and suit, for bets that look at suits), through :func:`exact_odds.batch.evaluate`
    (one evaluation when the rows are all alike, as in a log without shoes)."""
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
    """The :class:`Odds` of many compositions through one call of :func:`exact_odds.batch.evaluate`;
    bets that pay by the winner alone are weighed from its banker, player and tie ways
    (:func:`_by_winner`; compiled, with the floats in the same pass:
    :func:`exact_odds.witness.verify.loops.winner_odds`, into ``kept``'s arrays when given), the rest
    evaluated by it. ``jit``: whether to run compiled (None: by the number of compositions)."""
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
                               _weighed(found.outcomes, weights), scales)
    return Odds(np.asarray(found.probabilities(), dtype=np.float64), found.edges(), None)


class _Kept:
    """Arrays of odds kept from call to call (their pages stay the process's: no page faults), grown
    as needed; the odds of a call are views of them, good until the next."""

    def __init__(self) -> None:
        self.probabilities, self.ev = np.empty(0), np.empty(0)

    def odds(self, n: int, k: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Probabilities (n, 3) in Fortran order and expectations (n, k) in C order, uninitialised
        (each contiguous, as :meth:`exact_odds.batch.Evaluation.probabilities` and ``edges`` give them)."""
        if self.probabilities.size < 3 * n:
            self.probabilities = np.empty(3 * n)
        if self.ev.size < n * k:
            self.ev = np.empty(n * k)
        return self.probabilities[:3 * n].reshape(3, n).T, self.ev[:n * k].reshape(n, k)


def _part(values: NDArray[np.float64], start: int, rows: int) -> NDArray[np.float64]:
    """Rows ``start`` on of ``values``, copied in its memory order (sums along its columns then add in
    the order they would over the rows evaluated alone: the same floats)."""
    return values[start:start + rows].copy(order="F" if values.flags.f_contiguous else "C")


def _weighed(ways: NDArray[np.int64], weights: NDArray[np.int64]) -> NDArray[np.int64]:
    """``ways @ weights`` (banker, player and tie ways (n, 3) times scaled payouts (3, k)), each column
    added in int64 (exact: the caller bounds it)."""
    out = np.empty((len(ways), weights.shape[1]), dtype=np.int64)
    for j in range(weights.shape[1]):
        out[:, j] = ways[:, 0] * weights[0, j] + ways[:, 1] * weights[1, j] + ways[:, 2] * weights[2, j]
    return out


@lru_cache(maxsize=16)
def _by_winner(tableau: Tableau, bets: tuple[Payable, ...]) -> tuple[NDArray[np.int64], tuple[int, ...]] | None:
    """When every one of ``bets`` pays by the winner alone: its payouts on banker, player and tie as
    integers (3, k) at the scales :func:`exact_odds.batch.evaluate` gives its numerators, and those
    scales; else ``None``. Its numerators are then these payouts weighed by the ways of each winner,
    the same integers (checked here on an eight-deck shoe), so the floats of ``edges`` are the same."""
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
    if not np.array_equal(_weighed(sample.outcomes, weights), sample.numerators):
        return None
    return weights, sample.scales


def alike(rows: NDArray[Any]) -> bool:
    """Whether the rows of ``rows`` (at least one) are all equal (the last row compared first: rows that
    differ usually differ there, and the answer comes without a pass over them all)."""
    return bool((rows[-1] == rows[0]).all() and (rows == rows[0]).all())


def _rows(values: NDArray[Any], keep: NDArray[np.bool_]) -> NDArray[Any]:
    """The rows of ``values`` where ``keep`` holds (``values`` itself when it holds everywhere)."""
    return values if keep.all() else values[keep]


def pair_odds(left: NDArray[np.int64], *, infinite: bool = False,
              size: NDArray[np.int64] | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For each composition: the probability of a player pair (= a banker pair) and of both pairs
    (``size``: the compositions' sizes, if known).

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
    if fast is not None:
        p, both = np.empty(len(left)), np.empty(len(left))
        if fast.pair_probabilities(np.ascontiguousarray(left), _pair_table(TABLED), np.zeros(0) if size is None else
                                   np.ascontiguousarray(size, dtype=np.float64), p, both):
            return p, both
    c = left.astype(np.float64)
    ones = np.ones(c.shape[1])
    most = int(left.max(initial=0))
    if most > EXACT_SUMS or int(left.min(initial=0)) < 0:
        pairs = c * (c - 1)
        s, spread = pairs @ ones, (pairs * (4 * c - 6)) @ ones
    else:
        s, spread = _pair_sums(left, most)
    n = c @ ones if size is None else size.astype(np.float64)
    p = s / (n * (n - 1))
    # sum_r c_r (c_r - 1) (c_r - 2) (c_r - 3) - sum_r (c_r (c_r - 1))^2 = -sum_r c_r (c_r - 1) (4 c_r - 6);
    # every term is a whole number well below 2**53, so the floats are exact.
    both = (s * s - spread) / (n * (n - 1) * (n - 2) * (n - 3))
    return p, both


EXACT_SUMS = 50_000
"""The most cards of one rank for which :func:`_pair_sums` adds exactly in floats (13 times
``4 c^3`` stays below 2**53)."""


def _pair_sums(left: NDArray[np.int64], most: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``sum_r c_r (c_r - 1)`` and ``sum_r c_r (c_r - 1) (4 c_r - 6)`` of each composition, from a table
    of both terms by count (``most``: the largest count): whole numbers below 2**53, so the floats are
    exact and equal to any other way of adding them."""
    table = _pair_table(most)
    fast = compiled_loops(len(left))
    if fast is not None:
        sums = np.empty((len(left), 2))
        fast.pair_sums(np.ascontiguousarray(left), table, sums)
    else:
        sums = np.take(table, left, axis=0).reshape(len(left), 2 * left.shape[1]) @ np.tile(np.eye(2),
                                                                                           (left.shape[1], 1))
    return sums[:, 0], sums[:, 1]


TABLED = 4_096
"""Counts up to which :func:`pair_odds` looks up its terms in one table kept for every call."""


@cache
def _pair_table(most: int) -> NDArray[np.float64]:
    """The terms of :func:`_pair_sums` by count ``c`` up to ``most``: ``c (c - 1)`` and ``c (c - 1) (4 c - 6)``."""
    c = np.arange(most + 1, dtype=np.float64)
    return np.stack([c * (c - 1), c * (c - 1) * (4 * c - 6)], axis=1)


class OutcomeTally:
    """The outcome and pair counts of a log beside their exact conditional law, block by block,
    and the exact player EV of each of ``bets`` summed over the same coups.

    ``add`` takes a block of coups in shoe order: the log's ``hands``, the compositions ``left``
    before the coups (``suits``: by rank and suit, for bets that look at suits), their indices
    ``idx`` in the log, and ``ok``: whether their shoes' cards add up.
    """

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
        """The :class:`Odds` of the coups :meth:`add` tests in each of several blocks (``(left, ok, size)``,
        as :meth:`add` takes them; without suits), in one evaluation: one call over many blocks costs
        less than one per block. ``None`` for a block whose compositions are all alike (:meth:`add`
        evaluates those once itself, exactly); ``jit``: whether to run compiled (None: by their number)."""
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
        """Add a block of coups (``size``: the sizes of the compositions ``left``, if known; ``odds``:
        those of its coups tested, if :meth:`block_odds` gave them)."""
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
        """Add the pair counts of coups dealt from ``left`` (of ``size`` cards; their indices ``idx`` in the log)."""
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
        """Keep the exact EVs while every coup so far had one and the same composition (``first``: this block's;
        called before the block's coups are counted)."""
        if self._first is None and self.outcomes.trials == 0:
            self._first, self.exact = first, odds.exact
        elif odds.exact is None or self._first is None or not np.array_equal(first, self._first):
            self._first, self.exact = None, None

    def player_ev(self) -> dict[str, Fraction | float]:
        """Each bet's exact player EV (net units per unit staked) over the coups tested: exact when
        they all had one composition (coups from a fresh full shoe), else the mean of the floats."""
        if self.exact is not None:
            return {b.name: x for b, x in zip(self.bets, self.exact, strict=True)}
        n = max(self.outcomes.trials, 1)
        return {b.name: float(x) / n for b, x in zip(self.bets, self.ev.tolist(), strict=True)}

    def left_out_note(self, coups: int, *, shoes: bool) -> str | None:
        """Why the statistical checks ran on fewer of the log's ``coups`` than it holds, if they did: the coups
        whose shoe (``shoes``: the log has a shoe column; else the coup itself) deals a card more often than the
        shoe holds are left out."""
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
        if self.short:
            notes.append(f"{self.short:,} coups dealt with fewer than {CARDS_PER_COUP} cards left are left out.")
        if self.left_out:
            notes.append(f"{self.left_out:,} coups of shoes that dealt more cards than they hold are left out.")
        return (statistical_check("outcomes", self.outcomes.trials, [self.outcomes.test("banker, player, tie")],
                                  self.outcomes.tallies(), notes),
                statistical_check("pairs", self.pairs.trials, [self.pairs.test("player pair, banker pair")],
                                  self.pairs.tallies(),
                                  ["A pair: the hand's first two cards share a rank. Expected: exact card "
                                   "counting over the same compositions.",
                                   *([] if not self.left_out else [f"{self.left_out:,} coups of shoes that dealt "
                                                                   "more cards than they hold are left out."])]))
