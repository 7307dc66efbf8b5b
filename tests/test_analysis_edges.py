"""House edges and par sheets: published figures, a brute-force oracle and identities."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import brute_force, shoe_cards

from exact_odds.analysis.edges import (
    LOSES,
    configuration_sheets,
    distinct_bets,
    house_edge,
    par_sheet,
    reference_sheets,
)
from exact_odds.bets import BUILTIN_BETS, Bet, PayLine, find_bet
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS, banker_wins
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.shoe import Shoe, parse_cards
from exact_odds.engine.enumerator import deal
from exact_odds.report import percent_text

EIGHT = Shoe.decks(8)
SEQUENCES_8 = 4_998_398_275_503_360


# Published 8-deck house edges per coup, in percent:
# - standard banker, player, tie; tie at 9:1: Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/):
#   1.0579%, 1.2351%, 14.3596%; 4.844% for a tie paying 9:1 (also "4.80%"-style roundings elsewhere).
# - Super 6 banker 1.4581% and EZ banker 1.0183%: E. Jacobson, "Card Counting the Super Six Baccarat Side
#   Bet", American Casino Guide; EZ also Wizard of Odds, "EZ Baccarat" (1.02%).
@pytest.mark.parametrize(
    ("bet", "percent"),
    [
        ("banker", "1.0579%"),
        ("player", "1.2351%"),
        ("tie", "14.3596%"),
        ("tie-9/tie", "4.8440%"),
        ("super-6/banker", "1.4581%"),
        ("ez/banker", "1.0183%"),
    ],
)
def test_published_eight_deck_edges(bet: str, percent: str) -> None:
    assert percent_text(house_edge(EIGHT, find_bet(bet)), 4) == percent


def test_published_eight_deck_par_sheet_counts() -> None:
    # Wizard of Odds, "EZ Baccarat": banker wins with a three-card 7 in 112,633,011,329,024 sequences.
    ez = par_sheet(EIGHT, find_bet("ez/banker"))
    assert ez.lines[0].ways == 112_633_011_329_024 and ez.total == SEQUENCES_8
    # Banker wins with a total of 6 in 269,232,304,455,680 sequences (excelpunks.com, "Why does a Banker win
    # on 6 pay half?", a table of banker wins by total, 8 decks).
    super6 = par_sheet(EIGHT, find_bet("super-6/banker"))
    assert super6.lines[0].ways == 269_232_304_455_680
    # The rest of the banker wins: 2,292,252,566,437,888 in all (Wizard of Odds, "Baccarat").
    assert super6.lines[0].ways + super6.lines[1].ways == ez.lines[0].ways + ez.lines[1].ways == 2_292_252_566_437_888


def test_resolved_edges_match_published_ties_not_counted() -> None:
    # Wizard of Odds, "Baccarat": with ties not counted, banker 1.17% and player 1.36% (8 decks).
    assert percent_text(par_sheet(EIGHT, find_bet("banker")).house_edge_resolved or 0, 2) == "1.17%"
    assert percent_text(par_sheet(EIGHT, find_bet("player")).house_edge_resolved or 0, 2) == "1.36%"


def test_standard_edges_are_the_classic_identities() -> None:
    b, p, t = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
    assert house_edge(EIGHT, find_bet("banker")) == Fraction(p * 20 - b * 19, 20 * SEQUENCES_8)
    assert house_edge(EIGHT, find_bet("tie")) == Fraction(b + p - 8 * t, SEQUENCES_8)
    sheet = par_sheet(EIGHT, find_bet("player"))
    assert sheet.house_edge_resolved == Fraction(b - p, b + p)
    assert sheet.variance == Fraction(b + p, SEQUENCES_8) - Fraction(p - b, SEQUENCES_8) ** 2


def test_commission_four_edge_is_a_linear_change() -> None:
    # Cutting the commission from 5% to 4% returns 1% of every banker win.
    diff = house_edge(EIGHT, find_bet("banker")) - house_edge(EIGHT, find_bet("commission-4/banker"))
    assert diff == Fraction(2_292_252_566_437_888, SEQUENCES_8) / 100


def test_configurations_share_unchanged_bets() -> None:
    sheets = {name: configuration_sheets(EIGHT, config) for name, config in BUILTIN_CONFIGURATIONS.items()}
    for name in ("tie-9", "commission-4", "super-6", "ez"):
        assert sheets[name]["player"].house_edge == sheets["standard"]["player"].house_edge
    groups = distinct_bets([bet for config in BUILTIN_CONFIGURATIONS.values() for bet in config.bets])
    assert [first.name for first, _ in groups] == [
        "banker", "player", "tie", "tie-9/tie", "commission-4/banker", "super-6/banker", "ez/banker"]


# ---------------------------------------------------------------- against the brute-force oracle

def super_six_banker(coup: Coup) -> Fraction:
    """The Super 6 pay table as printed: banker wins pay 1:1 except a win with 6 pays 1:2; a tie pushes."""
    if coup.banker > coup.player:
        return Fraction(1, 2) if coup.banker == 6 else Fraction(1)
    return Fraction(0) if coup.banker == coup.player else Fraction(-1)


def ez_banker(coup: Coup) -> Fraction:
    """EZ Baccarat as printed: banker wins pay 1:1, except a three-card 7 win pushes; a tie pushes."""
    if coup.banker > coup.player:
        return Fraction(0) if coup.banker == 7 and coup.banker_cards == 3 else Fraction(1)
    return Fraction(0) if coup.banker == coup.player else Fraction(-1)


def tie_nine(coup: Coup) -> Fraction:
    return Fraction(9) if coup.banker == coup.player else Fraction(-1)


ORACLE_BETS: list[tuple[str, Callable[[Coup], Fraction]]] = [
    ("super-6/banker", super_six_banker), ("ez/banker", ez_banker), ("tie-9/tie", tie_nine)]

small_shoes = st.lists(st.integers(0, 12), min_size=6, max_size=8).map(
    lambda ranks: Shoe.from_counts([ranks.count(i) for i in range(13)]))


@settings(max_examples=25, deadline=None)
@given(small_shoes, st.sampled_from(ORACLE_BETS))
@example(Shoe.from_counts([0, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 3]), ORACLE_BETS[0])
@example(Shoe.from_counts([1, 1, 1, 1, 0, 0, 2, 0, 0, 0, 0, 0, 2]), ORACLE_BETS[1])
def test_par_sheets_equal_the_oracle(shoe: Shoe, named: tuple[str, Callable[[Coup], Fraction]]) -> None:
    name, pays = named
    coups = brute_force(shoe_cards(shoe))
    total = sum(coups.values())
    expected = sum((n * pays(c) for c, n in coups.items()), Fraction(0)) / total
    sheet = par_sheet(shoe, find_bet(name))
    assert sheet.total == total and sheet.expected_value == expected
    second = sum((n * pays(c) ** 2 for c, n in coups.items()), Fraction(0)) / total
    assert sheet.variance == second - expected**2
    assert sheet.push == Fraction(sum(n for c, n in coups.items() if pays(c) == 0), total)


@settings(max_examples=20, deadline=None)
@given(small_shoes)
@example(Shoe.from_counts([0] * 9 + [6, 0, 0, 0]))
def test_par_sheet_identities(shoe: Shoe) -> None:
    for config in BUILTIN_CONFIGURATIONS.values():
        for sheet in configuration_sheets(shoe, config).values():
            assert sum(line.ways for line in sheet.lines) == sheet.total
            assert sheet.win + sheet.push + sheet.loss == 1
            assert sheet.lines[-1].label == LOSES and sheet.lines[-1].pays == -1
            if sheet.push == 1:  # e.g. only ten-valued cards: every coup ties
                assert sheet.house_edge_resolved is None
            else:
                assert sheet.house_edge_resolved == sheet.house_edge / (1 - sheet.push)
            assert sheet.variance >= 0


def test_any_bet_works_generically() -> None:
    # A bet the registry does not know, needing pair detail: banker wins with a pair pays 3:1.
    def banker_pair_win(coup: Coup) -> bool:
        return banker_wins(coup) and coup.banker_pair

    bet = Bet("pair-win", (PayLine("banker wins with a pair", banker_pair_win, Fraction(3)),), "test",
              detail=Detail.RANKS)
    shoe = Shoe.from_counts([2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3])
    coups = brute_force(shoe_cards(shoe))
    ways = sum(n for c, n in coups.items() if c.banker > c.player and c.banker_pair)
    sheet = par_sheet(shoe, bet)
    assert sheet.lines[0].ways == ways and sheet.lines[1].ways == sheet.total - ways
    assert sheet.expected_value == Fraction(3 * ways - (sheet.total - ways), sheet.total)


def test_infinite_deck_edges() -> None:
    # Infinite deck: P(banker) 2212744/4826809, P(player) 2153464/4826809 (the engine's tested limit).
    inf = Shoe.infinite_deck()
    assert house_edge(inf, find_bet("banker")) == Fraction(2153464 * 20 - 2212744 * 19, 20 * 4826809)


def test_published_six_deck_counts() -> None:
    # 6 decks: banker 403,095,751,234,560, player 392,220,492,728,832, tie 83,552,962,932,288 (casinoexploit.com,
    # "Probabilities in 6-deck Baccarat", after Wizard of Odds).
    sheet = par_sheet(Shoe.decks(6), find_bet("banker"))
    assert [line.ways for line in sheet.lines] == [403_095_751_234_560, 83_552_962_932_288, 392_220_492_728_832]


def test_reference_sheets_pick_the_bets_and_share_one_enumeration() -> None:
    unsuited = Shoe.from_counts([2] * 13)
    mine = Bet("t-banker-wins", (PayLine("banker wins", banker_wins, Fraction(1)),), "test")
    sheets = reference_sheets(unsuited, BUILTIN_BETS.extended([mine]).values(), BUILTIN_CONFIGURATIONS.values())
    assert [c.name for c, _ in sheets.configurations] == list(BUILTIN_CONFIGURATIONS)
    assert [sheet.bet.name for sheet, _ in sheets.main] == [b.name for b, _ in distinct_bets(
        [b for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets])]
    main_names = {b.name for _, same in sheets.main for b in same}
    assert main_names == {b.name for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets}
    assert [b.name for b in sheets.omitted] == ["perfect-pair", "perfect-pair-v1", "perfect-pair-v2"]
    assert sheets.others[-1].bet is mine and all(s.bet.name not in main_names for s in sheets.others)
    assert sheets.others[-1] == par_sheet(unsuited, mine, detail=Detail.RANKS)
    assert sum(sheets.counts.values()) == sheets.total == sheets.others[0].total
    assert sheets.counts["banker"] == sheets.others[-1].lines[0].ways


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(1).without(parse_cards("A A 6")), Shoe.infinite_deck()],
                         ids=["8 decks", "1 deck less A A 6", "infinite"])
def test_par_sheet_lines_are_counted_as_each_coup_finds_its_line(shoe: Shoe) -> None:
    """Every bet's lines (counted once for the bets whose lines share their rules) hold the ways of the
    coups whose :meth:`~exact_odds.bets.Bet.line_index` is that line, each coup looked up alone."""
    bets = [*BUILTIN_BETS.values(), *(bet for c in BUILTIN_CONFIGURATIONS.values() for bet in c.bets)]
    for bet in bets:
        if bet.detail is Detail.SUITS and shoe.suited is None:
            continue
        expected = [0] * (len(bet.lines) + 1)
        for coup, ways in deal(shoe, detail=bet.detail).items():
            expected[bet.line_index(coup)] += ways
        assert [line.ways for line in par_sheet(shoe, bet).lines] == expected, bet.name


def test_par_sheet_figures_are_the_sums_over_its_lines() -> None:
    """A par sheet's expected value, variance and chances (summed over one denominator) are the sums of
    its lines' contributions, squared payouts and probabilities, for every built-in bet."""
    for bet in BUILTIN_BETS.values():
        sheet = par_sheet(Shoe.decks(6), bet)
        mean = sum((line.contribution for line in sheet.lines), Fraction(0))
        assert sheet.expected_value == mean, bet.name
        assert sheet.variance == sum((line.probability * line.pays**2 for line in sheet.lines), Fraction(0)) - mean**2
        for figure, sign in ((sheet.win, 1), (sheet.push, 0), (sheet.loss, -1)):
            chances = (line.probability for line in sheet.lines if (line.pays > 0) - (line.pays < 0) == sign)
            assert figure == sum(chances, Fraction(0)), bet.name
