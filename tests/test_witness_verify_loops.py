"""verify's compiled loops against its NumPy steps on the same logs: the same arrays, of the same types."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from exact_odds.batch import compiled
from exact_odds.witness.verify import CoupLog
from exact_odds.witness.verify.checks import _compiled_hands, _plain_hands

loops = pytest.importorskip("exact_odds.witness.verify.loops")


def _random_log(seed: int, n: int = 5_000) -> CoupLog:
    """Coups of random cards and hand sizes from a few decks (pairs and twin pairs are frequent), a tenth
    of the suits missing."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(0, 8, size=(n, 6)) * 7 % 52
    log = CoupLog.from_dealt(cards, player_cards=rng.integers(2, 4, n), banker_cards=rng.integers(2, 4, n))
    suits = log.suits.copy()
    suits[rng.random(suits.shape) < 0.1] = -1
    return dataclasses.replace(log, suits=suits)


@pytest.mark.parametrize("seed", [1, 2])
def test_hands_compiled_as_in_numpy(seed: int) -> None:
    log = _random_log(seed)
    plain, fast = _plain_hands(log), _compiled_hands(loops, log)
    assert plain.player_pair.any() and plain.code.max() >= 6400  # twin pairs, suited pairs
    for field in dataclasses.fields(plain):
        a, b = getattr(plain, field.name), getattr(fast, field.name)
        assert a.dtype == b.dtype and np.array_equal(a, b), field.name


@pytest.mark.parametrize("setting", ["0", "1"])
@pytest.mark.parametrize("suited", [True, False])
def test_a_log_from_shoes_is_the_log_from_dealt(setting: str, suited: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Coups taken from rows of shoes (NumPy or compiled) give the log of the same cards given coup by coup,
    the last coup of a shoe ending at its last card."""
    monkeypatch.setenv(compiled.JIT_ENV, setting)
    rng = np.random.default_rng(3)
    cards = rng.integers(0, 52, size=(4, 40)).astype(np.uint8)
    rows = np.repeat(np.arange(4, dtype=np.int32), 6)
    start = np.tile(np.array([0, 6, 12, 20, 30, 36], dtype=np.int16), 4)
    codes = rng.integers(0, 800, size=len(rows)).astype(np.int16)  # player and banker draw in some
    index = np.minimum(start[:, None].astype(np.intp) + np.arange(6), 39)
    given = CoupLog.from_dealt(cards[rows[:, None], index], codes=codes, shoe=rows + 1, suited=suited)
    found = CoupLog.from_dealt(cards, rows=rows, start=start, codes=codes, shoe=rows + 1, suited=suited)
    for name in ("ranks", "suits", "player_cards", "banker_cards", "shoe"):
        assert np.array_equal(getattr(found, name), getattr(given, name)), name
    assert found.ranks.dtype == found.suits.dtype == np.int8
    assert found.labels.keys() == given.labels.keys() and found.columns == given.columns


def _simulated_log(decks: int, shoes: int) -> CoupLog:
    """The coups of ``shoes`` whole shoes as a simulator's log (burn cards shown)."""
    from exact_odds.core.shoe import Shoe
    from exact_odds.witness.simulate import simulate

    found: list[CoupLog] = []
    simulate(Shoe.decks(decks), seed=11, shoes=shoes, record=found.append)
    assert len(found) == 1 and found[0].burn_ranks is not None
    return found[0]


def _doctored(log: CoupLog) -> CoupLog:
    """``log`` with one card as the first four of its first three coups (more than 8 decks hold), a suit
    left out and a winner mislabelled."""
    ranks, suits = log.ranks.copy(), log.suits.copy()
    ranks[:3, :4], suits[:3, :4] = ranks[0, 0], suits[0, 0]
    suits[5, 1] = -1
    winner = log.labels["winner"].copy()
    winner[7] = (winner[7] + 1) % 3
    labels = {**log.labels, "winner": winner}
    return dataclasses.replace(log, ranks=ranks, suits=suits, labels=labels)


@pytest.mark.parametrize("decks", [1, 8])
def test_the_verification_is_the_same_on_both_paths(decks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every check of a simulator's log, honest or doctored (a card dealt too often, a missing suit, a
    wrong label), is the same with NumPy alone and with the compiled loops: verdicts, violations, floats."""
    from exact_odds.core.shoe import Shoe
    from exact_odds.witness.verify import verify_log

    log = _simulated_log(decks, 40)
    for case in (log, _doctored(log)):
        found = []
        for setting in ("0", "1"):
            monkeypatch.setenv(compiled.JIT_ENV, setting)
            found.append(verify_log(case, Shoe.decks(decks), max_violations=50))
        assert repr(found[0].checks) == repr(found[1].checks)
        assert found[0].check("accounting").verdict == found[0].check("labels").verdict == (
            "PASS" if case is log else "FAIL")


def _card_block(seed: int) -> tuple[np.ndarray, ...]:
    """A block of coups: random ranks (some slots empty, coups filled in order), compositions and
    positions in their shoes, some coups opening a shoe, some whose shoes do not add up."""
    rng = np.random.default_rng(seed)
    coups = 300
    ranks = rng.integers(1, 14, size=(coups, 6)).astype(np.int8)
    ranks[np.arange(6) >= rng.integers(4, 7, coups)[:, None]] = 0
    left = rng.integers(5, 33, size=(coups, 13))
    total = left.sum(axis=1) + rng.integers(0, 5, coups)
    first = rng.random(coups) < 0.1
    ok = rng.random(coups) < 0.9
    dealt = rng.integers(0, 416, coups)
    return ranks, first, ok, dealt, total, left


@pytest.mark.parametrize("chunk", [7, 65_536])
def test_card_sums_are_numpys_sums(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled card tally (:func:`loops.card_sums`: keys, counts, compositions carried from the
    card before, sums of products key by key in dealing order, a chunk at a time) gives the NumPy
    path's counts and the same bits of every sum."""
    from exact_odds.witness.verify import odds as cards

    monkeypatch.setattr(cards, "CHUNK", chunk)
    ranks, first, ok, dealt, total, left = _card_block(4)
    seen, gram = np.zeros((112, 13), dtype=np.int64), np.zeros((112, 14, 14))
    every = cards._cards(ranks, first, total, dealt, ok, 52, seen)
    cards._add_grams(gram, every.key, every, ranks, left)
    found_seen, found = np.zeros_like(seen), np.zeros_like(gram)
    acc, p = np.zeros((112, 14, 16)), np.zeros(16)
    n = loops.card_sums(ranks, first, ok, dealt, total, left, 52, 8, chunk, found_seen, found, acc, p)
    assert n == len(every.key) == int(seen.sum()) > 1000 and gram[:, 13, 13].sum() == n
    assert np.array_equal(found_seen, seen)
    assert found.tobytes() == gram.tobytes()
    with pytest.raises(ValueError, match="a tally of the wrong shape"):
        loops.card_sums(ranks, first, ok, dealt, total, left, 52, 8, chunk, seen, gram, acc[:, :, :14].copy(), p)


def test_sums_of_products_in_dealing_order() -> None:
    """:func:`cards._sum_products` adds each row's products one row after another from the first
    (Python's floats added in that order: the same bits), across its pieces of rows."""
    from exact_odds.witness.verify.odds import SUM_ROWS, _sum_products

    rows = np.random.default_rng(5).random((2 * SUM_ROWS + 3, 4))
    want = [[0.0] * 4 for _ in range(4)]
    for t, row in enumerate(rows.tolist()):
        for i in range(4):
            for j in range(4):
                want[i][j] = row[i] * row[j] if t == 0 else want[i][j] + row[i] * row[j]
    assert _sum_products(rows).tolist() == want


@pytest.mark.parametrize("names", [("banker", "player", "tie"), ("banker",)])
def test_winner_odds_are_the_evaluations_floats(names: tuple[str, ...]) -> None:
    """The compiled odds of bets paid by the winner (:func:`loops.winner_odds`) are the floats of the
    evaluation's own probabilities and edges (its numerators from the kernel, not weighed), in the
    same memory order; NumPy's path through :func:`odds._many_odds` gives them too."""
    from exact_odds.batch import evaluate
    from exact_odds.bets import find_bet
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.witness.verify import odds

    bets = tuple(find_bet(n) for n in names)
    left = np.random.default_rng(7).integers(0, 33, size=(500, 13))
    found = evaluate(left, bets=bets)
    paid = odds._by_winner(STANDARD_TABLEAU, bets)
    assert paid is not None
    probabilities, ev = np.empty((500, 3), order="F"), np.empty((500, len(bets)))
    loops.winner_odds(found.outcomes, found.sequences, paid[0], np.array(paid[1], dtype=np.float64), probabilities, ev)
    want_p, want_ev = found.probabilities(), found.edges()
    assert probabilities.tobytes(order="A") == want_p.tobytes(order="A") and want_p.flags.f_contiguous
    assert ev.tobytes() == want_ev.tobytes() and want_ev.flags.c_contiguous
    for setting in ("0", "1"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(compiled.JIT_ENV, setting)
            got = odds._many_odds(left, STANDARD_TABLEAU, bets, None)
        assert got.outcomes.tobytes(order="A") == want_p.tobytes(order="A") and got.outcomes.flags.f_contiguous
        assert got.ev.tobytes(order="A") == want_ev.tobytes(order="A") and got.ev.flags.c_contiguous
    kept = odds._Kept()  # arrays kept from call to call: larger, then smaller calls give the same odds
    for rows in (500, 120):
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(compiled.JIT_ENV, "1")
            got = odds._many_odds(left[:rows], STANDARD_TABLEAU, bets, None, kept)
        assert got.outcomes.tobytes(order="F") == want_p[:rows].tobytes(order="F") and got.outcomes.flags.f_contiguous
        assert got.ev.tobytes() == want_ev[:rows].tobytes() and got.ev.flags.c_contiguous
    with pytest.raises(ValueError, match="odds of the wrong shape"):
        loops.winner_odds(found.outcomes, found.sequences, paid[0], np.zeros(0), probabilities, ev)
