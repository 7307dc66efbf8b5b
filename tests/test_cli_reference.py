"""The edges, parsheet, symbolic and report commands: outputs, formats and bad input."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import body, one_line_error, run

from exact_odds.bets.main import EXAMPLE_TOML

SEQUENCES_8 = 4_998_398_275_503_360
BANKER_8, PLAYER_8, TIE_8 = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216


def test_edges_json_shape_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "edges", "--format", "json")
    data = json.loads(out)
    assert code == 0 and list(data["configurations"]) == ["standard", "tie-9", "commission-4", "super-6", "ez"]
    for config in data["configurations"].values():
        assert list(config) == ["banker", "player", "tie"]
        for figures in config.values():
            assert isinstance(figures["std_dev"], float) and "/" in figures["house_edge"]
    standard = data["configurations"]["standard"]
    # Identities from the published 8-deck counts (Wizard of Odds, "Baccarat").
    assert Fraction(standard["banker"]["house_edge"]) == Fraction(20 * PLAYER_8 - 19 * BANKER_8, 20 * SEQUENCES_8)
    assert Fraction(standard["player"]["house_edge_resolved"]) == Fraction(BANKER_8 - PLAYER_8, BANKER_8 + PLAYER_8)
    assert Fraction(data["configurations"]["tie-9"]["tie"]["house_edge"]) == Fraction(
        BANKER_8 + PLAYER_8 - 9 * TIE_8, SEQUENCES_8)
    assert Fraction(standard["tie"]["house_edge"]).denominator == 723147898655  # reduced


def test_edges_of_one_configuration_and_of_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run(capsys, "edges", "--config", "super-6")[1]
    assert "super-6" in out and "1.4581%" in out and "standard " not in body(out)
    path = tmp_path / "casino.toml"
    path.write_text(EXAMPLE_TOML)
    data = json.loads(run(capsys, "edges", "--config", str(path), "--decks", "6", "--format", "json")[1])
    assert list(data["configurations"]) == ["my-casino"] and data["shoe"]["description"] == "6 decks"


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex"])
def test_edges_formats(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "edges", "--decks", "8", "--format", fmt)
    assert code == 0
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(body(out))))
        ez = next(r for r in rows if r["configuration"] == "ez" and r["bet"] == "banker")
        assert Fraction(ez["win"]) + Fraction(ez["push"]) + Fraction(ez["loss"]) == 1
        assert Fraction(ez["house_edge"]) == -Fraction(ez["player_ev"])
    else:
        percent = r"\%" if fmt == "latex" else "%"
        assert f"1.0183{percent}" in out and f"14.3596{percent}" in out


def test_parsheet(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "parsheet", "--bet", "super-6/banker", "--format", "json")[1])
    assert [line["outcome"] for line in data["lines"]] == ["banker wins with 6", "banker wins", "tie (push)", "loses"]
    assert sum(line["combinations"] for line in data["lines"]) == data["sequences"] == SEQUENCES_8
    assert Fraction(data["house_edge"]) == -sum(Fraction(line["return"]) for line in data["lines"])
    text = run(capsys, "parsheet", "--bet", "banker", "--config", "ez", "--decks", "6")[1]
    assert "Par sheet: ez/banker, 6 decks" in text and "banker wins with three-card 7 (push)" in text
    inf = json.loads(run(capsys, "parsheet", "--bet", "tie", "--decks", "inf", "--format", "json")[1])
    assert "combinations" not in inf["lines"][0] and inf["house_edge"] == "681400/4826809"


def test_parsheet_csv_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    rows = list(csv.DictReader(io.StringIO(body(run(capsys, "parsheet", "--bet", "tie-9/tie", "--format", "csv")[1]))))
    assert rows[0] == {"outcome": "tie", "combinations": str(TIE_8), "probability": "619306544887/6508331087895",
                       "pays": "9", "return": str(Fraction(9 * TIE_8, SEQUENCES_8))}


def test_symbolic_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "symbolic", "--config", "tie-9", "--format", "json")[1])
    assert data["disagreements"] == [] and data["checked_decks"] == list(range(1, 9))
    assert data["outcomes"]["tie"]["limit"] == "460601/4826809"
    assert list(data["house_edges"]) == ["tie-9/banker", "tie-9/player", "tie-9/tie"]
    # The fair tie payout is (1 - P(tie)) / P(tie) for 8 decks.
    fair = Fraction(next(line["pays"] for line in data["payout_symbols"]["tie-9/tie"]["break_even"]
                         if line["line"] == "tie"))
    assert fair == Fraction(SEQUENCES_8 - TIE_8, TIE_8)


def test_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "report", "--format", "markdown")
    assert code == 0
    for title in ("## Punto banco odds, 8 decks", "## House edges of the main bets, 8 decks",
                  "## Par sheet: super-6/banker, 8 decks", "## Par sheet: ez/banker, 8 decks"):
        assert title in out
    data = json.loads(run(capsys, "report", "--format", "json")[1])
    assert data["odds"]["sequences"] == SEQUENCES_8 and "standard" in data["house_edges"]["configurations"]
    assert [s["bet"] for s in data["par_sheets"].values()] == [
        "banker", "player", "tie", "tie-9/tie", "commission-4/banker", "super-6/banker", "ez/banker"]


def test_report_leaves_out_bets_that_need_suits(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "report", "--decks", "1", "--remove", "5", "--format", "json")[1])
    assert data["skipped_bets"] and all(name not in data["side_bets"] for name in data["skipped_bets"])
    assert "perfect-pair" in data["skipped_bets"] and "dragon-7" in data["side_bets"]
    assert data["odds"]["shoe"]["cards"] == 51


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["edges", "--config", "nonesuch"], "unknown configuration 'nonesuch'; give one of standard"),
        (["edges", "--config", "/nonexistent/casino.toml"], "cannot read configuration file"),
        (["parsheet", "--bet", "dragon-9"], "unknown bet 'dragon-9' (did you mean 'dragon-7'?)"),
        (["parsheet", "--bet", "nothing-like-it"], "unknown bet 'nothing-like-it'; known bets:"),
        (["parsheet", "--bet", "dragon", "--config", "ez"], "configuration 'ez' has no bet 'dragon'"),
        (["parsheet"], "the following arguments are required: --bet"),
        (["edges", "--decks", "0"], "--decks must be a whole number"),
        (["symbolic", "--config", "nope"], "unknown configuration 'nope'"),
        (["report", "--format", "yaml"], "invalid choice: 'yaml'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                            message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err, message), err
