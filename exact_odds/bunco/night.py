"""A whole night of Bunco by seeded simulation, vectorised over nights, witnessed by the exact tables.

Every table rolls in step (the timing model of :mod:`~exact_odds.bunco.race`) until the head table's
bell; elsewhere more points win, a tie by a fair coin; players then move as the party says
(docs/bunco.md). Every figure has a 95% interval (Wilson's for a chance, normal for a mean), and the
rounds are checked against the exact tables by chi-square tests sharing ``alpha``.

>>> from exact_odds.bunco.party import Party
>>> night = simulate_nights(Party(tables=2), nights=200, seed=1)
>>> night.nights, len(night.checks), night.passed, round(float(night.buncos.exact), 4)
(200, 4, True, 2.77)
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from statistics import NormalDist
from typing import TYPE_CHECKING, TextIO

from exact_odds.bunco.dice import BuncoError, Dice, ScoringRules, check_whole_number, roll_outcomes, round_numbers
from exact_odds.bunco.party import Party
from exact_odds.bunco.race import HeadRace, OtherTable, head_race, other_table
from exact_odds.bunco.simulation import DEFAULT_ALPHA, ChiSquare, chi_square_test, observed_counts, score_rolls
from exact_odds.core.dist import Dist
from exact_odds.core.stats import Estimate

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Ints = NDArray[np.int64]

LEVEL = 0.95
"""The confidence level of every interval."""
MAX_NIGHTS = 1_000_000
"""The most nights one simulation plays (its tallies are held in memory)."""
_Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)


def chance(hits: int, trials: int, exact: Fraction | None = None) -> Estimate:
    """``hits / trials`` with Wilson's score interval.

    >>> [round(x, 4) for x in chance(50, 100).interval or ()]
    [0.4038, 0.5962]
    """
    p, z2 = hits / trials, _Z * _Z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    error = math.sqrt(p * (1 - p) / trials)
    return Estimate(p, error, exact, (low, 1.0 if hits == trials else min(1.0, centre + half)))


def mean(values: NDArray[np.int64] | NDArray[np.float64], exact: Fraction | None = None) -> Estimate:
    """The mean of ``values`` with the normal interval (the sample's standard deviation)."""
    m = float(values.mean())
    error = float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else 0.0
    return Estimate(m, error, exact, (m - _Z * error, m + _Z * error))


@dataclass(frozen=True, slots=True)
class PrizeOdds:
    """One prize: the chance one player has the most outright, and the mean number of players tied."""

    award: str
    outright: Estimate
    mean_tied: Estimate


@dataclass(frozen=True, slots=True)
class Night:
    """Simulated nights of a party, each figure with its interval: ``buncos``, ``minis`` and ``points``
    (per player) a night; ``bunco_counts``, nights by their Buncos; ``wins``, P(a player wins k rounds),
    k = 0..rounds; ``checks``, (what, chi-square) of the rounds against the exact tables."""

    party: Party
    nights: int
    seed: int
    race: HeadRace
    table: OtherTable | None
    prizes: tuple[PrizeOdds, ...]
    buncos: Estimate
    minis: Estimate
    points: Estimate
    bunco_counts: Dist[int]
    wins: tuple[Estimate, ...]
    checks: tuple[tuple[str, ChiSquare], ...]

    @property
    def passed(self) -> bool:
        """True if every check passes."""
        return all(test.passed for _, test in self.checks)


@dataclass(frozen=True, slots=True)
class _Rolls:
    """One roll by the code of its faces, for one round number: its points, its kind (0 plain, 1 Bunco,
    2 mini Bunco), whether it passes the dice; the codes' chances when the faces are loaded."""

    score: NDArray[np.int32]
    kind: NDArray[np.int8]
    passes: NDArray[np.int8]
    chances: NDArray[np.float64] | None


def _rolls(party: Party, number: int, weights: tuple[float, ...] | None) -> _Rolls:
    """Every tuple of faces (code ``sum (face_i - 1) * sides**i``) scored for ``number``."""
    import numpy as np

    dice = party.dice
    codes = np.arange(dice.ways)
    faces = np.stack([codes // dice.sides**i % dice.sides + 1 for i in range(dice.count)], axis=1)
    alike = (faces == faces[:, :1]).all(axis=1)
    matches = (faces == number).sum(axis=1)
    kind = np.where(alike, np.where(matches > 0, 1, 2), 0).astype(np.int8)
    score = score_rolls(faces, party.scoring, number).astype(np.int32)
    passes = ((score == 0) | ((kind == 1) & party.bunco_ends_turn)).astype(np.int8)
    chances = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64) / sum(weights)
        chances = w[faces - 1].prod(axis=1)
    return _Rolls(score, kind, passes, chances)


@dataclass(slots=True)
class _Round:
    """The nights still playing a round: teams' points, the seat rolling, each seat's points, Buncos and
    mini Buncos, which nights have not rung the bell, and ``cells``, the number of each (night, table)."""

    ids: Ints
    points: NDArray[np.int32]
    seat: NDArray[np.int8]
    tally: tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]
    live: NDArray[np.bool_]
    cells: Ints

    def keep(self, mask: NDArray[np.bool_]) -> None:
        import numpy as np

        self.ids, self.points, self.seat = self.ids[mask], self.points[mask], self.seat[mask]
        self.live = self.live[mask]
        self.tally = (self.tally[0][mask], self.tally[1][mask], self.tally[2][mask])
        self.cells = np.arange(self.seat.size).reshape(self.seat.shape)


@dataclass(frozen=True, slots=True)
class _RoundResult:
    rolls: Ints
    points: NDArray[np.int32]
    tally: NDArray[np.int32]


def _draw(rng: np.random.Generator, rolls: _Rolls, shape: tuple[int, int]) -> Ints:
    import numpy as np

    if rolls.chances is None:
        return rng.integers(0, rolls.score.size, size=shape, dtype=np.int32 if rolls.score.size > 255 else np.uint8)
    return rng.choice(rolls.score.size, size=shape, p=rolls.chances)


def _roll_tick(rng: np.random.Generator, party: Party, rolls: _Rolls, state: _Round) -> NDArray[np.bool_]:
    """Every table of every night still playing rolls once; the nights whose head table reached the target."""
    import numpy as np

    s = party.seats
    code = _draw(rng, rolls, state.seat.shape)
    score = rolls.score[code]
    team = state.cells * 2 + (state.seat & 1)
    points = state.points.reshape(-1)
    points[team] += score
    seat = state.cells * s + state.seat
    state.tally[0].reshape(-1)[seat] += score
    kind = rolls.kind[code]
    special = np.flatnonzero(kind)
    if special.size:
        which = seat.reshape(-1)[special]
        for k in (1, 2):
            state.tally[k].reshape(-1)[which[kind.reshape(-1)[special] == k]] += 1
    state.seat += rolls.passes[code]
    if s & (s - 1):
        state.seat %= s
    else:
        state.seat &= s - 1
    return state.live & (points[team[:, 0]] >= party.target)


def _play_round(rng: np.random.Generator, party: Party, rolls: _Rolls, nights: int) -> _RoundResult:
    """Roll every table of every night in step until each night's head table rings its bell (a night
    rung keeps rolling, unrecorded, until one in eight has rung: they are then dropped together)."""
    import numpy as np

    k, s = party.tables, party.seats
    state = _Round(np.arange(nights), np.zeros((nights, k, 2), np.int32), np.zeros((nights, k), np.int8),
                   tuple(np.zeros((nights, k, s), np.int32) for _ in range(3)),  # type: ignore[arg-type]
                   np.ones(nights, bool), np.arange(nights * k).reshape(nights, k))
    out = _RoundResult(np.zeros(nights, np.int64), np.zeros((nights, k, 2), np.int32),
                       np.zeros((nights, k, s, 3), np.int32))
    tick, finished = 0, 0
    while state.ids.size:
        tick += 1
        rung = _roll_tick(rng, party, rolls, state)
        if rung.any():
            at = state.ids[rung]
            out.rolls[at], out.points[at] = tick, state.points[rung]
            out.tally[at] = np.stack([part[rung] for part in state.tally], axis=-1)
            state.live &= ~rung
            finished += int(rung.sum())
            if 8 * finished >= state.ids.size:
                state.keep(state.live)
                finished = 0
    return out


def _winners(rng: np.random.Generator, points: NDArray[np.int32]) -> Ints:
    import numpy as np

    lead = points[..., 0] - points[..., 1]
    coin = rng.integers(0, 2, size=lead.shape)
    return np.where(lead > 0, 0, np.where(lead < 0, 1, coin))


def _moved(party: Party, seat_of: Ints, winner: Ints) -> Ints:
    """Where everyone sits next round: the head table's winners stay and its losers go to the foot, elsewhere
    winners go up; at each table those who stayed take the first seats, those who arrived the others."""
    import numpy as np

    if party.movement == "none":
        return seat_of
    k = party.tables
    won = np.where(winner[..., None] == 0, seat_of[:, :, 0::2], seat_of[:, :, 1::2])
    lost = np.where(winner[..., None] == 0, seat_of[:, :, 1::2], seat_of[:, :, 0::2])
    stay = [won[:, 0]] + [lost[:, t] for t in range(1, k)]
    arrive = [won[:, t + 1] for t in range(k - 1)] + [lost[:, 0]]
    return np.stack([np.concatenate((stay[t], arrive[t]), axis=1) for t in range(k)], axis=1)


@dataclass(frozen=True, slots=True)
class _Played:
    tallies: Ints
    wins: Ints
    rolls: Ints
    head: Ints
    lead: Ints


SheetRecorder = Callable[[int, "Ints", "Ints", "NDArray[np.int32]"], None]
"""Given each round (0-based) of the first night: where everyone sat (tables, seats), the winning team of
each table and each seat's (points, Buncos, mini Buncos)."""


def _play_nights(party: Party, nights: int, seed: int, weights: tuple[float, ...] | None,
                 record: SheetRecorder | None = None) -> _Played:
    """Every round of every night; ``tallies`` (nights, players, 3): points, Buncos, mini Buncos."""
    import numpy as np

    dice_rng, coin_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    n, k, s = nights, party.tables, party.seats
    seat_of = np.broadcast_to(np.arange(k * s).reshape(1, k, s), (n, k, s)).copy()
    tallies, wins = np.zeros((n, k * s, 3), np.int64), np.zeros((n, k * s), np.int64)
    numbers = round_numbers(party.rounds, party.dice.sides)
    rolls, head, lead = (np.zeros((n, len(numbers)), np.int64) for _ in range(3))
    lookups = {number: _rolls(party, number, weights) for number in set(numbers)}
    nights_index = np.arange(n)[:, None]
    for r, number in enumerate(numbers):
        result = _play_round(dice_rng, party, lookups[number], n)
        winner = _winners(coin_rng, result.points)
        flat = seat_of.reshape(n, k * s)
        tallies[nights_index, flat] += result.tally.reshape(n, k * s, 3)
        won = (np.arange(s)[None, None, :] & 1) == winner[..., None]
        wins[nights_index, flat] += won.reshape(n, k * s)
        rolls[:, r] = result.rolls
        head[:, r] = result.points[:, 0, 0] * _PAIR + result.points[:, 0, 1]
        if k > 1:
            lead[:, r] = result.points[:, 1, 0] - result.points[:, 1, 1]
        if record is not None:
            record(r, seat_of[0], winner[0], result.tally[0])
        seat_of = _moved(party, seat_of, winner)
    return _Played(tallies, wins, rolls, head, lead)


@cache
def exact_tables(dice: Dice, rules: ScoringRules, target: int, bunco_ends_turn: bool, *,
                 others: bool) -> tuple[HeadRace, OtherTable | None]:
    """The head table's race and, with ``others``, another table at its bell (once a process)."""
    race = head_race(dice, rules, target=target, bunco_ends_turn=bunco_ends_turn)
    return race, other_table(race) if others else None


_PAIR = 10_000
"""The head table's scores at the bell (a, b) are checked as the one number ``a * _PAIR + b``."""


def _ways(chances: dict[int, Fraction]) -> Dist[int]:
    d = math.lcm(*(p.denominator for p in chances.values()))
    return Dist({k: int(p * d) for k, p in sorted(chances.items()) if p})


def _checks(party: Party, race: HeadRace, table: OtherTable | None, played: _Played,
            alpha: Fraction) -> tuple[tuple[str, ChiSquare], ...]:
    """The rounds against the exact tables, each test at ``alpha`` over the number of tests."""
    import numpy as np

    first = race.first_team_wins
    rolls = np.minimum(played.rolls, race.horizon + 1)
    pairs = _ways({a * _PAIR + b: p for (a, b), p in race.bell_scores.items()})
    ringer = np.where(played.head // _PAIR >= party.target, 1, 2)
    tests = [("the team that rings the head table's bell (1 or 2)", ringer, _ways({1: first, 2: 1 - first})),
             (f"rolls until the bell (more than {race.horizon}: {race.horizon + 1})", rolls, race.rolls),
             (f"the head table's scores at the bell (team 1 * {_PAIR:,} + team 2)", played.head, pairs)]
    if table is not None:
        beyond = max(table.difference) + 1
        lead = np.where(played.rolls > race.horizon, beyond, played.lead)
        scale = table.difference.total / (1 - table.beyond_horizon)
        exact = Dist([*table.difference.items(), *([(beyond, int(scale - table.difference.total))]
                                                   if table.beyond_horizon else [])])
        tests.append((f"team 1's lead at table 2 when the bell rings (bell after roll {race.horizon}: {beyond})",
                      lead, exact))
    each = alpha / len(tests)
    return tuple((what, chi_square_test(observed_counts(seen), expected, alpha=each)) for what, seen, expected in tests)


_TALLY = {"most-points": 0, "most-buncos": 1, "most-mini-buncos": 2}


def _prizes(party: Party, played: _Played) -> tuple[PrizeOdds, ...]:
    out = []
    for award in party.prizes.awards:
        if award in _TALLY:
            values = played.tallies[:, :, _TALLY[award]]
        else:
            values = played.wins if award == "most-wins" else party.rounds - played.wins
        tied = (values == values.max(axis=1, keepdims=True)).sum(axis=1)
        out.append(PrizeOdds(award, chance(int((tied == 1).sum()), tied.size), mean(tied)))
    return tuple(out)


def simulate_nights(party: Party, *, nights: int, seed: int, alpha: Fraction = DEFAULT_ALPHA,
                    weights: tuple[float, ...] | None = None, record: SheetRecorder | None = None) -> Night:
    """Play ``nights`` nights of ``party`` (seeded) and check their rounds against the exact tables.

    ``weights``: each face's relative chance (loaded dice, for tests); ``record`` receives every round
    of the first night (:func:`sheet_writer`).
    """
    check_whole_number("the number of nights", nights, 1, MAX_NIGHTS)
    check_whole_number("the seed", seed, 0)
    if weights is not None and (len(weights) != party.dice.sides or min(weights) < 0 or not sum(weights)):
        raise BuncoError(f"weights must give each of the {party.dice.sides} faces a chance")
    race, table = exact_tables(party.dice, party.scoring, party.target, party.bunco_ends_turn, others=party.tables > 1)
    played = _play_nights(party, nights, seed, weights, record)
    per_night = played.tallies.sum(axis=1)
    means = night_means(party, race)
    wins = [mean((played.wins == w).mean(axis=1)) for w in range(party.rounds + 1)]
    return Night(party, nights, seed, race, table, _prizes(party, played), mean(per_night[:, 1], means.buncos),
                 mean(per_night[:, 2], means.minis), mean(played.tallies[:, :, 0].ravel(), means.points),
                 observed_counts(per_night[:, 1]), tuple(wins), _checks(party, race, table, played, alpha))


@dataclass(frozen=True, slots=True)
class NightMeans:
    """A night's expected Buncos and mini Buncos (all tables) and points per player, exactly."""

    buncos: Fraction
    minis: Fraction
    points: Fraction


def night_means(party: Party, race: HeadRace) -> NightMeans:
    """Exact means of a night: by Wald's identity it expects ``rounds * tables * E[T]`` rolls.

    >>> from exact_odds.bunco.party import COMMON_PARTY
    >>> race, _ = exact_tables(COMMON_PARTY.dice, COMMON_PARTY.scoring, 21, False, others=False)
    >>> round(float(night_means(COMMON_PARTY, race).buncos), 6)
    4.154979
    """
    rolled = party.rounds * party.tables * race.mean_rolls
    kinds = roll_outcomes(party.dice).map(lambda roll: roll.kind)
    mu = race.steps.expectation(lambda step: step[0])
    return NightMeans(rolled * kinds.probability("Bunco"), rolled * kinds.probability("mini Bunco"),
                      rolled * mu / party.players)


def sheet_writer(out: TextIO) -> SheetRecorder:
    """A recorder writing the first night to ``out`` as a tally sheet, players named ``P1``, ``P2``..."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("round", "table", "player", "wins", "losses", "buncos", "mini_buncos", "points"))

    def record(r: int, seat_of: Ints, winner: Ints, tally: NDArray[np.int32]) -> None:
        rows: list[tuple[int, ...]] = []
        for table, seats in enumerate(seat_of.tolist()):
            for seat, player in enumerate(seats):
                won = int(seat % 2 == int(winner[table]))
                points, buncos, minis = (int(v) for v in tally[table, seat])
                rows.append((player + 1, r + 1, table + 1, won, 1 - won, buncos, minis, points))
        writer.writerows((number, table, f"P{player}", *rest) for player, number, table, *rest in sorted(rows))

    return record
