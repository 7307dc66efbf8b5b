"""One vocabulary across commands: an option means one thing everywhere.

``--bet`` names (repeatable, comma-separable, accumulating); ``--bets FILE``; ``--input FILE``;
``--coups``; ``--config``; ``--game``; ``--format`` with one name for the plain format; and a
single-valued option given twice is an error that names it (exit status 2), never a silent
overwrite. Old spellings (``simulate --rounds``, ``simulate --bets NAME``, ``study --record``,
``roads --results``, ``--format text``) keep working, hidden from ``--help``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run

from exact_odds.cli import build_parser
from exact_odds.cli.options import StoreConstOnce, StoreOnce, bet_names

EXAMPLES = Path(__file__).parent.parent / "examples"
SIDE = str(EXAMPLES / "side_bets.toml")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


COMMANDS = _commands()


def _value(action: argparse.Action) -> list[str]:
    """Values the option accepts (so that only the repetition can fail)."""
    if action.nargs == 0:
        return []
    if action.choices is not None:
        return [str(next(iter(action.choices)))]
    for candidate in ("1", "16", "100", "4000", "0.5", "0.001", "1/2", "x"):
        try:
            if action.type is not None and callable(action.type):
                action.type(candidate)
        except Exception:  # a type= function refuses it: try the next
            continue
        return [candidate] * (action.nargs if isinstance(action.nargs, int) else 1)
    raise AssertionError(f"no value found for {action.option_strings}")


def _single_valued() -> Iterator[tuple[str, str, list[str]]]:
    for command, parser in COMMANDS.items():
        for action in parser._actions:
            if isinstance(action, StoreOnce | StoreConstOnce) and action.option_strings:
                for option in action.option_strings:
                    yield command, option, _value(action)


SINGLE = list(_single_valued())


def test_every_command_has_single_valued_options() -> None:
    assert {command for command, _, _ in SINGLE} == set(COMMANDS)
    assert len(SINGLE) > 100


@pytest.mark.parametrize(("command", "option", "value"), SINGLE, ids=[f"{c} {o}" for c, o, _ in SINGLE])
def test_a_single_valued_option_given_twice_is_an_error(capsys: pytest.CaptureFixture[str], command: str,
                                                        option: str, value: list[str]) -> None:
    code, out, err = run(capsys, command, option, *value, option, *value)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and f"argument {option}: given twice; give it once" in err


@pytest.mark.parametrize(("command", "first", "second"), [
    ("simulate", "--rounds", "--coups"), ("study", "--record", "--input"), ("roads", "--results", "--input")])
def test_an_old_name_and_the_new_one_are_one_option(capsys: pytest.CaptureFixture[str], command: str, first: str,
                                                    second: str) -> None:
    code, _, err = run(capsys, command, first, "1", second, "1")
    assert code == 2 and (f"argument {second}: given twice (first as {first})" in err or "not allowed with" in err)


def test_options_that_gather_values_accumulate() -> None:
    gathering = [(command, action) for command, parser in COMMANDS.items() for action in parser._actions
                 if "--bet" in action.option_strings and not isinstance(action, StoreOnce)]
    assert {command for command, _ in gathering} == {"sidebets", "eor", "batch", "study", "simulate", "advantage"}
    for command, _ in gathering:
        extra = ["--input", "x"] if command == "batch" else []
        forms = [["--bet", "banker", "--bet", "tie,dragon-7"], ["--bet", "banker", "tie", "dragon-7"],
                 ["--bet", "banker,tie", "--bet", "dragon-7"]]
        names = [bet_names(build_parser().parse_args([command, *form, *extra]).bet) for form in forms]
        assert names == [["banker", "tie", "dragon-7"]] * 3, command


def test_bet_names_accumulate_in_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    one = run(capsys, "sidebets", "--bet", "dragon-7", "--bet", "panda-8", "--format", "csv")
    assert one == run(capsys, "sidebets", "--bet", "dragon-7,panda-8", "--format", "csv")
    assert one == run(capsys, "sidebets", "--bet", "dragon-7", "panda-8", "--format", "csv")
    assert one[0] == 0 and "panda-8" in one[1]


@pytest.mark.parametrize("command", ["parsheet", "session"])
def test_a_command_of_one_bet_refuses_a_second(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, _, err = run(capsys, command, "--bet", "banker", "--bet", "tie")
    assert code == 2 and "argument --bet: given twice" in err


def _help(command: str) -> str:
    return COMMANDS[command].format_help()


@pytest.mark.parametrize(("command", "new", "old"), [
    ("simulate", "--coups", "--rounds"), ("study", "--input", "--record"), ("roads", "--input", "--results")])
def test_old_names_are_hidden_aliases(command: str, new: str, old: str) -> None:
    assert new in _help(command) and old not in _help(command)
    parser = COMMANDS[command]
    dest = new.removeprefix("--")
    assert getattr(parser.parse_args([old, "7"]), dest) == getattr(parser.parse_args([new, "7"]), dest)


def test_old_names_give_the_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "simulate", "--rounds", "500", "--seed", "1") == run(capsys, "simulate", "--coups", "500",
                                                                            "--seed", "1")
    results = str(EXAMPLES / "results.txt")
    assert run(capsys, "roads", "--results", results) == run(capsys, "roads", "--input", results)
    record = str(EXAMPLES / "shoe_record.txt")
    assert run(capsys, "study", "--record", record) == run(capsys, "study", "--input", record)


def test_every_input_file_is_input(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("batch", "study", "roads", "verify"):
        assert "--input" in _help(command), command
    log = str(EXAMPLES / "coups_log.csv")
    assert run(capsys, "verify", "--input", log) == run(capsys, "verify", log)
    code, _, err = run(capsys, "verify", log, "--input", log)
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("command", ["deal", "roads"])
def test_the_plain_format_is_table_everywhere(capsys: pytest.CaptureFixture[str], command: str) -> None:
    table = run(capsys, command, "--seed", "7", "--format", "table")
    assert table == run(capsys, command, "--seed", "7", "--format", "text") == run(capsys, command, "--seed", "7")
    assert "{table,json}" in _help(command)


def test_text_is_another_name_of_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "odds", "--format", "text") == run(capsys, "odds", "--format", "table")


def test_simulate_takes_bet_names_and_bets_files_apart(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("simulate", "--coups", "400", "--seed", "3", "--format", "csv")
    old = run(capsys, *base, "--bets", "banker", "player-pair", SIDE)  # names and files mixed: the old spelling
    names = "banker,player-pair,my-dragon-7,my-dragon-bonus-player,my-perfect-pair,my-tiger-pair,bad-beat," \
            "88-89-98-99,9-over-7"
    assert old[0] == 0 and old == run(capsys, *base, "--bet", names, "--bets", SIDE)
    assert run(capsys, *base, "--bets", "banker,tie") == run(capsys, *base, "--bet", "banker", "--bet", "tie")
    only_file = run(capsys, *base, "--bets", SIDE)[1]
    assert "\nmy-dragon-7,400," in only_file and "\nbanker,400," not in only_file  # the file's bets alone


def test_simulate_refuses_a_bets_value_that_is_a_file_and_a_name(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "banker").write_text("")
    code, _, err = run(capsys, "simulate", "--coups", "10", "--bets", "banker")
    assert code == 2 and "both a file and a bet name" in err


CONFIG_COMMANDS = ("report", "sidebets", "eor", "batch", "study", "simulate", "session", "edges", "parsheet",
                   "symbolic", "verify", "advantage")


@pytest.mark.parametrize("command", CONFIG_COMMANDS)
def test_every_command_where_a_pay_table_matters_takes_config(command: str) -> None:
    assert "--config" in _help(command)


def test_config_gives_banker_player_and_tie(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--coups", "300", "--seed", "1", "--config", "ez", "--format", "csv")
    assert code == 0 and "ez/banker" in out
    code, out, _ = run(capsys, "study", "--input", str(EXAMPLES / "shoe_record.txt"), "--config", "tie-9",
                       "--bet", "tie", "--format", "csv")
    assert code == 0 and "tie-9/tie" in out
    code, out, _ = run(capsys, "report", "--config", "super-6", "--decks", "1", "--format", "csv")
    assert code == 0 and "super-6" in out and "tie-9/" not in out


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in ("bunco", "completion")])
def test_every_baccarat_command_takes_game(command: str) -> None:
    assert "--game FILE" in _help(command)
