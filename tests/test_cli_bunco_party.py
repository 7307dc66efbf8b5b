"""``exact-odds bunco --party FILE``, ``--night N`` and ``--tally FILE`` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import one_line_error, run

EXAMPLES = Path(__file__).parent.parent / "examples"
PARTY = str(EXAMPLES / "bunco_party.toml")
SHEET = str(EXAMPLES / "bunco_tally.csv")


def test_a_party_gives_the_head_table_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "bunco", "--party", PARTY)
    assert code == 0, err
    assert "P(team 1, seats 1 and 3, rings the bell)  0.5176661039" in out
    assert "expected rolls until the bell             49.8597531558" in out
    assert "P(team 1 wins the round, roll-off included)" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "json", "latex", "html"])
def test_every_format(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, err = run(capsys, "bunco", "--night", "20", "--seed", "3", "--format", fmt)
    assert code == 0 and out, err


def test_a_night_and_its_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "night.csv"
    code, out, err = run(capsys, "bunco", "--night", "300", "--seed", "1", "--log", str(sheet))
    assert code == 0, err
    assert "every round against the exact tables: PASS" in out
    assert run(capsys, "bunco", "--night", "300", "--seed", "1")[1] == out
    code, out, err = run(capsys, "bunco", "--tally", str(sheet))
    assert code == 0 and "Tally sheet: PASS" in out, err


def test_quiet_names_no_file_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``bunco --quiet`` writes its files and says nothing of them, as every command's --quiet does."""
    log, out = tmp_path / "rolls.csv", tmp_path / "out.txt"
    argv = ("bunco", "--simulate", "100", "--seed", "1", "--log", str(log), "--output", str(out))
    assert run(capsys, *argv) == (0, "", f"exact-odds: wrote {str(log)!r}\nexact-odds: wrote {str(out)!r}\n")
    written = log.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
    assert run(capsys, *argv, "--quiet") == (0, "", "")
    assert (log.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")) == written


def test_a_wrong_sheet_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = Path(SHEET).read_text(encoding="utf-8").splitlines()
    lines[1] = "1,1,P1,0,1,1,0,29"
    sheet = tmp_path / "wrong.csv"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "bunco", "--tally", str(sheet))
    assert code == 1 and "Tally sheet: FAIL" in out and "lost at the head table in round 1 with a Bunco" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--party", PARTY, "--dice", "5"), ("--dice", "party file")),
    (("--night", "10", "--target", "30"), ("--target",)),
    (("--party", PARTY, "--seed", "3"), ("--night N",)),
    (("--tally", SHEET, "--night", "10"), ("--tally",)),
    (("--party", PARTY, "--simulate", "10"), ("--simulate",)),
    (("--party", "missing.toml"), ("cannot read party file",)),
    (("--tally", "missing.csv"), ("cannot read tally file",)),
    (("--night", "0"), ("--night",)),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                               words: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "bunco", *argv), *words)


def test_a_bad_party_file_names_its_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    party = tmp_path / "party.toml"
    party.write_text("players = 12\ntabels = 3\n", encoding="utf-8")
    assert one_line_error(*run(capsys, "bunco", "--party", str(party)), "party.toml:2: unknown key 'tabels'",
                          "did you mean 'tables'?")
