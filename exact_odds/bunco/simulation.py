"""The seeded simulation: rolls, games and turns drawn with numpy, each judged by a chi-square test.

A witness, never a source: the simulated counts are compared with the exact distributions of
:class:`~exact_odds.bunco.analysis.Analysis`, never used in their place. Floats live here only.
Each part (rolls, games, turns) draws from its own stream, ``SeedSequence(seed).spawn(3)`` of
numpy's default generator (PCG64), so the same seed gives the same counts, and the rolls do not
depend on how many games are simulated. numpy is imported only when a simulation runs.

>>> from exact_odds.bunco import STANDARD_SCORING, Dice, analyse
>>> sim = simulate(analyse(Dice(3, 6), STANDARD_SCORING), trials=2_000, seed=4)
>>> sim.roll.trials, sim.seed, sim == simulate(analyse(Dice(3, 6), STANDARD_SCORING), trials=2_000, seed=4)
(2000, 4, True)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.bunco.analysis import Analysis
from exact_odds.bunco.base import BuncoError, ascending, check_whole_number
from exact_odds.bunco.chi_square import DEFAULT_ALPHA, ChiSquare, chi_square_test
from exact_odds.bunco.dice import Dice
from exact_odds.bunco.game import round_numbers
from exact_odds.bunco.scoring import ScoringRules
from exact_odds.core.dist import Dist

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_CHUNK_CELLS = 1 << 22
"""Dice per vectorised batch (bounds memory; a fixed constant, so the output depends only on the seed)."""


def _batches(trials: int, count: int) -> Iterator[int]:
    """Sizes of the batches that make up ``trials`` trials of ``count`` dice each."""
    size = max(1, _CHUNK_CELLS // count)
    for start in range(0, trials, size):
        yield min(size, trials - start)


def score_rolls(faces: NDArray[np.int64], rules: ScoringRules,
                round_number: int | NDArray[np.int64]) -> NDArray[np.int64]:
    """Scores of rolls (rows of ``faces``) played for ``round_number`` (one, or one per roll),
    vectorised: the same rule as :meth:`ScoringRules.score`.

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


def _simulated_faces(rng: np.random.Generator, m: int, dice: Dice) -> NDArray[np.int64]:
    """The faces of ``m`` simulated rolls, shape (m, dice)."""
    return rng.integers(1, dice.sides + 1, size=(m, dice.count))


def _simulated_scores(rng: np.random.Generator, m: int, dice: Dice, rules: ScoringRules,
                      round_number: int) -> NDArray[np.int64]:
    """Scores of ``m`` simulated rolls."""
    return score_rolls(_simulated_faces(rng, m, dice), rules, round_number)


def _counts(values: NDArray[np.int64]) -> Dist[int]:
    """How many times each value occurs."""
    import numpy as np

    keys, counts = np.unique(values, return_counts=True)
    return Dist((int(k), int(c)) for k, c in zip(keys, counts, strict=True))


def _merge(parts: list[Dist[int]]) -> Dist[int]:
    """The counts of all batches together, outcomes in increasing order."""
    return ascending(Dist(pair for part in parts for pair in part.items()))


def simulate_rolls(dice: Dice, rules: ScoringRules, *, round_number: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each score in ``trials`` simulated rolls."""
    dice.check_round(round_number)
    return _merge([_counts(_simulated_scores(rng, m, dice, rules, round_number))
                   for m in _batches(trials, dice.count)])


GameRecorder = Callable[["NDArray[np.int64]", "NDArray[np.int64]"], None]
"""Given each batch of simulated games: their faces (games, rounds, dice) and scores (games, rounds)."""


def simulate_games(dice: Dice, rules: ScoringRules, *, rounds: int, trials: int,
                   rng: np.random.Generator, record: GameRecorder | None = None) -> Dist[int]:
    """Observed counts of each total in ``trials`` simulated games (real round numbers, cycling).

    ``record``, if given, receives every batch of games' rolls (to write them as a log).
    """
    import numpy as np

    parts = []
    for m in _batches(trials, dice.count):
        totals = np.zeros(m, dtype=np.int64)
        rolled, scored = [], []
        for number in round_numbers(rounds, dice.sides):
            faces = _simulated_faces(rng, m, dice)
            scores = score_rolls(faces, rules, number)
            totals += scores
            if record is not None:
                rolled.append(faces)
                scored.append(scores)
        if record is not None:
            record(np.stack(rolled, axis=1), np.stack(scored, axis=1))
        parts.append(_counts(totals))
    return _merge(parts)


def simulate_turns(dice: Dice, rules: ScoringRules, *, round_number: int, target: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each turn's points (capped at ``target``) in ``trials`` simulated turns.

    Every turn still going rolls again; a turn stops on a roll that scores nothing or reaches the target.
    """
    import numpy as np

    dice.check_round(round_number)
    parts = []
    for m in _batches(trials, dice.count):
        points = np.zeros(m, dtype=np.int64)
        active = np.arange(m)
        while active.size:
            score = _simulated_scores(rng, active.size, dice, rules, round_number)
            reached = np.minimum(points[active] + score, target)
            points[active] = reached
            active = active[(score > 0) & (reached < target)]
        parts.append(_counts(points))
    return _merge(parts)


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


def _checked_seed(seed: int | None) -> int:
    """``seed``, or with none a fresh one from the operating system's entropy (reports print it)."""
    if seed is None:
        seed = secrets.randbits(32)
    return check_whole_number("the seed", seed, 0)


def simulate(analysis: Analysis, *, trials: int, seed: int | None = None,
             alpha: Fraction = DEFAULT_ALPHA, record: GameRecorder | None = None) -> Simulation:
    """Simulate ``trials`` rolls, games and turns with numpy (seeded) and chi-square-test each.

    Each part draws from its own stream (``SeedSequence(seed).spawn(3)``). With no seed, one is
    drawn from the operating system's entropy and recorded in the result. ``record`` receives the
    games' rolls (see :func:`simulate_games`).
    """
    import numpy as np

    check_whole_number("the number of simulated trials", trials, 1)
    seed = _checked_seed(seed)
    if not 0 < alpha < 1:
        raise BuncoError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    a = analysis
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)]
    rolls = simulate_rolls(a.dice, a.rules, round_number=a.round_number, trials=trials, rng=streams[0])
    games = simulate_games(a.dice, a.rules, rounds=a.game.rounds, trials=trials, rng=streams[1], record=record)
    turns = simulate_turns(a.dice, a.rules, round_number=a.round_number, target=a.turn.target, trials=trials,
                           rng=streams[2])
    return Simulation(trials, seed, chi_square_test(rolls, a.scores, alpha=alpha),
                      chi_square_test(games, a.game.totals, alpha=alpha),
                      chi_square_test(turns, a.turn.points, alpha=alpha))
