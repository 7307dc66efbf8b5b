"""LaTeX output: every command's document compiles with pdflatex; the fragment is the tables alone.

The compilation runs wherever ``pdflatex`` is installed and always in CI (the variable ``CI`` set:
``.ci/run`` installs TeX Live's latex-base and latex-recommended), where a missing pdflatex fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import needed_tool, run

from exact_odds.report.base import Math, Table
from exact_odds.report.document import latex_escape, latex_table

EXAMPLES = Path(__file__).parent.parent / "examples"
PDFLATEX = shutil.which("pdflatex")

COMMANDS: dict[str, tuple[str, ...]] = {
    "odds": ("odds", "--decks", "8"),
    "odds-dealt": ("odds", "--dealt", "P: 9h 4c B: Kd"),
    "edges": ("edges", "--decks", "8"),
    "parsheet": ("parsheet", "--bet", "banker"),
    "symbolic": ("symbolic",),
    "report": ("report", "--decks", "6"),
    "report-game": ("report", "--game", str(EXAMPLES / "games" / "my-casino.toml"), "--eor"),
    "sidebets": ("sidebets", "--decks", "8", "--rules", str(EXAMPLES / "wrong_banker_6.toml")),
    "simulate": ("simulate", "--rounds", "2000", "--seed", "1", "--verify"),
    "session": ("session", "--bet", "banker", "--hands", "20", "--sessions", "100", "--seed", "3"),
    "bunco": ("bunco", "--simulate", "500", "--seed", "4"),
    "eor": ("eor", "--decks", "1"),
    "study": ("study", "--shoes", "4", "--seed", "5"),
    "count": ("count", "--shoes", "3", "--seed", "2", "--count", "jacobson-dragon-7"),
    "advantage": ("advantage", "--decks", "1"),
}
"""A command line of each command (and form) that writes tables, without --format."""


def _compile(tex: str, tmp_path: Path) -> str:
    """Compile ``tex`` with pdflatex; return its log (the test fails on an error)."""
    (tmp_path / "out.tex").write_text(tex, encoding="utf-8")
    done = subprocess.run([needed_tool(PDFLATEX, "pdflatex (texlive-latex-base and -recommended)"),
                           "-interaction=nonstopmode", "-halt-on-error", "out.tex"],
                          cwd=tmp_path, capture_output=True, text=True, errors="replace", timeout=300)
    log = (tmp_path / "out.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (tmp_path / "out.pdf").stat().st_size > 1000
    return log


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_latex_document_compiles(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    code, out, err = run(capsys, *COMMANDS[name], "--format", "latex")
    assert code in (0, 1), err
    assert out.startswith("\\documentclass") and out.rstrip().endswith("\\end{document}")
    assert "\\caption{" in out and "\\toprule" in out and "\\begin{longtable}" in out
    assert all(c.isascii() for c in out), sorted({c for c in out if not c.isascii()})
    assert "\\item[program] exact-odds" in out
    log = _compile(out, tmp_path)
    assert "Overfull \\hbox" not in log, "a table is wider than the page"


def test_the_fragment_is_the_tables_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--format", "latex", "--latex-fragment")
    assert code == 0
    assert "\\documentclass" not in out and "program" not in out
    assert out.startswith("{") and "\\begin{longtable}{lrrr}" in out and "\\caption{Punto banco odds, 8 decks}" in out


def test_the_fragment_needs_latex(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "--format", "csv", "--latex-fragment")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--latex-fragment needs --format latex" in err


def test_closed_forms_are_set_as_mathematics(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "symbolic", "--format", "latex")
    assert code == 0
    assert "**" not in out and "\\frac{" in out and "d^{4}" in out


def test_characters_latex_rejects_are_converted() -> None:
    assert latex_escape("≈ × − → ♣ ♠ ♥ ♦ ± – …") == (
        "$\\approx$ $\\times$ $-$ $\\rightarrow$ $\\clubsuit$ $\\spadesuit$ $\\heartsuit$ $\\diamondsuit$ "
        "$\\pm$ -- \\ldots{}")
    assert latex_escape("Égalité 5% & $1_2 #3 {x} ~^\\") == (
        "\\'{E}galit\\'{e} 5\\% \\& \\$1\\_2 \\#3 \\{x\\} \\textasciitilde{}\\textasciicircum{}\\textbackslash{}")
    assert latex_escape("漢") == "?"


def test_a_math_cell_goes_through_sympy() -> None:
    import sympy

    d = sympy.Symbol("d")
    text = latex_table(Table("t", ["x", "f"], [["a", Math(d**4 / 13)]]))
    assert "$\\frac{d^{4}}{13}$" in text


def test_every_character_of_a_title_compiles(tmp_path: Path) -> None:
    from exact_odds.report.document import Provenance, latex_document

    title = "Odds ≈ 1.06% × 2 − 3 → ♣♠♥♦ ± – — … § · ° ≤ ≥ ≠ ∞ Égalité & $ # _ { } ~ ^ \\ < > |"
    tex = latex_document([Table(title, ["a", "b"], [[title, 1]], [title])], Provenance("odds", version="0"))
    if PDFLATEX is not None or os.environ.get("CI"):
        _compile(tex, tmp_path)
