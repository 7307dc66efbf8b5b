"""Sessions: the exact n-hand distribution and risk of ruin against brute force, simulated sessions, the command."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from itertools import pairwise, product
from pathlib import Path

import numpy as np
import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.analysis.sessions import (
    OneHand,
    SessionError,
    one_hand,
    parse_bankroll,
    ruin_probability,
    session_distribution,
)
from exact_odds.bets import find_bet
from exact_odds.core.coup import coup_table
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import Shoe
from exact_odds.dealing.procedure import Procedure
from exact_odds.witness.simulate import QUANTILES, SessionTally, compare_sessions, share_z, simulate, simulate_sessions

EIGHT = Shoe.decks(8)


def probabilities(dist: Dist[Fraction]) -> dict[Fraction, Fraction]:
    return {v: Fraction(w, dist.total) for v, w in dist.items()}


def hand_dist(one: OneHand) -> Dist[Fraction]:
    return Dist({Fraction(s, one.scale): w for s, w in zip(one.steps, one.ways, strict=True)})


@pytest.mark.parametrize("bet", ["banker", "player", "tie"])
def test_session_is_the_repeated_independent_product(bet: str) -> None:
    one = one_hand(Shoe.decks(1), find_bet(bet))
    hand = hand_dist(one)
    combined = hand
    for hands in range(1, 5):
        assert probabilities(session_distribution(one, hands).dist()) == probabilities(combined)
        combined = combined.combine(hand, lambda a, b: a + b)


def test_one_hand_is_the_engine_distribution_of_the_payout() -> None:
    one = one_hand(EIGHT, find_bet("banker"))
    assert one.steps == (-20, 0, 19) and one.scale == 20
    assert one.probability(Fraction(19, 20)) == Fraction(2292252566437888, 4998398275503360)
    assert one.mean() == Fraction(-114753351728, 10847218479825)  # the published banker edge, 1.0579%


def test_mean_and_variance_add_up_over_hands() -> None:
    one = one_hand(EIGHT, find_bet("tie"))
    var1 = session_distribution(one, 1).variance()
    d = session_distribution(one, 60)
    assert d.mean() == 60 * one.mean() and d.variance() == 60 * var1
    assert d.total == one.total**60 and sum(d.ways) == d.total


def test_the_session_variance_is_the_distributions() -> None:
    d = session_distribution(one_hand(Shoe.decks(1), find_bet("banker")), 4)
    second_moment = d.dist().expectation(lambda net: net * net)
    assert d.variance() == d.dist().variance(lambda net: net) == second_moment - d.mean() ** 2
    rows = d.cumulative()
    assert [v for v, _, _ in rows] == [v for v, _ in d.items()] and rows[-1][2] == 1
    assert sum(p for _, p, _ in rows) == 1


def test_exact_figures_without_simulated_sessions() -> None:
    one = one_hand(EIGHT, find_bet("banker"))
    exact = session_distribution(one, 10)
    ruin = ruin_probability(one, 10, 5)
    figures = compare_sessions(one, exact, ruin).figures
    assert [f.kind for f in figures] == ["mean", "sd", "ahead", "even", "behind", *["quantile"] * 5, "ruin"]
    assert [f.q for f in figures if f.kind == "quantile"] == list(QUANTILES)
    assert all(f.simulated is None and f.z is None for f in figures)
    mean, sd, ahead, even, behind = figures[:5]
    assert mean.exact == 10 * one.mean() and sd.exact == float(exact.variance()) ** 0.5
    assert ahead.exact + even.exact + behind.exact == 1 and figures[-1].exact == ruin.probability
    assert [f.is_probability for f in figures[:5]] == [False, False, True, True, True] and figures[-1].is_probability
    assert figures[7].exact == exact.quantile(Fraction(1, 2))


def dealt_sessions(bet_name: str, *, hands: int, sessions: int, seed: int, bankroll: Fraction,
                   procedure: Procedure | None = None) -> tuple[list[Fraction], list[bool]]:
    """The same coups dealt again, all kept: each session's net result and whether it was ruined, by hand."""
    bet = find_bet(bet_name)
    sim = simulate(EIGHT, seed=seed, coups=hands * sessions, detail=bet.detail, procedure=procedure or Procedure(),
                   keep=True)
    assert sim.sequence is not None
    table = coup_table()
    nets, ruined = [], []
    for s in range(sessions):
        money = low = bankroll
        for code in sim.sequence[hands * s:hands * (s + 1)]:
            money += bet.payout(table[code])
            low = min(low, money)
        nets.append(money - bankroll)
        ruined.append(low < 1)
    return nets, ruined


def test_simulated_figures_are_read_off_the_simulated_sessions() -> None:
    bet = find_bet("banker")
    one = one_hand(EIGHT, bet)
    exact, ruin = session_distribution(one, 20), ruin_probability(one, 20, 4)
    sims = simulate_sessions(EIGHT, bet, hands=20, sessions=400, seed=2, bankroll=Fraction(4))
    figures = {(f.kind, f.q): f for f in compare_sessions(one, exact, ruin, sims).figures}
    dealt, ruined = dealt_sessions("banker", hands=20, sessions=400, seed=2, bankroll=Fraction(4))
    nets = sorted(dealt)
    mean = figures[("mean", None)]
    assert mean.simulated == sum(nets) / 400 and mean.z is not None
    standard_error = (float(exact.variance()) / 400) ** 0.5
    assert mean.z == pytest.approx((float(sum(nets) / 400) - float(exact.mean())) / standard_error)
    assert figures[("sd", None)].simulated == pytest.approx(float(np.std(np.array(nets, dtype=float), ddof=1)))
    ahead = figures[("ahead", None)]
    assert ahead.simulated == Fraction(sum(n > 0 for n in nets), 400)
    assert ahead.z == share_z(sum(n > 0 for n in nets), 400, ahead.exact)  # type: ignore[arg-type]
    assert figures[("quantile", Fraction(1, 4))].simulated == nets[99]  # the 100th of 400, P(net <= it) >= 1/4
    assert figures[("ruin", None)].simulated == Fraction(sum(ruined), 400)


def test_share_z() -> None:
    assert share_z(60, 100, Fraction(1, 2)) == pytest.approx(2.0)
    assert share_z(0, 100, Fraction(0)) is None and share_z(5, 5, Fraction(1)) is None
    assert share_z(0, 0, Fraction(1, 2)) is None


def brute_ruin(one: OneHand, hands: int, bankroll: Fraction) -> Fraction:
    """Every sequence of hand results, with its probability; ruined if the bankroll ever drops below one unit."""
    ruined = Fraction(0)
    for seq in product(range(len(one.steps)), repeat=hands):
        money, p, broke = bankroll, Fraction(1), False
        for i in seq:
            p *= Fraction(one.ways[i], one.total)
            if not broke:
                money += Fraction(one.steps[i], one.scale)
                broke = money < 1
        if broke:
            ruined += p
    return ruined


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["banker", "player", "tie"]), st.integers(1, 6), st.sampled_from([1, 2, 3, "5/2", "41/20"]))
@example("banker", 5, "41/20")
def test_ruin_against_every_path(bet: str, hands: int, bankroll: object) -> None:
    one = one_hand(Shoe.decks(2), find_bet(bet))
    b = Fraction(str(bankroll))
    ruin = ruin_probability(one, hands, b)
    assert ruin.probability == brute_ruin(one, hands, b)
    assert list(ruin.by_hand) == sorted(ruin.by_hand) and ruin.by_hand[-1] == ruin.probability


def test_ruin_edges() -> None:
    one = one_hand(EIGHT, find_bet("player"))
    assert ruin_probability(one, 10, 11).probability == 0  # ten losses leave one unit
    assert ruin_probability(one, 10, 10).probability == one.probability(-1) ** 10
    assert ruin_probability(one, 1, 1).probability == one.probability(-1)
    with pytest.raises(SessionError, match="at least one unit"):
        ruin_probability(one, 10, Fraction(1, 2))
    # 2.5 units and 2 units are ruined alike with whole-unit results.
    assert ruin_probability(one, 10, Fraction(5, 2)).by_hand == ruin_probability(one, 10, 2).by_hand


def test_too_long_a_session_is_refused_with_a_hint() -> None:
    with pytest.raises(SessionError, match="use at most about"):
        session_distribution(one_hand(EIGHT, find_bet("banker")), 5000)


def test_bankroll_text() -> None:
    assert parse_bankroll("12.5") == Fraction(25, 2) and parse_bankroll("20") == 20
    for bad in ("x", "0.5", "1/0"):
        with pytest.raises(SessionError):
            parse_bankroll(bad)


def test_simulated_sessions_follow_their_coups() -> None:
    bet = find_bet("banker")
    sims = simulate_sessions(EIGHT, bet, hands=30, sessions=200, seed=4, bankroll=Fraction(3))
    nets, ruined = dealt_sessions("banker", hands=30, sessions=200, seed=4, bankroll=Fraction(3))
    assert sims.sessions == 200 and sims.tally.ruined == sum(ruined)
    assert [(Fraction(value, sims.scale), n) for value, n in sims.tally.items()] == sorted(
        (net, nets.count(net)) for net in set(nets))


def test_simulated_ruin_agrees_with_the_exact_chain() -> None:
    bet = find_bet("player")
    one = one_hand(EIGHT, bet)
    sims = simulate_sessions(EIGHT, bet, hands=50, sessions=20_000, seed=1, bankroll=Fraction(5),
                             procedure=Procedure(fresh=True))
    p = float(ruin_probability(one, 50, 5).probability)
    assert abs(sims.tally.ruined / 20_000 - p) < 4 * (p * (1 - p) / 20_000) ** 0.5
    mean = float(session_distribution(one, 50).mean())
    assert abs(sims.tally.total() / 20_000 - mean) < 4 * 7.1 / 20_000**0.5


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 7), st.lists(st.integers(-20, 20), max_size=60), st.lists(st.integers(0, 60), max_size=6),
       st.integers(-15, 0))
@example(3, [1, -2, 1, -1, -1, 5, 0], [1, 4], -1)
def test_a_tally_is_the_same_however_the_coups_come(hands: int, paid: list[int], cuts: list[int], floor: int) -> None:
    """Blocks of any size (a session split across blocks, a block of several sessions) sum to what
    the sessions cut out whole give."""
    paid = paid[:len(paid) - len(paid) % hands]
    tally = SessionTally(hands, floor)
    bounds = sorted({0, len(paid), *(c for c in cuts if c <= len(paid))})
    for a, b in pairwise(bounds):
        tally.add(np.array(paid[a:b], dtype=np.int64))
    sessions = [paid[i:i + hands] for i in range(0, len(paid), hands)]
    nets = [sum(s) for s in sessions]
    assert tally.sessions == len(sessions) and not tally.pending
    assert tally.items() == sorted((n, nets.count(n)) for n in set(nets))
    assert tally.ruined == sum(min(np.cumsum(s)) < floor for s in sessions)
    assert tally.total() == sum(nets)
    if len(nets) > 1:
        assert tally.variance() == Fraction(sum(n * n for n in nets) * len(nets) - sum(nets) ** 2,
                                            len(nets) * (len(nets) - 1))
    assert [tally.order_statistic(k) for k in range(len(nets))] == sorted(nets)


def test_simulated_sessions_keep_no_list_of_sessions() -> None:
    """Memory does not grow with the number of sessions: five times the sessions, the same peak (once
    the dealer's batches are full size, 2,048 shoes, and two of them dealt: 40,000 sessions of 10 hands
    take about 5,000 shoes). Kept, the coups' codes of 160,000 more sessions of 10 hands would take
    3.2 MB, their results 1.3 MB."""
    import tracemalloc

    bet = find_bet("banker")
    simulate_sessions(EIGHT, bet, hands=10, sessions=100, seed=1)  # warm the caches outside the measure
    peaks = []
    for sessions in (40_000, 200_000):
        tracemalloc.start()
        sims = simulate_sessions(EIGHT, bet, hands=10, sessions=sessions, seed=1, bankroll=Fraction(5))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert sims.sessions == sessions and len(sims.tally.counts) <= 10 * 39 + 1  # at most the exact support
    assert peaks[1] - peaks[0] < 500_000, peaks


_PEAK = """import atexit, sys
def peak():
    with open("/proc/self/status", encoding="ascii") as fh:
        sys.__stderr__.write(next(line.split()[1] for line in fh if line.startswith("VmHWM:")))
atexit.register(peak)
from exact_odds.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM from /proc (Linux)")
def test_the_session_command_peak_does_not_grow_with_sessions() -> None:
    """Peak memory (VmHWM) of ``session`` with 5,000 and 50,000 sessions of 100 hands: within 5 MB (it
    grew by about 2 KB a session when every session's coups were kept: 90 MB here). Both deal in NumPy:
    5 million coups would load the compiled dealer (about 100 MB, whatever the sessions keep), and both
    deal full batches of 2,048 shoes (2,000 sessions need only 2,886 shoes, a lighter run)."""
    import os
    import subprocess

    peaks = []
    for sessions in (5_000, 50_000):
        proc = subprocess.run([sys.executable, "-c", _PEAK, "session", "--bet", "banker", "--hands", "100",
                               "--sessions", str(sessions), "--seed", "1", "-q"],
                              env={**os.environ, "EXACT_ODDS_JIT": "0"}, capture_output=True, text=True, timeout=120,
                              check=True)
        peaks.append(int(proc.stderr) / 1024)
    assert peaks[1] - peaks[0] < 5, peaks


# ---------------------------------------------------------------- the command


def test_session_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("session", "--bet", "banker", "--hands", "40", "--bankroll", "10", "--sessions", "3000", "--seed", "3")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == "" and (code, out, err) == run(capsys, *argv)
    assert "P(ruin within 40 hands, bankroll 10)" in out and "simulated (3,000 sessions)" in out
    data = json.loads(run(capsys, *argv, "--format", "json", "--distribution")[1])
    one = one_hand(EIGHT, find_bet("banker"))
    assert data["ruin"]["probability"] == str(ruin_probability(one, 40, 10).probability)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["figures"]["mean"]["exact"] == str(40 * one.mean())


def test_session_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "session.png"
    code, _, _ = run(capsys, "session", "--bet", "tie", "--hands", "30", "--sessions", "2000", "--seed", "1",
                     "--plot", str(target))
    assert code == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_session_plot_without_matplotlib(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run(capsys, "session", "--bet", "tie", "--hands", "10", "--sessions", "100", "--seed", "1",
                         "--plot", str(tmp_path / "x.png"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "exact-odds[plot]" in err


@pytest.mark.parametrize("argv", [
    ["session", "--bet", "banker", "--hands", "0"],
    ["session", "--bet", "banker", "--bankroll", "abc"],
    ["session", "--bet", "banker", "--hands", "100000"],
    ["session", "--bet", "nonesuch"],
    ["session", "--bet", "banker", "--sessions", "0", "--plot", "x.png"],
])
def test_bad_session_commands(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exact-odds: error:")


def test_session_of_a_bet_of_your_own(capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    code, out, _ = run(capsys, "session", "--bets", str(examples / "side_bets.toml"), "--bet", "9-over-7",
                       "--hands", "20", "--sessions", "0", "--format", "json")
    assert code == 0 and json.loads(out)["bet"] == "9-over-7"
