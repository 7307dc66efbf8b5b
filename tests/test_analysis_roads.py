"""Roads: sequences worked by hand, dragon tails, ties, derived-road starting points, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.analysis.roads import (
    Entry,
    RoadsError,
    bead_plate,
    build_roads,
    derived,
    parse_results,
    place,
    streaks,
)
from exact_odds.core.coup import coup_table
from exact_odds.core.shoe import Shoe
from exact_odds.dealing.dealer import shoe_winners
from exact_odds.witness.simulate import simulate

# Worked by hand. Results B B P T B B B P P B P give the big road's streaks
#   c0: B B   c1: P (a tie marked on it)   c2: B B B   c3: P P   c4: B   c5: P
# Big eye boy (k = 1): column 1 has one entry, so it starts at c2 row 0.
#   c2 r0  new column: c1 (1) vs c0 (2) differ          -> blue
#   c2 r1  c1 has no row 1 but ends at row 0             -> blue
#   c2 r2  c1 has neither row 2 nor row 1 (straight drop) -> red
#   c3 r0  c2 (3) vs c1 (1) differ                       -> blue
#   c3 r1  c2 has row 1                                  -> red
#   c4 r0  c3 (2) vs c2 (3)                              -> blue
#   c5 r0  c4 (1) vs c3 (2)                              -> blue
# Small road (k = 2) starts at c2 row 1:
#   c2 r1  c0 has row 1 -> red;  c2 r2  c0 ends at row 1 -> blue;  c3 r0  c2 (3) vs c0 (2) -> blue
#   c3 r1  c1 ends at row 0 -> blue;  c4 r0  c3 (2) vs c1 (1) -> blue;  c5 r0  c4 (1) vs c2 (3) -> blue
# Cockroach road (k = 3) starts at c3 row 1:
#   c3 r1  c0 has row 1 -> red;  c4 r0  c3 (2) vs c0 (2) equal -> red;  c5 r0  c4 (1) vs c1 (1) -> red
HAND = "B B P T B B B P P B P"


def test_sequence_worked_by_hand() -> None:
    roads = build_roads(parse_results(HAND))
    assert [[e.winner for e in c] for c in roads.streaks] == [["B", "B"], ["P"], ["B", "B", "B"], ["P", "P"], ["B"],
                                                              ["P"]]
    assert roads.streaks[1][0] == Entry("P", 1)
    assert roads.big_eye_boy == list("BBRBRBB")
    assert roads.small_road == list("RBBBBB")
    assert roads.cockroach == list("RRR")
    grids = roads.grids()
    assert grids["big eye boy"] == {(0, 0): "B", (0, 1): "B", (1, 0): "R", (2, 0): "B", (3, 0): "R", (4, 0): "B",
                                    (4, 1): "B"}
    assert grids["cockroach road"] == {(0, 0): "R", (0, 1): "R", (0, 2): "R"}
    assert roads.counts() == {"B": 6, "P": 4, "T": 1}


def test_dragon_tails_turn_right_and_nest() -> None:
    # Eight bankers: six down, then right along the bottom row. Six players: five down, then
    # right at row 4 because row 5 of the next column holds the first tail. Then a banker.
    grid = place(streaks(parse_results("B" * 8 + "P" * 6 + "B")))
    assert [pos for pos, e in grid.items() if isinstance(e, Entry) and e.winner == "B"] == [
        (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (2, 0)]
    assert [pos for pos, e in grid.items() if isinstance(e, Entry) and e.winner == "P"] == [
        (1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4)]


def test_ties_are_marks_not_columns() -> None:
    columns = streaks(parse_results("T T B T P P T T T B"))
    assert columns == [[Entry("B", 3)], [Entry("P"), Entry("P", 3)], [Entry("B")]]  # leading ties on the first entry
    assert bead_plate(parse_results("BPT" * 3))[(1, 0)] == "B" and bead_plate(parse_results("BPT" * 3))[(0, 5)] == "T"


def test_derived_roads_start_where_the_rules_say() -> None:
    two = streaks(parse_results("B P B"))  # column 1 has one entry: big eye boy starts at column 2 row 0
    assert derived(two, 1) == ["R"]  # column 1 (1) vs column 0 (1): even
    assert derived(streaks(parse_results("B P P")), 1) == ["B"]  # starts at column 1 row 1: column 0 ends at row 0
    assert derived(streaks(parse_results("B P")), 1) == [] and derived(streaks(parse_results("B P B P")), 3) == []


results = st.lists(st.sampled_from("BPT"), max_size=80).map("".join)


@settings(max_examples=200, deadline=None)
@given(results)
@example("B" * 9 + "P" * 9 + "B" * 9)
def test_marks_and_cells_are_accounted_for(text: str) -> None:
    roads = build_roads(parse_results(text))
    lengths = [len(c) for c in roads.streaks]
    for k, marks in ((1, roads.big_eye_boy), (2, roads.small_road), (3, roads.cockroach)):
        if len(lengths) > k and lengths[k] >= 2:
            skipped = sum(lengths[:k]) + 1
        elif len(lengths) > k + 1:
            skipped = sum(lengths[:k + 1])
        else:
            skipped = sum(lengths)
        assert len(marks) == sum(lengths) - skipped
    grids = roads.grids()
    assert len(grids["big road"]) == sum(lengths) == text.count("B") + text.count("P")
    assert len(grids["bead plate"]) == len(text)
    assert all(0 <= y < 6 for grid in grids.values() for _, y in grid)


def test_parse_results() -> None:
    assert parse_results("banker, Player tie\nBPT # a comment\n") == tuple("BPTBPT")
    with pytest.raises(RoadsError, match=r"results:2: unknown result 'X'"):
        parse_results("B P\nB X")


# ---------------------------------------------------------------- the command


def test_roads_of_a_simulated_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roads", "--seed", "7")
    assert code == 0 and out == run(capsys, "roads", "--seed", "7")[1]
    winners = shoe_winners(Shoe.decks(8), 7)
    sim = simulate(Shoe.decks(8), shoes=1, seed=7, keep=True)
    assert sim.sequence is not None and winners == [coup_table()[c].winner for c in sim.sequence]
    data = json.loads(run(capsys, "roads", "--seed", "7", "--format", "json")[1])
    assert data["results"] == "".join(w[0].upper() for w in winners)
    assert f"{len(winners)} coups" in out and "Cockroach road" in out
    assert "\x1b[31m" in run(capsys, "roads", "--seed", "7", "--color")[1] and "\x1b" not in out


def test_roads_of_recorded_results(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "shoe.txt"
    record.write_text(HAND + "\n")
    code, out, _ = run(capsys, "roads", "--results", str(record))
    lines = out.splitlines()
    big = lines.index(next(x for x in lines if x.startswith("Big road"))) + 1
    assert code == 0 and lines[big:big + 3] == ["|B P1B P B P", "|B   B P", "|    B"]
    data = json.loads(run(capsys, "roads", "--results", str(record), "--format", "json")[1])
    assert data["big_eye_boy"] == "BBRBRBB" and data["small_road"] == "RBBBBB" and data["cockroach_road"] == "RRR"


@pytest.mark.parametrize("argv", [
    ["roads", "--results", "/nonexistent/shoe.txt"],
    ["roads", "--results", "-", "--seed", "3"],
    ["roads", "--seed", "3", "--cut-card", "4"],
])
def test_bad_roads_commands(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exact-odds: error:")
