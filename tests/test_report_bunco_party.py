"""The report of a party, its simulated nights and a tally sheet: tables and JSON from the exact figures."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from exact_odds.bunco import Dice, ScoringRules
from exact_odds.bunco.night import exact_tables, night_means, simulate_nights
from exact_odds.bunco.party import Party
from exact_odds.bunco.tally import load_tally, verify_tally
from exact_odds.report.base import render_json
from exact_odds.report.bunco import (
    bunco_party_json,
    bunco_party_tables,
    other_json,
    party_json,
    tally_json,
    tally_tables,
)

SMALL = Party(name="small", tables=2, dice=Dice(2, 3), scoring=ScoringRules("small", 3, 2, 1), target=4, rounds=3)
SHEET = Path(__file__).parent.parent / "examples" / "bunco_tally.csv"


def test_the_party_report_lists_every_table_and_the_exact_fractions() -> None:
    race, table = exact_tables(SMALL.dice, SMALL.scoring, SMALL.target, False, others=True)
    means = night_means(SMALL, race)
    night = simulate_nights(SMALL, nights=300, seed=1)
    titles = [t.title for t in bunco_party_tables(SMALL, race, table, means, night)]
    assert titles[:3] == ["Bunco party 'small'", "The head table: the race to 4 (2d3, small scoring)",
                          "The head table: rolls until the bell"]
    assert "Simulated nights (300 nights, seed 1): a player's wins and losses" in titles
    head = bunco_party_tables(SMALL, race, table, means)[1]
    assert f"Exactly: P(team 1 rings the bell) = {race.first_team_wins}." in head.notes
    data = bunco_party_json(SMALL, race, table, means, night)
    assert data["party"] == party_json(SMALL) and "simulation" in data
    assert '"first_team_wins": "' in render_json(data)


def test_the_leads_of_another_table_add_up() -> None:
    race, table = exact_tables(SMALL.dice, SMALL.scoring, SMALL.target, False, others=True)
    data = other_json(table)
    assert data is not None
    lead = data["lead"]
    assert isinstance(lead, dict)
    total = sum(lead.values(), Fraction(0)) + data["lead_below"] + data["lead_above"]  # type: ignore[operator]
    assert total == 1 - race.beyond_horizon
    scores = data["scores"]
    assert isinstance(scores, dict) and scores["most_points"] == 41
    assert sum((p["probability"] for p in scores["points"]), Fraction(0)) + scores["beyond"] == 1
    assert other_json(None) is None


def test_wins_and_losses_are_counted_in_words() -> None:
    race, table = exact_tables(SMALL.dice, SMALL.scoring, SMALL.target, False, others=True)
    night = simulate_nights(SMALL, nights=50, seed=2)
    wins = next(t for t in bunco_party_tables(SMALL, race, table, night_means(SMALL, race), night)
                if "wins and losses" in t.title)
    assert [row[0] for row in wins.rows] == ["0 wins, 3 losses", "1 win, 2 losses", "2 wins, 1 loss",
                                             "3 wins, 0 losses"]


def test_the_tally_report() -> None:
    result = verify_tally(load_tally(SHEET))
    assert tally_tables(result)[0].title == "Tally sheet: PASS"
    data = tally_json(result)
    assert data["verdict"] == "PASS" and set(data) >= {"checks", "counts", "sheet", "party"}
