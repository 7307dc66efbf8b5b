"""Bulk evaluation against the reference enumerator: identical integers on random shoes."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import body, one_line_error, run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.batch import evaluate
from exact_odds.batch.coefficients import (
    DESIGNATION_CARDS,
    DESIGNATION_UNITS,
    INT64_MAX_CARDS,
    TYPES,
    part_code,
    parts_of,
)
from exact_odds.batch.evaluation import Evaluation, distributions
from exact_odds.batch.io import parse_compositions
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import COUP_CODES, Coup, Detail, Payable, coup_code, coup_of_code, tabulate
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, ShoeError, falling, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU, STANDARD_TOML, parse_tableau
from exact_odds.engine.enumerator import deal, winners
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS
from exact_odds.inputs.errors import InputError

# Published 8-deck counts: Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/basics).
EIGHT_DECKS = [2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216]


def evaluate_shoes(shoes: list[Shoe], *, bets: Sequence[Payable]) -> Evaluation:
    """:func:`evaluate` of shoes, with their suits when every one knows them."""
    suits = [shoe.suited for shoe in shoes] if all(shoe.suited is not None for shoe in shoes) else None
    return evaluate([shoe.counts for shoe in shoes], bets=bets, suits=suits)


def reference_winners(counts: list[int], tableau: object = STANDARD_TABLEAU) -> list[int]:
    dist = winners(deal(Shoe(tuple(counts)), tableau))  # type: ignore[arg-type]
    return [dist["banker"], dist["player"], dist["tie"]]


def test_eight_decks_match_published_counts() -> None:
    ev = evaluate([[32] * 13])
    assert ev.outcomes.tolist() == [EIGHT_DECKS]
    assert ev.sequences.tolist() == [falling(416, 6)]


def test_exactness_bounds() -> None:
    assert FLOAT_MAX_CARDS**6 <= 2**53 < (FLOAT_MAX_CARDS + 1) ** 6
    assert INT64_MAX_CARDS**6 < 2**63 <= (INT64_MAX_CARDS + 1) ** 6


def test_coup_codes_cover_every_field() -> None:
    # The codes know every field of Coup; a new field must be added to coup.encode.
    assert Coup._fields == ("player", "banker", "player_cards", "banker_cards", "player_pair", "banker_pair",
                            "player_suited", "banker_suited", "twin_pair")
    assert all(coup_code(coup_of_code(c)) == c for c in range(COUP_CODES))
    assert all(type(flag) is bool for c in range(COUP_CODES) for flag in coup_of_code(c)[4:])


# ---------------------------------------------------------------- random compositions

tiny = st.lists(st.integers(0, 12), min_size=6, max_size=14).map(lambda rs: [rs.count(i) for i in range(13)])
"""6 to 14 cards of any ranks."""


@st.composite
def few_kinds(draw: st.DrawFn) -> list[int]:
    """Up to four ranks present, from a handful of cards to 1,000 decks' worth of them."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=4, unique=True))
    top = draw(st.sampled_from([10, 100, FLOAT_MAX_CARDS, INT64_MAX_CARDS, 4000 * 13]))
    counts = [0] * 13
    for r in ranks:
        counts[r] = draw(st.integers(0, top))
    if sum(counts) < 6:
        counts[ranks[0]] += 6
    return counts


full = st.lists(st.integers(0, 32), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)
"""Depleted 8-deck shoes with every rank possible."""

compositions = st.lists(st.one_of(tiny, few_kinds(), few_kinds(), tiny), min_size=1, max_size=25)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(compositions)
@example([[0] * 12 + [6], [1] * 6 + [0] * 7, [FLOAT_MAX_CARDS, 0, 0, 0, 1] + [0] * 8])
@example([[FLOAT_MAX_CARDS - 3, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0],
          [INT64_MAX_CARDS - 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2],
          [INT64_MAX_CARDS, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]])
def test_bulk_points_equal_reference(counts: list[list[int]]) -> None:
    """About 2,000 compositions over the run, in float64, int64 and Python integers at once."""
    dists = distributions(counts)
    ev = evaluate(counts)
    for row, dist, outcomes in zip(counts, dists, ev.outcomes.tolist(), strict=True):
        shoe = Shoe(tuple(row))
        assert dist == deal(shoe)
        assert outcomes == reference_winners(row)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(tiny, few_kinds()), min_size=1, max_size=25))
@example([[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0]])
def test_bulk_ranks_equal_reference(counts: list[list[int]]) -> None:
    for row, dist in zip(counts, distributions(counts, detail=Detail.RANKS), strict=True):
        assert dist == deal(Shoe(tuple(row)), detail=Detail.RANKS)


@st.composite
def suit_grid(draw: st.DrawFn) -> list[list[int]]:
    """Counts per rank and suit, at most five ranks present (the suited reference is slow)."""
    grid = [[0] * 4 for _ in range(13)]
    for r in draw(st.lists(st.integers(0, 12), min_size=1, max_size=5, unique=True)):
        grid[r] = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4))
    if sum(map(sum, grid)) < 6:
        grid[0] = [2, 2, 1, 1]
    return grid


@settings(max_examples=25, deadline=None)
@given(st.lists(suit_grid(), min_size=1, max_size=4))
@example([[[1, 0, 0, 0]] * 2 + [[2, 1, 0, 0]] * 2 + [[0, 0, 0, 0]] * 9])
def test_bulk_suits_equal_reference(grids: list[list[list[int]]]) -> None:
    counts = [[sum(row) for row in grid] for grid in grids]
    dists = distributions(counts, detail=Detail.SUITS, suits=grids)
    for grid, row, dist in zip(grids, counts, dists, strict=True):
        shoe = Shoe(tuple(row), tuple(tuple(r) for r in grid))
        assert dist == deal(shoe, detail=Detail.SUITS)


@settings(max_examples=5, deadline=None)
@given(st.lists(full, min_size=1, max_size=3))
@example([[32] * 13, [4] * 13])
def test_full_shoes_equal_reference(counts: list[list[int]]) -> None:
    """Realistic depleted shoes with all thirteen ranks (the slow reference limits the count)."""
    assert evaluate(counts).outcomes.tolist() == [reference_winners(row) for row in counts]


def test_every_registered_bet_equals_reference() -> None:
    shoes = [Shoe.decks(8), Shoe.decks(1).without(parse_cards("Kh Ks 5d 9c")), Shoe.from_counts([3] * 13)]
    for shoe in shoes:
        bets = [b for b in registered() if shoe.suited is not None or b.detail is not Detail.SUITS]
        ev = evaluate_shoes([shoe], bets=bets)
        for j, bet in enumerate(bets):
            assert ev.expectation(0, j) == deal(shoe, detail=bet.detail).expectation(bet.payout), bet.name


def test_large_shoes_use_python_integers() -> None:
    counts = [[4000] * 13, [33] * 13, [32] * 13]
    ev = evaluate(counts, bets=[find_bet("banker")])
    assert ev.outcomes.dtype == object
    assert ev.outcomes.tolist() == [reference_winners(row) for row in counts]
    assert ev.expectation(0, 0) == deal(Shoe.decks(1000)).expectation(find_bet("banker").payout)


def test_other_tableau() -> None:
    toml = STANDARD_TOML.replace('6 = "S  S  S  S  S  S  S  D  D  S  S"', '6 = "S  S  S  S  S  S  D  D  D  S  S"')
    other = parse_tableau(toml.replace('name = "standard"', 'name = "other"'))
    counts = [[32] * 13, [2, 0, 3, 1, 0, 0, 4, 0, 1, 0, 5, 0, 0]]
    assert evaluate(counts, tableau=other).outcomes.tolist() == [reference_winners(c, other) for c in counts]
    assert evaluate(counts, tableau=other).outcomes.tolist() != evaluate(counts).outcomes.tolist()


def test_edges_signs_and_probabilities() -> None:
    bets = [find_bet("banker"), find_bet("tie")]
    counts = [[32] * 13, [0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 10, 10]]  # all zeros: every coup ties
    ev = evaluate(counts, bets=bets)
    assert ev.expectations(1)[1] == 8
    assert ev.favourable().tolist() == [[False, False], [False, True]]
    assert ev.edges()[1].tolist() == [0.0, 8.0]
    assert ev.probabilities()[1].tolist() == [0.0, 0.0, 1.0]
    assert abs(ev.edges()[0, 0] - float(ev.expectation(0, 0))) < 1e-15


def test_tabulated_bets_pay_the_same() -> None:
    for bet in registered():
        table = tabulate(bet)
        assert table.detail is bet.detail
        shoe = Shoe.decks(2)
        dist = deal(shoe, detail=bet.detail)
        assert dist.expectation(table.payout) == dist.expectation(bet.payout)


def test_bad_compositions() -> None:
    with pytest.raises(ShoeError, match="13 counts"):
        evaluate([[1, 2, 3]])
    with pytest.raises(ShoeError, match="composition 2 has a negative"):
        evaluate([[4] * 13, [-1] + [4] * 12])
    with pytest.raises(ShoeError, match="composition 1 has 5 cards"):
        evaluate([[5] + [0] * 12])
    with pytest.raises(ShoeError, match="whole numbers"):
        evaluate([[1.5] * 13])
    with pytest.raises(ShoeError, match="suits are known"):
        evaluate([[5] * 13], bets=[find_bet("perfect-pair")])


# ---------------------------------------------------------------- reading compositions and the command


def test_parse_compositions_skips_comments_and_blank_lines() -> None:
    lines, counts = parse_compositions("# header\n\n32,32,32,32,32,32,32,32,32,32,32,32,32\n"
                                       " 4, 4,4,4,4,4,4,4,4,4,4,4,4  # one deck\n   \n+1,1,1,1,1,1,0,0,0,0,0,0,0")
    assert lines == [3, 4, 6]
    assert counts.tolist() == [[32] * 13, [4] * 13, [1] * 6 + [0] * 7]
    assert parse_compositions(" \n")[0] == []


@pytest.mark.parametrize(("text", "message"), [
    ("1,2,3\n", "line 1: expected 13 counts"),
    ("# c\n" + ",".join(["4"] * 12) + ",x\n",
     r"line 2: count 13 \(K\) must be a whole number from 0 to 40,000, got 'x'"),
    ("4,4,4,4,4,4,4,4,4,4,4,4,4\n" + ",".join(["4"] * 12) + ",-1\n", "line 2: count 13 .* got '-1'"),
    ("4,4,4,4,4,4,4,4,4,4,4,4,٣\n", "line 1: count 13 .* got '٣'"),
    ("9223372036854775808,4,4,4,4,4,4,4,4,4,4,4,4\n", "line 1: count 1 .* got '9223372036854775808'"),

    ("\n\n1,1,1,1,1,0,0,0,0,0,0,0,0\n", "line 3: 5 cards"),
    ("4,4,4,4,4,4,4,4,4,4,4,4,4.0\n", "line 1: count 13"),
])
def test_parse_compositions_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_compositions(text)


def test_batch_command_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "shoes.csv"
    src.write_text("# two shoes\n" + ",".join(["32"] * 13) + "\n\n" + ",".join(["4"] * 13) + "\n")
    code, out, _ = run(capsys, "batch", "--input", str(src), "--bet", "banker", "--bet", "tie")
    lines = body(out).splitlines()
    assert code == 0 and lines[0] == "line,banker,player,tie,sequences,player_ev:banker,player_ev:tie"
    assert lines[1] == ",".join(["2", *map(str, EIGHT_DECKS), str(falling(416, 6)),
                                 str(deal(Shoe.decks(8)).expectation(find_bet("banker").payout)),
                                 str(deal(Shoe.decks(8)).expectation(find_bet("tie").payout))])
    assert lines[2].startswith("4,6737232640,6548674432,1372227328,14658134400,")


def test_batch_command_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "shoes.csv"
    src.write_text(",".join(["4"] * 13) + "\n")
    code, out, _ = run(capsys, "batch", "--input", str(src), "--bet", "player", "--format", "jsonl")
    record = json.loads(body(out))
    assert code == 0 and record["line"] == 1 and record["tie"] == 1372227328
    assert Fraction(record["player_ev"]["player"]) == deal(Shoe.decks(1)).expectation(find_bet("player").payout)


def test_batch_command_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "shoes.csv"
    src.write_text(",".join(["4"] * 13) + "\n4,4\n")
    code, out, err = run(capsys, "batch", "--input", str(src))
    assert one_line_error(code, out, err, "line 2"), err


def test_batch_command_suited_bet_needs_suits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "shoes.csv"
    src.write_text("# counts divisible by 4 give equal suits\n" + ",".join(["4"] * 13) + "\n"
                   + ",".join(["5"] * 13) + "\n")
    code, _, err = run(capsys, "batch", "--input", str(src), "--bet", "perfect-pair")
    assert code == 2 and "line 3: suited bets need" in err


def test_batch_command_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "batch", "--input", str(tmp_path / "nope.csv"))
    assert code == 2 and "cannot read" in err


# ---------------------------------------------------------------- every fast path, 1 to 10,000 decks


SIZE_BETS = ["banker", "tie", "super-6/banker", "dragon-bonus-player", "egalite-6", "player-pair", "tiger-pair",
             "perfect-pair"]
"""Outcome classes, events, weighted functionals, four-card (pairs) and suited four-card stages."""


@st.composite
def sized_grid(draw: st.DrawFn) -> list[list[int]]:
    """Counts per rank and suit of ``d`` decks (1 to 10,000), some cards taken out at random."""
    decks = draw(st.one_of(st.integers(1, 9), st.integers(1, 10_000), st.sampled_from([8, 9, 27, 28, 10_000])))
    grid = [[decks] * 4 for _ in range(13)]
    for rank, suit, n in draw(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3), st.integers(0, decks)),
                                       max_size=6)):
        grid[rank][suit] -= min(n, grid[rank][suit])
    if sum(map(sum, grid)) < 6:
        grid[0] = [2, 2, 1, 1]
    return grid


@settings(max_examples=12, deadline=None)
@given(st.lists(sized_grid(), min_size=1, max_size=4))
@example([[[1] * 4] * 13, [[8] * 4] * 13, [[9] * 4] * 13, [[28] * 4] * 13, [[10_000] * 4] * 13])
def test_every_path_equals_reference_from_1_to_10000_decks(grids: list[list[list[int]]]) -> None:
    """float64 (up to 456 cards), int64 (to 1,448) and Python integers
    (beyond), for outcome classes, events, weighted functionals and the four-card stages."""
    shoes = [Shoe(tuple(sum(row) for row in grid), tuple(tuple(row) for row in grid)) for grid in grids]
    bets = [find_bet(name) for name in SIZE_BETS]
    ev = evaluate_shoes(shoes, bets=bets)
    for i, shoe in enumerate(shoes):
        assert ev.outcomes[i].tolist() == [winners(deal(shoe))[o] for o in ("banker", "player", "tie")]
        for j, bet in enumerate(bets):
            assert ev.expectation(i, j) == deal(shoe, detail=bet.detail).expectation(bet.payout), bet.name


@settings(max_examples=10, deadline=None)
@given(st.lists(st.one_of(tiny, full), min_size=1, max_size=20))
def test_floats_int64_and_python_integers_agree(counts: list[list[int]]) -> None:
    """The same shoes through float64, through int64 (every size forced there), with the float
    check forced to fail, and through Python integers: identical integers."""
    from exact_odds.batch import plan

    bets = [find_bet(name) for name in SIZE_BETS[:-1]]
    plain = evaluate(counts, bets=bets)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(plan, "FLOAT_MAX_CARDS", 5)
        forced = evaluate(counts, bets=bets)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(plan, "FLOAT_EXACT", 2**20)
        checked = evaluate(counts, bets=bets)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(plan, "FLOAT_MAX_CARDS", 5)
        m.setattr(plan, "INT64_EXACT", 0)
        wide = evaluate(counts, bets=bets)
    for other in (forced, checked, wide):
        assert other.outcomes.tolist() == plain.outcomes.tolist()
        assert other.numerators.tolist() == plain.numerators.tolist()


def test_few_functionals_span_every_registered_bet() -> None:
    from exact_odds.batch.evaluation import _bet_groups, _bet_pass

    bets = registered()
    passes = {d: _bet_pass(STANDARD_TABLEAU, d, tuple(bets[j] for j in members))
              for d, members in _bet_groups(bets).items()}
    assert passes[Detail.POINTS].plan.classes <= 19  # 36 bets, 51 classes of coups
    # Pairs and suited pairs depend on the first four cards only: one stage of depth 4.
    assert [s.depth for s in passes[Detail.RANKS].plan.stages] == [4]
    assert [s.depth for s in passes[Detail.SUITS].plan.stages] == [4]
    # The player's pairs and the banker's are equally many in any shoe: counted once.
    assert len(passes[Detail.RANKS].plan.copies) == 1


# ---------------------------------------------------------------- the vectorised reader and writer


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40_000), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
                min_size=1, max_size=30), st.booleans())
def test_plain_reader_equals_the_general_one(rows: list[list[int]], newline: bool) -> None:
    from exact_odds.batch.io import plain_counts

    text = "\n".join(",".join(map(str, r)) for r in rows) + ("\n" if newline else "")
    found = plain_counts(text)
    assert found is not None and found.tolist() == rows
    lines, counts = parse_compositions(text)
    assert list(lines) == list(range(1, len(rows) + 1)) and counts.tolist() == rows
    assert parse_compositions(" " + text)[1].tolist() == rows  # the general reader
    with pytest.raises(InputError, match="line 1: count 1"):
        parse_compositions(text.replace(str(rows[0][0]), "40001", 1) if rows[0][0] else "40001" + text[1:])


@pytest.mark.parametrize("text", ["4,4,4,4,4,4,4,4,4,4,4,4,4\r\n", "4,4,4,4,4,4,4,4,4,4,4,4,\n", ",4,4\n",
                                  "4,4,4,4,4,4,4,4,4,4,4,4,4\n\n", "4,4,4,4,4,4,4,4,4,4,4,4,1234567890\n", ""])
def test_plain_reader_leaves_the_rest_to_the_general_one(text: str) -> None:
    from exact_odds.batch.io import plain_counts

    assert plain_counts(text) is None


def test_vectorised_csv_equals_python_formatting() -> None:
    from exact_odds.report.study import batch_text

    counts = [[32] * 13, [6] + [0] * 12, [1] * 13, [40, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 2], [110] * 13]
    ev = evaluate(counts)
    lines = [1, 10, 99_999, 1_000_000, 7]
    columns = [lines, *ev.outcomes.T.tolist(), ev.sequences.tolist()]
    rows = zip(*columns, strict=True)
    expected = "line,banker,player,tie,sequences\n" + "".join(",".join(map(str, row)) + "\n" for row in rows)
    assert batch_text(ev, lines, "csv") == expected


def test_threads_evaluating_at_once_agree() -> None:
    """The kernel's work arrays are per thread (Dask workers may run tasks in threads)."""
    import threading

    counts = [[32 - (i * r) % 7 for r in range(13)] for i in range(600)]
    expected = evaluate(counts).outcomes.tolist()
    found: list[object] = [None] * 3

    def work(i: int) -> None:
        found[i] = evaluate(counts).outcomes.tolist()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == [expected] * 3


@pytest.mark.parametrize("header", ["A,2,3,4,5,6,7,8,9,T,J,Q,K", "a, 2, 3, 4, 5, 6, 7, 8, 9, 10, j, q, k",
                                    "ace,two,three,four,five,six,seven,eight,nine,ten,jack,queen,king",
                                    "Ace,2,Three,4,5,6,7,8,9,Ten,J,Queen,K  # mixed"])
def test_parse_compositions_reads_past_a_header(header: str) -> None:
    row = ",".join(["4"] * 13) + "\n" + ",".join(["32"] * 13) + "\n"
    assert list(parse_compositions(header + "\n" + row)[0]) == [2, 3]
    lines, counts = parse_compositions("# shoes\n\n" + header + "\n# first\n" + row)
    assert lines == [5, 6] and counts.tolist() == [[4] * 13, [32] * 13]
    assert list(parse_compositions(header + "\n")[0]) == []


@pytest.mark.parametrize("header", ["A,2,3,4,5,6,7,8,9,J,T,Q,K", "A,2,3", "ace,two,three,four,five,six,seven,eight,"
                                    "nine,ten,jack,queen,kings", "rank,2,3,4,5,6,7,8,9,T,J,Q,K"])
def test_parse_compositions_refuses_a_header_out_of_order(header: str) -> None:
    with pytest.raises(InputError, match="line 1: a header must name the 13 ranks in order"):
        parse_compositions(header + "\n" + ",".join(["4"] * 13) + "\n")


def test_batch_command_reads_a_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "shoes.csv"
    src.write_text("A,2,3,4,5,6,7,8,9,T,J,Q,K\n" + ",".join(["4"] * 13) + "\n")
    code, out, _ = run(capsys, "batch", "--input", str(src))
    assert code == 0 and body(out).splitlines()[1].startswith("2,")
    with pytest.raises(SystemExit):
        run(capsys, "batch", "--help")
    assert "ace,two,...,king" in " ".join(capsys.readouterr().out.split())


def test_the_derived_tie_is_checked_on_a_sample() -> None:
    """The points pass counts banker and player and derives the tie; a sample is counted in full."""
    import numpy as np

    from exact_odds.batch.evaluation import SAMPLE, _bet_pass, _outcomes, _sampled_check
    from exact_odds.batch.plan import ways

    compiled = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ())
    assert compiled.check is not None and len(compiled.plan.stages[0].functionals) == 2
    counts = np.array([[32] * 13, [4] * 13] * SAMPLE, dtype=np.int64)
    sequences = np.array([falling(int(n), 6) for n in counts.sum(axis=1)], dtype=np.int64)
    found = _outcomes(ways(compiled.plan, counts, None, counts.sum(axis=1)), sequences)
    assert found[:2].tolist() == [reference_winners([32] * 13), reference_winners([4] * 13)]
    _sampled_check(compiled.check, counts, found)
    found[SAMPLE, 2] += 1  # a wrong tie where the sample looks
    with pytest.raises(AssertionError, match="lost ways"):
        _sampled_check(compiled.check, counts, found)
    banker_and_player = np.array([[3, 4], [5, 6]], dtype=np.int64)
    assert _outcomes(banker_and_player, np.array([7, 12])).tolist() == [[3, 4, 0], [5, 6, 1]]
    for dtype in (np.int64, object):  # ways of banker and player past the sequences: a negative tie
        with pytest.raises(AssertionError, match="lost ways"):
            _outcomes(banker_and_player.astype(dtype), np.array([7, 10]).astype(dtype))


def test_batch_command_streams_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An input read in many blocks gives the output of one block, byte for byte; a bad line in a
    later block names its line in the whole file, and --output is then not written at all."""
    import exact_odds.inputs.reading

    rng = random.Random(5)
    rows = [",".join(str(rng.randint(0, 12)) for _ in range(13)) for _ in range(400)]
    src = tmp_path / "shoes.csv"
    src.write_text("A,2,3,4,5,6,7,8,9,T,J,Q,K\n# a comment\n" + "\n".join(rows) + "\n")
    whole = run(capsys, "batch", "--input", str(src), "--bet", "banker")
    monkeypatch.setattr(exact_odds.inputs.reading, "BLOCK", 97)
    assert run(capsys, "batch", "--input", str(src), "--bet", "banker") == whole
    assert whole[0] == 0 and len(body(whole[1]).splitlines()) == 401
    src.write_text("\n".join(rows) + "\nA,2,3,4,5,6,7,8,9,T,J,Q,K\n" + "\n".join(rows) + "\n")
    out = tmp_path / "out.csv"
    code, printed, err = run(capsys, "batch", "--input", str(src), "--output", str(out))
    assert code == 2 and printed == "" and not out.exists()
    assert "line 401" in err and err.endswith("(see 'exact-odds batch --help')\n")


def test_parts_come_in_increasing_part_code() -> None:
    """Every part (at most six cards, designations with enough cards, at most two pairs designated), sorted."""
    for kinds in range(5):
        for suited in (False, True):
            digits = [m * TYPES + t for m in range(CARDS_PER_COUP + 1) for t in range(TYPES if suited else 1)
                      if m >= DESIGNATION_CARDS[t]]
            every = [p for p in itertools.product(digits, repeat=kinds)
                     if sum(d // TYPES for d in p) <= CARDS_PER_COUP
                     and sum(DESIGNATION_UNITS[d % TYPES] for d in p) <= 2]
            assert parts_of(kinds, suited) == sorted(every, key=part_code)


def test_a_table_out_of_order_has_the_same_monomials() -> None:
    """The shipped tables come sorted by monomial; one in another order is sorted first, to the same sums."""
    import dataclasses

    import numpy as np

    import exact_odds.batch.coefficients as tables
    from exact_odds.batch.coefficients import coefficients

    co = coefficients(STANDARD_TABLEAU, Detail.RANKS)
    order = np.random.default_rng(3).permutation(len(co.a))
    shuffled = dataclasses.replace(co, a=co.a[order], b=co.b[order], coup=co.coup[order], count=co.count[order])
    weights = np.random.default_rng(4).integers(0, 5, size=(COUP_CODES, 3)).astype(np.int64)
    sums = tables.monomial_sums
    for left, right in zip(sums(co, weights), sums(shuffled, weights), strict=True):
        assert np.array_equal(left, right)
    assert np.array_equal(tables.table_codes(co), tables.table_codes(shuffled))


def test_counts_past_2_to_the_53_summed_in_integers() -> None:
    """Monomial sums count each class of codes in floats only while that is exact; past it, in integers."""
    import dataclasses

    import numpy as np

    import exact_odds.batch.coefficients as tables
    from exact_odds.batch.coefficients import coefficients

    co = coefficients(STANDARD_TABLEAU, Detail.POINTS)
    scaled = dataclasses.replace(co, count=co.count << 34)
    assert int(scaled.count.sum()) >= 2**53
    weights = np.random.default_rng(5).integers(0, 4, size=(COUP_CODES, 3)).astype(np.int64)
    digits, summed = tables.monomial_sums(co, weights)
    digits_big, summed_big = tables.monomial_sums(scaled, weights)
    assert np.array_equal(digits, digits_big) and np.array_equal(summed << 34, summed_big)


def first_layout(space: Any, parts: tuple[set[tuple[int, ...]], set[tuple[int, ...]]]) -> tuple[Any, ...]:
    """The first :func:`~exact_odds.batch.plan.make_layout`, a part at a time, kept as an oracle:
    (parent, factor, levels, spans, codes, rows)."""
    from exact_odds.batch.coefficients import DIGITS

    def code(p: tuple[int, ...]) -> int:
        return sum(d * DIGITS**i for i, d in enumerate(p))

    def last(p: tuple[int, ...]) -> int:
        return max(i for i, d in enumerate(p) if d)

    order = []
    for g, group in enumerate(parts):
        members: set[tuple[int, ...]] = set()
        for p in group:
            while any(p) and p not in members:
                members.add(p)
                p = (*p[:last(p)], 0, *p[last(p) + 1:])
        order += [(sum(d // TYPES for d in p), g, code(p), p) for p in members]
    order.sort()
    index = {(g, p): i + 1 for i, (_, g, _, p) in enumerate(order)}
    parent, factor = [0], [0]
    levels: dict[int, tuple[int, int]] = {}
    spans = {(0, 0): (0, 1), (1, 0): (0, 1)}
    for i, (cards, g, _, p) in enumerate(order, 1):
        parent.append(index.get((g, (*p[:last(p)], 0, *p[last(p) + 1:])), 0))
        m, t = divmod(p[last(p)], TYPES)
        factor.append((((0, space.split)[g] + last(p)) * (CARDS_PER_COUP + 1) + m) * space.types + t)
        spans[(g, cards)] = (spans.get((g, cards), (i, i))[0], i + 1)
        levels[cards] = (levels.get(cards, (i, i))[0], i + 1)
    by_code = [sorted([(0, 0)] + [(c, index[(gg, p)]) for _, gg, c, p in order if gg == g]) for g in (0, 1)]
    return (parent, factor, tuple(levels.values()), spans, [[c for c, _ in b] for b in by_code],
            [[r for _, r in b] for b in by_code])


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list(Detail)), st.integers(0, 2**32 - 1))
def test_layout_equals_the_first_one(detail: Detail, seed: int) -> None:
    """Random sets of parts (some groups empty), laid out in arrays as a part at a time."""
    from exact_odds.batch.coefficients import space_of
    from exact_odds.batch.plan import make_layout

    space = space_of(detail)
    rng = random.Random(seed)
    parts = tuple({p for p in parts_of(kinds, space.suited) if rng.random() < rate}
                  for kinds, rate in ((space.split, rng.choice([0, 0.01, 0.2])),
                                      (space.kinds - space.split, rng.choice([0, 0.05, 0.5]))))
    layout = make_layout(space, (parts[0], parts[1]))
    parent, factor, levels, spans, codes, rows = first_layout(space, (parts[0], parts[1]))
    assert layout.parent.tolist() == parent and layout.factor.tolist() == factor
    assert layout.levels == levels and list(layout.spans.items()) == list(spans.items())
    assert [c.tolist() for c in layout.codes] == codes and [r.tolist() for r in layout.rows] == rows
