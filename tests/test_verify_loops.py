"""verify's compiled loops against its NumPy steps on the same logs: the same arrays, of the same types."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from exact_odds.batch import compiled
from exact_odds.verify import CoupLog
from exact_odds.verify.checks import _compiled_hands, _plain_hands

loops = pytest.importorskip("exact_odds.verify.loops")


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
    found = CoupLog.from_shoes(cards, rows, start, codes=codes, shoe=rows + 1, suited=suited)
    for name in ("ranks", "suits", "player_cards", "banker_cards", "shoe"):
        assert np.array_equal(getattr(found, name), getattr(given, name)), name
    assert found.ranks.dtype == found.suits.dtype == np.int8
    assert found.labels.keys() == given.labels.keys() and found.columns == given.columns


def _simulated_log(decks: int, shoes: int) -> CoupLog:
    """The coups of ``shoes`` whole shoes as a simulator's log (burn cards shown)."""
    from exact_odds.shoe import Shoe
    from exact_odds.simulate import simulate

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
    from exact_odds.shoe import Shoe
    from exact_odds.verify import verify_log

    log = _simulated_log(decks, 40)
    for case in (log, _doctored(log)):
        found = []
        for setting in ("0", "1"):
            monkeypatch.setenv(compiled.JIT_ENV, setting)
            found.append(verify_log(case, Shoe.decks(decks), max_violations=50))
        assert repr(found[0].checks) == repr(found[1].checks)
        assert found[0].check("accounting").verdict == found[0].check("labels").verdict == (
            "PASS" if case is log else "FAIL")


def test_sorted_rows_are_numpys_rows_in_key_order() -> None:
    """The compiled rows of a chunk of cards (:func:`loops.sorted_rows`): each card's composition (its
    coup's less the coup's earlier cards: the last card's less its rank, or counted afresh after a
    gap) over its size and a one, the rows in the stable order of their keys, as NumPy forms them
    (the same floats), with each key's place."""
    from exact_odds.verify.cards import _numerators

    rng = np.random.default_rng(6)
    coups = 50
    ranks = rng.integers(1, 14, size=(coups, 6)).astype(np.int8)
    left = rng.integers(5, 33, size=(coups, 13))
    cards = [(c, e) for c in range(coups) for e in range(rng.integers(0, 7))]  # coups dealt in order
    cards += [(c, e) for c in range(coups) for e in range(6) if rng.random() < 0.4]  # slots skipped
    coup, slot = np.array(cards, dtype=np.int32).T
    slot = slot.astype(np.int8)
    n = len(coup)
    total = left.sum(axis=1) + rng.integers(0, 5, coups)
    key = rng.integers(0, 112, n).astype(np.int16)
    starts, part = np.empty(113, dtype=np.int64), np.full((n + 3, 14), np.nan)
    loops.sorted_rows(key, coup, slot, total, ranks, left, starts, part)
    order = np.argsort(key, kind="stable")
    size = (total[coup] - slot).astype(np.float64)
    want = np.ones((n, 14))
    counts = _numerators(ranks, left, coup[order].astype(np.intp), slot[order].astype(np.intp))
    want[:, :13] = counts / size[order][:, None]
    assert part[:n].tolist() == want.tolist()
    assert np.isnan(part[n:]).all()  # nothing written past the rows
    assert starts.tolist() == [0, *np.cumsum(np.bincount(key, minlength=112)).tolist()]
    for wrong in (np.zeros((n, 15))[:, :14], np.zeros((n - 1, 14)), np.zeros((n, 13))):
        with pytest.raises(ValueError, match="rows of the wrong shape"):
            loops.sorted_rows(key, coup, slot, total, ranks, left, starts, wrong)
