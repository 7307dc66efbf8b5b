"""Results shown as tables in a notebook (``_repr_html_``), and the tour notebook runs cell by cell."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from exact_odds import STANDARD_TABLEAU, Dist, Shoe, deal, effects_of_removal, par_sheet, winners
from exact_odds.bets import find_bet
from exact_odds.core.notebook import MAX_ROWS, html_table

ROOT = Path(__file__).resolve().parent.parent
TOUR = ROOT / "docs" / "tour.ipynb"


def _cells(html: str) -> list[list[str]]:
    """The rows of every table in ``html`` (well-formed, or ElementTree raises), as cell texts."""
    root = ET.fromstring(f"<root>{html}</root>")
    return [["".join(cell.itertext()) for cell in row] for row in root.iter("tr")]


def _captions(html: str) -> list[str]:
    return ["".join(c.itertext()) for c in ET.fromstring(f"<root>{html}</root>").iter("caption")]


def test_every_text_is_escaped() -> None:
    html = html_table(["<a>", "b&c"], [["<script>alert('x')</script>", Fraction(1, 3)]], caption="x < y",
                      notes=["\"quoted\" & <tagged>"])
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;tagged&gt;" in html
    assert _cells(html) == [["<a>", "b&c"], ["<script>alert('x')</script>", "1/3"]]
    assert _captions(html) == ["x < y"]


def test_long_tables_are_cut_and_say_so() -> None:
    html = Dist({i: 1 for i in range(MAX_ROWS + 5)})._repr_html_()
    rows = _cells(html)
    assert len(rows) == 1 + MAX_ROWS + 1 and rows[-1] == ["… and 5 more rows"]


def test_a_dist_shows_ways_and_exact_probabilities() -> None:
    odds = winners(deal(Shoe.decks(8)))
    rows = _cells(odds._repr_html_())
    assert rows[0] == ["outcome", "ways", "probability", "≈"]
    assert rows[1] == ["banker", f"{odds['banker']:,}", "8954111587648/19524993263685", "0.458597"]
    assert sorted(row[0] for row in rows[1:]) == ["banker", "player", "tie"]
    assert _cells(Dist({"<tie>": 1})._repr_html_())[1][0] == "<tie>"


def test_a_par_sheet_shows_its_lines_and_house_edge() -> None:
    sheet = par_sheet(Shoe.decks(8), find_bet("banker"))
    html = sheet._repr_html_()
    rows = _cells(html)
    assert rows[0] == ["line", "combinations", "probability", "≈", "pays", "return"]
    assert rows[-1][:3] == ["total", f"{sheet.total:,}", "1"] and rows[-1][-1] == "-1.0579%"
    assert len(rows) == 1 + len(sheet.lines) + 1
    assert "house_edge 114753351728/10847218479825" in html and _captions(html)[0].startswith("Par sheet of banker")


def test_effects_of_removal_show_every_rank_and_the_count() -> None:
    (removal,) = effects_of_removal(Shoe.decks(1), [find_bet("banker")])
    rows = _cells(removal._repr_html_())
    assert [row[0] for row in rows[1:]] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert rows[4][1] == str(removal.effects[3]) and [int(row[3]) for row in rows[1:]] == list(removal.count().tags)


def test_a_simulation_shows_its_outcomes_bets_and_check() -> None:
    from exact_odds.dealing.procedure import Procedure
    from exact_odds.witness.simulate import simulate

    sim = simulate(Shoe.decks(8), coups=500, seed=1, procedure=Procedure(fresh=True), reference=STANDARD_TABLEAU,
                   bets=[find_bet("banker")])
    html = sim._repr_html_()
    captions = _captions(html)
    assert sim.check is not None
    assert captions[0] == "Simulated coups, 8 decks, 500 coups, seed 1"
    assert captions[2].startswith("Check against the exact values") and captions[2].endswith(sim.check.verdict)
    counts = sim.winners()
    assert _cells(html)[1] == ["banker", str(counts["banker"]), f"{counts['banker'] / 500:.6g}"]


def test_a_study_shows_each_bet_and_the_cut_card_effect() -> None:
    from exact_odds.study.run import run_study

    study = run_study(Shoe.decks(1), shoes=2, seed=3, bets=[find_bet("banker"), find_bet("tie")])
    html = study._repr_html_()
    assert [row[0] for row in _cells(html)] == ["bet", "banker", "tie", "outcome", "banker", "player", "tie"]
    assert _captions(html)[0].startswith("The exact player EV before every coup: 2 shoes of 1 deck")


def test_bunco_games_turns_and_sessions() -> None:
    from exact_odds.analysis.sessions import one_hand, session_distribution
    from exact_odds.bunco import STANDARD_SCORING, Dice, play_game, play_turn

    game = play_game(Dice(3, 6), STANDARD_SCORING, rounds=2)
    rows = _cells(game._repr_html_())
    assert rows[0][0] == "total points" and len(rows) - 1 == len(game.totals)
    assert rows[1][2] == str(game.totals.probability(0))
    turn = play_turn(Dice(3, 6), STANDARD_SCORING)
    assert f"P(reach 21) = {turn.reach_probability}" in turn._repr_html_()
    session = session_distribution(one_hand(Shoe.decks(8), find_bet("player")), 2)
    rows = _cells(session._repr_html_())
    assert [row[0] for row in rows[1:]] == ["-2", "-1", "0", "1", "2"]


# ---------------------------------------------------------------- the tour


def test_the_tour_is_stored_without_outputs() -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(TOUR, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) >= 5 and all(not cell.outputs and cell.execution_count is None for cell in code)


def test_the_tour_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cell of docs/tour.ipynb runs without error (in the repository's root, as a reader would)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))  # the kernel imports this checkout
    notebook = nbformat.read(TOUR, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError, naming the cell, if one fails
    shown = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert any("text/html" in output.get("data", {}) for output in shown)


def test_reference_sheets_show_the_odds_and_every_house_edge() -> None:
    from exact_odds.analysis.edges import reference_sheets

    sheets = reference_sheets(Shoe.decks(8))
    html = sheets._repr_html_()
    rows = _cells(html)
    assert _captions(html) == ["Odds of one coup, 8 decks", "House edges, 8 decks"]
    names = [row[0] for row in rows]
    assert "dragon-7" in names and names.index("bet") == 4  # after the three outcomes
    assert len(rows) == 1 + 3 + 1 + len(sheets.main) + len(sheets.others)


def test_the_value_of_information_shows_each_case() -> None:
    from exact_odds.analysis.information import Information, advantage

    worth = advantage(Shoe.decks(1), Information.rank_at(1), [find_bet("banker"), find_bet("player")])
    rows = _cells(worth._repr_html_())
    assert rows[0] == ["card 1", "probability", "≈", "player_ev banker", "player_ev player", "play"]
    assert [row[0] for row in rows[1:]] == [*"A23456789TJQK", "all"] and rows[-1][-1] == "(by case)"
    assert rows[1][-1] == (worth.cases[0].best_bet or "sit out")


def test_a_log_verification_shows_each_check() -> None:
    from exact_odds.witness.verify import verify_log

    result = verify_log([{"player": "9h 4c 2d", "banker": "Kd 3s 3c", "winner": "player"}], Shoe.decks(8))
    html = result._repr_html_()
    assert [row[:2] for row in _cells(html)[1:4]] == [["rules", "PASS"], ["labels", "FAIL"], ["accounting", "PASS"]]
    assert _captions(html)[0].endswith(": FAIL")
