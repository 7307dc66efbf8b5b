"""The game file: one casino's game in TOML, ``--game FILE`` on every baccarat command, and
``report --game``, the casino's whole par sheet, identical (same fractions) to the separate commands."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import run

from exact_odds.bets import BUILTIN_CONFIGURATIONS, find_bet, find_configuration
from exact_odds.bets.main import EXAMPLE_TOML, parse_configuration
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.dealing.procedure import Procedure
from exact_odds.game import STANDARD_GAME, GameError, load_game, parse_game
from exact_odds.inputs.errors import InputError

EXAMPLES = Path(__file__).parent.parent / "examples"
GAMES = EXAMPLES / "games"
STANDARD_GAMES = {name: GAMES / f"{name}.toml" for name in ("standard", "tie-9", "commission-4", "super-6", "ez")}
FORMATS = ("table", "markdown", "csv", "json", "latex")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    data.pop("provenance")  # what produced it: the same figures from two commands differ only there
    return data


# ---------------------------------------------------------------- the files


@pytest.mark.parametrize("name", STANDARD_GAMES)
def test_each_standard_configuration_has_a_complete_game_file(name: str) -> None:
    game = load_game(STANDARD_GAMES[name])
    assert game.name == name and game.configuration is find_configuration(name)
    assert game.tableau == STANDARD_TABLEAU and not game.shoe.infinite and game.side_bets
    assert game.description and game.source


def test_the_inline_parts_read_as_the_files_of_their_kind_do() -> None:
    standard = load_game(GAMES / "standard.toml")
    assert standard.tableau == STANDARD_TABLEAU  # written out as [tableau]
    assert standard.procedure == Procedure() and standard.shoe == Shoe.decks(8)
    casino = load_game(GAMES / "my-casino.toml")
    example = parse_configuration(EXAMPLE_TOML)  # banker 19:20, 6 pays 1:2, tie 9:1, as the inline table
    assert [bet.lines for bet in casino.configuration.bets] == [bet.lines for bet in example.bets]
    assert casino.configuration.name == "my-casino" and casino.shoe == Shoe.decks(6)
    assert [bet.name for bet in casino.side_bets] == ["player-pair", "banker-pair", "house-dragon-7"]
    assert casino.defined == casino.side_bets[2:]
    assert casino.procedure == Procedure(cut=14, last_coup="this", burn=False)


def test_an_empty_game_is_the_standard_game() -> None:
    assert parse_game("", source="empty.toml") == replace(STANDARD_GAME, name="empty")
    with pytest.raises(GameError, match="empty.toml: not valid TOML"):
        parse_game("decks = [", source="empty.toml")


def test_names_are_relative_to_the_game_file(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "wrong.toml").write_text((EXAMPLES / "wrong_banker_6.toml").read_text())
    (tmp_path / "pays.toml").write_text(EXAMPLE_TOML)
    (tmp_path / "g.toml").write_text('tableau = "rules/wrong.toml"\nconfiguration = "pays.toml"\n'
                                     'shoe = "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4"\n')
    game = load_game(tmp_path / "g.toml")
    assert game.tableau != STANDARD_TABLEAU and game.configuration.name == "my-casino"
    assert game.shoe == Shoe.decks(1)


STANDARD_TEXT = (GAMES / "standard.toml").read_text()
CASINO_TEXT = (GAMES / "my-casino.toml").read_text()


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (STANDARD_TEXT.replace("decks = 8", "decks = 0"), _line(STANDARD_TEXT, "decks"), "decks must be a whole"),
        (STANDARD_TEXT.replace("decks = 8", "deks = 8"), _line(STANDARD_TEXT, "decks"),
         "unknown key 'deks' in a game file (did you mean 'decks'?)"),
        (STANDARD_TEXT.replace('5 = "D  S  S  S  S  D', '5 = "D  S  S  S  S  Q'), _line(STANDARD_TEXT, "5 = "),
         "banker row 5 must be 11 letters"),
        (STANDARD_TEXT.replace('"perfect-pair"]', '"perfect-par"]'), _line(STANDARD_TEXT, "side_bets"),
         "unknown bet 'perfect-par'"),
        (STANDARD_TEXT.replace('last_coup = "one-more"', 'last_coup = "never"'), _line(STANDARD_TEXT, "last_coup"),
         "last_coup must be"),
        (STANDARD_TEXT.replace("cut_card = 16", "cut_card = 3"), _line(STANDARD_TEXT, "cut_card"),
         "too few cards for the last coup"),
        (STANDARD_TEXT.replace('configuration = "standard"', 'configuration = "nope"'),
         _line(STANDARD_TEXT, "configuration"), "neither a built-in configuration"),
        (CASINO_TEXT.replace('pays = "1/2"', "pays = 0.5"), _line(CASINO_TEXT, 'pays = "1/2"'), "is a float"),
        (CASINO_TEXT.replace("banker_cards = 3", "banker_cards = 4"), _line(CASINO_TEXT, "banker_cards"),
         "banker_cards must be 2-3, got 4"),
        (CASINO_TEXT.replace('win = "9:1"', 'win = "9:1"\nbonus = 1'), _line(CASINO_TEXT, 'win = "9:1"') + 1,
         "unknown key 'bonus' in [tie]"),
        ('side_bets = ["banker"]\n', 1, "a main bet: the main bets come from configuration"),
        ('decks = 6\nshoe = "A=4"\n', 2, "give decks or shoe, not both"),
        ('tableau = "nowhere.toml"\n', 1, "tableau 'nowhere.toml' is neither a built-in tableau (standard) nor a file"),
        ("tableau = 3\n", 1, "tableau must be a name, a file name or a [tableau] table"),
        ("configuration = [1]\n", 1, "configuration must be a name, a file name or a [configuration] table"),
        ("tableau.naturals = [8]\n", 1, "write tableau as a [tableau] table"),
        ("[procedure]\ncutcard = 3\n", 2, "did you mean 'cut_card'?"),
        ('[[bet]]\nname = "player-pair"\nsource = "x"\n[[bet.line]]\npays = 1\n', 2, "is already taken"),
    ],
)
def test_a_mistake_names_the_game_file_and_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                                                line: int, message: str) -> None:
    path = tmp_path / "casino.toml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_game(path)
    assert str(err.value).startswith(f"{path}:{line}: ") and message in str(err.value)
    code, out, stderr = run(capsys, "odds", "--game", str(path))
    assert code == 2 and out == "" and len(stderr.splitlines()) == 1 and f"{path}:{line}: " in stderr


def test_an_unreadable_game_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "edges", "--game", "/nonexistent/casino.toml")
    assert code == 2 and "cannot read game file '/nonexistent/casino.toml'" in err


# ---------------------------------------------------------------- report --game and the separate commands


def _figures(sheet: dict[str, object]) -> dict[str, object]:
    return {key: sheet[key] for key in ("house_edge", "house_edge_resolved", "win", "push", "player_ev",
                                        "variance", "std_dev")}


@pytest.mark.parametrize("name", [*STANDARD_GAMES, "my-casino"])
def test_report_game_is_the_separate_commands_together(capsys: pytest.CaptureFixture[str], name: str) -> None:
    game = str(GAMES / f"{name}.toml")
    report = run_json(capsys, "report", "--game", game)
    assert report["odds"] == run_json(capsys, "odds", "--game", game)
    assert report["house_edges"] == run_json(capsys, "edges", "--game", game)
    sheets = report["par_sheets"]
    assert isinstance(sheets, dict) and len(sheets) == 3
    side = run_json(capsys, "sidebets", "--game", game)["side_bets"]
    assert isinstance(side, dict) and report["side_bets"] == side and len(side) == len(load_game(game).side_bets)
    for bet, sheet in {**sheets, **side}.items():
        assert _figures(sheet) == _figures(run_json(capsys, "parsheet", "--game", game, "--bet", bet)), bet
    assert all(sheet == run_json(capsys, "parsheet", "--game", game, "--bet", bet) for bet, sheet in sheets.items())


@pytest.mark.parametrize("name", ["standard", "tie-9", "ez"])
def test_report_game_is_the_commands_without_the_game(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """The game's parts given as options give the same figures: the file adds nothing of its own."""
    game = load_game(STANDARD_GAMES[name])
    report = run_json(capsys, "report", "--game", str(STANDARD_GAMES[name]))
    decks = str(game.shoe.size // 52)
    assert report["house_edges"] == run_json(capsys, "edges", "--decks", decks, "--config", name)
    side = ",".join(bet.name for bet in game.side_bets)
    plain = run_json(capsys, "sidebets", "--decks", decks, "--bet", side)["side_bets"]
    assert isinstance(plain, dict) and isinstance(report["side_bets"], dict)
    assert all(_figures(plain[bet]) == _figures(report["side_bets"][bet]) for bet in plain)


@pytest.mark.parametrize("name", ["ez", "my-casino"])
def test_report_game_eor_is_the_eor_command(capsys: pytest.CaptureFixture[str], name: str) -> None:
    game = str(GAMES / f"{name}.toml")
    report = run_json(capsys, "report", "--game", game, "--eor")
    eor = run_json(capsys, "eor", "--game", game)
    assert report["eor"] == eor and isinstance(eor["effects_of_removal"], dict)
    assert list(eor["effects_of_removal"]) == [bet.name for bet in load_game(game).bets]


@pytest.mark.parametrize("fmt", FORMATS)
def test_report_game_in_every_format(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, err = run(capsys, "report", "--game", str(GAMES / "my-casino.toml"), "--format", fmt)
    assert code == 0 and err == ""
    for text in ("my-casino/banker", "house-dragon-7", "player-pair"):
        assert text in out
    if fmt in ("csv", "json"):
        assert "53080785712/1525814595305" in out  # the banker's house edge, exact
    else:
        percent = "\\%" if fmt == "latex" else "%"
        assert f"3.4788{percent}" in out and f"3.8443{percent}" in out  # per coup and per resolved bet


def test_report_game_on_a_shoe_without_suits_names_the_bets_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "report", "--game", str(GAMES / "standard.toml"), "--decks", "1", "--remove", "5")
    assert data["skipped_bets"] == ["perfect-pair"] and "perfect-pair" not in data["side_bets"]  # type: ignore


# ---------------------------------------------------------------- --game on every command, and overrides


BACCARAT = [
    ("odds",), ("edges",), ("parsheet", "--bet", "tie"), ("symbolic",), ("sidebets",),
    ("simulate", "--coups", "500", "--seed", "1"), ("deal", "--seed", "1"),
    ("session", "--bet", "banker", "--hands", "5", "--sessions", "20", "--seed", "1"), ("roads", "--seed", "1"),
    ("eor", "--bet", "banker", "--decks", "1"), ("batch", "--input", str(EXAMPLES / "compositions.csv")),
    ("study", "--shoes", "2", "--seed", "1", "--quiet"), ("count", "--count", "wizard-panda-8", "--shoes", "2",
                                                           "--seed", "1", "--quiet"),
    ("advantage", "--decks", "1"), ("verify", str(EXAMPLES / "coups_log.csv")),
]


@pytest.mark.parametrize("argv", BACCARAT, ids=[argv[0] for argv in BACCARAT])
def test_every_baccarat_command_takes_a_game(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv, "--game", str(GAMES / "tie-9.toml"))
    assert code in (0, 1) and out, err


def test_the_command_line_replaces_the_parts_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    casino = str(GAMES / "my-casino.toml")
    six = run_json(capsys, "odds", "--game", casino)
    assert six["shoe"] == {"description": "6 decks", "cards": 312}
    assert run_json(capsys, "odds", "--game", casino, "--decks", "1")["shoe"] == {"description": "1 deck", "cards": 52}
    tie = run_json(capsys, "parsheet", "--game", casino, "--bet", "tie")
    assert tie["bet"] == "my-casino/tie"
    assert run_json(capsys, "parsheet", "--game", casino, "--bet", "tie", "--config", "ez")["bet"] == "ez/tie"
    wrong = str(EXAMPLES / "wrong_banker_6.toml")
    assert run_json(capsys, "odds", "--game", casino, "--rules", wrong) == run_json(capsys, "odds", "--decks", "6",
                                                                                    "--rules", wrong)
    report = run_json(capsys, "report", "--game", casino, "--bets", str(EXAMPLES / "side_bets.toml"))
    assert isinstance(report["side_bets"], dict) and "my-dragon-7" in report["side_bets"]


def test_the_games_procedure_deals_and_options_replace_it(capsys: pytest.CaptureFixture[str]) -> None:
    casino = str(GAMES / "my-casino.toml")  # 6 decks, no burn, cut card 14, the coup with it is the last
    same = ("--decks", "6", "--no-burn", "--cut-card", "14", "--last-coup", "this")
    assert run(capsys, "roads", "--seed", "4", "--game", casino) == run(capsys, "roads", "--seed", "4", *same)
    assert run(capsys, "roads", "--seed", "4", "--game", casino, "--cut-card", "30") == run(
        capsys, "roads", "--seed", "4", *same[:-4], "--last-coup", "this", "--cut-card", "30")


def test_the_games_bets_are_the_commands_bets(capsys: pytest.CaptureFixture[str]) -> None:
    casino = str(GAMES / "my-casino.toml")
    sheet = run_json(capsys, "parsheet", "--game", casino, "--bet", "house-dragon-7")
    assert sheet["bet"] == "house-dragon-7"
    sim = run_json(capsys, "simulate", "--game", casino, "--coups", "300", "--seed", "2")
    assert list(sim["bets"]) == ["my-casino/banker", "my-casino/player", "my-casino/tie"]  # type: ignore
    assert find_bet("banker").name == "banker"  # nothing global changed


def test_a_built_in_tableau_or_configuration_is_named_in_any_spelling() -> None:
    game = parse_game('tableau = " Standard "\nconfiguration = "TIE_9"\n', source="casino.toml")
    assert game.tableau is STANDARD_TABLEAU and game.configuration is BUILTIN_CONFIGURATIONS["tie-9"]
