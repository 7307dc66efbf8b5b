"""Bunco's classes are frozen dataclasses: they behave as the plain dataclasses the tests define again
as the oracle (equality, hash, ``repr``, ordering, pickling), ``source`` of the scoring rules aside."""

from __future__ import annotations

import itertools
import operator
import pickle
from dataclasses import dataclass, field

import pytest

from exact_odds.bunco import (
    ARTICLE_SCORING,
    STANDARD_SCORING,
    BuncoError,
    Dice,
    Roll,
    ScoringRules,
    analyse,
    roll_outcomes,
)


@dataclass(frozen=True, order=True)
class RollOracle:
    """:class:`Roll` as a dataclass: ordered as the pairs ``(matches, alike)``."""

    matches: int
    alike: bool


@dataclass(frozen=True)
class RulesOracle:
    """:class:`ScoringRules` as a dataclass: ``source`` shown but neither compared nor hashed."""

    name: str
    bunco: int
    mini: int
    per_die: int
    source: str = field(default="", compare=False)


ROLLS = [(matches, alike) for matches in range(4) for alike in (False, True)]
COMPARISONS = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)


@pytest.mark.parametrize(("one", "other"), list(itertools.product(ROLLS, repeat=2)))
def test_rolls_compare_as_the_dataclass_did(one: tuple[int, bool], other: tuple[int, bool]) -> None:
    for compare in COMPARISONS:
        assert compare(Roll(*one), Roll(*other)) == compare(RollOracle(*one), RollOracle(*other)), compare
    assert (hash(Roll(*one)) == hash(Roll(*other))) == (one == other)
    assert repr(Roll(*one)) == repr(RollOracle(*one)).replace("RollOracle", "Roll")


def test_a_roll_is_ordered_against_rolls_only() -> None:
    assert Roll(0, alike=True) != (0, True)  # type: ignore[comparison-overlap]
    for compare in COMPARISONS[:4]:
        with pytest.raises(TypeError, match="not supported between instances of 'Roll' and 'tuple'"):
            compare(Roll(0, alike=True), (0, True))
    assert list(roll_outcomes(Dice(3, 6))) == sorted(roll_outcomes(Dice(3, 6)), key=lambda r: (r.matches, r.alike))


@pytest.mark.parametrize(("one", "other"), [
    (("standard", 21, 5, 1, "one book"), ("standard", 21, 5, 1, "another")),
    (("standard", 21, 5, 1, ""), ("standard", 21, 5, 2, "")),
    (("standard", 21, 5, 1, "same"), ("custom", 21, 5, 1, "same")),
    (("x", 0, 0, 0, ""), ("x", 0, 0, 0, "")),
])
def test_scoring_rules_ignore_their_source_as_the_dataclass_did(one: tuple[str, int, int, int, str],
                                                                other: tuple[str, int, int, int, str]) -> None:
    assert (ScoringRules(*one) == ScoringRules(*other)) == (RulesOracle(*one) == RulesOracle(*other))
    assert (ScoringRules(*one) != ScoringRules(*other)) == (RulesOracle(*one) != RulesOracle(*other))
    assert hash(ScoringRules(*one)) == hash(RulesOracle(*one))
    assert repr(ScoringRules(*one)) == repr(RulesOracle(*one)).replace("RulesOracle", "ScoringRules")


def test_changed_points_keep_or_rename_the_rules() -> None:
    assert STANDARD_SCORING.with_points(mini=5, per_die=1) is STANDARD_SCORING
    custom = ARTICLE_SCORING.with_points(per_die=2)
    assert repr(custom) == ("ScoringRules(name='custom', bunco=25, mini=5, per_die=2, "
                            "source='article rules with points given by the user')")
    with pytest.raises(BuncoError, match="points per die must be at least 0"):
        STANDARD_SCORING.with_points(per_die=-1)


def test_values_pickle_whole_and_stay_immutable() -> None:
    analysis = analyse(Dice(2, 4), ARTICLE_SCORING, round_number=2, rounds=3, target=5, more_than=(1, 4))
    for value in (Dice(), Roll(2, alike=False), STANDARD_SCORING, analysis.game, analysis.turn, analysis):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and hash(copy) == hash(value) and repr(copy) == repr(value)
    assert pickle.loads(pickle.dumps(STANDARD_SCORING)).source == STANDARD_SCORING.source
    assert Dice() == Dice(count=3, sides=6)
    with pytest.raises(AttributeError, match="cannot assign to field 'count'"):
        Dice().count = 4  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot assign to field 'source'"):
        STANDARD_SCORING.source = "mine"  # type: ignore[misc]
