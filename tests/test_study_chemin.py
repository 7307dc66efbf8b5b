"""Chemin de fer as the shoe is dealt (exact_odds.study.chemin): the game before every coup of dealt and
recorded shoes, each row the shoe left solved on its own, the shoes those ``deal`` and ``study`` deal."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import one_line_error, run

from exact_odds.analysis.chemin import Information, choice_game, solve
from exact_odds.core.shoe import Shoe
from exact_odds.dealing.dealer import shoe_coup
from exact_odds.study.chemin import dealt_shoes, recorded_shoe
from exact_odds.study.replay import read_record

RECORD = Path(__file__).parent.parent / "examples" / "chemin-de-fer" / "one-deck.txt"


def test_dealt_shoes_are_the_shoes_deal_deals() -> None:
    rows = dealt_shoes(Shoe.decks(1), 2, 7, Information.TOTALS)
    assert rows[0].shoe == 1 and {r.shoe for r in rows} == {1, 2}
    for row in rows:
        left = shoe_coup(Shoe.decks(1), 7, coup=row.coup, index=row.shoe - 1).remaining
        assert row.cards_left == left.size
        alone = solve(choice_game(left, Information.TOTALS))
        assert (row.value, row.solution.player, row.solution.banker) == (alone.value, alone.player, alone.banker)
        assert row.solution.certificate.holds


def test_a_record_is_solved_before_each_coup() -> None:
    cards = read_record(RECORD.read_text(encoding="utf-8"))
    rows = recorded_shoe(cards, Shoe.decks(1), Information.BANKER_CARDS)
    assert rows[0].cards_left == 52
    for row in rows:
        gone = 52 - row.cards_left
        assert row.value == solve(choice_game(Shoe.decks(1).without(cards[:gone]), Information.BANKER_CARDS)).value
    steps = [a.cards_left - b.cards_left for a, b in pairwise(rows)]
    assert all(4 <= step <= 6 for step in steps)
    assert rows[0].player == ((5, Fraction(253, 342)),)

def test_the_command_deals_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chemin-de-fer", "--decks", "1", "--shoes", "1", "--seed", "7", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["model"] == "B1" and data["source"] == "1 shoe dealt with seed 7"
    assert data["provenance"]["seed"] == 7 and data["provenance"]["procedure"] is not None
    first = data["coups"][0]
    assert first["coup"] == 1 and first["certified"] and first["cards_left"] < 52
    code, out, _ = run(capsys, "chemin-de-fer", "--decks", "1", "--input", str(RECORD), "--format", "csv")
    assert code == 0 and "\n1,1,52," in out and "a recorded shoe" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--shoes", "1", "--input", str(RECORD)), ("not both",)),
    (("--seed", "3",), ("--seed", "--shoes")),
    (("--shoes", "1", "--model", "A1"), ("B model",)),
    (("--shoes", "0",), ("--shoes",)),
    (("--shoes", "1", "--commission", "1/20"), ("--commission",)),
])
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: tuple[str, ...]) -> None:
    assert one_line_error(*run(capsys, "chemin-de-fer", "--decks", "1", *argv), *words)


def test_a_record_with_a_card_not_in_the_shoe_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    record.write_text("Ah Ah 2c 3d 4s 5h 6d 7c Ah Ah Ah", encoding="utf-8")
    assert one_line_error(*run(capsys, "chemin-de-fer", "--decks", "1", "--input", str(record)), "no")
