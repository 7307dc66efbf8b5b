"""Counts of one's own and edge sorting over dealt shoes: brute force on tiny shoes, identities,
determinism, the command line, and a published count reproduced within its confidence intervals.
Edge sorting alone against brute force is in ``tests/test_study_edge_sorting.py``.

The published-count test deals ``EXACT_ODDS_PUBLISHED_SHOES`` shoes (default 2,000, a few
seconds); the full check of docs/study.md deals 100,000 or more with two workers (about a minute
and a half): ``EXACT_ODDS_PUBLISHED_SHOES=100000 pytest tests/test_study_counting.py -k published``.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.analysis.information import Information
from exact_odds.analysis.removal import effects_of_removal
from exact_odds.bets import find_bet
from exact_odds.core.coup import coup_table
from exact_odds.core.shoe import Shoe
from exact_odds.core.stats import Z95
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.dealing.procedure import Procedure, shoe_card_codes
from exact_odds.study.counting import PUBLISHED_COUNTS, Count, CountError, count_correlation, find_count
from exact_odds.study.run import CoupRecords, Study, StudyError, run_study
from exact_odds.study.tasks import deal_shoes
from exact_odds.witness.simulate import simulate

MAIN = [find_bet(n) for n in ("banker", "player", "tie")]
HIGH = Information.grouped([1], {"high": "6|7|8|9"})
DRAGON = PUBLISHED_COUNTS["jacobson-dragon-7"]
PANDA = PUBLISHED_COUNTS["wizard-panda-8"]

# ---------------------------------------------------------------- count specs


def test_count_specs_read_and_write_back() -> None:
    count = Count.parse("4|5|6|7=-1, 8|9=+2 bet=dragon-7 tc>=4 name=mine")
    assert count.tags == DRAGON.tags and count.trigger == 4 and count.name == "mine"
    assert Count.parse(count.spec()).tags == count.tags
    assert Count.parse("A=1, bet=tie, tc>=-3/2").trigger == Fraction(-3, 2)
    assert Count.parse("10|K=-1, bet=tie, tc>=0.5").tags[9:] == (-1, 0, 0, -1)  # 10 is T
    assert find_count("Jacobson-Dragon-7") is DRAGON
    assert find_count("2=1, bet=banker, tc>=1").bet == "banker"
    assert DRAGON.balance() == PANDA.balance() == 0


@pytest.mark.parametrize(("spec", "message"), [
    ("4=-1, tc>=4", "needs bet="),
    ("4=-1, bet=dragon-7", "needs a trigger"),
    ("4=-1, 4=+1, bet=tie, tc>=1", "tagged twice"),
    ("T|10=-1, bet=tie, tc>=1", "tagged twice"),
    ("4=1, bet=tie, bet=player, tc>=1", "given twice"),
    ("X=1, bet=tie, tc>=1", "unknown rank"),
    ("4=1.5, bet=tie, tc>=1", "whole number"),
    ("4=1, bet=tie, tc=1", "tc>=T"),
    ("4>=1, bet=tie, tc>=1", "tc>=T"),
    ("4=1, bet=tie, tc>=x", "write a number"),
    ("4-1, bet=tie, tc>=1", "should look like"),
    ("nonsense", "unknown count"),
])
def test_bad_count_specs(spec: str, message: str) -> None:
    with pytest.raises(CountError, match=message):
        find_count(spec)


def test_the_trigger_is_exact() -> None:
    """The true count 52 * running / unseen against the trigger, in integers."""
    count = Count.parse("9=1, bet=tie, tc>=13/4")
    running = np.array([13, 13, 12, -1])
    unseen = np.array([208, 209, 208, 52])
    assert count.triggered(running, unseen).tolist() == [True, False, False, False]
    assert Count.parse("9=1, bet=tie, tc>=-1").triggered(running, unseen).tolist() == [True] * 4


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**120),
       st.lists(st.tuples(st.integers(-520_000_000, 520_000_000), st.integers(0, 520_000)), min_size=1, max_size=20))
@example(Fraction(1, 10**17), [(1, 416), (0, 416), (-1, 416)])
@example(Fraction(1, 10**99), [(0, 0), (1, 52), (-1, 52)])
def test_a_trigger_of_any_precision_is_exact(trigger: Fraction, coups: list[tuple[int, int]]) -> None:
    """Against Fractions: a trigger with a denominator far past int64 (tc>=1e-17, 1e-99) neither wraps
    (a wrong share of coups triggered) nor overflows."""
    count = Count("c", (1,) * 13, trigger, "banker")
    running, unseen = (np.array(column, dtype=np.int64) for column in zip(*coups, strict=True))
    expected = [52 * r >= trigger * n for r, n in coups]
    assert count.triggered(running, unseen).tolist() == expected


def test_betting_correlation_is_the_suggested_counts() -> None:
    """A count with the tags that eor suggests has the correlation eor reports."""
    (removal,) = effects_of_removal(Shoe.decks(8), [find_bet("dragon-7")])
    suggested = removal.count()
    mine = Count("mine", suggested.tags, Fraction(1), "dragon-7")
    assert count_correlation(mine, removal) == suggested.correlation
    assert round(float(count_correlation(DRAGON, removal)), 3) == 0.964


# ---------------------------------------------------------------- over shoes


@pytest.fixture(scope="module")
def played() -> Study:
    bets = [*MAIN, find_bet("dragon-7"), find_bet("player-pair")]
    return run_study(Shoe.decks(2), shoes=30, seed=3, bets=bets, shoes_per_task=7, edge_sort=HIGH,
                     sort_bets=["banker", "player", "tie"], counts=[DRAGON, replace(DRAGON, name="again"),
                                                                    Count.parse("bet=tie, tc>=0")])


def test_the_value_of_information_is_at_least_the_flat_value(played: Study) -> None:
    values = played.records.sort_values
    best_flat = np.maximum(played.records.edges[:, :3].max(axis=1), 0)
    assert (values[:, 0] >= values[:, 1] - 1e-15).all()
    assert values[:, 1] == pytest.approx(best_flat, rel=1e-12, abs=1e-15)
    sort = played.edge_sort
    assert sort is not None and sort.bets == ("banker", "player", "tie")
    edge, plain, *flat = sort.plays
    assert edge.expected_per_coup.value >= plain.expected_per_coup.value >= 0
    assert all(edge.expected_per_coup.value > f.expected_per_coup.value for f in flat)
    assert sum(c.share for c in sort.choices) == pytest.approx(1)
    gain = sort.gains[0]
    assert gain.expected_per_coup.value == pytest.approx(edge.expected_per_coup.value - flat[0].expected_per_coup.value)


def test_records_agree_with_the_dealer(played: Study) -> None:
    """Results are the payouts of the coups simulate deals; running counts are the tags of the cards
    seen; first cards are the cards at each coup's start."""
    sim = simulate(Shoe.decks(2), shoes=30, seed=3, keep=True)
    assert sim.sequence is not None
    coups = [coup_table()[c] for c in sim.sequence]
    for j, bet in enumerate([*MAIN, find_bet("dragon-7")]):
        assert played.records.results[:, j].tolist() == [float(bet.payout(c)) for c in coups]
    dealt = deal_shoes(3, 0, 30, Procedure(), STANDARD_TABLEAU, shoe_card_codes(Shoe.decks(2)),
                  find_bet("player-pair").detail)
    seen = np.bincount(shoe_card_codes(Shoe.decks(2)), minlength=52).reshape(13, 4).sum(axis=1) - dealt.unseen
    assert played.records.count_running[:, 0].tolist() == (seen @ np.array(DRAGON.tags)).tolist()
    assert played.records.first.tolist() == dealt.first.tolist()
    pairs = [float(find_bet("player-pair").payout(coup_table()[c])) for c in dealt.code]
    assert played.records.results[:, 4].tolist() == pairs


def test_count_statistics(played: Study) -> None:
    first, again, zero = played.counts
    assert again.count.name == "again" and zero.count.name == "tie count"
    triggered = DRAGON.triggered(played.records.count_running[:, 0], played.records.unseen)
    assert first.frequency.value == pytest.approx(triggered.mean())
    assert first.bets_per_shoe.value * played.shoes == pytest.approx(triggered.sum())
    dragon = played.records.edges[:, 3]
    if triggered.any():
        assert first.player_ev is not None and first.player_ev.value == pytest.approx(dragon[triggered].mean())
    assert first.gain_per_shoe.value == pytest.approx(dragon[triggered].sum() / played.shoes)
    same = played.comparisons[0]
    assert (same.first, same.second) == ("jacobson-dragon-7", "again") and same.gain_per_shoe.value == 0


def test_a_count_of_zeros_triggers_always_or_never(played: Study) -> None:
    zero = played.counts[2]
    assert zero.frequency.value == 1 and zero.bets_per_shoe.value == played.coups / played.shoes
    assert zero.player_ev is not None and zero.player_ev.value == pytest.approx(played.bets[2].mean_player_ev)
    never = run_study(Shoe.decks(1), shoes=3, seed=1, bets=MAIN, counts=[Count.parse("bet=tie, tc>=1/1000")])
    assert never.counts[0].frequency.value == 0 and never.counts[0].player_ev is None


def test_same_seed_same_results_whatever_the_workers(played: Study) -> None:
    again = run_study(Shoe.decks(2), shoes=30, seed=3, bets=[*MAIN, find_bet("dragon-7"), find_bet("player-pair")],
                      shoes_per_task=11, workers=2, edge_sort=HIGH, sort_bets=["banker", "player", "tie"],
                      counts=[DRAGON, replace(DRAGON, name="again"), Count.parse("bet=tie, tc>=0")])
    for field in CoupRecords.__dataclass_fields__:
        assert np.array_equal(getattr(again.records, field), getattr(played.records, field)), field
    assert again.counts == played.counts and again.comparisons == played.comparisons
    assert again.edge_sort == played.edge_sort


def test_what_a_study_refuses() -> None:
    with pytest.raises(StudyError, match="not among the study's bets"):
        run_study(Shoe.decks(1), shoes=1, seed=1, bets=MAIN, counts=[DRAGON])
    with pytest.raises(StudyError, match="do not look at suits"):
        run_study(Shoe.decks(1), shoes=1, seed=1, bets=[find_bet("perfect-pair")], edge_sort=HIGH)
    with pytest.raises(StudyError, match="position 1"):
        run_study(Shoe.decks(1), shoes=1, seed=1, bets=MAIN, edge_sort=Information.grouped([2], {"h": "9"}))


# ---------------------------------------------------------------- the command line


def test_count_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "--count", "jacobson-dragon-7", "--count",
                       "4|5|6|7=-1, 8|9=+2, A=+1, bet=dragon7, tc>=4, name=plus-ace", "--shoes", "20", "--seed", "4",
                       "--decks", "6", "--format", "json")
    data = json.loads(out)
    assert code == 0 and list(data["counts"]) == ["jacobson-dragon-7", "plus-ace"]
    assert data["counts"]["plus-ace"]["bet"] == "dragon-7" and data["seed"] == 4
    assert set(data["counts"]["plus-ace"]["triggered"]) == {"value", "standard_error", "ci95_low", "ci95_high"}
    assert data["count_comparisons"][0]["first"] == "jacobson-dragon-7"
    code, out, _ = run(capsys, "count", "--count", "wizard-panda-8", "--shoes", "5", "--seed", "4")
    assert code == 0 and "player_ev when triggered" in out and "Counts compared" not in out
    assert "edge" not in out.lower()  # the sign words: player_ev, never a bare edge


def test_study_with_counts_and_edge_sorting(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["study", "--shoes", "6", "--seed", "5", "--decks", "4", "--count", "jacobson-dragon-7",
            "--edge-sort", "high=6|7|8|9"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    assert code == 0 and list(data["bets"]) == ["banker", "player", "tie", "dragon-7"]
    assert data["edge_sorting"]["bets"] == ["banker", "player", "tie"] and "jacobson-dragon-7" in data["counts"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Edge sorting over 6 shoes" in out and "Counts of one's own" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["count", "--shoes", "3"], "give one or more --count"),
    (["count", "--count", "jacobson-dragon-7"], "give --shoes"),
    (["count", "--count", "4=1, bet=nothing, tc>=1", "--shoes", "2"], "nothing"),
    (["count", "--count", "4=1 bet=tie", "--shoes", "2"], "needs a trigger"),
    (["study", "--shoes", "2", "--edge-sort", "high=6|7|8|9", "--bet", "perfect-pair"], "do not look at suits"),
    (["study", "--shoes", "2", "--edge-sort", "other=9"], "other"),
    (["study", "--record", "-", "--count", "jacobson-dragon-7"], "not a recorded shoe"),
])
def test_bad_count_and_edge_sort_commands(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- a published count, reproduced

PUBLISHED = {
    # Share of coups bet, average player_ev when betting, units won per shoe: E. Jacobson,
    # "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat" (apheat.net), 100 million
    # 8-deck shoes, cut card 14 cards from the end; the units per shoe are in his text, the
    # shares and averages in his summary tables. See "Counts of your own" in docs/study.md.
    "jacobson-dragon-7": (0.0916, 0.0803, 0.597),
    "wizard-panda-8": (0.0461, 0.0634, 0.237),
}
HALF_UNIT = (0.00005, 0.00005, 0.0005)  # half the last printed digit of each figure
FULL = 100_000
"""Shoes of the full check: from here on, each figure's own 95% interval must cover the published one."""
Z_FAMILY = 2.6383
"""Simultaneous 95% intervals for the six figures of the quick check (Bonferroni: z of 1 - 0.05/12)."""


def test_published_counts_are_reproduced() -> None:
    """Frequency, player_ev when triggered and gain per shoe agree with the published figures
    within the confidence intervals (widened by half the printed precision): on 100,000 shoes or
    more each figure's 95% interval, as the reports print them; on fewer (the quick check of CI)
    the six intervals taken together at 95%."""
    shoes = int(os.environ.get("EXACT_ODDS_PUBLISHED_SHOES", "2000"))
    study = run_study(Shoe.decks(8), shoes=shoes, seed=2024, bets=[find_bet("dragon-7"), find_bet("panda-8")],
                      procedure=Procedure(cut=14), counts=[DRAGON, PANDA], workers=2 if shoes >= 20_000 else 1)
    z = Z95 if shoes >= FULL else Z_FAMILY
    for result in study.counts:
        figures = PUBLISHED[result.count.name]
        assert result.player_ev is not None
        for i, est in enumerate((result.frequency, result.player_ev, result.gain_per_shoe)):
            assert est.covers(figures[i], slack=HALF_UNIT[i], z=z), (result.count.name, i, est, est.interval_at(z))
