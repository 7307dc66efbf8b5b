"""Every command's JSON output against its JSON Schema (``exact_odds/report/schemas/<command>.json``, draft 2020-12).

Each command runs with several sets of arguments (a custom tableau, a game file, the infinite
deck, simulations with fixed seeds) and its output must validate; the schemas forbid keys they
do not name, so a renamed key fails here. The shared concepts (shoe, procedure, pay line, a
bet's figures, checks...) live in ``common.json`` and are referenced from each command's schema.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from conftest import run

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

EXAMPLES = Path(__file__).parent.parent / "examples"
WRONG = str(EXAMPLES / "wrong_banker_6.toml")
SIDE = str(EXAMPLES / "side_bets.toml")
CASINO = str(EXAMPLES / "games" / "my-casino.toml")
EZ = str(EXAMPLES / "games" / "ez.toml")

PROVENANCE_REQUIRED = True
"""Whether every output must begin with its ``provenance`` object, as the schemas say. While it is
``False`` the test accepts outputs without one (the schemas' ``required`` lists are relaxed)."""

CASES: list[tuple[str, tuple[str, ...]]] = [
    ("odds", ("odds", "--decks", "1")),
    ("odds", ("odds", "--decks", "inf")),
    ("odds", ("odds", "--rules", WRONG, "--decks", "2")),
    ("odds", ("odds", "--game", CASINO)),
    ("odds", ("odds", "--decks", "1", "--dealt", "P: 9h 4c B: Kd")),
    ("odds", ("odds", "--decks", "inf", "--dealt", "P: 9 4 B: K")),
    ("odds", ("odds", "--decks", "1", "--known", "1=7")),
    ("edges", ("edges", "--decks", "1")),
    ("edges", ("edges", "--decks", "inf", "--config", "ez")),
    ("edges", ("edges", "--game", CASINO, "--rules", WRONG)),
    ("parsheet", ("parsheet", "--bet", "banker", "--decks", "1")),
    ("parsheet", ("parsheet", "--bet", "tie", "--decks", "inf")),
    ("parsheet", ("parsheet", "--bet", "my-dragon-7", "--bets", SIDE, "--rules", WRONG)),
    ("symbolic", ("symbolic", "--decks", "1", "--config", "super-6")),
    ("symbolic", ("symbolic", "--game", EZ)),
    ("report", ("report", "--decks", "1")),
    ("report", ("report", "--decks", "1", "--rules", WRONG, "--config", "tie-9")),
    ("report", ("report", "--game", CASINO, "--decks", "1")),
    ("report", ("report", "--game", EZ, "--decks", "1", "--eor")),
    ("sidebets", ("sidebets", "--decks", "1")),
    ("sidebets", ("sidebets", "--decks", "inf", "--bet", "dragon-7")),
    ("sidebets", ("sidebets", "--game", EZ, "--bets", SIDE, "--rules", WRONG)),
    ("sidebets", ("sidebets", "--decks", "1", "--remove", "5")),
    ("eor", ("eor", "--decks", "1", "--bet", "banker,tie")),
    ("eor", ("eor", "--game", EZ, "--decks", "2")),
    ("study", ("study", "--shoes", "2", "--seed", "1", "--decks", "1", "--bet", "banker,tie")),
    ("study", ("study", "--shoes", "2", "--seed", "2", "--decks", "1", "--rules", WRONG, "--count",
               "jacobson-dragon-7", "--edge-sort", "6|7|8|9", "--bet", "banker,player", "-q")),
    ("study", ("study", "--input", str(EXAMPLES / "shoe_record.txt"), "--bet", "banker,tie")),
    ("study", ("study", "--game", CASINO, "--shoes", "1", "--seed", "3", "--decks", "1", "-q")),
    ("simulate", ("simulate", "--coups", "300", "--seed", "1")),
    ("simulate", ("simulate", "--coups", "300", "--seed", "1", "--verify", "--rules", WRONG)),
    ("simulate", ("simulate", "--fresh", "--coups", "200", "--seed", "2", "--verify", "--bet", "banker,dragon-7",
                  "--decks", "1")),
    ("simulate", ("simulate", "--game", CASINO, "--shoes", "1", "--seed", "3", "--verify", "-q")),
    ("session", ("session", "--bet", "banker", "--hands", "5", "--sessions", "50", "--bankroll", "3", "--seed", "1")),
    ("session", ("session", "--bet", "tie", "--hands", "3", "--sessions", "0", "--distribution")),
    ("session", ("session", "--game", CASINO, "--bet", "banker", "--hands", "4", "--sessions", "20", "--seed", "2",
                 "--rules", WRONG, "-q")),
    ("deal", ("deal", "--seed", "7", "--decks", "1")),
    ("deal", ("deal", "--seed", "3", "--coup", "2", "--rules", WRONG, "--no-burn")),
    ("deal", ("deal", "--game", CASINO, "--seed", "1")),
    ("roads", ("roads", "--seed", "2", "--decks", "1")),
    ("roads", ("roads", "--input", str(EXAMPLES / "results.txt"))),
    ("bunco", ("bunco",)),
    ("bunco", ("bunco", "--simulate", "200", "--seed", "1", "--rounds", "2", "--scoring", "article")),
    ("bunco", ("bunco", "--party", str(EXAMPLES / "bunco_party.toml"))),
    ("bunco", ("bunco", "--night", "200", "--seed", "1")),
    ("bunco", ("bunco", "--tally", str(EXAMPLES / "bunco_tally.csv"))),
    ("count", ("count", "--count", "jacobson-dragon-7", "--shoes", "2", "--seed", "1", "--decks", "1")),
    ("count", ("count", "--count", "jacobson-dragon-7", "--count", "wizard-panda-8", "--shoes", "2", "--seed", "1",
               "--game", CASINO, "--rules", WRONG)),
    ("advantage", ("advantage", "--decks", "1", "--bet", "banker,tie")),
    ("advantage", ("advantage", "--decks", "1", "--position", "1,2", "--groups", "high=6|7|8|9", "--always-bet")),
    ("advantage", ("advantage", "--game", CASINO, "--decks", "1", "--known", "2=K", "--rules", WRONG)),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "A1")),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "B3", "--decks", "1")),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "B1", "--decks", "2", "--rules", WRONG)),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "B2", "--shoe", "A=4,2=4,3=4,5=2,6=3,9=1,T=4", "--rules",
                       str(EXAMPLES / "chemin-de-fer" / "house.toml"))),
    ("chemin-de-fer", ("chemin-de-fer", "--decks-table", "1")),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "B2", "--decks", "1", "--commission", "1/20")),
    ("chemin-de-fer", ("chemin-de-fer", "--model", "A2", "--commission", "0")),
    ("chemin-de-fer", ("chemin-de-fer", "--banque", "--share", "1/3")),
    ("chemin-de-fer", ("chemin-de-fer", "--decks", "1", "--shoes", "1", "--seed", "3")),
    ("chemin-de-fer", ("chemin-de-fer", "--decks", "1", "--input", str(EXAMPLES / "chemin-de-fer" / "one-deck.txt"),
                       "--model", "B2")),
    ("verify", ("verify", str(EXAMPLES / "coups_log.csv"))),
    ("verify", ("verify", "--counts", "banker=45,player=44,tie=11", "--rules", WRONG)),
    ("verify", ("verify", "--counts", "banker=450,player=440,tie=110", "--shoes", "14", "--seed", "4",
                "--reference-shoes", "20", "--game", CASINO)),
]

SCHEMA_NAMES = sorted({name for name, _ in CASES} | {"batch"})


def _load(name: str) -> dict[str, Any]:
    text = resources.files("exact_odds.report").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _relaxed(schema: Any) -> Any:
    """The schema with ``provenance`` taken out of every ``required`` list (see :data:`PROVENANCE_REQUIRED`)."""
    if isinstance(schema, dict):
        out = {k: _relaxed(v) for k, v in schema.items()}
        if isinstance(out.get("required"), list):
            out["required"] = [k for k in out["required"] if k != "provenance"]
        return out
    if isinstance(schema, list):
        return [_relaxed(v) for v in schema]
    return schema


def _schema(name: str) -> dict[str, Any]:
    schema = _load(name)
    return schema if PROVENANCE_REQUIRED else _relaxed(schema)


def _validator(name: str) -> Any:
    common = _load("common")
    registry = referencing.Registry().with_resource(common["$id"], referencing.Resource.from_contents(common))
    schema = _schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())


def _errors(name: str, instance: object) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in _validator(name).iter_errors(instance)][:5]


def _json(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> Any:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err  # 1: a check FAILed (a wrong tableau), the output is still whole
    return json.loads(out)


@pytest.mark.parametrize(("name", "argv"), CASES, ids=[" ".join(argv) for _, argv in CASES])
def test_output_matches_its_schema(capsys: pytest.CaptureFixture[str], name: str, argv: tuple[str, ...]) -> None:
    data = _json(capsys, argv)
    assert _errors(name, data) == []
    if PROVENANCE_REQUIRED:
        assert next(iter(data)) == "provenance"


def test_batch_lines_match_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ((), ("--bet", "banker,tie,dragon-7"), ("--rules", WRONG, "--bet", "banker,dragon-7")):
        code, out, err = run(capsys, "batch", "--input", str(EXAMPLES / "compositions.csv"), *extra, "--format",
                             "jsonl")
        assert code == 0 and out, err
        first, *lines = out.splitlines()
        assert list(json.loads(first)) == ["provenance"] and lines
        for line in lines:
            assert _errors("batch", json.loads(line)) == []


def test_bunco_verify_matches_the_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "rolls.csv"
    code, _, err = run(capsys, "bunco", "--simulate", "300", "--seed", "5", "--log", str(log))
    assert code == 0 and log.exists(), err
    data = _json(capsys, ("bunco", "--verify", str(log)))
    assert _errors("bunco", data) == []


def _renamed(data: Any) -> Iterator[Any]:
    """Copies of ``data`` with one key renamed (each object key in turn, the first few levels deep)."""
    def paths(value: Any, path: tuple[Any, ...], depth: int) -> Iterator[tuple[Any, ...]]:
        if depth > 3:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                yield (*path, k)
                yield from paths(v, (*path, k), depth + 1)
        elif isinstance(value, list) and value:
            yield from paths(value[0], (*path, 0), depth + 1)

    for path in paths(data, (), 0):
        copy_ = copy.deepcopy(data)
        parent = copy_
        for step in path[:-1]:
            parent = parent[step]
        parent[f"{path[-1]} renamed"] = parent.pop(path[-1])
        yield copy_


@pytest.mark.parametrize(("name", "argv"), [
    ("odds", ("odds", "--decks", "1")), ("edges", ("edges", "--decks", "1", "--config", "ez")),
    ("session", ("session", "--bet", "banker", "--hands", "3", "--sessions", "20", "--bankroll", "2", "--seed", "1")),
    ("simulate", ("simulate", "--coups", "100", "--seed", "1", "--verify")),
    ("study", ("study", "--shoes", "1", "--seed", "1", "--decks", "1", "--bet", "banker")),
    ("sidebets", ("sidebets", "--decks", "1", "--bet", "dragon-7")),
    ("roads", ("roads", "--seed", "2", "--decks", "1")),
], ids=lambda x: x if isinstance(x, str) else None)
def test_a_renamed_key_fails(capsys: pytest.CaptureFixture[str], name: str, argv: tuple[str, ...]) -> None:
    """The schemas are strict: renaming any key of an output (a display label, a space in a name) fails."""
    data = _json(capsys, argv)
    validator = _validator(name)
    assert validator.is_valid(data)
    passed = [json.dumps(copy_)[:200] for copy_ in _renamed(data) if validator.is_valid(copy_)]
    assert passed == []


@pytest.mark.parametrize("name", [*SCHEMA_NAMES, "common"])
def test_every_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = _load(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://exact-odds.invalid/schemas/{name}.json"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_command_with_json_output_has_a_schema() -> None:
    import argparse

    from exact_odds.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(commands) - {"completion"} == set(SCHEMA_NAMES)  # completion prints a shell script
    folder = resources.files("exact_odds.report").joinpath("schemas")
    shipped = {path.name.removesuffix(".json") for path in folder.iterdir()}
    assert shipped == {*SCHEMA_NAMES, "common"}


def test_every_schema_requires_the_provenance_first() -> None:
    """The schemas describe the finished output: ``provenance`` first and required in each top-level object."""
    for name in SCHEMA_NAMES:
        if name == "batch":
            continue  # one object a line
        schema = _load(name)
        for variant in schema.get("oneOf", [schema]):
            assert next(iter(variant["properties"])) == "provenance", name
            assert "provenance" in variant["required"], name
