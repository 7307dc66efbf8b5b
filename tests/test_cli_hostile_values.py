"""Values a user types that looked good enough to slip through: numbers written with thousands of leading
zeros, empty lists and groups, control characters in names, long bad values echoed whole, negative
numbers taken for options.

- **Numbers.** Every number the user types, whatever the option, key or spec, goes through one parser
  (:mod:`exact_odds.inputs.validate`) that drops leading zeros before converting and bounds the digits
  first: ``--decks 000...0008`` (5,000 zeros) is 8 in every command, not a traceback of ``int()``'s
  4,300-digit limit. The options are found from the parser (every ``type=`` that is a bound), so an
  option added later is covered the day it is added.
- **Empty values** (``--bet=``, ``--known '1=7|'``, ``--groups ''``, an empty group) are refused,
  never read as "the default" or "nothing"; a control character in a name given on the command line
  is refused as in a file.
- **Messages** quote a bad value at most some 60 characters long, with its length (the rest of a message,
  such as the list of known names, is bounded by what it lists).
- **Negative numbers** are values of the options that take numbers (``--thresholds 1e6 -1e6 0``).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import one_line_error, run
from test_cli_fuzz import COMMANDS, _name

from exact_odds.inputs import validate

ZEROS = "0" * 5000
"""More leading zeros than ``int()`` converts (4,300 digits)."""


def _bound(action: argparse.Action) -> validate.Whole | validate.Real | validate.Exact | None:
    """The bound an option's values are read by (its ``type=`` is the bound's ``option`` method), or None."""
    bound = getattr(action.type, "__self__", None)
    return bound if isinstance(bound, (validate.Whole, validate.Real, validate.Exact)) else None


NUMERIC = sorted((command, _name(action)) for command, parser in COMMANDS.items() for action in parser._actions
                 if _bound(action) is not None)
"""Every (command, option) whose value is a number read by a bound."""


def _action(command: str, option: str) -> argparse.Action:
    return next(a for a in COMMANDS[command]._actions if option in a.option_strings)


def _inside(bound: validate.Whole | validate.Real | validate.Exact) -> str:
    """A number within ``bound``, as text."""
    if isinstance(bound, validate.Whole):
        return str(max(bound.low, min(bound.high, 1)))
    if isinstance(bound, validate.Exact) and bound.high < 1:
        return str((bound.low + bound.high) / 2)  # a fraction, e.g. 1/20 for a commission up to 1/10
    if bound.open:
        return "0.5"
    return str(max(int(bound.low), 1))


def test_the_numeric_options_are_found() -> None:
    assert {("deal", "--cut-card"), ("study", "--thresholds"), ("bunco", "--alpha"), ("verify", "--shoes"),
            ("simulate", "--seed")} <= set(NUMERIC)


@pytest.mark.parametrize(("command", "option"), NUMERIC)
def test_every_numeric_option_reads_any_number_of_leading_zeros(command: str, option: str) -> None:
    action = _action(command, option)
    bound = _bound(action)
    assert bound is not None and callable(action.type)
    plain = _inside(bound)
    assert action.type(ZEROS + plain) == action.type(plain)


@pytest.mark.parametrize(("command", "option"), NUMERIC)
def test_every_numeric_option_refuses_a_long_number_by_its_length(command: str, option: str) -> None:
    action = _action(command, option)
    assert callable(action.type)
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        action.type("9" * 5000)
    assert len(str(caught.value)) < 200 and "(5,000 characters)" in str(caught.value)


LEADING_ZEROS = [
    ("odds", "--decks", ZEROS + "1"),
    ("odds", "--shoe", f"A={ZEROS}4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4"),
    ("deal", "--decks", "1", "--seed", "1", "--cut-card", ZEROS + "14"),
    ("session", "--bet", "banker", "--hands", "5", "--sessions", "10", "--seed", "1", "--bankroll",
     ZEROS + "20"),
    ("count", "--count", f"4|5|6|7=-{ZEROS}1, 8|9=+{ZEROS}2, bet=dragon-7, tc>={ZEROS}4", "--shoes", "1",
     "--decks", "1", "--seed", "1"),
    ("verify", "--counts", f"banker={ZEROS}5,player={ZEROS}4,tie=0"),
    ("advantage", "--known", f"{ZEROS}1=7", "--decks", "1"),
]


@pytest.mark.parametrize("argv", LEADING_ZEROS, ids=lambda a: f"{a[0]} {a[-1][:12] if len(a[-1]) < 20 else a[1]}")
def test_numbers_in_specs_read_any_number_of_leading_zeros(capsys: pytest.CaptureFixture[str],
                                                          argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    plain = [a.replace(ZEROS, "") for a in argv]
    assert (code, out, err) == run(capsys, *plain)
    assert code == 0


def test_a_game_files_numbers_read_any_number_of_leading_zeros(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    game.write_text(f'decks = 6\n[configuration.tie]\nwin = "{ZEROS}8"\n[configuration.banker]\nwin = "19/20"\n'
                    '[configuration.player]\nwin = "1"\n')
    long = run(capsys, "edges", "--game", str(game))
    game.write_text(game.read_text().replace(ZEROS, ""))
    assert long == run(capsys, "edges", "--game", str(game)) and long[0] == 0


def test_exact_numbers_drop_leading_zeros_before_their_length_is_counted() -> None:
    assert validate.PAYOUT.parse(ZEROS + "19/" + ZEROS + "20", "banker win") == Fraction(19, 20)
    assert validate.PAYOUT.parse("0" * 50 + "11:1", "tie win") == 11
    assert validate.THRESHOLD.parse("-" + ZEROS + "2.5e0" + ZEROS + "1", "--thresholds") == -25.0
    assert validate.without_leading_zeros("10.05") == "10.05"


# ---------------------------------------------------------------- empty and invisible values

EMPTY = [
    (("sidebets", "--bet="), "--bet must not be empty"),
    (("sidebets", "--bet=,"), "--bet ',' names an empty bet"),
    (("eor", "--bet", "banker,,tie"), "--bet 'banker,,tie' names an empty bet"),
    (("odds", "--decks", "1", "--known", "1=7|"), "an empty card in '7|'"),
    (("advantage", "--decks", "1", "--known", "1=|7"), "an empty card in '|7'"),
    (("advantage", "--groups", ""), "--groups must not be empty"),
    (("advantage", "--groups", "high=6||9"), "an empty card in '6||9'"),
    (("study", "--shoes", "1", "--decks", "1", "--edge-sort", ""), "--edge-sort must not be empty"),
    (("study", "--shoes", "1", "--decks", "1", "--edge-sort", " "), "--edge-sort must not be empty"),
    (("count", "--count", "", "--shoes", "1"), "--count must not be empty"),
    (("verify", "--counts", ""), "--counts must not be empty"),
    (("parsheet", "--bet", ""), "--bet must not be empty"),
    (("session", "--bet", " "), "--bet must not be empty"),
]


@pytest.mark.parametrize(("argv", "words"), EMPTY, ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_empty_values_are_refused(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str) -> None:
    assert one_line_error(*run(capsys, *argv), words)


CONTROL = [
    ("study", "--shoes", "1", "--decks", "1", "--count", "4|5=1, name=a\x1b[31mb, bet=dragon-7, tc>=1"),
    ("count", "--shoes", "1", "--decks", "1", "--count", "name=x\ny, 4|5=1, bet=dragon-7, tc>=1"),
    ("advantage", "--groups", "hi\x07gh=6|7|8|9"),
    ("study", "--shoes", "1", "--decks", "1", "--edge-sort", "hi\u2028gh=6|7|8|9"),
    ("sidebets", "--bet", "banker\x1b"),
    ("odds", "--known", "1=7\x85"),
]


@pytest.mark.parametrize("argv", CONTROL, ids=lambda a: a[-2])
def test_control_characters_in_names_from_the_command_line_are_refused(capsys: pytest.CaptureFixture[str],
                                                                       argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err, "must not contain a control character")
    assert "\x1b" not in err and "\x07" not in err and "\u2028" not in err


def test_an_impossible_trailing_card_of_a_recorded_shoe_is_refused(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    record = tmp_path / "shoe.txt"
    record.write_text(" ".join(f"{r}{s}" for r in "A23456789TJQK" for s in "shdc") + "\nAs\n")
    assert one_line_error(*run(capsys, "study", "--input", str(record), "--decks", "1"), "card 53 (As)",
                          "no A left in the shoe")


# ---------------------------------------------------------------- messages of bounded length

LONG = "x" * 100_000
LONG_VALUES = [
    ("sidebets", "--bet", LONG),
    ("sidebets", "--bet", "banker," + LONG),
    ("advantage", "--groups", LONG),
    ("advantage", "--groups", f"a={LONG}"),
    ("advantage", "--position", LONG),
    ("odds", "--known", LONG),
    ("odds", "--known", f"1=7 {LONG}=8"),
    ("odds", "--dealt", f"Q: {LONG}"),
    ("odds", "--shoe", LONG),
    ("odds", "--remove", LONG),
    ("count", "--count", f"{LONG}, bet=dragon-7, tc>=4", "--shoes", "1"),
    ("count", "--count", f"4|5=1, bet=dragon-7, tc>={LONG}", "--shoes", "1"),
    ("verify", "--counts", f"banker={LONG}"),
    ("odds", "--config", LONG),
    ("chemin-de-fer", "--model", LONG),
    ("bunco", "--scoring", LONG),
]


@pytest.mark.parametrize("argv", LONG_VALUES, ids=lambda a: f"{a[0]} {a[1]}")
def test_a_long_bad_value_is_quoted_short_with_its_length(capsys: pytest.CaptureFixture[str],
                                                          argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert one_line_error(code, out, err) and "x" * 61 not in err and len(err) < 1000, err[:600]


FILE_VALUES = {
    "bets: a long name with a tab": f'[[bet]]\nname = "{LONG}\\t"\nsource = "s"\n[[bet.line]]\npays = "1"\n',
    "bets: a long list": "[[bet]]\nname = \"b\"\nsource = \"s\"\n[[bet.line]]\npays = \"1\"\nwinner = [" +
                         ", ".join(['"x"'] * 20_000) + "]\n",
    "bets: a long condition": f'[[bet]]\nname = "b"\nsource = "s"\n[[bet.line]]\npays = "1"\nbanker_total = "{LONG}"\n',
}


@pytest.mark.parametrize("name", sorted(FILE_VALUES))
def test_a_long_bad_value_in_a_file_is_quoted_short(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    name: str) -> None:
    path = tmp_path / "bets.toml"
    path.write_text(FILE_VALUES[name])
    code, out, err = run(capsys, "sidebets", "--bets", str(path))
    assert one_line_error(code, out, err) and "x" * 61 not in err and len(err) < 1000, err[:600]


# ---------------------------------------------------------------- negative numbers are values


@pytest.mark.parametrize("text", ["-1", "-1e6", "-1E+6", "-0.5", "-.5", "-2.", "-1/2", "-0001"])
def test_every_parser_takes_a_negative_number_for_a_value(text: str) -> None:
    assert all(parser._negative_number_matcher.match(text) for parser in COMMANDS.values())


@pytest.mark.parametrize("text", ["-x", "-1x", "--1", "-e6", "-"])
def test_an_option_is_no_negative_number(text: str) -> None:
    assert not any(parser._negative_number_matcher.match(text) for parser in COMMANDS.values())


def test_negative_thresholds_and_bounds_are_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "study", "--shoes", "1", "--decks", "1", "--seed", "1", "--thresholds", "1e6", "-1e6",
                         "-2.5", "0", "--format", "json")
    assert code == 0 and err == "" and '"true_count": -1000000' in out.replace(".0", "")
    assert run(capsys, "bunco", "--more-than", "-5", "--simulate", "10", "--seed", "1")[0] == 0
