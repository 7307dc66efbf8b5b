"""The statistical checks: outcomes, pairs and cards against the exact odds given the cards seen before.

Each coup's outcome probabilities ``p_i`` are those of its shoe less the cards seen before it (a fresh full
shoe without shoes; docs/checking.md says why), so ``(S - E)^T V^+ (S - E)``, with ``E = sum p_i`` and
``V = sum (diag p_i - p_i p_i^T)``, is asymptotically chi-square. Pairs: card counting over the composition
(:func:`pair_odds`). Cards: each card's rank against ``c_r / N`` of the composition before it, by position in
the shoe (12 degrees of freedom a group) and after each rank (consecutive pairs: 156); the check's p-value is
twice the smaller of the two (Bonferroni).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.batch import evaluate
from exact_odds.batch.evaluation import Evaluation
from exact_odds.core.coup import OUTCOMES, Payable, codes_at, payout_lookup, winner_index
from exact_odds.core.shoe import CARDS_PER_COUP, RANK_LABELS, Shoe
from exact_odds.core.tableau import Tableau
from exact_odds.core.verdict import Check, ChiSquare, IndicatorSum, statistical_check
from exact_odds.engine.enumerator import deal, winners
from exact_odds.witness.verify.checks import Hands
from exact_odds.witness.verify.log import SLOTS, CoupLog, compiled_loops

PAIRS = ("player pair", "banker pair")


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of coups: ``outcomes`` (m, 3) banker, player and tie probabilities, ``ev`` (m, k) each bet's
    player EV as floats, ``exact`` the bets' exact EVs when every coup had one composition (else ``None``)."""

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
    alone weighed from its ways (:func:`_by_winner`, compiled into ``kept``'s arrays). ``jit``: None decides."""
    paid = None if suits is not None or not bets else _by_winner(tableau, bets)
    found = evaluate(left, bets=() if paid is not None else bets, tableau=tableau, suits=suits, jit=jit)
    if paid is not None:
        weights, scales = paid
        if found.sequences.dtype != np.int64 or int(found.sequences.max()) * int(abs(weights).max()) >= 2**63:
            found = evaluate(left, bets=bets, tableau=tableau, jit=jit)  # numerators past int64: the kernel's own
        else:
            fast = compiled_loops(len(left), jit)
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
        """Uninitialised probabilities (n, 3) in Fortran order and expectations (n, k) in C order (the layouts of
        ``Evaluation.probabilities`` and ``edges``)."""
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
    """When every one of ``bets`` pays by the winner alone: the payouts on banker, player and tie (3, k) at the
    scales of :func:`exact_odds.batch.evaluate`'s numerators (checked on eight decks), and those scales."""
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
    """For each composition ``c`` (rows of ``left``, of ``size`` cards if given): the probability of a player (or
    banker) pair, ``S / (N (N - 1))`` with ``S = sum_r c_r (c_r - 1)``, and of both pairs.

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
"""Counts up to which the compiled :func:`pair_odds` looks up its terms in a table (more: NumPy, the same floats)."""


@cache
def _pair_table(most: int) -> NDArray[np.float64]:
    """The terms of :func:`pair_odds` by count ``c`` up to ``most``: ``c (c - 1)`` and ``c (c - 1) (4 c - 6)``."""
    c = np.arange(most + 1, dtype=np.float64)
    return np.stack([c * (c - 1), c * (c - 1) * (4 * c - 6)], axis=1)


class OutcomeTally:
    """A log's outcome and pair counts beside their exact conditional law, block by block, and each of ``bets``'
    exact player EV summed over the same coups."""

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
        """The :class:`Odds` of the coups :meth:`add` tests in several blocks (``(left, ok, size)``, without suits)
        in one evaluation; ``None`` for a block whose compositions are all alike (:meth:`add` evaluates it)."""
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
        """Add a block of coups in shoe order: the compositions ``left`` before them (of ``size`` cards; ``suits``:
        by rank and suit), their indices ``idx`` in the log, ``ok``: their shoes' cards add up; ``odds``: from
        :meth:`block_odds`, if it gave them."""
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
        """Each bet's exact player EV over the coups tested (a Fraction when they all had one composition)."""
        if self.exact is not None:
            return {b.name: x for b, x in zip(self.bets, self.exact, strict=True)}
        n = max(self.outcomes.trials, 1)
        return {b.name: float(x) / n for b, x in zip(self.bets, self.ev.tolist(), strict=True)}

    def left_out_note(self, coups: int, *, shoes: bool) -> str | None:
        """Why the statistical checks left out some of the log's ``coups``, if they did."""
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


GROUPS = 8
"""Groups of positions in the shoe for the rank test."""
RANK_NAMES = tuple(RANK_LABELS)
CHUNK = 65_536
"""Cards whose sums are formed together, key by key, before they are added to the tally's."""
SUM_ROWS = 512
"""Cards whose products NumPy forms at a time (800 KB, within the cache)."""


@dataclass(frozen=True, slots=True)
class _Cards:
    """The cards of a block's coups whose shoes add up, in dealing order: each one's key (its group of positions
    and the rank of the card before it), coup, slot, and composition's size (``None`` for an infinite deck)."""

    key: NDArray[np.int16]
    coup: NDArray[np.intp]
    slot: NDArray[np.intp]
    size: NDArray[np.float64] | None


def _cards(ranks: NDArray[np.int8], first: NDArray[np.bool_], total: NDArray[np.int64] | None,
           dealt: NDArray[np.int64], ok: NDArray[np.bool_], width: int | None, seen: NDArray[np.int64]) -> _Cards:
    """The :class:`_Cards` of a block (``width``: positions per group, ``None`` for one), counted in ``seen``."""
    kinds = len(RANK_NAMES)
    every = np.flatnonzero(ranks > 0)  # (coup, slot) flattened; a coup fills its slots in order
    coup = every // SLOTS
    slot = every - coup * SLOTS
    rank = np.take(ranks, every).astype(np.intp) - 1
    previous = np.empty_like(rank)  # the card before it in the block, unless it opens its shoe
    previous[:1] = -1
    previous[1:] = rank[:-1]
    previous[(slot == 0) & np.take(first, coup)] = -1
    if not ok.all():
        keep = np.take(ok, coup)
        coup, slot, rank, previous = coup[keep], slot[keep], rank[keep], previous[keep]
    position = np.take(dealt, coup) + slot
    group = np.zeros_like(position) if width is None else np.minimum(position // width, GROUPS - 1)
    key = (group * (kinds + 1) + previous + 1).astype(np.int16)
    seen += np.bincount(key * kinds + rank, minlength=len(seen) * kinds).reshape(len(seen), kinds)
    size = None if total is None else (np.take(total, coup) - slot).astype(np.float64)
    return _Cards(key, coup, slot, size)


class CardTally:
    """The ranks of a log's cards beside their exact conditional law: sums kept per key (group of positions, rank
    of the card before), ``gram[key]`` the sum of ``a a^T`` with ``a = (p, 1)`` for each card's rank odds ``p``."""

    KEYS = GROUPS * (len(RANK_NAMES) + 1)

    def __init__(self, shoe: Shoe) -> None:
        kinds = len(RANK_NAMES)
        self.shoe = shoe
        self.width = None if shoe.infinite else max(1, -(-shoe.size // GROUPS))
        self.gram = np.zeros((self.KEYS, kinds + 1, kinds + 1))
        self.seen = np.zeros((self.KEYS, kinds), dtype=np.int64)
        self.small = not shoe.infinite and max(shoe.counts) < 2**15  # compositions fit int16
        self.scratch: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None  # the compiled loop's

    def add(self, log: CoupLog, idx: NDArray[np.int64], first: NDArray[np.bool_], left: NDArray[np.int64],
            dealt: NDArray[np.int64], ok: NDArray[np.bool_], total: NDArray[np.int64] | None = None) -> None:
        """Add a block of coups in shoe order, as :meth:`OutcomeTally.add` takes them (``first``: the coup opens its
        shoe; ``dealt``: the cards its shoe dealt before it; ``total``: the compositions' sizes)."""
        first = first.copy()
        first[0] = True  # the pair across a block's edge is left out (a choice made before the cards)
        ranks = np.take(log.ranks, idx, axis=0)
        if self.width is not None and total is None:
            total = left.sum(axis=1)
        fast = None if self.width is None or total is None else compiled_loops(len(ranks))
        if fast is not None and self.width is not None and total is not None:
            acc, p = self._scratch()
            fast.card_sums(ranks, first, ok, dealt, total, left, self.width, GROUPS, CHUNK, self.seen, self.gram,
                           acc, p)
            return
        cards = _cards(ranks, first, None if self.width is None else total, dealt, ok, self.width, self.seen)
        if cards.size is None:  # an infinite deck: every card has the same odds
            a = np.append(np.asarray(self.shoe.counts, dtype=np.float64) / self.shoe.size, 1.0)
            self.gram += np.bincount(cards.key, minlength=self.KEYS)[:, None, None] * np.outer(a, a)
        else:
            _add_grams(self.gram, cards.key, cards, ranks, left.astype(np.int16) if self.small else left)

    def _scratch(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The compiled loop's scratch arrays, each on a 64-byte boundary (fewest cache lines a vector)."""
        if self.scratch is None:
            cells = self.KEYS * (len(RANK_NAMES) + 1) * 16
            space = np.zeros(cells + 16 + 8)
            at = (-space.ctypes.data % 64) // 8
            self.scratch = (space[at:at + cells].reshape(self.KEYS, -1, 16), space[at + cells:at + cells + 16])
        return self.scratch

    def _collect(self, keys: range) -> IndicatorSum:
        kinds = len(RANK_NAMES)
        gram, seen = self.gram[keys.start:keys.stop:keys.step].sum(axis=0), self.seen[keys].sum(axis=0)
        total = IndicatorSum(RANK_NAMES)
        expected = gram[kinds, :kinds]
        total.add_sums(int(gram[kinds, kinds] + 0.5), seen, expected, np.diag(expected), gram[:kinds, :kinds])
        return total

    def check(self, left_out: str | None = None) -> Check:
        """The ``cards`` check (``left_out``: why some coups' cards are left out, if they are)."""
        step = len(RANK_NAMES) + 1
        groups = [self._collect(range(g * step, (g + 1) * step)) for g in range(GROUPS)]
        rows = [self._collect(range(r + 1, self.KEYS, step)) for r in range(len(RANK_NAMES))]
        by_group = [g.test(_group_label(i, self.width)) for i, g in enumerate(groups) if g.trials]
        by_row = [r.test(f"after {RANK_NAMES[i]}") for i, r in enumerate(rows) if r.trials]
        tests = [_total("ranks by position in the shoe", by_group), _total("consecutive pairs", by_row)]
        overall = self._collect(range(self.KEYS))
        notes = ["Expected: each card's exact rank probabilities given the cards seen before it in its shoe; "
                 "consecutive pairs given the first card of each pair. The tallies are the ranks of all cards.",
                 *([] if left_out is None else [left_out])]
        return statistical_check("cards", overall.trials, tests, overall.tallies(), notes, unit="cards",
                                 details=[*by_group, *by_row])


def _numerators(ranks: NDArray[np.int8], left: NDArray[Any], coup: NDArray[np.intp],
                slot: NDArray[np.intp]) -> NDArray[Any]:
    """The composition each card was dealt from (cards, 13): its coup's row of ``left`` less its cards before."""
    before = np.take(left, coup, axis=0)
    flat = before.reshape(-1)
    rows = np.arange(0, flat.size, len(RANK_NAMES))
    for earlier in range(SLOTS - 1):
        later = np.flatnonzero(slot > earlier)
        if not later.size:
            break
        flat[np.take(rows, later) + np.take(ranks[:, earlier], np.take(coup, later)) - 1] -= 1
    return before


def _add_grams(gram: NDArray[np.float64], key: NDArray[np.int16], cards: _Cards, ranks: NDArray[np.int8],
               left: NDArray[Any]) -> None:
    """Add each card to the ``gram`` of its key, :data:`CHUNK` cards at a time, each key's cards summed in dealing
    order (:func:`_sum_products`): the same floats on every machine and in the compiled ``card_sums``."""
    assert cards.size is not None
    kinds = len(RANK_NAMES)
    buffer = np.empty((min(CHUNK, len(key)), kinds + 1))
    buffer[:, kinds] = 1.0
    for start in range(0, len(key), CHUNK):
        stop = min(len(key), start + CHUNK)
        part = buffer[:stop - start]
        order = np.argsort(key[start:stop], kind="stable") + start
        keys = np.take(key, order)
        before = _numerators(ranks, left, np.take(cards.coup, order), np.take(cards.slot, order))
        np.divide(before, np.take(cards.size, order)[:, None], out=part[:, :kinds])
        runs = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), stop - start]
        for a, b in pairwise(runs):
            gram[int(keys[a])] += _sum_products(part[a:b])


def _sum_products(rows: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_t rows[t] rows[t]^T``, added row after row from the first (unlike BLAS), :data:`SUM_ROWS` at a time."""
    total: NDArray[np.float64] | None = None
    for start in range(0, len(rows), SUM_ROWS):
        part = rows[start:start + SUM_ROWS]
        products = np.einsum("ti,tj->tij", part, part)
        if total is not None:
            products[0] += total
        total = np.add.reduce(products, axis=0)
    assert total is not None
    return total


def _group_label(i: int, width: int | None) -> str:
    if width is None:
        return "every card"
    last = "on" if i == GROUPS - 1 else str((i + 1) * width)
    return f"ranks of cards {i * width + 1}-{last} of a shoe"


def _total(label: str, parts: list[ChiSquare]) -> ChiSquare:
    return ChiSquare(label, sum(t.statistic for t in parts), sum(t.df for t in parts))
