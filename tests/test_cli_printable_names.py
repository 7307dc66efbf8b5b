"""Names a user gives are printed whole and safely: a ``|`` in a cell is escaped in Markdown tables
(:func:`exact_odds.report.base.markdown_cell`), and a control character (a line break, a tab, a NUL,
U+2028) in a name, label, description or source is refused with one line naming the field
(:func:`exact_odds.inputs.validate.printable`)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import one_line_error, run

from exact_odds.core.tableau import STANDARD_TOML, parse_tableau
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.report.base import Table, markdown_cell
from exact_odds.report.document import render_tables

_ESCAPED = re.compile(r"\\.")


def _cells(line: str) -> int:
    """The cells of a Markdown table row: its unescaped ``|`` less one (GitHub reads ``\\X`` as one
    escaped character, so ``\\|`` is text and ``\\\\|`` a backslash then a bar)."""
    return _ESCAPED.sub("", line).count("|") - 1


def markdown_tables(out: str) -> list[list[str]]:
    """The tables of a Markdown output: each a list of its ``|`` lines (header, rule, rows)."""
    return [lines for block in out.split("\n\n")
            if (lines := [line for line in block.splitlines() if line.startswith("|")])]


def assert_columns_kept(out: str) -> int:
    """Every row of every table of ``out`` has as many cells as its header; the number of tables."""
    tables = markdown_tables(out)
    for lines in tables:
        assert [_cells(line) for line in lines] == [_cells(lines[0])] * len(lines), "\n".join(lines)
    return len(tables)


# ---------------------------------------------------------------- Markdown: | escaped in one place


def test_markdown_cell_escapes_bars_and_the_backslashes_before_them() -> None:
    assert markdown_cell("no bar") == "no bar"
    assert markdown_cell("4|5=-1") == r"4\|5=-1"
    assert markdown_cell(r"a\|b") == r"a\\\|b"  # read back as a\|b, one cell
    assert markdown_cell("back\\slash") == "back\\slash"


@pytest.mark.parametrize("odd", ["", "é漢字"])  # ASCII cells are laid out here, others by tabulate
def test_a_markdown_table_with_bars_keeps_its_columns(odd: str) -> None:
    table = Table(f"title | with{odd} bar", ["na|me", "value", "x"],
                  [[f"4|5|6|7=-1, 8|9=+2{odd}", Fraction(1, 3), "end\\"], [r"a\|b", 1234, "|"], ["|", "||", "\\|"]],
                  notes=["a note | with a bar"])
    out = render_tables([table], "markdown")
    lines = markdown_tables(out)[0]
    assert len(lines) == 5 and assert_columns_kept(out) == 1 and _cells(lines[0]) == 3
    assert r"na\|me" in lines[0] and r"4\|5\|6\|7=-1, 8\|9=+2" in lines[2] and r"a\\\|b" in lines[3]
    # the other formats are not escaped
    assert "4|5|6|7=-1" in render_tables([table], "table") and "4|5|6|7=-1" in render_tables([table], "csv")


def test_a_count_whose_tags_hold_bars_keeps_the_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "count", "--count", "4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4",
                         "--shoes", "1", "--seed", "1", "--decks", "1", "-q", "--format", "markdown")
    assert code == 0 and err == ""
    assert r"4\|5\|6\|7=-1, 8\|9=+2" in out and assert_columns_kept(out) >= 2


BETS = """
[[bet]]
name = {name}
source = "the layout | card"
description = "a bet | with bars"

[[bet.line]]
label = {label}
pays = "8:1"
winner = "tie"

[[bet.line]]
label = "second, | line"
pays = "push"
winner = "banker"
banker_total = 0
"""

GAME = """
name = {name}
description = "Six | decks"
source = "the casino's | rules"
decks = 1

[configuration]
name = {config}
description = "Banker | 19:20"

[configuration.banker]
win = "19/20"

[configuration.player]
win = "1"

[configuration.tie]
win = "9:1"
"""


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` (control characters escaped, other characters as they are)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def test_user_names_with_bars_keep_the_columns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bets = tmp_path / "bets.toml"
    bets.write_text(BETS.format(name=toml_string("uni|♠é漢字"), label=toml_string('lab|el, "q" <tag>')),
                    encoding="utf-8")
    code, out, err = run(capsys, "parsheet", "--decks", "1", "--bets", str(bets), "--bet", "uni|♠é漢字",
                         "--format", "markdown")
    assert code == 0 and err == ""
    assert r"lab\|el" in out and r"second, \| line" in out and assert_columns_kept(out) == 1
    game = tmp_path / "game.toml"
    game.write_text(GAME.format(name=toml_string("odd|game"), config=toml_string("cfg|odd")), encoding="utf-8")
    code, out, err = run(capsys, "report", "--game", str(game), "--format", "markdown")
    assert code == 0 and err == ""
    assert "## Game: odd|game" in out and r"cfg\|odd" in out and assert_columns_kept(out) >= 3


# ---------------------------------------------------------------- control characters refused

BAD = {"\n": "a line break", "\r": "a line break", "\t": "a tab", "\x00": "a NUL", "\x1b": "an escape",
       "\x85": "a line break", "\u2028": "a line break, U+2028", "\u2029": "a line break, U+2029",
       "\x7f": "U+007F"}
GOOD = ["uni-♠♥é漢字-bet", "q\"uote's,comma", "<script>alert(1)</script>", "back\\slash%&$_{}|pipe#~^"]


def test_the_validator_names_the_character_and_stays_on_one_line() -> None:
    for ch, words in BAD.items():
        with pytest.raises(InputError) as err:
            validate.printable(f"nl{ch}newline", "bet name")
        assert str(err.value) == f"bet name {'nl' + ch + 'newline'!r} contains a control character ({words})"
        assert validate.control_character(f"x{ch}") == words
        with pytest.raises(InputError, match="printable characters"):
            validate.name(f"a{ch}b", "--config")
    for text in GOOD:
        assert validate.printable(text, "bet name") == text and validate.control_character(text) is None


def _bets_file(field: str, value: str) -> str:
    values = {"name": "my-bet", "source": "card", "description": "a bet", "label": "tie"}
    values[field] = value
    text = (f"[[bet]]\nname = {toml_string(values['name'])}\nsource = {toml_string(values['source'])}\n"
            f"description = {toml_string(values['description'])}\n")
    if field == "alias":
        text += f"aliases = [{toml_string(value)}]\n"
    return text + f"\n[[bet.line]]\nlabel = {toml_string(values['label'])}\npays = \"8:1\"\nwinner = \"tie\"\n"


BET_FIELDS = {"name": ("bet name", 2), "source": ("bet source", 3), "description": ("bet description", 4),
              "alias": ("bet alias", 5), "label": ("pay-line label", 7)}


@pytest.mark.parametrize("ch", ["\n", "\t", "\x00", "\u2028"])
@pytest.mark.parametrize("field", BET_FIELDS)
def test_a_control_character_in_a_bet_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 field: str, ch: str) -> None:
    path = tmp_path / "bets.toml"
    path.write_text(_bets_file(field, f"nl{ch}x"), encoding="utf-8")
    what, line = BET_FIELDS[field]
    assert one_line_error(*run(capsys, "parsheet", "--decks", "1", "--bets", str(path), "--bet", "my-bet"),
                          f"{path}:{line}: {what} {'nl' + ch + 'x'!r} contains a control character")


GAME_FIELDS = {"game name": ("name", 2), "game description": ("description", 3), "game source": ("source", 4),
               "configuration name": ("config", 8), "configuration description": ("config_description", 9)}


def _game_file(field: str, value: str) -> str:
    values = {"name": "g", "description": "d", "source": "s", "config": "c", "config_description": "cd"}
    values[field] = value
    v = {k: toml_string(t) for k, t in values.items()}
    return (f"\nname = {v['name']}\ndescription = {v['description']}\nsource = {v['source']}\ndecks = 1\n\n"
            f"[configuration]\nname = {v['config']}\ndescription = {v['config_description']}\n\n"
            "[configuration.banker]\nwin = \"19/20\"\n\n[configuration.player]\nwin = \"1\"\n\n"
            "[configuration.tie]\nwin = \"9:1\"\n")


@pytest.mark.parametrize("ch", ["\n", "\t", "\x00", "\u2028", "\x85"])  # the last two literal in the file
@pytest.mark.parametrize("what", GAME_FIELDS)
def test_a_control_character_in_a_game_or_configuration_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, what: str, ch: str) -> None:
    path = tmp_path / "game.toml"
    field, line = GAME_FIELDS[what]
    path.write_text(_game_file(field, f"nl{ch}x"), encoding="utf-8")
    assert one_line_error(*run(capsys, "odds", "--game", str(path)),
                          f"{path}:{line}: {what} {'nl' + ch + 'x'!r} contains a control character")


@pytest.mark.parametrize("ch", ["\n", "\t", "\x00"])
def test_a_control_character_in_a_configuration_file_or_a_tableau_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, ch: str) -> None:
    config = tmp_path / "pay.toml"
    text = _game_file("config", f"nl{ch}x").split("[configuration]\n", 1)[1]
    config.write_text(text.replace("[configuration.", "["), encoding="utf-8")
    assert one_line_error(*run(capsys, "edges", "--config", str(config)),
                          f"{config}:1: configuration name {'nl' + ch + 'x'!r} contains a control character")
    rules = tmp_path / "rules.toml"
    rules.write_text(_tableau(toml_string(f"nl{ch}x")), encoding="utf-8")
    assert one_line_error(*run(capsys, "odds", "--rules", str(rules)),
                          f"{rules}:2: tableau name {'nl' + ch + 'x'!r} contains a control character")



def _tableau(name: str) -> str:
    """The standard tableau's file under the TOML string ``name``."""
    return STANDARD_TOML.replace('name = "standard"', f"name = {name}", 1)


@pytest.mark.parametrize("text", GOOD)
def test_ordinary_unicode_names_are_still_accepted(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   text: str) -> None:
    bets = tmp_path / "bets.toml"
    bets.write_text(_bets_file("name", text).replace('label = "tie"', f"label = {toml_string(text)}"),
                    encoding="utf-8")
    code, out, err = run(capsys, "parsheet", "--decks", "1", "--bets", str(bets), "--bet", text)
    assert code == 0 and err == "" and f"Par sheet: {text}, 1 deck" in out and f"\n{text} " in out
    game = tmp_path / "game.toml"
    config = toml_string(text.replace("/", "-") + " pay")  # a configuration's name has no "/"
    game.write_text(_game_file("name", text).replace('name = "c"', f"name = {config}"), encoding="utf-8")
    code, out, err = run(capsys, "report", "--game", str(game), "--format", "markdown")
    assert code == 0 and err == "" and f"## Game: {text}" in out and assert_columns_kept(out) >= 3
    assert parse_tableau(_tableau(toml_string(text)), source="rules.toml").name == text
