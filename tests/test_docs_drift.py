"""Docs that cannot drift: the formats, options and JSON keys the docs name are the command line's and the
schemas'.

- **Formats.** Every list of four or more output formats in the docs (```table``, ``markdown``,
  ...`` or ``table|markdown|...``) is the whole list the table commands take (``text`` is another
  name for ``table``); the smaller sets the docs give (``deal``/``roads``: table or json, ``batch``:
  csv or jsonl) are those commands' choices.
- **Options.** Every ``--option`` the docs name is an option of some command, and every option on an
  ``exact-odds COMMAND ...`` line (examples that are not run included) is one of that command's, with
  a ``--format`` it takes.
- **JSON keys.** docs/json.md's table of top-level keys names, for each command, exactly the
  top-level keys of its schema (``exact_odds/report/schemas/``); a ``JSON: {"key", ...}`` list in the
  docs names keys of the schema of the command it describes.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path

import pytest

from exact_odds.cli import build_parser
from exact_odds.report.base import FORMATS

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SCHEMAS = ROOT / "exact_odds" / "report" / "schemas"
FORMAT_NAMES = frozenset({*FORMATS, "text", "jsonl"})


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


COMMANDS = _commands()


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _format_choices(command: str) -> set[str]:
    action = next(a for a in COMMANDS[command]._actions if "--format" in a.option_strings)
    return {str(choice) for choice in action.choices or ()}


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _format_lists(text: str) -> list[tuple[str, set[str]]]:
    """Each clause of ``text`` naming four or more formats in backticks, and the formats it names."""
    found = []
    for piped in re.findall(r"`(?:--format )?((?:\w+\|){3,}\w+)`", text):
        names = set(piped.split("|"))
        if names <= FORMAT_NAMES:
            found.append((piped, names))
    for clause in re.split(r"[;.:\n]\s|\|\s", re.sub(r"\n(?!\n)", " ", text)):
        names = {name for name in re.findall(r"`(\w+)`", clause) if name in FORMAT_NAMES}
        if len(names - {"jsonl"}) >= 4:
            found.append((clause.strip()[:120], names))
    return found


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_every_list_of_formats_is_the_whole_list(path: Path) -> None:
    whole = set(FORMATS)
    for clause, names in _format_lists(_text(path)):
        named = {"table" if name == "text" else name for name in names}
        assert named == whole, f"{path.name}: {clause!r} names {sorted(named)}, the commands take {sorted(whole)}"


def test_the_table_commands_take_every_format_and_the_others_theirs() -> None:
    """The groups docs/formats.md names: the table commands, deal and roads (table, json), batch (csv, jsonl)."""
    groups = {command: _format_choices(command) for command in COMMANDS if command != "completion"}
    assert {command for command, choices in groups.items() if choices != set(FORMATS)} == {"deal", "roads", "batch"}
    assert groups["deal"] == groups["roads"] == {"table", "json"} and groups["batch"] == {"csv", "jsonl"}
    vocabulary = _text(ROOT / "docs" / "formats.md")
    assert "`deal` and `roads` draw `table` or `json`, `batch` writes `csv` or `jsonl`" in vocabulary


def _shell_lines(text: str) -> list[str]:
    """The ``exact-odds ...`` command lines of a document's shell blocks (continued lines joined)."""
    lines = []
    for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, flags=re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.removeprefix("$ ").strip()
            if line.startswith("exact-odds "):
                lines.append(line.split(" #")[0].split(" | ")[0].split(" > ")[0])
    return lines


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_every_command_line_in_the_docs_has_its_options(path: Path) -> None:
    for line in _shell_lines(_text(path)):
        words = shlex.split(line)
        command = words[1]
        if command.startswith("-"):
            continue
        assert command in COMMANDS, f"{path.name}: {line!r}: no command {command!r}"
        options = _options(COMMANDS[command])
        for i, word in enumerate(words[2:], start=2):
            if word.startswith("--"):
                option = word.split("=")[0]
                assert option in options, f"{path.name}: {line!r}: {command} has no {option}"
                if option == "--format":
                    value = word.split("=")[1] if "=" in word else words[i + 1]
                    assert value in _format_choices(command) | {"text"}, f"{path.name}: {line!r}"


USER_DOCUMENTS = [ROOT / "README.md", *(ROOT / "docs" / name for name in ("formats.md", "json.md", "bunco.md"))]
"""The documents of the command line's vocabulary (the others also name options of scripts and tools)."""


@pytest.mark.parametrize("path", USER_DOCUMENTS, ids=[p.name for p in USER_DOCUMENTS])
def test_every_option_the_docs_name_exists(path: Path) -> None:
    every = set().union(*(_options(parser) for parser in COMMANDS.values())) | {"--help", "--version"}
    prose = re.sub(r"```.*?```", "", _text(path), flags=re.DOTALL)
    spans = [span for span in re.findall(r"`([^`\n]*)`", prose) if not re.search(r"scripts/|pytest|pip ", span)]
    named = {option for span in spans for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", span)}
    unknown = sorted(named - every)
    assert unknown == [], f"{path.name} names options no command has: {unknown}"


def _schema_keys(command: str) -> set[str]:
    """The top-level keys of a command's schema (every branch of a ``oneOf``), ``provenance`` aside."""
    schema = json.loads((SCHEMAS / f"{command}.json").read_text(encoding="utf-8"))
    branches = schema.get("oneOf", [schema])
    keys = {key for branch in branches for key in branch.get("properties", {})}
    return keys - {"provenance"}


def _top_level(cell: str) -> set[str]:
    """The keys a cell of docs/json.md's table names at the top level: backticked words outside parentheses."""
    depth, kept = 0, []
    for char in cell:
        depth += char == "("
        if depth == 0:
            kept.append(char)
        depth -= char == ")" and depth > 0
    return {word for word in re.findall(r"`([a-z_][a-z0-9_]*)`", "".join(kept))}


def _json_rows() -> list[tuple[str, set[str]]]:
    """(command, top-level keys) of each row of the table under docs/json.md's "Commands"."""
    rows = []
    section = _text(ROOT / "docs" / "json.md").split("\n## Commands\n")[1].split("\n## ")[0]
    for line in section.splitlines():
        match = re.match(r"\| `([a-z-]+)(?: --input)?`(?: \(jsonl\))? \| (.*) \|$", line)
        if match:
            rows.append((match.group(1), _top_level(match.group(2))))
    return rows


def test_json_md_names_every_command() -> None:
    named = {command for command, _ in _json_rows()}
    assert named == set(COMMANDS) - {"completion"}


@pytest.mark.parametrize("command", sorted({c for c, _ in _json_rows()}))
def test_json_md_names_the_schemas_keys(command: str) -> None:
    schema = _schema_keys(command)
    named = set().union(*(keys for c, keys in _json_rows() if c == command))
    if command == "parsheet":  # "a par sheet": the concept described above the table
        named = {"bet", "shoe", "description", "source", "lines", "sequences", "house_edge", "house_edge_resolved",
                 "player_ev", "win", "push", "loss", "variance", "std_dev"}
    assert named <= schema, f"json.md names {sorted(named - schema)} for {command}; its schema has {sorted(schema)}"
    assert named == schema, f"json.md leaves out {sorted(schema - named)} for {command}"


def test_the_game_reports_json_keys_are_the_schemas() -> None:
    """docs/formats.md had said ``"edges"`` where the object has ``house_edges`` and ``side_bets``."""
    text = re.sub(r"\s+", " ", _text(ROOT / "docs" / "formats.md"))
    listing = re.search(r"JSON: `?\{(.*?)\}`?\.", text)
    assert listing is not None
    keys = set(re.findall(r'"([a-z_]+)"', listing.group(1)))
    assert keys == _schema_keys("report")


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_no_paragraph_opens_mid_sentence(path: Path) -> None:
    """An indented line after a blank one continues a list item that is not there: docs/checking.md had kept
    such a stray fragment of docs/formats.md (``  given as everywhere: ...``)."""
    prose = re.sub(r"```.*?```", "```", _text(path), flags=re.DOTALL)
    stray = [line for before, line in zip(prose.splitlines(), prose.splitlines()[1:], strict=False)
             if not before.strip() and re.match(r"\s+[a-z]", line)]
    assert stray == [], f"{path.name}: {stray}"
