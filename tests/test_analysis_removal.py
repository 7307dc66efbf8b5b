"""Effects of removal: the reference enumerator, the removal identity, a published table, counts."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.analysis import removal as removal_module
from exact_odds.analysis.removal import (
    Removal,
    _balance,
    correlation,
    effects_are_zero,
    effects_of_removal,
    larger_count,
    suggest_count,
)
from exact_odds.bets import Bet, PayLine, find_bet, registered
from exact_odds.bets.main import player_wins
from exact_odds.core.coup import Detail, Payable
from exact_odds.core.shoe import RANKS, Rank, Shoe, ShoeError, parse_cards
from exact_odds.engine.enumerator import deal
from exact_odds.report.study import eor_tables

MAIN = ["banker", "player", "tie"]


def reference_effect(shoe: Shoe, bet: Payable, rank: Rank) -> Fraction:
    """EV(shoe - rank) - EV(shoe) from the reference enumerator (suits: each suit in proportion)."""
    base = deal(shoe, detail=bet.detail).expectation(bet.payout)
    if bet.detail is not Detail.SUITS:
        return deal(shoe.without([rank]), detail=bet.detail).expectation(bet.payout) - base
    assert shoe.suited is not None
    total = Fraction(0)
    for suit, n in zip(["s", "h", "d", "c"], shoe.suited[rank - 1], strict=True):
        if n:
            card = parse_cards(rank.label + suit)
            total += n * deal(shoe.without(card), detail=bet.detail).expectation(bet.payout)
    return total / shoe.count(rank) - base


def test_effects_equal_reference_enumerator() -> None:
    shoe = Shoe.decks(1).without(parse_cards("5h 5d 9c Ks 2s 2h"))
    bets = [find_bet(n) for n in [*MAIN, "player-pair", "dragon-7", "tiger-pair"]]
    for removal in effects_of_removal(shoe, bets):
        for rank in (Rank.ACE, Rank.FIVE, Rank.NINE, Rank.KING):
            assert removal.effects[rank - 1] == reference_effect(shoe, removal.bet, rank), (removal.bet.name, rank)


def test_suited_effects_average_over_suits() -> None:
    suited = [[0, 0, 0, 0]] * 13
    suited = [[2, 1, 0, 1], [1, 1, 1, 1], [0, 2, 2, 0], *suited[3:9], [1, 0, 0, 3], *suited[10:]]
    shoe = Shoe(tuple(sum(r) for r in suited), tuple(tuple(r) for r in suited))
    (removal,) = effects_of_removal(shoe, [find_bet("perfect-pair")])
    for rank in (Rank.ACE, Rank.THREE, Rank.TEN):
        assert removal.effects[rank - 1] == reference_effect(shoe, removal.bet, rank)
    assert removal.effects[Rank.FOUR - 1] is None


def test_published_effect_on_the_player_win_probability() -> None:
    """Removing a 4 from eight decks lowers P(player wins) by 0.0000435175 ("Concepts 16: Baccarat -
    Effects of Card Removal", excelpunks.com); a bet paying 1 on a player win and losing
    otherwise has EV = 2 P - 1, so its effect is twice that."""
    indicator = Bet("player-wins", (PayLine("player wins", player_wins, Fraction(1)),), "test")
    (removal,) = effects_of_removal(Shoe.decks(8), [indicator])
    published = {Rank.FOUR: "-0.0000435175", Rank.TEN: "-0.0000373810", Rank.ACE: "-0.0000295798",
                 Rank.THREE: "-0.0000217068"}
    for rank, text in published.items():
        effect = removal.effects[rank - 1]
        assert effect is not None and abs(effect / 2 - Fraction(text)) < Fraction(1, 10**10) / 2


@st.composite
def shoes(draw: st.DrawFn) -> Shoe:
    counts = draw(st.lists(st.integers(0, 9), min_size=13, max_size=13).filter(lambda c: sum(c) >= 7))
    if draw(st.booleans()):
        return Shoe.from_counts([4 * c for c in counts])  # suits known: every bet
    return Shoe.from_counts(counts)


@settings(max_examples=20, deadline=None)
@given(shoes())
@example(Shoe.decks(8))
@example(Shoe.from_counts([1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0]))
def test_removal_identity_for_every_bet(shoe: Shoe) -> None:
    """sum over ranks of n_r * EV(shoe - r) == N * EV(shoe), exactly, for every registered bet."""
    for removal in effects_of_removal(shoe):
        removed = [(n, removal.removed(i)) for i, n in enumerate(shoe.counts) if n]
        assert sum(n * ev for n, ev in removed if ev is not None) == shoe.size * removal.expectation
        assert all((e is None) == (n == 0) for n, e in zip(shoe.counts, removal.effects, strict=True))


def test_pair_bets_have_no_first_order_effect_in_full_shoes() -> None:
    """By the symmetry of the ranks, removing any one card leaves a pair bet's EV unchanged."""
    bets = [b for b in registered() if b.name in ("player-pair", "either-pair", "perfect-pair", "tiger-pair")]
    for removal in effects_of_removal(Shoe.decks(6), bets):
        assert set(removal.effects) == {0}
        assert removal.count().tags == (0,) * 13


def test_eight_deck_counts() -> None:
    removals = {r.bet.name: r for r in effects_of_removal(Shoe.decks(8), [find_bet(n) for n in MAIN])}
    banker = removals["banker"].count()
    assert banker.tags == (1, 1, 1, 2, -1, -2, -1, -1, 0, 0, 0, 0, 0)
    assert removals["player"].count().tags == tuple(-t for t in banker.tags)
    assert banker.correlation.rounded(3) == Fraction("0.967")
    assert banker.running([0, 0, 0, 2, 1, 0, 0, 0, 0, 3, 0, 0, 0]) == 2 * 2 - 1  # two 4s, a 5, three tens
    for name, removal in removals.items():
        for level in (1, 2, 3):
            count = removal.count(max_tag=level)
            assert sum(count.tags) == 0 and max(map(abs, count.tags)) <= level, name
            assert count.correlation == correlation(count.tags, removal.effects, Shoe.decks(8).counts)  # type: ignore[arg-type]
            assert count.tags[9:] == (count.tags[9],) * 4  # equal effects, equal tags


def test_correlation_is_exact() -> None:
    xs, ws = [1, 2, 3, 5], [1, 1, 2, 1]
    assert correlation(xs, xs, ws).squared == 1 and correlation(xs, xs, ws).sign == 1
    assert float(correlation(xs, [-x for x in xs], ws)) == -1.0
    c = correlation(xs, [Fraction(1), Fraction(4), Fraction(9), Fraction(2)], ws)
    for digits in range(1, 9):
        assert abs(c.rounded(digits) - Fraction(float(c))) <= Fraction(1, 2 * 10**digits) + Fraction(1, 10**12)
    assert correlation([1, 1, 1, 1], xs, ws).sign == 0


def test_suggest_count_handles_absent_ranks() -> None:
    effects: list[Fraction | None] = [Fraction(3), None, Fraction(-1), Fraction(-1)] + [Fraction(0)] * 9
    count = suggest_count(effects, [4, 0, 4, 4] + [4] * 9, max_tag=2)
    assert count.tags[1] == 0 and sum(count.tags) == 0 and count.tags[0] > 0


def test_bad_shoes() -> None:
    with pytest.raises(ShoeError, match="finite"):
        effects_of_removal(Shoe.infinite_deck(), [find_bet("banker")])
    with pytest.raises(ShoeError, match="at least 7 cards"):
        effects_of_removal(Shoe.from_counts([6] + [0] * 12), [find_bet("banker")])
    with pytest.raises(ShoeError, match="suits are known"):
        effects_of_removal(Shoe.from_counts([5] * 13), [find_bet("perfect-pair")])
    assert all(r.bet.detail is not Detail.SUITS for r in effects_of_removal(Shoe.from_counts([5] * 13)))


# ---------------------------------------------------------------- the eor command


def test_eor_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eor", "--decks", "8", "--bet", "banker", "tie", "--format", "json")
    data = json.loads(out)
    assert code == 0 and set(data["effects_of_removal"]) == {"banker", "tie"}
    assert list(data["effects_of_removal"]["banker"]) == [r.label for r in RANKS]
    assert data["effects_of_removal"]["banker"]["5"] == "-551647413608/6671039365092375"
    assert data["count"]["banker"]["tags"]["4"] == 2
    assert math.isclose(data["count"]["banker"]["betting_correlation"] ** 2,
                        float(Fraction(data["count"]["banker"]["betting_correlation_squared"])), rel_tol=1e-5)


def test_eor_every_bet_and_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eor", "--decks", "6", "--format", "csv")
    assert code == 0 and "perfect-pair" in out and "super-6/banker" in out
    code, out, _ = run(capsys, "eor", "--shoe", "A=5,2=5,3=5,4=5,5=5,6=5,7=5,8=5,9=5,T=5,J=5,Q=5,K=5")
    assert code == 0 and "Left out (suits unknown): " in out and "perfect-pair" in out.split("Left out")[1]


def test_eor_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "eor", "--decks", "inf")
    assert code == 2 and out == "" and "finite" in err and len(err.splitlines()) == 1
    code, _, err = run(capsys, "eor", "--bet", "no-such-bet")
    assert code == 2 and "unknown bet" in err


def test_eor_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "eor.png"
    code, _, _ = run(capsys, "eor", "--bet", "banker,player,tie", "--plot", str(target))
    assert code == 0 and target.read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------- the balancing against the first one


def _round_half_away(x: Fraction) -> int:
    return int(math.copysign(math.floor(abs(x) + Fraction(1, 2)), x))


def first_balance(target: list[Fraction], sizes: list[int], max_tag: int) -> list[int] | None:
    """The first dynamic programme of the suggested counts, kept as an oracle: every state, its
    way to it copied as a list, in the order the states were first reached."""
    scale = math.lcm(*(x.denominator for x in target))
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for x, m in zip(target, sizes, strict=True):
        base = _round_half_away(x)
        scaled = int(x * scale)
        nxt: dict[int, tuple[int, list[int]]] = {}
        for t in range(max(-max_tag, base - 2), min(max_tag, base + 2) + 1):
            cost = m * abs(t * scale - scaled)
            for s, (c, tags) in best.items():
                key = s + m * t
                if key not in nxt or c + cost < nxt[key][0]:
                    nxt[key] = (c + cost, [*tags, t])
        best = nxt
    return best[0][1] if 0 in best else None


@st.composite
def balancings(draw: st.DrawFn) -> tuple[list[int], int, list[int], int]:
    """Targets over a small denominator (ties of rounding and of costs are common), or a large one."""
    denominator = draw(st.sampled_from([1, 2, 3, 4, 6, 10**20 + 39]))
    max_tag = draw(st.integers(1, 4))
    n = draw(st.integers(1, 10))
    bound = (max_tag + 3) * denominator
    numerators = draw(st.lists(st.integers(-bound, bound), min_size=n, max_size=n))
    sizes = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    return numerators, denominator, sizes, max_tag


@settings(max_examples=400, deadline=None)
@given(balancings())
@example(([1, 1, -1, -1], 2, [1, 1, 1, 1], 2))
@example(([5, -3], 2, [1, 4], 1))
def test_balance_equals_the_first_one(case: tuple[list[int], int, list[int], int]) -> None:
    numerators, denominator, sizes, max_tag = case
    expected = first_balance([Fraction(a, denominator) for a in numerators], sizes, max_tag)
    assert _balance(numerators, denominator, sizes, max_tag) == expected


@st.composite
def effect_lists(draw: st.DrawFn) -> tuple[list[Fraction | None], list[int], int]:
    """Effects drawn from a few values (equal effects share a group), some ranks absent."""
    pool = draw(st.lists(st.fractions(min_value=-1, max_value=1, max_denominator=50), min_size=1, max_size=6))
    effects = draw(st.lists(st.one_of(st.none(), st.sampled_from(pool)), min_size=13, max_size=13))
    composition = [0 if e is None else draw(st.integers(1, 32)) for e in effects]
    return effects, composition, draw(st.integers(1, 3))


@settings(max_examples=150, deadline=None)
@given(effect_lists())
def test_suggest_count_equals_the_first_one(case: tuple[list[Fraction | None], list[int], int]) -> None:
    """The suggested count with the first balancing in its place (targets as exact fractions)."""
    effects, composition, max_tag = case
    count = suggest_count(effects, composition, max_tag=max_tag)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(removal_module, "_balance", lambda a, d, m, k: first_balance([Fraction(x, d) for x in a], m, k))
        removal_module._suggested.cache_clear()
        expected = suggest_count(effects, composition, max_tag=max_tag)
        removal_module._suggested.cache_clear()
    assert count == expected


# ---------------------------------------------------------------- a bet without a count says why, truly


NINE = """[[bet]]
name = "natural-nine"
source = "a test: a player natural 9, whose effects are far from zero"
[[bet.line]]
pays = "8:1"
player_total = 9
natural = true
"""


def _nine_effects() -> list[Fraction]:
    """Effects no count with tags up to 2 balances, that tags up to 4 do: A-8 +0.05%, the 9 −1.008%, T-K the rest."""
    a, b = Fraction(1, 2000), Fraction(-1008, 100000)
    return [a] * 8 + [b] + [-(32 * a + 4 * b) / 16] * 4


def test_no_count_within_max_tag_is_not_every_effect_zero() -> None:
    effects = _nine_effects()
    assert not any(suggest_count(effects, [32] * 13).tags) and not effects_are_zero(effects)
    found = larger_count(effects, [32] * 13, above=2)
    assert found is not None and found[0] == 4
    removal = Removal(find_bet("tie"), Shoe.decks(8), Fraction(0), tuple(effects))
    _, counts = eor_tables("8 decks", [removal], [removal.count()], "table")
    assert counts.rows[0][-1] == "none"
    notes = " ".join(counts.notes)
    assert "every effect is zero" not in notes
    assert "tags up to ±2 (--max-tag 2)" in notes and "--max-tag 4 finds one (BC 0.9767)" in notes


@pytest.mark.parametrize("command", ["eor", "report"])
def test_the_command_line_names_max_tag(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    bets = tmp_path / "nine.toml"
    bets.write_text(NINE, encoding="utf-8")
    argv = ["eor", "--decks", "6", "--bets", str(bets)] if command == "eor" else [
        "report", "--game", str(tmp_path / "game.toml"), "--eor"]
    (tmp_path / "game.toml").write_text('decks = 6\nside_bets = []\n' + NINE, encoding="utf-8")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    line = next(row for row in out.splitlines() if row.startswith("natural-nine") and row.endswith(("none", "n/a")))
    assert line.endswith("none")
    assert "every effect is zero" not in out
    assert "natural-nine's effects are not zero, but no balanced count with tags up to ±2 (--max-tag 2)" in out
