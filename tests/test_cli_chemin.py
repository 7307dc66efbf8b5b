"""The ``chemin-de-fer`` command: models, shoes, rules files, formats and bad input (exit 2, one line)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import one_line_error, run

EXAMPLES = Path(__file__).parent.parent / "examples"
HOUSE = str(EXAMPLES / "chemin-de-fer" / "house.toml")


def test_a1_draws_on_five_nine_times_in_eleven(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "A1", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["player"] == [{"hand": "5", "draw": "9/11", "cost_always_draw": "46608/53094899",
                                             "cost_always_stand": "136368/53094899"}]
    assert data["value"] == "-679568/53094899" and data["certificate"]["holds"]
    assert data["provenance"]["shoe"]["description"] == "infinite deck"
    assert len(data["banker"]) == 88 and sum(b["draw"] not in ("0", "1") for b in data["banker"]) == 1


def test_the_banker_table_is_shaped_like_the_tableau(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "B2", "--decks", "6")
    assert code == 0
    assert "6 (0+6)" in out and "Banker's optimal strategy, model B2, 6 decks" in out
    assert "3         D" in out


def test_house_rules_are_priced(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "B1", "--rules", HOUSE, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["rules"] == "house rules"
    assert sum(b["free"] for b in data["banker"]) == 2


def test_a_tableau_file_fixes_every_decision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "B1", "--decks", "1", "--format", "json",
                       "--rules", str(EXAMPLES / "wrong_banker_6.toml"))
    data = json.loads(out)
    assert code == 0 and data["player"] == [] and not any(b["free"] for b in data["banker"])


@pytest.mark.parametrize(("text", "words"), [
    ('[player]\n5 = "F"\n6 = "F"\n7 = "F"\n9 = "F"\n', ("natural", "cannot be reached", "rules.toml:5:")),
    ('[player]\n5 = "1.5"\n', ("out of range",)),
    ('[player]\n11 = "D"\n', ("does not exist",)),
    ('[player]\n' + "".join(f'{t} = "S"\n' for t in range(8)) + '[banker]\n4 = "S F S S S S S S S S S"\n',
     ("cannot be reached", "never draws")),
    ('[banker]\n"1+4" = "F F F F F F F F F F F"\n', ("sees only his total",)),
])
def test_bad_rules_files_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                                words: tuple[str, ...]) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(text, encoding="utf-8")
    model = "B1" if "1+4" in text else "B2"
    assert one_line_error(*run(capsys, "chemin-de-fer", "--model", model, "--decks", "1", "--rules", str(rules)),
                          *words)


@pytest.mark.parametrize("argv", [("--model", "A2", "--decks", "6"), ("--model", "B2", "--decks", "inf"),
                                  ("--model", "Z9",)])
def test_models_and_shoes_that_disagree_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "chemin-de-fer", *argv), "model")


def test_the_decks_table_gives_every_model_by_decks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--decks-table", "2", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["provenance"]["shoe"] is None
    assert [(s["decks"], s["model"]) for s in data["solutions"]] == [
        (1, "B1"), (1, "B2"), (1, "B3"), (2, "B1"), (2, "B2"), (2, "B3"), (None, "A1"), (None, "A2"), (None, "A3")]
    a1 = data["solutions"][6]
    assert a1["value"] == "-679568/53094899" and a1["player"] == [{"hand": "5", "draw": "9/11"}]
    assert a1["banker_mixed"] == [{"hand": "6", "column": "stood", "draw": "859/2288"}]
    one = json.loads(run(capsys, "chemin-de-fer", "--model", "B2", "--decks", "2", "--format", "json")[1])
    assert data["solutions"][4]["value"] == one["value"]
    code, out, _ = run(capsys, "chemin-de-fer", "--decks-table", "1", "--model", "B1", "--format", "csv")
    assert code == 0 and "∞,A1," in out and "\n1,B1," in out and "B2" not in out


@pytest.mark.parametrize("argv", [("--decks-table", "0"), ("--decks-table", "2", "--decks", "3"),
                                  ("--decks-table", "2", "--remove", "5"), ("--decks-table", "x")])
def test_bad_decks_tables_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "chemin-de-fer", *argv), "--decks-table")


def test_the_casino_game_with_a_commission(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "A1", "--commission", "0.05", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["commission"] == "1/20" and data["unique"] and not data["continuum"]
    (only,) = data["equilibria"]
    assert only["player"] == [{"hand": "5", "draw": "179/214"}] and only["certificate"]["holds"]
    assert Fraction(only["house_take"]) == -(Fraction(only["player_ev"]) + Fraction(only["banker_ev"])) > 0
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "B1", "--decks", "1", "--commission", "0", "--format",
                       "json")
    zero_sum = json.loads(run(capsys, "chemin-de-fer", "--model", "B1", "--decks", "1", "--format", "json")[1])
    (only,) = json.loads(out)["equilibria"]
    assert only["player_ev"] == zero_sum["value"] and only["house_take"] == "0"
    code, out, _ = run(capsys, "chemin-de-fer", "--model", "B2", "--decks", "1", "--commission", "1/20")
    assert code == 0 and "Banker's strategy at equilibrium 1" in out and "house's take" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--commission", "1/5"), ("--commission", "1/10")), (("--commission", "x"), ("--commission",)),
    (("--commission", "-0.01"), ("--commission",)),
    (("--decks-table", "2", "--commission", "1/20"), ("--commission",))])
def test_bad_commissions_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                words: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "chemin-de-fer", "--model", "B1", *argv), *words)


def test_baccara_banque_names_each_cooperative_equilibrium(capsys: pytest.CaptureFixture[str]) -> None:
    """Even stakes: the Players must correlate (323/543, 110/543, 110/543, 0); stakes 1 to 2: each draws on 5
    with 9/11 on his own, as Ethier and Lee find."""
    code, out, _ = run(capsys, "chemin-de-fer", "--banque", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["share"] == "1/2" and data["certificate"]["holds"]
    assert data["value"] == "-16655514960/1919414386513" == data["certificate"]["value"]
    assert [p["chance"] for p in data["correlated_cooperative"]["pairs"]] == ["323/543", "110/543", "110/543", "0"]
    assert data["correlated_cooperative"]["player_1_draws"] == "433/543"
    assert data["independent_cooperative"] == {"exists": False, "player_1_draws": None, "player_2_draws": None}
    assert data["banker_mixed"] == [{"banker": 6, "hand_1": "stood", "hand_2": "6", "draw": "5121/5792"},
                                    {"banker": 6, "hand_1": "6", "hand_2": "stood", "draw": "5121/5792"}]
    assert len(data["banker"]) == 1144
    code, out, _ = run(capsys, "chemin-de-fer", "--banque", "--share", "1/3", "--model", "a1")
    assert code == 0 and "exists: Player 1 draws on 5 with 9/11, Player 2 with 9/11" in out
    assert "Nash equilibrium" in out and "-35173866176/3849433272399" in out and "2367821/10469888" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--banque", "--share", "1"), ("--share", "strictly between 0 and 1")),
    (("--banque", "--share", "0"), ("--share", "strictly between 0 and 1")),
    (("--banque", "--share", "x"), ("--share", "1/2 or 0.4", "'x'")),
    (("--share", "1/3"), ("--share", "--banque")),
    (("--banque", "--model", "B1"), ("--banque", "model A1", "B1")),
    (("--banque", "--model", "A2"), ("--banque", "model A1")),
    (("--banque", "--decks", "6"), ("--banque", "--decks")),
    (("--banque", "--remove", "5"), ("--banque", "--remove")),
    (("--banque", "--decks-table", "2"), ("--banque", "--decks-table")),
    (("--banque", "--commission", "1/20"), ("--banque", "--commission")),
    (("--banque", "--rules", HOUSE), ("--banque", "--rules")),
])
def test_bad_banque_requests_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                    words: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "chemin-de-fer", *argv), *words)
