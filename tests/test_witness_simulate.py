"""The simulator: vectorised dealing against the simple dealer and the oracle, the procedure,
reproducibility, bets, and the check against exact values (a right table passes, a wrong one fails):
the check of ``exact-odds verify`` on the log the simulator dealt, which ``--log`` writes."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import play

from exact_odds.bets import find_bet
from exact_odds.core.coup import COUP_CODES, OUTCOMES, Coup, Detail, coup_code, coup_table
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import COLUMNS, STANDARD_TABLEAU, Tableau, load_tableau
from exact_odds.dealing.dealer import deal_coup_simple, deal_coups, play_shoe_simple, play_shoes
from exact_odds.dealing.procedure import DealingError, Procedure, burn, code_card, shoe_card_codes
from exact_odds.dealing.shuffle import SHOE_BLOCK, fresh_six, shoe_cards, shoe_orders, shuffled_shoes
from exact_odds.engine.enumerator import deal, winners
from exact_odds.inputs.errors import InputError
from exact_odds.witness.simulate import SimulationCheck, SimulationError, simulate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
WRONG = load_tableau(EXAMPLES / "wrong_banker_6.toml")
EIGHT = Shoe.decks(8)

cards6 = st.lists(st.integers(0, 51), min_size=6, max_size=6)


def random_tableau(draw: Any) -> Tableau:
    naturals = frozenset(draw(st.sets(st.integers(6, 9), max_size=2)))
    return Tableau(
        "random", naturals,
        tuple(draw(st.booleans()) and t not in naturals for t in range(10)),
        tuple(tuple(draw(st.booleans()) and t not in naturals for _ in COLUMNS) for t in range(10)),
    )


tableaux = st.composite(random_tableau)()


# ---------------------------------------------------------------- the dealers agree


def test_coup_codes_round_trip() -> None:
    table = coup_table()
    assert len(table) == COUP_CODES and all(coup_code(c) == i for i, c in enumerate(table))


@settings(max_examples=300, deadline=None)
@given(cards6)
@example([8, 12, 4, 0, 20, 36])  # player 3+2=5 draws a 6, banker 4+1=5 draws: the 5-on-6 rule
@example([32, 36, 0, 4, 8, 12])  # a natural 9 for the player
def test_simple_dealer_matches_the_oracle(cards: list[int]) -> None:
    expected = play(tuple(code_card(c) for c in cards))
    coup, used = deal_coup_simple(cards, STANDARD_TABLEAU, Detail.SUITS)
    assert coup == expected and used == coup.cards


@settings(max_examples=60, deadline=None)
@given(tableaux, st.lists(cards6, min_size=1, max_size=40), st.sampled_from(list(Detail)))
@example(STANDARD_TABLEAU, [[8, 12, 4, 0, 20, 36], [0, 1, 2, 3, 4, 5]], Detail.SUITS)
def test_vectorised_dealer_matches_simple_dealer(tableau: Tableau, coups: list[list[int]], detail: Detail) -> None:
    codes, used = deal_coups(np.array(coups, dtype=np.uint8).T, tableau, detail)
    table = coup_table()
    for cards, code, n in zip(coups, codes, used, strict=True):
        coup, m = deal_coup_simple(cards, tableau, detail)
        assert table[code] == coup and n == m


@pytest.mark.parametrize("procedure", [Procedure(), Procedure(cut=7, last_coup="this"), Procedure(burn=False, cut=11),
                                       Procedure(cut=40)])
@pytest.mark.parametrize("tableau", [STANDARD_TABLEAU, WRONG])
def test_vectorised_shoes_match_simple_shoes(procedure: Procedure, tableau: Tableau) -> None:
    rng = np.random.default_rng(11)
    cards = rng.permuted(np.tile(np.array(shoe_card_codes(Shoe.decks(2)), dtype=np.uint8), (60, 1)), axis=1)
    play = play_shoes(cards, tableau, procedure, Detail.SUITS, compositions=True)
    table = coup_table()
    for s in range(len(cards)):
        simple = play_shoe_simple([int(c) for c in cards[s]], tableau, procedure, Detail.SUITS)
        mask = play.shoe == s
        assert [(int(p), table[c]) for p, c in zip(play.start[mask], play.codes[mask], strict=True)] == simple
        assert play.left is not None
        for (start, _), left, ranks in zip(simple, play.left[mask], play.left_ranks()[mask], strict=True):
            assert left.tolist() == np.bincount(cards[s][start:], minlength=52).tolist()
            assert ranks.tolist() == np.bincount(cards[s][start:] // 4, minlength=13).tolist()


@pytest.mark.parametrize("procedure", [Procedure(), Procedure(cut=7, last_coup="this"), Procedure(burn=False, cut=11),
                                       Procedure(cut=40)])
@pytest.mark.parametrize("tableau", [STANDARD_TABLEAU, WRONG])
@pytest.mark.parametrize("detail", [Detail.POINTS, Detail.RANKS, Detail.SUITS])
def test_compiled_shoes_match_vectorised_shoes(procedure: Procedure, tableau: Tableau, detail: Detail) -> None:
    """The compiled dealer (:mod:`exact_odds.dealing.loops`) deals the lockstep dealer's coups, shoe by shoe,
    and counts the same cards left before each."""
    pytest.importorskip("numba")
    from exact_odds.batch.compiled import load

    loops = load("exact_odds.dealing.loops")
    assert loops is not None
    rng = np.random.default_rng(12)
    for decks in (1, 8):
        cards = rng.permuted(np.tile(np.array(shoe_card_codes(Shoe.decks(decks)), dtype=np.uint8), (40, 1)), axis=1)
        for compositions in (False, True):
            plain = play_shoes(cards, tableau, procedure, detail, compositions=compositions)
            fast = play_shoes(cards, tableau, procedure, detail, compositions=compositions, loops=loops)
            for name in ("codes", "shoe", "start", *(("left",) if compositions else ())):
                got, want = getattr(fast, name), getattr(plain, name)
                assert got.dtype == want.dtype and np.array_equal(got, want), name
            assert (fast.left is None) is not compositions



def test_shoes_past_int16_positions_are_dealt_right() -> None:
    """A shoe of more than 32,767 cards (631 decks or more): every coup's first card is where the scalar
    dealer finds it, on either path, and so are its cards left (a start kept in 16 bits wrapped
    to negative positions from coup 6,659 of a 640-deck shoe: coups of the wrong cards, no error)."""
    decks = 640
    cards = np.random.default_rng(13).permuted(
        np.tile(np.array(shoe_card_codes(Shoe.decks(decks)), dtype=np.uint8), (1, 1)), axis=1)
    simple = play_shoe_simple([int(c) for c in cards[0]], STANDARD_TABLEAU, Procedure(), Detail.POINTS)
    assert simple[-1][0] > 2**15
    table = coup_table()
    from exact_odds.batch.compiled import load

    for loops in {None, load("exact_odds.dealing.loops")}:  # NumPy's, and the compiled when installed
        play = play_shoes(cards, STANDARD_TABLEAU, Procedure(), Detail.POINTS, compositions=True, loops=loops)
        assert [(int(p), table[c]) for p, c in zip(play.start, play.codes, strict=True)] == simple
        assert play.left is not None
        last = simple[-1][0]
        assert play.left[-1].tolist() == np.bincount(cards[0][last:], minlength=52).tolist()

@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.MT19937, np.random.Philox])
def test_compiled_shuffle_is_numpys(bits: type[np.random.BitGenerator]) -> None:
    """The compiled shuffle (:func:`exact_odds.dealing.loops.shuffle_rows`) gives ``Generator.permuted``'s
    rows and leaves the generator where it leaves it: shoes of 1 to 416 cards (masks of every width,
    rejected draws), a block's rows resumed from where the last call stopped, and the rows of a run."""
    pytest.importorskip("numba")
    from exact_odds.batch.compiled import load

    loops = load("exact_odds.dealing.loops")
    assert loops is not None
    for size in (1, 2, 3, 5, 52, 104, 257, 416):
        codes = [c % 52 for c in range(size)]
        plain, fast = np.random.Generator(bits(size)), np.random.Generator(bits(size))
        for shoes in (1, 7, 30):
            want = plain.permuted(np.tile(np.array(codes, dtype=np.uint8), (shoes, 1)), axis=1)
            got = shuffled_shoes(fast, codes, shoes, loops=loops)
            assert got.dtype == want.dtype and np.array_equal(got, want), (size, shoes)
        assert plain.integers(0, 2**62, 4).tolist() == fast.integers(0, 2**62, 4).tolist()
    codes = shoe_card_codes(Shoe.decks(1))
    assert np.array_equal(shoe_orders(codes, 5, SHOE_BLOCK - 3, SHOE_BLOCK + 2, loops=loops),
                          shoe_orders(codes, 5, SHOE_BLOCK - 3, SHOE_BLOCK + 2))


def test_both_dealers_rest_on_the_tableau(monkeypatch: pytest.MonkeyPatch) -> None:
    """The vectorised dealer plays through ``tableau.play_many``, the scalar one through ``tableau.play``."""
    import exact_odds.dealing.dealer as dealer
    from exact_odds.core import tableau

    calls = {"play_many": 0, "play": 0}

    def counted(name: str) -> Any:
        real = getattr(tableau, name)

        def spy(*args: Any) -> Any:
            calls[name] += 1
            return real(*args)
        return spy

    monkeypatch.setattr(dealer, "play_many", counted("play_many"))
    monkeypatch.setattr(dealer, "play", counted("play"))
    cards = shoe_cards(EIGHT, 3)
    simple = play_shoe_simple(cards, WRONG)
    fast = play_shoes(np.array([cards], dtype=np.uint8), WRONG, Procedure())
    assert calls == {"play_many": len(simple), "play": len(simple)}  # one shoe: one round per coup
    assert [coup_table()[c] for c in fast.codes] == [c for _, c in simple]
    points = [[code_card(c).rank.point for c in cards[s:s + 6]] for s, _ in simple]
    assert [tableau.play(WRONG, p) for p in points] == [
        tableau.Play(c.player, c.banker, c.player_cards, c.banker_cards) for _, c in simple]


def test_the_burn_removes_the_turned_card_and_hides_the_rest() -> None:
    cards = np.array([[4 * 6, 0, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41], [4 * 12, *range(1, 12)]], dtype=np.uint8)
    done = burn(cards, Procedure())
    assert done.start.tolist() == [8, 11]  # a seven turned burns seven more; a king, ten
    assert done.turned.argmax(axis=1).tolist() == [24, 48] and done.turned.sum() == 2
    assert done.hidden[0].nonzero()[0].tolist() == sorted(cards[0, 1:8].tolist())
    assert done.hidden[1].sum() == 10
    none = burn(cards, Procedure(burn=False))
    assert none.start.tolist() == [0, 0] and none.turned.sum() == none.hidden.sum() == 0


def test_cut_card_rules_by_hand() -> None:
    # 52 cards, all worth 0 but the first (a 2): every coup is 0 against 0, both hands draw,
    # six cards a coup.
    burn_two = [4] + [40] * 51  # a 2 turned: burn 2 more, so coups start at 3, 9, 15, ...
    coups = play_shoe_simple(burn_two, STANDARD_TABLEAU, Procedure(cut=16))
    starts = [s for s, _ in coups]
    # cut card before index 36: the coup starting at 33 deals card 36 (mid-coup), one more starts at 39.
    assert starts == [3, 9, 15, 21, 27, 33, 39]
    assert all(c == Coup(0, 0, 3, 3) for _, c in coups)
    this = play_shoe_simple(burn_two, STANDARD_TABLEAU, Procedure(cut=7, last_coup="this"))
    # cut card before index 45: it comes out with the first card of the coup at 45, the last.
    assert [s for s, _ in this][-1] == 45
    this = play_shoe_simple([4] + [40] * 51, STANDARD_TABLEAU, Procedure(cut=9, last_coup="this"))
    # cut card before index 43: the coup at 39 deals it mid-coup and is the last.
    assert [s for s, _ in this][-1] == 39
    exact = play_shoe_simple([4] + [40] * 51, STANDARD_TABLEAU, Procedure(cut=19))
    # the cut card before index 33 comes out as the first card of the coup at 33: that coup is the last.
    assert [s for s, _ in exact][-1] == 33


# ---------------------------------------------------------------- the fresh shuffle is exactly uniform


class _Picks:
    """A stand-in generator returning chosen picks, to enumerate every path of the partial shuffle."""

    def __init__(self, picks: np.ndarray) -> None:
        self.picks = picks

    def integers(self, low: int, high: int, size: int) -> np.ndarray:
        column = self.picks[:, low]
        assert column.min() >= low and column.max() < high and len(column) == size
        return column


def test_partial_shuffle_is_a_bijection_onto_ordered_six_card_deals() -> None:
    size = 8
    grids = np.meshgrid(*[np.arange(k, size) for k in range(6)], indexing="ij")
    picks = np.stack([g.ravel() for g in grids], axis=1)
    dealt = fresh_six(_Picks(picks), size, len(picks))  # type: ignore[arg-type]
    deals = {tuple(int(x) for x in col) for col in dealt.T}
    assert deals == set(permutations(range(size), 6))


# ---------------------------------------------------------------- simulations


def test_same_seed_same_run_and_shoes_do_not_depend_on_their_number() -> None:
    bets = [find_bet("banker")]
    a = simulate(EIGHT, shoes=5, seed=3, bets=bets, keep=True)
    b = simulate(EIGHT, shoes=5, seed=3, bets=bets, keep=True)
    c = simulate(EIGHT, shoes=9, seed=3, keep=True)
    assert a.coups == b.coups and a.bets == b.bets
    assert a.sequence is not None and c.sequence is not None and a.shoe_of is not None
    assert a.sequence.tolist() == c.sequence[: len(a.sequence)].tolist()
    first = play_shoe_simple(shoe_cards(EIGHT, 3, 4), STANDARD_TABLEAU, Procedure())
    assert [coup_table()[x] for x in a.sequence[a.shoe_of == 4]] == [c for _, c in first]
    assert simulate(EIGHT, coups=1000, seed=4).coups != simulate(EIGHT, coups=1000, seed=5).coups


def test_shoes_depend_only_on_the_seed_and_their_index() -> None:
    """Any run of shoes, across a block boundary too, is the documented block shuffle's rows."""
    codes = shoe_card_codes(Shoe.decks(1))
    run = shoe_orders(codes, 5, SHOE_BLOCK - 2, SHOE_BLOCK + 3)
    block0 = np.random.default_rng(np.random.SeedSequence(5, spawn_key=(0,))).permuted(
        np.tile(np.array(codes, dtype=np.uint8), (SHOE_BLOCK, 1)), axis=1)
    assert run[:2].tolist() == block0[-2:].tolist()
    assert [r.tolist() for r in run] == [shoe_cards(Shoe.decks(1), 5, i) for i in range(SHOE_BLOCK - 2, SHOE_BLOCK + 3)]


def test_rounds_in_shoe_mode_stop_mid_shoe() -> None:
    sim = simulate(EIGHT, coups=1234, seed=2, keep=True)
    assert sim.n == 1234 and sim.shoes == 16  # about 80 coups a shoe
    longer = simulate(EIGHT, coups=2000, seed=2, keep=True)
    assert sim.sequence is not None and longer.sequence is not None
    assert sim.sequence.tolist() == longer.sequence[:1234].tolist()


def test_batches_of_fewer_shoes_deal_the_same_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shoes dealt a few at a time (shoes of many cards, or the few a run of coups needs) and blocks
    skipped in pieces are the same shoes: a shoe depends only on the seed and its index."""
    from exact_odds.dealing import shuffle

    codes = shoe_card_codes(EIGHT)
    before = [simulate(EIGHT, coups=1234, seed=2, keep=True), simulate(EIGHT, shoes=7, seed=2, keep=True)]
    shuffle._RESUME.state = None
    rows = shoe_orders(codes, 7, 100, 150)
    monkeypatch.setattr(shuffle, "BATCH_CARDS", 3 * len(codes))  # three shoes a batch, and a piece when skipping
    assert shuffle.batch_end(5, 100, len(codes)) == 8 and shuffle.batch_end(SHOE_BLOCK - 1, 10**6, 1) == SHOE_BLOCK
    after = [simulate(EIGHT, coups=1234, seed=2, keep=True), simulate(EIGHT, shoes=7, seed=2, keep=True)]
    for old, new in zip(before, after, strict=True):
        assert old.sequence is not None and new.sequence is not None
        assert new.sequence.tolist() == old.sequence.tolist() and (new.n, new.shoes) == (old.n, old.shoes)
    shuffle._RESUME.state = None
    assert shoe_orders(codes, 7, 100, 150).tolist() == rows.tolist()
    shuffle._RESUME.state = None


def test_a_few_coups_of_big_shoes_deal_only_the_shoes_they_need() -> None:
    """One coup of 1,000-deck shoes deals a shoe or two, not a block of 2,048 shoes (106 million cards:
    10 s and 1 GB, and more than 4 GB at 10,000 decks)."""
    import tracemalloc

    tracemalloc.start()
    try:
        sim = simulate(Shoe.decks(1000), coups=1, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sim.n == 1 and sim.shoes == 1
    assert peak < 64 * 2**20


def test_bets_results_are_exact_sums_of_their_payouts() -> None:
    sim = simulate(Shoe.decks(6), coups=20_000, seed=9, procedure=Procedure(fresh=True),
                   bets=[find_bet("banker"), find_bet("tie")], keep=True)
    assert sim.sequence is not None
    table = coup_table()
    for result in sim.bets:
        path = [Fraction(0)]
        for code in sim.sequence:
            path.append(path[-1] + result.bet.payout(table[code]))
        assert result.net == path[-1] == sum(n * result.bet.payout(c) for c, n in sim.coups.items())
        assert (result.low, result.high) == (min(path), max(path))
        assert result.coups == 20_000


def test_pairs_are_recorded_at_the_bets_detail() -> None:
    sim = simulate(Shoe.decks(1), coups=50_000, seed=1, procedure=Procedure(fresh=True), detail=Detail.SUITS)
    pairs = sim.coups.probability(lambda c: c.player_pair)
    suited = sim.coups.probability(lambda c: c.player_suited)
    assert abs(pairs - Fraction(3, 51)) < Fraction(1, 200) and suited == 0  # one deck: no suited pair possible
    twins = sim.coups.ways(lambda c: c.twin_pair)
    assert twins == sim.coups.ways(lambda c: c.player_pair and c.banker_pair and c.twin_pair)


def test_infinite_deck_in_fresh_mode_only() -> None:
    sim = simulate(Shoe.infinite_deck(), coups=1000, seed=1, procedure=Procedure(fresh=True))
    assert sim.n == 1000
    with pytest.raises(DealingError, match="infinite deck has no cut card"):
        simulate(Shoe.infinite_deck(), coups=1000, seed=1)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"procedure": Procedure(cut=8)}, DealingError, "at least 11"),
    ({"procedure": Procedure(cut=5, last_coup="this")}, DealingError, "at least 6"),
    ({"shoe": Shoe.from_counts([2] * 13), "procedure": Procedure(cut=16)}, DealingError, "too small"),
    ({"seed": -1}, DealingError, "seed must be a whole number"),
    ({"coups": 0}, SimulationError, "at least 1"),
])
def test_bad_simulations(kwargs: dict[str, Any], error: type[InputError], message: str) -> None:
    args: dict[str, Any] = {"shoe": EIGHT, "coups": 10, "seed": 1} | kwargs
    shoe = args.pop("shoe")
    with pytest.raises(error, match=message):
        simulate(shoe, **args)


# ---------------------------------------------------------------- checks against exact values


def checked(*args: Any, **kwargs: Any) -> SimulationCheck:
    """The check of a simulation against the standard table's exact values."""
    check = simulate(*args, reference=STANDARD_TABLEAU, **kwargs).check
    assert check is not None
    return check


def test_fresh_check_passes_with_the_right_table_and_fails_with_a_wrong_one() -> None:
    bets = [find_bet("banker"), find_bet("player")]
    right = checked(EIGHT, coups=1_000_000, seed=1, procedure=Procedure(fresh=True), bets=bets)
    wrong = checked(EIGHT, coups=1_000_000, seed=1, procedure=Procedure(fresh=True), tableau=WRONG, bets=bets)
    outcomes = right.log.check("outcomes")
    assert right.verdict == "PASS" and outcomes.p_value is not None and outcomes.p_value > 0.01
    assert wrong.verdict == "FAIL" and wrong.log.check("rules").verdict == "FAIL"
    wrong_p = wrong.log.check("outcomes").p_value
    assert wrong_p is not None and wrong_p < 1e-50
    exact = winners(deal(EIGHT))
    assert outcomes.tallies[2].expected == pytest.approx(1_000_000 * float(exact.probability("tie")), rel=1e-12)
    assert all(e.covered for e in right.player_evs)
    assert right.player_evs[0].exact == deal(EIGHT).expectation(find_bet("banker").payout)  # exact over four blocks


def test_pearson_identity_in_fresh_mode() -> None:
    outcomes = checked(Shoe.decks(4), coups=50_000, seed=8, procedure=Procedure(fresh=True)).log.check("outcomes")
    pearson = sum((t.observed - t.expected) ** 2 / t.expected for t in outcomes.tallies)
    assert outcomes.tests[0].statistic == pytest.approx(pearson, rel=1e-9)


# ---------------------------------------------------------------- statistics


def test_p_value_is_the_two_degree_chi_square_tail() -> None:
    from exact_odds.core.stats import chi_square_sf

    outcomes = checked(Shoe.decks(2), coups=30_000, seed=3, procedure=Procedure(fresh=True)).log.check("outcomes")
    (test,) = outcomes.tests
    assert test.df == 2 and outcomes.p_value == pytest.approx(chi_square_sf(test.statistic, 2), rel=1e-12)
    assert math.exp(-3.0) == pytest.approx(chi_square_sf(6.0, 2), rel=1e-12)


def test_tiny_p_values_are_stated() -> None:
    from exact_odds.report.simulation import p_text

    assert p_text(0.0) == "< 1e-300"  # below the smallest float: said so, never shown as 0
    assert p_text(0.25) == "0.25" and p_text(3.2e-7) == "3.2e-07"


# ---------------------------------------------------------------- the command


def test_command_is_reproducible_byte_for_byte(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--rounds", "30000", "--seed", "5", "--verify", "--bets", "banker,player", "tie")
    first = run(capsys, *argv)
    assert first == run(capsys, *argv)
    assert first[0] == 0 and "Verification: PASS" in first[1] and first[2] == ""


def test_command_json_and_failing_status(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--fresh", "--rounds", "400000", "--seed", "1", "--verify",
                       "--rules", str(EXAMPLES / "wrong_banker_6.toml"), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "FAIL" and data["checks"]["outcomes"]["p_value"] < 1e-20
    assert data["checks"]["rules"]["verdict"] == "FAIL" and data["checks"]["rules"]["violations"]
    assert data["tableau"] == "wrong-banker-6" and data["reference_tableau"] == "standard"
    assert set(data["outcomes"]) == {"banker", "player", "tie"} and data["coups"] == 400_000
    assert list(data["checks"]) == ["rules", "labels", "accounting", "outcomes", "pairs", "cards"]


@pytest.mark.parametrize("argv", [
    ["simulate", "--rounds", "0"],
    ["simulate", "--cut-card", "3"],
    ["simulate", "--bets", "nonesuch"],
    ["simulate", "--seed", "-1"],
    ["simulate", "--rounds", "10", "--shoes", "2"],
    ["simulate", "--decks", "inf"],
])
def test_bad_command_lines(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exact-odds: error:")


def test_shoe_check_uses_each_coups_composition() -> None:
    bets = [find_bet("banker"), find_bet("tie")]
    check = checked(Shoe.decks(1), shoes=4, seed=6, bets=bets)
    outcomes = check.log.check("outcomes")
    assert check.log.shoes == 4 and outcomes.checked == check.log.coups
    # Independently: the exact probabilities of every coup from its shoe less the cards seen before it:
    # the burn card turned face up and the cards of the coups before it (the cards burned face down
    # are unseen, so still in the composition).
    expected = [Fraction(0)] * 3
    edge = Fraction(0)
    for s in range(4):
        cards = shoe_cards(Shoe.decks(1), 6, s)
        seen: list[int] = [cards[0]]
        for start, coup in play_shoe_simple(cards, STANDARD_TABLEAU, Procedure()):
            left = Shoe.from_counts([4 - sum(1 for c in seen if c // 4 == r) for r in range(13)])
            dist = winners(deal(left))
            expected = [e + dist.probability(w) for e, w in zip(expected, OUTCOMES, strict=True)]
            edge += deal(left).expectation(bets[0].payout)
            seen += cards[start:start + coup.cards]
    assert [t.expected for t in outcomes.tallies] == pytest.approx([float(e) for e in expected], rel=1e-12)
    assert check.player_evs[0].exact == pytest.approx(float(edge) / outcomes.checked, rel=1e-12)


def test_the_check_is_verify_on_the_log_the_simulator_writes(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """One path: ``simulate --verify`` gives the checks that ``verify`` gives on ``simulate --log``'s file."""
    for mode in (["--shoes", "30"], ["--fresh", "--rounds", "3000"]):
        path = tmp_path / "coups.csv"
        code, out, _ = run(capsys, "simulate", *mode, "--seed", "4", "--verify", "--log", str(path), "-q",
                           "--format", "json")
        simulated = json.loads(out)
        code_again, out, _ = run(capsys, "verify", str(path), "--format", "json")
        verified = json.loads(out)
        assert code == code_again == 0 and simulated["checks"] == verified["checks"]
        assert simulated["pairs"] == verified["pairs"] and simulated["cards"] == verified["cards"]
        assert simulated["coups"] == verified["log"]["coups"]
        header = path.read_text(encoding="utf-8").splitlines()[0]
        shoe = ["shoe", "burn"] if mode[0] == "--shoes" else []
        assert header.split(",") == [*shoe, "player", "banker", "winner", "player_total", "banker_total",
                                     "player_pair", "banker_pair"]
    assert [p.name for p in tmp_path.iterdir()] == ["coups.csv"]  # no temporary file left beside it


def test_a_failed_run_leaves_no_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "coups.csv"
    code, _, err = run(capsys, "simulate", "--rounds", "10", "--cut-card", "3", "--log", str(path))
    assert code == 2 and "cut card" in err and list(tmp_path.iterdir()) == []


def test_a_wrong_table_fails_the_rules_naming_the_coups() -> None:
    check = checked(EIGHT, shoes=10, seed=2, tableau=WRONG, procedure=Procedure())
    rules = check.log.check("rules")
    assert rules.verdict == "FAIL" and rules.violation_count > 0
    first = rules.violations[0]
    assert first.message.startswith(f"coup {first.coup} of shoe {first.shoe}: banker 6 drew after the player "
                                    "stood; the table says stand")


def test_the_log_shows_the_burn_card_so_the_end_of_a_shoe_raises_no_false_alarm() -> None:
    """A shoe's burn turns a card face up and burns as many as its value face down, so where the shoe
    ends depends on that card. Without it in the log, the last cards of long shoes (shoes that burned
    few cards, after a low card) look short of low cards: one deck, 10,000 honest shoes FAIL the card
    test. With the ``burn`` column the log carries, they PASS."""
    from dataclasses import replace

    from exact_odds.witness.verify import Verifier

    with_burn, without = Verifier(Shoe.decks(1)), Verifier(Shoe.decks(1))

    def record(log: Any) -> None:
        with_burn.add(log)
        without.add(replace(log, burn_ranks=None, burn_suits=None))

    simulate(Shoe.decks(1), shoes=10_000, seed=0, record=record)
    assert with_burn.result().verdict == "PASS"
    cards = without.result().check("cards")
    assert cards.verdict == "FAIL" and cards.p_value is not None and cards.p_value < 1e-9


@pytest.mark.parametrize("mode", ["shoes", "fresh"])
def test_our_simulator_passes_at_most_once_in_twenty(mode: str) -> None:
    runs = [checked(EIGHT, shoes=12, seed=seed) if mode == "shoes"
            else checked(EIGHT, coups=1000, seed=seed, procedure=Procedure(fresh=True)) for seed in range(20)]
    assert {r.log.mode for r in runs} == {mode}
    assert all(c.verdict == "PASS" for r in runs for c in r.log.checks[:3])  # rules, labels, accounting
    assert sum(r.verdict == "FAIL" for r in runs) <= 1


def test_verify_rules_names_the_tableau_of_the_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    wrong = str(EXAMPLES / "wrong_banker_6.toml")
    code, out, _ = run(capsys, "simulate", "--fresh", "--rounds", "400000", "--seed", "1", "--verify",
                       "--rules", wrong, "--verify-rules", wrong, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "PASS" and data["reference_tableau"] == "wrong-banker-6"


def test_progress_bar_only_when_enabled() -> None:
    import io

    from exact_odds.report.base import ProgressBar

    shown, hidden = io.StringIO(), io.StringIO()
    for stream, enabled in ((shown, True), (hidden, False)):
        bar = ProgressBar(stream, "simulate", enabled=enabled)
        simulate(EIGHT, coups=3 * 2**18, seed=1, procedure=Procedure(fresh=True), progress=bar)
        bar.close()
    assert "simulate [" in shown.getvalue() and " 33% " in shown.getvalue() and "100% " in shown.getvalue()
    assert shown.getvalue().endswith("\r") and hidden.getvalue() == ""


def test_bets_of_your_own_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--shoes", "20", "--seed", "2", "--verify", "--format", "json",
                       "--bets", "banker", str(EXAMPLES / "side_bets.toml"))
    data = json.loads(out)
    assert code == 0 and {"banker", "my-dragon-7", "9-over-7"} <= set(data["bets"]) <= set(data["player_ev_check"])
