"""Partial information about the next coup: brute force over tiny shoes, identities, published values.

The oracle deals every ordered six-card sequence of a tiny shoe (``tests/oracle.py``, whose
rules are a second reading of the printed tableau) and keeps those whose card at each
position agrees with the information: the position is that card of the shoe, whether or not
the coup uses it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations

import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import play, shoe_cards

from exact_odds.analysis.conditional import Dealt, deal_given, dealing_order, parse_dealt
from exact_odds.analysis.information import (
    Information,
    InformationError,
    Known,
    advantage,
    deal_cases,
    deal_dealt,
    deal_known,
    player_ev,
)
from exact_odds.analysis.information.bulk import first_card_values
from exact_odds.analysis.information.given import (
    EXCLUDED,
    Classes,
    Flags,
    Label,
    Scheme,
    ThirdKey,
    classes_of,
    first_four,
    flag_shares,
    kinds_of,
    scheme_of,
    suit_splits,
    walk,
)
from exact_odds.analysis.information.knowledge import matches
from exact_odds.bets import find_bet
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.shoe import RANKS, SUITS, Card, Rank, Shoe, ShoeError, Suit, falling, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal, winners
from exact_odds.inputs.errors import InputError
from exact_odds.report import fraction_text, percent_text

# ---------------------------------------------------------------- the oracle


def at_detail(coup: Coup, detail: Detail) -> Coup:
    """What a coup records at ``detail`` (the oracle plays every flag)."""
    if detail is Detail.POINTS:
        return Coup(*coup[:4])
    if detail is Detail.RANKS:
        return coup._replace(player_suited=False, banker_suited=False)
    return coup


def agrees(seq: Sequence[Card], known: Known) -> bool:
    return all(cards is None or matches(cards, card.rank, card.suit)
               for card, cards in zip(seq, known.cards, strict=True))


def brute_known(cards: list[Card], known: Known, detail: Detail) -> Counter[Coup]:
    """Ways of every coup over the ordered six-card sequences that agree with ``known``."""
    out: Counter[Coup] = Counter()
    for seq in permutations(cards, 6):
        if agrees(seq, known):
            out[at_detail(play(seq), detail)] += 1
    return out


def brute_cases(cards: list[Card], info: Information, detail: Detail) -> dict[tuple[str, ...], Counter[Coup]]:
    """Ways of every coup by the case of ``info`` the sequence falls in."""
    out: dict[tuple[str, ...], Counter[Coup]] = {}
    for seq in permutations(cards, 6):
        case = tuple(info.label_of(i, seq[p - 1].rank, seq[p - 1].suit) for i, p in enumerate(info.positions))
        out.setdefault(case, Counter())[at_detail(play(seq), detail)] += 1
    return out


def suited_shoe(cards: Sequence[tuple[int, int]]) -> Shoe:
    """A shoe of the given (rank index, suit index) cards, suits known (any suit mix)."""
    suited = [[0] * 4 for _ in RANKS]
    for r, s in cards:
        suited[r][s] += 1
    return Shoe(tuple(sum(row) for row in suited), tuple(tuple(row) for row in suited))


def tiny(ranks: Sequence[int]) -> Shoe:
    return Shoe.from_counts([list(ranks).count(i) for i in range(13)])


def dealt_prefix(seq: tuple[Card, ...], k: int) -> Dealt:
    """The first ``k`` cards of a coup dealt from ``seq`` (standard rules), split into hands."""
    player = [seq[i] for i in (0, 2) if i < k]
    banker = [seq[i] for i in (1, 3) if i < k]
    if k >= 5:
        (player if play(seq).player_cards == 3 else banker).append(seq[4])
    if k == 6:
        banker.append(seq[5])
    return Dealt(tuple(player), tuple(banker))


# Tiny shoes of 6-8 cards with suits known (any mix of suits), few ranks so that pairs happen.
tiny_cards = st.lists(st.tuples(st.sampled_from([0, 3, 6, 8, 9, 12]), st.integers(0, 3)), min_size=6, max_size=8)
card_specs = st.one_of(
    st.sampled_from([0, 3, 6, 8, 9, 12]).map(lambda r: RANKS[r].label),  # a rank
    st.tuples(st.sampled_from([0, 6, 8, 12]), st.sampled_from(list(SUITS))).map(
        lambda rs: f"{RANKS[rs[0]].label}{rs[1].value}"),  # a card with its suit
    st.sets(st.sampled_from([0, 3, 6, 8, 9, 12]), min_size=2, max_size=4).map(
        lambda rs: "|".join(RANKS[r].label for r in sorted(rs))),  # a set of ranks
)
knowledge = st.dictionaries(st.integers(1, 6), card_specs, min_size=1, max_size=3).map(Known.of)
details = st.sampled_from(list(Detail))


@settings(max_examples=60, deadline=None)
@given(tiny_cards, knowledge, details)
@example([(0, 0), (0, 1), (8, 0), (8, 2), (12, 0), (12, 3), (6, 1)], Known.parse("5=7"), Detail.POINTS)
@example([(0, 0), (0, 0), (8, 0), (8, 2), (12, 0), (12, 0), (12, 1)], Known.parse("1=A 3=Ks"), Detail.SUITS)
@example([(3, 0), (6, 1), (8, 0), (9, 2), (12, 0), (12, 3)], Known.parse("6=4|7 2=K"), Detail.RANKS)
def test_known_equals_brute_force(cards: list[tuple[int, int]], known: Known, detail: Detail) -> None:
    shoe = suited_shoe(cards)
    brute = brute_known(shoe_cards(shoe), known, detail)
    if not brute:
        with pytest.raises(InformationError, match="no sequence"):
            deal_known(shoe, known, detail=detail)
        return
    assert deal_known(shoe, known, detail=detail) == Dist(brute)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=6, max_size=8), knowledge, st.sampled_from(list(Detail)[:2]))
@example([0, 0, 8, 8, 12, 12, 3], Known.parse("1=A|9 4=K|9 5=4"), Detail.RANKS)
def test_known_without_suits_equals_brute_force(ranks: list[int], known: Known, detail: Detail) -> None:
    shoe = tiny(ranks)
    if any(c.suit is not None for cards in known.cards if cards for c in cards):
        with pytest.raises(ShoeError, match="suits are known"):
            deal_known(shoe, known, detail=detail)
        return
    brute = brute_known(shoe_cards(shoe), known, detail)
    if brute:
        assert deal_known(shoe, known, detail=detail) == Dist(brute)


def informations(most: int = 3) -> st.SearchStrategy[Information]:
    positions = st.lists(st.integers(1, 6), min_size=1, max_size=most, unique=True)
    groups = st.sets(st.sampled_from(["A", "4", "7", "9", "K", "7h", "9s", "K|Q", "8|9"]), min_size=1, max_size=2)
    by_rank = positions.map(lambda ps: Information.rank_at(*ps))
    by_group = st.tuples(positions, groups).filter(lambda pg: _disjoint(pg[1])).map(
        lambda pg: Information.grouped(pg[0], {f"g{i}": spec for i, spec in enumerate(sorted(pg[1]))}))
    return st.one_of(by_rank, by_group)


def _disjoint(specs: set[str]) -> bool:
    seen = [{(c.rank, s) for c in Known.parse(f"1={spec}").cards[0] or () for s in ([c.suit] if c.suit else SUITS)}
            for spec in specs]
    return all(not (a & b) for i, a in enumerate(seen) for b in seen[i + 1:])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(tiny_cards, informations(), details)
@example([(0, 0), (0, 1), (8, 0), (8, 2), (12, 0), (12, 3), (6, 1)], Information.rank_at(5), Detail.POINTS)
@example([(0, 0), (6, 1), (8, 0), (8, 3), (12, 0), (12, 3)], Information.rank_at(6, 1), Detail.RANKS)
@example([(6, 1), (6, 0), (8, 0), (8, 3), (12, 0), (12, 0), (6, 1)],
         Information.grouped([1, 3], {"seven of hearts": "7h"}), Detail.SUITS)
def test_cases_equal_brute_force(cards: list[tuple[int, int]], info: Information, detail: Detail) -> None:
    shoe = suited_shoe(cards)
    got = deal_cases(shoe, info, detail=detail)
    brute = brute_cases(shoe_cards(shoe), info, detail)
    assert got == {case: Dist(ways) for case, ways in brute.items()}
    for case, dist in got.items():  # each case is the knowledge it amounts to
        assert deal_known(shoe, info.known(case), detail=detail) == dist


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=13, max_size=13), st.integers(1, 6), st.sampled_from(list(Detail)[:2]))
@example([32] * 13, 5, Detail.POINTS)
@example([4, 0, 7, 1, 12, 4, 4, 2, 9, 4, 1, 4, 3], 6, Detail.RANKS)
def test_cases_add_up_to_the_shoe(counts: list[int], position: int, detail: Detail) -> None:
    """Sum over the ranks at any position: every coup's ways are the engine's."""
    shoe = Shoe.from_counts(counts)
    total: Counter[Coup] = Counter()
    for dist in deal_cases(shoe, Information.rank_at(position), detail=detail).values():
        total.update(dict(dist.items()))
    assert Dist(total) == deal(shoe, detail=detail)


NO_FLAGS: Flags = (False,) * 5


def last_two(cl: Classes, left: Sequence[int], pt: int, bt: int, tableau: Tableau,
             infinite: bool) -> dict[ThirdKey, Ways]:
    """Ways of positions 5 and 6 given the first four: drawn by the tableau, or unused but counted."""
    fin = 0 if infinite else 1
    five = [c for c in range(len(left)) if left[c] and cl.five[c] is not EXCLUDED]
    six = [c for c in range(len(left)) if left[c] and cl.six[c] is not EXCLUDED]
    by_label: dict[Label, int] = {}
    for c in six:
        by_label[cl.six[c]] = by_label.get(cl.six[c], 0) + left[c]
    out: dict[ThirdKey, Ways] = {}
    player_draws = tableau.player_draws_on(pt, bt)
    banker_alone = not player_draws and tableau.banker_draws_given(pt, bt, None)
    for x in five:
        px, nx, l5 = cl.point[x], left[x], cl.five[x]
        if player_draws and tableau.banker_draws_given(pt, bt, px):
            for y in six:
                ny = left[y] - fin * (x == y)
                if ny:
                    key = ((pt + px) % 10, (bt + cl.point[y]) % 10, 3, 3, l5, cl.six[y])
                    out[key] = out.get(key, 0) + nx * ny
            continue
        if player_draws:
            coup = ((pt + px) % 10, bt, 3, 2)
        else:
            coup = (pt, (bt + px) % 10 if banker_alone else bt, 2, 3 if banker_alone else 2)
        for l6, m in by_label.items():  # the sixth card is not used: any card left, by its label
            m -= fin * (cl.six[x] == l6)
            if m:
                key = (*coup, l5, l6)
                out[key] = out.get(key, 0) + nx * m
    return out




def walk_reference(shoe: Shoe, scheme: Scheme, tableau: Tableau,
                   detail: Detail) -> dict[tuple[Label, ...], dict[Coup, Ways]]:
    """:func:`walk` the plain way: the last two positions played per composition left, then summed."""
    infinite = shoe.infinite
    kinds = kinds_of(shoe, scheme, detail)
    cl, class_of = classes_of(kinds)
    splits = suit_splits(kinds, infinite) if detail is Detail.SUITS else {}
    four = first_four(kinds, class_of, detail, infinite)
    stages: dict[tuple[int, int, tuple[int, ...]], dict[ThirdKey, Ways]] = {}
    acc: dict[tuple[tuple[Label, ...], Flags, ThirdKey], Ways] = {}
    for (pt, bt, removed, player, banker, labels), w4 in four.items():
        stage = stages.get((pt, bt, removed))
        if stage is None:
            left = list(cl.count)
            for c in removed:
                left[c] -= 1
            stage = stages[(pt, bt, removed)] = last_two(cl, left, pt, bt, tableau, infinite)
        for flags, wf in flag_shares(w4, player, banker, splits) if detail is not Detail.POINTS else ((NO_FLAGS, w4),):
            for third, w in stage.items():
                key = (labels, flags, third)
                acc[key] = acc.get(key, 0) + wf * w
    out: dict[tuple[Label, ...], dict[Coup, Ways]] = {}
    for (labels, flags, (p, b, pc, bc, l5, l6)), w in acc.items():
        if w:
            out.setdefault((*labels, l5, l6), {})[Coup(p, b, pc, bc, *flags)] = w
    return out


@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6), informations(1),
       st.sampled_from(list(Detail)[:2]))
@example([32] * 13, Information.rank_at(6), Detail.SUITS)
@example([3, 0, 1, 0, 5, 0, 4, 0, 0, 7, 0, 2, 2], Information.grouped([5], {"a": "9s"}), Detail.POINTS)
def test_summing_by_moments_equals_playing_each_composition(counts: list[int], info: Information,
                                                             detail: Detail) -> None:
    """The fast path (first fours summed by their moments) gives the plain walk's integers."""
    shoe = Shoe.from_counts([4 * c for c in counts])
    scheme = scheme_of(shoe, Known(), info)
    assert walk(shoe, scheme, STANDARD_TABLEAU, detail) == walk_reference(shoe, scheme, STANDARD_TABLEAU, detail)


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(1), Shoe.infinite_deck()], ids=str)
def test_nothing_known_is_the_engine(shoe: Shoe) -> None:
    for detail in Detail:
        assert deal_known(shoe, Known(), detail=detail) == deal(shoe, detail=detail)


def test_the_law_of_total_probability_at_every_position_on_the_infinite_deck() -> None:
    shoe = Shoe.infinite_deck()
    for position in (1, 5, 6):
        cases = deal_cases(shoe, Information.rank_at(position))
        assert [d.total for d in cases.values()] == [4 * 52**5] * 13
        total: Counter[Coup] = Counter()
        for dist in cases.values():
            total.update(dict(dist.items()))
        assert Dist(total) == deal(shoe)


def test_a_known_card_by_hand() -> None:
    # One deck; 9 and 9 to the player, K and K to the banker: a natural 8 whatever comes next.
    # The four cards can be dealt in 4 * 4 * 3 * 3 ways, the two unused ones in 48 * 47.
    dist = deal_known(Shoe.decks(1), Known.parse("1=9 2=K 3=9 4=K"))
    assert dist == Dist({Coup(8, 0, 2, 2): 4 * 4 * 3 * 3 * 48 * 47})
    # The seven of hearts as the fifth card: one card of 52 there, 51 * 50 * 49 * 48 * 47 for the rest.
    assert deal_known(Shoe.decks(1), Known.parse("5=7h")).total == 51 * 50 * 49 * 48 * 47


# ---------------------------------------------------------------- the coup under way


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=6, max_size=8), st.randoms(use_true_random=False), st.integers(0, 6),
       st.sampled_from(list(Detail)[:2]))
@example([3, 3, 4, 4, 12, 12], None, 5, Detail.RANKS)
def test_dealt_prefix_equals_deal_given(ranks: list[int], rnd: object, k: int, detail: Detail) -> None:
    """``odds --dealt`` through this library: identical integers to ``conditional.deal_given``."""
    shoe = tiny(ranks)
    order = shoe_cards(shoe)
    if rnd is not None:
        rnd.shuffle(order)  # type: ignore[attr-defined]
    seq = tuple(order[:6])
    dealt = dealt_prefix(seq, min(k, play(seq).cards))
    assert deal_dealt(shoe, dealing_order(dealt), detail=detail) == deal_given(shoe, dealt, detail=detail)


@pytest.mark.parametrize("text", ["P: 9h 4c B: Kd", "P: 9", "P: 9h B: Kd", "P: 3h 2c 8d B: 4d Ks", "P: 9h 9c B: Kd 2s",
                                  "P: As Ah B: Ks Kh", "P: 6h Kc B: 3d Ks 8d", "P: 3 2 8 B: 4 K"])
@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(1), Shoe.infinite_deck()], ids=str)
def test_dealt_cards_on_real_shoes(text: str, shoe: Shoe) -> None:
    dealt = parse_dealt(text)
    order = dealing_order(dealt)
    for detail in (Detail.POINTS, Detail.RANKS, Detail.SUITS):
        if detail is Detail.SUITS and (len(order) < 4 or not all(c.suit for c in order[:4])):
            continue
        assert deal_dealt(shoe, order, detail=detail) == deal_given(shoe, dealt, detail=detail)


# ---------------------------------------------------------------- published values

# E. Jacobson, "Baccarat: The Known Card", apheat.net, 13 August 2012 (also in his book
# "Advanced Advantage Play"): the edge from knowing one of the next six cards of an 8-deck
# shoe, wagering on the side the card favours, printed to three decimals of a percent.
JACOBSON_KNOWN_CARD = {1: "6.765%", 2: "6.406%", 3: "6.765%", 4: "6.406%", 5: "8.973%", 6: "9.098%"}
# Exact values of this library (the printed ones, rounded, agree at every position).
EXACT_KNOWN_CARD = {
    1: Fraction(6604082064256, 97624966318425), 2: Fraction(3925625342, 61283720225),
    3: Fraction(6604082064256, 97624966318425), 4: Fraction(3925625342, 61283720225),
    5: Fraction(8760050563676, 97624966318425), 6: Fraction(2960507902606, 32541655439475),
}


@pytest.mark.parametrize("position", range(1, 7))
def test_known_card_values_agree_with_the_published_ones(position: int) -> None:
    worth = advantage(Shoe.decks(8), Information.rank_at(position), [find_bet("banker"), find_bet("player")])
    assert percent_text(worth.value, 3) == JACOBSON_KNOWN_CARD[position]
    assert worth.value == EXACT_KNOWN_CARD[position]
    assert worth.flat_value == 0 and worth.gain == worth.value


def test_sitting_out_matters_at_the_printed_precision() -> None:
    """Card 2 a 5: neither side is favoured; betting anyway costs 0.017% per coup."""
    bets = [find_bet("banker"), find_bet("player")]
    worth = advantage(Shoe.decks(8), Information.rank_at(2), bets, sit_out=False)
    assert percent_text(worth.value, 3) == "6.389%"
    sitting = advantage(Shoe.decks(8), Information.rank_at(2), bets)
    assert [c.case for c in sitting.cases if c.best is None] == [("5",)]


# The counts of each first card, 8 decks, as printed by excelpunks.com, "Concepts 14: Baccarat
# 1st Card Advantage" (2018): (player wins, banker wins, ties) over ordered six-card sequences.
FIRST_CARD_COUNTS = {
    "A": (159747170699264, 189857873692672, 34887130646784),
    "2": (160408944947200, 188725567889408, 35357662202112),
    "3": (161429794906112, 187253976461312, 35808403671296),
    "4": (162751823355904, 184376516966400, 37363834716416),
    "5": (166618505969664, 179969323315200, 37904345753856),
    "6": (173075882563584, 170168183390208, 41248109084928),
    "7": (185770147510272, 157451915216896, 41270112311552),
    "8": (206999120039936, 140506916139008, 36986138859776),
    "9": (215108869548032, 132334879180800, 37048426309888),
}


def test_first_card_counts_agree_with_the_published_ones() -> None:
    cases = deal_cases(Shoe.decks(8), Information.rank_at(1))
    for rank, (player, banker, tie) in FIRST_CARD_COUNTS.items():
        w = winners(cases[(rank,)])
        assert (w["player"], w["banker"], w["tie"]) == (player, banker, tie)
        assert w.total == 32 * falling(415, 5)


def test_four_card_edge_sort_agrees_with_the_published_value() -> None:
    """E. Jacobson, "Edge Sorting in Baccarat", apheat.net, 18 August 2012: the first four cards
    sorted high {6, 7, 8, 9} / low, best of banker, player and tie: an average edge of 20.928%."""
    bets = [find_bet(n) for n in ("banker", "player", "tie")]
    worth = advantage(Shoe.decks(8), Information.grouped([1, 2, 3, 4], {"high": "6|7|8|9"}), bets)
    assert percent_text(worth.value, 3) == "20.928%"
    both_low = [c for c in worth.cases if c.case == ("other",) * 4]
    assert [c.best for c in both_low] == [None]  # "one scenario where no profitable wager exists"
    # "the player holds HL and the banker LL ... 20.502% of the time, offering a 36.332% advantage"
    player_hl = (("high", "other", "other", "other"), ("other", "other", "high", "other"))
    hl_ll = [c for c in worth.cases if c.case in player_hl]
    chance = sum((c.probability for c in hl_ll), Fraction(0))
    assert percent_text(chance, 3) == "20.502%"
    assert percent_text(sum((c.probability * c.ev[1] for c in hl_ll), Fraction(0)) / chance, 3) == "36.332%"
    # "the only profitable move is to wager on a tie, occurring approximately 19.075% of the time"
    assert percent_text(sum((c.probability for c in worth.cases if c.best_bet == "tie"), Fraction(0)), 3) == "19.075%"


def test_player_ev_given_knowledge() -> None:
    bets = [find_bet("banker"), find_bet("player")]
    dist = deal_known(Shoe.decks(8), Known.parse("1=9"))
    assert player_ev(dist, bets)[1] == dist.expectation(find_bet("player").payout)
    assert percent_text(player_ev(dist, bets)[1], 4) == "21.5281%"


# ---------------------------------------------------------------- specs and errors


def test_specs_read_and_write_back() -> None:
    known = Known.parse("P1=7|9 B1=Kh, 6=A")
    assert known.spec() == "1=7|9 2=Kh 6=A" and Known.parse(known.spec()) == known
    assert known.cards_at(2) == frozenset({Card(Rank.KING, Suit.HEARTS)}) and known.positions == (1, 2, 6)
    assert Known.prefix(parse_cards("9h 4c")) == Known.parse("1=9h 2=4c")
    assert Known.parse("1=7|8").and_(Known.parse("1=8|9 2=K")) == Known.parse("1=8 2=K")
    info = Information.parse("1-4", "high=6|7|8|9")
    assert info.positions == (1, 2, 3, 4) and info.labels[0] == ("high", "other") and len(info.cases()) == 16
    assert Information.parse("5").cases()[0] == ("A",) and Information.parse("2", "9").labels == (("in", "other"),)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Known.parse("7=9"), "unknown position"),
    (lambda: Known.parse("1=9 1=K"), "given twice"),
    (lambda: Known.parse("19"), "POSITION=CARDS"),
    (lambda: Known.parse("1=X"), "unknown rank"),
    (lambda: Known.parse("1=7").and_(Known.parse("1=8")), "cannot be both"),
    (lambda: Information.parse("1", "a=7 b=7|8"), "must hold every card once"),
    (lambda: Information.parse("1,1"), "named twice"),
    (lambda: Information.parse("1", "other=7"), "'other' is the label"),
    (lambda: deal_known(Shoe.decks(1), Known.parse("1=Kh 2=Kh")), "no sequence"),
    (lambda: deal_known(tiny([0] * 13), Known.parse("1=Ah")), "suits are known"),
    (lambda: advantage(Shoe.decks(1), Information.rank_at(1), []), "at least one bet"),
    (lambda: deal_dealt(Shoe.decks(1), parse_cards("9 Kh"), detail=Detail.SUITS), "suits of the first four"),
])
def test_mistakes_are_input_errors(make: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        make()  # type: ignore[operator]


# ---------------------------------------------------------------- the commands


def test_odds_known_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--known", "1=9", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["known"] == "1=9" and data["sequences"] == 32 * falling(415, 5)
    assert data["outcomes"]["player"]["combinations"] == FIRST_CARD_COUNTS["9"][0]
    player, banker, _ = FIRST_CARD_COUNTS["9"]
    assert data["player_ev"]["player"] == fraction_text(Fraction(player - banker, 32 * falling(415, 5)))
    code, out, _ = run(capsys, "odds", "--decks", "1", "--known", "5=7h", "--known", "1=K")
    assert code == 0 and "given 1=K 5=7h" in out and "player_ev" in out


def test_advantage_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advantage", "--position", "1", "--bet", "banker,player", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "6604082064256/97624966318425" and len(data["cases"]) == 13
    assert data["cases"][8] == {**data["cases"][8], "case": {"1": "9"}, "best": "player"}
    code, out, _ = run(capsys, "advantage", "--position", "1", "--groups", "6|7|8|9", "--bet", "banker,player")
    assert code == 0 and "+6.7647%" in out and "sitting out allowed" in out
    for fmt in ("markdown", "csv", "latex"):
        code, out, _ = run(capsys, "advantage", "--decks", "1", "--position", "5", "--config", "ez",
                           "--known", "1=9", "--format", fmt)
        assert code == 0 and ("ez/banker" in out) and ("given 1=9" in out)


@pytest.mark.parametrize("argv", [
    ["odds", "--known", "1=9", "--dealt", "P: 9"],
    ["odds", "--known", "0=9"],
    ["odds", "--known", "1=9h", "--shoe", "A=5,9=5"],
    ["advantage", "--position", "7"],
    ["advantage", "--bet", "no-such-bet"],
    ["advantage", "--groups", "x=7 y=7"],
    ["advantage", "--decks", "1", "--known", "1=Kh 2=Kh"],
])
def test_bad_advantage_and_known_commands(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exact-odds: error:")


# ---------------------------------------------------------------- the first card's group in bulk


@settings(max_examples=10, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
                min_size=1, max_size=4),
       st.sampled_from([{"high": "6|7|8|9"}, {"zero": "T|J|Q|K"}, {"a": "A|2", "b": "9"}]), st.just(False))
@example([[32] * 13, [0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0]], {"high": "6|7|8|9"}, False)
@example([[300] * 13, [5, 0, 9, 1, 0, 4, 7, 2, 0, 3, 1, 0, 6]], {"court": "J|Q|K"}, True)  # ranks, Python integers
def test_bulk_first_card_values_equal_the_walk(compositions: list[list[int]], groups: dict[str, str],
                                               pairs: bool) -> None:
    """Many compositions at once: the same integers as :func:`advantage`, composition by composition."""
    bets = [find_bet("banker"), find_bet("player"), find_bet("super-6/banker")] + (
        [find_bet("player-pair")] if pairs else [])
    info = Information.grouped([1], groups)
    values = first_card_values(compositions, info, bets)
    for i, counts in enumerate(compositions):
        worth = advantage(Shoe.from_counts(counts), info, bets)
        by_label = {case.case: case for case in worth.cases}
        for g, label in enumerate(values.labels):
            case = by_label.get((label,))
            assert int(values.ways[i, g]) == (case.ways if case else 0)
            if case:
                assert [values.expectation(i, g, b) for b in range(len(bets))] == list(case.ev)
                assert values.best(i, g) == case.best
        assert values.value(i) == worth.value


def test_bulk_values_refuse_what_they_cannot_do() -> None:
    bets = [find_bet("banker")]
    with pytest.raises(InformationError, match="first card only"):
        first_card_values([[32] * 13], Information.rank_at(2), bets)
    with pytest.raises(InformationError, match="not by suit"):
        first_card_values([[32] * 13], Information.grouped([1], {"h": "7h"}), bets)
    with pytest.raises(InformationError, match="suits"):
        first_card_values([[32] * 13], Information.rank_at(1), [find_bet("perfect-pair")])
