"""Odds given the cards dealt: against brute force over tiny shoes, the engine, and the rules."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from conftest import body, run
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import grouped_tableau, play, play_tableau, point, point_counts, shoe_cards

from exact_odds.analysis.conditional import (
    Dealt,
    DealtError,
    deal_given,
    dealing_order,
    explain_coup,
    parse_dealt,
)
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import RANKS, Card, Shoe, falling, parse_cards
from exact_odds.core.tableau import (
    STANDARD_TABLEAU,
    Tableau,
    banker_rule,
    load_tableau,
    natural_totals,
    player_rule,
)
from exact_odds.dealing.dealer import shoe_coup
from exact_odds.engine.enumerator import deal, winners
from exact_odds.inputs.errors import InputError
from exact_odds.report import fraction_text

WRONG = load_tableau(Path(__file__).parent.parent / "examples" / "wrong_banker_6.toml")
"""The standard table, except that the banker draws on 6 when the player stood."""


def dealt_prefix(seq: tuple[Card, ...], k: int, tableau: Tableau = STANDARD_TABLEAU) -> Dealt:
    """The first ``k`` cards of a coup dealt from ``seq``, split into hands as the dealer would
    (who drew is read from the oracle's play of the whole sequence under ``tableau``)."""
    player = [seq[i] for i in (0, 2) if i < k]
    banker = [seq[i] for i in (1, 3) if i < k]
    player_drew = play_tableau(tableau, [point(c) for c in seq])[2] == 3
    if k >= 5:
        (player if player_drew else banker).append(seq[4])
    if k == 6:
        banker.append(seq[5])
    return Dealt(tuple(player), tuple(banker))


def matches(card: Card, spec: Card) -> bool:
    return card.rank == spec.rank and (spec.suit is None or card.suit == spec.suit)


def restricted_brute_force(cards: list[Card], prefix: tuple[Card, ...], detail: Detail) -> tuple[Counter[Coup], int]:
    """Brute-force ways of every coup over sequences starting with ``prefix``, and the prefix's own ways."""
    out: Counter[Coup] = Counter()
    for seq in permutations(cards, 6):
        if all(matches(c, s) for c, s in zip(seq, prefix, strict=False)):
            coup = play(seq)
            if detail is Detail.POINTS:
                coup = Coup(*coup[:4])
            elif detail is Detail.RANKS:
                coup = coup._replace(player_suited=False, banker_suited=False)
            out[coup] += 1
    ways, left = 1, list(cards)
    for spec in prefix:
        hits = [c for c in left if matches(c, spec)]
        ways *= len(hits)
        left.remove(hits[0])
    return out, ways


tiny_shoes = st.lists(st.integers(0, 12), min_size=6, max_size=8).map(
    lambda ranks: Shoe.from_counts([ranks.count(i) for i in range(13)]))


@settings(max_examples=40, deadline=None)
@given(tiny_shoes, st.randoms(use_true_random=False), st.integers(0, 6), st.sampled_from(list(Detail)[:2]))
@example(Shoe.from_counts([0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 2]), None, 5, Detail.RANKS)
def test_given_equals_restricted_brute_force(shoe: Shoe, rnd: object, k: int, detail: Detail) -> None:
    cards = shoe_cards(shoe)
    order = list(cards)
    if rnd is not None:
        rnd.shuffle(order)  # type: ignore[attr-defined]
    seq = tuple(order[:6])
    k = min(k, play(seq).cards)
    dealt = dealt_prefix(seq, k)
    assert dealing_order(dealt) == seq[:k]
    brute, prefix_ways = restricted_brute_force(cards, seq[:k], detail)
    got = deal_given(shoe, dealt, detail=detail)
    assert got == Dist({c: n // prefix_ways for c, n in brute.items()})
    assert all(n % prefix_ways == 0 for n in brute.values())
    assert got.total == falling(shoe.size - k, 6 - k)


@settings(max_examples=40, deadline=None)
@given(tiny_shoes, st.randoms(use_true_random=False), st.integers(0, 6))
@example(Shoe.from_counts([0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 2]), None, 5)  # 6 6 7 7 K K: banker 6 v 7 draws
def test_given_follows_a_custom_tableau(shoe: Shoe, rnd: object, k: int) -> None:
    cards = shoe_cards(shoe)
    if rnd is not None:
        rnd.shuffle(cards)  # type: ignore[attr-defined]
    else:  # P 7, B 6, P K, B K, then the banker's 6 draws under WRONG (and stands under the standard table)
        cards = list(parse_cards("7 6 K K 6 7"))
    seq = tuple(cards[:6])
    points = [point(c) for c in seq]
    k = min(k, sum(play_tableau(WRONG, points)[2:]))
    dealt = dealt_prefix(seq, k, WRONG)
    assert dealing_order(dealt, WRONG) == seq[:k]
    rest = point_counts(point(c) for c in cards[k:])
    expected = grouped_tableau(rest, WRONG, points[:k])
    got = deal_given(shoe, dealt, WRONG)
    assert {tuple(c[:4]): n for c, n in got.items()} == dict(expected)


def test_a_custom_tableau_decides_the_dealt_cards_and_the_story() -> None:
    shoe, dealt = Shoe.decks(1), parse_dealt("P: 7h Kc B: 6d Ks")
    w = winners(deal_given(shoe, dealt, WRONG))  # the banker's 6 draws: a 2 or 3 wins, an ace ties
    assert (w["banker"], w["tie"], w["player"]) == (8 * 47, 4 * 47, 36 * 47)
    assert winners(deal_given(shoe, dealt)).probability("player") == 1
    drawn = parse_dealt("P: 7h Kc B: 6d Ks 2c")
    assert len(dealing_order(drawn, WRONG)) == 5
    with pytest.raises(DealtError, match="banker stands on 6"):
        dealing_order(drawn)
    steps, coup = explain_coup(shoe, parse_cards("7h 6d Kc Ks 2c"), WRONG)
    assert coup == Coup(7, 8, 2, 3)
    assert steps[-1].text == ("The banker has 6 and draws (when the player stands, the banker draws on 0-6): "
                              "2c makes 8.")


def test_the_rule_in_words() -> None:
    assert natural_totals(STANDARD_TABLEAU) == [8, 9]
    assert player_rule(STANDARD_TABLEAU) == "the player draws on 0-5 and stands on 6 or 7"
    assert banker_rule(STANDARD_TABLEAU, 3, 8) == "with 3 the banker draws when the player's third card is 0-7 or 9"
    assert banker_rule(STANDARD_TABLEAU, 2, 8) == "with 2 the banker always draws when the player has drawn"
    assert banker_rule(STANDARD_TABLEAU, 7, 1) == "with 7 the banker always stands when the player has drawn"
    assert banker_rule(WRONG, 6, None) == "when the player stands, the banker draws on 0-6"


def test_suited_prefix_on_a_suited_tiny_shoe() -> None:
    shoe = Shoe.from_counts([4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4])  # four aces and four kings, suits known
    cards = shoe_cards(shoe)
    for dealt in (parse_dealt("P: Ah B: Kh"), parse_dealt("P: As Ah B: Ks Kh")):
        prefix = dealing_order(dealt)
        brute, ways = restricted_brute_force(cards, prefix, Detail.SUITS)
        assert deal_given(shoe, dealt, detail=Detail.SUITS) == Dist({c: n // ways for c, n in brute.items()})


def test_nothing_dealt_is_the_engine() -> None:
    assert deal_given(Shoe.decks(8), Dealt()) == deal(Shoe.decks(8))


def test_law_of_total_probability_over_the_first_card() -> None:
    shoe = Shoe.decks(8)
    total: Counter[Coup] = Counter()
    for rank in RANKS:
        for coup, n in deal_given(shoe, Dealt((Card(rank),))).items():
            total[coup] += shoe.count(rank) * n
    assert Dist(total) == deal(shoe)


def test_conditional_ways_given_a_third_card_by_hand() -> None:
    # Player 9+4 = 3 draws a 5 (8); banker K+3 = 3 draws on a third card of 5, so one card
    # decides, out of the 47 left: a 6 (four left) gives the banker 9, a 5 (three left after
    # the 5d) ties at 8, anything else leaves the player's 8 ahead.
    w = winners(deal_given(Shoe.decks(1), parse_dealt("P: 9h 4c 5d B: Kd 3s")))
    assert (w["banker"], w["tie"], w["player"], w.total) == (4, 3, 40, 47)


def test_a_finished_coup_counts_only_its_unused_positions() -> None:
    dist = deal_given(Shoe.decks(1), parse_dealt("P: 9h 9c B: Kd 2s"))  # player 8: a natural
    assert dist == Dist({Coup(8, 2, 2, 2): 48 * 47})


@pytest.mark.parametrize(("text", "message"), [
    ("P: 9h B: Kd 5c", "player, banker, player, banker"),
    ("B: Kd", "player, banker, player, banker"),
    ("P: 9h 9c 5d B: Kd 2s", "natural 8"),
    ("P: 3h 3c 5d B: Kd Ks", "player stands on 6"),
    ("P: 3h 2c B: Kd Ks 4d", "give the player's third card first"),
    ("P: 3h 2c 8d B: 4d Ks 4c", "banker stands on 4"),
    ("P: 3h 2c 9d B: 6d Ks 4d", "with 6 the banker draws when the player's third card is 6 or 7"),
    ("P: 3h 3c 5d 2d B: Kd Ks", "at most three cards"),
    ("9h 4c", "start with 'P:' or 'B:'"),
    ("P: 9h P: 4c", "named twice"),
    ("", "no cards dealt"),
    ("P: 9x", "unknown rank"),
])
def test_impossible_dealt_cards(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        deal_given(Shoe.decks(8), parse_dealt(text))


def test_dealt_cards_must_be_in_the_shoe() -> None:
    with pytest.raises(InputError, match="no A left"):
        deal_given(Shoe.from_counts([0] + [4] * 12), parse_dealt("P: A"))
    with pytest.raises(DealtError):
        parse_dealt("P: 9h 4c X: Kd")


def test_explained_coup_by_hand() -> None:
    steps, coup = explain_coup(Shoe.decks(8), parse_cards("9h Kd 4c 6s 5c 2d"))
    assert coup == Coup(8, 6, 3, 2)
    texts = [s.text for s in steps]
    assert texts[1] == "Player 3, banker 6 on the first four cards."
    assert texts[2].startswith("The player has 3 and draws (the player draws on 0-5 and stands on 6 or 7): 5c")
    assert texts[3] == ("The banker has 6 and stands (with 6 the banker draws when the player's third card is "
                        "6 or 7).")
    after = steps[2].odds
    assert after is not None and winners(after).probability("player") == 1
    assert steps[0].odds == deal(Shoe.decks(8)) and steps[1].odds == deal_given(Shoe.decks(8), steps[1].cards)


def test_explained_natural_and_standing_player() -> None:
    steps, coup = explain_coup(Shoe.decks(8), parse_cards("9h Kd Kc 2s"))
    assert coup == Coup(9, 2, 2, 2) and "The player has a natural 9: both hands stand" in steps[-1].text
    steps, coup = explain_coup(Shoe.decks(8), parse_cards("6h Kd Kc 5s 3d"))
    assert coup == Coup(6, 8, 2, 3)
    assert steps[-2].text == "The player has 6 and stands (the player draws on 0-5 and stands on 6 or 7)."
    assert steps[-1].text.startswith("The banker has 5 and draws (when the player stands, the banker draws on 0-5)")


# ---------------------------------------------------------------- the commands


def test_odds_dealt_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--dealt", "P: 9h 4c B: Kd", "--format", "json")
    data = json.loads(out)
    w = winners(deal_given(Shoe.decks(8), parse_dealt("P: 9h 4c B: Kd")))
    assert code == 0 and data["dealt"] == "P: 9h 4c B: Kd" and data["cards_left"] == 413
    assert data["outcomes"]["banker"]["combinations"] == w["banker"] and data["sequences"] == 413 * 412 * 411
    code, out, _ = run(capsys, "odds", "--decks", "1", "--dealt", "P: 9h 4c 5d B: Kd 3s")
    assert code == 0 and "4/47" in out and "47 in all" in out


@pytest.mark.parametrize("argv", [
    ["odds", "--dealt", "P: 9h 9c 5d B: Kd 2s"],
    ["odds", "--dealt", "P: 9h B: Kd 4c"],
    ["odds", "--decks", "1", "--dealt", "P: 9h 9h B: 9h"],
    ["deal", "--seed", "1", "--coup", "999"],
    ["deal", "--seed", "1", "--cut-card", "2"],
])
def test_bad_dealt_and_deal_commands(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exact-odds: error:")


def test_deal_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--seed", "7")
    assert code == 0 and out == run(capsys, "deal", "--seed", "7")[1]
    sc = shoe_coup(Shoe.decks(8), 7)
    assert body(out).startswith(
        "Coup 1 of 81 in a shoe of 8 decks shuffled with seed 7 (burn: 2♠ turned face up, 2 cards")
    assert "  Player  7♦ A♥" in out and "  Banker  A♣ 6♥" in out and "Player wins, 8 to 7." in out
    assert [str(c) for c in sc.cards[:4]] == ["7d", "Ac", "Ah", "6h"]
    ascii_out = run(capsys, "deal", "--seed", "7", "--coup", "5", "--ascii")[1]
    assert "♠" not in ascii_out and "  Banker  3h 9h 3s" in ascii_out
    assert "(with 2 the banker always draws when the player has drawn): 3s makes 5." in ascii_out
    data = json.loads(run(capsys, "deal", "--seed", "7", "--coup", "5", "--format", "json")[1])
    assert data["winner"] == "banker" and data["banker"] == {"cards": ["3h", "9h", "3s"], "total": 5}
    assert data["steps"][0]["odds"]["tie"]["probability"] == fraction_text(
        winners(deal(shoe_coup(Shoe.decks(8), 7, coup=5).remaining)).probability("tie"))
