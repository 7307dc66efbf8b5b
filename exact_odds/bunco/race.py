"""The head table's race to the bell, exactly, and where the other tables stand when it rings.

A table is a Markov chain on (team 1's points, team 2's points, the team rolling), solved in increasing
sum of points (docs/bunco.md, "The head table, exactly"). The other tables roll in step, so each has
rolled ``T`` times at the bell; ``T`` has no bound, so the distributions are exact up to the *horizon*
``N``, the first with ``P(T > N) <= 10**-12``, and ``P(T > N)`` is given exactly.

>>> from exact_odds.bunco import STANDARD_SCORING, Dice
>>> race = head_race(Dice(3, 6), STANDARD_SCORING, target=2)
>>> race.first_team_wins, race.mean_rolls
(Fraction(411209, 702464), Fraction(257949, 57344))
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.bunco.dice import MAX_TARGET, BuncoError, Dice, Roll, ScoringRules, check_whole_number, roll_outcomes
from exact_odds.core.dist import Dist

TAIL = Fraction(1, 10**12)
"""The horizon is the first roll count N with P(the bell has not rung after N rolls) <= TAIL."""
MAX_HORIZON = 400
"""The most rolls the exact distributions follow; past it the remaining chance is reported as it is."""

Step = tuple[int, bool]
"""One roll as a table sees it: its points, and whether it passes the dice."""
State = tuple[int, int, int]
"""A table: team 1's points, team 2's points, the team rolling (0: team 1, odd seats; 1: team 2)."""


def roll_steps(dice: Dice, rules: ScoringRules, *, bunco_ends_turn: bool = False) -> Dist[Step]:
    """One roll's (points, passes the dice) with its ways: a roll scoring 0 passes, a Bunco too if it ends turns.

    >>> from exact_odds.bunco import STANDARD_SCORING
    >>> roll_steps(Dice(3, 6), STANDARD_SCORING, bunco_ends_turn=True)
    Dist({(0, True): 120, (1, False): 75, (2, False): 15, (5, False): 5, (21, True): 1})
    """
    def step(roll: Roll) -> Step:
        points = rules.score(roll)
        return points, points == 0 or (bunco_ends_turn and roll.kind == "Bunco")

    return Dist(sorted(roll_outcomes(dice).map(step).items()))


def _visits(m1: Fraction, m2: Fraction, q: Fraction, z: Fraction) -> tuple[Fraction, Fraction]:
    """Expected (z-weighted) rolls of each team at one pair of points, from the mass arriving with each
    to roll, ``q`` the chance of a pass."""
    d = 1 - (z * q) ** 2
    return (m1 + z * q * m2) / d, (m2 + z * q * m1) / d


def _flow(steps: Dist[Step], target: int, z: Fraction) -> tuple[dict[tuple[int, int], Fraction], Fraction]:
    """Push the mass from (0, 0), team 1 to roll, through the pairs of points in increasing sum: the mass
    absorbed at the bell by the scores then (``E[z^T]`` in all), and the expected (z-weighted) rolls."""
    q = steps.probability(lambda s: s[0] == 0)
    if q == 1:
        raise BuncoError("no roll scores under these rules: the head table's bell would never ring")
    moves = [(points, passes, Fraction(w, steps.total)) for (points, passes), w in steps.items() if points]
    arriving: dict[tuple[int, int], list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
    arriving[(0, 0)][0] = Fraction(1)
    bell: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    visits = Fraction(0)
    for a, b in sorted(((a, b) for a in range(target) for b in range(target)), key=sum):
        if (a, b) not in arriving:
            continue
        m = arriving.pop((a, b))
        n = _visits(m[0], m[1], q, z)
        visits += n[0] + n[1]
        for team in (0, 1):
            for points, passes, p in moves:
                after = (a + points, b) if team == 0 else (a, b + points)
                mass = z * n[team] * p
                if max(after) >= target:
                    bell[after] += mass
                else:
                    arriving[after][team ^ passes] += mass
    return dict(sorted(bell.items())), visits


def _tick(live: dict[State, int], steps: Dist[Step], target: int) -> tuple[dict[State, int], int]:
    going: dict[State, int] = defaultdict(int)
    rung = 0
    for (a, b, team), ways in live.items():
        for (points, passes), w in steps.items():
            after = (a + points, b) if team == 0 else (a, b + points)
            if max(after) >= target:
                rung += ways * w
            else:
                going[(*after, team ^ passes)] += ways * w
    return going, rung


def bell_rolls(steps: Dist[Step], target: int) -> tuple[Dist[int], int]:
    """Rolls until the head table's bell, and the horizon ``N``: ways over the ``W**N`` sequences of ``N``
    rolls; the outcome ``N + 1`` stands for "more than N rolls". A coin, heads scoring 1, to 1 point:

    >>> rolls, horizon = bell_rolls(Dist({(0, True): 1, (1, False): 1}), 1)
    >>> horizon, rolls.probability(1), rolls.probability(horizon + 1) == Fraction(1, 2**horizon)
    (40, Fraction(1, 2), True)
    """
    live: dict[State, int] = {(0, 0, 0): 1}
    rung: list[int] = []
    total = steps.total
    while live and len(rung) < MAX_HORIZON:
        live, ways = _tick(live, steps, target)
        rung.append(ways)
        if sum(live.values()) <= TAIL * total ** len(rung):
            break
    n = len(rung)
    out = {t: ways * total ** (n - t) for t, ways in enumerate(rung, 1) if ways}
    left = sum(live.values())
    if left:
        out[n + 1] = left
    return Dist(out), n


@dataclass(frozen=True, slots=True)
class HeadRace:
    """The head table's round, exactly: ``bell_scores`` (both teams' points when the bell rings ->
    probability), ``mean_rolls`` E[T], ``rolls`` and ``horizon`` (:func:`bell_rolls`), one roll's ``steps``."""

    dice: Dice
    rules: ScoringRules
    target: int
    bunco_ends_turn: bool
    steps: Dist[Step]
    bell_scores: dict[tuple[int, int], Fraction]
    mean_rolls: Fraction
    rolls: Dist[int]
    horizon: int

    @property
    def first_team_wins(self) -> Fraction:
        """P(team 1, seats 1 and 3, who roll first, reaches the target first)."""
        return sum((p for (a, _), p in self.bell_scores.items() if a >= self.target), Fraction(0))

    @property
    def beyond_horizon(self) -> Fraction:
        """P(T > horizon), exactly (0 if the bell always rings by then)."""
        return self.rolls.probability(self.horizon + 1)

    def team_scores(self, team: int) -> dict[int, Fraction]:
        """One team's points when the bell rings (team 1 or 2) -> probability."""
        out: dict[int, Fraction] = defaultdict(Fraction)
        for pair, p in self.bell_scores.items():
            out[pair[team - 1]] += p
        return dict(sorted(out.items()))

    def rolls_pgf(self, z: Fraction) -> Fraction:
        """``E[z^T]``, exactly, for ``-1 <= z <= 1`` (no horizon)."""
        return sum(_flow(self.steps, self.target, z)[0].values(), Fraction(0))


def head_race(dice: Dice, rules: ScoringRules, *, target: int = 21, bunco_ends_turn: bool = False) -> HeadRace:
    """The head table's race to ``target`` points, exactly (see the module's docstring)."""
    check_whole_number("the head table's target", target, 1, MAX_TARGET)
    steps = roll_steps(dice, rules, bunco_ends_turn=bunco_ends_turn)
    bell, visits = _flow(steps, target, Fraction(1))
    rolls, horizon = bell_rolls(steps, target)
    return HeadRace(dice, rules, target, bunco_ends_turn, steps, bell, visits, rolls, horizon)


def _packed_difference(race: HeadRace) -> tuple[list[int], int]:
    """Ways over ``W**(2N)`` of team 1's lead at another table when the bell rings by the horizon, and
    ``top``, the largest score (slot 0 is the lead ``-top * N``): the ways by lead for each team to roll
    as two polynomials packed in integers, summed over ``t`` with the head table's ways by Horner's rule."""
    steps, n, total = race.steps, race.horizon, race.steps.total
    top = max(points for points, _ in steps)
    slot = 8 * (((n + 1) * total ** (2 * n)).bit_length() // 8 + 1)
    rung = [race.rolls[t] // total ** (n - t) if t in race.rolls else 0 for t in range(1, n + 1)]
    first, second, acc = 1, 0, 0
    for t in range(1, n + 1):
        new = [0, 0]
        for (points, passes), w in steps.items():
            up, down = (first << slot * (top + points)) * w, (second << slot * (top - points)) * w
            new[1 if passes else 0] += up
            new[0 if passes else 1] += down
        first, second = new
        acc = (acc << slot * top) * total * total + rung[t - 1] * (first + second)
    data = acc.to_bytes(slot // 8 * (2 * top * n + 1), "little")
    width = slot // 8
    return [int.from_bytes(data[i:i + width], "little") for i in range(0, len(data), width)], top


class _Standing:
    """The chances of team 1 ahead, level or behind at another table when the bell rings, among the
    outcomes the record holds (the leftover of :class:`OtherScores`, the bells after the horizon, aside)."""

    __slots__ = ()

    def _chance(self, keep: Callable[[int], bool]) -> Fraction:
        """P(team 1's lead satisfies ``keep``)."""
        raise NotImplementedError

    @property
    def first_team_ahead(self) -> Fraction:
        """P(team 1 ahead at the bell)."""
        return self._chance(lambda d: d > 0)

    @property
    def tied(self) -> Fraction:
        """P(the teams level at the bell)."""
        return self._chance(lambda d: d == 0)

    @property
    def second_team_ahead(self) -> Fraction:
        """P(team 2 ahead at the bell)."""
        return self._chance(lambda d: d < 0)


@dataclass(frozen=True, slots=True)
class OtherTable(_Standing):
    """Another table when the head table's bell rings: ``difference`` (team 1's points minus team 2's ->
    ways over ``W**(2N)``, bells within the horizon), ``beyond_horizon`` (the chance of the others),
    each team's exact ``mean_points``, and both teams' ``scores`` within :data:`SCORES_WINDOW` points."""

    difference: Dist[int]
    beyond_horizon: Fraction
    mean_points: tuple[Fraction, Fraction]
    scores: OtherScores

    def _chance(self, keep: Callable[[int], bool]) -> Fraction:
        return self.difference.probability(keep) * (1 - self.beyond_horizon)

    def lead(self) -> dict[int, Fraction]:
        """Team 1's points minus team 2's -> probability, the bell within the horizon."""
        scale = 1 - self.beyond_horizon
        return {d: self.difference.probability(d) * scale for d in self.difference}

    @property
    def first_team_wins(self) -> Fraction:
        """P(team 1 wins the round at this table within the horizon): ahead, or tied and winning the roll-off (1/2)."""
        return self.first_team_ahead + self.tied / 2


def _mean_points(race: HeadRace) -> tuple[Fraction, Fraction]:
    """Each team's expected points at another table when the bell rings: roll ``s`` (from 0) is team 1's with
    chance ``(1 + r**s) / 2``, ``r = 1 - 2 P(pass)``, so team 1 expects ``mu (E[T] + (1 - E[r**T]) / (1 - r)) / 2``."""
    steps = race.steps
    mu = steps.expectation(lambda s: s[0])
    r = 1 - 2 * steps.probability(lambda s: s[1])
    extra = race.mean_rolls if r == 1 else (1 - race.rolls_pgf(r)) / (1 - r)
    first = mu * (race.mean_rolls + extra) / 2
    return first, mu * race.mean_rolls - first


def other_table(race: HeadRace) -> OtherTable:
    """Where another table stands when the head table's ``race`` rings its bell (see the module's docstring)."""
    coefficients, top = _packed_difference(race)
    low = -top * race.horizon
    difference = Dist((low + i, w) for i, w in enumerate(coefficients) if w)
    return OtherTable(difference, race.beyond_horizon, _mean_points(race), other_scores(race, SCORES_WINDOW))


SCORES_WINDOW = 41
"""The most points of either team for which :func:`other_table` lists both teams' points jointly (the rest lumped)."""
LEFTOVER = None
"""The outcome of :attr:`OtherScores.scores` standing for "the bell after the horizon, or a team past the cap"."""


def _times(x: int, w: int) -> int:
    return x if w == 1 else x * w


def _horner_scores(race: HeadRace, caps: tuple[int, int]) -> list[int]:
    """Ways over ``W**(2N)`` of both teams' points at another table when the bell rings by the horizon,
    both within ``caps`` (a cap of 0 ignores that team), row-major: ``sum_t h_t W**(2(N - t)) M**t`` by
    Horner's rule, ``M`` one roll on bivariate polynomials packed in integers, the pairs past a cap masked off."""
    steps, n, total = race.steps, race.horizon, race.steps.total
    top = max(points for points, _ in steps)
    digit = sys.int_info.bits_per_digit
    slot = -(-((n + 1) * total ** (2 * n)).bit_length() // (8 * digit)) * 8 * digit
    rows, cols = caps[0] + 1, caps[1] + 1
    stride = cols + (top if caps[1] else 0)
    across, down = (slot * stride, slot if caps[1] else 0)
    row = b"\xff" * (cols * slot // 8) + b"\x00" * ((stride - cols) * slot // 8)
    mask = int.from_bytes(row * rows, "little")
    rung = [race.rolls[t] // total ** (n - t) if t in race.rolls else 0 for t in range(1, n + 1)]

    def roll(first: int, second: int) -> tuple[int, int]:
        new = [0, 0]
        for (points, passes), w in steps.items():
            new[1 if passes else 0] += _times(first << across * points, w)
            new[0 if passes else 1] += _times(second << down * points, w)
        return new[0] & mask, new[1] & mask

    first, second = rung[n - 1], 0
    for t in range(n - 1, 0, -1):
        first, second = roll(first, second)
        first += rung[t - 1] * total ** (2 * (n - t))
    first, second = roll(first, second)
    data = (first + second).to_bytes(slot // 8 * stride * rows, "little")
    width = slot // 8
    return [int.from_bytes(data[(a * stride + b) * width:(a * stride + b + 1) * width], "little")
            for a in range(rows) for b in range(cols)]


def _score_cap(race: HeadRace) -> int:
    """The least cap ``c`` whose chance of a team past it by the horizon is at most ``TAIL / 2``, estimated
    in floats (the leftover it leaves is then exact)."""
    import numpy as np

    steps, n = race.steps, race.horizon
    most = max(points for points, _ in steps) * n
    p = [(points, passes, w / steps.total) for (points, passes), w in steps.items()]
    tails = np.zeros(most + 2)
    for team in (0, 1):
        live = np.zeros((2, most + 1))
        live[0, 0] = 1.0
        for t in range(1, n + 1):
            new = np.zeros_like(live)
            for points, passes, w in p:
                mine, other = (0, 1) if team == 0 else (1, 0)
                new[mine ^ passes, points:] += w * live[mine, :most + 1 - points]
                new[other ^ passes] += w * live[other]
            live = new
            tails[:-1] += float(race.rolls.probability(t)) * live.sum(axis=0)
    past = np.cumsum(tails[::-1])[::-1][1:]
    return int(np.argmax(past <= float(TAIL) / 2))


@dataclass(frozen=True, slots=True)
class OtherScores(_Standing):
    """Both teams' points at another table when the bell rings: (team 1, team 2) -> ways over ``W**(2N)``
    with both at most ``cap``; the outcome :data:`LEFTOVER` holds the rest exactly."""

    scores: Dist[tuple[int, int] | None]
    cap: int

    def _chance(self, keep: Callable[[int], bool]) -> Fraction:
        return self.scores.probability(lambda k: k is not None and keep(k[0] - k[1]))

    @property
    def leftover(self) -> Fraction:
        """P(the bell after the horizon, or a team past the cap), exactly."""
        return self.scores.probability(LEFTOVER)

    def lead(self) -> dict[int, Fraction]:
        """Team 1's points minus team 2's -> probability, from the pairs within the cap."""
        out: dict[int, Fraction] = defaultdict(Fraction)
        for key in self.scores:
            if key is not None:
                out[key[0] - key[1]] += self.scores.probability(key)
        return dict(sorted(out.items()))


def other_scores(race: HeadRace, cap: int | None = None) -> OtherScores:
    """Both teams' points at another table when the bell rings, within ``cap`` points (default: all but
    about :data:`TAIL`, :func:`_score_cap`), the rest lumped exactly.

    >>> from exact_odds.bunco import STANDARD_SCORING
    >>> joint = other_scores(head_race(Dice(3, 6), STANDARD_SCORING, target=1))
    >>> joint.tied + joint.first_team_ahead + joint.second_team_ahead + joint.leftover, joint.leftover < TAIL
    (Fraction(1, 1), True)
    """
    cap = _score_cap(race) if cap is None else cap
    ways = _horner_scores(race, (cap, cap))
    total = race.steps.total ** (2 * race.horizon)
    pairs: list[tuple[tuple[int, int] | None, int]] = [
        ((i // (cap + 1), i % (cap + 1)), w) for i, w in enumerate(ways) if w]
    pairs.append((LEFTOVER, total - sum(ways)))
    return OtherScores(Dist(pairs), cap)
