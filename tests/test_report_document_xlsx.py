"""``--format xlsx``: a workbook read back with openpyxl holds the figures of the command's JSON, exactly.

Each fraction cell is a number (written with 16 significant digits) whose exact text stands beside it;
that text, every integer and every rounded decimal is found in the JSON of the same command line.
LibreOffice, where it is installed, opens the file (converted headless to CSV).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import one_line_error, run

from exact_odds.report.document import EXACT_SUFFIX, PERCENT_FORMAT, THOUSANDS_FORMAT

openpyxl = pytest.importorskip("openpyxl")

EXAMPLES = Path(__file__).parent.parent / "examples"
MY_CASINO = str(EXAMPLES / "games" / "my-casino.toml")


def _leaves(value: object) -> list[object]:
    """Every number and string of a JSON value."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _workbook_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[object, object]:
    book = tmp_path / "out.xlsx"
    code, out, err = run(capsys, *argv, "--format", "xlsx", "--output", str(book))
    assert (code, out) == (0, ""), err
    assert f"wrote '{book}'" in err
    code, text, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    return openpyxl.load_workbook(book), json.loads(text)


def _rounded_from(value: float, figures: list[float]) -> bool:
    """Whether ``value``, a decimal the table rounded (to as many places as its text shows), is one of ``figures``."""
    places = len(repr(value).partition(".")[2]) if "e" not in repr(value) else 17
    return any(abs(x - value) <= 0.5 * 10.0**-places * (1 + 1e-9) + 1e-15 for x in figures)


def _check_every_cell(book: object, data: object) -> int:
    """Assert every figure of every sheet is the JSON's; return how many figures were compared."""
    leaves = _leaves(data)
    fractions = {Fraction(x) for x in leaves if isinstance(x, str) and x.lstrip("-").replace("/", "").isdigit()}
    fractions |= {Fraction(x) for x in leaves if isinstance(x, int) and not isinstance(x, bool)}
    floats = [x for x in leaves if isinstance(x, float)] + [float(x) for x in fractions]
    compared = 0
    for sheet in book.worksheets[1:]:  # type: ignore[attr-defined]
        rows = list(sheet.iter_rows(min_row=2))
        headers = [cell.value for cell in rows[0]]
        for row in rows[1:]:
            total = row[0].value == "total"  # a sum the JSON leaves out (1, the total of the probabilities)
            for i, cell in enumerate(row):
                header, value = headers[i], cell.value
                twin = i + 1 < len(headers) and headers[i + 1] == f"{header}{EXACT_SUFFIX}"
                exact_text = str(header).endswith(EXACT_SUFFIX)
                if header is None or value in (None, "") or twin or (total and not exact_text):
                    continue
                if exact_text:
                    exact = Fraction(value)
                    assert total or exact in fractions, (sheet.title, header, value)
                    assert math.isclose(row[i - 1].value, exact, rel_tol=1e-15), (sheet.title, header)
                elif isinstance(value, int) and not isinstance(value, bool):
                    assert Fraction(value) in fractions, (sheet.title, header, value)
                elif isinstance(value, float):
                    assert _rounded_from(value, floats), (sheet.title, header, value)
                else:
                    continue
                compared += 1
    return compared


def test_the_casinos_par_sheet_has_every_figure_of_its_json(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    book, data = _workbook_and_json(capsys, tmp_path, "report", "--game", MY_CASINO)
    assert book.sheetnames[0] == "provenance"  # type: ignore[attr-defined]
    assert len(book.sheetnames) == 11  # type: ignore[attr-defined]
    sheet = book["provenance"]  # type: ignore[index]
    provenance = {row[0]: row[1] for row in sheet.iter_rows(min_row=3, values_only=True)}
    assert provenance["configuration"] == data["provenance"]["configuration"]  # type: ignore[index]
    assert provenance["shoe"] == data["provenance"]["shoe"]["description"]  # type: ignore[index]
    assert _check_every_cell(book, data) >= 130


def test_numbers_are_numbers_with_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    book, _ = _workbook_and_json(capsys, tmp_path, "parsheet", "--bet", "banker")
    sheet = book.worksheets[1]  # type: ignore[attr-defined]
    headers = [c.value for c in sheet[2]]
    assert headers[:4] == ["outcome", "combinations", "probability", "probability (exact)"]
    combinations, probability, exact = sheet.cell(3, 2), sheet.cell(3, 3), sheet.cell(3, 4)
    assert isinstance(combinations.value, int) and combinations.number_format == THOUSANDS_FORMAT
    assert isinstance(probability.value, float) and probability.number_format == PERCENT_FORMAT
    assert math.isclose(Fraction(exact.value), probability.value, rel_tol=1e-15)  # 16 digits written


@pytest.mark.parametrize("argv", [("odds",), ("edges", "--decks", "8"), ("sidebets",),
                                  ("eor", "--decks", "1", "--bet", "banker"),
                                  ("simulate", "--coups", "500", "--seed", "1")])
def test_every_table_command_writes_a_workbook(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               argv: tuple[str, ...]) -> None:
    book, data = _workbook_and_json(capsys, tmp_path, *argv)
    assert len(book.sheetnames) >= 2  # type: ignore[attr-defined]
    _check_every_cell(book, data)


def test_a_workbook_is_never_written_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert one_line_error(*run(capsys, "odds", "--format", "xlsx"), "--format xlsx", "--output FILE")
    assert one_line_error(*run(capsys, "odds", "--format", "xlsx", "-o", "-"), "--output FILE")


def test_without_openpyxl_one_line_names_the_extra(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    book = tmp_path / "out.xlsx"
    assert one_line_error(*run(capsys, "odds", "--format", "xlsx", "-o", str(book)),
                          "pip install 'exact-odds[xlsx]'")
    assert not book.exists()


def test_libreoffice_opens_the_workbook(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    office = shutil.which("libreoffice") or shutil.which("soffice")
    if office is None:
        pytest.skip("LibreOffice is not installed")
    book = tmp_path / "report.xlsx"
    assert run(capsys, "report", "--game", MY_CASINO, "--format", "xlsx", "-o", str(book))[0] == 0
    subprocess.run([office, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile", "--convert-to",
                    "csv", "--outdir", str(tmp_path), str(book)], check=True, capture_output=True, timeout=120)
    text = (tmp_path / "report.csv").read_text(encoding="utf-8")
    assert text.startswith("Provenance")
    assert "exact-odds" in text
