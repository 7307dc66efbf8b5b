"""Composition-dependent studies: the exact edge of each bet before every coup of many shoes.

A study deals shuffled shoes down to the cut card and evaluates each bet's exact expectation before
every coup, given the cards seen (docs/study.md says what it reports). Edges are the bettor's; "gain
per coup" is averaged over every coup dealt, one unit bet on the coups selected; the true count is the
running count per deck unseen. Shoe ``i`` is shoe ``i`` of ``exact-odds simulate --shoes`` with the
same seed, so the results do not depend on the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.analysis.information import Information
from exact_odds.analysis.removal import MAX_TAG, LinearCount, Removal, effects_of_removal
from exact_odds.batch import evaluate
from exact_odds.core.coup import OUTCOMES, Detail, Payable
from exact_odds.core.notebook import Percent, html_table, html_tables
from exact_odds.core.shoe import MIN_CARDS_PER_COUP, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.dealing.dealer import Progress
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, Procedure, shoe_card_codes
from exact_odds.study.checks import StudyError as StudyError  # public here too
from exact_odds.study.checks import check_memory, check_play, check_study
from exact_odds.study.counting import (
    Count,
    CountColumns,
    CountComparison,
    CountStudy,
    compare_counts,
    numbered,
    study_count,
)
from exact_odds.study.edge_sorting import EdgeSortStudy, SortColumns, study_edge_sort
from exact_odds.study.estimates import ratio_of_totals
from exact_odds.study.records import (
    QUANTILES,
    PartSums,
    RecordParts,
    RecordStore,
    Spread,
    record_layout,
    records_store,
    spreads,
    total,
    true_counts,
)
from exact_odds.study.records import CoupRecords as CoupRecords  # public here too
from exact_odds.study.tasks import Task, Workers, gather, pack, process_share, study_workers, task_size, unpack

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]

DEFAULT_THRESHOLDS = (0.0, 4.0, 8.0, 12.0, 16.0, 20.0)
"""Default true-count thresholds of the count strategies."""


@contextmanager
def _started(workers: Workers | None, count: int, dask: str | None, shoe: Shoe, shoes: int,
             per_task: int) -> Iterator[Workers | None]:
    """``workers`` if started already, else ``count`` in all (none with ``dask``) started now, to prepare
    while this process computes the effects of removal."""
    if workers is not None or dask is not None or count <= 1:
        yield workers
        return
    with study_workers(count, shoes, shoe.size, per_task) as started:
        yield started


@dataclass(frozen=True, slots=True)
class Threshold:
    """Betting one unit only when the true count is at least ``threshold``: ``coups`` bet, ``gain`` per
    coup dealt, ``player_ev`` per coup bet (``None`` if none)."""

    threshold: float
    coups: int
    gain: float
    player_ev: float | None


@dataclass(frozen=True, slots=True)
class BetStudy:
    """The player EV of one bet before every coup of a study: ``expectation``, the full shoe's, exact;
    ``quantiles`` (q, player EV); ``histogram`` (low, high, coups); ``favourable`` coups (EV > 0) and
    ``perfect_gain`` betting only those, per coup dealt (``perfect_player_ev`` per coup bet); ``count``,
    the linear count from the effects of removal (``None`` when all zero), and its ``thresholds``."""

    name: str
    expectation: Fraction
    mean_player_ev: float
    quantiles: tuple[tuple[float, float], ...]
    histogram: tuple[tuple[float, float, int], ...]
    favourable: int
    perfect_gain: float
    perfect_player_ev: float | None
    count: LinearCount | None
    thresholds: tuple[Threshold, ...]


@dataclass(frozen=True, slots=True)
class CutCardEffect:
    """One outcome: full-shoe probability, the mean exact probability per coup dealt, and the observed
    frequency, each with its standard error over shoes."""

    outcome: str
    full: Fraction
    mean: float
    mean_error: float | None
    observed: float
    observed_error: float | None


@dataclass(frozen=True, slots=True)
class Study:
    """The results of :func:`run_study`: per bet, the cut-card effect, and when asked for the counts of
    one's own (each pair compared on the same shoes) and edge sorting."""

    shoe: Shoe
    shoes: int
    seed: int
    procedure: Procedure
    tableau: Tableau
    bets: tuple[BetStudy, ...]
    cut_card: tuple[CutCardEffect, ...]
    parts: RecordParts
    counts: tuple[CountStudy, ...] = ()
    comparisons: tuple[CountComparison, ...] = ()
    edge_sort: EdgeSortStudy | None = None

    @property
    def records(self) -> CoupRecords:
        """One row per coup dealt, in the order of the shoes; kept unless ``run_study(records=False)``."""
        if not self.parts.complete:
            raise StudyError("this study kept only what its figures need, not its records (run_study(records=True))")
        return self.parts.joined()

    @property
    def coups(self) -> int:
        """Coups dealt in all."""
        return self.parts.rows

    def _repr_html_(self) -> str:
        coups = self.coups
        bets = html_table(
            ["bet", "player_ev (full shoe)", "≈", "mean player_ev per coup", "coups with player_ev > 0",
             "gain per coup betting only those"],
            [[b.name, b.expectation, Percent(b.expectation), Percent(b.mean_player_ev), Percent(b.favourable / coups),
              Percent(b.perfect_gain)] for b in self.bets],
            caption=f"The exact player EV before every coup: {self.shoes:,} shoes of {self.shoe}, {coups:,} coups, "
                    f"seed {self.seed}")
        cut = html_table(["outcome", "full shoe", "mean per coup dealt", "observed"],
                         [[c.outcome, Percent(c.full), Percent(c.mean), Percent(c.observed)] for c in self.cut_card],
                         caption="The cut-card effect")
        return html_tables(bets, cut)


def _bet_study(name: str, expectation: Fraction, j: int, parts: RecordParts, sums: PartSums, found: Spread,
               count: LinearCount | None, thresholds: Sequence[float]) -> BetStudy:
    """The study of bet ``j``: its spread (``found``), the rest from the sums (the records read only for a
    sum of zero, whose sign depends on the values)."""
    m = parts.rows  # every shoe deals at least one coup: m > 0
    values, counts, bounds = found
    histogram = tuple((float(lo), float(hi), int(c)) for lo, hi, c in zip(bounds[:-1], bounds[1:], counts,
                                                                           strict=True))
    favourable = sums.favourable[j]

    def favoured() -> Array:
        columns = parts.columns()
        return np.asarray(columns["edges"][columns["favourable"][:, j], j])

    gained = total(sums.favourable_edges[j], favoured) if favourable else 0.0
    results: list[Threshold] = []
    if count is not None:
        for t, (chosen, summed) in zip(thresholds, sums.thresholds[j], strict=True):
            def above(t: float = t) -> Array:
                columns = parts.columns()
                return np.asarray(columns["edges"][true_counts(columns["running"][:, j], columns["unseen"]) >= t, j])

            won = total(summed, above) if chosen else 0.0
            results.append(Threshold(t, chosen, won / m, won / chosen if chosen else None))
    return BetStudy(name, expectation, total(sums.edges[j], lambda: parts.columns()["edges"][:, j]) / m,
                    tuple(zip(QUANTILES, map(float, values), strict=True)), histogram, favourable,
                    gained / m, gained / favourable if favourable else None, count, tuple(results))


def _cut_card_effect(shoe: Shoe, tableau: Tableau, packed: bytes, sums: PartSums,
                     shoes: int) -> tuple[CutCardEffect, ...]:
    """Per outcome: the full shoe's probability (with the tasks' bets on points, whose plan is made), and
    the mean probability and the frequency per coup dealt."""
    full = evaluate([shoe.counts], bets=[b for b in unpack(packed)[0] if b.detail is Detail.POINTS], tableau=tableau)
    out = []
    for i, name in enumerate(OUTCOMES):
        mean = ratio_of_totals(sums.shoes[:, 1 + i], sums.shoes[:, 0], shoes)
        seen = ratio_of_totals(sums.shoes[:, 4 + i], sums.shoes[:, 0], shoes)
        assert mean is not None and seen is not None  # every shoe deals a coup
        out.append(CutCardEffect(name, Fraction(int(full.outcomes[0, i]), int(full.sequences[0])),
                                 mean.value, mean.error, seen.value, seen.error))
    return tuple(out)


def _play_studies(study_bets: Sequence[Payable], removals: Sequence[Removal], records: CoupRecords, shoes: int,
                  counts: Sequence[Count], edge_sort: Information | None,
                  sort_bets: Sequence[Payable]) -> tuple[tuple[CountStudy, ...], tuple[CountComparison, ...],
                                                         EdgeSortStudy | None]:
    names = [b.name for b in study_bets]
    columns = [CountColumns(records.count_running[:, i], records.unseen, records.edges[:, names.index(c.bet)],
                            records.results[:, names.index(c.bet)], records.shoe, shoes)
               for i, c in enumerate(counts)]
    results = tuple(study_count(c, removals[names.index(c.bet)], col) for c, col in zip(counts, columns, strict=True))
    pairs = tuple(compare_counts(counts[a], columns[a], counts[b], columns[b])
                  for a in range(len(counts)) for b in range(a + 1, len(counts)))
    sorting = None
    if edge_sort is not None:
        index = [names.index(b.name) for b in sort_bets]
        sorting = study_edge_sort(edge_sort, [b.name for b in sort_bets], SortColumns(
            records.sort_values, records.sort_choices, records.first, records.edges[:, index],
            records.results[:, index], records.shoe, shoes))
    return results, pairs, sorting


def _progress(progress: Progress | None, shoes: int) -> Callable[[int], None]:
    done = 0

    def advance(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:
            progress(done, shoes)

    advance(0)
    return advance


def run_study(shoe: Shoe, *, shoes: int, seed: int, bets: Sequence[Payable], tableau: Tableau = STANDARD_TABLEAU,
              procedure: Procedure = STANDARD_PROCEDURE, thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
              max_tag: int = MAX_TAG, workers: int = 1, dask: str | None = None,
              progress: Progress | None = None, shoes_per_task: int | None = None,
              counts: Sequence[Count] = (), edge_sort: Information | None = None,
              sort_bets: Sequence[str] | None = None, pool: Workers | None = None, records: bool = True) -> Study:
    """Deal ``shoes`` shuffled shoes by ``procedure`` and study the exact edges of ``bets`` before every coup.

    ``workers`` > 1 runs tasks of ``shoes_per_task`` shoes (default :func:`task_size`) in that many processes
    (``pool``: started already by :func:`study_workers`), ``dask`` on a Dask scheduler; ``progress`` gets
    (shoes done, shoes). ``counts``: counts of one's own; ``edge_sort``: the groups of the first card that
    sorted edges reveal, choosing among ``sort_bets`` (names; default every bet). ``records=False`` keeps
    only what the figures need (:attr:`Study.records` is then refused, unless counts or edge sorting keep all).
    """
    check_study(shoe, shoes, seed, bets, procedure, workers)
    sorting = [b for b in bets if sort_bets is None or b.name in sort_bets]
    check_play(bets, counts, edge_sort, sorting)
    check_memory(shoe, shoes, len(bets), len(counts), edge_sort is not None)
    own = numbered(counts)
    packed = pack(bets, sorting if edge_sort else ())
    per_task = shoes_per_task or task_size(shoes, workers, shoe.size)
    firsts = range(0, shoes, per_task)
    share = process_share(shoes, shoe.size, 1 if dask else workers)
    with _started(pool, workers, dask, shoe, shoes, per_task) as started:
        removals = effects_of_removal(shoe, list(bets), tableau=tableau)
        suggested = [r.count(max_tag=max_tag) for r in removals]
        tags = np.array([c.tags for c in suggested], dtype=np.int64).T.reshape(13, len(bets))
        count_tags = np.array([c.tags for c in own], dtype=np.int64).T.reshape(13, len(own))
        codes = tuple(shoe_card_codes(shoe))
        layout = record_layout(len(bets), len(own), (2, len(edge_sort.groups[0]) + 1) if edge_sort else (0, 0),
                               records or bool(own) or edge_sort is not None)
        rows = shoes * (shoe.size // MIN_CARDS_PER_COUP)
        with records_store(started, layout, rows) as shared:
            where, store = shared or (None, None)
            tasks = [Task(seed, first, min(first + per_task, shoes), codes, procedure, tableau, packed, tags,
                          count_tags, edge_sort, share, tuple(thresholds), where) for first in firsts]
            parts, sums = gather(tasks, RecordStore.private(layout, rows), store, workers=started, dask=dask,
                                 progress=_progress(progress, shoes))
            found = spreads(parts, started, shared, len(bets))
    studies = tuple(_bet_study(bet.name, removal.expectation, j, parts, sums, found[j],
                               count if any(count.tags) else None, thresholds)
                    for j, (bet, removal, count) in enumerate(zip(bets, removals, suggested, strict=True)))
    played = _play_studies(bets, removals, parts.joined(), shoes, own, edge_sort, sorting) if own or edge_sort else ()
    return Study(shoe, shoes, seed, procedure, tableau, studies, _cut_card_effect(shoe, tableau, packed, sums, shoes),
                 parts, *played)
