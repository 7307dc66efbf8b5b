"""Registries as values: lookups, extension without mutation, and commands that do not depend on history."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import run

from exact_odds.bets import BUILTIN_BETS, BUILTIN_CONFIGURATIONS, BetError, find_bet, load_bets, usable_bets
from exact_odds.bets.side import SIDE_BETS
from exact_odds.core.shoe import Shoe, ShoeError
from exact_odds.inputs.errors import InputError, suits_unknown
from exact_odds.inputs.registry import Registry, name_key
from exact_odds.inputs.sources import TomlText, toml_error_line

SIDE = str(Path(__file__).resolve().parent.parent / "examples" / "side_bets.toml")
UNSUITED = "A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=2,J=2,Q=2,K=2"


class Thing(NamedTuple):
    name: str
    aliases: tuple[str, ...] = ()
    colour: str = "red"


# ---------------------------------------------------------------- the registry value


def test_names_are_compared_in_one_canonical_form() -> None:
    assert name_key(" Super 6 ") == name_key("super_6") == name_key("SUPER-6") == "super-6"
    assert name_key("dragon  bonus__player") == "dragon-bonus-player"


def test_find_takes_any_spelling_and_aliases_and_lists_the_names() -> None:
    things = Registry("thing", [Thing("b thing", ("beta",)), Thing("a-thing")], sort_listing=True)
    assert list(things) == ["b-thing", "a-thing"]  # registration order
    assert things.find("B_Thing") is things.find("BETA") is things["beta"]
    assert "Beta" in things and "gamma" not in things and things.get("gamma") is None
    with pytest.raises(InputError, match=r"^unknown thing 'gamma'; known things: a-thing, b-thing$"):
        things.find("gamma")
    in_order = Registry("thing", [Thing("b"), Thing("a")])
    with pytest.raises(InputError, match="known things: b, a$"):
        in_order.find("c")


def test_extended_returns_a_new_value_and_leaves_the_old_one_alone() -> None:
    base = Registry("thing", [Thing("one")], error=BetError)
    more = base.extended([Thing("two", ("deux",))])
    assert list(base) == ["one"] and list(more) == ["one", "two"] and more.find("deux").name == "two"
    assert more.extended([Thing("two", ("deux",))]) == more  # the very same value again is held once
    with pytest.raises(BetError, match="thing name 'deux' is already taken by the thing 'two'"):
        more.extended([Thing("three", ("deux",))])
    with pytest.raises(BetError, match="thing name 'ONE' is already taken by the thing 'one'"):
        base.extended([Thing("ONE", colour="blue")])
    with pytest.raises(TypeError):
        base["two"] = Thing("two")  # type: ignore[index]


def test_builtin_registries() -> None:
    names = list(BUILTIN_BETS)
    assert names[:3] == ["banker", "player", "tie"] and names[-len(SIDE_BETS):] == [b.name for b in SIDE_BETS]
    assert len(names) == 5 * 3 + len(SIDE_BETS)
    assert BUILTIN_BETS.find("standard/banker") is find_bet("Banco") is BUILTIN_CONFIGURATIONS.find("standard").bets[0]
    with pytest.raises(BetError, match="^unknown bet 'nonesuch'; known bets: banker, banker-pair, big,"):
        find_bet("nonesuch")


def test_loading_a_file_changes_no_registry() -> None:
    before = list(BUILTIN_BETS.values())
    loaded = load_bets(SIDE)
    assert list(BUILTIN_BETS.values()) == before and "my-dragon-7" not in BUILTIN_BETS
    assert BUILTIN_BETS.extended(loaded).find("My Dragon 7") is loaded[0]


# ---------------------------------------------------------------- policy: which bets a shoe can settle


def test_usable_bets_leaves_out_suited_bets_on_shoes_without_suits() -> None:
    bets = [find_bet("banker"), find_bet("perfect-pair"), find_bet("player-pair"), find_bet("perfect-pair-v1")]
    unsuited = Shoe.parse(UNSUITED)
    usable, omitted = usable_bets(unsuited, bets)
    assert [b.name for b in usable] == ["banker", "player-pair"]
    assert [b.name for b in omitted] == ["perfect-pair", "perfect-pair-v1"]
    assert usable_bets(Shoe.decks(1), bets) == (bets, [])
    with pytest.raises(ShoeError, match="^perfect-pair needs a shoe whose suits are known"):
        usable_bets(unsuited, bets, strict=True)


def test_one_message_for_unknown_suits() -> None:
    assert suits_unknown() == ("suited bets need a shoe whose suits are known (give whole decks, or counts divisible "
                               "by 4, and remove cards with their suits, e.g. 'Kh 3d')")
    assert suits_unknown("perfect-pair", where="shoe 2", hint="") == (
        "shoe 2: perfect-pair needs a shoe whose suits are known")


# ---------------------------------------------------------------- the one TOML locator


def test_toml_locator() -> None:
    text = TomlText.of('name = "x"\n[banker]\nwin = "1"\n[[banker.special]]\ntotal = 6\n'
                       '[[banker.special]]\n"total" = 7\n', "f.toml")
    assert text.headers() == [1, 3, 5] and text.headers({"banker.special"}) == [3, 5]
    assert text.block(1) == (1, 3) and text.block(3, among={"banker"}) == (3, 7)
    assert text.table_key_line("total", "banker.special", 1) == 7
    assert text.table_key_line(None, "banker.special", 1) == 6 and text.table_key_line("x", "tie") == 0
    assert text.top_level_key_line("name") == 1 and text.top_level_key_line("banker") == 2
    assert text.where(text.first_match(r"\s*win")) == "f.toml:3" and text.where(0) == "f.toml"
    assert toml_error_line("Invalid value (at line 12, column 3)") == (12, "Invalid value")
    assert toml_error_line("Invalid value") == (0, "Invalid value")


# ---------------------------------------------------------------- commands do not depend on history


COMMANDS = [
    ("sidebets", "--decks", "1", "--format", "csv"),
    ("report", "--decks", "1", "--format", "json"),
    ("eor", "--shoe", UNSUITED, "--format", "csv"),
    ("parsheet", "--bet", "nonsense"),
    ("parsheet", "--bet", "my-dragon-7"),
]


def test_the_same_command_gives_the_same_output_whatever_ran_before(capsys: pytest.CaptureFixture[str]) -> None:
    first = [run(capsys, *argv) for argv in COMMANDS]
    assert first[3][0] == 2 and "my-dragon-7" not in first[3][2]
    assert first[4][0] == 2 and "unknown bet 'my-dragon-7'" in first[4][2]
    # Commands that load a bets file, then the same commands again.
    assert run(capsys, "sidebets", "--decks", "1", "--bets", SIDE, "--format", "csv")[0] == 0
    loaded = run(capsys, "parsheet", "--bet", "my-dragon-7", "--bets", SIDE)
    assert loaded[0] == 0 and "my-dragon-7" in loaded[1]
    assert "9-over-7" in run(capsys, "report", "--decks", "1", "--bets", SIDE, "--format", "json")[1]
    again = [run(capsys, *argv) for argv in COMMANDS]
    assert again == first


# ---------------------------------------------------------------- did you mean


TYPOS = [
    (("sidebet",), "unknown command 'sidebet' (did you mean 'sidebets'?)"),
    (("parsheet", "--bet", "dragn7"), "unknown bet 'dragn7' (did you mean 'dragon-7'?)"),
    (("parsheet", "--bet", "panda-9"), "unknown bet 'panda-9' (did you mean 'panda-8'?)"),
    (("edges", "--config", "super6"), "unknown configuration 'super6' (did you mean 'super-6'?)"),
    (("count", "--count", "jacobson-dragon7", "--shoes", "2"),
     "unknown count 'jacobson-dragon7' (did you mean 'jacobson-dragon-7'?)"),
    (("bunco", "--scoring", "artcle"), "unknown Bunco scoring rules 'artcle' (did you mean 'article'?)"),
    (("odds", "--format", "xslx"), "invalid choice: 'xslx' (did you mean 'xlsx'?)"),
    (("simulate", "--last-coup", "thes"), "invalid choice: 'thes' (did you mean 'this'?)"),
]


@pytest.mark.parametrize(("argv", "message"), TYPOS, ids=[" ".join(argv) for argv, _ in TYPOS])
def test_a_typo_gets_one_line_with_the_nearest_name(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                                    message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert message in err
    assert "; known" not in err and "choose from" not in err  # the suggestion alone, not the whole list


KEY_TYPOS = [
    ("game.toml", "--game", 'decks = 6\nsidebets = ["dragon-7"]\n', "unknown key 'sidebets' in a game file "
     "(did you mean 'side_bets'?)"),
    ("pay.toml", "--config", 'name = "x"\n[banker]\nwin = "1"\nspecail = []\n[player]\nwin = "1"\n'
     '[tie]\nwin = "8"\n', "unknown key 'specail' in [banker] (did you mean 'special'?)"),
    ("pay.toml", "--config", 'name = "x"\n[banker]\nwin = "1"\n[[banker.special]]\ntotl = 6\npays = "1/2"\n'
     '[player]\nwin = "1"\n[tie]\nwin = "8"\n', "unknown key 'totl' in [[banker.special]] (did you mean 'total'?)"),
    ("pay.toml", "--config", 'nam = "x"\n[banker]\nwin = "1"\n[player]\nwin = "1"\n[tie]\nwin = "8"\n',
     "unknown bet or key 'nam' (did you mean 'name'?)"),
    ("rules.toml", "--rules", 'name = "x"\nnatural = [8, 9]\n', "unknown key 'natural' (did you mean 'naturals'?)"),
]


@pytest.mark.parametrize(("name", "option", "text", "message"), KEY_TYPOS, ids=[k[3][:30] for k in KEY_TYPOS])
def test_a_misspelt_key_of_a_file_gets_the_nearest(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                                   option: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "edges", option, str(path))
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert message in err
