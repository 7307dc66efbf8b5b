"""Side bets: the engine's fast suited path, the brute-force oracle, published 8-deck figures."""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import body, run
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import brute_force, shoe_cards

from exact_odds.bets import Bet, find_bet
from exact_odds.bets.side import SIDE_BETS
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.shoe import Shoe, ShoeError, falling
from exact_odds.engine.enumerator import deal, first_four, first_four_by_kind

EIGHT = Shoe.decks(8)
SEQUENCES = falling(416, 6)

# ---------------------------------------------------------------- shoes with suits

Grid = tuple[tuple[int, ...], ...]


def suited_shoe(cells: dict[tuple[int, int], int], *, infinite: bool = False) -> Shoe:
    """A shoe from {(rank index 0-12, suit index 0-3): count}."""
    grid: Grid = tuple(tuple(cells.get((r, s), 0) for s in range(4)) for r in range(13))
    return Shoe(tuple(sum(row) for row in grid), grid, infinite=infinite)


def few_kinds(max_kinds: int, max_count: int) -> st.SearchStrategy[dict[tuple[int, int], int]]:
    """Random rank-suit cells, drawn from few ranks so that pairs, suited pairs and twins occur."""
    cell = st.tuples(st.sampled_from([0, 5, 6, 7, 9, 12]), st.integers(0, 3))
    return st.dictionaries(cell, st.integers(1, max_count), min_size=1, max_size=max_kinds)


@st.composite
def suited_shoes(draw: st.DrawFn) -> Shoe:
    """Random suited shoes, finite (at least 6 cards) or infinite, with up to 12 rank-suits."""
    cells = draw(few_kinds(12, 6))
    infinite = draw(st.booleans())
    if not infinite and sum(cells.values()) < 6:
        cells[(12, 0)] = cells.get((12, 0), 0) + 6
    return suited_shoe(cells, infinite=infinite)


@st.composite
def tiny_suited_shoes(draw: st.DrawFn) -> Shoe:
    """Random shoes of 6 to 9 cards with suits (the brute-force oracle deals every sequence)."""
    size = draw(st.integers(6, 9))
    cards = draw(st.lists(st.tuples(st.sampled_from([0, 5, 6, 7, 9, 12]), st.integers(0, 1)),
                          min_size=size, max_size=size))
    cells: dict[tuple[int, int], int] = {}
    for card in cards:
        cells[card] = cells.get(card, 0) + 1
    return suited_shoe(cells)


# ---------------------------------------------------------------- engine: fast suited path


@settings(max_examples=60, deadline=None)
@given(suited_shoes())
@example(suited_shoe({(0, 0): 8, (0, 1): 1, (12, 2): 3}))
def test_fast_suited_first_four_equals_reference(shoe: Shoe) -> None:
    assert first_four(shoe, Detail.SUITS) == first_four_by_kind(shoe, Detail.SUITS)


@pytest.mark.slow
def test_fast_suited_first_four_eight_decks() -> None:
    shoe = Shoe.decks(8)
    fast = first_four(shoe, Detail.SUITS)
    assert fast == first_four_by_kind(shoe, Detail.SUITS)
    # Forgetting the suits gives the rank-level counts back.
    by_rank: dict[object, int] = {}
    for (pt, bt, removed, flags), w in fast.items():
        key = (pt, bt, removed, (flags[0], flags[1], False, False, flags[4]))
        by_rank[key] = by_rank.get(key, 0) + w
    assert by_rank == first_four(shoe, Detail.RANKS)


@settings(max_examples=40, deadline=None)
@given(tiny_suited_shoes())
@example(suited_shoe({(0, 0): 4, (0, 1): 2}))
@example(suited_shoe({(7, 0): 2, (7, 1): 2, (12, 0): 3}))
def test_suited_deal_equals_brute_force(shoe: Shoe) -> None:
    expected = brute_force(shoe_cards(shoe))
    assert dict(deal(shoe, detail=Detail.SUITS).items()) == dict(expected)


# ---------------------------------------------------------------- every side bet against the oracle


def line_ways(bet: Bet, coups: Iterable[tuple[Coup, int]]) -> dict[str, int]:
    """Ways of each pay line of ``bet`` (and of ``"loses"``) over (coup, ways) pairs."""
    out: dict[str, int] = {}
    for coup, ways in coups:
        line = bet.line_of(coup)
        label = line.label if line is not None else "loses"
        out[label] = out.get(label, 0) + ways
    return out


@settings(max_examples=40, deadline=None)
@given(tiny_suited_shoes())
@example(suited_shoe({(6, 0): 3, (6, 1): 3}))
@example(suited_shoe({(0, 0): 2, (0, 1): 2, (5, 0): 2, (12, 1): 2}))
def test_every_side_bet_agrees_with_brute_force(shoe: Shoe) -> None:
    oracle = brute_force(shoe_cards(shoe))
    for bet in SIDE_BETS:
        got = line_ways(bet, deal(shoe, detail=bet.detail).items())
        assert got == line_ways(bet, oracle.items()), bet.name


def test_perfect_pairs_need_known_suits() -> None:
    shoe = Shoe.from_counts([3] + [4] * 12)
    with pytest.raises(ShoeError, match="suits are known"):
        deal(shoe, detail=find_bet("perfect-pair").detail)


# ---------------------------------------------------------------- published 8-deck figures


def house_edge(name: str, shoe: Shoe = EIGHT) -> Fraction:
    bet = find_bet(name)
    return -deal(shoe, detail=bet.detail).expectation(bet.payout)


def percent(x: Fraction, digits: int) -> float:
    return round(float(x) * 100, digits)


def eight_deck_ways(name: str) -> dict[str, int]:
    bet = find_bet(name)
    return line_ways(bet, deal(EIGHT, detail=bet.detail).items())


def test_pairs_closed_form_and_published_edge() -> None:
    # A pair in the first two cards of a hand: 13 * 32 * 31 ordered pairs of 416 * 415.
    p = Fraction(13 * 32 * 31, 416 * 415)
    assert deal(EIGHT, detail=Detail.RANKS).probability(lambda c: c.player_pair) == p
    assert house_edge("player-pair") == house_edge("banker-pair") == 1 - 12 * p
    # Wizard of Odds, Baccarat side bets: pairs at 11:1, 10.36%; E. Jacobson, "Computer perfect
    # play against the baccarat pairs bet": 10.361%, hit frequency 7.470%.
    assert percent(house_edge("player-pair"), 3) == 10.361 and percent(p, 3) == 7.470
    # Both hands pair: different ranks, or four cards of one rank (the twin pair).
    twin = Fraction(13 * falling(32, 4), falling(416, 4))
    both = Fraction(13 * 12 * (32 * 31) ** 2, falling(416, 4)) + twin
    dist = deal(EIGHT, detail=Detail.RANKS)
    assert dist.probability(lambda c: c.player_pair and c.banker_pair) == both
    assert dist.probability(lambda c: c.twin_pair) == twin
    assert house_edge("either-pair") == 1 - 6 * (2 * p - both)
    # Wizard of Odds, Baccarat side bets: either pair at 5:1, 13.71%.
    assert percent(house_edge("either-pair"), 2) == 13.71


def test_perfect_pairs_match_wizard_of_odds() -> None:
    # Wizard of Odds, Perfect Pairs (Version 2), 8 decks: two perfect pairs 2,101,008, one
    # 244,747,776 of 7,379,583,120 (first four cards, each hand unordered: 416*415*414*413/4).
    scale = 4 * 412 * 411
    assert eight_deck_ways("perfect-pair-v2") == {
        "both hands perfect pairs": 2_101_008 * scale,
        "one hand perfect pair": 244_747_776 * scale,
        "loses": 7_132_734_336 * scale,
    }
    # Version 1 (25:1 either): 13.03%; version 2 (250:1 for both): 6.62%.
    assert percent(house_edge("perfect-pair-v1"), 2) == 13.03
    assert percent(house_edge("perfect-pair-v2"), 2) == 6.62
    assert house_edge("perfect-pair") == 1 - Fraction(201 * 2_101_008 + 26 * 244_747_776, 7_379_583_120)


def test_dragon_7_and_panda_8_match_wizard_of_odds() -> None:
    # Wizard of Odds, EZ Baccarat, 8 decks: Dragon 7 wins 112,633,011,329,024 (7.61%);
    # Panda 8 wins 172,660,763,262,976 (10.19%).
    assert eight_deck_ways("dragon-7")["banker wins with a three-card 7"] == 112_633_011_329_024
    assert eight_deck_ways("panda-8")["player wins with a three-card 8"] == 172_660_763_262_976
    assert percent(house_edge("dragon-7"), 2) == 7.61 and percent(house_edge("panda-8"), 2) == 10.19
    assert house_edge("dragon-7") == 1 - Fraction(41 * 112_633_011_329_024, SEQUENCES)


def test_dragon_bonus_matches_wizard_of_odds() -> None:
    # Wizard of Odds, Baccarat side bets, "Dragon Bonus", 8 decks (combinations per line).
    player = eight_deck_ways("dragon-bonus-player")
    assert [player[f"player wins by {m}"] for m in (9, 8, 7, 6, 5, 4)] == [
        18_409_431_764_992, 34_097_645_543_424, 89_590_261_473_280,
        141_238_897_317_888, 166_169_165_987_840, 186_780_352_174_080]
    banker = eight_deck_ways("dragon-bonus-banker")
    assert [banker[f"banker wins by {m}"] for m in (9, 8, 7, 6, 5, 4)] == [
        15_390_342_909_952, 28_305_092_784_128, 79_517_099_278_336,
        119_200_072_366_080, 157_275_882_332_160, 201_147_167_287_296]
    assert player["player natural win"] == banker["banker natural win"] == 812_685_054_124_032
    assert player["natural tie (push)"] == 89_325_908_267_520
    assert percent(house_edge("dragon-bonus-player"), 2) == 2.65
    assert percent(house_edge("dragon-bonus-banker"), 2) == 9.37


def test_big_and_small_match_wizard_of_odds() -> None:
    # Wizard of Odds, Baccarat side bets, "4-5-6", 8 decks: four cards 0.378868 (small at
    # 3:2 returns -0.05283); big at 0.54:1 has a 4.35% house edge.
    four = deal(EIGHT).probability(lambda c: c.cards == 4)
    assert round(float(four), 6) == 0.378868
    assert house_edge("small") == 1 - Fraction(5, 2) * four
    assert percent(house_edge("small"), 2) == 5.28 and percent(house_edge("big"), 2) == 4.35


def test_lucky_6_and_tigers() -> None:
    # Wizard of Odds, Lucky 6, 8 decks: two-card winning banker 6: 186,173,936,904,192; three-card
    # 83,058,367,551,488; the Macau pay table (12:1, 20:1) has a 16.68% house edge.
    ways = eight_deck_ways("lucky-6")
    assert ways["banker wins with a two-card 6"] == 186_173_936_904_192
    assert ways["banker wins with a three-card 6"] == 83_058_367_551_488
    assert percent(house_edge("lucky-6"), 2) == 16.68 == percent(house_edge("tiger"), 2)
    # E. Jacobson, advancedadvantageplay.com, "Card counting the Big Tiger baccarat side bet":
    # 50:1 on a three-card winning banker 6, house edge 15.2533%.
    assert percent(house_edge("big-tiger"), 4) == 15.2533
    assert house_edge("small-tiger") == 1 - Fraction(23 * 186_173_936_904_192, SEQUENCES)
    assert house_edge("tiger-tie") == 1 - Fraction(36 * 96_170_001_308_416, SEQUENCES)


EGALITE_WAYS = {  # Wizard of Odds, Egalite Bets in Baccarat: combinations of each tie, 8 decks.
    0: 28_979_901_420_544, 1: 20_499_217_668_352, 2: 20_006_606_104_576, 3: 22_250_510_129_408,
    4: 36_294_133_463_040, 5: 39_684_046_743_808, 6: 96_170_001_308_416, 7: 101_717_538_899_968,
    8: 54_879_416_675_072, 9: 55_146_054_060_032,
}
EGALITE_EDGE = {0: 12.45, 1: 11.42, 2: 9.54, 3: 10.52, 4: 12.14, 5: 11.87, 6: 11.50, 7: 6.39, 8: 11.07, 9: 10.63}


@pytest.mark.parametrize("total", range(10))
def test_egalite_matches_wizard_of_odds(total: int) -> None:
    assert eight_deck_ways(f"egalite-{total}")[f"tie at {total}"] == EGALITE_WAYS[total]
    assert percent(house_edge(f"egalite-{total}"), 2) == EGALITE_EDGE[total]


def test_tiger_pair_lines_are_exclusive_and_cover_the_pairs() -> None:
    ways = eight_deck_ways("tiger-pair")
    dist = deal(EIGHT, detail=Detail.RANKS)
    assert ways["twin pair (both hands pair in one rank)"] == dist.ways(lambda c: c.twin_pair)
    assert sum(w for label, w in ways.items() if label != "loses") == dist.ways(
        lambda c: c.player_pair or c.banker_pair)


def test_side_bets_are_registered_with_sources() -> None:
    assert {bet.name for bet in SIDE_BETS} >= {
        "player-pair", "banker-pair", "either-pair", "perfect-pair", "dragon-7", "panda-8",
        "dragon-bonus-player", "dragon-bonus-banker", "big", "small", "lucky-6",
        *(f"egalite-{t}" for t in range(10)), "tiger", "small-tiger", "big-tiger", "tiger-tie", "tiger-pair"}
    for bet in SIDE_BETS:
        assert find_bet(bet.name) is bet and bet.source and bet.description
    assert find_bet("Fortune 7") is find_bet("dragon-7")
    # Totals-only bets stay on the fast path; pairs ask for ranks, perfect pairs for suits.
    assert find_bet("dragon-7").detail is Detail.POINTS and find_bet("tiger-pair").detail is Detail.RANKS
    assert find_bet("perfect-pair").detail is Detail.SUITS


# ---------------------------------------------------------------- the sidebets command


def test_sidebets_json_eight_decks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sidebets", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["shoe"]["description"] == "8 decks" and data["sequences"] == SEQUENCES
    assert list(data["side_bets"]) == [bet.name for bet in SIDE_BETS]
    assert data["side_bets"]["player-pair"]["house_edge"] == "43/415"  # 1 - 12 * 31/415
    assert data["side_bets"]["dragon-7"]["house_edge"] == "64613588827/848912750595"
    first = data["side_bets"]["dragon-7"]["lines"][0]
    assert first["outcome"] == "banker wins with a three-card 7" and first["combinations"] == 112_633_011_329_024
    assert first["pays"] == "40" and Fraction(first["probability"]) == Fraction(112_633_011_329_024, SEQUENCES)
    for name, figures in data["side_bets"].items():
        assert Fraction(figures["house_edge"]) == house_edge(name), name


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex"])
def test_sidebets_formats(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "sidebets", "--decks", "6", "--bet", "dragon-7,panda-8", "--bet", "egalite-7",
                       "--format", fmt)
    assert code == 0 and "dragon-7" in out and "egalite-7" in out and "player-pair" not in out
    if fmt == "csv":
        assert body(out).splitlines()[0] == "bet,pays,win,house_edge,player_ev,variance"
    else:
        assert "Wizard of Odds" in out


def test_sidebets_without_suits_leaves_out_perfect_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sidebets", "--decks", "8", "--remove", "K", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["omitted"] == ["perfect-pair", "perfect-pair-v1", "perfect-pair-v2"]
    assert "perfect-pair" not in data["side_bets"] and "player-pair" in data["side_bets"]
    code, _, err = run(capsys, "sidebets", "--decks", "8", "--remove", "K", "--bet", "perfect-pair")
    assert code == 2 and err.startswith("exact-odds: error: perfect-pair needs a shoe whose suits are known")
    # Removing a card with its suit keeps the suits known.
    assert run(capsys, "sidebets", "--decks", "1", "--remove", "Kh", "--bet", "perfect-pair")[0] == 0


def test_sidebets_bets_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    example = str(Path(__file__).resolve().parent.parent / "examples" / "side_bets.toml")
    code, out, _ = run(capsys, "sidebets", "--bets", example, "--format", "json")
    data = json.loads(out)["side_bets"]
    assert code == 0 and list(data)[:2] == ["my-dragon-7", "my-dragon-bonus-player"] and "dragon-7" not in data
    assert data["my-dragon-7"]["house_edge"] == "64613588827/848912750595"
    # --bet finds a bet of the file by name, alongside a built-in one.
    out = run(capsys, "sidebets", "--bets", example, "--bet", "bad-beat,dragon-7", "--format", "csv")[1]
    assert [row.split(",")[0] for row in body(out).splitlines()[1:]] == ["bad-beat", "dragon-7"]
    bad = tmp_path / "bad.toml"
    bad.write_text("[[bet]]\nname = 'x'\nsource = 's'\n[[bet.line]]\npays = 0.5\n")
    code, out, err = run(capsys, "sidebets", "--bets", str(bad))
    assert code == 2 and out == "" and err == f"exact-odds: error: {bad}:5: pays: 0.5 is a float; write it as a " \
        'string such as "19/20" or "0.95" (see \'exact-odds sidebets --help\')\n'


def test_parsheet_and_report_load_bets_files(capsys: pytest.CaptureFixture[str]) -> None:
    example = str(Path(__file__).resolve().parent.parent / "examples" / "side_bets.toml")
    code, out, _ = run(capsys, "parsheet", "--bets", example, "--bet", "my-dragon-7", "--format", "json")
    assert code == 0 and json.loads(out)["lines"][0]["combinations"] == 112_633_011_329_024
    code, out, _ = run(capsys, "report", "--decks", "1", "--bets", example, "--format", "json")
    assert code == 0 and "9-over-7" in json.loads(out)["side_bets"]


def test_side_bets_compare_by_value_and_pickle() -> None:
    import pickle

    for bet in SIDE_BETS:
        assert pickle.loads(pickle.dumps(bet)) == bet, bet.name
