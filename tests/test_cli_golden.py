"""Golden outputs: every command, fixed seeds, every format, byte for byte.

These pin what the commands print so that a refactor cannot change an output unnoticed.
An intended change is made by regenerating the files and reviewing the diff:

    EXACT_ODDS_UPDATE_GOLDEN=1 python3 -m pytest tests/test_cli_golden.py

Each file holds the exit status, standard output and standard error of one command line.

Where a command prints in full floats that come from BLAS's or LAPACK's products and solutions (the
statistics of ``simulate --verify``'s outcome and pair tests), the order of their additions depends
on the processor's kernels, and another machine prints the same figures with other last digits:
those files (:data:`MACHINE_FLOATS`) are compared byte for byte except their floats, which must
agree to :data:`FLOAT_TOLERANCE` (relative). Every other file is compared byte for byte.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from conftest import run

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = Path(__file__).parent.parent / "examples"
UPDATE = os.environ.get("EXACT_ODDS_UPDATE_GOLDEN") == "1"

TABLE_FORMATS = ("table", "markdown", "csv", "json", "latex", "html")
WRONG = str(EXAMPLES / "wrong_banker_6.toml")
SIDE = str(EXAMPLES / "side_bets.toml")


FIGURE_PAGES = ("eor-html", "session-html", "study-html")
MACHINE_FLOATS = frozenset({"simulate-json"})
"""Golden files whose floats may differ in their last digits from one machine to another (see the module)."""
FLOAT_TOLERANCE = 1e-12
"""Relative difference allowed between two such floats (17 significant digits printed; BLAS's orders
differ by a few units of the last place, about ``1e-15``)."""
FLOAT = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")


def _cases() -> list[tuple[str, tuple[str, ...]]]:
    """(name, argv) of every pinned command line."""
    cases: list[tuple[str, tuple[str, ...]]] = []
    for fmt in TABLE_FORMATS:
        f = ("--format", fmt)
        cases += [
            (f"odds-{fmt}", ("odds", "--decks", "8", *f)),
            (f"odds-dealt-{fmt}", ("odds", "--decks", "8", "--dealt", "P: 9h 4c B: Kd", *f)),
            (f"edges-{fmt}", ("edges", "--decks", "8", *f)),
            (f"parsheet-{fmt}", ("parsheet", "--bet", "banker", *f)),
            (f"report-{fmt}", ("report", "--decks", "6", *f)),
            (f"sidebets-{fmt}", ("sidebets", "--decks", "8", *f)),
            (f"simulate-{fmt}", ("simulate", "--rounds", "3000", "--seed", "1", "--verify", *f)),
            (f"session-{fmt}", ("session", "--bet", "banker", "--hands", "30", "--sessions", "300",
                                "--bankroll", "10", "--seed", "3", *f)),
            (f"bunco-{fmt}", ("bunco", "--simulate", "2000", "--seed", "4", *f)),
            (f"eor-{fmt}", ("eor", "--decks", "1", "--bet", "banker,player,tie,player-pair", *f)),
            (f"study-{fmt}", ("study", "--shoes", "12", "--seed", "5", "--decks", "8", *f)),
            (f"study-record-{fmt}", ("study", "--record", str(EXAMPLES / "shoe_record.txt"), "--bet",
                                     "banker,player,tie", *f)),
        ]
    # A page with a figure (eor, session, study) is left out: the drawing's bytes depend on matplotlib's
    # version (tests/test_report_document_html.py renders such pages).
    cases = [(name, argv) for name, argv in cases if name not in FIGURE_PAGES]
    for fmt in ("text", "json"):
        f = ("--format", fmt)
        cases += [
            (f"deal-{fmt}", ("deal", "--seed", "7", "--coup", "3", *f)),
            (f"roads-{fmt}", ("roads", "--seed", "2", *f)),
            (f"roads-results-{fmt}", ("roads", "--results", str(EXAMPLES / "results.txt"), *f)),
        ]
    for fmt in ("csv", "jsonl"):
        cases.append((f"batch-{fmt}", ("batch", "--input", str(EXAMPLES / "compositions.csv"), "--bet",
                                       "banker,player,tie,player-pair,dragon-7", "--format", fmt)))
    for fmt in ("table", "json"):
        cases.append((f"symbolic-{fmt}", ("symbolic", "--format", fmt)))
    cases += [
        ("odds-infinite", ("odds", "--decks", "inf")),
        ("odds-latex-fragment", ("odds", "--format", "latex", "--latex-fragment")),
        ("symbolic-latex", ("symbolic", "--format", "latex")),
        ("error-latex-fragment", ("odds", "--latex-fragment")),
        ("odds-removed", ("odds", "--decks", "1", "--remove", "5,5,K,9")),
        ("odds-wrong-rules", ("odds", "--rules", WRONG)),
        ("edges-tie-9", ("edges", "--config", "tie-9", "--decks", "6")),
        ("edges-wrong-rules", ("edges", "--rules", WRONG)),
        ("parsheet-config", ("parsheet", "--bet", "tie", "--config", "tie-9")),
        ("parsheet-user-bet", ("parsheet", "--bet", "my-dragon-7", "--bets", SIDE)),
        ("sidebets-user", ("sidebets", "--decks", "6", "--bets", SIDE)),
        ("sidebets-unsuited", ("sidebets", "--shoe", "A=5,2=5,3=5,4=5,5=5,6=5,7=5,8=5,9=5,T=5,J=5,Q=5,K=5")),
        ("sidebets-wrong-rules", ("sidebets", "--rules", WRONG, "--bet", "dragon-7,panda-8")),
        ("simulate-fresh", ("simulate", "--fresh", "--rounds", "5000", "--seed", "2", "--verify",
                            "--bets", "banker,dragon-7,perfect-pair")),
        ("simulate-shoes", ("simulate", "--shoes", "3", "--seed", "3", "--verify", "--cut-card", "7",
                            "--last-coup", "this")),
        ("simulate-wrong", ("simulate", "--rounds", "4000", "--seed", "1", "--rules", WRONG, "--verify")),
        ("simulate-verify-rules", ("simulate", "--rounds", "4000", "--seed", "1", "--rules", WRONG, "--verify",
                                   "--verify-rules", WRONG)),
        ("deal-ascii", ("deal", "--seed", "11", "--ascii", "--no-burn")),
        ("deal-wrong-rules", ("deal", "--seed", "7", "--coup", "2", "--rules", WRONG)),
        ("odds-dealt-wrong-rules", ("odds", "--rules", WRONG, "--dealt", "P: 2 3 5 B: 3 3")),
        ("session-distribution", ("session", "--bet", "tie", "--hands", "3", "--sessions", "0",
                                  "--distribution")),
        ("session-wrong-rules", ("session", "--bet", "banker", "--hands", "10", "--sessions", "100", "--seed", "1",
                                 "--rules", WRONG)),
        ("roads-color", ("roads", "--seed", "9", "--color")),
        ("bunco-article", ("bunco", "--scoring", "article", "--rounds", "4", "--more-than", "5")),
        ("eor-user-bets", ("eor", "--decks", "2", "--bets", SIDE)),
        ("eor-wrong-rules", ("eor", "--decks", "1", "--rules", WRONG, "--bet", "banker")),
        ("study-options", ("study", "--shoes", "5", "--seed", "6", "--decks", "6", "--cut-card", "20",
                           "--no-burn", "--bet", "banker,dragon-7", "--thresholds", "0", "2")),
        ("study-wrong-rules", ("study", "--shoes", "4", "--seed", "1", "--rules", WRONG)),
        ("batch-wrong-rules", ("batch", "--input", str(EXAMPLES / "compositions.csv"), "--rules", WRONG)),
        ("batch-user-bets", ("batch", "--input", str(EXAMPLES / "compositions.csv"), "--bets", SIDE)),
        ("error-decks", ("odds", "--decks", "x")),
        ("error-bet", ("parsheet", "--bet", "nonsense")),
    ]
    return cases


CASES = _cases()


def _record(code: int, out: str, err: str) -> str:
    return f"exit status: {code}\n--- stdout ---\n{out}--- stderr ---\n{err}"


@pytest.mark.parametrize(("name", "argv"), CASES, ids=[name for name, _ in CASES])
def test_golden_output(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                       name: str, argv: tuple[str, ...]) -> None:
    monkeypatch.chdir(EXAMPLES.parent)
    code, out, err = run(capsys, *argv)
    text = _record(code, out.replace(str(EXAMPLES), "examples"), err.replace(str(EXAMPLES), "examples"))
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with EXACT_ODDS_UPDATE_GOLDEN=1"
    golden = path.read_text(encoding="utf-8")
    if name in MACHINE_FLOATS and text != golden:
        assert _same_but_last_digits(text, golden), (text, golden)
    else:
        assert text == golden


def _same_but_last_digits(text: str, golden: str) -> bool:
    """Whether ``text`` is ``golden`` but for floats that agree to :data:`FLOAT_TOLERANCE`."""
    floats, expected = FLOAT.findall(text), FLOAT.findall(golden)
    return (FLOAT.sub("#", text) == FLOAT.sub("#", golden) and len(floats) == len(expected)
            and all(math.isclose(float(a), float(b), rel_tol=FLOAT_TOLERANCE, abs_tol=FLOAT_TOLERANCE)
                    for a, b in zip(floats, expected, strict=True)))


def test_last_digits_only_where_the_machine_decides() -> None:
    """The comparison of :data:`MACHINE_FLOATS` tells a float's last digits from a changed figure."""
    golden = '{"p_value": 0.32449759552589075, "n": 12, "label": "tie"}'
    assert _same_but_last_digits('{"p_value": 0.324497595525909, "n": 12, "label": "tie"}', golden)
    assert not _same_but_last_digits('{"p_value": 0.3244975955, "n": 12, "label": "tie"}', golden)
    assert not _same_but_last_digits('{"p_value": 0.32449759552589075, "n": 13, "label": "tie"}', golden)
    assert not _same_but_last_digits('{"p_value": 0.32449759552589075, "n": 12, "label": "tied"}', golden)
