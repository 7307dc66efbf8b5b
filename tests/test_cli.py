"""The command line: outputs, formats and bad input (one line on stderr, exit status 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import body, one_line_error, run

from exact_odds.core.tableau import STANDARD_TOML


def test_odds_json_eight_decks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["shoe"] == {"description": "8 decks", "cards": 416}
    assert data["sequences"] == 4998398275503360
    assert data["outcomes"]["banker"]["combinations"] == 2292252566437888
    assert data["outcomes"]["tie"]["probability"] == "619306544887/6508331087895"


def test_odds_infinite_deck_omits_combinations(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "odds", "--decks", "inf", "--format", "json")[1]
    data = json.loads(out)
    assert data["outcomes"]["player"] == {"probability": "2153464/4826809", "decimal": 2153464 / 4826809}
    assert "combinations" not in data["outcomes"]["tie"]


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex"])
def test_odds_formats(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "odds", "--decks", "1", "--format", fmt)
    assert code == 0 and "10526926/22903335" in out


def test_remove_and_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(STANDARD_TOML)
    a = run(capsys, "odds", "--decks", "1", "--remove", "5,5,K,9", "--rules", str(rules), "--format", "json")[1]
    b = run(capsys, "odds", "--shoe", "A=4,2=4,3=4,4=4,5=2,6=4,7=4,8=4,9=3,T=4,J=4,Q=4,K=3", "--format", "json")[1]
    assert a == b


def test_output_file_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "odds.csv"
    assert run(capsys, "odds", "--format", "csv", "--output", str(target))[1] == ""
    assert body(target.read_text()).startswith("outcome,combinations")


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--decks", "0"],
        ["odds", "--decks", "two"],
        ["odds", "--shoe", "X=4,K=10"],
        ["odds", "--shoe", "A=-1,K=10"],
        ["odds", "--shoe", "A=2.5,K=10"],
        ["odds", "--shoe", "A=3"],
        ["odds", "--decks", "1", "--remove", "A,A,A,A,A"],
        ["odds", "--rules", "/nonexistent.toml"],
        ["odds", "--format", "yaml"],
        ["odds", "--bogus"],
        ["nosuchcommand"],
        [],
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err), err


def test_bad_rules_file_names_its_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "bad.toml"
    rules.write_text(STANDARD_TOML.replace('5 = "D  S  S  S  S  D', '5 = "D  S  S  S  S  Q'))
    code, _, err = run(capsys, "odds", "--rules", str(rules))
    assert code == 2 and f"{rules}:17: banker row 5" in err


def test_module_entry_point() -> None:
    result = subprocess.run([sys.executable, "-m", "exact_odds", "odds", "--decks", "1", "--format", "csv"],
                            capture_output=True, text=True, check=True)
    assert "banker,6737232640,10526926/22903335," in result.stdout


@pytest.mark.parametrize("error", [MemoryError(), OSError(12, "Cannot allocate memory")], ids=["memory", "mmap"])
def test_running_out_of_memory_is_one_line_naming_what_to_reduce(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 error: Exception) -> None:
    """NumPy's allocations raise MemoryError, a failed ``mmap`` OSError ENOMEM: either is one line, status 2."""
    def exhausted(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr("exact_odds.cli.study.run_study", exhausted)
    code, out, err = run(capsys, "study", "--shoes", "2", "--decks", "1", "--seed", "1")
    assert (code, out) == (2, "")
    assert err == "exact-odds: error: out of memory: deal fewer --shoes, or smaller shoes\n"
