"""Bunco: exact odds of one roll, of a game of rounds, and of a turn at the table.

The rules (for ``count`` dice of ``sides`` faces, in a round whose *round number* is one of
``1..sides``):

* a **Bunco**: every die shows the round number;
* a **mini Bunco**: every die shows one and the same other face;
* otherwise each die that shows the round number scores ``per_die`` points.

With one die every face is trivially "all alike", so the round number is a Bunco and any
other face a mini Bunco: that is what the rules say, literally.

Counting convention (as for the baccarat engine): *ways* count ordered tuples of faces, so a
roll has ``sides**count`` equally likely ways, a game of R rounds ``sides**(count*R)``, and a
turn ``(sides**count)**max_rolls`` — rolls after the turn has ended count too, just as the
baccarat tables count the cards a coup does not use. Probabilities are ``Fraction``; no float
ever enters the exact results. Floats appear only in :func:`simulate` (the witness) and in
:func:`chi_square_sf`.

Sources. The rules and the standard points: Bunco 21, mini ("baby") Bunco 5, one point per die
showing the round number (e.g. the "How to play" page of Bunco Babz, buncobabz.com, and Dave
Taylor, "Shell Scripting a Bunco Game", Linux Journal, 21 January 2018, whose text says 21). The
``article`` rule set is what that article's shell script actually does: it scores a Bunco as 25.

>>> dice = Dice(3, 6)
>>> roll_scores(dice, STANDARD).probability(21)
Fraction(1, 216)
>>> play_game(dice, STANDARD).mean
Fraction(151, 36)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from exact_odds.dist import Dist, Ways
from exact_odds.errors import InputError
from exact_odds.stats import chi_square_sf

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

MAX_DICE = 20
"""The most dice a roll may have (the limits keep every exact computation to a second or two)."""
MAX_SIDES = 100
"""The most faces a die may have."""
MAX_ROUNDS = 60
"""The most rounds a game may have."""
MAX_GAME_WORK = 3_000_000
"""The most (total, score) pairs a game's convolution may visit; past it the game is refused, not slow."""
MAX_TARGET = 100
"""The highest points target (cap) of a turn."""
DEFAULT_TARGET = 21
"""A turn, and the round at the table, ends when the player reaches 21 points."""
DEFAULT_ROUNDS = 6
"""A game of Bunco is six rounds, one per face of the die."""
DEFAULT_ALPHA = Fraction(1, 1000)
"""Significance level of the simulation's verdicts (as for the baccarat simulator)."""


class BuncoError(InputError):
    """A bad Bunco input: dice, round number, points, rounds, target or simulation options."""


class UnknownScoringError(BuncoError):
    """A scoring rule set name that is not in :data:`SCORING_RULES`."""


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int within ``low..high``, or a one-line :class:`BuncoError`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BuncoError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise BuncoError(f"{name} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise BuncoError(f"{name} must be at most {high}, got {value}")
    return value


# ---------------------------------------------------------------- dice, rolls, scoring rules


@dataclass(frozen=True)
class Dice:
    """``count`` fair dice of ``sides`` faces (numbered 1..sides); ``Dice(3, 6)`` is the game's."""

    count: int = 3
    sides: int = 6

    def __post_init__(self) -> None:
        _check_int("the number of dice", self.count, 1, MAX_DICE)
        _check_int("the number of sides", self.sides, 1, MAX_SIDES)

    @property
    def ways(self) -> Ways:
        """Equally likely ordered rolls: ``sides ** count``."""
        return int(self.sides**self.count)

    def check_round(self, round_number: int) -> int:
        """``round_number`` if it is a face of these dice (1..sides), else a :class:`BuncoError`."""
        if not isinstance(round_number, int) or isinstance(round_number, bool):
            raise BuncoError(f"the round number must be a whole number, got {round_number!r}")
        if not 1 <= round_number <= self.sides:
            raise BuncoError(f"the round number must be a face of the dice, 1 to {self.sides}, got {round_number}")
        return round_number

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, order=True)
class Roll:
    """The class of one roll: how many dice show the round number, and whether all dice are alike.

    ``alike and matches`` is a Bunco (then ``matches`` is the number of dice), ``alike and not
    matches`` a mini Bunco, anything else a plain roll scoring ``matches * per_die``.
    """

    matches: int
    alike: bool

    @property
    def kind(self) -> str:
        """``"Bunco"``, ``"mini Bunco"`` or ``"plain"``."""
        if self.alike:
            return "Bunco" if self.matches else "mini Bunco"
        return "plain"

    def describe(self) -> str:
        """A phrase for reports, e.g. ``"Bunco"`` or ``"2 dice show the round number"``."""
        if self.kind != "plain":
            return self.kind
        if self.matches == 0:
            return "no die shows the round number"
        return f"{self.matches} {'die shows' if self.matches == 1 else 'dice show'} the round number"


@dataclass(frozen=True)
class ScoringRules:
    """Points for a Bunco, a mini Bunco and each die showing the round number (non-negative ints).

    ``source`` says where the numbers come from.
    """

    name: str
    bunco: int
    mini: int
    per_die: int
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _check_int("Bunco points", self.bunco, 0)
        _check_int("mini Bunco points", self.mini, 0)
        _check_int("points per die", self.per_die, 0)

    def score(self, roll: Roll) -> int:
        """The points of one roll under these rules."""
        if roll.alike:
            return self.bunco if roll.matches else self.mini
        return roll.matches * self.per_die

    def with_points(self, *, bunco: int | None = None, mini: int | None = None,
                    per_die: int | None = None) -> ScoringRules:
        """These rules with some points replaced; named ``custom`` if anything changed."""
        new = replace(self, bunco=self.bunco if bunco is None else bunco, mini=self.mini if mini is None else mini,
                      per_die=self.per_die if per_die is None else per_die)
        if new == self:
            return self
        return replace(new, name="custom", source=f"{self.name} rules with points given by the user")

    def __str__(self) -> str:
        unit = "point" if self.per_die == 1 else "points"
        return (f"{self.name} (Bunco {self.bunco}, mini Bunco {self.mini}, {self.per_die} {unit} per die "
                f"showing the round number)")


STANDARD = ScoringRules("standard", 21, 5, 1, source=(
    "Bunco as commonly played: Bunco 21, mini (baby) Bunco 5, 1 point per die showing the round number "
    "(e.g. buncobabz.com 'How to play'; the text of D. Taylor, Linux Journal, 21 January 2018)"))
ARTICLE = ScoringRules("article", 25, 5, 1, source=(
    "the shell script of D. Taylor, 'Shell Scripting a Bunco Game', Linux Journal, 21 January 2018, "
    "which sets score=25 for a Bunco although the article's text says 21"))
SCORING_RULES: dict[str, ScoringRules] = {rules.name: rules for rules in (STANDARD, ARTICLE)}
"""The scoring rule sets by name."""


def find_scoring_rules(name: str) -> ScoringRules:
    """The rule set called ``name`` (case-insensitive); an unknown name lists the valid ones."""
    key = name.strip().lower()
    if key not in SCORING_RULES:
        raise UnknownScoringError(f"unknown Bunco scoring rules {name!r} (choose from {', '.join(SCORING_RULES)})")
    return SCORING_RULES[key]


def _sorted(dist: Dist[int]) -> Dist[int]:
    return Dist(sorted(dist.items()))


@cache
def roll_outcomes(dice: Dice, *, round_number: int = 1) -> Dist[Roll]:
    """The classes of one roll with their ways (total ``sides**count``), by counting, not enumerating.

    ``k`` dice show the round number in ``C(count, k) * (sides-1)**(count-k)`` ways; of these the
    single ``k = count`` roll is the Bunco, and ``sides - 1`` of the ``k = 0`` rolls are mini Buncos.
    By symmetry the result does not depend on the round number (it is checked, not assumed).

    >>> roll_outcomes(Dice(3, 6))[Roll(0, alike=True)]
    5
    """
    dice.check_round(round_number)
    n, s = dice.count, dice.sides
    ways: dict[Roll, int] = {}
    for k in range(n + 1):
        w = math.comb(n, k) * (s - 1) ** (n - k)
        if k == n:
            ways[Roll(k, alike=True)] = w
        elif k == 0:
            ways[Roll(0, alike=False)] = w - (s - 1)
            ways[Roll(0, alike=True)] = s - 1
        else:
            ways[Roll(k, alike=False)] = w
    return Dist(sorted(ways.items()))


def roll_scores(dice: Dice, rules: ScoringRules, *, round_number: int = 1) -> Dist[int]:
    """One roll's score: points -> ways, total ``sides**count``, scores in increasing order.

    >>> roll_scores(Dice(3, 6), STANDARD)
    Dist({0: 120, 1: 75, 2: 15, 5: 5, 21: 1})
    """
    return _sorted(roll_outcomes(dice, round_number=round_number).map(rules.score))


def mean_and_variance(dist: Dist[int]) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of an integer-valued distribution."""
    mean = dist.expectation(lambda x: x)
    return mean, dist.expectation(lambda x: x * x) - mean * mean


# ---------------------------------------------------------------- the game: one roll per round


def round_numbers(rounds: int, sides: int) -> tuple[int, ...]:
    """Round numbers of a game: round r (1-based) uses ``(r - 1) % sides + 1``.

    Six rounds of six-sided dice use 1..6; more rounds than sides cycle through the faces again
    (seven rounds: 1..6, 1). Because every face is alike, the round number never changes the odds
    of a roll; the cycling matters only for the simulation, which rolls the real round numbers.
    """
    return tuple((r - 1) % sides + 1 for r in range(1, rounds + 1))


@dataclass(frozen=True)
class Game:
    """The total points of a game of ``rounds`` rounds, one roll per round (the article's game).

    ``totals`` has ways over ``sides**(count*rounds)`` sequences of faces.
    """

    dice: Dice
    rules: ScoringRules
    round_numbers: tuple[int, ...]
    totals: Dist[int]

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return len(self.round_numbers)

    @property
    def mean(self) -> Fraction:
        """Expected total points."""
        return mean_and_variance(self.totals)[0]

    @property
    def variance(self) -> Fraction:
        """Variance of the total points."""
        return mean_and_variance(self.totals)[1]

    def more_than(self, k: int) -> Fraction:
        """P(total > k), exactly, for any integer ``k``."""
        return self.totals.probability(lambda t: t > k)

    def survival(self) -> dict[int, Fraction]:
        """P(total > t) for every possible total ``t`` (one pass over the totals, largest first)."""
        above, out = 0, {}
        for t, w in sorted(self.totals.items(), reverse=True):
            out[t] = Fraction(above, self.totals.total)
            above += w
        return dict(sorted(out.items()))


def play_game(dice: Dice, rules: ScoringRules, *, rounds: int = DEFAULT_ROUNDS) -> Game:
    """The exact distribution of a game's total: one roll per round, rounds numbered by :func:`round_numbers`.

    >>> play_game(Dice(3, 6), STANDARD).more_than(3)
    Fraction(10284191, 22674816)
    """
    _check_int("the number of rounds", rounds, 1, MAX_ROUNDS)
    numbers = round_numbers(rounds, dice.sides)
    totals: Dist[int] = Dist({0: 1})
    work = 0
    for number in numbers:
        scores = roll_scores(dice, rules, round_number=number)
        work += len(totals) * len(scores)
        if work > MAX_GAME_WORK:
            raise BuncoError(f"a game of {rounds} rounds of {dice} under these points has too many distinct totals "
                             "to compute exactly here; use fewer rounds or dice")
        totals = totals.combine(scores, operator.add)
    return Game(dice, rules, numbers, _sorted(totals))


# ---------------------------------------------------------------- a turn at the table


@dataclass(frozen=True)
class Turn:
    """One player's turn: keep rolling while each roll scores; stop at ``target`` points (capped).

    ``outcomes`` maps (points, rolls) to ways over sequences of ``max_rolls`` rolls
    (total ``(sides**count)**max_rolls``; rolls after the turn ended count too).
    """

    dice: Dice
    rules: ScoringRules
    round_number: int
    target: int
    max_rolls: int
    outcomes: Dist[tuple[int, int]]

    @property
    def points(self) -> Dist[int]:
        """Points at the end of the turn (0..target; ``target`` means the turn reached it)."""
        return _sorted(self.outcomes.map(operator.itemgetter(0)))

    @property
    def rolls(self) -> Dist[int]:
        """The number of rolls in the turn (1..max_rolls)."""
        return _sorted(self.outcomes.map(operator.itemgetter(1)))

    @property
    def reach_probability(self) -> Fraction:
        """P(the turn reaches the target), which ends the round at the table."""
        return self.outcomes.probability(lambda pr: pr[0] >= self.target)

    @property
    def expected_points(self) -> Fraction:
        """Expected points of the turn (capped at the target)."""
        return self.outcomes.expectation(operator.itemgetter(0))

    @property
    def expected_rolls(self) -> Fraction:
        """Expected number of rolls in the turn, the last (non-scoring or target-reaching) one included."""
        return self.outcomes.expectation(operator.itemgetter(1))


def play_turn(dice: Dice, rules: ScoringRules, *, round_number: int = 1, target: int = DEFAULT_TARGET) -> Turn:
    """The exact distribution of one turn under the table rule.

    The turn is a Markov chain on points 0..target: from ``p`` points a roll scoring 0 ends the turn
    at ``p``; a roll scoring ``x > 0`` moves to ``min(p + x, target)``, and reaching the target ends
    the turn (and the round). Every roll that lets the turn go on adds at least ``m`` points (the
    least positive score), so the chain has no cycles and a turn has at most ``ceil(target / m)``
    rolls: the forward recursion below is exact and finite — no series to sum. If no roll scores,
    every turn is one roll.

    >>> turn = play_turn(Dice(3, 6), STANDARD)
    >>> turn.max_rolls, turn.rolls.probability(1)
    (21, Fraction(121, 216))
    """
    dice.check_round(round_number)
    _check_int("the points target", target, 1, MAX_TARGET)
    scores = roll_scores(dice, rules, round_number=round_number)
    positive = [x for x in scores if x > 0]
    max_rolls = -(-target // min(positive)) if positive else 1
    ended: dict[tuple[int, int], int] = {}  # (points, rolls) -> ways over sequences of `rolls` rolls
    live = {0: 1}  # points -> ways of turns still going after the rolls so far
    for rolls in range(1, max_rolls + 1):
        going: dict[int, int] = {}
        for points, w in live.items():
            for score, sw in scores.items():
                reached = min(points + score, target)
                if score == 0 or reached == target:
                    ended[reached, rolls] = ended.get((reached, rolls), 0) + w * sw
                else:
                    going[reached] = going.get(reached, 0) + w * sw
        live = going
    assert not live, "a turn outlived max_rolls"
    per_roll = scores.total
    padded = sorted(((pr, w * per_roll ** (max_rolls - pr[1])) for pr, w in ended.items()))
    return Turn(dice, rules, round_number, target, max_rolls, Dist(padded))


# ---------------------------------------------------------------- one analysis for the reports


@dataclass(frozen=True)
class Analysis:
    """Everything ``exact-odds bunco`` reports: the roll, the game, the turn, and the asked tails."""

    dice: Dice
    rules: ScoringRules
    round_number: int
    roll: Dist[Roll]
    game: Game
    turn: Turn
    more_than: tuple[int, ...]

    @property
    def scores(self) -> Dist[int]:
        """One roll's score distribution."""
        return _sorted(self.roll.map(self.rules.score))

    @property
    def bunco_probability(self) -> Fraction:
        """P(a roll is a Bunco): ``1 / sides**count``."""
        return self.roll.probability(lambda r: r.kind == "Bunco")

    @property
    def mini_probability(self) -> Fraction:
        """P(a roll is a mini Bunco): ``(sides - 1) / sides**count``."""
        return self.roll.probability(lambda r: r.kind == "mini Bunco")

    @property
    def roll_mean(self) -> Fraction:
        """Expected points of one roll."""
        return mean_and_variance(self.scores)[0]

    @property
    def roll_variance(self) -> Fraction:
        """Variance of one roll's points."""
        return mean_and_variance(self.scores)[1]

    @property
    def game_bunco_probability(self) -> Fraction:
        """P(at least one Bunco in the game's rounds)."""
        none = Fraction(1)
        for number in self.game.round_numbers:
            none *= 1 - roll_outcomes(self.dice, round_number=number).probability(lambda r: r.kind == "Bunco")
        return 1 - none

    def tails(self) -> dict[int, Fraction]:
        """P(total > k) of the game for each asked ``k``."""
        return {k: self.game.more_than(k) for k in self.more_than}


def analyse(dice: Dice, rules: ScoringRules, *, round_number: int = 1, rounds: int = DEFAULT_ROUNDS,
            target: int = DEFAULT_TARGET, more_than: Sequence[int] = (3,)) -> Analysis:
    """Roll, game and turn for one configuration; ``more_than`` lists the k of P(total > k)."""
    for k in more_than:
        if not isinstance(k, int) or isinstance(k, bool):
            raise BuncoError(f"k of P(total > k) must be a whole number, got {k!r}")
    return Analysis(dice, rules, round_number, roll_outcomes(dice, round_number=round_number),
                    play_game(dice, rules, rounds=rounds),
                    play_turn(dice, rules, round_number=round_number, target=target), tuple(more_than))


# ---------------------------------------------------------------- chi-square test


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square goodness-of-fit test of observed counts against exact probabilities.

    ``statistic`` is exact; ``p_value`` is a float; ``impossible`` counts observations of outcomes
    whose exact probability is 0 (any makes the test fail). The test passes when ``p_value >= alpha``.
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


def _pool(keys: list[int], observed: Dist[int], expected: dict[int, Fraction], minimum: int) -> list[Bin]:
    """Bins of adjacent keys, each with expected count >= minimum; a short tail joins the last bin."""
    bins: list[Bin] = []
    start, obs, exp = keys[0], 0, Fraction(0)
    for i, key in enumerate(keys):
        obs += observed[key]
        exp += expected.get(key, Fraction(0))
        if exp >= minimum or i == len(keys) - 1:
            if exp < minimum and bins:
                last = bins.pop()
                bins.append(Bin(last.low, key, last.observed + obs, last.expected + exp))
            else:
                bins.append(Bin(start, key, obs, exp))
            if i + 1 < len(keys):
                start, obs, exp = keys[i + 1], 0, Fraction(0)
    return bins


def chi_square_test(observed: Dist[int], expected: Dist[int], *, alpha: Fraction = DEFAULT_ALPHA,
                    min_expected: int = 5) -> ChiSquare:
    """Compare observed counts (a ``Dist`` of counts) with an exact distribution.

    Generic over integer-valued outcomes. Adjacent outcomes (in increasing order) are pooled
    until each bin's expected count is at least ``min_expected`` (the usual rule of thumb), and
    the degrees of freedom are ``bins - 1`` (no parameter is estimated).
    """
    trials = observed.total
    if trials < 1:
        raise ValueError("a chi-square test needs at least one observation")
    if not 0 < alpha < 1:
        raise ValueError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    probs = {k: Fraction(w, expected.total) for k, w in expected.items()}
    counts = {k: trials * p for k, p in probs.items()}
    impossible = sum(n for k, n in observed.items() if k not in probs)
    bins = tuple(_pool(sorted(set(probs) | set(observed)), observed, counts, min_expected))
    statistic = sum((b.contribution for b in bins if b.expected), Fraction(0))
    df = len(bins) - 1
    p_value = chi_square_sf(float(statistic), df) if df else 1.0
    if impossible:
        p_value = 0.0
    return ChiSquare(trials, bins, statistic, df, p_value, alpha, impossible)


# ---------------------------------------------------------------- the seeded simulation (a witness)

_CHUNK_CELLS = 1 << 22
"""Dice per vectorised batch (bounds memory; a fixed constant, so the output depends only on the seed)."""


def _batches(trials: int, count: int) -> Iterator[int]:
    size = max(1, _CHUNK_CELLS // count)
    for start in range(0, trials, size):
        yield min(size, trials - start)


def _simulated_scores(rng: np.random.Generator, m: int, dice: Dice, rules: ScoringRules,
                      round_number: int) -> NDArray[np.int64]:
    """Scores of ``m`` simulated rolls (vectorised)."""
    import numpy as np

    faces = rng.integers(1, dice.sides + 1, size=(m, dice.count))
    matches = (faces == round_number).sum(axis=1)
    alike = (faces == faces[:, :1]).all(axis=1)
    special = np.where(matches > 0, rules.bunco, rules.mini)
    return np.where(alike, special, matches * rules.per_die).astype(np.int64)


def _counts(values: NDArray[np.int64]) -> Dist[int]:
    import numpy as np

    keys, counts = np.unique(values, return_counts=True)
    return Dist((int(k), int(c)) for k, c in zip(keys, counts, strict=True))


def _merge(parts: list[Dist[int]]) -> Dist[int]:
    return _sorted(Dist(pair for part in parts for pair in part.items()))


def simulate_rolls(dice: Dice, rules: ScoringRules, *, round_number: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each score in ``trials`` simulated rolls."""
    dice.check_round(round_number)
    return _merge([_counts(_simulated_scores(rng, m, dice, rules, round_number))
                   for m in _batches(trials, dice.count)])


def simulate_games(dice: Dice, rules: ScoringRules, *, rounds: int, trials: int,
                   rng: np.random.Generator) -> Dist[int]:
    """Observed counts of each total in ``trials`` simulated games (real round numbers, cycling)."""
    import numpy as np

    parts = []
    for m in _batches(trials, dice.count):
        totals = np.zeros(m, dtype=np.int64)
        for number in round_numbers(rounds, dice.sides):
            totals += _simulated_scores(rng, m, dice, rules, number)
        parts.append(_counts(totals))
    return _merge(parts)


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
            score = _simulated_scores(rng, active.size, dice, rules, round_number)
            reached = np.minimum(points[active] + score, target)
            points[active] = reached
            active = active[(score > 0) & (reached < target)]
        parts.append(_counts(points))
    return _merge(parts)


@dataclass(frozen=True)
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
             alpha: Fraction = DEFAULT_ALPHA) -> Simulation:
    """Simulate ``trials`` rolls, games and turns with numpy (seeded) and chi-square-test each.

    Each part draws from its own stream (``SeedSequence(seed).spawn(3)``), so the same seed gives
    the same counts, and the rolls do not depend on how many games are simulated. With no seed, one
    is drawn from the operating system's entropy and recorded in the result (reports print it).
    """
    import numpy as np

    _check_int("the number of simulated trials", trials, 1)
    if seed is None:
        import secrets

        seed = secrets.randbits(32)
    _check_int("the seed", seed, 0)
    if not 0 < alpha < 1:
        raise BuncoError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    a = analysis
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)]
    rolls = simulate_rolls(a.dice, a.rules, round_number=a.round_number, trials=trials, rng=streams[0])
    games = simulate_games(a.dice, a.rules, rounds=a.game.rounds, trials=trials, rng=streams[1])
    turns = simulate_turns(a.dice, a.rules, round_number=a.round_number, target=a.turn.target, trials=trials,
                           rng=streams[2])
    return Simulation(trials, seed, chi_square_test(rolls, a.scores, alpha=alpha),
                      chi_square_test(games, a.game.totals, alpha=alpha),
                      chi_square_test(turns, a.turn.points, alpha=alpha))
