"""Tableau data: the standard table, TOML loading and its validation."""

from __future__ import annotations

import pytest
from oracle import banker_draws

from exact_odds.core.tableau import COLUMNS, STANDARD_TABLEAU, STANDARD_TOML, TableauError, load_tableau, parse_tableau


def test_standard_table_matches_printed_rules() -> None:
    for total in range(8):
        for column in COLUMNS:  # with a player's 0, never a natural
            assert STANDARD_TABLEAU.banker_draws_given(0, total, column) == banker_draws(total, column)
    assert [t for t in range(10) if STANDARD_TABLEAU.player_draws[t]] == [0, 1, 2, 3, 4, 5]


def test_toml_round_trip() -> None:
    assert parse_tableau(STANDARD_TOML) == STANDARD_TABLEAU


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('7 = "S  S  S  S  S  S  S  S  S  S  S"\n', ""), r"rules:\d+: .*no row for total 7"),
        (lambda t: t.replace('4 = "D  S  S', '4 = "D  X  S'), r"rules:16: banker row 4 must be 11 letters"),
        (lambda t: t.replace("naturals = [8, 9]", "naturals = [8, 19]"), r"rules:4: naturals has impossible total"),
        (lambda t: t.replace("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 8]"), "natural total 8"),
        (lambda t: t + '8 = "S S S S S S S S S S S"\n', "banker row 8 is a natural"),
        (lambda t: t.replace("[banker]", "[banker"), "not valid TOML"),
        (lambda t: t.replace("naturals", "naturalz", 1), "unknown key"),
    ],
)
def test_bad_tables_are_refused_with_their_line(edit: object, message: str) -> None:
    text = edit(STANDARD_TOML)  # type: ignore[operator]
    with pytest.raises(TableauError, match=message):
        parse_tableau(text)


def test_missing_file() -> None:
    with pytest.raises(TableauError, match="cannot read rules file"):
        load_tableau("/nonexistent/rules.toml")
