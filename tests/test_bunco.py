"""Bunco: every exact distribution against a brute-force enumeration, identities, simulation, CLI.

The oracles here are written from the printed rules, not from exact_odds.bunco: ``score_faces``
scores a tuple of faces; the game and the turn are played roll by roll over every sequence of
faces (itertools.product) of tiny configurations; the turn is also solved backwards (first-step
analysis) and through the fundamental matrix of its Markov chain.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import body, one_line_error
from conftest import run as run_cli
from hypothesis import example, given, settings
from hypothesis import strategies as st

import exact_odds.bunco as bunco_package
from exact_odds.bunco import (
    ARTICLE_SCORING,
    MAX_DICE,
    STANDARD_SCORING,
    BuncoError,
    Dice,
    Roll,
    ScoringRules,
    UnknownScoringError,
    analyse,
    chi_square_test,
    find_scoring_rules,
    play_game,
    play_turn,
    roll_outcomes,
    roll_scores,
    round_numbers,
    simulate,
    simulate_rolls,
)
from exact_odds.core.dist import Dist
from exact_odds.inputs.errors import InputError

CUSTOM = ScoringRules("custom", 1, 0, 2)
"""Odd points on purpose: a Bunco worth less than two matching dice, a mini Bunco worth nothing."""
RULE_SETS = (STANDARD_SCORING, ARTICLE_SCORING, CUSTOM)


# ---------------------------------------------------------------- oracles from the printed rules


def score_faces(faces: Sequence[int], round_number: int, rules: ScoringRules) -> int:
    """All dice the round number: Bunco; all alike otherwise: mini Bunco; else points per matching die."""
    if all(f == round_number for f in faces):
        return rules.bunco
    if len(set(faces)) == 1:
        return rules.mini
    return rules.per_die * sum(1 for f in faces if f == round_number)


def all_rolls(count: int, sides: int) -> Iterable[tuple[int, ...]]:
    return itertools.product(range(1, sides + 1), repeat=count)


def brute_roll(count: int, sides: int, round_number: int, rules: ScoringRules) -> Dist[int]:
    return Dist(Counter(score_faces(f, round_number, rules) for f in all_rolls(count, sides)))


def brute_game(count: int, sides: int, rounds: int, rules: ScoringRules) -> Dist[int]:
    """Every sequence of faces of a whole game, round r played with face (r-1) % sides + 1."""
    numbers = [(r % sides) + 1 for r in range(rounds)]
    totals: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count * rounds):
        rolls = [faces[i * count:(i + 1) * count] for i in range(rounds)]
        totals[sum(score_faces(roll, n, rules) for roll, n in zip(rolls, numbers, strict=True))] += 1
    return Dist(totals)


def play_turn_by_hand(rolls: Sequence[Sequence[int]], round_number: int, rules: ScoringRules,
                      target: int) -> tuple[int, int] | None:
    """(points, rolls used) of a turn played on these rolls; None if the rolls run out first."""
    points = 0
    for used, faces in enumerate(rolls, start=1):
        score = score_faces(faces, round_number, rules)
        if score == 0:
            return points, used
        points = min(points + score, target)
        if points >= target:
            return points, used
    return None


def brute_turn(count: int, sides: int, round_number: int, rules: ScoringRules, target: int,
               length: int) -> Dist[tuple[int, int]]:
    """Every sequence of ``length`` rolls (faces), each played as a turn; all must end within it."""
    out: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count * length):
        result = play_turn_by_hand([faces[i * count:(i + 1) * count] for i in range(length)], round_number,
                                   rules, target)
        assert result is not None, "the truncated enumeration was too short"
        out[result] += 1
    return Dist(out)


def first_step(scores: Dist[int], target: int) -> tuple[dict[int, Fraction], Fraction]:
    """Final points distribution and expected rolls of a turn, by backward recursion on the chain."""
    probs = {s: scores.probability(s) for s in scores}

    @cache
    def final(points: int) -> tuple[tuple[int, Fraction], ...]:
        out: dict[int, Fraction] = {}
        for s, p in probs.items():
            if s == 0 or points + s >= target:
                end = points if s == 0 else target
                out[end] = out.get(end, Fraction(0)) + p
            else:
                for end, q in final(points + s):
                    out[end] = out.get(end, Fraction(0)) + p * q
        return tuple(sorted(out.items()))

    @cache
    def rolls(points: int) -> Fraction:
        return 1 + sum((p * rolls(points + s) for s, p in probs.items() if s and points + s < target), Fraction(0))

    return dict(final(0)), rolls(0)


def fundamental_expected_rolls(scores: Dist[int], target: int) -> Fraction:
    """Expected rolls from 0 points: row sum of N = (I - Q)^-1 over the transient states 0..target-1."""
    n = target  # the transient states 0..target-1
    probs = {s: scores.probability(s) for s in scores}
    # I - Q, augmented with the all-ones vector; solve (I - Q) t = 1 by Gauss-Jordan elimination.
    rows = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(1)] for i in range(n)]
    for i in range(n):
        for s, p in probs.items():
            if s and i + s < target:
                rows[i][i + s] -= p
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return rows[0][n]


# ---------------------------------------------------------------- one roll


def test_bunco_is_one_in_216_for_three_six_sided_dice() -> None:
    dice = Dice(3, 6)
    for n in range(1, 7):
        scores = roll_scores(dice, STANDARD_SCORING, round_number=n)
        assert scores.total == 216
        assert scores.probability(21) == Fraction(1, 216)
        assert scores.probability(5) == Fraction(5, 216)
    alike = roll_outcomes(dice).probability(lambda r: r.alike)
    assert alike == Fraction(1, 36)  # the article's "about a 2.7% chance of all having the same value"
    assert roll_scores(dice, STANDARD_SCORING) == Dist({0: 120, 1: 75, 2: 15, 5: 5, 21: 1})


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize(("count", "sides"), [(c, s) for c in range(1, 5) for s in range(1, 7)])
def test_roll_matches_enumeration_of_every_roll(count: int, sides: int, rules: ScoringRules) -> None:
    dice = Dice(count, sides)
    for n in range(1, sides + 1):
        assert roll_scores(dice, rules, round_number=n) == brute_roll(count, sides, n, rules)


@settings(deadline=None, max_examples=60)
@given(count=st.integers(1, 5), sides=st.integers(1, 7), data=st.data(),
       points=st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 5)))
@example(count=3, sides=6, data=None, points=(21, 5, 1))
@example(count=5, sides=2, data=None, points=(0, 5, 1))  # a mini Bunco and five matches both score 5
def test_roll_property(count: int, sides: int, data: st.DataObject | None, points: tuple[int, int, int]) -> None:
    rules = ScoringRules("any", *points)
    n = 1 if data is None else data.draw(st.integers(1, sides))
    dice = Dice(count, sides)
    scores = roll_scores(dice, rules, round_number=n)
    assert scores == brute_roll(count, sides, n, rules)
    outcomes = roll_outcomes(dice, round_number=n)
    assert outcomes.total == sides**count
    assert outcomes[Roll(count, alike=True)] == 1
    assert outcomes[Roll(0, alike=True)] == sides - 1


def test_one_die_reads_the_rules_literally() -> None:
    # One die is "all alike": the round number is a Bunco, any other face a mini Bunco.
    assert roll_scores(Dice(1, 6), STANDARD_SCORING, round_number=4) == Dist({5: 5, 21: 1})


def test_outcome_descriptions() -> None:
    kinds = {r.describe() for r in roll_outcomes(Dice(3, 6))}
    assert kinds == {"Bunco", "mini Bunco", "no die shows the round number", "1 die shows the round number",
                     "2 dice show the round number"}


# ---------------------------------------------------------------- the game


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize(("count", "sides", "rounds"),
                         [(1, 3, 4), (2, 2, 3), (2, 3, 4), (3, 3, 2), (1, 2, 5), (3, 6, 2), (2, 1, 3), (4, 2, 2)])
def test_game_matches_enumeration_of_every_game(count: int, sides: int, rounds: int, rules: ScoringRules) -> None:
    game = play_game(Dice(count, sides), rules, rounds=rounds)
    assert game.totals == brute_game(count, sides, rounds, rules)
    assert game.totals.total == sides ** (count * rounds)


def test_rounds_cycle_through_the_faces() -> None:
    assert round_numbers(6, 6) == (1, 2, 3, 4, 5, 6)
    assert round_numbers(8, 6) == (1, 2, 3, 4, 5, 6, 1, 2)
    assert round_numbers(3, 2) == (1, 2, 1)
    assert play_game(Dice(3, 6), STANDARD_SCORING, rounds=8).round_numbers == (1, 2, 3, 4, 5, 6, 1, 2)


def class_level_game(rules: ScoringRules, rounds: int) -> Dist[int]:
    """3d6 game over the five roll classes (ways checked against faces above), enumerated round by round."""
    classes = [(0, 120), (1, 75), (2, 15), (rules.mini, 5), (rules.bunco, 1)]
    totals: Counter[int] = Counter()
    for seq in itertools.product(classes, repeat=rounds):
        totals[sum(s for s, _ in seq)] += math.prod(w for _, w in seq)
    return Dist(totals)


@pytest.mark.parametrize("rules", [STANDARD_SCORING, ARTICLE_SCORING], ids=lambda r: r.name)
def test_six_round_game_of_three_dice(rules: ScoringRules) -> None:
    game = play_game(Dice(3, 6), rules)
    assert game.totals == class_level_game(rules, 6)
    # P(total <= 3): no Bunco, no mini Bunco, at most 3 matching dice in all, over 6 plain rolls.
    low = sum(math.prod((120, 75, 15)[k] for k in ks) for ks in itertools.product(range(3), repeat=6) if sum(ks) <= 3)
    assert game.more_than(3) == 1 - Fraction(low, 216**6) == Fraction(10284191, 22674816)
    assert game.more_than(-1) == 1 and game.more_than(6 * rules.bunco) == 0


def test_article_claims() -> None:
    """The article's estimates beside the exact values (see docs/bunco.md)."""
    dice = Dice(3, 6)
    p_bunco = roll_scores(dice, STANDARD_SCORING).probability(21)
    assert p_bunco == Fraction(1, 216) and 1 / p_bunco == 216  # "a bit less than once out of every 200 rolls"
    assert Fraction(166, 1000) ** 3 < p_bunco  # the article's 0.166^3 = 0.00457 truncates 1/6 = 0.1666...
    standard, article = play_game(dice, STANDARD_SCORING), play_game(dice, ARTICLE_SCORING)
    assert standard.more_than(3) == article.more_than(3) < Fraction(1, 2)  # not "50% of the time"
    assert article.mean - standard.mean == Fraction(6 * 4, 216) == Fraction(1, 9)
    assert article.variance - standard.variance == 6 * (Fraction(25**2 - 21**2, 216)
                                                       - (Fraction(155, 216) ** 2 - Fraction(151, 216) ** 2))
    for k in range(21):  # 25 instead of 21 moves only the totals that include a Bunco
        assert standard.more_than(k) == article.more_than(k)
    assert standard.more_than(21) < article.more_than(21)


@settings(deadline=None, max_examples=40)
@given(count=st.integers(1, 4), sides=st.integers(1, 6), rounds=st.integers(1, 8),
       points=st.tuples(st.integers(0, 25), st.integers(0, 25), st.integers(0, 3)))
@example(count=3, sides=6, rounds=6, points=(21, 5, 1))
def test_game_mean_and_variance_add_over_rounds(count: int, sides: int, rounds: int,
                                                points: tuple[int, int, int]) -> None:
    rules = ScoringRules("any", *points)
    dice = Dice(count, sides)
    game = play_game(dice, rules, rounds=rounds)
    roll = roll_scores(dice, rules)
    mean = roll.expectation(lambda x: x)
    variance = roll.expectation(lambda x: x * x) - mean**2
    assert game.mean == rounds * mean and game.variance == rounds * variance
    assert sum(game.totals.probability(t) for t in game.totals) == 1
    assert list(game.totals) == sorted(game.totals)
    assert game.survival() == {t: game.more_than(t) for t in game.totals}


# ---------------------------------------------------------------- a turn at the table


@pytest.mark.parametrize(("count", "sides", "round_number", "rules", "target"), [
    (2, 2, 1, STANDARD_SCORING, 3),
    (2, 2, 2, CUSTOM, 4),
    (2, 3, 2, STANDARD_SCORING, 4),
    (3, 2, 1, STANDARD_SCORING, 4),
    (1, 3, 3, CUSTOM, 5),
    (1, 2, 1, ScoringRules("t", 2, 1, 1), 6),
    (3, 6, 4, STANDARD_SCORING, 2),
    (2, 3, 1, ScoringRules("zero", 0, 0, 0), 21),
    (1, 1, 1, STANDARD_SCORING, 21),
])
def test_turn_matches_truncated_enumeration(count: int, sides: int, round_number: int, rules: ScoringRules,
                                            target: int) -> None:
    turn = play_turn(Dice(count, sides), rules, round_number=round_number, target=target)
    assert turn.outcomes == brute_turn(count, sides, round_number, rules, target, turn.max_rolls)
    assert turn.outcomes.total == sides ** (count * turn.max_rolls)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize(("count", "sides", "target"), [(3, 6, 21), (2, 4, 10), (5, 3, 21), (1, 6, 7)])
def test_turn_matches_backward_recursion_and_fundamental_matrix(count: int, sides: int, target: int,
                                                                rules: ScoringRules) -> None:
    turn = play_turn(Dice(count, sides), rules, target=target)
    final, expected_rolls = first_step(roll_scores(Dice(count, sides), rules), target)
    assert {p: turn.points.probability(p) for p in turn.points} == final
    assert turn.expected_rolls == expected_rolls == fundamental_expected_rolls(roll_scores(Dice(count, sides),
                                                                                           rules), target)
    assert sum(turn.points.probability(p) for p in turn.points) == 1
    assert sum(turn.rolls.probability(n) for n in turn.rolls) == 1
    # E[rolls] = sum over k >= 1 of P(rolls >= k)
    assert turn.expected_rolls == sum((turn.rolls.probability(lambda n, k=k: n >= k)  # type: ignore[misc]
                                       for k in range(1, turn.max_rolls + 1)), Fraction(0))
    assert turn.reach_probability == turn.points.probability(target)
    assert turn.expected_points == turn.points.expectation(lambda p: p)


def test_standard_turn_figures() -> None:
    turn = play_turn(Dice(3, 6), STANDARD_SCORING)
    assert turn.max_rolls == 21 and turn.outcomes.total == 216**21
    assert turn.points.probability(0) == Fraction(5, 9)  # the first roll scores nothing
    assert turn.rolls.probability(1) == Fraction(121, 216)  # nothing, or a Bunco straight away
    # A turn reaches 21 with a Bunco on the first roll or later, or by adding up points.
    assert Fraction(1, 216) < turn.reach_probability < Fraction(1, 100)
    assert float(turn.reach_probability) == pytest.approx(0.00829146145863325, rel=1e-15)
    assert float(turn.expected_rolls) == pytest.approx(1.78507536937446, rel=1e-15)
    # Points only grow while the turn goes on: the longest turn is 20 one-point rolls and then any
    # scoring roll (96 of 216); every roll is used, so no padding.
    assert turn.outcomes[(21, 21)] == 75**20 * 96
    # A Bunco worth 25 is capped at 21: the turn does not change.
    assert play_turn(Dice(3, 6), ARTICLE_SCORING).outcomes == turn.outcomes


def test_turn_rolls_are_bounded_by_the_least_positive_score() -> None:
    assert play_turn(Dice(3, 6), ScoringRules("x", 21, 5, 3)).max_rolls == 7
    assert play_turn(Dice(3, 6), ScoringRules("x", 0, 0, 0)).max_rolls == 1


# ---------------------------------------------------------------- registry and bad input


def test_scoring_registry() -> None:
    assert find_scoring_rules("standard") is STANDARD_SCORING and find_scoring_rules(" Article ") is ARTICLE_SCORING
    assert (ARTICLE_SCORING.bunco, ARTICLE_SCORING.mini, ARTICLE_SCORING.per_die) == (25, 5, 1)
    with pytest.raises(UnknownScoringError, match="choose from standard, article"):
        find_scoring_rules("yahtzee")
    custom = STANDARD_SCORING.with_points(bunco=30)
    assert custom.name == "custom" and custom.bunco == 30 and custom.mini == 5
    assert STANDARD_SCORING.with_points(bunco=21) is STANDARD_SCORING
    assert "Bunco 21, mini Bunco 5, 1 point per die" in str(STANDARD_SCORING)


@pytest.mark.parametrize("build", [
    lambda: Dice(0, 6),
    lambda: Dice(3, 0),
    lambda: Dice(MAX_DICE + 1, 6),
    lambda: Dice(2.0, 6),  # type: ignore[arg-type]
    lambda: Dice(True, 6),
    lambda: ScoringRules("x", -1, 5, 1),
    lambda: ScoringRules("x", 21, -5, 1),
    lambda: ScoringRules("x", 21, 5, -1),
    lambda: ScoringRules("x", 21, 5.5, 1),  # type: ignore[arg-type]
    lambda: roll_scores(Dice(3, 6), STANDARD_SCORING, round_number=7),
    lambda: roll_scores(Dice(3, 6), STANDARD_SCORING, round_number=0),
    lambda: play_game(Dice(3, 6), STANDARD_SCORING, rounds=0),
    lambda: play_turn(Dice(3, 6), STANDARD_SCORING, target=0),
])
def test_bad_input_raises_one_line_input_errors(build: object) -> None:
    with pytest.raises(BuncoError) as info:
        build()  # type: ignore[operator]
    assert isinstance(info.value, InputError) and "\n" not in str(info.value)


def test_a_game_too_big_to_list_is_refused_not_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("exact_odds.bunco.dice.MAX_GAME_WORK", 2_000)
    assert len(play_game(Dice(3, 6), STANDARD_SCORING, rounds=6).totals) == 89
    with pytest.raises(BuncoError, match="too many distinct totals"):
        play_game(Dice(3, 6), STANDARD_SCORING, rounds=12)


def test_bunco_knows_nothing_of_cards() -> None:
    """Outside itself, Bunco imports only the vocabulary that has no cards in it (integer ways, the
    chi-square tail, verdicts, the notebook display: exact_odds.core.dist, stats, verdict, notebook) and
    the reading and checking of user input (exact_odds.inputs); the verdicts import only the chi-square
    tail. The import contract in pyproject.toml says the same; this test names the modules."""
    def used(sources: str) -> set[str]:
        return set(re.findall(r"^\s*(?:from|import) exact_odds\.([\w.]+)", sources, flags=re.MULTILINE))

    package = Path(bunco_package.__file__).parent
    sources = "\n".join(m.read_text(encoding="utf-8") for m in package.glob("*.py"))
    assert "from exact_odds import" not in sources
    outside = {name for name in used(sources) if not name.startswith("bunco")}
    cardless = {"core.dist", "core.stats", "core.verdict", "core.notebook"}
    assert {name for name in outside if not name.startswith("inputs.")} <= cardless
    assert {"core.dist", "core.verdict", "inputs.errors"} <= outside
    verdict = (package.parent / "core" / "verdict.py").read_text(encoding="utf-8")
    assert used(verdict) == {"core.stats"}


# ---------------------------------------------------------------- chi-square and the simulation


def test_chi_square_test_pools_small_bins() -> None:
    expected = Dist({0: 120, 1: 75, 2: 15, 5: 5, 21: 1})
    observed = Dist({0: 560, 1: 340, 2: 75, 5: 20, 21: 5})
    test = chi_square_test(observed, expected, alpha=Fraction(1, 100))
    assert [(b.low, b.high) for b in test.bins] == [(0, 0), (1, 1), (2, 2), (5, 21)]
    assert all(b.expected >= 5 for b in test.bins) and sum(b.observed for b in test.bins) == 1000
    manual = sum(((o - e) ** 2 / e for o, e in [(560, Fraction(120000, 216)), (340, Fraction(75000, 216)),
                                                 (75, Fraction(15000, 216)), (25, Fraction(6000, 216))]),
                 Fraction(0))
    assert test.statistic == manual and test.df == 3 and test.passed


def test_chi_square_test_fails_on_impossible_or_wrong_counts() -> None:
    expected = Dist({0: 1, 1: 1})
    assert not chi_square_test(Dist({0: 50, 1: 49, 7: 1}), expected).passed
    assert not chi_square_test(Dist({0: 800, 1: 200}), expected).passed
    single = chi_square_test(Dist({0: 3}), expected)
    assert single.df == 0 and single.passed


def test_simulation_is_a_faithful_seeded_witness() -> None:
    analysis = analyse(Dice(3, 6), STANDARD_SCORING, round_number=2)
    a = simulate(analysis, trials=20_000, seed=7)
    b = simulate(analysis, trials=20_000, seed=7)
    assert a == b and a.passed
    assert all(t.trials == 20_000 for t in (a.roll, a.game, a.turn))
    assert simulate(analysis, trials=20_000, seed=8).roll != a.roll


def test_simulation_catches_a_wrong_rule() -> None:
    rolled = simulate_rolls(Dice(3, 6), ARTICLE_SCORING, round_number=1, trials=5_000, rng=np.random.default_rng(1))
    assert not chi_square_test(rolled, roll_scores(Dice(3, 6), STANDARD_SCORING)).passed  # 25 is impossible at 21
    lopsided = Dist({0: 100, 1: 100, 2: 15, 5: 5, 21: 1})
    assert not chi_square_test(simulate_rolls(Dice(3, 6), STANDARD_SCORING, round_number=3, trials=20_000,
                                              rng=np.random.default_rng(2)), lopsided).passed


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The ``bunco`` command on ``argv``: exit status, stdout, stderr."""
    return run_cli(capsys, "bunco", *argv)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--format", "json", "--more-than", "3", "--more-than", "10")
    data = json.loads(out)
    assert code == 0
    assert data["roll"] == {"0": "5/9", "1": "25/72", "2": "5/72", "5": "5/216", "21": "1/216"}
    game = data["game"]
    assert game["rounds"] == 6 and game["mean"] == "151/36" and game["variance"] == "128615/7776"
    assert game["more_than"]["3"] == "10284191/22674816"
    assert sum(Fraction(p) for p in game["distribution"].values()) == 1
    assert data["turn"]["reach_probability"] == str(play_turn(Dice(3, 6), STANDARD_SCORING).reach_probability)
    assert sum(Fraction(p) for p in data["turn"]["distribution"].values()) == 1


def test_cli_points_and_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    article = json.loads(run(capsys, "--scoring", "article", "--format", "json")[1])
    custom = json.loads(run(capsys, "--bunco-points", "25", "--format", "json")[1])
    assert article["roll"]["25"] == "1/216" and article["game"]["mean"] == "155/36"
    assert custom["scoring"] == {"name": "custom", "bunco": 25, "mini": 5, "per_die": 1}
    assert custom["game"] == article["game"] and custom["turn"] == article["turn"]


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex"])
def test_cli_formats(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "--format", fmt)
    assert code == 0 and "1/216" in out and "10284191/22674816" in out


def test_cli_simulation_is_byte_identical_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "--simulate", "5000", "--seed", "11")
    second = run(capsys, "--simulate", "5000", "--seed", "11")
    assert first == second and first[0] == 0
    assert "5,000 rolls (seed 11)" in first[1] and "PASS at significance level 0.001" in first[1]


def test_cli_simulation_verdict_sets_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--simulate", "2000", "--seed", "3", "--alpha", "0.999", "--format", "json")
    sim = json.loads(out)["simulation"]
    verdicts = [sim[part]["verdict"] for part in ("roll", "game", "turn")]
    assert "FAIL" in verdicts and code == 1
    assert all((sim[p]["p_value"] >= 0.999) == (sim[p]["verdict"] == "PASS") for p in ("roll", "game", "turn"))


@pytest.mark.parametrize("argv", [
    ["--dice", "0"],
    ["--sides", "0"],
    ["--round", "7"],
    ["--sides", "4", "--round", "5"],
    ["--bunco-points", "-1"],
    ["--mini-points", "-5"],
    ["--point-per-die", "-2"],
    ["--rounds", "0"],
    ["--target", "0"],
    ["--scoring", "yahtzee"],
    ["--dice", "three"],
    ["--seed", "3"],
    ["--simulate", "0"],
    ["--simulate", "10", "--seed", "-1"],
    ["--simulate", "10", "--alpha", "1.5"],
    ["--simulate", "10", "--alpha", "x"],
])
def test_cli_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err), err


@pytest.mark.parametrize("dice", ["21", "100", "1000"])
def test_too_many_dice_say_the_one_limit(capsys: pytest.CaptureFixture[str], dice: str) -> None:
    """One bound in every message: 100 dice were refused as 'at most 20', 1,000 as 'from 1 to 100'."""
    assert one_line_error(*run(capsys, "--dice", dice), f"--dice must be a whole number from 1 to 20, got '{dice}'")


# ---------------------------------------------------------------- bunco --verify: logs of rolls written here
# The logs are written by this test with Python's own random module and the oracle score_faces,
# not by the package's simulator, so a PASS is not the package agreeing with itself.


def rolls_log(seed: int, games: int, *, count: int = 3, sides: int = 6, rounds: int = 6,
              weights: Sequence[float] | None = None, copy_first: float = 0.0,
              rules: ScoringRules = STANDARD_SCORING) -> str:
    """CSV text of ``games`` games of ``rounds`` rounds: ``game,round,dice,score``.

    ``weights``: the faces' weights (a biased die; fair by default); ``copy_first``: the chance that
    a roll's dice all copy its first die (a generator whose dice are not independent)."""
    import random

    rng = random.Random(seed)
    lines = ["game,round,dice,score"]
    for game in range(1, games + 1):
        for number in range(1, rounds + 1):
            faces = rng.choices(range(1, sides + 1), weights=weights, k=count)
            if copy_first and rng.random() < copy_first:
                faces = [faces[0]] * count
            score = score_faces(faces, (number - 1) % sides + 1, rules)
            lines.append(f"{game},{number},{' '.join(map(str, faces))},{score}")
    return "\n".join(lines) + "\n"


THREE_D6 = Dice(3, 6)


def verified(text: str, *, dice: Dice = THREE_D6, rules: ScoringRules = STANDARD_SCORING,
             alpha: float = 0.001) -> bunco_package.RollVerification:
    return bunco_package.verify_rolls(bunco_package.read_rolls(text.splitlines(), dice), dice, rules, alpha=alpha)


def test_honest_logs_pass_at_most_once_in_twenty() -> None:
    results = [verified(rolls_log(seed, 500)) for seed in range(20)]
    assert all(r.check("labels").verdict == "PASS" and r.rolls == 3000 for r in results)
    assert sum(r.verdict == "FAIL" for r in results) <= 1, [[(c.name, c.p_value) for c in r.checks] for r in results]


def test_honest_p_values_are_not_piled_up_at_either_end() -> None:
    p = [verified(rolls_log(100 + seed, 200)).check("scores").p_value for seed in range(40)]
    assert all(x is not None for x in p)
    assert sum(1 for x in p if x is not None and x < 0.1) <= 12 and sum(1 for x in p if x is not None and x > 0.9) <= 12


def test_a_biased_die_fails_the_faces_check() -> None:
    result = verified(rolls_log(7, 2000, weights=[1, 1, 1, 1, 1, 1.25]))  # a six 1 time in 5, not 1 in 6
    faces = result.check("faces")
    assert result.verdict == "FAIL" and faces.verdict == "FAIL" and faces.p_value is not None
    assert faces.p_value < 1e-6 and faces.tallies[5].z > 5
    assert result.check("labels").verdict == "PASS"
    with pytest.raises(KeyError, match="no check 'rules'; checks: labels, faces, scores, buncos"):
        result.check("rules")


def test_dice_that_are_not_independent_fail_the_buncos_check() -> None:
    result = verified(rolls_log(8, 1000, copy_first=0.02))  # 2% of rolls: every die copies the first
    buncos = result.check("buncos")
    bunco, mini = buncos.tallies
    assert buncos.verdict == "FAIL" and mini.observed > 1.5 * mini.expected and bunco.observed > bunco.expected
    assert result.check("faces").verdict == "PASS"  # every face still comes up 1 time in 6


def test_wrong_scores_fail_the_labels_check_naming_the_rolls() -> None:
    text = rolls_log(9, 300, rules=ARTICLE_SCORING)  # the article's script: a Bunco scores 25
    lines = text.splitlines()
    buncos = [i + 1 for i, line in enumerate(lines[1:], 1) if line.endswith(",25")]
    assert buncos
    result = verified(text)  # judged under the standard rules: Bunco 21
    labels = result.check("labels")
    assert labels.verdict == "FAIL" and labels.violation_count == len(buncos)
    assert [v.line for v in labels.violations] == buncos[:10]
    first = labels.violations[0]
    assert first.line is not None
    _, number, faces, _ = lines[first.line - 1].split(",")
    assert first.message == (f"roll {first.coup}: score is 25 in the log; the dice {faces} in round {number} "
                             f"(playing for {faces.split()[0]}s) score 21: a Bunco")
    assert verified(text, rules=ARTICLE_SCORING).check("labels").verdict == "PASS"


def test_a_log_s_rounds_cycle_through_the_faces() -> None:
    """Round 7 of six-sided dice plays for 1s again: the scores follow the cycle."""
    text = "round,dice,score\n1,1 1 1,21\n7,1 1 1,21\n8,2 2 5,2\n"
    assert verified(text).check("labels").violation_count == 0
    bad = verified("round,dice,score\n7,1 1 1,5\n").check("labels").violations[0].message
    assert bad == "roll 1: score is 5 in the log; the dice 1 1 1 in round 7 (playing for 1s) score 21: a Bunco"


def test_a_log_in_json_lines_reads_as_the_csv() -> None:
    text = rolls_log(11, 10)
    rows = [line.split(",") for line in text.splitlines()[1:]]
    jsonl = [json.dumps({"game": int(g), "round": int(r), "dice": [int(f) for f in d.split()], "score": int(s)})
             for g, r, d, s in rows]
    a, b = bunco_package.read_rolls(text.splitlines(), Dice(3, 6)), bunco_package.read_rolls(jsonl, Dice(3, 6))
    assert a.faces.tolist() == b.faces.tolist() and a.rounds.tolist() == b.rounds.tolist()
    assert a.scores is not None and b.scores is not None and a.scores.tolist() == b.scores.tolist()


BAD_LOGS = [
    ("round,dice\n1,1 2 3\n2,1 2\n", "line 3: column 'dice': 2 dice; the game rolls 3"),
    ("round,dice\n1,1 2 7\n", "line 2: column 'dice': 7 is not a face of 3d6 (1 to 6)"),
    ("round,dice\n1,1 x 3\n", "line 2: column 'dice': 'x' is not a face of 3d6 (1 to 6)"),
    ("round,dice\n0,1 2 3\n", "line 2: column 'round': 0 is not a round (1, 2, 3, ...)"),
    ("round,dice,score\n1,1 2 3,-1\n", "line 2: column 'score': -1 is not a score"),
    ("round,dice\n1,\n", "line 2: column 'dice' is empty"),
    ("round,dice\n1,1 2 3,9\n", "line 2: 3 fields, but the header has 2"),
    ("dice\n1 2 3\n", "line 1: the log has no 'round' column"),
    ("round,dice\n", "the log holds no rolls"),
    ('{"round": 1, "dice": [1, 2, 3]}\n{"round": 2, "dice": \n', "line 2: not valid JSON: Expecting value"),
    ('{"round": 1, "dice": [1, 2, 3]}\n\n"2 2 2"\n',
     "line 3: a JSON line must be an object with keys round, dice, ..."),
    ('{"round": 1, "dice": [1, 2, 3]}\n{"Round": 1, "round": 2, "dice": [1, 2, 3]}\n',
     "line 2: key 'round' is given twice"),
]


@pytest.mark.parametrize(("text", "message"), BAD_LOGS, ids=[m for _, m in BAD_LOGS])
def test_cli_verify_a_bad_line_is_one_error_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      text: str, message: str) -> None:
    path = tmp_path / "rolls.csv"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "--verify", str(path))
    assert one_line_error(code, out, err, message), err


def test_cli_verify_exit_status_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, biased = tmp_path / "good.csv", tmp_path / "biased.csv"
    good.write_text(rolls_log(12, 300), encoding="utf-8")
    biased.write_text(rolls_log(12, 2000, weights=[1.3, 1, 1, 1, 1, 1]), encoding="utf-8")
    code, out, _ = run(capsys, "--verify", str(good))
    assert code == 0 and body(out).startswith("Verification: PASS") and "1,800 rolls of 3d6" in out
    code, out, _ = run(capsys, "--verify", str(biased), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "FAIL" and data["checks"]["faces"]["verdict"] == "FAIL"
    assert list(data["checks"]) == ["labels", "faces", "scores", "buncos"]
    assert set(data["faces"]) == {"1", "2", "3", "4", "5", "6"} and data["log"]["rolls"] == 12_000
    code, _, err = run(capsys, "--verify", str(good), "--simulate", "10")
    assert code == 2 and "without --simulate" in err


def test_cli_simulate_log_is_read_back_by_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rolls.csv"
    code, _, _ = run(capsys, "--simulate", "3000", "--seed", "5", "--rounds", "8", "--log", str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert code == 0 and lines[0] == "game,round,dice,score" and len(lines) == 1 + 3000 * 8
    assert lines[8].startswith("1,8,") and lines[9].startswith("2,1,")  # round 8 of six-sided dice plays for 2s
    code, out, _ = run(capsys, "--verify", str(path))
    assert code == 0 and "24,000 rolls of 3d6" in out and "labels   PASS" in out
    assert [p.name for p in tmp_path.iterdir()] == ["rolls.csv"]
