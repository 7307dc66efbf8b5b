"""``exact-odds verify`` and :mod:`exact_odds.witness.verify`: logs written by an independent dealer.

The logs come from :mod:`oracle_dealer`, a dealer written in the tests from the printed rules
(no code of the package), so a PASS is not the package agreeing with itself. Wrong dealers
(a wrong banker rule, pair labels that forget hands with a third card, a shoe given only a
few riffle shuffles) must FAIL the check that concerns them, naming the coups.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import oracle_dealer as dealer
import pytest
from conftest import body, one_line_error, run

from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, load_tableau
from exact_odds.core.verdict import ChiSquare, chi_square
from exact_odds.witness.verify import (
    CoupLog,
    VerifyError,
    load_log,
    parse_counts,
    read_log,
    rows_log,
    verify_counts,
    verify_log,
)
from exact_odds.witness.verify.log import write_log
from exact_odds.witness.verify.odds import conditional_odds, pair_odds

EXAMPLES = Path(__file__).parent.parent / "examples"
EIGHT = Shoe.decks(8)


def log_text(log: CoupLog) -> str:
    """``log`` as CSV text."""
    buf = io.StringIO()
    write_log(log, buf)
    return buf.getvalue()


def write(tmp_path: Path, rows: list[dict[str, str]], name: str = "log.csv") -> str:
    path = tmp_path / name
    path.write_text(dealer.csv_text(rows), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- the Bar: calibration


@pytest.mark.parametrize("mode", [pytest.param("shoes", marks=pytest.mark.slow), "fresh"])
def test_an_honest_dealer_passes_at_most_once_in_twenty_fails(mode: str) -> None:
    fails = []
    for seed in range(20):
        rows = dealer.rows(seed, shoes=12) if mode == "shoes" else dealer.rows(seed, coups=1000)
        result = verify_log(rows, EIGHT, alpha=0.001)
        assert result.mode == mode
        assert [c.verdict for c in result.checks[:3]] == ["PASS"] * 3  # rules, labels, accounting never fail
        if result.verdict == "FAIL":
            fails.append((seed, [(c.name, c.p_value) for c in result.checks if c.verdict == "FAIL"]))
    assert len(fails) <= 1, fails


def test_p_values_of_honest_logs_are_not_piled_up_at_either_end() -> None:
    # Forty independent logs: a valid test's p-values are uniform, so neither tail holds most of them.
    p = [verify_log(dealer.rows(100 + seed, coups=400), EIGHT).check("outcomes").p_value for seed in range(40)]
    assert all(x is not None for x in p)
    small = sum(1 for x in p if x is not None and x < 0.1)
    large = sum(1 for x in p if x is not None and x > 0.9)
    assert small <= 12 and large <= 12, p


# ---------------------------------------------------------------- the Bar: wrong dealers fail


def _wrong_coups(rows: list[dict[str, str]]) -> list[tuple[str, int]]:
    """(shoe, coup) of every coup in which the banker drew on 6 after the player stood (the test's own count)."""
    out, numbers = [], dict[str, int]()
    for row in rows:
        numbers[row["shoe"]] = number = numbers.get(row["shoe"], 0) + 1
        player, banker = row["player"].split(), row["banker"].split()
        if len(player) == 2 and len(banker) == 3 and dealer.total(banker[:2]) == 6:
            out.append((row["shoe"], number))
    return out


def test_a_wrong_tableau_fails_the_rules_naming_the_exact_coups() -> None:
    rows = dealer.rows(3, shoes=4, wrong_6=True)
    expected = _wrong_coups(rows)
    assert expected
    result = verify_log(rows, EIGHT, max_violations=1000)
    rules = result.check("rules")
    assert rules.verdict == "FAIL" and result.verdict == "FAIL"
    assert [(v.shoe, v.coup) for v in rules.violations] == expected
    assert rules.violation_count == len(expected)
    first = rules.violations[0]
    assert first.message.startswith(f"coup {first.coup} of shoe {first.shoe}: banker 6 drew after the player stood; "
                                    "the table says stand")
    # The same log against the table it was dealt with breaks no rule.
    assert verify_log(rows, EIGHT, load_tableau(EXAMPLES / "wrong_banker_6.toml")).check("rules").verdict == "PASS"
    with pytest.raises(KeyError, match="no check 'faces'; checks: rules, labels, accounting, outcomes, pairs, cards"):
        result.check("faces")


def test_a_wrong_banker_rule_after_a_third_card_names_the_third_card() -> None:
    result = verify_log([{"player": "2h 3c 5d", "banker": "Kd 6s 9c"}], EIGHT)  # player 5 drew a 5; banker 6
    assert result.check("rules").violations[0].message.startswith(
        "coup 1: banker 6 drew after player's third card 5; the table says stand")


def test_pair_labels_that_forget_third_cards_fail_the_labels_check() -> None:
    rows = dealer.rows(5, shoes=4, pairs_on_two_cards_only=True)
    truth = [(i, side) for i, row in enumerate(rows) for side in ("player", "banker")
             if row[side][0] == row[side].split()[1][0] and len(row[side].split()) == 3]
    assert truth
    labels = verify_log(rows, EIGHT, max_violations=1000).check("labels")
    assert labels.verdict == "FAIL"
    assert labels.violation_count == len(truth)
    assert sorted((v.index, v.message.split(": ")[1].split("_")[0]) for v in labels.violations) == sorted(truth)
    assert "pair is false in the log; the cards give true" in labels.violations[0].message


def test_new_decks_given_a_few_riffles_fail_the_card_test() -> None:
    result = verify_log(dealer.rows(7, shoes=12, riffles=4), EIGHT)
    cards = result.check("cards")
    assert cards.verdict == "FAIL" and cards.p_value is not None and cards.p_value < 1e-6
    assert [c.verdict for c in result.checks[:3]] == ["PASS"] * 3
    pairs = {t.label: t for t in cards.tests}["consecutive pairs"]
    assert pairs.p_value < 1e-6


# ---------------------------------------------------------------- the Bar: malformed lines


MALFORMED = [
    ("player,banker\nKh 5d,7s 8c\nKh 5d,7s Xc\n", "line 3: column 'banker': unknown rank 'X'"),
    ("player,banker\nKh 5d,7s 8c\n\nKh 5d\n", "line 4: 1 fields, but the header has 2"),
    ("player,banker\nKh 5d,7s 8c 9c 2d\n", "line 2: column 'banker' holds 4 cards; a hand holds 2 or 3"),
    ("player,banker\nKh,7s 8c\n", "line 2: column 'player' holds 1 cards"),
    ("player,banker\nKh 5d,\n", "line 2: column 'banker' is empty"),
    ("player,banker,winner\nKh 5d,7s 8c,dragon\n", "line 2: column 'winner': 'dragon' is not a winner"),
    ("player,banker,natural\nKh 5d,7s 8c,maybe\n", "line 2: column 'natural': 'maybe' is not a boolean"),
    ("player,banker,player_total\nKh 5d,7s 8c,12\n", "line 2: column 'player_total': '12' is not a total 0-9"),
    ("player,banker,net:banker\nKh 5d,7s 8c,lots\n", "line 2: column 'net:banker': 'lots' is not a number"),
    ("player,winner\nKh 5d,P\n", "line 1: the log has no 'banker' column"),
    ('{"player": "Kh 5d", "banker": "7s 8c"}\n{"player": "Kh 5d", "banker": \n',
     "line 2: not valid JSON: Expecting value"),
    ('{"player": "Kh 5d", "banker": "7s 8c"}\n[1, 2]\n',
     "line 2: a JSON line must be an object with keys player, banker, ..."),
    ("player,banker\n", "the log holds no coups"),
    ('player,banker\n"Kh 5d",7s 8c\n"Kh 5d","7s 8c",1\n', "line 3: 3 fields, but the header has 2"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED, ids=[m for _, m in MALFORMED])
def test_a_malformed_line_is_one_error_naming_it_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           text: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "verify", str(path))
    assert one_line_error(code, out, err, message), err


DEEP = '{"a": ' * 100_000 + "1" + "}" * 100_000
NINES = "9" * 5000
JSON_LIMITS = [  # (command, text, message): what json.loads cannot take, or takes and should not
    ("verify", DEEP + "\n", "line 1: not valid JSON: nested too deeply"),
    ("verify", '{"player": "Kh 5d", "banker": "7s 8c"}\n{"player": ' + "[" * 5000 + "]" * 5000 + "}\n",
     "line 2: not valid JSON: nested too deeply"),
    ("verify", f'{{"player": "Kh 5d 9c", "banker": "7s Qd", "shoe": {NINES}}}\n',
     "line 1: not valid JSON: a number too long"),
    ("verify", '{"player": "Kh 5d 9c", "banker": "7s Qd", "shoe": 1, "shoe": 2}\n', "line 1: key 'shoe' given twice"),
    ("verify", '{"player": "Kh 5d", "banker": "7s 8c"}\n{"player": "Kh 5d", "banker": {"x": 1, "x": 2}}\n',
     "line 2: key 'x' given twice"),
    ("bunco", f'{{"round": {NINES}, "dice": "1 2 3"}}\n', "line 1: not valid JSON: a number too long"),
    ("bunco", DEEP + "\n", "line 1: not valid JSON: nested too deeply"),
    ("bunco", '{"round": 1, "dice": "1 2 3"}\n{"round": 2, "dice": "1 2 3", "round": 3}\n',
     "line 2: key 'round' given twice"),
]


@pytest.mark.parametrize(("command", "text", "message"), JSON_LIMITS,
                         ids=[f"{c}: {m}" for c, _, m in JSON_LIMITS])
def test_a_json_line_too_deep_too_long_or_with_a_key_twice_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, text: str, message: str) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, *(("verify",) if command == "verify" else ("bunco", "--verify")), str(path))
    assert one_line_error(code, out, err, message), err


def test_json_lines_at_the_edges_are_read() -> None:
    from exact_odds.inputs.errors import InputError
    from exact_odds.inputs.reading import json_objects

    lines = [(1, '{"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}]}'),  # a key again in another object
             (2, '{"n": ' + "9" * 4300 + "}"),  # as many digits as a number may have
             (3, '{"deep": ' + "[" * 200 + "]" * 200 + "}")]
    objects = dict(json_objects(lines, InputError, ["a"]))
    assert objects[1]["c"] == [{"k": 3}, {"k": 4}] and objects[2]["n"] == int("9" * 4300)
    rows = dealer.rows(21, shoes=1)
    assert read_log([json.dumps(r) + "\n" for r in rows]).ranks.shape[0] == len(rows)  # each line has the same keys


def test_a_log_that_cannot_be_opened_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify", "/no/such/log.csv")
    assert code == 2 and "cannot read log file" in err


# ---------------------------------------------------------------- the command


def test_the_command_passes_an_honest_log_and_fails_a_wrong_one(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, dealer.rows(11, shoes=3), "good.csv")
    code, out, _ = run(capsys, "verify", good)
    assert code == 0 and body(out).startswith("Verification: PASS")
    bad = write(tmp_path, dealer.rows(11, shoes=3, wrong_6=True), "bad.csv")
    code, out, _ = run(capsys, "verify", bad, "--max-violations", "2")
    assert code == 1 and body(out).startswith("Verification: FAIL")
    assert "banker 6 drew after the player stood; the table says stand" in out
    assert "more (--max-violations N shows more)" in out


def test_json_has_the_verdict_the_checks_and_the_outcomes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, dealer.rows(12, shoes=2, wrong_6=True))
    code, out, _ = run(capsys, "verify", path, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "FAIL"
    assert list(data["checks"]) == ["rules", "labels", "accounting", "outcomes", "pairs", "cards"]
    assert data["checks"]["rules"]["verdict"] == "FAIL" and data["checks"]["rules"]["violations"]
    assert set(data["checks"]["outcomes"]) >= {"verdict", "p_value", "threshold", "tests"}
    assert set(data["outcomes"]) == {"banker", "player", "tie"}
    assert data["log"]["mode"] == "shoes" and data["log"]["shoes"] == 2


def test_standard_input_and_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    text = dealer.csv_text(dealer.rows(13, coups=50))
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "verify", "-")
    assert code == 0 and "Log: standard input; 50 coups, each from a fresh full shoe" in out
    path = write(tmp_path, dealer.rows(13, coups=50))
    for fmt in ("markdown", "csv", "latex"):
        code, out, _ = run(capsys, "verify", path, "--format", fmt)
        assert code == 0 and out


def test_counts_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--counts", "banker=45860,player=44620,tie=9520")
    assert code == 0 and "counts of 100,000 coups" in out
    code, out, _ = run(capsys, "verify", "--counts", "banker=47000,player=43500,tie=9500")
    assert code == 1
    code, _, err = run(capsys, "verify", "--counts", "banker=1,player=2")
    assert code == 2 and "'tie' is missing" in err
    code, _, err = run(capsys, "verify")
    assert code == 2 and "give a LOG file" in err


def test_counts_over_whole_shoes_state_the_estimate_precision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--counts", "banker=3660,player=3570,tie=770,player-pair=600",
                       "--shoes", "100", "--cut-card", "16", "--seed", "1", "--reference-shoes", "500")
    assert code == 0
    assert "estimated from 500 whole shoes dealt with seed 1" in out
    assert "of the test's standard deviation and is included in the covariance" in out


IMPOSSIBLE_COUNTS = [
    (("--counts", "banker=1,player=1,tie=1,player-pair=99"),
     "count 'player-pair' is 99, more than the 3 coups counted (banker + player + tie)"),
    (("--counts", "banker=1,player=1,tie=1,player-pair=3,banker-pair=4"),
     "count 'banker-pair' is 4, more than the 3 coups counted"),
    (("--counts", "banker=0,player=0,tie=1,banker-pair=2", "--shoes", "1", "--decks", "1", "--seed", "1"),
     "count 'banker-pair' is 2, more than the 1 coup counted"),
    (("--counts", "banker=40,player=38,tie=8", "--seed", "1", "--shoes", "1000"),
     "counts of 86 coups cannot come from 1,000 whole shoes: a shoe of 416 cards (burn by the first card, cut card "
     "16 cards from the end, one more coup after the cut card) deals 66 to 101 coups, so 1,000 shoes deal 66,000 to "
     "101,000"),
    (("--counts", "banker=600,player=500,tie=100", "--seed", "1", "--shoes", "10"), "deals 66 to 101 coups"),
    (("--counts", "banker=2,player=1,tie=1", "--shoes", "1", "--decks", "1", "--cut-card", "7", "--last-coup",
      "this", "--no-burn"), "counts of 4 coups cannot come from 1 whole shoe: a shoe of 52 cards (no burn, cut "
     "card 7 cards from the end, the coup with the cut card is the last) deals 8 to 12 coups (see 'exact-odds "
     "verify --help')"),
]


@pytest.mark.parametrize(("args", "message"), IMPOSSIBLE_COUNTS, ids=[" ".join(a) for a, _ in IMPOSSIBLE_COUNTS])
def test_counts_no_coups_could_give_are_one_error(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                                  message: str) -> None:
    code, out, err = run(capsys, "verify", *args)
    assert one_line_error(code, out, err, message), err


def test_counts_at_the_edges_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from exact_odds.dealing.procedure import Procedure
    from exact_odds.witness.verify.core import CountsError, coups_per_shoe

    code, out, _ = run(capsys, "verify", "--counts", "banker=1,player=1,tie=1,player-pair=3,banker-pair=3")
    assert code == 1 and "counts of 3 coups" in out  # possible, if most unlikely: a FAIL, not a refusal
    least, most = coups_per_shoe(Shoe.decks(1), Procedure(cut=14))
    for total in (3 * least, 3 * most):
        code, out, err = run(capsys, "verify", "--counts", f"banker={total},player=0,tie=0", "--shoes", "3",
                             "--decks", "1", "--cut-card", "14", "--seed", "1", "--reference-shoes", "20")
        assert code == 1 and err == "" and f"counts of {total:,} coups" in out
    for total in (3 * least - 1, 3 * most + 1):
        code, out, err = run(capsys, "verify", "--counts", f"banker={total},player=0,tie=0", "--shoes", "3",
                             "--decks", "1", "--cut-card", "14", "--seed", "1")
        message = f"counts of {total:,} coups cannot come from 3 whole shoes: a shoe of 52 cards"
        assert one_line_error(code, out, err, message), err
    with pytest.raises(CountsError, match="more than the 2 coups counted"):
        verify_counts({"banker": 1, "player": 1, "tie": 0, "player-pair": 3})


PROCEDURES = [{}, {"cut": 7, "last_coup": "this"}, {"cut": 11, "burn": False}, {"cut": 30, "last_coup": "this",
                                                                               "burn": False}]


@pytest.mark.parametrize("rule", PROCEDURES, ids=[str(r) for r in PROCEDURES])
def test_coups_per_shoe_bound_every_shoe_dealt(rule: dict[str, object]) -> None:
    import random

    from exact_odds.dealing.dealer import play_shoe_simple
    from exact_odds.dealing.procedure import Procedure, shoe_card_codes
    from exact_odds.witness.verify.core import coups_per_shoe

    procedure = Procedure(**rule)  # type: ignore[arg-type]
    tens, nines = Shoe.from_counts([0] * 9 + [52, 0, 0, 0]), Shoe.from_counts([0] * 8 + [52] + [0] * 4)
    for shoe in (Shoe.decks(1), Shoe.decks(2), Shoe.from_counts([1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 0, 3, 2]), tens,
                 nines):
        least, most = coups_per_shoe(shoe, procedure)
        cards = shoe_card_codes(shoe)
        rng = random.Random(5)
        dealt = set()
        for _ in range(300):
            rng.shuffle(cards)
            dealt.add(len(play_shoe_simple(cards, procedure=procedure)))
        assert least <= min(dealt) and max(dealt) <= most, (shoe, dealt, least, most)
        if shoe is tens:  # every coup of six cards, the longest burn: the fewest coups
            assert dealt == {least}
        if shoe is nines:  # every coup of four cards, the only burn: the most coups
            assert dealt == {most}


# ---------------------------------------------------------------- the library


def test_csv_jsonl_and_rows_give_the_same_log() -> None:
    rows = dealer.rows(21, shoes=1)
    from_csv = read_log(dealer.csv_text(rows).splitlines(keepends=True))
    from_json = read_log([json.dumps(r) + "\n" for r in rows])
    from_rows = rows_log(rows)
    for other in (from_json, from_rows):
        assert np.array_equal(other.ranks, from_csv.ranks) and np.array_equal(other.suits, from_csv.suits)
        assert {k: v.tolist() for k, v in other.labels.items()} == {k: v.tolist() for k, v in from_csv.labels.items()}
    assert log_text(from_csv) == dealer.csv_text(rows)


def test_cards_in_every_spelling() -> None:
    log = rows_log([{"player": "10♠ a♥ 9", "banker": "Td,kc"}])
    assert log.hands(0) == ("Ts Ah 9", "Td Kc")
    assert log.ranks.tolist() == [[10, 10, 1, 13, 9, 0]]


def test_unknown_columns_are_ignored_and_listed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("Table,Player,Banker,Winner,Notes\n1,Kh 5d,7s 8c,T,x\n", encoding="utf-8")
    result = verify_log(load_log(path), EIGHT)
    assert result.ignored == ("Table", "Notes") and result.check("labels").verdict == "PASS"
    _, out, _ = run(capsys, "verify", str(path))
    assert "Columns ignored: Table, Notes." in out


def test_every_label_is_recomputed() -> None:
    good = {"player": "9h 4c 2d", "banker": "Kd 3s 3c", "winner": "B", "player_total": "5", "banker_total": "6",
            "natural": "no", "player_pair": "0", "banker_pair": "false", "net:banker": "0.95", "net:player": "-1",
            "net:tie": "-1", "net:player-pair": "-1"}
    assert verify_log([good], EIGHT).check("labels").violation_count == 0
    bad = {**good, "winner": "P", "banker_total": "5", "natural": "yes", "net:banker": "1"}
    messages = [v.message for v in verify_log([bad], EIGHT).check("labels").violations]
    assert messages == [
        "coup 1: winner is player in the log; the cards give banker (player 9h 4c 2d = 5, banker Kd 3s 3c = 6)",
        "coup 1: banker_total is 5 in the log; the cards give 6 (Kd 3s 3c)",
        "coup 1: natural is true in the log; the cards give false (player 3, banker 3 on two cards)",
        "coup 1: net:banker is 1 in the log; the bet pays 19/20 (player 9h 4c 2d = 5, banker Kd 3s 3c = 6)"]


def test_net_results_follow_the_configuration() -> None:
    from exact_odds.bets import find_configuration

    row = {"player": "9h 4c 2d", "banker": "Kd 3s 3c", "net:banker": "1"}  # banker wins with 6
    assert verify_log([row], EIGHT).check("labels").verdict == "FAIL"
    super_6 = find_configuration("super-6")
    assert verify_log([{**row, "net:banker": "0.5"}], EIGHT, config=super_6).check("labels").verdict == "PASS"
    assert verify_log([{**row, "net:banker": "0.333333"}], EIGHT).check("labels").verdict == "FAIL"


def test_a_card_dealt_once_too_often_fails_the_accounting() -> None:
    rows = dealer.rows(31, shoes=1, decks=1)
    card = rows[3]["player"].split()[0]
    rows[3] = {**rows[3], "player": f"{card} {card}"}  # one card twice in a coup of a one-deck shoe
    result = verify_log(rows, Shoe.decks(1), max_violations=100)
    accounting = result.check("accounting")
    assert accounting.verdict == "FAIL"
    assert accounting.violations[0].message == f"coup 4 of shoe 1: the 2nd {card} dealt from a shoe that holds 1"
    assert "shoes that dealt more cards than they hold are left out" in " ".join(result.check("outcomes").notes)


def test_interleaved_shoes_are_taken_shoe_by_shoe() -> None:
    rows = dealer.rows(41, shoes=3)
    shoes = [[r for r in rows if r["shoe"] == s] for s in ("1", "2", "3")]
    by_shoe = shoes[1] + shoes[0] + shoes[2]
    mixed = [r for coups in zip(*shoes, strict=False) for r in coups]  # round robin (as far as the shortest)
    a, b = verify_log(rows, EIGHT), verify_log(by_shoe, EIGHT)
    cut = [r for s in shoes for r in s[:min(map(len, shoes))]]
    c, d = verify_log(mixed, EIGHT), verify_log(cut, EIGHT)
    for name in ("outcomes", "pairs", "cards"):
        assert a.check(name).p_value == pytest.approx(b.check(name).p_value, rel=1e-9)
        assert c.check(name).p_value == pytest.approx(d.check(name).p_value, rel=1e-9)
    assert c.check("rules").violations == () and c.verdict == "PASS"


def test_an_infinite_deck_deals_fresh_coups_only() -> None:
    assert verify_log(dealer.rows(51, coups=300), Shoe.infinite_deck()).verdict == "PASS"
    with pytest.raises(VerifyError, match="infinite deck"):
        verify_log(dealer.rows(51, shoes=1), Shoe.infinite_deck())


def test_the_conditional_odds_are_the_engines() -> None:
    from exact_odds.engine.enumerator import deal, winners

    for counts in ([4] * 13, [2, 3, 1, 0, 5, 4, 4, 2, 1, 6, 3, 2, 1], [32] * 13):
        dist = winners(deal(Shoe.from_counts(counts), STANDARD_TABLEAU))
        exact = [float(dist.probability(w)) for w in ("banker", "player", "tie")]
        assert conditional_odds(np.array([counts, counts]), EIGHT, STANDARD_TABLEAU).outcomes[1] == pytest.approx(
            exact, rel=1e-12)


def test_pair_odds_by_brute_force() -> None:
    from itertools import permutations

    counts = [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]  # two aces, one 2, three kings
    cards = [r for r, n in enumerate(counts) for _ in range(n)]
    orders = list(permutations(range(len(cards)), 4))
    pair = sum(cards[a] == cards[c] for a, b, c, d in orders) / len(orders)
    both = sum(cards[a] == cards[c] and cards[b] == cards[d] for a, b, c, d in orders) / len(orders)
    p, q = pair_odds(np.array([counts]))
    assert (float(p[0]), float(q[0])) == pytest.approx((pair, both))


def test_the_chi_square_uses_the_rank_of_the_covariance() -> None:
    assert chi_square("none", np.zeros(2), np.zeros((2, 2))) == ChiSquare("none", 0.0, 0)
    test = chi_square("one", np.array([2.0, 0.0]), np.array([[4.0, 0.0], [0.0, 0.0]]))
    assert (test.statistic, test.df) == (1.0, 1)


def test_a_simulators_arrays_feed_verify_log() -> None:
    log = package_log(5, shoes=6)
    result = verify_log(log, EIGHT)
    assert result.verdict == "PASS" and result.shoes == 6
    assert result.check("labels").checked == 5 * len(log)
    assert read_log(log_text(log).splitlines(keepends=True)).ranks.tolist() == log.ranks.tolist()


def package_log(seed: int, *, shoes: int = 0, coups: int = 0) -> CoupLog:
    """A log dealt by the package's own dealer, fed to the library as a simulator would."""
    from exact_odds.core.coup import Detail
    from exact_odds.dealing.dealer import deal_coups, play_shoes
    from exact_odds.dealing.procedure import Procedure, shoe_card_codes
    from exact_odds.dealing.shuffle import block_rng, fresh_six, shoe_orders

    codes = np.asarray(shoe_card_codes(EIGHT))
    if coups:
        six = codes[fresh_six(block_rng(seed, 0), len(codes), coups)]
        coup_codes, _ = deal_coups(six, STANDARD_TABLEAU, Detail.RANKS)
        return CoupLog.from_dealt(six.T, codes=coup_codes, detail=Detail.RANKS)
    cards = shoe_orders(codes.tolist(), seed, 0, shoes)
    play = play_shoes(cards, STANDARD_TABLEAU, Procedure(), Detail.RANKS)
    index = np.minimum(np.asarray(play.start, dtype=np.int64)[:, None] + np.arange(6), cards.shape[1] - 1)
    return CoupLog.from_dealt(cards[np.asarray(play.shoe)[:, None], index], codes=play.codes, detail=Detail.RANKS,
                              shoe=play.shoe)


@pytest.mark.parametrize("mode", ["shoes", "fresh"])
def test_the_packages_own_dealer_passes_at_most_once_in_twenty(mode: str) -> None:
    results = [verify_log(package_log(seed, shoes=12) if mode == "shoes" else package_log(seed, coups=1000), EIGHT)
               for seed in range(20)]
    assert {r.mode for r in results} == {mode}
    assert all(r.check("labels").verdict == "PASS" and r.check("rules").verdict == "PASS" for r in results)
    assert sum(r.verdict == "FAIL" for r in results) <= 1


def test_library_counts() -> None:
    assert parse_counts("B=1,P=2,T=3") == {"banker": 1, "player": 2, "tie": 3}
    assert verify_counts({"banker": 4586, "player": 4462, "tie": 952}).verdict == "PASS"


# ---------------------------------------------------------------- the README's section runs


def _section(name: str) -> str:
    text = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    start = text.index(f"## {name}\n")
    return text[start:text.index("\n## ", start + 1)]


def test_the_readme_examples_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex
    import subprocess
    import sys

    from exact_odds.cli import main

    section = _section("Checking your own simulator")
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    (tmp_path / "examples").symlink_to(EXAMPLES)
    monkeypatch.chdir(tmp_path)
    outputs = {}
    for line in block.strip().splitlines():
        argv = shlex.split(line, comments=True)
        if argv[0] == "python3":
            subprocess.run([sys.executable, *argv[1:]], check=True)
            continue
        assert argv[0] == "exact-odds"
        status = main(argv[1:])
        outputs[" ".join(argv)] = capsys.readouterr().out
        assert status == (1 if "FAIL" in line else 0), line
    shown = section.split("```console\n$ ", 1)[1].split("```", 1)[0].splitlines()
    out = outputs[shown[0].split("#")[0].strip()].splitlines()
    assert all(row in out for row in shown[1:]), [row for row in shown[1:] if row not in out]


# ---------------------------------------------------------------- the burn column


def test_the_burn_card_is_read_written_and_taken_out_of_the_shoe() -> None:
    from exact_odds.engine.enumerator import deal, winners

    rows = [{"shoe": "1", "burn": "Kh", "player": "Kd 5d 9c", "banker": "7s Qd"},
            {"shoe": "1", "burn": "", "player": "2c 4h", "banker": "As 4d 9h"}]
    log = rows_log(rows)
    assert log.burn_ranks is not None and log.burn_ranks[:, 0].tolist() == [13, 0]
    again = read_log(log_text(log).splitlines(keepends=True))
    assert again.burn_ranks is not None and again.burn_ranks.tolist() == log.burn_ranks.tolist()
    assert log_text(log).splitlines()[:2] == ["shoe,burn,player,banker", "1,Kh,Kd 5d 9c,7s Qd"]
    # The first coup's odds are those of the deck less the king the burn showed.
    first = verify_log(rows[:1], Shoe.decks(1)).check("outcomes")
    exact = winners(deal(Shoe.from_counts([4] * 12 + [3])))
    assert [t.expected for t in first.tallies] == pytest.approx([float(exact.probability(w))
                                                                for w in ("banker", "player", "tie")], rel=1e-12)
    # The burn card comes out of the shoe: one deck holds one king of hearts.
    twice = verify_log([{**rows[0], "player": "Kh 5d 9c"}], Shoe.decks(1)).check("accounting")
    assert twice.verdict == "FAIL"
    assert twice.violations[0].message == "coup 1 of shoe 1: the 2nd Kh dealt from a shoe that holds 1"


def test_a_burn_of_four_cards_is_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("shoe,burn,player,banker\n1,2h 3h 4h 5h,Kh 5d,7s 8c\n", encoding="utf-8")
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and "line 2: column 'burn' holds 4 cards; it holds 0 to 3" in err
