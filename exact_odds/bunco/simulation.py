"""The seeded simulation of rolls, games and turns, each judged against its exact distribution.

A witness, never a source: floats live here only. Rolls, games and turns each draw from their own stream
of ``SeedSequence(seed).spawn(3)`` (docs/bunco.md, "The simulation").

>>> from exact_odds.bunco import STANDARD_SCORING, Dice, analyse
>>> sim = simulate(analyse(Dice(3, 6), STANDARD_SCORING), trials=2_000, seed=4)
>>> sim.roll.trials, sim.seed, sim == simulate(analyse(Dice(3, 6), STANDARD_SCORING), trials=2_000, seed=4)
(2000, 4, True)
>>> test = chi_square_test(Dist({0: 48, 1: 52}), Dist({0: 1, 1: 1}))
>>> test.statistic, test.df, test.verdict
(Fraction(4, 25), 1, 'PASS')
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.bunco.dice import (
    Analysis,
    Dice,
    ScoringRules,
    ascending,
    check_alpha,
    check_whole_number,
    round_numbers,
)
from exact_odds.core.dist import Dist
from exact_odds.core.stats import chi_square_sf

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

DEFAULT_ALPHA = Fraction(1, 1000)
"""Significance level of the simulation's verdicts (as for the baccarat simulator)."""
MIN_EXPECTED = 5
"""The least expected count of a bin; smaller bins are pooled with their neighbours."""
_CHUNK_CELLS = 1 << 22
"""Dice per vectorised batch (bounds memory; a constant, so the output depends only on the seed)."""


@dataclass(frozen=True, slots=True)
class Bin:
    """Adjacent outcomes ``low..high`` pooled for the chi-square test; ``expected`` is an exact count."""

    low: int
    high: int
    observed: int
    expected: Fraction

    @property
    def contribution(self) -> Fraction:
        """(observed - expected)² / expected, exactly."""
        return (self.observed - self.expected) ** 2 / self.expected

    def joined(self, after: Bin) -> Bin:
        """This bin and the next one pooled into one."""
        return Bin(self.low, after.high, self.observed + after.observed, self.expected + after.expected)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's chi-square test of observed counts against exact probabilities.

    ``impossible`` counts observations of outcomes of exact probability 0 (any fails the test).
    """

    trials: int
    bins: tuple[Bin, ...]
    statistic: Fraction
    df: int
    p_value: float
    alpha: Fraction
    impossible: int

    @property
    def passed(self) -> bool:
        """True if nothing impossible was seen and the p-value is at least ``alpha``."""
        return self.impossible == 0 and self.p_value >= self.alpha

    @property
    def verdict(self) -> str:
        """``"PASS"`` or ``"FAIL"``."""
        return "PASS" if self.passed else "FAIL"


def pool(observed: Dist[int], expected: dict[int, Fraction], minimum: int) -> list[Bin]:
    """Bins of adjacent outcomes, each expecting at least ``minimum``; a short tail joins the last bin.

    >>> [(b.low, b.high) for b in pool(Dist({0: 5, 1: 4}), {0: Fraction(6), 1: Fraction(2), 2: Fraction(1)}, 5)]
    [(0, 2)]
    """
    bins: list[Bin] = []
    open_bin: Bin | None = None
    for key in sorted(set(expected) | set(observed)):
        outcome = Bin(key, key, observed[key], expected.get(key, Fraction(0)))
        open_bin = outcome if open_bin is None else open_bin.joined(outcome)
        if open_bin.expected >= minimum:
            bins.append(open_bin)
            open_bin = None
    if open_bin is not None:
        bins.append(bins.pop().joined(open_bin) if bins else open_bin)
    return bins


def chi_square_test(observed: Dist[int], expected: Dist[int], *, alpha: Fraction = DEFAULT_ALPHA,
                    min_expected: int = MIN_EXPECTED) -> ChiSquare:
    """Compare observed counts with an exact distribution (expected count ``trials * ways / total``).

    An observed outcome the exact distribution never gives sets the p-value to 0; a single bin
    (df 0) leaves nothing to test and passes.
    """
    trials = observed.total
    if trials < 1:
        raise ValueError("a chi-square test needs at least one observation")
    check_alpha(alpha)
    counts = {k: trials * Fraction(w, expected.total) for k, w in expected.items()}
    impossible = sum(n for k, n in observed.items() if k not in counts)
    bins = tuple(pool(observed, counts, min_expected))
    statistic = sum((b.contribution for b in bins if b.expected), Fraction(0))
    df = len(bins) - 1
    p_value = chi_square_sf(float(statistic), df) if df else 1.0
    if impossible:
        p_value = 0.0
    return ChiSquare(trials, bins, statistic, df, p_value, alpha, impossible)


def _batches(trials: int, count: int) -> Iterator[int]:
    size = max(1, _CHUNK_CELLS // count)
    for start in range(0, trials, size):
        yield min(size, trials - start)


def score_rolls(faces: NDArray[np.int64], rules: ScoringRules,
                round_number: int | NDArray[np.int64]) -> NDArray[np.int64]:
    """Scores of rolls (rows of ``faces``) for ``round_number`` (one, or one per roll), vectorised.

    >>> import numpy as np
    >>> from exact_odds.bunco import STANDARD_SCORING
    >>> score_rolls(np.array([[2, 2, 2], [5, 5, 5], [2, 3, 2]]), STANDARD_SCORING, 2).tolist()
    [21, 5, 2]
    """
    import numpy as np

    number = np.asarray(round_number)
    matches = (faces == (number[:, None] if number.ndim else number)).sum(axis=1)
    alike = (faces == faces[:, :1]).all(axis=1)
    special = np.where(matches > 0, rules.bunco, rules.mini)
    return np.asarray(np.where(alike, special, matches * rules.per_die), dtype=np.int64)


def _faces(rng: np.random.Generator, m: int, dice: Dice) -> NDArray[np.int64]:
    return rng.integers(1, dice.sides + 1, size=(m, dice.count))


def observed_counts(values: NDArray[np.int64]) -> Dist[int]:
    """How many times each value occurs."""
    import numpy as np

    keys, counts = np.unique(values, return_counts=True)
    return Dist((int(k), int(c)) for k, c in zip(keys, counts, strict=True))


def _merged(parts: Iterable[Dist[int]]) -> Dist[int]:
    return ascending(Dist(pair for part in parts for pair in part.items()))


def simulate_rolls(dice: Dice, rules: ScoringRules, *, round_number: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each score in ``trials`` simulated rolls."""
    dice.check_round(round_number)
    return _merged(observed_counts(score_rolls(_faces(rng, m, dice), rules, round_number))
                   for m in _batches(trials, dice.count))


GameRecorder = Callable[["NDArray[np.int64]", "NDArray[np.int64]"], None]
"""Given each batch of simulated games: their faces (games, rounds, dice) and scores (games, rounds)."""


def simulate_games(dice: Dice, rules: ScoringRules, *, rounds: int, trials: int,
                   rng: np.random.Generator, record: GameRecorder | None = None) -> Dist[int]:
    """Observed counts of each total in ``trials`` simulated games; ``record`` receives every batch's rolls."""
    import numpy as np

    parts = []
    for m in _batches(trials, dice.count):
        totals = np.zeros(m, dtype=np.int64)
        rolled, scored = [], []
        for number in round_numbers(rounds, dice.sides):
            faces = _faces(rng, m, dice)
            scores = score_rolls(faces, rules, number)
            totals += scores
            if record is not None:
                rolled.append(faces)
                scored.append(scores)
        if record is not None:
            record(np.stack(rolled, axis=1), np.stack(scored, axis=1))
        parts.append(observed_counts(totals))
    return _merged(parts)


def simulate_turns(dice: Dice, rules: ScoringRules, *, round_number: int, target: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each turn's points (capped at ``target``) in ``trials`` simulated turns."""
    import numpy as np

    dice.check_round(round_number)
    parts = []
    for m in _batches(trials, dice.count):
        points = np.zeros(m, dtype=np.int64)
        active = np.arange(m)
        while active.size:
            score = score_rolls(_faces(rng, active.size, dice), rules, round_number)
            reached = np.minimum(points[active] + score, target)
            points[active] = reached
            active = active[(score > 0) & (reached < target)]
        parts.append(observed_counts(points))
    return _merged(parts)


@dataclass(frozen=True, slots=True)
class Simulation:
    """Seeded simulated rolls, games and turns, each tested against its exact distribution."""

    trials: int
    seed: int
    roll: ChiSquare
    game: ChiSquare
    turn: ChiSquare

    @property
    def passed(self) -> bool:
        """True if all three tests pass."""
        return self.roll.passed and self.game.passed and self.turn.passed


def simulate(analysis: Analysis, *, trials: int, seed: int | None = None,
             alpha: Fraction = DEFAULT_ALPHA, record: GameRecorder | None = None) -> Simulation:
    """Simulate ``trials`` rolls, games and turns (seeded) and chi-square-test each.

    With no seed, one is drawn from the operating system's entropy and recorded in the result.
    ``record`` receives the games' rolls (:func:`simulate_games`).
    """
    import numpy as np

    check_whole_number("the number of simulated trials", trials, 1)
    seed = check_whole_number("the seed", secrets.randbits(32) if seed is None else seed, 0)
    check_alpha(alpha)
    a = analysis
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)]
    rolls = simulate_rolls(a.dice, a.rules, round_number=a.round_number, trials=trials, rng=streams[0])
    games = simulate_games(a.dice, a.rules, rounds=a.game.rounds, trials=trials, rng=streams[1], record=record)
    turns = simulate_turns(a.dice, a.rules, round_number=a.round_number, target=a.turn.target, trials=trials,
                           rng=streams[2])
    return Simulation(trials, seed, chi_square_test(rolls, a.scores, alpha=alpha),
                      chi_square_test(games, a.game.totals, alpha=alpha),
                      chi_square_test(turns, a.turn.points, alpha=alpha))
