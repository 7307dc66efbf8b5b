"""One vocabulary across commands: an option means one thing everywhere, and money has one sign convention.

``--bet`` names (repeatable, comma-separable, accumulating); ``--bets FILE``; ``--input FILE``;
``--coups``; ``--config``; ``--game``; ``--format`` with one name for the plain format; and a
single-valued option given twice is an error that names it (exit status 2), never a silent
overwrite. Old spellings (``simulate --rounds``, ``simulate --bets NAME``, ``study --record``,
``roads --results``, ``--format text``) keep working, hidden from ``--help``.

Every command, in every format it writes (and its ``--help``), names the sign of what it shows:
``house_edge`` (positive when the house wins) or ``player_ev`` (the bettor's expectation, negative
when the house wins), never "edge" alone.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import installed, run

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


PLOT = installed("matplotlib")
"""``--plot FILE`` is checked at parse time by matplotlib: without it no value is accepted."""


def _single_valued(*, plot: bool = True) -> Iterator[tuple[str, str, list[str] | None]]:
    """(command, option, a value it accepts) of every single-valued option; the value is None for
    ``--plot`` when ``plot`` is false."""
    for command, parser in COMMANDS.items():
        for action in parser._actions:
            if isinstance(action, StoreOnce | StoreConstOnce) and action.option_strings:
                for option in action.option_strings:
                    yield command, option, _value(action) if plot or "--plot" not in action.option_strings else None


SINGLE = [(c, o, v) for c, o, v in _single_valued(plot=PLOT) if v is not None]
WITHOUT_PLOT = [pytest.param(c, o, [], id=f"{c} {o}", marks=pytest.mark.skip(reason="--plot needs matplotlib"))
                for c, o, v in _single_valued(plot=PLOT) if v is None]
"""The cases of ``--plot`` where matplotlib is missing: skipped."""


def test_every_command_has_single_valued_options() -> None:
    assert {command for command, _, _ in SINGLE} == set(COMMANDS)
    assert len(SINGLE) > 100


@pytest.mark.parametrize(("command", "option", "value"),
                         [*(pytest.param(c, o, v, id=f"{c} {o}") for c, o, v in SINGLE), *WITHOUT_PLOT])
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


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in ("bunco", "completion", "chemin-de-fer")])
def test_every_baccarat_command_takes_game(command: str) -> None:
    """Every punto banco command (chemin de fer, where the players choose, takes its rules from --rules)."""
    assert "--game FILE" in _help(command)


# ---------------------------------------------------------------- one sign convention, always named
# house_edge (positive: the house wins) or player_ev (the bettor's expectation, negative when the
# house wins); never "edge" alone, in any command's output, in any format, nor in --help.

NAMED = re.compile(r"(?i)house[ _-]edges?|edge[ _-]sort(ing|s)?|exact-odds edges|command edges|\"command\": \"edges\"")
"""Where the word may appear: "house edge(s)", "house_edge", "edge sorting", ``--edge-sort``, and the
command ``exact-odds edges`` (also as the provenance names it)."""

BARE = re.compile(r"(?i)(?<![a-z])edges?(?![a-z])")


def bare_edges(text: str) -> list[str]:
    """The lines of ``text`` that use "edge" or "edges" other than as :data:`NAMED` allows
    (``_`` and ``-`` separate words, so ``mean_edge`` is caught)."""
    return [line for line in text.splitlines() if BARE.search(NAMED.sub("", line))]


@pytest.mark.parametrize(("line", "bare"), [
    ("Edge -1.0579% a hand", True), ('  "mean_edge": -0.01,', True), ("bet,edge per bet", True),
    ("# Edges: simulated", True), ("exact edges before each coup", True), ("EDGE", True),
    ("House edge 1.0579% per coup", False), ('"house_edge": "1/2",', False), ("House edges of the main bets", False),
    ("edge sorting: best play", False), ('"edge_sorting": {', False), ("--edge-sort 6|7|8|9", False),
    ("player_ev per bet", False), ("hedges and ledgers", False),
])
def test_the_check_finds_a_bare_edge(line: str, bare: bool) -> None:
    assert bool(bare_edges(line)) is bare


SMALL_ARGUMENTS: dict[str, list[tuple[str, ...]]] = {
    "odds": [("--decks", "1"), ("--decks", "1", "--dealt", "P: 9h 4c B: Kd"), ("--decks", "1", "--known", "1=7")],
    "edges": [("--decks", "1")],
    "parsheet": [("--bet", "banker", "--decks", "1")],
    "symbolic": [("--decks", "1", "--config", "ez")],
    "report": [("--decks", "1"), ("--game", str(EXAMPLES / "games" / "my-casino.toml"), "--decks", "1", "--eor")],
    "sidebets": [("--decks", "1")],
    "simulate": [("--coups", "300", "--seed", "1", "--verify"), ("--fresh", "--coups", "200", "--seed", "2")],
    "deal": [("--seed", "7", "--decks", "1")],
    "session": [("--bet", "banker", "--hands", "5", "--sessions", "50", "--bankroll", "3", "--seed", "1")],
    "roads": [("--seed", "2", "--decks", "1")],
    "bunco": [("--simulate", "200", "--seed", "1", "--rounds", "2")],
    "eor": [("--decks", "1", "--bet", "banker,tie,dragon-7")],
    "batch": [("--input", str(EXAMPLES / "compositions.csv"), "--bet", "banker,tie")],
    "study": [("--shoes", "2", "--seed", "1", "--decks", "1", "--bet", "banker,dragon-7", "--count",
               "jacobson-dragon-7", "--edge-sort", "6|7|8|9", "-q"),
              ("--input", str(EXAMPLES / "shoe_record.txt"), "--bet", "banker")],
    "count": [("--count", "jacobson-dragon-7", "--shoes", "2", "--seed", "1", "--decks", "1", "-q")],
    "advantage": [("--decks", "1", "--bet", "banker,tie")],
    "chemin-de-fer": [("--model", "A1", "--costs"), ("--decks-table", "1", "--model", "B1"),
                      ("--model", "B1", "--decks", "1", "--commission", "1/20"),
                      ("--decks", "1", "--shoes", "1", "--seed", "2"), ("--banque",)],
    "verify": [(str(EXAMPLES / "coups_log.csv"),)],
}


def _formats(command: str) -> list[str]:
    action = next(a for a in COMMANDS[command]._actions if "--format" in a.option_strings)
    assert action.choices is not None
    return [str(choice) for choice in action.choices]


OUTPUTS = [(command, args, fmt) for command, sets in SMALL_ARGUMENTS.items() for args in sets
           for fmt in _formats(command) if fmt != "xlsx"]  # a workbook holds the csv tables' words


def test_every_command_is_run_in_every_format() -> None:
    assert set(SMALL_ARGUMENTS) == set(COMMANDS) - {"completion"}  # a shell script, not a report
    assert len(OUTPUTS) > 80


@pytest.mark.parametrize(("command", "args", "fmt"), OUTPUTS,
                         ids=[f"{c} {' '.join(a)[:40]} {f}" for c, a, f in OUTPUTS])
def test_no_output_says_edge_alone(capsys: pytest.CaptureFixture[str], command: str, args: tuple[str, ...],
                                   fmt: str) -> None:
    code, out, err = run(capsys, command, *args, "--format", fmt)
    assert code == 0 and out, err
    assert bare_edges(out) == [] and bare_edges(err) == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_help_says_edge_alone(command: str) -> None:
    assert bare_edges(_help(command)) == []


def test_the_command_list_says_edge_only_in_a_command_name() -> None:
    listing = build_parser().format_help()
    assert [line.split()[0] for line in bare_edges(listing)] == ["edges"]


def _signed_pairs(value: object) -> Iterator[tuple[str, str]]:
    """Every (house_edge, player_ev) pair given side by side in one JSON object."""
    if isinstance(value, dict):
        if isinstance(value.get("house_edge"), str) and isinstance(value.get("player_ev"), str):
            yield value["house_edge"], value["player_ev"]
        for item in value.values():
            yield from _signed_pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _signed_pairs(item)


@pytest.mark.parametrize("argv", [("edges", "--decks", "1"), ("report", "--decks", "1"), ("sidebets", "--decks", "1"),
                                  ("parsheet", "--bet", "tie", "--decks", "1")])
def test_house_edge_and_player_ev_are_opposite(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    data = json.loads(run(capsys, *argv, "--format", "json")[1])
    pairs = list(_signed_pairs(data))
    assert pairs and all(Fraction(edge) == -Fraction(ev) for edge, ev in pairs)


def test_the_signs_are_the_named_ones(capsys: pytest.CaptureFixture[str]) -> None:
    """The banker bet loses in the long run: its house_edge is positive, its player_ev negative, everywhere."""
    edges = json.loads(run(capsys, "edges", "--decks", "8", "--format", "json")[1])
    banker = edges["configurations"]["standard"]["banker"]
    assert Fraction(banker["house_edge"]) > 0 > Fraction(banker["player_ev"])
    study = json.loads(run(capsys, "study", "--shoes", "1", "--seed", "1", "--bet", "banker", "-q", "--format",
                           "json")[1])
    assert Fraction(study["bets"]["banker"]["player_ev"]) == Fraction(banker["player_ev"])
    eor = json.loads(run(capsys, "eor", "--bet", "banker", "--format", "json")[1])
    assert Fraction(eor["player_ev"]["banker"]) == Fraction(banker["player_ev"])
    session = json.loads(run(capsys, "session", "--bet", "banker", "--hands", "2", "--sessions", "0", "--format",
                             "json")[1])
    assert Fraction(session["player_ev"]) == Fraction(banker["player_ev"])
    simulated = json.loads(run(capsys, "simulate", "--fresh", "--coups", "2000", "--seed", "1", "--verify",
                               "--bet", "banker", "--format", "json")[1])
    assert Fraction(simulated["player_ev_check"]["banker"]["exact"]) == Fraction(banker["player_ev"])  # a fresh shoe
