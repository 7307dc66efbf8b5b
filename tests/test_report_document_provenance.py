"""Provenance: every output names the program, its version, the tableau, pay table, shoe, procedure and seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run

from exact_odds import __version__
from exact_odds.core.tableau import STANDARD_TABLEAU, load_tableau
from exact_odds.engine.store import tableau_key
from exact_odds.report.document import Provenance, with_provenance

EXAMPLES = Path(__file__).parent.parent / "examples"
WRONG = str(EXAMPLES / "wrong_banker_6.toml")
KEYS = ["program", "version", "command", "tableau", "configuration", "shoe", "procedure", "seed"]
STANDARD = {"name": "standard", "key": tableau_key(STANDARD_TABLEAU)}
WHOLE_SHOES = {"description": "whole shoes: burn by the first card, cut card 16 cards from the end, one more coup "
                              "after the cut card",
               "fresh": False, "cut_card": 16, "last_coup": "one-more", "burn": True}

JSON_COMMANDS: list[tuple[tuple[str, ...], dict[str, object]]] = [
    (("odds",), {"shoe": {"description": "8 decks", "cards": 416}, "tableau": STANDARD, "configuration": None,
                 "procedure": None, "seed": None}),
    (("odds", "--dealt", "P: 9h 4c B: Kd", "--decks", "6"), {"shoe": {"description": "6 decks", "cards": 312}}),
    (("edges", "--config", "tie-9"), {"configuration": "tie-9"}),
    (("edges",), {"configuration": None}),
    (("parsheet", "--bet", "banker"), {"configuration": "standard"}),
    (("symbolic",), {"configuration": None}),
    (("report", "--decks", "1"), {"shoe": {"description": "1 deck", "cards": 52}}),
    (("sidebets", "--remove", "5,5"), {}),
    (("simulate", "--rounds", "100", "--seed", "9"), {"seed": 9, "procedure": WHOLE_SHOES}),
    (("simulate", "--rounds", "100", "--seed", "9", "--fresh"),
     {"procedure": {"description": "a freshly shuffled full shoe for every coup", "fresh": True, "cut_card": 16,
                    "last_coup": "one-more", "burn": True}}),
    (("deal", "--seed", "7", "--no-burn", "--cut-card", "20"),
     {"seed": 7, "procedure": {"description": "whole shoes: no burn, cut card 20 cards from the end, one more coup "
                                              "after the cut card", "fresh": False, "cut_card": 20,
                               "last_coup": "one-more", "burn": False}}),
    (("session", "--bet", "banker", "--hands", "5", "--sessions", "10", "--seed", "3"), {"seed": 3}),
    (("roads", "--seed", "2"), {"seed": 2, "procedure": WHOLE_SHOES}),
    (("roads", "--input", str(EXAMPLES / "results.txt")),
     {"tableau": None, "shoe": None, "procedure": None, "seed": None}),
    (("bunco",), {"tableau": None, "configuration": "standard", "shoe": None, "procedure": None, "seed": None}),
    (("bunco", "--scoring", "article", "--simulate", "100", "--seed", "4"), {"configuration": "article", "seed": 4}),
    (("eor", "--decks", "1", "--bet", "banker"), {"shoe": {"description": "1 deck", "cards": 52}}),
    (("study", "--shoes", "2", "--seed", "5"), {"seed": 5}),
    (("count", "--shoes", "1", "--seed", "2", "--count", "jacobson-dragon-7"), {"seed": 2}),
    (("advantage", "--decks", "1"), {}),
    (("verify", str(EXAMPLES / "coups_log.csv")), {"seed": None}),
]
"""A command line (``--format json`` added) and parts its provenance must have."""


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    value = json.loads(out)
    assert isinstance(value, dict)
    return value


@pytest.mark.parametrize(("argv", "expected"), JSON_COMMANDS, ids=[" ".join(a[:2]) for a, _ in JSON_COMMANDS])
def test_json_provenance_comes_first(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                     expected: dict[str, object]) -> None:
    value = _json(capsys, *argv)
    assert next(iter(value)) == "provenance"
    provenance = value["provenance"]
    assert isinstance(provenance, dict) and list(provenance) == KEYS
    assert provenance["program"] == "exact-odds" and provenance["version"] == __version__
    assert provenance["command"] == argv[0]
    for key, want in expected.items():
        assert provenance[key] == want, key


def test_a_custom_tableau_is_named_and_keyed(capsys: pytest.CaptureFixture[str]) -> None:
    provenance = _json(capsys, "odds", "--rules", WRONG)["provenance"]
    assert isinstance(provenance, dict)
    assert provenance["tableau"] == {"name": "wrong-banker-6", "key": tableau_key(load_tableau(WRONG))}
    assert provenance["tableau"]["key"] != STANDARD["key"]
    code, out, _ = run(capsys, "odds", "--rules", WRONG)
    assert code == 0 and "Punto banco" not in out and "Odds under the tableau 'wrong-banker-6', 8 decks" in out
    code, out, _ = run(capsys, "report", "--rules", WRONG, "--format", "markdown")
    assert code == 0 and "Punto banco" not in out and "wrong-banker-6" in out.splitlines()[1]


def test_a_random_seed_is_the_one_in_the_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    value = _json(capsys, "simulate", "--rounds", "200")
    provenance = value["provenance"]
    assert isinstance(provenance, dict) and isinstance(provenance["seed"], int)
    assert provenance["seed"] == value["seed"]
    code, out, _ = run(capsys, "deal")
    seeds = set(re.findall(r"seed (\d+)", out)) | set(re.findall(r"^seed +(\d+)$", out, re.M))
    assert code == 0 and len(seeds) == 1


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex", "html"])
def test_every_format_heads_with_the_provenance(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "simulate", "--rounds", "300", "--seed", "12", "--format", fmt)
    assert code == 0
    head = out[:4000]
    for part in ("exact-odds", "simulate", "standard", STANDARD["key"], "8 decks", "cut card 16", "12"):
        assert part in head, part
    if fmt == "csv":
        lines = out.splitlines()
        assert lines[0] == f"# program: exact-odds {__version__}, command simulate"
        assert lines[5] == "# seed: 12"


def test_the_text_stories_carry_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--seed", "7")
    assert code == 0 and out.startswith("program ") and "\nseed       7\n" in out
    code, out, _ = run(capsys, "roads", "--seed", "2")
    assert code == 0 and out.startswith("program ") and STANDARD["key"] in out


def test_batch_heads_its_lines(capsys: pytest.CaptureFixture[str]) -> None:
    src = str(EXAMPLES / "compositions.csv")
    code, out, _ = run(capsys, "batch", "--input", src)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("# program: exact-odds") and lines[1].startswith("# tableau: standard")
    assert next(line for line in lines if not line.startswith("#")).startswith("line,banker,player,tie")
    code, out, _ = run(capsys, "batch", "--input", src, "--format", "jsonl")
    first, second = (json.loads(line) for line in out.splitlines()[:2])
    assert list(first) == ["provenance"] and list(first["provenance"]) == KEYS and "line" in second


def test_outputs_are_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("json", "html", "latex"):
        first = run(capsys, "session", "--bet", "tie", "--hands", "4", "--sessions", "20", "--seed", "1",
                    "--format", fmt)
        assert first == run(capsys, "session", "--bet", "tie", "--hands", "4", "--sessions", "20", "--seed", "1",
                            "--format", fmt)


@pytest.mark.parametrize("fmt", ["html", "latex", "csv", "json"])
def test_output_files_in_every_format(capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> None:
    target = tmp_path / f"odds.{fmt}"
    code, out, err = run(capsys, "odds", "--format", fmt, "--output", str(target))
    assert (code, out, err) == (0, "", f"exact-odds: wrote {str(target)!r}\n")
    assert target.read_text(encoding="utf-8") == run(capsys, "odds", "--format", fmt)[1]
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_a_list_is_wrapped() -> None:
    provenance = Provenance("x", version="1")
    assert with_provenance([1, 2], provenance) == {"provenance": provenance.as_json(), "results": [1, 2]}
    assert list(with_provenance({"a": 1}, provenance)) == ["provenance", "a"]
    assert provenance.as_json() == {"program": "exact-odds", "version": "1", "command": "x", "tableau": None,
                                    "configuration": None, "shoe": None, "procedure": None, "seed": None}
