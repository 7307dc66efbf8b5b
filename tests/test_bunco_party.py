"""Party files: every key optional, the common game by default, every mistake one line naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from exact_odds.bunco import ARTICLE_SCORING, Dice
from exact_odds.bunco.party import COMMON_PARTY, Party, PartyError, Prizes, load_party, parse_party

EXAMPLE = Path(__file__).parent.parent / "examples" / "bunco_party.toml"


def test_an_empty_file_is_the_common_game() -> None:
    assert parse_party("", source="common.toml") == COMMON_PARTY


def test_the_example_file_spells_out_the_defaults() -> None:
    assert load_party(EXAMPLE) == COMMON_PARTY


def test_every_key() -> None:
    text = """name = "big"
tables = 4
seats = 6
players = 24
rounds = 12
dice = 4
sides = 6
target = 30
scoring = "Article"
bunco_ends_turn = true
tie_break = "roll-off"
movement = "none"
[prizes]
awards = ["most-buncos"]
ties = "roll-off"
"""
    assert parse_party(text) == Party(name="big", tables=4, seats=6, rounds=12, dice=Dice(4, 6), target=30,
                                      scoring=ARTICLE_SCORING, bunco_ends_turn=True, movement="none",
                                      prizes=Prizes(("most-buncos",), "roll-off"))


@pytest.mark.parametrize(("text", "message"), [
    ("tabels = 2\n", "p.toml:1: unknown key 'tabels' in a party file (did you mean 'tables'?)"),
    ("name = 'x'\nplayers = 10\n", "p.toml:2: players must fill the tables: 3 tables of 4 seats seat 12, got 10"),
    ("seats = 3\n", "p.toml:1: seats must be even (two teams of partners a table), got 3"),
    ("tables = 0\n", "p.toml:1: tables must be a whole number from 1 to 100, got 0"),
    ("tables = true\n", "p.toml:1: tables must be a whole number from 1 to 100, got True"),
    ("rounds = 7\n", "p.toml:1: rounds must be whole sets of 6 (one round per face), got 7"),
    ("target = 0\n", "p.toml:1: target must be a whole number from 1 to 100, got 0"),
    ("scoring = 'house'\n", "p.toml:1: unknown Bunco scoring rules 'house' (choose from standard, article)"),
    ("bunco_ends_turn = 'yes'\n", "p.toml:1: bunco_ends_turn must be true or false, got 'yes'"),
    ("tie_break = 'coin'\n", "p.toml:1: tie_break must be \"roll-off\", got 'coin'"),
    ("movement = 'up'\n", "p.toml:1: movement must be \"standard\" or \"none\", got 'up'"),
    ("[prizes]\nawrds = []\n", "p.toml:2: unknown key 'awrds' in [prizes] (did you mean 'awards'?)"),
    ("[prizes]\nawards = ['most-bunco']\n", "p.toml:2: unknown prize 'most-bunco' (did you mean 'most-buncos'?)"),
    ("[prizes]\nawards = ['most-wins', 'most-wins']\n", "p.toml:2: awards names a prize twice"),
    ("[prizes]\nties = 'share'\n", "p.toml:2: ties must be \"split\" or \"roll-off\", got 'share'"),
    ("prizes = 3\n", "p.toml:1: prizes must be a table ([prizes])"),
    ("name = ''\n", "p.toml:1: name must be a non-empty string, got ''"),
    ("tables = \n", "p.toml:1: not valid TOML: Invalid value"),
])
def test_a_bad_file_is_one_line_naming_its_line(text: str, message: str) -> None:
    with pytest.raises(PartyError) as caught:
        parse_party(text, source="p.toml")
    assert str(caught.value) == message


def test_a_file_that_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(PartyError, match="cannot read party file"):
        load_party(tmp_path / "missing.toml")
