"""A rules file with an unusual tableau reaches every command: each gives the brute-force oracle's values.

The oracle (``tests/oracle.py``: :func:`oracle.play_tableau`, :func:`oracle.brute_force_tableau`)
plays every ordered six-card sequence of a tiny shoe by reading the table's data, independently
of the package's dealing code; the commands are run through the command line (``--format json``)
with ``--rules FILE``. Two tables: ``examples/wrong_banker_6.toml`` (the banker draws on 6 when the
player stood) and an odd table written here (only 9 is a natural, the player draws on 0-6, the
banker stands on 3 whatever happens and draws on 7 when the player stood or drew a 0 or a 9).
Counting convention: ordered six-card sequences, unused positions included; given dealt cards,
the ordered sequences of the coup's remaining positions.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from conftest import body, run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from oracle import (
    CONFIG_NAMES,
    Hand,
    brute_force_tableau,
    expected_value,
    grouped_tableau,
    payout,
    play,
    play_tableau,
    point_counts,
    shoe_points,
    winner,
    winner_ways,
)

from exact_odds.core.shoe import Card, Rank, Shoe
from exact_odds.core.tableau import COLUMNS, Tableau, load_tableau, parse_tableau

ROOT = Path(__file__).resolve().parent.parent
WRONG_BANKER_6 = ROOT / "examples" / "wrong_banker_6.toml"

LABELS = "A23456789TJQK"
POINT_OF_LABEL = {label: (i + 1) % 10 if i < 9 else 0 for i, label in enumerate(LABELS)}
OUTCOMES = ("banker", "player", "tie")

STANDARD_TEXT = """\
name = "standard"
naturals = [8, 9]
player_draws = [0, 1, 2, 3, 4, 5]
[banker]
#    -  0  1  2  3  4  5  6  7  8  9
0 = "D  D  D  D  D  D  D  D  D  D  D"
1 = "D  D  D  D  D  D  D  D  D  D  D"
2 = "D  D  D  D  D  D  D  D  D  D  D"
3 = "D  D  D  D  D  D  D  D  D  S  D"
4 = "D  S  S  D  D  D  D  D  D  S  S"
5 = "D  S  S  S  S  D  D  D  D  S  S"
6 = "S  S  S  S  S  S  S  D  D  S  S"
7 = "S  S  S  S  S  S  S  S  S  S  S"
"""

ODD_TEXT = """\
# Only 9 is a natural (8 plays on); the player draws on 0-6; the banker stands on 3 whatever
# the player did and draws on 7 when the player stood or drew a 0 or a 9.
name = "odd-table"
naturals = [9]
player_draws = [0, 1, 2, 3, 4, 5, 6]
[banker]
#    -  0  1  2  3  4  5  6  7  8  9
0 = "D  D  D  D  D  D  D  D  D  D  D"
1 = "D  D  D  D  D  D  D  D  D  D  D"
2 = "D  D  D  D  D  D  D  D  D  D  D"
3 = "S  S  S  S  S  S  S  S  S  S  S"
4 = "D  S  S  D  D  D  D  D  D  S  S"
5 = "D  S  S  S  S  D  D  D  D  S  S"
6 = "S  S  S  S  S  S  S  D  D  S  S"
7 = "D  D  S  S  S  S  S  S  S  S  D"
8 = "S  S  S  S  S  S  S  S  S  S  S"
"""

FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FEW = settings(FAST, max_examples=3)
# (capsys is read after every command, so sharing it between a property's examples is harmless)


class Table(NamedTuple):
    """A rules file given to the commands and the tableau the oracle reads from it."""

    path: str
    tableau: Tableau


@pytest.fixture(scope="module", params=["wrong-banker-6", "odd-table"])
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Table:
    if request.param == "wrong-banker-6":
        return Table(str(WRONG_BANKER_6), load_tableau(WRONG_BANKER_6))
    path = tmp_path_factory.mktemp("rules") / "odd.toml"
    path.write_text(ODD_TEXT, encoding="utf-8")
    return Table(str(path), load_tableau(path))


# ---------------------------------------------------------------- helpers


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """The parsed JSON output of a command that must succeed."""
    status, out, err = run(capsys, *argv, "--format", "json")
    assert status == 0, f"exact-odds {' '.join(argv)}: status {status}: {err}"
    data = json.loads(out)
    data.pop("provenance")  # what produced it: the same figures from two commands differ only there
    return data


def spec_of(labels: Sequence[str]) -> str:
    """A ``--shoe`` spec holding these cards (rank labels, repeated for several cards)."""
    counts = Counter(labels)
    return ",".join(f"{label}={counts[label]}" for label in LABELS if counts[label])


def points_of(spec: str) -> list[int]:
    return shoe_points(Shoe.parse(spec))


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def oracle(points: Sequence[int], tableau: Tableau, dealt: Sequence[int] = ()) -> Counter[Hand]:
    """Ways of every ending; every permutation of card positions when that is cheap, else the grouped
    walk (the two agree: ``test_grouped_oracle_is_the_brute_force``)."""
    if falling(len(points), 6 - len(dealt)) <= 60480:
        return brute_force_tableau(points, tableau, dealt)
    return grouped_tableau(point_counts(points), tableau, dealt)


def without(points: Sequence[int], removed: Sequence[int]) -> list[int]:
    left = list(points)
    for p in removed:
        left.remove(p)
    return left


def probabilities(hands: Counter[Hand]) -> dict[str, Fraction]:
    total = sum(hands.values())
    return {k: Fraction(w, total) for k, w in winner_ways(hands).items()}


def variance(hands: Counter[Hand], bet: str, config: str = "standard") -> Fraction:
    total = sum(hands.values())
    second = sum((payout(bet, h, config) ** 2 * w for h, w in hands.items()), Fraction(0)) / total
    return second - expected_value(hands, bet, config) ** 2


def net_distribution(hands: Counter[Hand], bet: str) -> dict[Fraction, Fraction]:
    """The exact distribution of one hand's net result on ``bet``."""
    total = sum(hands.values())
    out: Counter[Fraction] = Counter()
    for h, w in hands.items():
        out[payout(bet, h)] += w
    return {x: Fraction(w, total) for x, w in out.items() if w}


def convolve(a: dict[Fraction, Fraction], b: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def fractions(d: dict[str, str]) -> dict[Fraction, Fraction]:
    return {Fraction(k): Fraction(v) for k, v in d.items() if Fraction(v)}


def dealing_order(player: Sequence[str], banker: Sequence[str]) -> list[int]:
    """Point values of the cards on the table in dealing order: P, B, P, B, player's third, banker's third."""
    order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    return [POINT_OF_LABEL[c[0]] for c in order]


def parse_dealt_text(text: str) -> tuple[list[str], list[str]]:
    """The cards of ``"P: 4 3 B: A 4"`` (as the commands print a coup under way)."""
    hands: dict[str, list[str]] = {"P": [], "B": []}
    side: list[str] | None = None
    for token in text.split():
        if token in ("P:", "B:"):
            side = hands[token[0]]
        elif token != "no" and token != "cards":
            assert side is not None, text
            side.append(token)
    return hands["P"], hands["B"]


def dealt_text(order: Sequence[str], hand: Hand) -> str:
    """``--dealt`` text for the first cards of a coup in dealing order, given how the coup ends."""
    player = [order[i] for i in (0, 2) if i < len(order)]
    banker = [order[i] for i in (1, 3) if i < len(order)]
    extra = list(order[4:])
    if hand[2] == 3 and extra:
        player.append(extra.pop(0))
    banker += extra
    text = f"P: {' '.join(player)}"
    return text + (f" B: {' '.join(banker)}" if banker else "")


def shuffled(labels: Sequence[str], seed: int) -> list[str]:
    cards = list(labels)
    random.Random(seed).shuffle(cards)
    return cards


def tiny_shoes(min_size: int = 6, max_size: int = 8) -> st.SearchStrategy[list[str]]:
    """Rank labels of the cards of a tiny shoe (ranks repeat freely)."""
    return st.lists(st.sampled_from(LABELS), min_size=min_size, max_size=max_size)


# ---------------------------------------------------------------- the oracle itself


def test_tables_read_as_written(table: Table) -> None:
    """The oracle reads the tables' data; check that data is what the files say."""
    standard = parse_tableau(STANDARD_TEXT)
    t = table.tableau
    if t.name == "wrong-banker-6":
        assert t.naturals == standard.naturals and t.player_draws == standard.player_draws
        diff = [(b, c) for b in range(10) for c in COLUMNS
                if t.banker_draws[b][COLUMNS.index(c)] != standard.banker_draws[b][COLUMNS.index(c)]]
        assert diff == [(6, None)]
    else:
        assert t.naturals == frozenset({9})
        assert [p for p in range(10) if t.player_draws[p]] == list(range(7))
        assert not any(t.banker_draws[3])
        assert [c for c in COLUMNS if t.banker_draws[7][COLUMNS.index(c)]] == [None, 0, 9]
        assert not any(t.banker_draws[8])


def test_oracle_with_standard_data_is_the_printed_rule() -> None:
    """``play_tableau`` on the standard table's data equals the if-statement oracle for every
    pair of two-card totals, player's third card and next card."""
    standard = parse_tableau(STANDARD_TEXT)

    def card(p: int) -> Card:
        return Card(Rank(p) if p else Rank.TEN)

    for n in range(10**4):
        p, b, third, last = (n // 10**i % 10 for i in range(4))
        for pts in ([p, b, 0, 0, third, last], [p, 3, 0, b - 3 + 10 * (b < 3), third, last]):
            assert play_tableau(standard, pts) == tuple(play(tuple(map(card, pts)))[:4]), pts


@FAST
@given(labels=tiny_shoes(6, 8))
@example(labels=list("A23456T"))
def test_grouped_oracle_is_the_brute_force(table: Table, labels: list[str]) -> None:
    points = points_of(spec_of(labels))
    assert sum(brute_force_tableau(points, table.tableau).values()) == falling(len(points), 6)
    for k in (0, 3, 4, 5):
        dealt, rest = points[:k], points[k:]
        hands = brute_force_tableau(rest, table.tableau, dealt)
        assert sum(hands.values()) == falling(len(rest), 6 - k)
        assert grouped_tableau(point_counts(rest), table.tableau, dealt) == hands, (points, k)


# ---------------------------------------------------------------- odds, odds --dealt


@FAST
@given(labels=tiny_shoes(6, 9))
@example(labels=list("A23456T"))
@example(labels=list("89TK8K743"))
def test_odds(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str]) -> None:
    spec = spec_of(labels)
    hands = oracle(points_of(spec), table.tableau)
    got = run_json(capsys, "odds", "--shoe", spec, "--rules", table.path)
    assert got["sequences"] == falling(len(labels), 6)
    ways = winner_ways(hands)
    for k in OUTCOMES:
        assert got["outcomes"][k]["combinations"] == ways[k], (spec, k)
        assert Fraction(got["outcomes"][k]["probability"]) == Fraction(ways[k], got["sequences"]), (spec, k)


@FAST
@given(labels=tiny_shoes(7, 9), seed=st.integers(0, 10**6), cut=st.integers(1, 6))
@example(labels=list("A23456T9K"), seed=0, cut=4)
@example(labels=list("A23456T9K"), seed=3, cut=5)
def test_odds_dealt(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str], seed: int, cut: int) -> None:
    """``odds --dealt``: the ways of the remaining positions given the first ``cut`` cards of a coup."""
    order = shuffled(labels, seed)
    pts = [POINT_OF_LABEL[c] for c in order]
    hand = play_tableau(table.tableau, pts)
    k = min(cut, hand[2] + hand[3])  # cards on the table: at most what the coup uses
    dealt = dealt_text(order[:k], hand)
    spec = spec_of(labels)
    expected = oracle(without(points_of(spec), pts[:k]), table.tableau, pts[:k])
    got = run_json(capsys, "odds", "--shoe", spec, "--rules", table.path, "--dealt", dealt)
    assert got["sequences"] == falling(len(labels) - k, 6 - k)
    ways = winner_ways(expected)
    for key in OUTCOMES:
        assert got["outcomes"][key]["combinations"] == ways[key], (spec, dealt, key)


# ---------------------------------------------------------------- edges, parsheet, sidebets


@FAST
@given(labels=tiny_shoes(6, 8))
@example(labels=list("A23456T"))
def test_edges(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str]) -> None:
    spec = spec_of(labels)
    hands = oracle(points_of(spec), table.tableau)
    got = run_json(capsys, "edges", "--shoe", spec, "--rules", table.path)
    assert list(got["configurations"]) == list(CONFIG_NAMES)
    for config in CONFIG_NAMES:
        for bet in OUTCOMES:
            row = got["configurations"][config][bet]
            ev = expected_value(hands, bet, config)
            assert Fraction(row["player_ev"]) == ev, (spec, config, bet)
            assert Fraction(row["house_edge"]) == -ev, (spec, config, bet)
            assert Fraction(row["variance"]) == variance(hands, bet, config), (spec, config, bet)


@FAST
@given(labels=tiny_shoes(6, 8), bet=st.sampled_from(["banker", "ez/banker", "super-6/banker", "tie-9/tie",
                                                       "player", "dragon-7", "panda-8"]))
@example(labels=list("A23456T"), bet="banker")
@example(labels=list("A23456T"), bet="ez/banker")
def test_parsheet(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str], bet: str) -> None:
    spec = spec_of(labels)
    hands = oracle(points_of(spec), table.tableau)
    got = run_json(capsys, "parsheet", "--shoe", spec, "--rules", table.path, "--bet", bet)
    config, _, name = bet.rpartition("/")
    config = config or "standard"
    ev = expected_value(hands, name, config)
    assert Fraction(got["player_ev"]) == ev and Fraction(got["house_edge"]) == -ev, (spec, bet)
    assert Fraction(got["variance"]) == variance(hands, name, config), (spec, bet)
    assert got["sequences"] == sum(hands.values())
    # each pay line: its combinations are the oracle's ways of coups paying what the line pays
    by_pay: Counter[Fraction] = Counter()
    for h, w in hands.items():
        by_pay[payout(name, h, config)] += w
    lines: Counter[Fraction] = Counter()
    for line in got["lines"]:
        lines[Fraction(line["pays"])] += line["combinations"]
    assert +lines == +by_pay, (spec, bet)
    if bet == "banker":
        ways = winner_ways(hands)
        assert [line["combinations"] for line in got["lines"]] == [ways["banker"], ways["tie"], ways["player"]]


@FAST
@given(labels=tiny_shoes(6, 8))
@example(labels=list("A23456T"))
@example(labels=list("8K3K4T5"))
def test_sidebets(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str]) -> None:
    """Dragon 7 and Panda 8 need no suits: a tiny shoe by rank will do."""
    spec = spec_of(labels)
    hands = oracle(points_of(spec), table.tableau)
    got = run_json(capsys, "sidebets", "--shoe", spec, "--rules", table.path, "--bet", "dragon-7,panda-8")
    assert set(got["side_bets"]) == {"dragon-7", "panda-8"}
    for bet, win in (("dragon-7", 40), ("panda-8", 25)):
        row = got["side_bets"][bet]
        ev = expected_value(hands, bet)
        assert Fraction(row["player_ev"]) == ev and Fraction(row["house_edge"]) == -ev, (spec, bet)
        wins = sum(w for h, w in hands.items() if payout(bet, h) == win)
        assert [line["combinations"] for line in row["lines"]] == [wins, sum(hands.values()) - wins], (spec, bet)


# ---------------------------------------------------------------- batch, eor


@FEW
@given(shoes=st.lists(tiny_shoes(6, 8), min_size=1, max_size=4))
@example(shoes=[list("A23456T"), list("89TK8K743")])
def test_batch(capsys: pytest.CaptureFixture[str], table: Table, tmp_path_factory: pytest.TempPathFactory,
               shoes: list[list[str]]) -> None:
    """``batch``: ways and EVs per composition line (comment and blank lines keep their numbers)."""
    lines = ["# tiny shoes", ""]
    for labels in shoes:
        counts = Counter(labels)
        lines.append(",".join(str(counts[label]) for label in LABELS))
    path = tmp_path_factory.mktemp("batch") / "shoes.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bets = ["banker", "player", "tie", "dragon-7", "panda-8"]
    status, out, err = run(capsys, "batch", "--input", str(path), "--rules", table.path, "--bet", ",".join(bets),
                           "--format", "jsonl")
    assert status == 0, err
    rows = [json.loads(line) for line in body(out).splitlines() if line.strip()]
    assert [r["line"] for r in rows] == list(range(3, 3 + len(shoes)))
    for row, labels in zip(rows, shoes, strict=True):
        hands = oracle(points_of(spec_of(labels)), table.tableau)
        assert {k: row[k] for k in OUTCOMES} == winner_ways(hands), labels
        assert row["sequences"] == falling(len(labels), 6)
        evs = {k: Fraction(v) for k, v in row["player_ev"].items()}
        assert evs == {b: expected_value(hands, b) for b in bets}, labels


@FAST
@given(labels=tiny_shoes(7, 8))
@example(labels=list("A23456T9"))
def test_eor(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str]) -> None:
    """``eor``: EV(shoe less one card of the rank) - EV(shoe) for every rank in the shoe; null otherwise."""
    spec = spec_of(labels)
    bets = ["banker", "player", "tie", "dragon-7", "panda-8"]
    got = run_json(capsys, "eor", "--shoe", spec, "--rules", table.path, "--bet", ",".join(bets))
    points = points_of(spec)
    full = oracle(points, table.tableau)
    less = {p: oracle(without(points, [p]), table.tableau) for p in set(points)}
    for bet in bets:
        base = expected_value(full, bet)
        assert Fraction(got["player_ev"][bet]) == base, (spec, bet)
        for label in LABELS:
            value = got["effects_of_removal"][bet][label]
            if label not in labels:
                assert value is None, (spec, bet, label)
            else:
                effect = expected_value(less[POINT_OF_LABEL[label]], bet) - base
                assert Fraction(value) == effect, (spec, bet, label)


# ---------------------------------------------------------------- study --record


def replay_oracle(points: Sequence[int], record: Sequence[int],
                  tableau: Tableau) -> list[tuple[int, int, Hand, Counter[Hand]]]:
    """The coups of a recorded shoe: (start, cards used, ending, oracle ways of the shoe left before it)."""
    out = []
    pos = 0
    while len(record) - pos >= 4:
        pts = [*record[pos:pos + 6], *[0] * 6]  # padding: used only when the record ends mid-coup
        hand = play_tableau(tableau, pts)
        used = hand[2] + hand[3]
        if pos + used > len(record):
            break
        out.append((pos, used, hand, oracle(without(points, record[:pos]), tableau)))
        pos += used
    return out


@FEW
@given(seed=st.integers(0, 10**6), labels=st.sampled_from([list("AA22334455TT"), list("A23456789TKK")]))
@example(seed=0, labels=list("AA22334455TT"))
def test_study_record(capsys: pytest.CaptureFixture[str], table: Table, tmp_path_factory: pytest.TempPathFactory,
                      seed: int, labels: list[str]) -> None:
    """``study --record``: each coup's cards and totals follow the table, and the exact EV before each
    coup is the oracle's EV of the composition left. The record is the first N - 2 cards of a shuffle,
    so at least six cards are left before every complete coup it holds."""
    spec = spec_of(labels)
    cards = shuffled(labels, seed)[:len(labels) - 2]
    path = tmp_path_factory.mktemp("study") / "record.txt"
    path.write_text("# a tiny recorded shoe\n" + " ".join(cards) + "\n", encoding="utf-8")
    got = run_json(capsys, "study", "--shoe", spec, "--rules", table.path, "--record", str(path))
    record = [POINT_OF_LABEL[c] for c in cards]
    coups = replay_oracle(points_of(spec), record, table.tableau)
    assert len(got["coups"]) == len(coups), (spec, cards)
    assert got["bets"] == ["banker", "player", "tie"]
    for row, (pos, used, hand, hands) in zip(got["coups"], coups, strict=True):
        assert row["unseen"] == len(labels) - pos
        assert row["cards"] == cards[pos:pos + used], (spec, cards, row["coup"])
        assert (row["player_total"], row["banker_total"], row["winner"]) == (hand[0], hand[1], winner(hand))
        for bet in OUTCOMES:
            assert Fraction(row["player_ev"][bet]) == expected_value(hands, bet), (spec, cards, row["coup"], bet)
    end = coups[-1][0] + coups[-1][1] if coups else 0
    assert got["leftover"] == cards[end:]


# ---------------------------------------------------------------- simulate --verify-rules


@pytest.mark.parametrize("labels", [list("A23456T"), list("AA223344556699")])
def test_simulate_verify_rules(capsys: pytest.CaptureFixture[str], table: Table, labels: list[str]) -> None:
    """``simulate --fresh --verify --verify-rules FILE``: the expected counts are coups x the oracle's
    probabilities and the exact edges are the oracle's EVs."""
    spec = spec_of(labels)
    hands = oracle(points_of(spec), table.tableau)
    status, out, err = run(capsys, "simulate", "--shoe", spec, "--fresh", "--rounds", "2000", "--seed", "7",
                           "--rules", table.path, "--verify", "--verify-rules", table.path, "-q", "--format", "json")
    assert status in (0, 1), err
    got = json.loads(out)
    assert got["tableau"] == table.tableau.name and got["reference_tableau"] == table.tableau.name
    coups = got["coups"]
    assert coups == 2000 and sum(got["outcomes"][k]["count"] for k in OUTCOMES) == coups
    for k, p in probabilities(hands).items():
        assert got["outcomes"][k]["expected"] == pytest.approx(float(coups * p), rel=1e-12), (spec, k)
    for bet in OUTCOMES:
        assert Fraction(got["player_ev_check"][bet]["exact"]) == expected_value(hands, bet), (spec, bet)


def test_simulate_deals_with_the_rules(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    """A witness that the simulated table deals with ``--rules``: on a shoe where the tables differ
    a lot from the standard one, 20,000 fresh coups (fixed seed) PASS against the oracle's own values
    and FAIL against the standard table."""
    spec = "A=2,2=2,3=2,4=2,5=2,6=2,8=1"
    hands = oracle(points_of(spec), table.tableau)
    standard = oracle(points_of(spec), parse_tableau(STANDARD_TEXT))
    assert probabilities(hands) != probabilities(standard)
    common = ("simulate", "--shoe", spec, "--fresh", "--rounds", "20000", "--seed", "11", "--rules", table.path,
              "--verify", "-q", "--format", "json")
    status, out, _ = run(capsys, *common, "--verify-rules", table.path)
    assert (status, json.loads(out)["verdict"]) == (0, "PASS")
    status, out, _ = run(capsys, *common)
    assert (status, json.loads(out)["verdict"]) == (1, "FAIL")


# ---------------------------------------------------------------- deal


def check_explained_coup(got: Any, before: list[int], tableau: Tableau) -> None:
    """The dealt coup follows the table, and each step's odds are the oracle's given the cards shown."""
    player, banker = got["player"]["cards"], got["banker"]["cards"]
    order = dealing_order(player, banker)
    hand = play_tableau(tableau, [*order, *[0] * (6 - len(order))])
    assert hand == (got["player"]["total"], got["banker"]["total"], len(player), len(banker)), got
    assert got["winner"] == winner(hand)
    steps = got["steps"]
    assert "odds" in steps[0] and "odds" in steps[1], steps
    for step in steps:
        p, b = parse_dealt_text(step["dealt"])
        assert p == player[:len(p)] and b == banker[:len(b)], step
        if "odds" not in step:
            continue
        dealt = dealing_order(p, b) if p else []
        expected = probabilities(oracle(without(before, dealt), tableau, dealt))
        assert {k: Fraction(step["odds"][k]["probability"]) for k in OUTCOMES} == expected, (step, before)
    if len(player) == 3:  # the odds given the player's third card are shown
        assert any("odds" in s and parse_dealt_text(s["dealt"]) == (player, banker[:2]) for s in steps), steps


@FEW
@given(seed=st.integers(0, 2**32 - 1), labels=st.sampled_from([list("AA22334455TT"), list("A23456789TKQ")]))
@example(seed=1, labels=list("AA22334455TT"))
@example(seed=5, labels=list("A23456789TKQ"))
def test_deal(capsys: pytest.CaptureFixture[str], table: Table, seed: int, labels: list[str]) -> None:
    """``deal --no-burn`` on a 12-card shoe (the fewest a cut card 6 cards from the end allows), coups 1
    and 2 (same seed, same shoe): the coup follows the table, the odds before it are the oracle's odds
    of the cards left (the shoe less the earlier coup), and each later step's odds are the oracle's
    given the cards on the table. (With a burn: ``test_one_shoe_dealt_alike``.)"""
    spec = spec_of(labels)
    common = ("deal", "--shoe", spec, "--rules", table.path, "--seed", str(seed), "--no-burn", "--cut-card", "6",
              "--last-coup", "this", "--ascii")
    first = run_json(capsys, *common)
    assert first["burn"] == [] and first["cards_left"] == len(labels)
    check_explained_coup(first, points_of(spec), table.tableau)
    if first["coups_in_shoe"] >= 2:
        second = run_json(capsys, *common, "--coup", "2")
        gone = dealing_order(first["player"]["cards"], first["banker"]["cards"])
        assert second["cards_left"] == len(labels) - len(gone)
        check_explained_coup(second, without(points_of(spec), gone), table.tableau)


@settings(FAST, max_examples=1)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=3)
def test_one_shoe_dealt_alike(capsys: pytest.CaptureFixture[str], table: Table, seed: int) -> None:
    """A whole shoe (burn, cut card 11 cards from the end; 28 cards, the fewest that allows) dealt
    with the table: ``deal --coup K`` explains every coup of the shoe with the oracle's odds of the
    cards left (the shoe less the burn and the earlier coups); ``simulate --shoes 1``, ``roads`` and
    ``study --shoes 1`` deal the same shoe for the same seed, so they see the same winners, and
    study's exact edges before each coup are the oracle's EVs of the cards not yet seen (study's
    convention: the turned burn card is seen, the cards burned face down are not)."""
    spec = "A=4,2=4,3=4,5=4,T=4,Q=4,K=4"
    common = ("--shoe", spec, "--rules", table.path, "--seed", str(seed), "--cut-card", "11")
    left = unseen = points_of(spec)
    winners: list[str] = []
    before: list[Counter[Hand]] = []  # the oracle's ways from the cards not yet seen, before each coup
    coup, coups = 1, 1
    while coup <= coups:
        got = run_json(capsys, "deal", *common, "--ascii", "--coup", str(coup))
        coups = got["coups_in_shoe"]
        if coup == 1:
            left = without(left, [POINT_OF_LABEL[c[0]] for c in got["burn"]])
            unseen = without(unseen, [POINT_OF_LABEL[c[0]] for c in got["burn"][:1]])
        assert (got["cards_left"], got["first_card"]) == (len(left), 28 - len(left)), (seed, coup)
        check_explained_coup(got, left, table.tableau)
        winners.append(got["winner"])
        before.append(oracle(unseen, table.tableau))
        cards = dealing_order(got["player"]["cards"], got["banker"]["cards"])
        left, unseen = without(left, cards), without(unseen, cards)
        coup += 1

    status, out, err = run(capsys, "simulate", *common, "--shoes", "1", "-q", "--format", "json")
    assert status == 0, err
    simulated = json.loads(out)
    assert simulated["coups"] == coups
    assert {k: simulated["outcomes"][k]["count"] for k in OUTCOMES} == {k: winners.count(k) for k in OUTCOMES}

    roads = run_json(capsys, "roads", *common)
    assert roads["results"] == "".join(w[0].upper() for w in winners)

    study = run_json(capsys, "study", *common, "--shoes", "1", "-q")
    assert study["coups"] == coups
    full = oracle(points_of(spec), table.tableau)
    for bet in OUTCOMES:
        row = study["bets"][bet]
        assert Fraction(row["player_ev"]) == expected_value(full, bet)
        evs = [float(expected_value(h, bet)) for h in before]
        assert row["mean_player_ev"] == pytest.approx(sum(evs) / coups, rel=1e-9, abs=1e-12), (seed, bet)
        assert row["quantiles"]["0"] == pytest.approx(min(evs), rel=1e-9, abs=1e-12), (seed, bet)
        assert row["quantiles"]["1"] == pytest.approx(max(evs), rel=1e-9, abs=1e-12), (seed, bet)
        effect = study["cut_card_effect"][bet]
        assert effect["observed"] == pytest.approx(winners.count(bet) / coups)
        mean = sum(float(probabilities(h)[bet]) for h in before) / coups
        assert effect["mean"] == pytest.approx(mean, rel=1e-9, abs=1e-12), (seed, bet)


# ---------------------------------------------------------------- session


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "dragon-7"])
def test_session(capsys: pytest.CaptureFixture[str], table: Table, bet: str) -> None:
    """``session --sessions 0``: the one-hand distribution, the EV per hand and the exact distribution
    of the net result after 3 independent hands are the oracle's."""
    spec = "A=1,2=1,3=1,4=1,5=1,6=1,9=1,K=1"
    hands = oracle(points_of(spec), table.tableau)
    got = run_json(capsys, "session", "--shoe", spec, "--rules", table.path, "--bet", bet, "--hands", "3",
                   "--sessions", "0", "--distribution")
    one = net_distribution(hands, bet)
    assert fractions(got["one_hand"]) == one
    assert Fraction(got["player_ev"]) == expected_value(hands, bet)
    assert Fraction(got["figures"]["mean"]["exact"]) == 3 * expected_value(hands, bet)
    three = convolve(convolve(one, one), one)
    assert fractions(got["distribution"]) == {x: p for x, p in three.items() if p}


# ---------------------------------------------------------------- any table at all


@st.composite
def tableaux(draw: st.DrawFn) -> Tableau:
    """A random rule table, built as data (not parsed), so the oracle does not rely on the parser."""
    naturals = draw(st.frozensets(st.integers(0, 9), max_size=4))
    open_totals = [t for t in range(10) if t not in naturals]
    player = draw(st.frozensets(st.sampled_from(open_totals))) if open_totals else frozenset()
    never = (False,) * len(COLUMNS)
    rows = {t: tuple(draw(st.lists(st.booleans(), min_size=len(COLUMNS), max_size=len(COLUMNS))))
            for t in open_totals}
    return Tableau("random", naturals, tuple(t in player for t in range(10)),
                   tuple(rows.get(t, never) for t in range(10)))


def toml_of(tableau: Tableau) -> str:
    """The rules file of a table, in the documented format."""
    lines = ['name = "random"', f"naturals = {sorted(tableau.naturals)}",
             f"player_draws = {[t for t in range(10) if tableau.player_draws[t]]}", "[banker]"]
    lines += [f'{t} = "{" ".join("D" if d else "S" for d in tableau.banker_draws[t])}"'
              for t in range(10) if t not in tableau.naturals]
    return "\n".join(lines) + "\n"


@FEW  # each new table costs batch its coefficient tables
@given(tableau=tableaux(), labels=tiny_shoes(6, 8), seed=st.integers(0, 10**6))
@example(tableau=Tableau("no naturals, all draw", frozenset(), (True,) * 10, ((True,) * 11,) * 10),
         labels=list("A23456T"), seed=0)
@example(tableau=Tableau("all natural", frozenset(range(10)), (False,) * 10, ((False,) * 11,) * 10),
         labels=list("89TK8K7"), seed=0)
def test_any_table(capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory,
                   tableau: Tableau, labels: list[str], seed: int) -> None:
    """Any table the format can write: ``odds``, ``odds --dealt`` (the first four cards) and ``batch``
    give the oracle's ways."""
    path = tmp_path_factory.mktemp("random") / "rules.toml"
    path.write_text(toml_of(tableau), encoding="utf-8")
    spec = spec_of(labels)
    hands = oracle(points_of(spec), tableau)
    got = run_json(capsys, "odds", "--shoe", spec, "--rules", str(path))
    assert {k: got["outcomes"][k]["combinations"] for k in OUTCOMES} == winner_ways(hands), (spec, toml_of(tableau))

    order = shuffled(labels, seed)[:4]
    pts = [POINT_OF_LABEL[c] for c in order]
    given_four = oracle(without(points_of(spec), pts), tableau, pts)
    got = run_json(capsys, "odds", "--shoe", spec, "--rules", str(path), "--dealt",
                   f"P: {order[0]} {order[2]} B: {order[1]} {order[3]}")
    assert {k: got["outcomes"][k]["combinations"] for k in OUTCOMES} == winner_ways(given_four), (spec, order)

    counts = Counter(labels)
    compositions = tmp_path_factory.mktemp("random") / "shoes.csv"
    compositions.write_text(",".join(str(counts[label]) for label in LABELS) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "batch", "--input", str(compositions), "--rules", str(path),
                           "--bet", "banker,dragon-7,panda-8", "--format", "jsonl")
    assert status == 0, err
    row = json.loads(body(out))
    assert {k: row[k] for k in OUTCOMES} == winner_ways(hands), (spec, toml_of(tableau))
    assert {k: Fraction(v) for k, v in row["player_ev"].items()} == {
        b: expected_value(hands, b) for b in ("banker", "dragon-7", "panda-8")}, (spec, toml_of(tableau))


# ---------------------------------------------------------------- one 8-deck cross-check


def test_eight_decks_agree_between_commands(capsys: pytest.CaptureFixture[str],
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    """With wrong_banker_6.toml on 8 decks, the banker EV is one exact fraction through ``odds``
    (ways, priced at 19:20), ``edges``, ``parsheet``, ``batch`` (a line of 32s), ``eor`` (its
    expectation), ``session`` and ``simulate --verify-rules`` (its exact edge), and it is not the
    standard table's; the Dragon 7 EV is one fraction through ``sidebets``, ``parsheet``, ``batch``
    and ``eor``. (Eight decks are beyond the brute-force oracle: this compares commands.)"""
    rules = str(WRONG_BANKER_6)
    odds = run_json(capsys, "odds", "--decks", "8", "--rules", rules)
    ways = {k: odds["outcomes"][k]["combinations"] for k in OUTCOMES}
    assert sum(ways.values()) == odds["sequences"] == falling(416, 6)
    ev = (Fraction(19, 20) * ways["banker"] - ways["player"]) / odds["sequences"]

    standard = run_json(capsys, "odds", "--decks", "8")
    std_ways = {k: standard["outcomes"][k]["combinations"] for k in OUTCOMES}
    assert (Fraction(19, 20) * std_ways["banker"] - std_ways["player"]) / standard["sequences"] != ev

    edges = run_json(capsys, "edges", "--decks", "8", "--rules", rules, "--config", "standard")
    assert Fraction(edges["configurations"]["standard"]["banker"]["player_ev"]) == ev
    assert Fraction(edges["configurations"]["standard"]["banker"]["house_edge"]) == -ev

    parsheet = run_json(capsys, "parsheet", "--decks", "8", "--rules", rules, "--bet", "banker")
    assert Fraction(parsheet["player_ev"]) == ev
    assert [line["combinations"] for line in parsheet["lines"]] == [ways["banker"], ways["tie"], ways["player"]]

    path = tmp_path_factory.mktemp("batch8") / "eight.csv"
    path.write_text(",".join(["32"] * 13) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "batch", "--input", str(path), "--rules", rules, "--bet", "banker",
                           "--format", "jsonl")
    assert status == 0, err
    row = json.loads(body(out))
    assert {k: row[k] for k in OUTCOMES} == ways and Fraction(row["player_ev"]["banker"]) == ev

    eor = run_json(capsys, "eor", "--decks", "8", "--rules", rules, "--bet", "banker,dragon-7")
    assert Fraction(eor["player_ev"]["banker"]) == ev

    # a side bet too: Dragon 7 through sidebets, parsheet, batch and eor
    dragon = Fraction(run_json(capsys, "sidebets", "--decks", "8", "--rules", rules, "--bet", "dragon-7")
                      ["side_bets"]["dragon-7"]["player_ev"])
    assert Fraction(eor["player_ev"]["dragon-7"]) == dragon
    assert Fraction(run_json(capsys, "parsheet", "--decks", "8", "--rules", rules, "--bet", "dragon-7")
                    ["player_ev"]) == dragon
    status, out, err = run(capsys, "batch", "--input", str(path), "--rules", rules, "--bet", "dragon-7",
                           "--format", "jsonl")
    assert status == 0 and Fraction(json.loads(body(out))["player_ev"]["dragon-7"]) == dragon, err

    session = run_json(capsys, "session", "--decks", "8", "--rules", rules, "--bet", "banker", "--sessions", "0",
                       "--hands", "1")
    assert Fraction(session["player_ev"]) == ev

    status, out, err = run(capsys, "simulate", "--decks", "8", "--fresh", "--rounds", "100", "--seed", "1",
                           "--rules", rules, "--verify", "--verify-rules", rules, "-q", "--format", "json")
    assert status in (0, 1), err
    assert Fraction(json.loads(out)["player_ev_check"]["banker"]["exact"]) == ev

