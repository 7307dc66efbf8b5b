"""The head table's race and the other tables at its bell, against independent computations.

The oracles here read the rules literally: they roll actual faces (``itertools.product``), score them
by the words of the rules, seat four players in turn and keep their points; one solves the absorbing
chain by Gauss-Jordan elimination over Fractions, one walks every sequence of rolls up to a length,
and one moves another table roll by roll in a dictionary (the packed polynomials' slow twin).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

from exact_odds.bunco import STANDARD_SCORING, BuncoError, Dice, ScoringRules
from exact_odds.bunco.race import LEFTOVER, head_race, other_scores, other_table, roll_steps
from exact_odds.core.dist import Dist

SMALL = ScoringRules("small", bunco=3, mini=2, per_die=1)
COIN = ScoringRules("coin", bunco=2, mini=1, per_die=0)


def literal_rolls(dice: Dice, rules: ScoringRules, number: int = 1) -> dict[tuple[int, bool], int]:
    """(points, is a Bunco) -> ways, from every tuple of faces scored by the words of the rules."""
    out: dict[tuple[int, bool], int] = defaultdict(int)
    for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        alike = len(set(faces)) == 1
        if alike and faces[0] == number:
            out[(rules.bunco, True)] += 1
        elif alike:
            out[(rules.mini, False)] += 1
        else:
            out[(rules.per_die * faces.count(number), False)] += 1
    return dict(out)


def solve(equations: dict[object, dict[object, Fraction]], constants: dict[object, Fraction]) -> dict[object, Fraction]:
    """x = A x + c by Gauss-Jordan elimination over Fractions (A given row by row)."""
    names = list(equations)
    index = {n: i for i, n in enumerate(names)}
    size = len(names)
    rows = [[Fraction(0)] * (size + 1) for _ in names]
    for n, row in equations.items():
        r = rows[index[n]]
        r[index[n]] += 1
        for m, a in row.items():
            r[index[m]] -= a
        r[size] = constants.get(n, Fraction(0))
    for col in range(size):
        pivot = next(i for i in range(col, size) if rows[i][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for i in range(size):
            if i != col and rows[i][col]:
                f = rows[i][col]
                rows[i] = [v - f * w for v, w in zip(rows[i], rows[col], strict=True)]
    return {n: rows[index[n]][size] for n in names}


def seat_chain(dice: Dice, rules: ScoringRules, target: int, ends: bool) -> tuple[Fraction, Fraction]:
    """P(seats 1 and 3 win) and E[rolls], from the chain over (team points, seat 1..4) solved outright."""
    rolls = literal_rolls(dice, rules)
    total = dice.ways
    states = [(a, b, s) for a in range(target) for b in range(target) for s in range(4)]
    win: dict[object, dict[object, Fraction]] = {}
    won: dict[object, Fraction] = {}
    length: dict[object, Fraction] = {}
    for a, b, s in states:
        row: dict[object, Fraction] = defaultdict(Fraction)
        for (points, bunco), w in rolls.items():
            p = Fraction(w, total)
            a2, b2 = (a + points, b) if s % 2 == 0 else (a, b + points)
            if a2 >= target:
                won[(a, b, s)] = won.get((a, b, s), Fraction(0)) + p
            elif b2 < target:
                passes = points == 0 or (ends and bunco)
                row[(a2, b2, (s + 1) % 4 if passes else s)] += p
        win[(a, b, s)] = row
        length[(a, b, s)] = Fraction(1)
    return solve(win, won)[(0, 0, 0)], solve(win, length)[(0, 0, 0)]


@pytest.mark.parametrize(("dice", "rules", "target", "ends"), [
    (Dice(2, 3), SMALL, 4, False), (Dice(2, 3), SMALL, 5, True), (Dice(3, 6), STANDARD_SCORING, 3, False),
    (Dice(2, 2), COIN, 3, True), (Dice(3, 4), SMALL, 5, True),
])
def test_head_race_agrees_with_the_seat_chain_solved_outright(dice: Dice, rules: ScoringRules, target: int,
                                                              ends: bool) -> None:
    race = head_race(dice, rules, target=target, bunco_ends_turn=ends)
    wins, mean = seat_chain(dice, rules, target, ends)
    assert race.first_team_wins == wins
    assert race.mean_rolls == mean
    assert sum(race.bell_scores.values()) == 1


def walk(dice: Dice, rules: ScoringRules, target: int, ends: bool, depth: int) -> tuple[dict[int, int], dict[
        tuple[int, int], int]]:
    """Every sequence of up to ``depth`` rolls of actual faces: ways of the bell at each roll count, and of
    the scores at the bell (ways over ``ways**depth``)."""
    faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
    rolls_at: dict[int, int] = defaultdict(int)
    scores: dict[tuple[int, int], int] = defaultdict(int)

    def score(f: tuple[int, ...]) -> tuple[int, bool]:
        if len(set(f)) == 1:
            return (rules.bunco, True) if f[0] == 1 else (rules.mini, False)
        return rules.per_die * f.count(1), False

    def go(points: list[int], seat: int, t: int) -> None:
        for f in faces:
            x, bunco = score(f)
            after = points.copy()
            after[seat % 2] += x
            if max(after) >= target:
                rolls_at[t + 1] += dice.ways ** (depth - t - 1)
                scores[(after[0], after[1])] += dice.ways ** (depth - t - 1)
            elif t + 1 < depth:
                go(after, (seat + 1) % 4 if x == 0 or (ends and bunco) else seat, t + 1)

    go([0, 0], 0, 0)
    return dict(rolls_at), dict(scores)


@pytest.mark.parametrize(("dice", "rules", "target", "ends", "depth"), [
    (Dice(2, 2), COIN, 3, True, 9), (Dice(2, 3), SMALL, 3, False, 6), (Dice(1, 3), COIN, 2, False, 9),
])
def test_bell_rolls_and_scores_agree_with_every_sequence_of_rolls(dice: Dice, rules: ScoringRules, target: int,
                                                                  ends: bool, depth: int) -> None:
    race = head_race(dice, rules, target=target, bunco_ends_turn=ends)
    rolls_at, scores = walk(dice, rules, target, ends, depth)
    total = dice.ways ** depth
    for t in range(1, depth + 1):
        assert race.rolls.probability(t) == Fraction(rolls_at.get(t, 0), total)
    unfinished = 1 - Fraction(sum(rolls_at.values()), total)
    for pair, p in race.bell_scores.items():
        seen = Fraction(scores.get(pair, 0), total)
        assert seen <= p <= seen + unfinished


def slow_other_table(race: object) -> dict[int, Fraction]:
    """Team 1 minus team 2 at another table when the bell rings within the horizon, a dictionary a roll."""
    steps: Dist[tuple[int, bool]] = race.steps  # type: ignore[attr-defined]
    n: int = race.horizon  # type: ignore[attr-defined]
    live: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    out: dict[int, Fraction] = defaultdict(Fraction)
    for t in range(1, n + 1):
        new: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (d, team), p in live.items():
            for (x, passes), w in steps.items():
                new[(d + x if team == 0 else d - x, team ^ passes)] += p * Fraction(w, steps.total)
        live = new
        bell = race.rolls.probability(t)  # type: ignore[attr-defined]
        for (d, _), p in live.items():
            out[d] += bell * p
    return {d: p for d, p in sorted(out.items()) if p}


@pytest.mark.parametrize(("dice", "rules", "target", "ends"), [
    (Dice(2, 3), SMALL, 4, False), (Dice(2, 3), SMALL, 3, True), (Dice(2, 2), COIN, 2, True),
])
def test_other_table_agrees_with_a_dictionary_a_roll(dice: Dice, rules: ScoringRules, target: int,
                                                     ends: bool) -> None:
    race = head_race(dice, rules, target=target, bunco_ends_turn=ends)
    table = other_table(race)
    scale = 1 - race.beyond_horizon
    fast = {d: table.difference.probability(d) * scale for d in table.difference}
    assert fast == slow_other_table(race)
    assert table.first_team_ahead + table.tied + table.second_team_ahead + race.beyond_horizon == 1


def test_other_table_means_agree_with_the_dictionary() -> None:
    """The exact means (no horizon) lie within the horizon's remainder of the means over the dictionary."""
    race = head_race(Dice(2, 3), SMALL, target=3)
    table = other_table(race)
    difference = sum(d * p for d, p in slow_other_table(race).items())
    assert abs(table.mean_points[0] - table.mean_points[1] - difference) < Fraction(1, 10**6)


def test_the_roll_steps_say_who_passes() -> None:
    expected: Dist[tuple[int, bool]] = Dist({
        (0, True): 120, (1, False): 75, (2, False): 15, (5, False): 5, (21, False): 1})
    assert roll_steps(Dice(3, 6), STANDARD_SCORING) == expected


def test_rules_under_which_nothing_scores_are_refused() -> None:
    with pytest.raises(BuncoError, match="never ring"):
        head_race(Dice(3, 6), ScoringRules("none", 0, 0, 0))


def test_the_common_head_table() -> None:
    race = head_race(Dice(3, 6), STANDARD_SCORING)
    assert float(race.first_team_wins) == pytest.approx(0.517666103888285, abs=1e-15)
    assert float(race.mean_rolls) == pytest.approx(49.859753155848395, abs=1e-12)
    assert race.horizon == 174 and race.beyond_horizon < Fraction(1, 10**12)
    assert min(race.team_scores(1)) == 0 and max(race.team_scores(1)) == 41


def slow_other_scores(race: object) -> dict[tuple[int, int], Fraction]:
    """Both teams' points at another table when the bell rings within the horizon, a dictionary a roll."""
    steps: Dist[tuple[int, bool]] = race.steps  # type: ignore[attr-defined]
    n: int = race.horizon  # type: ignore[attr-defined]
    live: dict[tuple[int, int, int], Fraction] = {(0, 0, 0): Fraction(1)}
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for t in range(1, n + 1):
        new: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
        for (a, b, team), p in live.items():
            for (x, passes), w in steps.items():
                after = (a + x, b) if team == 0 else (a, b + x)
                new[(*after, team ^ passes)] += p * Fraction(w, steps.total)
        live = new
        bell = race.rolls.probability(t)  # type: ignore[attr-defined]
        for (a, b, _), p in live.items():
            out[(a, b)] += bell * p
    return {k: p for k, p in out.items() if p}


@pytest.mark.parametrize(("dice", "rules", "target", "ends"), [
    (Dice(2, 3), SMALL, 3, False), (Dice(2, 3), SMALL, 3, True), (Dice(2, 2), COIN, 2, True),
])
def test_other_scores_agree_with_a_dictionary_a_roll(dice: Dice, rules: ScoringRules, target: int,
                                                     ends: bool) -> None:
    race = head_race(dice, rules, target=target, bunco_ends_turn=ends)
    joint = other_scores(race)
    slow = slow_other_scores(race)
    inside = {k: p for k, p in slow.items() if max(k) <= joint.cap}
    assert {k: joint.scores.probability(k) for k in joint.scores if k is not LEFTOVER} == inside
    assert joint.leftover == 1 - sum(inside.values(), Fraction(0))
    assert race.beyond_horizon <= joint.leftover <= race.beyond_horizon + Fraction(1, 10**12)


@pytest.mark.parametrize(("dice", "rules", "target", "ends"), [
    (Dice(2, 3), SMALL, 4, False), (Dice(2, 3), SMALL, 3, True), (Dice(3, 3), SMALL, 5, False),
])
def test_the_lead_from_the_joint_scores_is_the_lead_less_the_leftover(dice: Dice, rules: ScoringRules,
                                                                      target: int, ends: bool) -> None:
    race = head_race(dice, rules, target=target, bunco_ends_turn=ends)
    joint, table = other_scores(race), other_table(race)
    scale = 1 - race.beyond_horizon
    lead = {d: table.difference.probability(d) * scale for d in table.difference}
    from_joint = joint.lead()
    assert all(p <= lead[d] for d, p in from_joint.items())
    assert sum(lead.values(), Fraction(0)) - sum(from_joint.values(), Fraction(0)) == \
        joint.leftover - race.beyond_horizon
    assert table.tied - joint.tied <= joint.leftover
    assert joint.first_team_ahead + joint.tied + joint.second_team_ahead + joint.leftover == 1


def walk_two_tables(dice: Dice, rules: ScoringRules, target: int, depth: int) -> dict[tuple[int, int], int]:
    """Every pair of sequences of up to ``depth`` rolls of actual faces, the head table's and another table's in
    step: ways of the other table's scores at the bell (over ``ways**(2 * depth)``)."""
    faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
    out: dict[tuple[int, int], int] = defaultdict(int)

    def score(f: tuple[int, ...]) -> int:
        if len(set(f)) == 1:
            return rules.bunco if f[0] == 1 else rules.mini
        return rules.per_die * f.count(1)

    def go(head: list[int], other: list[int], seats: tuple[int, int], t: int) -> None:
        for f, g in itertools.product(faces, faces):
            x, y = score(f), score(g)
            h, o = head.copy(), other.copy()
            h[seats[0] % 2] += x
            o[seats[1] % 2] += y
            after = ((seats[0] + 1) % 4 if x == 0 else seats[0], (seats[1] + 1) % 4 if y == 0 else seats[1])
            if max(h) >= target:
                out[(o[0], o[1])] += dice.ways ** (2 * (depth - t - 1))
            elif t + 1 < depth:
                go(h, o, after, t + 1)

    go([0, 0], [0, 0], (0, 0), 0)
    return dict(out)


def test_other_scores_agree_with_every_pair_of_sequences_of_rolls() -> None:
    dice, depth = Dice(2, 2), 4
    race = head_race(dice, COIN, target=2)
    joint = other_scores(race)
    seen = walk_two_tables(dice, COIN, 2, depth)
    total = dice.ways ** (2 * depth)
    unfinished = 1 - Fraction(sum(seen.values()), total)
    assert unfinished == 1 - sum((race.rolls.probability(t) for t in range(1, depth + 1)), Fraction(0))
    for pair, p in ((k, joint.scores.probability(k)) for k in joint.scores if k is not LEFTOVER):
        assert Fraction(seen.get(pair, 0), total) <= p <= Fraction(seen.get(pair, 0), total) + unfinished
    assert all(max(pair) > joint.cap or pair in joint.scores for pair in seen)
    assert len(seen) > 3 and unfinished < Fraction(1, 2)


def test_the_common_other_table_window_agrees_with_its_lead() -> None:
    """The joint window of the common party: its ties and leads never exceed the lead's, by the lumped rest."""
    race = head_race(Dice(3, 6), STANDARD_SCORING)
    table = other_table(race)
    scores = table.scores
    assert scores.cap == 41 and table.tied - scores.tied <= scores.leftover - race.beyond_horizon
    assert table.first_team_ahead - scores.first_team_ahead + table.tied - scores.tied + \
        table.second_team_ahead - scores.second_team_ahead == scores.leftover - race.beyond_horizon
