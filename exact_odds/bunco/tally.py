"""A host's tally of a night checked: what the rules make impossible, and frequencies far from the exact ones.

CSV with a header, one line per round and player (:data:`COLUMNS`, ``table`` optional); the checks are
described in docs/bunco.md.

>>> sheet = read_tally(["round,player,wins,losses,buncos,mini_buncos,points", "1,Ann,1,1,0,0,3"])
>>> result = verify_tally(sheet, COMMON_PARTY)
>>> result.check("rounds").violations[0].message
'line 2: Ann has 1 win and 1 loss in round 1; a player plays one game a round'
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

from exact_odds.bunco.dice import BuncoError, check_alpha
from exact_odds.bunco.night import exact_tables
from exact_odds.bunco.party import COMMON_PARTY, Party
from exact_odds.bunco.verify import MAX_VIOLATIONS
from exact_odds.core.verdict import Check, Tally, Verdict, Violation, deterministic_check, judge, named_check, overall
from exact_odds.inputs.reading import user_lines
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.validate import BUNCO_TALLY

COLUMNS = ("round", "table", "player", "wins", "losses", "buncos", "mini_buncos", "points")
"""The columns of a tally sheet (``table`` optional)."""


class TallyError(BuncoError):
    """A tally sheet that cannot be read; the message names the line."""


@dataclass(frozen=True, slots=True)
class Row:
    """One player's round on the sheet (``table`` None without a table column)."""

    line: int
    round: int
    table: int | None
    player: str
    wins: int
    losses: int
    buncos: int
    minis: int
    points: int


@dataclass(frozen=True, slots=True)
class TallySheet:
    """The rows of a tally sheet and where they came from."""

    source: str
    rows: tuple[Row, ...]
    has_tables: bool


def _header(names: list[str]) -> list[str]:
    names = [n.strip().lower() for n in names]
    for name in names:
        if name not in COLUMNS:
            raise TallyError("line 1: " + unknown_name("column", name, COLUMNS, f" (columns: {', '.join(COLUMNS)})"))
    missing = [c for c in COLUMNS if c != "table" and c not in names]
    if missing:
        raise TallyError(f"line 1: the tally sheet has no column {', '.join(missing)}")
    if len(set(names)) < len(names):
        raise TallyError("line 1: a column is named twice")
    return names


def _row(fields: dict[str, str], line: int) -> Row:
    columns = [c for c in COLUMNS if c not in ("player", "table")] + ["table"]  # the table read last
    number = {c: BUNCO_TALLY.parse(fields[c], f"line {line}: {c}", TallyError) for c in columns if c in fields}
    table = number.get("table")
    player = fields["player"].strip()
    if not player:
        raise TallyError(f"line {line}: no player named")
    if number["round"] < 1 or (table is not None and table < 1):
        raise TallyError(f"line {line}: rounds and tables are numbered from 1")
    return Row(line, number["round"], table, player, number["wins"], number["losses"], number["buncos"],
               number["mini_buncos"], number["points"])


def read_tally(lines: Iterable[str], *, source: str = "tally") -> TallySheet:
    """A tally sheet from its lines of CSV (the header first)."""
    reader: Iterator[list[str]] = csv.reader(line for line in lines)
    try:
        names = _header(next(reader))
    except StopIteration:
        raise TallyError(f"{source}: the tally sheet is empty") from None
    except csv.Error as err:
        raise TallyError(f"line 1: not CSV: {err}") from None
    rows = []
    try:
        for number, fields in enumerate(reader, 2):
            if not any(f.strip() for f in fields):
                continue
            if len(fields) != len(names):
                raise TallyError(f"line {number}: {len(fields)} fields, the header names {len(names)}")
            rows.append(_row(dict(zip(names, fields, strict=True)), number))
    except csv.Error as err:
        raise TallyError(f"line {reader.line_num}: not CSV: {err}") from None  # type: ignore[attr-defined]
    if not rows:
        raise TallyError(f"{source}: the tally sheet has no rows")
    return TallySheet(source, tuple(rows), "table" in names)


def load_tally(path: str | Path) -> TallySheet:
    """Read a tally sheet from a CSV file (``-``: standard input)."""
    return read_tally(user_lines(path, "tally", TallyError, newline=""), source=str(path))


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('s') else 's'}"


def rounds_check(sheet: TallySheet, keep: int) -> Check:
    """One game a round for every player; every round the same players, half of them winning."""
    bad: list[Violation] = []
    seen: dict[int, dict[str, Row]] = defaultdict(dict)
    for i, r in enumerate(sheet.rows):
        if r.wins + r.losses != 1:
            played = f"{_plural(r.wins, 'win')} and {_plural(r.losses, 'loss')}"
            bad.append(Violation(i, r.line, None, r.round, f"line {r.line}: {r.player} has {played} in round "
                                 f"{r.round}; a player plays one game a round"))
        if r.player in seen[r.round]:
            bad.append(Violation(i, r.line, None, r.round, f"line {r.line}: {r.player} is on the sheet twice in round "
                                 f"{r.round} (line {seen[r.round][r.player].line})"))
        seen[r.round][r.player] = r
    players = set(seen[min(seen)])
    for number, rows in sorted(seen.items()):
        first = next(iter(rows.values()))
        if set(rows) != players:
            bad.append(Violation(0, first.line, None, number, f"round {number} has other players than round "
                                 f"{min(seen)}"))
        wins = sum(r.wins for r in rows.values())
        if 2 * wins != len(rows):
            bad.append(Violation(0, first.line, None, number, f"round {number}: {wins} of {len(rows)} players won; "
                                 "half of them win every round"))
    return deterministic_check("rounds", len(sheet.rows), bad[:keep], len(bad), unit="rows")


def points_check(sheet: TallySheet, party: Party, keep: int) -> Check:
    """Points at least the Buncos' and mini Buncos', the rest made of matching dice."""
    rules = party.scoring
    bad = []
    for i, r in enumerate(sheet.rows):
        rest = r.points - r.buncos * rules.bunco - r.minis * rules.mini
        if rest < 0 or (rest % rules.per_die if rules.per_die else rest):
            bad.append(Violation(i, r.line, None, r.round, f"line {r.line}: {r.player} has {r.points} points with "
                                 f"{r.buncos} Buncos and {r.minis} mini Buncos; under {rules.name} scoring they "
                                 f"leave {rest}, not a whole number of dice at {rules.per_die} a die"))
    return deterministic_check("points", len(sheet.rows), bad[:keep], len(bad), unit="rows")


def _table_rules(rows: list[Row], party: Party, head: bool) -> list[str]:
    """What is wrong with one table's round: its size, its winners, and (head) the bell."""
    number, table = rows[0].round, rows[0].table
    where = f"round {number}, table {table}"
    won = [r for r in rows if r.wins]
    lost = [r for r in rows if r.losses]
    if len(rows) != party.seats or 2 * len(won) != len(rows):
        return [f"{where}: {len(rows)} players, {len(won)} winners; a table seats {party.seats}, half of them win"]
    ahead, behind = sum(r.points for r in won), sum(r.points for r in lost)
    if not head:
        return [] if ahead >= behind else [f"{where}: the winners have {ahead} points, the losers {behind}"]
    out = [f"line {r.line}: {r.player} lost at the head table in round {number} with a Bunco: "
           f"{party.scoring.bunco} points reach the target {party.target} and ring the bell"
           for r in lost if r.buncos and party.scoring.bunco >= party.target]
    if behind >= party.target:
        out.append(f"{where}: the losers have {behind} points; the bell rings at {party.target}")
    if ahead < party.target:
        out.append(f"{where}: the winners have {ahead} points, short of the target {party.target}")
    return out


def tables_check(sheet: TallySheet, party: Party, keep: int) -> Check:
    """Each table of each round: its players, its winners and, at the head table, the bell."""
    if not sheet.has_tables:
        return deterministic_check("tables", 0, [], 0, ["The sheet has no table column."], unit="tables")
    by_table: dict[tuple[int, int], list[Row]] = defaultdict(list)
    for r in sheet.rows:
        by_table[(r.round, r.table or 0)].append(r)
    bad = [Violation(0, rows[0].line, None, key[0], message) for key, rows in sorted(by_table.items())
           for message in _table_rules(rows, party, key[1] == 1)]
    return deterministic_check("tables", len(by_table), bad[:keep], len(bad), unit="tables")


def _destination(row: Row, tables: int) -> int:
    table = row.table or 1
    if table == 1:
        return 1 if row.wins else tables
    return table - 1 if row.wins else table


def movement_check(sheet: TallySheet, party: Party, keep: int) -> Check:
    """Every player's table in the next round, as the standard movement says."""
    if not sheet.has_tables or party.movement != "standard":
        why = "The sheet has no table column." if not sheet.has_tables else "The party's players keep their seats."
        return deterministic_check("movement", 0, [], 0, [why], unit="moves")
    at = {(r.round, r.player): r for r in sheet.rows}
    tables = max(r.table or 1 for r in sheet.rows)
    bad, moves = [], 0
    for r in sheet.rows:
        after = at.get((r.round + 1, r.player))
        if after is None:
            continue
        moves += 1
        should = _destination(r, tables)
        if after.table != should:
            bad.append(Violation(0, after.line, None, after.round, f"line {after.line}: {r.player} "
                                 f"{'won' if r.wins else 'lost'} at table {r.table} in round {r.round} and sits at "
                                 f"table {after.table} in round {after.round}, not table {should}"))
    return deterministic_check("movement", moves, bad[:keep], len(bad), unit="moves")


def counts_check(sheet: TallySheet, party: Party) -> Check:
    """The night's Buncos, mini Buncos and points against their exact means: a round's total of a roll's figure
    ``x`` over ``k`` tables, each rolling ``T`` times, has mean ``k E[T] E[x]`` and variance
    ``k E[T] Var(x) + k² E[x]² Var(T)``, judged as normal (two-sided)."""
    race, _ = exact_tables(party.dice, party.scoring, party.target, party.bunco_ends_turn, others=False)
    rounds = len({r.round for r in sheet.rows})
    tables = max(1, len({(r.round, r.player) for r in sheet.rows}) // max(1, rounds) // party.seats)
    mean_t = float(race.mean_rolls)
    var_t = float(race.rolls.expectation(lambda t: t * t)) - float(race.rolls.expectation(lambda t: t)) ** 2
    p_bunco, p_mini = 1 / party.dice.ways, (party.dice.sides - 1) / party.dice.ways
    mu = float(race.steps.expectation(lambda s: s[0]))
    var_x = float(race.steps.variance(lambda s: s[0]))
    tallies = []
    for name, seen, m, v in (("Buncos", sum(r.buncos for r in sheet.rows), p_bunco, p_bunco * (1 - p_bunco)),
                             ("mini Buncos", sum(r.minis for r in sheet.rows), p_mini, p_mini * (1 - p_mini)),
                             ("points", sum(r.points for r in sheet.rows), mu, var_x)):
        expected = rounds * tables * mean_t * m
        variance = rounds * (tables * mean_t * v + tables * tables * m * m * var_t)
        tallies.append(Tally(name, seen, expected, variance))
    p = min(1.0, len(tallies) * min(2 * NormalDist().cdf(-abs(t.z)) for t in tallies))
    notes = (f"Expected for {rounds} rounds at {tables} tables, each rolling E[T] = {mean_t:.4f} times a round "
             f"(standard deviation of T {math.sqrt(var_t):.4f}); each figure's two-sided normal p-value times 3.",)
    return Check("counts", "SKIP", len(sheet.rows), "rows", p_value=p, tallies=tuple(tallies), notes=notes)


@dataclass(frozen=True, slots=True)
class TallyVerification:
    """The checks of a tally sheet against a party's rules and exact figures."""

    source: str
    party: Party
    rows: int
    alpha: float
    checks: tuple[Check, ...]

    @property
    def verdict(self) -> Verdict:
        """``FAIL`` if any check failed, else ``PASS``."""
        return overall(self.checks)

    def check(self, name: str) -> Check:
        """The check called ``name``."""
        return named_check(self.checks, name)


def verify_tally(sheet: TallySheet, party: Party = COMMON_PARTY, *, alpha: float = 0.001,
                 max_violations: int = MAX_VIOLATIONS) -> TallyVerification:
    """Check a tally sheet against ``party`` (docs/bunco.md)."""
    check_alpha(alpha)
    keep = max_violations
    checks: Sequence[Check] = (rounds_check(sheet, keep), points_check(sheet, party, keep),
                               tables_check(sheet, party, keep), movement_check(sheet, party, keep),
                               counts_check(sheet, party))
    return TallyVerification(sheet.source, party, len(sheet.rows), alpha, judge(checks, alpha))
