"""Main-bet configurations: the registry, the pay tables as printed, and configuration files."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from exact_odds.analysis.edges import par_sheet
from exact_odds.bets import BetError, find_bet
from exact_odds.bets.main import (
    BUILTIN_CONFIGURATIONS,
    EXAMPLE_TOML,
    configuration_from,
    find_configuration,
    is_main_bet,
    load_configuration,
    parse_configuration,
)
from exact_odds.cli import main
from exact_odds.core.coup import Coup
from exact_odds.core.shoe import Shoe

BANKER_6 = Coup(player=5, banker=6, player_cards=3, banker_cards=3)
BANKER_7_THREE = Coup(player=5, banker=7, player_cards=3, banker_cards=3)
BANKER_7_TWO = Coup(player=5, banker=7, player_cards=3, banker_cards=2)
PLAYER_WINS = Coup(player=9, banker=7, player_cards=2, banker_cards=2)
TIE = Coup(player=4, banker=4, player_cards=3, banker_cards=3)


@pytest.mark.parametrize(
    ("bet", "coup", "pays"),
    [
        ("banker", BANKER_6, Fraction(19, 20)),
        ("banker", TIE, 0),
        ("player", PLAYER_WINS, 1),
        ("tie", TIE, 8),
        ("tie-9/tie", TIE, 9),
        ("tie-9/banker", BANKER_6, Fraction(19, 20)),
        ("commission-4/banker", BANKER_7_TWO, Fraction(24, 25)),
        ("super-6/banker", BANKER_6, Fraction(1, 2)),
        ("super-6/banker", BANKER_7_THREE, 1),
        ("super-6/banker", PLAYER_WINS, -1),
        ("ez/banker", BANKER_7_THREE, 0),
        ("ez/banker", BANKER_7_TWO, 1),
        ("ez/banker", BANKER_6, 1),
        ("ez/banker", TIE, 0),
        ("ez/player", TIE, 0),
        ("super-6/tie", PLAYER_WINS, -1),
    ],
)
def test_pay_tables_as_printed(bet: str, coup: Coup, pays: Fraction | int) -> None:
    assert find_bet(bet).payout(coup) == pays


def test_registry() -> None:
    assert list(BUILTIN_CONFIGURATIONS) == ["standard", "tie-9", "commission-4", "super-6", "ez"]
    standard = find_configuration("Standard")
    assert [b.name for b in standard.bets] == ["banker", "player", "tie"]
    assert find_bet("standard/banker") is find_bet("banker") is standard.bet("banker")
    assert find_configuration("super 6").bet("banker") is find_bet("super-6/banker")
    assert all(is_main_bet(b) for c in BUILTIN_CONFIGURATIONS.values() for b in c.bets)
    assert all(c.source and c.description for c in BUILTIN_CONFIGURATIONS.values())
    with pytest.raises(BetError, match="unknown configuration 'nope'; known configurations: standard, tie-9"):
        find_configuration("nope")
    with pytest.raises(BetError, match="has no bet 'dragon'"):
        standard.bet("dragon")


def test_example_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "casino.toml"
    path.write_text(EXAMPLE_TOML)
    config = load_configuration(path)
    assert config == configuration_from(str(path)) == parse_configuration(EXAMPLE_TOML, source=str(path))
    assert config.name == "my-casino" and [b.name for b in config.bets] == [
        "my-casino/banker", "my-casino/player", "my-casino/tie"]
    banker = config.bet("banker")
    assert banker.payout(BANKER_6) == Fraction(1, 2) and banker.payout(BANKER_7_TWO) == Fraction(19, 20)
    assert config.bet("tie").payout(TIE) == 9
    # A file that restates the standard pay table gives the standard edges.
    standard = parse_configuration('[banker]\nwin = "0.95"\n[player]\nwin = 1\n[tie]\nwin = "8:1"\n', source="s.toml")
    assert standard.name == "s"
    for role in ("banker", "player", "tie"):
        shoe = Shoe.decks(2)
        assert par_sheet(shoe, standard.bet(role)).house_edge == par_sheet(shoe, find_bet(role)).house_edge


def test_specials_with_cards_and_tie_results() -> None:
    text = """\
name = "odd"
[banker]
win = "1"
tie = "-1"
[[banker.special]]
total = 7
cards = 3
pays = "0"
[[banker.special]]
total = 6
pays = "1:2"
[player]
win = "1"
[[player.special]]
total = 8
cards = 3
pays = "2"
[tie]
win = "8"
[[tie.special]]
total = 0
pays = "25"
"""
    config = parse_configuration(text)
    banker, player, tie = config.bets
    assert banker.payout(BANKER_7_THREE) == 0 and banker.payout(BANKER_6) == Fraction(1, 2)
    assert banker.payout(TIE) == -1 and banker.payout(BANKER_7_TWO) == 1
    assert player.payout(Coup(8, 5, 3, 2)) == 2 and player.payout(Coup(8, 5, 2, 2)) == 1
    assert tie.payout(Coup(0, 0, 3, 2)) == 25 and tie.payout(TIE) == 8


GOOD = '[banker]\nwin = "19/20"\n[player]\nwin = "1"\n[tie]\nwin = "8"\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace('"19/20"', "0.95"),
         r'cfg.toml:2: banker win: 0.95 is a float; write it as a string such as "19/20" or "0.95"'),
        (GOOD + "[dragon]\nwin = \"40\"\n", r"cfg.toml:7: unknown bet or key 'dragon'"),
        (GOOD.replace("[player]\n", "[player]\nwins = 1\n"), r"cfg.toml:4: unknown key 'wins' in \[player\]"),
        (GOOD.replace("[banker]", "[banker"), r"cfg.toml:1: not valid TOML: Expected"),
        (GOOD.replace('win = "1"', 'win = "1'), r"cfg.toml:4: not valid TOML: "),
        (GOOD.replace('[tie]\nwin = "8"\n', ""), r"cfg.toml: missing \[tie\]"),
        (GOOD.replace('[tie]\nwin = "8"', "[tie]"), r"cfg.toml:5: \[tie\] needs win"),
        (GOOD.replace('"8"', '"eight"'), r"cfg.toml:6: tie win: 'eight' is not an exact number"),
        (GOOD + "[[banker.special]]\ntotal = 10\npays = \"1\"\n", r"cfg.toml:8: banker special total must be"),
        (GOOD + "[[banker.special]]\ntotal = 6\n", r"cfg.toml:7: \[\[banker.special\]\] needs 'pays'"),
        (GOOD + "[[banker.special]]\ntotal = 6\npays = 0.5\n", r"cfg.toml:9: banker special pays: 0.5 is a float"),
        (GOOD + "[[banker.special]]\ntotal = 6\npays = \"1\"\n[[banker.special]]\ntotal = 6\ncard = 3\n",
         r"cfg.toml:12: unknown key 'card' in \[\[banker.special\]\]"),
        (GOOD + "[[tie.special]]\ntotal = 6\ncards = 3\npays = \"1\"\n", r"cfg.toml:9: a tie special takes"),
        ('name = "a/b"\n' + GOOD, r"cfg.toml:1: name 'a/b' must not contain"),
        ("name = 3\n" + GOOD, r"cfg.toml:1: name must be a non-empty string"),
        ("banker = 1\n" + GOOD.replace('[banker]\nwin = "19/20"\n', ""), r"cfg.toml:1: banker must be a table"),
    ],
)
def test_bad_files_name_their_line(text: str, message: str) -> None:
    with pytest.raises(BetError, match=message):
        parse_configuration(text, source="cfg.toml")


def test_unknown_configuration_names_the_choices(tmp_path: Path) -> None:
    with pytest.raises(BetError, match="give one of standard, tie-9, commission-4, super-6, ez or a TOML file"):
        configuration_from("casino")
    with pytest.raises(BetError, match="cannot read configuration file"):
        configuration_from(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace('"19/20"', "0.95"), 'banker win: 0.95 is a float; write it as a string such as "19/20"'),
        (GOOD + "[dragon]\nwin = \"40\"\n", "unknown bet or key 'dragon'"),
        (GOOD.replace("[banker]", "[banker"), "not valid TOML"),
    ],
)
@pytest.mark.parametrize("command", ["edges", "parsheet"])
def test_cli_bad_files_are_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 text: str, message: str, command: str) -> None:
    path = tmp_path / "casino.toml"
    path.write_text(text)
    argv = [command, "--config", str(path)] + (["--bet", "banker"] if command == "parsheet" else [])
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"exact-odds: error: {path}:") and message in err
