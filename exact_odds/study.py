"""Composition-dependent studies: the exact edge of each bet before every coup of many shoes.

A study deals shuffled shoes down to the cut card and, before every coup, evaluates the
exact expectation of each chosen bet given the cards seen so far (all compositions of all
shoes are one bulk evaluation, :mod:`exact_odds.batch`). From these it reports, per bet,
the distribution of edges, how often a bet has a positive expectation, what betting only
those coups would gain (perfect information), what a balanced linear count from the effects
of removal (:mod:`exact_odds.removal`) gains at chosen true-count thresholds, and the
cut-card effect (outcome frequencies averaged over dealt coups versus the full-shoe odds).

Conventions. Edges are the bettor's expectation in units staked (positive = the bettor's
advantage). "Gain per coup" is averaged over every coup dealt, betting one unit on the
coups selected and nothing on the others. The true count is the running count (the sum of
the tags of every card seen) divided by the decks not yet seen (unseen cards / 52).

Dealing is the simulator's (:func:`exact_odds.simulate.play_shoes`, after Wizard of Odds,
"Baccarat" basics): the full shoe is shuffled; unless ``burn=False`` the first card is turned face up (and
seen) and as many cards as its value are burned face down (ace 1, 2-9 the pip value, a ten
or court card 10); the burned cards are never seen, so they stay in the composition the
edges are computed from (by exchangeability that is the bettor's exact expectation given
what was seen). A cut card lies ``cut_card`` cards from the end. With
``last_coup="one-more"`` the coup in which the cut card comes out is finished and one
more coup is dealt (when it comes out before a coup, that coup is the last); with
``"this"`` the coup in which it comes out is the last.

Randomness: shoe ``i`` (0-based) is shoe ``i`` of ``exact-odds simulate --shoes`` with the
same seed (:func:`exact_odds.simulate.shoe_orders`: row ``i % SHOE_BLOCK`` of the block
``i // SHOE_BLOCK`` shuffled by ``default_rng(SeedSequence(seed, spawn_key=(i // SHOE_BLOCK,)))``).
Each shoe depends only on the seed and its index, so the results are identical whatever the
number of workers or Dask tasks.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch import OUTCOMES, Payable, TabulatedBet, evaluate, tabulate
from exact_odds.engine import Coup, Detail
from exact_odds.errors import InputError
from exact_odds.removal import MAX_TAG, LinearCount, effects_of_removal
from exact_odds.shoe import CARDS_PER_COUP, SUITS, Card, Shoe, ShoeError, parse_cards
from exact_odds.simulate import (
    MAX_BURN,
    DealTables,
    LastCoup,
    Procedure,
    Progress,
    SimulationError,
    play_shoes,
    shoe_card_codes,
    shoe_orders,
)
from exact_odds.tableau import STANDARD_TABLEAU, Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]

SHOES_PER_TASK = 100
"""Shoes dealt and evaluated per task (a unit of work for a worker process or Dask)."""
QUANTILES = (0.0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0)
HISTOGRAM_BINS = 20
DEFAULT_THRESHOLDS = (0.0, 4.0, 8.0, 12.0, 16.0, 20.0)
"""Default true-count thresholds of the count strategies."""
DECK = 52
DASK_TIMEOUT = 30
"""Seconds to wait for a Dask scheduler to answer."""


class StudyError(InputError):
    """Study options or a recorded shoe that cannot be used; the message says why."""


@dataclass(frozen=True)
class Dealing:
    """How a shoe reaches the table: cut card depth, the last-coup rule, the burn."""

    cut_card: int = 16
    last_coup: LastCoup = "one-more"
    burn: bool = True

    @property
    def procedure(self) -> Procedure:
        """The simulator's procedure that deals this way."""
        return Procedure(cut=self.cut_card, last_coup=self.last_coup, burn=self.burn)

    def check(self, shoe: Shoe) -> None:
        """Raise :class:`StudyError` unless shoes can be dealt this way from ``shoe``."""
        if shoe.infinite:
            raise StudyError("a study deals finite shoes (give --decks N or --shoe SPEC)")
        try:
            self.procedure.check(shoe)
        except SimulationError as err:
            raise StudyError(str(err)) from None

    def describe(self) -> str:
        """One line for reports."""
        return self.procedure.shoe_rules()


# ---------------------------------------------------------------- dealing shoes


@dataclass(frozen=True)
class _Dealt:
    """The coups of some shoes: which shoe, where each coup starts, who won, what was seen."""

    shoe: Array  # (m,) shoe index of each coup
    start: Array  # (m,) position of the coup's first card
    winner: Array  # (m,) 0 banker, 1 player, 2 tie
    seen: Array  # (m, 52) cards seen before the coup, by card code


def _deal(seed: int, first: int, stop: int, dealing: Dealing, tableau: Tableau, codes: Sequence[int]) -> _Dealt:
    """Deal shoes ``first`` to ``stop - 1`` of a study with the simulator's shoes and dealer.

    The cards seen before a coup are the turned burn card (if any) and the cards of the
    earlier coups of the shoe; the burned cards are never seen.
    """
    orders = shoe_orders(codes, seed, first, stop)
    procedure = dealing.procedure
    play = play_shoes(orders, DealTables.of(tableau), procedure, compositions=True)
    assert play.left is not None
    rows = np.arange(len(orders))
    hidden = np.zeros((len(orders), DECK), dtype=np.int64)  # the cards burned face down
    if procedure.burn:
        pos = 1 + np.minimum(orders[:, 0] // 4 + 1, 10)
        for j in range(1, MAX_BURN):
            hidden[rows, orders[:, j]] += j < pos
    full = np.bincount(np.asarray(codes), minlength=DECK)
    seen = full - play.left.astype(np.int64) - hidden[play.shoe]
    totals = play.codes % 100
    player, banker = totals // 10, totals % 10
    winner = np.where(banker > player, 0, np.where(player > banker, 1, 2))
    return _Dealt(play.shoe.astype(np.int64) + first, play.start.astype(np.int64), winner, seen)


@dataclass(frozen=True)
class _Task:
    """A unit of work: deal and evaluate shoes ``first`` to ``stop - 1`` of a study."""

    seed: int
    first: int
    stop: int
    codes: tuple[int, ...]
    dealing: Dealing
    tableau: Tableau
    bets: tuple[TabulatedBet, ...]
    tags: Array  # (13, k)


@dataclass(frozen=True)
class CoupRecords:
    """One row per coup dealt (arrays in shoe order, then dealing order).

    ``shoe``: shoe index; ``unseen``: cards not yet seen before the coup; ``edges``: (m, k)
    expectation of each bet (float, sign exact); ``favourable``: (m, k) expectation > 0,
    exactly; ``running``: (m, k) running count of each bet's count; ``probabilities``: (m, 3)
    exact banker/player/tie probabilities as floats; ``winner``: 0 banker, 1 player, 2 tie.
    """

    shoe: Array
    unseen: Array
    edges: Array
    favourable: Array
    running: Array
    probabilities: Array
    winner: Array

    @staticmethod
    def concatenate(parts: Sequence[CoupRecords]) -> CoupRecords:
        """Rows of several records, in order."""
        return CoupRecords(*(np.concatenate([getattr(p, f) for p in parts]) for f in CoupRecords.__dataclass_fields__))

    def true_counts(self) -> Array:
        """Running count per deck unseen, shape (m, k)."""
        return np.asarray(self.running * DECK / self.unseen[:, None], dtype=np.float64)


def _run_task(task: _Task) -> CoupRecords:
    """Deal and evaluate one task's shoes (runs in a worker process or on a Dask worker)."""
    dealt = _deal(task.seed, task.first, task.stop, task.dealing, task.tableau, task.codes)
    full = np.bincount(task.codes, minlength=DECK)
    suits = (full - dealt.seen).reshape(-1, 13, 4)
    counts = suits.sum(axis=2)
    suited = any(b.detail is Detail.SUITS for b in task.bets)
    ev = evaluate(counts, bets=task.bets, tableau=task.tableau, suits=suits if suited else None)
    seen_ranks = dealt.seen.reshape(-1, 13, 4).sum(axis=2)
    return CoupRecords(dealt.shoe, counts.sum(axis=1), ev.edges(), ev.favourable(),
                       seen_ranks @ task.tags, ev.probabilities(), dealt.winner)


@contextmanager
def _single_threaded_blas() -> Iterator[None]:
    """Worker processes started inside this block use one BLAS thread each."""
    names = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    saved = {k: os.environ.get(k) for k in names}
    os.environ.update({k: "1" for k in names})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _results(tasks: Sequence[_Task], *, workers: int, dask: str | None,
             progress: Callable[[int], None]) -> Iterator[CoupRecords]:
    """Run the tasks in order: in this process, in worker processes, or on a Dask cluster."""
    if dask is not None:
        import importlib

        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise StudyError("--dask needs the dask extra: pip install 'exact-odds[dask]'") from None
        try:
            client = distributed.Client(dask, timeout=DASK_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as err:
            raise StudyError(f"cannot reach the Dask scheduler at {dask!r}: {err}") from None
        with client:
            futures = client.map(_run_task, tasks, pure=False)
            for task, future in zip(tasks, futures, strict=True):
                yield future.result()
                progress(task.stop - task.first)
        return
    if workers <= 1 or len(tasks) == 1:
        for task in tasks:
            yield _run_task(task)
            progress(task.stop - task.first)
        return
    import multiprocessing

    with _single_threaded_blas():
        pool = multiprocessing.get_context("spawn").Pool(workers)
    with pool:
        for task, result in zip(tasks, pool.imap(_run_task, tasks), strict=True):
            yield result
            progress(task.stop - task.first)


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Threshold:
    """Betting one unit only when the true count is at least ``threshold``.

    ``coups``: coups bet; ``gain``: mean result per coup dealt; ``edge``: mean result per
    coup bet (``None`` if none).
    """

    threshold: float
    coups: int
    gain: float
    edge: float | None


@dataclass(frozen=True)
class BetStudy:
    """The edges of one bet before every coup of a study.

    ``expectation``: exact EV of the full shoe. ``mean_edge``: EV averaged over coups dealt.
    ``quantiles``: (q, edge) pairs. ``histogram``: (low, high, coups) bins. ``favourable``:
    coups with a positive EV. ``perfect_gain``: mean result per coup dealt when betting only
    those (perfect information); ``perfect_edge``: per coup bet. ``count``: the balanced
    linear count from the effects of removal (``None`` when they are all zero) and its
    results at each threshold.
    """

    name: str
    expectation: Fraction
    mean_edge: float
    quantiles: tuple[tuple[float, float], ...]
    histogram: tuple[tuple[float, float, int], ...]
    favourable: int
    perfect_gain: float
    perfect_edge: float | None
    count: LinearCount | None
    thresholds: tuple[Threshold, ...]


@dataclass(frozen=True)
class CutCardEffect:
    """One outcome: full-shoe probability, the mean exact probability per coup dealt, and the
    observed frequency, each mean with its standard error (computed over shoes)."""

    outcome: str
    full: Fraction
    mean: float
    mean_error: float | None
    observed: float
    observed_error: float | None


@dataclass(frozen=True)
class Study:
    """The results of :func:`run_study`."""

    shoe: Shoe
    shoes: int
    seed: int
    dealing: Dealing
    tableau: Tableau
    bets: tuple[BetStudy, ...]
    cut_card: tuple[CutCardEffect, ...]
    records: CoupRecords

    @property
    def coups(self) -> int:
        """Coups dealt in all."""
        return len(self.records.shoe)


def _ratio_error(values: Array, shoe: Array, shoes: int) -> tuple[float, float | None]:
    """Mean of ``values`` over coups and its standard error (``None`` for one shoe), shoes taken
    as the sampling units."""
    n = np.bincount(shoe, minlength=shoes).astype(np.float64)
    s = np.bincount(shoe, weights=values, minlength=shoes)
    ratio = math.fsum(s) / math.fsum(n)
    if shoes < 2:
        return ratio, None
    resid = s - ratio * n
    return ratio, math.sqrt(math.fsum(resid * resid) / (shoes * (shoes - 1))) / (math.fsum(n) / shoes)


def _bet_study(name: str, expectation: Fraction, j: int, records: CoupRecords, count: LinearCount | None,
               thresholds: Sequence[float]) -> BetStudy:
    edges = records.edges[:, j]
    m = len(edges)
    fav = records.favourable[:, j]
    values = np.quantile(edges, QUANTILES)  # every shoe deals at least one coup: m > 0
    counts, bounds = np.histogram(edges, bins=HISTOGRAM_BINS)
    histogram = tuple((float(lo), float(hi), int(c)) for lo, hi, c in zip(bounds[:-1], bounds[1:], counts,
                                                                           strict=True))
    gained = math.fsum(edges[fav])
    results: list[Threshold] = []
    if count is not None:
        true = records.true_counts()[:, j]
        for t in thresholds:
            sel = true >= t
            total = math.fsum(edges[sel])
            chosen = int(sel.sum())
            results.append(Threshold(t, chosen, total / m, total / chosen if chosen else None))
    return BetStudy(name, expectation, math.fsum(edges) / m,
                    tuple(zip(QUANTILES, map(float, values), strict=True)), histogram, int(fav.sum()),
                    gained / m, gained / int(fav.sum()) if fav.any() else None,
                    count, tuple(results))


def _cut_card_effect(shoe: Shoe, tableau: Tableau, records: CoupRecords, shoes: int) -> tuple[CutCardEffect, ...]:
    full = evaluate([shoe.counts], tableau=tableau)
    out = []
    for i, name in enumerate(OUTCOMES):
        mean, mean_err = _ratio_error(records.probabilities[:, i], records.shoe, shoes)
        obs, obs_err = _ratio_error((records.winner == i).astype(np.float64), records.shoe, shoes)
        out.append(CutCardEffect(name, Fraction(int(full.outcomes[0, i]), int(full.sequences[0])),
                                 mean, mean_err, obs, obs_err))
    return tuple(out)


def run_study(shoe: Shoe, *, shoes: int, seed: int, bets: Sequence[Payable], tableau: Tableau = STANDARD_TABLEAU,
              dealing: Dealing = Dealing(), thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
              max_tag: int = MAX_TAG, workers: int = 1, dask: str | None = None,
              progress: Progress | None = None, shoes_per_task: int = SHOES_PER_TASK) -> Study:
    """Deal ``shoes`` shuffled shoes and study the exact edges of ``bets`` before every coup.

    ``workers`` > 1 runs tasks of ``shoes_per_task`` shoes in that many processes;
    ``dask`` is the address of a Dask scheduler to run them on instead. ``progress`` is
    called with (shoes done, shoes) as tasks finish. The results depend only on the
    arguments, not on ``workers`` or ``dask``.
    """
    if shoes < 1:
        raise StudyError(f"the number of shoes must be at least 1, got {shoes}")
    if workers < 1:
        raise StudyError(f"the number of workers must be at least 1, got {workers}")
    if not bets:
        raise StudyError("a study needs at least one bet")
    dealing.check(shoe)
    if shoe.suited is None and any(b.detail is Detail.SUITS for b in bets):
        raise ShoeError("suited bets need a shoe whose suits are known (whole decks, or counts divisible by 4)")
    removals = effects_of_removal(shoe, list(bets), tableau=tableau)
    counts = [r.count(max_tag=max_tag) for r in removals]
    tags = np.array([c.tags for c in counts], dtype=np.int64).T.reshape(13, len(bets))
    tables = tuple(tabulate(b) for b in bets)
    codes = tuple(shoe_card_codes(shoe))
    tasks = [_Task(seed, first, min(first + shoes_per_task, shoes), codes, dealing, tableau, tables, tags)
             for first in range(0, shoes, max(shoes_per_task, 1))]
    done = 0

    def advance(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:
            progress(done, shoes)

    if progress is not None:
        progress(0, shoes)
    records = CoupRecords.concatenate(list(_results(tasks, workers=workers, dask=dask, progress=advance)))
    studies = tuple(
        _bet_study(bet.name, removal.expectation, j, records, count if any(count.tags) else None, thresholds)
        for j, (bet, removal, count) in enumerate(zip(bets, removals, counts, strict=True)))
    return Study(shoe, shoes, seed, dealing, tableau, studies, _cut_card_effect(shoe, tableau, records, shoes),
                 records)


# ---------------------------------------------------------------- recorded shoes


def play_cards(cards: Sequence[Card], tableau: Tableau = STANDARD_TABLEAU) -> tuple[Coup, int] | None:
    """Play one coup from cards in dealing order (P, B, P, B, then draws).

    Returns the coup (with pair flags by rank, suited flags when both cards have suits,
    and the twin flag) and the number of cards used, or ``None`` if the cards run out.
    """
    if len(cards) < 4:
        return None
    pts = [c.rank.point for c in cards[:CARDS_PER_COUP]]
    player, banker = (pts[0] + pts[2]) % 10, (pts[1] + pts[3]) % 10
    used = 4
    third: int | None = None
    if player not in tableau.naturals and banker not in tableau.naturals:
        if tableau.player_draws[player]:
            if len(cards) < 5:
                return None
            third = pts[4]
            player = (player + third) % 10
            used = 5
        if tableau.banker_draws_on(banker, third):
            if len(cards) <= used:
                return None
            banker = (banker + pts[used]) % 10
            used += 1
    p1, b1, p2, b2 = cards[:4]
    pp, bp = p1.rank == p2.rank, b1.rank == b2.rank
    ps = pp and p1.suit is not None and p1.suit == p2.suit
    bs = bp and b1.suit is not None and b1.suit == b2.suit
    coup = Coup(player, banker, 3 if third is not None else 2, used - (3 if third is not None else 2), pp, bp,
                ps, bs, pp and bp and p1.rank == b1.rank)
    return coup, used


@dataclass(frozen=True)
class RecordedCoup:
    """One coup of a recorded shoe and the exact expectation of each bet before it."""

    number: int
    cards: tuple[Card, ...]
    coup: Coup
    unseen: int
    expectations: tuple[Fraction, ...]


@dataclass(frozen=True)
class Replay:
    """A recorded shoe replayed: its coups, and the cards left over that make no whole coup."""

    shoe: Shoe
    bets: tuple[str, ...]
    coups: tuple[RecordedCoup, ...]
    leftover: tuple[Card, ...]


def read_record(text: str) -> tuple[Card, ...]:
    """The cards of a recorded shoe: separated by spaces, commas or new lines; ``#`` comments."""
    return parse_cards(" ".join(re.sub(r"#.*", "", line) for line in text.splitlines()))


def replay(cards: Sequence[Card], shoe: Shoe, *, bets: Sequence[Payable], tableau: Tableau = STANDARD_TABLEAU) -> Replay:
    """Replay the coups of a recorded shoe dealt from ``shoe``, with the exact edge of each bet before each.

    Every card must be in the shoe; suited bets need suits on every card and a shoe whose
    suits are known. Trailing cards that do not complete a coup are returned as ``leftover``.
    """
    if shoe.infinite:
        raise StudyError("a recorded shoe is dealt from a finite shoe")
    counts = list(shoe.counts)
    suits = [list(row) for row in shoe.suited] if shoe.suited is not None else None
    suited_bets = [b.name for b in bets if b.detail is Detail.SUITS]
    compositions: list[list[int]] = []
    grids: list[list[list[int]]] = []
    played: list[tuple[int, tuple[Card, ...], Coup]] = []
    pos = 0
    while (result := play_cards(cards[pos:pos + CARDS_PER_COUP], tableau)) is not None:
        if sum(counts) < CARDS_PER_COUP:
            raise StudyError(f"coup {len(played) + 1}: fewer than {CARDS_PER_COUP} cards are left in the shoe")
        coup, used = result
        compositions.append(list(counts))
        grids.append([list(row) for row in suits] if suits is not None else [])
        for k, card in enumerate(cards[pos:pos + used], pos + 1):
            i = card.rank - 1
            if counts[i] == 0:
                raise StudyError(f"card {k} ({card}): no {card.rank.label} left in the shoe")
            counts[i] -= 1
            if suits is not None and card.suit is not None:
                j = SUITS.index(card.suit)
                if suits[i][j] == 0:
                    raise StudyError(f"card {k} ({card}): no {card} left in the shoe")
                suits[i][j] -= 1
            elif suits is not None:
                if suited_bets:
                    raise StudyError(f"card {k} ({card}) has no suit; {suited_bets[0]} needs the suit of every card")
                suits = None
        played.append((pos, tuple(cards[pos:pos + used]), coup))
        pos += used
    if suited_bets and suits is None and played:
        raise ShoeError(f"{suited_bets[0]} needs a shoe whose suits are known")
    ev = evaluate(compositions or [shoe.counts], bets=bets, tableau=tableau,
                  suits=grids if suited_bets and played else None) if played else None
    coups = tuple(
        RecordedCoup(n, hand, coup, sum(compositions[n - 1]),
                     tuple(ev.expectation(n - 1, j) for j in range(len(bets))) if ev is not None else ())
        for n, (_, hand, coup) in enumerate(played, 1))
    return Replay(shoe, tuple(b.name for b in bets), coups, tuple(cards[pos:]))
