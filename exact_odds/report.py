"""Turning exact results into text: tables, number formats, JSON and file output.

This is the only module that imports tabulate (lazily, so the command line starts fast).
Numbers are formatted here and nowhere else, from exact values: a decimal or percent is
rounded from the :class:`~fractions.Fraction` itself, never through a float, so the
printed digits are correctly rounded (half away from zero).

Formats: ``table`` (plain text), ``markdown``, ``csv``, ``json``, ``latex``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from exact_odds.errors import InputError

if TYPE_CHECKING:  # imported lazily at run time: the command line starts with this module
    from collections.abc import Callable
    from typing import Any, TextIO

    from exact_odds import bunco
    from exact_odds.bets.main import Configuration
    from exact_odds.conditional import Dealt, Step
    from exact_odds.dist import Dist
    from exact_odds.edges import ParSheet
    from exact_odds.engine import Coup, Winner
    from exact_odds.roads import Roads
    from exact_odds.sessions import OneHand, Ruin, SessionDist
    from exact_odds.shoe import Card, Shoe
    from exact_odds.simulate import ShoeCoup, SimulatedSessions, Simulation, Verification
    from exact_odds.symbolic import Summary
    from exact_odds.tableau import Tableau

FORMATS = ("table", "markdown", "csv", "json", "latex")
Cell = str | int | Fraction


@dataclass(frozen=True)
class Table:
    """A titled table; cells are strings or exact numbers (rendered by :func:`cell_text`)."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    notes: Sequence[str] = field(default=())


def fraction_text(x: Fraction | int) -> str:
    """A reduced fraction as ``"num/den"`` (an integer as ``"n"``)."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _round_half_away(x: Fraction, digits: int) -> tuple[bool, int]:
    scaled = abs(x) * 10**digits
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r >= scaled.denominator:
        q += 1
    return x < 0, q


def decimal_text(x: Fraction | int, digits: int = 6) -> str:
    """``x`` rounded to ``digits`` decimal places, computed exactly."""
    negative, q = _round_half_away(Fraction(x), digits)
    whole, frac = divmod(q, 10**digits)
    text = f"{whole}.{frac:0{digits}d}" if digits else str(whole)
    return f"-{text}" if negative and q else text


def percent_text(x: Fraction | int, digits: int = 4) -> str:
    """``x`` as a percentage with ``digits`` decimals, e.g. ``"1.0579%"``."""
    return decimal_text(Fraction(x) * 100, digits) + "%"


def scientific_text(x: Fraction | int, digits: int = 4) -> str:
    """``x`` in scientific notation with ``digits`` mantissa decimals, rounded exactly: ``"1.6582e-08"``."""
    f = Fraction(x)
    if not f:
        return decimal_text(f, digits) + "e+00"
    a = abs(f)
    exponent = len(str(a.numerator)) - len(str(a.denominator))
    while Fraction(10) ** exponent > a:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= a:
        exponent += 1
    mantissa = decimal_text(a / Fraction(10) ** exponent, digits)
    if mantissa.startswith("10"):  # 9.99995 rounded up to 10.0000
        exponent += 1
        mantissa = decimal_text(a / Fraction(10) ** exponent, digits)
    return f"{'-' if f < 0 else ''}{mantissa}e{exponent:+03d}"


def grouped(n: int) -> str:
    """An integer with thousands separators: ``1,234,567``."""
    return f"{n:,}"


def cell_text(value: Cell) -> str:
    """The text of one cell: integers grouped, fractions reduced, strings as they are."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, int):
        return grouped(value)
    return value


def _plain_rows(table: Table) -> list[list[str]]:
    return [[cell_text(c) for c in row] for row in table.rows]


def _tabulate(table: Table, tablefmt: str) -> str:
    from tabulate import tabulate  # lazy: tabulate costs start-up time

    return tabulate(_plain_rows(table), headers=list(table.headers), tablefmt=tablefmt, disable_numparse=True)


def _latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
        text = text.replace(a, b)
    return text


def _latex(table: Table) -> str:
    cols = "l" + "r" * (len(table.headers) - 1)
    lines = [f"% {table.title}", f"\\begin{{tabular}}{{{cols}}}", "\\hline"]
    lines.append(" & ".join(_latex_escape(h) for h in table.headers) + r" \\")
    lines.append("\\hline")
    for row in _plain_rows(table):
        lines.append(" & ".join(_latex_escape(c) for c in row) + r" \\")
    lines += ["\\hline", "\\end{tabular}"]
    lines += [f"% {n}" for n in table.notes]
    return "\n".join(lines)


def _csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(list(table.headers))
    for row in table.rows:
        writer.writerow([fraction_text(c) if isinstance(c, (Fraction, int)) and not isinstance(c, bool) else c
                         for c in row])
    return buf.getvalue().rstrip("\n")


def render_tables(tables: Sequence[Table], fmt: str) -> str:
    """Render tables as ``table``, ``markdown``, ``csv`` or ``latex`` text (ends with a newline).

    CSV keeps integers ungrouped and fractions as ``num/den`` so programs can read them
    exactly; several CSV tables are separated by a blank line after a ``# title`` line.
    """
    parts: list[str] = []
    for t in tables:
        if fmt == "table":
            body = "\n".join([t.title, "=" * len(t.title), _tabulate(t, "simple"), *t.notes])
        elif fmt == "markdown":
            notes = "".join(f"\n{n}\n" for n in t.notes)
            body = f"## {t.title}\n\n{_tabulate(t, 'github')}\n{notes}".rstrip("\n")
        elif fmt == "csv":
            body = _csv(t) if len(tables) == 1 else f"# {t.title}\n{_csv(t)}"
        elif fmt == "latex":
            body = _latex(t)
        else:
            raise InputError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
        parts.append(body)
    return "\n\n".join(parts) + "\n"


def jsonable(value: object) -> object:
    """Make a result JSON-ready: fractions become ``"num/den"`` strings, tuples lists."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def render_json(value: object) -> str:
    """Pretty JSON text (with a final newline) of a result; see :func:`jsonable`."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise InputError(f"cannot write {str(target)!r}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write {str(target)!r}: {err.strerror}") from None


OUTCOME_ORDER = ("banker", "player", "tie")


def odds_table(shoe_label: str, counts: dict[str, int], total: int, *, infinite: bool) -> Table:
    """Banker, player and tie: combinations (finite shoes), exact probability, decimal."""
    headers = ["outcome", "probability", "decimal"] if infinite else ["outcome", "combinations", "probability",
                                                                        "decimal"]
    rows: list[list[Cell]] = []
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        row: list[Cell] = [name, fraction_text(p), decimal_text(p, 10)]
        if not infinite:
            row.insert(1, counts[name])
        rows.append(row)
    total_row: list[Cell] = ["total", "1", decimal_text(1, 10)]
    if not infinite:
        total_row.insert(1, total)
    rows.append(total_row)
    note = "Infinite deck: every card independent, a 0-valued card 4/13, each of 1-9 1/13." if infinite else (
        f"Combinations are ordered six-card sequences ({grouped(total)} in all).")
    return Table(f"Punto banco odds, {shoe_label}", headers, rows, (note,))


def odds_json(cards: int | None, counts: dict[str, int], total: int) -> dict[str, object]:
    """The ``odds --format json`` object; ``cards``/``sequences``/``combinations`` only for finite shoes."""
    outcomes: dict[str, object] = {}
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        entry: dict[str, object] = {"probability": fraction_text(p), "decimal": float(p)}
        if cards is not None:
            entry = {"combinations": counts[name], **entry}
        outcomes[name] = entry
    head: dict[str, object] = {"cards": cards, "sequences": total} if cards is not None else {"cards": "infinite"}
    return {**head, "outcomes": outcomes}


# ---------------------------------------------------------------- house edges and par sheets (issue 3)
# Rows for `edges`, `parsheet`, `symbolic` and `report`. Number formats are chosen here: exact
# fractions where a program reads the output (csv, json), percentages and decimals for people.


def _for_people(fmt: str) -> bool:
    return fmt not in ("csv", "json")


def _percent_or_na(x: Fraction | None) -> str:
    return percent_text(x) if x is not None else "n/a"


def _exact_or_na(x: Fraction | None) -> str:
    return fraction_text(x) if x is not None else ""


def _edge_cells(sheet: ParSheet, fmt: str) -> list[Cell]:
    """House edge, per resolved bet, win, push, loss, std dev (+ EV and variance for programs)."""
    if _for_people(fmt):
        return [percent_text(sheet.house_edge), _percent_or_na(sheet.house_edge_resolved),
                percent_text(sheet.win), percent_text(sheet.push), percent_text(sheet.loss),
                f"{sheet.std_dev:.4f}"]
    return [fraction_text(sheet.house_edge), _exact_or_na(sheet.house_edge_resolved), fraction_text(sheet.win),
            fraction_text(sheet.push), fraction_text(sheet.loss), fraction_text(sheet.expected_value),
            fraction_text(sheet.variance), f"{sheet.std_dev:.10f}"]


def _edge_headers(fmt: str) -> list[str]:
    if _for_people(fmt):
        return ["house edge", "excl. pushes", "win", "push", "loss", "std dev"]
    return ["house_edge", "house_edge_resolved", "win", "push", "loss", "expected_value", "variance", "std_dev"]


EDGE_NOTE = ("House edge: expected loss per unit staked per coup (positive: the house wins); excl. pushes: "
             "per resolved bet. Exact fractions with --format csv or json.")


ConfigSheets = Sequence[tuple["Configuration", Mapping[str, "ParSheet"]]]
"""Each configuration with its bets' par sheets by role, as made by ``configuration_sheets``."""


def edges_table(shoe_label: str, configs: ConfigSheets, fmt: str) -> Table:
    """The house edges of the banker, player and tie bets of each configuration."""
    rows = [[config.name, role, *_edge_cells(sheet, fmt)] for config, sheets in configs for role, sheet in
            sheets.items()]
    notes = [EDGE_NOTE] if _for_people(fmt) else []
    notes += [f"{config.name}: {config.description} Source: {config.source}." for config, _ in configs]
    return Table(f"House edges of the main bets, {shoe_label}", ["configuration", "bet", *_edge_headers(fmt)],
                 rows, notes if fmt != "csv" else ())


def edge_json(sheet: ParSheet) -> dict[str, object]:
    """One bet's exact figures for JSON (``std_dev`` a float, the rest ``"num/den"``)."""
    return {
        "house_edge": sheet.house_edge,
        "house_edge_resolved": sheet.house_edge_resolved,
        "std_dev": sheet.std_dev,
        "expected_value": sheet.expected_value,
        "win": sheet.win,
        "push": sheet.push,
        "loss": sheet.loss,
        "variance": sheet.variance,
    }


def edges_json(shoe_label: str, configs: ConfigSheets) -> dict[str, object]:
    """The ``edges --format json`` object: configurations -> bet -> figures."""
    return {"shoe": shoe_label,
            "configurations": {config.name: {role: edge_json(sheet) for role, sheet in sheets.items()}
                               for config, sheets in configs}}


def par_sheet_table(sheet: ParSheet, fmt: str, *, title: str | None = None) -> Table:
    """A par sheet: each line's combinations, probability, pays and return, then the total.

    Combinations are left out for the infinite deck (its weights are not counts).
    """
    people = _for_people(fmt)
    counts = not sheet.shoe.infinite

    def number(x: Fraction) -> Cell:
        return decimal_text(x, 10) if people else x

    rows: list[list[Cell]] = []
    for line in sheet.lines:
        rows.append([line.label, *([line.ways] if counts else []), number(line.probability), line.pays,
                     number(line.contribution)])
    rows.append(["total", *([sheet.total] if counts else []), number(Fraction(1)), "", number(sheet.expected_value)])
    headers = ["outcome", *(["combinations"] if counts else []), "probability", "pays", "return"]
    notes: list[str] = []
    if fmt != "csv":
        notes.append(f"House edge {percent_text(sheet.house_edge)} ({fraction_text(sheet.house_edge)}) per coup; "
                     f"{_percent_or_na(sheet.house_edge_resolved)} per resolved bet; standard deviation "
                     f"{sheet.std_dev:.4f}. Pays: net units per unit staked.")
        notes.append(f"{sheet.bet.description} Source: {sheet.bet.source}.")
    return Table(title or f"Par sheet: {sheet.bet.name}, {sheet.shoe}", headers, rows, notes)


def par_sheet_json(sheet: ParSheet) -> dict[str, object]:
    """A par sheet for JSON: the lines (exact) and the bet's figures."""
    lines = []
    for line in sheet.lines:
        entry: dict[str, object] = {"outcome": line.label, "probability": line.probability, "pays": line.pays,
                                    "return": line.contribution}
        if not sheet.shoe.infinite:
            entry = {"outcome": line.label, "combinations": line.ways, **entry}
        lines.append(entry)
    head: dict[str, object] = {"bet": sheet.bet.name, "shoe": str(sheet.shoe), "description": sheet.bet.description,
                               "source": sheet.bet.source, "lines": lines}
    if not sheet.shoe.infinite:
        head["sequences"] = sheet.total
    return {**head, **edge_json(sheet)}


def reference_report(shoe: Shoe, tableau: Tableau, fmt: str) -> str:
    """The reference report of one shoe: odds, every configuration's edges, par sheets, other bets.

    Par sheets are shown once per distinct pay table (``tie-9/banker`` is the standard
    banker bet). Every registered bet that belongs to no configuration (the side bets)
    gets a row in a last table, found generically from the bet registry; bets that need
    suits are left out (and named) when the shoe's suits are not known. Every figure comes
    from one enumeration at the finest detail the bets need (the counts do not depend on it).
    """
    from exact_odds.bets.core import registered
    from exact_odds.bets.main import CONFIGURATIONS, ROLES, is_main_bet
    from exact_odds.edges import configuration_sheets, distinct_bets, par_sheet
    from exact_odds.engine import Detail, deal, winners

    other_bets = [bet for bet in registered() if not is_main_bet(bet)]
    usable = [bet for bet in other_bets if bet.detail < Detail.SUITS or shoe.suited is not None]
    detail = max((bet.detail for bet in usable), default=Detail.POINTS)
    dist = winners(deal(shoe, tableau, detail=detail))
    counts: dict[str, int] = {k: dist[k] for k in ROLES}
    configs = [(c, configuration_sheets(shoe, c, tableau=tableau, detail=detail)) for c in CONFIGURATIONS.values()]
    main_bets = distinct_bets([bet for config in CONFIGURATIONS.values() for bet in config.bets])
    sheets = [par_sheet(shoe, bet, tableau=tableau, detail=detail) for bet, _ in main_bets]
    others = [par_sheet(shoe, bet, tableau=tableau, detail=detail) for bet in usable]
    skipped = [bet.name for bet in other_bets if bet not in usable]
    if fmt == "json":
        return render_json({
            "odds": odds_json(None if shoe.infinite else shoe.size, counts, dist.total),
            **edges_json(str(shoe), configs),
            "par_sheets": [par_sheet_json(sheet) for sheet in sheets],
            "other_bets": {sheet.bet.name: side_bet_json(sheet) for sheet in others},
            "skipped_bets": skipped,
        })
    tables = [odds_table(str(shoe), counts, dist.total, infinite=shoe.infinite), edges_table(str(shoe), configs, fmt)]
    for (_, same), sheet in zip(main_bets, sheets, strict=True):
        also = f" (also {', '.join(b.name for b in same[1:])})" if len(same) > 1 else ""
        tables.append(par_sheet_table(sheet, fmt, title=f"Par sheet: {sheet.bet.name}{also}, {shoe}"))
    if others:
        tables.append(side_bets_table(str(shoe), others, fmt, omitted=skipped))
    return render_tables(tables, fmt)


def _expression(expr: object, fmt: str) -> str:
    """A sympy expression as text (code-quoted in Markdown, where ``*`` would mean emphasis)."""
    return f"`{expr}`" if fmt == "markdown" else str(expr)


def _closed_form_note(summary: Summary) -> str:
    if summary.disagreements:
        return f"DISAGREES with the enumerator: {'; '.join(summary.disagreements)}."
    return (f"Interpolated from the enumerator at d = {_decks_text(summary.fit)}; every closed form agrees exactly "
            f"with the enumerator for d = {_decks_text(summary.checked)} and, as d grows, with the infinite deck.")


def _decks_text(decks: Sequence[int]) -> str:
    """``1..8`` for a run of consecutive numbers, else ``1, 3, 8``."""
    if len(decks) > 2 and list(decks) == list(range(decks[0], decks[-1] + 1)):
        return f"{decks[0]}..{decks[-1]}"
    return ", ".join(map(str, decks))


def closed_form_tables(summary: Summary, fmt: str) -> list[Table]:
    """Closed forms in d of banker/player/tie and of each bet's house edge."""
    people = _for_people(fmt)
    rows: list[list[Cell]] = []
    for name, form in summary.outcomes.items():
        if people:
            rows.append([name, _expression(form.probability, fmt), form.limit, decimal_text(form.limit, 10)])
        else:
            rows.append([name, str(form.ways.as_expr()), str(form.probability), form.limit])
    headers = ["outcome", "probability", "limit as d grows", "≈"] if people else [
        "outcome", "ways", "probability", "limit"]
    notes = [f"d: number of 52-card decks; ways count ordered six-card sequences out of 52d(52d-1)...(52d-5). "
             f"{_closed_form_note(summary)}"] if fmt != "csv" else []
    outcomes = Table("Banker, player and tie as functions of the number of decks d", headers, rows, notes)
    edge_rows: list[list[Cell]] = [
        [b.sheet.bet.name, _expression(b.edge_in_decks, fmt), b.edge_limit,
         *([percent_text(b.edge_limit)] if people else [])] for b in summary.bets]
    headers = ["bet", "house edge", "limit as d grows", "≈"] if people else ["bet", "house_edge", "limit"]
    notes = ["House edge per unit staked per coup, the bet's own payouts substituted."] if fmt != "csv" else []
    return [outcomes, Table("House edges as functions of the number of decks d", headers, edge_rows, notes)]


def payout_symbol_tables(summary: Summary, fmt: str) -> list[Table]:
    """Each bet's house edge in its payout symbols on the summary's shoe, and break-even payouts."""
    people, shoe = _for_people(fmt), summary.shoe
    expressions = Table(f"House edge in payout symbols, {shoe}", ["bet", "house edge" if people else "house_edge"],
                        [[b.sheet.bet.name, _expression(b.edge_expression, fmt)] for b in summary.bets],
                        ["One symbol per pay line: its net payout per unit staked."] if fmt != "csv" else [])
    commission = summary.fair_commission
    fair_text = (f"The banker bet is fair at a commission of {percent_text(commission)} ({fraction_text(commission)})."
                 if commission is not None else "The banker never wins on this shoe.")
    rows = [(str(shoe), b.sheet, b.break_evens) for b in summary.bets]
    return [expressions, break_even_table(f"Break-even payouts, {shoe}", rows, fmt, note=fair_text)]


def symbolic_json(summary: Summary) -> dict[str, object]:
    """The ``symbolic --format json`` object (expressions as sympy text, numbers exact)."""
    return {
        "decks_symbol": "d",
        "fit_decks": list(summary.fit),
        "checked_decks": list(summary.checked),
        "disagreements": list(summary.disagreements),
        "outcomes": {name: {"ways": str(form.ways.as_expr()), "probability": str(form.probability),
                            "limit": form.limit} for name, form in summary.outcomes.items()},
        "house_edges": {b.sheet.bet.name: {"in_decks": str(b.edge_in_decks), "limit": b.edge_limit}
                        for b in summary.bets},
        "shoe": str(summary.shoe),
        "payout_symbols": {b.sheet.bet.name: {
            "house_edge": str(b.edge_expression),
            "break_even": {line.label: fair for line, fair in zip(b.sheet.bet.lines, b.break_evens, strict=True)},
        } for b in summary.bets},
        "fair_banker_commission": summary.fair_commission,
    }


def edges_by_decks_tables(by_decks: Sequence[tuple[str, ConfigSheets]], fmt: str) -> list[Table]:
    """House edges of every configuration on several shoes (``by_decks``: shoe label, sheets).

    For people, one table per configuration (a row per shoe; an "excl. pushes" column for
    each bet that can push); for programs, one long table with every exact figure.
    """
    if not _for_people(fmt):
        rows = [[config.name, label, role, *_edge_cells(sheet, fmt)]
                for label, configs in by_decks for config, sheets in configs for role, sheet in sheets.items()]
        return [Table("House edges by number of decks", ["configuration", "decks", "bet", *_edge_headers(fmt)], rows)]
    tables = []
    for i, (config, sheets) in enumerate(by_decks[0][1]):
        column = [(label, configs[i][1]) for label, configs in by_decks]
        pushes = [role for role in sheets if any(by_role[role].push for _, by_role in column)]
        headers = ["decks"]
        for role in sheets:
            headers += [role, *([f"{role} excl. pushes"] if role in pushes else [])]
        table: list[list[Cell]] = []
        for label, by_role in column:
            cells: list[Cell] = [label]
            for role, sheet in by_role.items():
                cells.append(percent_text(sheet.house_edge))
                if role in pushes:
                    cells.append(_percent_or_na(sheet.house_edge_resolved))
            table.append(cells)
        notes = [EDGE_NOTE, f"{config.description} Source: {config.source}."]
        tables.append(Table(f"House edges by number of decks: {config.name}", headers, table, notes))
    return tables


def par_sheets_tables(sheets: Sequence[ParSheet], fmt: str) -> list[Table]:
    """Par sheets of several bets and shoes: one table each for people, one long table for programs."""
    if _for_people(fmt):
        return [par_sheet_table(sheet, fmt) for sheet in sheets]
    rows: list[list[Cell]] = []
    for sheet in sheets:
        for line in sheet.lines:
            rows.append([str(sheet.shoe), sheet.bet.name, line.label, line.ways, line.probability, line.pays,
                         line.contribution])
    return [Table("Par sheets", ["shoe", "bet", "outcome", "combinations", "probability", "pays", "return"], rows)]


BreakEvens = Sequence[tuple[str, "ParSheet", Sequence[Fraction | None]]]
"""(shoe label, par sheet, break-even payout of each pay line) rows."""

BREAK_EVEN_NOTE = "Break-even: the payout of the line at which the bet is fair, the other lines unchanged."


def break_even_table(title: str, rows: BreakEvens, fmt: str, *, note: str = "") -> Table:
    """Break-even payouts of every pay line, on one shoe or several (``note`` adds to the note)."""
    people = _for_people(fmt)
    out: list[list[Cell]] = []
    for label, sheet, fairs in rows:
        for line, fair in zip(sheet.bet.lines, fairs, strict=True):
            if people:
                fair_cells: list[Cell] = [fair, decimal_text(fair, 6)] if fair is not None else ["never occurs", ""]
            else:
                fair_cells = [fair if fair is not None else ""]
            out.append([label, sheet.bet.name, line.label, line.pays, *fair_cells])
    headers = ["shoe", "bet", "line", "pays", *(["break-even pays", "≈"] if people else ["break_even"])]
    return Table(title, headers, out, [f"{BREAK_EVEN_NOTE} {note}".strip()] if fmt != "csv" else [])


# ---------------------------------------------------------------- simulation (simulate, session, deal, roads)
# Owned by the simulator's author; keep other sections out of it.


def _float_text(x: float, digits: int = 1) -> str:
    """A float with thousands separators and ``digits`` decimals (simulation figures only)."""
    return f"{x:,.{digits}f}"


def _edge_text(x: Fraction | float) -> str:
    """An edge as a percentage with four decimals (exactly rounded when ``x`` is exact)."""
    return percent_text(x, 4) if isinstance(x, Fraction) else f"{x * 100:.4f}%"


def _winner_counts(sim: Simulation) -> dict[str, int]:
    counts = sim.winners()
    return {w: counts.ways(w) for w in counts} | {w: 0 for w in OUTCOME_ORDER if w not in counts}


def simulation_tables(sim: Simulation, check: Verification | None) -> list[Table]:
    """The tables of ``exact-odds simulate``: outcomes, flat bets, and the check against exact values."""
    counts = _winner_counts(sim)
    mode = f"{grouped(sim.n)} coups" + (f" from {grouped(sim.shoes)} shoes" if sim.shoes else "")
    rows: list[list[Cell]] = [[w, counts[w], percent_text(Fraction(counts[w], sim.n), 4)] for w in OUTCOME_ORDER]
    rows.append(["total", sim.n, percent_text(1, 4)])
    notes = [f"Dealt with tableau {sim.tableau!r}: {sim.procedure.describe()}.",
             f"Seed {sim.seed} (numpy PCG64 through SeedSequence); the same seed and options give the same output."]
    tables = [Table(f"Simulated coups, {sim.shoe}, {mode}", ["outcome", "coups", "share"], rows, notes)]
    if sim.bets:
        bet_rows: list[list[Cell]] = []
        for r in sim.bets:
            won = r.results.ways(lambda v: v > 0)
            pushed = r.results.ways(lambda v: v == 0)
            bet_rows.append([r.bet.name, r.coups, won, pushed, r.coups - won - pushed, decimal_text(r.net, 2),
                             _edge_text(r.mean()), decimal_text(r.low, 2), decimal_text(r.high, 2)])
        tables.append(Table("Flat bets of one unit on every coup",
                            ["bet", "coups", "won", "pushed", "lost", "net (units)", "per coup", "lowest", "highest"],
                            bet_rows, ["Lowest and highest: the running result along the way (0 at the start)."]))
    if check is not None:
        tables += _verification_tables(sim, check)
    return tables


def p_value_text(log_p: float) -> str:
    """A p-value to three significant digits from its natural logarithm, even below 1e-308.

    >>> p_value_text(-1.3862943611198906), p_value_text(-2500.0)  # log 0.25, and e^-2500
    ('0.25', '1.84e-1086')
    """
    import math

    if log_p > math.log(1e-4):
        return f"{math.exp(log_p):.3g}" if log_p < 0 else "1"
    log10 = log_p / math.log(10)
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, 2) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2f}e{exponent}"


def _verification_tables(sim: Simulation, check: Verification) -> list[Table]:
    ref = check.reference
    source = ("the exact probabilities of a full shoe" if sim.procedure.fresh else
              "the sum over the coups dealt of the exact probabilities given each coup's composition")
    rows: list[list[Cell]] = [[o.outcome, o.observed, _float_text(o.expected), _float_text(o.observed - o.expected),
                               f"{o.z:+.2f}"] for o in check.outcomes]
    notes = [f"Expected: {source}, under tableau {ref.tableau!r}.",
             f"Chi-square {check.chi_square:.3f} on {check.df} degrees of freedom, p = {p_value_text(check.log_p)}.",
             f"Verdict at significance level {check.alpha:g}: {check.verdict}."]
    tables = [Table(f"Check against the exact values (tableau {ref.tableau!r})",
                    ["outcome", "observed", "expected", "difference", "z"], rows, notes)]
    if check.edges:
        level = f"{check.level * 100:g}%"
        edge_rows: list[list[Cell]] = [
            [e.bet, _edge_text(e.simulated), f"{e.low * 100:.4f}% to {e.high * 100:.4f}%", _edge_text(e.exact),
             "yes" if e.covered else "no", e.note] for e in check.edges]
        tables.append(Table(f"Edges: simulated with {level} confidence interval, and exact",
                            ["bet", "simulated", f"{level} interval", "exact", "inside", "exact value"], edge_rows,
                            ["Edge: mean result per unit staked (negative: the house's advantage). The verdict "
                             "rests on the chi-square test; the intervals are for reading."]))
    return tables


def simulation_json(sim: Simulation, check: Verification | None) -> dict[str, object]:
    """The ``simulate --format json`` object; with a check, ``verdict`` and ``p_value`` at the top level."""
    import math

    counts = _winner_counts(sim)
    outcomes: dict[str, dict[str, object]] = {
        w: {"count": counts[w], "share": counts[w] / sim.n} for w in OUTCOME_ORDER}
    out: dict[str, object] = {
        "shoe": str(sim.shoe), "seed": sim.seed, "tableau": sim.tableau,
        "mode": "fresh" if sim.procedure.fresh else "shoe", "procedure": sim.procedure.describe(),
        "coups": sim.n, "shoes": sim.shoes, "outcomes": outcomes,
        "bets": {r.bet.name: {
            "coups": r.coups, "won": r.results.ways(lambda v: v > 0), "pushed": r.results.ways(lambda v: v == 0),
            "lost": r.results.ways(lambda v: v < 0), "net": r.net, "net_decimal": float(r.net),
            "edge": float(r.mean()), "lowest": r.low, "highest": r.high} for r in sim.bets},
    }
    if check is not None:
        for o in check.outcomes:
            outcomes[o.outcome].update(expected=o.expected, sd=o.sd, z=o.z)
        out.update(
            verdict=check.verdict, p_value=check.p_value, log10_p_value=check.log_p / math.log(10),
            chi_square=check.chi_square, df=check.df, alpha=check.alpha, reference_tableau=check.reference.tableau,
            edges={e.bet: {"simulated": e.simulated, "low": e.low, "high": e.high, "level": check.level,
                           "exact": e.exact, "exact_decimal": float(e.exact), "inside": e.covered, "note": e.note}
                   for e in check.edges},
        )
    return out


class ProgressBar:
    """A one-line progress bar on a stream, redrawn in place; silent unless ``enabled``.

    Call it as ``bar(done, total)`` (the simulator's progress callback); ``close()`` clears it.
    """

    def __init__(self, stream: TextIO, label: str, *, enabled: bool) -> None:
        self.stream, self.label, self.enabled = stream, label, enabled
        self._shown = ""

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = width * done // total
        text = f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {100 * done // total:3d}% "
        if text != self._shown:
            self.stream.write(text)
            self.stream.flush()
            self._shown = text

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * (len(self._shown) - 1) + "\r")
            self.stream.flush()


# ---------------------------------------------------------------- side bets (issue 4)
# Rows for `sidebets` and tables/sidebets.*: one row per bet from its par sheet
# (exact_odds.edges.ParSheet). Exact fractions for programs (csv, json), percentages for people.


def odds_text(pays: Fraction) -> str:
    """A net payout as a pay table shows it: ``"11:1"``, ``"0.54:1"``, ``"1:2"``, ``"push"``, ``"-1/2"``.

    >>> [odds_text(Fraction(p)) for p in (11, "27/50", "1/2", "1/3", 0, "-1/2")]
    ['11:1', '0.54:1', '0.5:1', '1:3', 'push', '-1/2']
    """
    if pays == 0:
        return "push"
    if pays < 0:
        return fraction_text(pays)
    den = pays.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den == 1:  # a terminating decimal: "0.54:1"
        digits = next(d for d in range(12) if (pays * 10**d).denominator == 1)
        return f"{decimal_text(pays, digits)}:1"
    return f"{pays.numerator}:{pays.denominator}"


def pay_table_text(sheet: ParSheet) -> str:
    """The bet's pays in line order, e.g. ``"200:1 / 25:1"`` (repeats of one payout shown once)."""
    seen: list[str] = []
    for line in sheet.lines[:-1]:  # the last line is "loses"
        text = odds_text(line.pays)
        if not seen or seen[-1] != text:
            seen.append(text)
    return " / ".join(seen)


SIDE_BETS_NOTE = ("House edge: expected loss per unit staked per coup (positive: the house wins); win: the "
                  "chance of a positive payout. Exact fractions with --format csv or json; the pay lines of one "
                  "bet with `exact-odds parsheet --bet NAME`.")


def _sources_notes(sheets: Sequence[ParSheet]) -> list[str]:
    """One note per source, naming the bets whose pay table it gives."""
    by_source: dict[str, list[str]] = {}
    for sheet in sheets:
        by_source.setdefault(sheet.bet.source, []).append(sheet.bet.name)
    return [f"{', '.join(names)}: {source}." for source, names in by_source.items()]


def side_bets_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str, *,
                    omitted: Sequence[str] = ()) -> Table:
    """The house edge of each bet on one shoe, with its pay table and its chance to win."""
    if _for_people(fmt):
        headers = ["bet", "pays", "win", "house edge", "std dev"]
        rows: list[list[Cell]] = [[s.bet.name, pay_table_text(s), percent_text(s.win), percent_text(s.house_edge),
                                   f"{s.std_dev:.4f}"] for s in sheets]
    else:
        headers = ["bet", "pays", "win", "house_edge", "expected_value", "variance"]
        rows = [[s.bet.name, pay_table_text(s), s.win, s.house_edge, s.expected_value, s.variance] for s in sheets]
    notes: list[str] = []
    if fmt != "csv":
        notes = [SIDE_BETS_NOTE, *_sources_notes(sheets)]
        if omitted:
            notes.append(f"Not shown: {', '.join(omitted)} (perfect pairs need a shoe whose suits are known).")
    return Table(f"Side bets, {shoe_label}", headers, rows, notes)


def side_bet_json(sheet: ParSheet) -> dict[str, object]:
    """One bet for JSON: exact figures as ``"num/den"``, its pay lines with their ways."""
    lines = []
    for line in sheet.lines:
        entry: dict[str, object] = {"label": line.label, "pays": line.pays, "probability": line.probability}
        if not sheet.shoe.infinite:
            entry["ways"] = line.ways
        lines.append(entry)
    return {
        "house_edge": sheet.house_edge,
        "house_edge_resolved": sheet.house_edge_resolved,
        "expected_value": sheet.expected_value,
        "win": sheet.win,
        "push": sheet.push,
        "variance": sheet.variance,
        "std_dev": sheet.std_dev,
        "pays": pay_table_text(sheet),
        "description": sheet.bet.description,
        "source": sheet.bet.source,
        "detail": sheet.bet.detail.name.lower(),
        "lines": lines,
    }


def side_bets_json(shoe_label: str, sheets: Sequence[ParSheet], *, omitted: Sequence[str] = ()) -> dict[str, object]:
    """The ``sidebets --format json`` object: ``{"shoe", "side_bets": {name: figures}, "omitted"}``."""
    out: dict[str, object] = {"shoe": shoe_label, "side_bets": {s.bet.name: side_bet_json(s) for s in sheets}}
    if sheets and not sheets[0].shoe.infinite:
        out["sequences"] = sheets[0].total
    if omitted:
        out["omitted"] = list(omitted)
    return out


def side_bets_by_shoe_table(labels: Sequence[str], rows: Sequence[tuple[str, Sequence[Fraction]]],
                            fmt: str) -> Table:
    """House edges of each bet (rows) on several shoes (columns): percentages, or exact for csv."""
    cells: list[list[Cell]] = [[name, *(percent_text(e) if fmt != "csv" else e for e in edges)]
                               for name, edges in rows]
    notes = () if fmt == "csv" else (
        "House edge: expected loss per unit staked per coup (positive: the house wins), exact and then rounded; "
        "the csv file has the exact fractions.",)
    return Table("House edges of the side bets by number of decks", ["bet", *labels], cells, notes)


# ---------------------------------------------------------------- Bunco (issue 6)
# Formatting only: every figure is computed in exact_odds.bunco.

_BUNCO_DIGITS = 10


def _bunco_count(n: int, noun: str) -> str:
    """``"1 round"``, ``"6 rounds"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _bunco_approx(x: Fraction) -> str:
    """10 decimals, or scientific notation for a small non-zero value (so that it does not print as 0)."""
    return decimal_text(x, _BUNCO_DIGITS) if not x or abs(x) >= Fraction(1, 10**4) else scientific_text(x, 4)


def _bunco_p(p: Fraction) -> list[Cell]:
    return [fraction_text(p), _bunco_approx(p)]


def _bunco_roll_table(a: bunco.Analysis) -> Table:
    scores = a.scores
    rows: list[list[Cell]] = []
    for score, ways in scores.items():
        how = "; ".join(r.describe() for r in a.roll if a.rules.score(r) == score)
        rows.append([score, how, ways, *_bunco_p(scores.probability(score))])
    notes = (f"Scoring: {a.rules}.",
             f"Ways: ordered rolls of the dice, {a.dice.sides}^{a.dice.count} = {grouped(a.dice.ways)} in all.")
    return Table(f"Bunco: one roll of {a.dice}, round {a.round_number}",
                 ["score", "roll", "ways", "probability", "≈"], rows, notes)


def _bunco_game_table(a: bunco.Analysis) -> Table:
    game = a.game
    above = game.survival()
    rows: list[list[Cell]] = [[t, w, *_bunco_p(game.totals.probability(t)), *_bunco_p(above[t])]
                              for t, w in game.totals.items()]
    numbers = ", ".join(str(n) for n in game.round_numbers)
    notes = (f"One roll per round, played for the round numbers {numbers} (round r plays for face (r-1) mod "
             f"{a.dice.sides} + 1). By symmetry a roll's odds do not depend on the round number.",
             f"Ways: sequences of {_bunco_count(game.rounds, 'roll')}, {grouped(a.dice.ways)}^{game.rounds} = "
             f"{grouped(game.totals.total)} in all.")
    return Table(f"Bunco: {_bunco_count(game.rounds, 'round')} of {a.dice}, one roll each: total points",
                 ["total", "ways", "P(total = t)", "P(total = t) ≈", "P(total > t)", "P(total > t) ≈"], rows, notes)


def _bunco_summary_table(a: bunco.Analysis) -> Table:
    r = _bunco_count(a.game.rounds, "round")
    rows: list[list[Cell]] = [
        ["P(Bunco) per roll", *_bunco_p(a.bunco_probability)],
        ["P(mini Bunco) per roll", *_bunco_p(a.mini_probability)],
        ["mean points per roll", *_bunco_p(a.roll_mean)],
        ["variance of a roll's points", *_bunco_p(a.roll_variance)],
        [f"P(at least one Bunco in {r})", *_bunco_p(a.game_bunco_probability)],
        [f"mean total of {r}", *_bunco_p(a.game.mean)],
        [f"variance of the total of {r}", *_bunco_p(a.game.variance)],
    ]
    rows += [[f"P(total > {k})", *_bunco_p(p)] for k, p in a.tails().items()]
    return Table(f"Bunco: {a.dice}, {r}: means, variances and tails", ["quantity", "exact", "≈"], rows,
                 (f"Scoring: {a.rules}.",))


def _bunco_turn_tables(a: bunco.Analysis) -> list[Table]:
    turn = a.turn
    points = turn.points
    rows: list[list[Cell]] = [[p, *_bunco_p(points.probability(p))] for p in points]
    title = (f"Bunco: one turn at the table, {a.dice}, round {a.round_number}: roll while each roll scores, "
             f"stop at {turn.target} points")
    notes = (f"Points are capped at {turn.target}; reaching {turn.target} ends the turn and the round.",
             f"A turn has at most {turn.max_rolls} rolls; ways count sequences of {turn.max_rolls} rolls "
             f"(rolls after the turn ended included), {grouped(a.dice.ways)}^{turn.max_rolls} in all.")
    summary: list[list[Cell]] = [
        [f"P(the turn reaches {turn.target})", *_bunco_p(turn.reach_probability)],
        ["expected points of a turn", *_bunco_p(turn.expected_points)],
        ["expected rolls in a turn", *_bunco_p(turn.expected_rolls)],
        ["P(the turn is a single roll)", *_bunco_p(turn.rolls.probability(1))],
    ]
    return [Table(title, ["points", "probability", "≈"], rows, notes),
            Table(f"Bunco: one turn at the table, {a.dice}: summary", ["quantity", "exact", "≈"], summary,
                  (f"Scoring: {a.rules}.",))]


def _bunco_p_value_text(p: float) -> str:
    return f"{p:.4g}" if p > 0 else "< 1e-300"


def _bunco_level_text(alpha: Fraction) -> str:
    """A significance level as its shortest exact decimal (``0.001``), else as a fraction."""
    for digits in range(1, 13):
        text = decimal_text(alpha, digits)
        if Fraction(text) == alpha:
            return text
    return fraction_text(alpha)


def _bunco_grouped_decimal(x: Fraction, digits: int) -> str:
    whole, _, decimals = decimal_text(x, digits).partition(".")
    return f"{int(whole):,}.{decimals}"


def _bunco_chi_square_note(test: bunco.ChiSquare) -> str:
    if test.df == 0:
        return (f"All outcomes pooled into one bin (df 0): nothing to test; {test.verdict} at significance level "
                f"{_bunco_level_text(test.alpha)}.")
    note = (f"Chi-square {decimal_text(test.statistic, 4)} on {test.df} degrees of freedom, p-value "
            f"{_bunco_p_value_text(test.p_value)}: {test.verdict} at significance level "
            f"{_bunco_level_text(test.alpha)}.")
    if test.impossible:
        note += f" {grouped(test.impossible)} observations of impossible outcomes."
    return note


def _bunco_simulation_table(what: str, label: str, test: bunco.ChiSquare, seed: int) -> Table:
    rows: list[list[Cell]] = []
    for b in test.bins:
        outcome = str(b.low) if b.low == b.high else f"{b.low}–{b.high}"
        rows.append([outcome, b.observed, _bunco_grouped_decimal(b.expected, 2),
                     decimal_text(Fraction(b.observed, test.trials), 6), decimal_text(b.expected / test.trials, 6),
                     decimal_text(b.contribution, 4)])
    notes = (_bunco_chi_square_note(test),
             "Outcomes with an expected count below 5 are pooled with their neighbours (in increasing order).")
    return Table(f"Bunco simulation: {grouped(test.trials)} {what} (seed {seed}), observed vs exact",
                 [label, "observed", "expected", "observed freq", "probability", "(O-E)²/E"], rows, notes)


def bunco_tables(a: bunco.Analysis, sim: bunco.Simulation | None = None) -> list[Table]:
    """The ``bunco`` report: roll, game (distribution and summary), turn (and the simulation if given)."""
    tables = [_bunco_roll_table(a), _bunco_game_table(a), _bunco_summary_table(a), *_bunco_turn_tables(a)]
    if sim is not None:
        games = f"games of {_bunco_count(a.game.rounds, 'round')}"
        tables += [_bunco_simulation_table("rolls", "score", sim.roll, sim.seed),
                   _bunco_simulation_table(games, "total", sim.game, sim.seed),
                   _bunco_simulation_table("turns", "points", sim.turn, sim.seed)]
    return tables


def _bunco_test_json(test: bunco.ChiSquare) -> dict[str, object]:
    return {
        "bins": [{"low": b.low, "high": b.high, "observed": b.observed, "expected": b.expected} for b in test.bins],
        "statistic": test.statistic,
        "df": test.df,
        "p_value": test.p_value,
        "impossible": test.impossible,
        "verdict": test.verdict,
    }


def bunco_json(a: bunco.Analysis, sim: bunco.Simulation | None = None) -> dict[str, object]:
    """The ``bunco --format json`` object: dice, scoring, roll, game and turn (and simulation)."""
    turn = a.turn
    out: dict[str, object] = {
        "dice": a.dice.count,
        "sides": a.dice.sides,
        "round": a.round_number,
        "scoring": {"name": a.rules.name, "bunco": a.rules.bunco, "mini": a.rules.mini, "per_die": a.rules.per_die},
        "roll": {str(s): a.scores.probability(s) for s in a.scores},
        "roll_summary": {"bunco": a.bunco_probability, "mini": a.mini_probability, "mean": a.roll_mean,
                         "variance": a.roll_variance},
        "game": {
            "rounds": a.game.rounds,
            "round_numbers": list(a.game.round_numbers),
            "mean": a.game.mean,
            "variance": a.game.variance,
            "bunco_at_least_once": a.game_bunco_probability,
            "more_than": {str(k): p for k, p in a.tails().items()},
            "distribution": {str(t): a.game.totals.probability(t) for t in a.game.totals},
        },
        "turn": {
            "target": turn.target,
            "max_rolls": turn.max_rolls,
            "reach_probability": turn.reach_probability,
            "expected_points": turn.expected_points,
            "expected_rolls": turn.expected_rolls,
            "distribution": {str(p): turn.points.probability(p) for p in turn.points},
            "rolls": {str(n): turn.rolls.probability(n) for n in turn.rolls},
        },
    }
    if sim is not None:
        out["simulation"] = {"trials": sim.trials, "seed": sim.seed, "alpha": sim.roll.alpha,
                             "roll": _bunco_test_json(sim.roll), "game": _bunco_test_json(sim.game),
                             "turn": _bunco_test_json(sim.turn)}
    return out


# ---------------------------------------------------------------- composition-dependent study (issue 5)
# Rows and text for `eor`, `batch` and `study` (exact_odds.removal, .batch, .study).

if TYPE_CHECKING:
    from typing import TextIO

    from exact_odds.batch import Evaluation
    from exact_odds.engine import Coup
    from exact_odds.removal import LinearCount, Removal
    from exact_odds.study import Replay, Study



def _rank_labels() -> str:
    from exact_odds.shoe import RANK_LABELS

    return RANK_LABELS


class StudyProgress:
    """Progress of a study as a one-line bar on a stream, redrawn in place; silent unless ``enabled``.

    Call it as ``bar(done, total)`` (the study's progress callback); ``close()`` clears it.
    """

    def __init__(self, stream: TextIO, *, enabled: bool) -> None:
        self.stream, self.enabled = stream, enabled
        self._shown = ""

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        filled = 30 * done // total
        text = f"\rstudy [{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,} shoes "
        if text != self._shown:
            self.stream.write(text)
            self.stream.flush()
            self._shown = text

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * (len(self._shown) - 1) + "\r")
            self.stream.flush()


def _signed_percent(x: Fraction, digits: int) -> str:
    text = percent_text(x, digits)
    return text if text.startswith("-") or x == 0 else "+" + text


def _float_percent(x: float | None, digits: int = 4) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:+.{digits}f}%"


def batch_text(evaluation: Evaluation, lines: Sequence[int], fmt: str) -> str:
    """One line per composition: ``csv`` (with a header) or ``jsonl`` (one JSON object a line).

    Columns: the input line number, banker, player and tie ways, the number of ordered
    six-card sequences, and the exact expectation of each bet as ``num/den``.
    """
    names = [bet.name for bet in evaluation.bets]
    columns = [list(lines), *evaluation.outcomes.T.tolist(), evaluation.sequences.tolist()]
    columns += [[fraction_text(x) for x in evaluation.expectations(j)] for j in range(len(names))]
    if fmt == "jsonl":
        out = []
        for line, b, p, t, seq, *evs in zip(*columns, strict=True):
            record: dict[str, object] = {"line": line, "banker": b, "player": p, "tie": t, "sequences": seq}
            if names:
                record["ev"] = dict(zip(names, evs, strict=True))
            out.append(json.dumps(record))
        return "".join(f"{row}\n" for row in out)
    header = ",".join(["line", "banker", "player", "tie", "sequences", *(f"{n} EV" for n in names)])
    if not lines:
        return f"{header}\n"
    return header + "\n" + "\n".join(map(",".join(["{}"] * len(columns)).format, *columns)) + "\n"


def eor_tables(shoe_label: str, removals: Sequence[Removal], counts: Sequence[LinearCount], fmt: str, *,
               omitted: Sequence[str] = ()) -> list[Table]:
    """Effects of removal per bet and rank, and each bet's suggested count with its betting correlation.

    For people: percentages of a unit staked; for programs (csv): exact fractions.
    """
    people = fmt != "csv"
    ranks = list(_rank_labels())
    rows: list[list[Cell]] = []
    for r in removals:
        cells: list[Cell] = [r.bet.name, percent_text(r.expectation, 4) if people else r.expectation]
        for e in r.effects:
            cells.append("n/a" if e is None else (_signed_percent(e, 5) if people else e))
        rows.append(cells)
    notes = [f"Effect of removal: EV(shoe less one card of the rank) - EV(shoe), bettor's side, "
             f"{'% of a unit staked' if people else 'units staked'}; a removed card of unknown suit for suited bets.",
             "Identity: the effects weighted by the composition add up to zero, exactly."]
    if omitted:
        notes.append(f"Left out (suits unknown): {', '.join(omitted)}.")
    effects = Table(f"Effects of removal, {shoe_label}", ["bet", "EV", *ranks], rows, notes)
    count_rows: list[list[Cell]] = []
    for r, c in zip(removals, counts, strict=True):
        bc = decimal_text(c.correlation.rounded(4), 4) if any(c.tags) else "n/a"
        count_rows.append([r.bet.name, *(f"{t:+d}" if t else "0" for t in c.tags), bc])
    count_notes = ["Balanced linear counts: tags proportional to the effects, one deck's tags sum to zero; "
                   "BC = betting correlation (tags vs effects, weighted by the composition).",
                   "n/a: every effect is zero (no linear count helps; such bets depend on the spread of "
                   "the composition, not its level)."]
    return [effects, Table(f"Suggested counts, {shoe_label}", ["bet", *ranks, "BC"], count_rows, count_notes)]


def eor_json(shoe: Shoe, removals: Sequence[Removal], counts: Sequence[LinearCount], *,
             omitted: Sequence[str] = ()) -> dict[str, object]:
    """The ``eor --format json`` object: ``{"eor": {bet: {"A": "num/den", ...}}, ...}``."""
    return {
        "shoe": str(shoe),
        "cards": shoe.size,
        "eor": {r.bet.name: r.as_dict() for r in removals},
        "expectation": {r.bet.name: r.expectation for r in removals},
        "count": {r.bet.name: {"tags": dict(zip(_rank_labels(), c.tags, strict=True)),
                               "betting_correlation": float(decimal_text(c.correlation.rounded(6), 6)),
                               "betting_correlation_squared": c.correlation.squared}
                  for r, c in zip(removals, counts, strict=True)},
        "omitted": list(omitted),
    }


def _with_error(value: float, error: float | None) -> str:
    return f"{value:.6f}" if error is None else f"{value:.6f} ± {error:.6f}"


def _study_title(study: Study) -> str:
    return f"{grouped(study.shoes)} shoes of {study.shoe}, seed {study.seed}"


def study_tables(study: Study, fmt: str) -> list[Table]:
    """Edges per bet, count strategies, histograms, and the cut-card effect of a study."""
    quantile_heads = [f"q{round(100 * q)}" if 0 < q < 1 else ("min" if q == 0 else "max")
                      for q, _ in study.bets[0].quantiles]
    rows: list[list[Cell]] = []
    for b in study.bets:
        rows.append([b.name, percent_text(b.expectation, 4), _float_percent(b.mean_edge),
                     *(_float_percent(v, 3) for _, v in b.quantiles),
                     f"{100 * b.favourable / study.coups:.4f}%", _float_percent(b.perfect_gain, 5),
                     _float_percent(b.perfect_edge, 3)])
    edges = Table(f"Exact edges before each coup, {_study_title(study)}",
                  ["bet", "full shoe", "mean", *quantile_heads, "EV > 0", "gain/coup", "edge when > 0"], rows,
                  [f"{grouped(study.coups)} coups dealt ({study.coups / study.shoes:.2f} per shoe); "
                   f"{study.dealing.describe()}.",
                   "Edges: bettor's expectation given the cards seen; mean = average over coups dealt. gain/coup: "
                   "betting one unit only when EV > 0 (perfect information), averaged over every coup dealt."])
    count_rows: list[list[Cell]] = []
    for b in study.bets:
        if b.count is None:
            count_rows.append([b.name, "none (effects all zero)", "", "", "", "", ""])
            continue
        tags = " ".join(f"{lab}:{t:+d}" if t else f"{lab}:0" for lab, t in zip(_rank_labels(), b.count.tags,
                                                                                strict=True))
        for t in b.thresholds:
            count_rows.append([b.name, tags, decimal_text(b.count.correlation.rounded(3), 3), f"{t.threshold:g}",
                               f"{100 * t.coups / study.coups:.3f}%", _float_percent(t.gain, 5),
                               _float_percent(t.edge, 3)])
    counts = Table("Counting: bet one unit when the true count is at least the threshold",
                   ["bet", "tags", "BC", "true count >=", "coups bet", "gain/coup", "edge per bet"], count_rows,
                   ["True count: running count per deck unseen. gain/coup: mean result per coup dealt."])
    hist_rows: list[list[Cell]] = []
    for b in study.bets:
        for lo, hi, n in b.histogram:
            hist_rows.append([b.name, _float_percent(lo, 3), _float_percent(hi, 3), n,
                              f"{100 * n / study.coups:.3f}%"])
    histogram = Table("Distribution of the edges (histogram)", ["bet", "from", "to", "coups", "share"], hist_rows)
    cut_rows: list[list[Cell]] = []
    for c in study.cut_card:
        cut_rows.append([c.outcome, decimal_text(c.full, 6), _with_error(c.mean, c.mean_error),
                         _with_error(c.observed, c.observed_error), f"{c.mean - float(c.full):+.6f}"])
    cut = Table("Cut-card effect: outcome frequencies over coups dealt versus the full shoe",
                ["outcome", "full shoe", "mean exact per coup", "observed", "mean - full"], cut_rows,
                ["± one standard error, shoes as sampling units."])
    return [edges, counts, histogram, cut]


def study_json(study: Study) -> dict[str, object]:
    """The ``study --format json`` object (floats for simulated statistics, fractions for exact values)."""
    bets: dict[str, object] = {}
    for b in study.bets:
        entry: dict[str, object] = {
            "expectation": b.expectation, "mean_edge": b.mean_edge,
            "quantiles": {f"{q:g}": v for q, v in b.quantiles},
            "histogram": [{"from": lo, "to": hi, "coups": n} for lo, hi, n in b.histogram],
            "favourable_coups": b.favourable, "perfect_gain_per_coup": b.perfect_gain,
            "perfect_edge_per_bet": b.perfect_edge,
        }
        if b.count is not None:
            entry["count"] = {"tags": dict(zip(_rank_labels(), b.count.tags, strict=True)),
                              "betting_correlation": float(b.count.correlation),
                              "thresholds": [{"true_count": t.threshold, "coups": t.coups, "gain_per_coup": t.gain,
                                              "edge_per_bet": t.edge} for t in b.thresholds]}
        bets[b.name] = entry
    return {
        "shoe": str(study.shoe), "shoes": study.shoes, "seed": study.seed, "coups": study.coups,
        "dealing": {"cut_card": study.dealing.cut_card, "last_coup": study.dealing.last_coup,
                    "burn": study.dealing.burn},
        "bets": bets,
        "cut_card_effect": {c.outcome: {"full": c.full, "mean": c.mean, "mean_error": c.mean_error,
                                        "observed": c.observed, "observed_error": c.observed_error}
                            for c in study.cut_card},
    }


def _coup_text(coup: Coup) -> str:
    return f"{coup.winner} {coup.player}-{coup.banker}"


def replay_table(rep: Replay, fmt: str) -> Table:
    """The exact edge of each bet before each coup of a recorded shoe."""
    people = fmt != "csv"
    rows: list[list[Cell]] = []
    for c in rep.coups:
        cards = " ".join(str(card) for card in c.cards)
        rows.append([str(c.number), str(c.unseen), cards, _coup_text(c.coup),
                     *((percent_text(x, 4) if people else x) for x in c.expectations)])
    notes = [f"Shoe {rep.shoe}; edges: bettor's exact expectation before the coup, given the cards dealt so far."]
    if rep.leftover:
        notes.append(f"{len(rep.leftover)} trailing card(s) make no whole coup: "
                     f"{' '.join(str(c) for c in rep.leftover)}.")
    return Table("Recorded shoe: exact edges before each coup", ["coup", "unseen", "cards", "result", *rep.bets],
                 rows, notes)


def replay_json(rep: Replay) -> dict[str, object]:
    """The ``study --record --format json`` object."""
    return {"shoe": str(rep.shoe), "bets": list(rep.bets),
            "coups": [{"coup": c.number, "unseen": c.unseen, "cards": [str(card) for card in c.cards],
                       "winner": c.coup.winner, "player": c.coup.player, "banker": c.coup.banker,
                       "ev": dict(zip(rep.bets, c.expectations, strict=True))} for c in rep.coups],
            "leftover": [str(c) for c in rep.leftover]}
# (end of the composition-dependent study section)


def card_label(card: Card, *, ascii_only: bool = False) -> str:
    """A card as ``Q♠`` / ``10♥`` (or ``Qs`` / ``Th`` with ``ascii_only``); rank alone when the suit is unknown."""
    rank = "10" if card.rank.label == "T" and not ascii_only else card.rank.label
    if card.suit is None:
        return rank
    return rank + (card.suit.value if ascii_only else card.suit.symbol)


def _winner_odds(dist: Dist[Coup]) -> dict[str, Fraction]:
    from exact_odds.engine import winners

    counts: dict[str, int] = dict(winners(dist).items())
    return {k: Fraction(counts.get(k, 0), dist.total) for k in OUTCOME_ORDER}


def _odds_line(dist: Dist[Coup]) -> str:
    return "  ".join(f"{k} {percent_text(p, 4)}" for k, p in _winner_odds(dist).items())


def _odds_json(dist: Dist[Coup]) -> dict[str, object]:
    return {k: {"probability": p, "decimal": float(p)} for k, p in _winner_odds(dist).items()}


def _hands(sc: ShoeCoup, coup: Coup) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The player's and the banker's cards of the coup (dealt P, B, P, B, then third cards)."""
    c = sc.cards
    player = (c[0], c[2]) + ((c[4],) if coup.player_cards == 3 else ())
    banker = (c[1], c[3]) + ((c[4 + (coup.player_cards == 3)],) if coup.banker_cards == 3 else ())
    return player, banker


def deal_text(sc: ShoeCoup, seed: int, shoe_label: str, steps: Sequence[Step], coup: Coup, *,
              ascii_only: bool) -> str:
    """The text of ``exact-odds deal``: the cards, the hands, the winner, and the coup step by step."""
    def label(card: Card) -> str:
        return card_label(card, ascii_only=ascii_only)

    player, banker = _hands(sc, coup)
    burn = (f"burn: {label(sc.burn[0])} turned face up, {len(sc.burn) - 1} card{'s' if len(sc.burn) != 2 else ''} "
            f"burned face down" if sc.burn else "no burn")
    winner = coup.winner
    result = (f"Tie at {coup.player}." if winner == "tie" else
              f"{winner.capitalize()} wins, {max(coup.player, coup.banker)} to {min(coup.player, coup.banker)}.")
    lines = [
        f"Coup {sc.coup} of {sc.coups} in a shoe of {shoe_label} shuffled with seed {seed} ({burn}); "
        f"{grouped(sc.remaining.size)} cards left before it.",
        "",
        f"  Player  {' '.join(label(c) for c in player):<12} = {coup.player}",
        f"  Banker  {' '.join(label(c) for c in banker):<12} = {coup.banker}",
        f"  {result}",
        "",
        "Step by step, with the exact odds given the cards seen:",
    ]
    for step in steps:
        lines.append(f"  {step.text}")
        if step.odds is not None:
            lines.append(f"      {_odds_line(step.odds)}")
    return "\n".join(lines) + "\n"


def deal_json(sc: ShoeCoup, seed: int, shoe_label: str, steps: Sequence[Step], coup: Coup) -> dict[str, object]:
    """The ``deal --format json`` object."""
    player, banker = _hands(sc, coup)
    return {
        "shoe": shoe_label, "seed": seed, "coup": sc.coup, "coups_in_shoe": sc.coups, "first_card": sc.start,
        "burn": [str(c) for c in sc.burn], "cards_left": sc.remaining.size,
        "player": {"cards": [str(c) for c in player], "total": coup.player},
        "banker": {"cards": [str(c) for c in banker], "total": coup.banker},
        "winner": coup.winner,
        "steps": [{"text": s.text, "dealt": str(s.cards), **({"odds": _odds_json(s.odds)} if s.odds else {})}
                  for s in steps],
    }


def dealt_odds_text(shoe: Shoe, dealt: Dealt, dist: Dist[Winner], fmt: str) -> str:
    """``odds --dealt``: the odds of the rest of the coup given the cards already dealt, in any format."""
    counts: dict[str, int] = {k: 0 for k in OUTCOME_ORDER} | dict(dist.items())
    dealt_cards = len(dealt.player) + len(dealt.banker)
    left = None if shoe.infinite else shoe.size - dealt_cards
    if fmt == "json":
        return render_json({"dealt": str(dealt), "shoe": str(shoe), **odds_json(left, counts, dist.total)})
    positions = 6 - dealt_cards
    table = odds_table(f"{shoe}, given {dealt}", counts, dist.total, infinite=shoe.infinite)
    note = (f"Given the cards dealt, the rest of the coup is {positions} card position{'s' if positions != 1 else ''}; "
            + (f"combinations are their ordered sequences from the {grouped(left)} cards left "
               f"({grouped(dist.total)} in all)." if left is not None else "each card is drawn independently."))
    return render_tables([Table(table.title, table.headers, table.rows, (note,))], fmt)


def _share_z(observed: int, total: int, p: Fraction) -> str:
    """z-score of an observed share against an exact probability (blank when degenerate)."""
    pf = float(p)
    if total == 0 or pf <= 0 or pf >= 1:
        return ""
    return f"{(observed / total - pf) / (pf * (1 - pf) / total) ** 0.5:+.2f}"


def session_figures(one: OneHand, exact: SessionDist, ruin: Ruin | None,
                    sims: SimulatedSessions | None) -> list[tuple[str, Fraction | float, Fraction | float | None, str]]:
    """(figure, exact value, simulated value, z) rows of ``exact-odds session``; values in units or probabilities."""
    import math

    import numpy as np

    rows: list[tuple[str, Fraction | float, Fraction | float | None, str]] = []
    nets = sims.net if sims is not None else None
    m = len(nets) if nets is not None else 0
    scale = sims.scale if sims is not None else 1
    sim_mean = Fraction(int(nets.sum()), m * scale) if nets is not None else None
    sd = math.sqrt(exact.variance())
    z_mean = ""
    if sim_mean is not None and sd > 0:
        z_mean = f"{(float(sim_mean) - float(exact.mean())) / (sd / math.sqrt(m)):+.2f}"
    rows.append(("mean net result (units)", exact.mean(), sim_mean, z_mean))
    rows.append(("standard deviation (units)", sd, float(np.std(nets / scale, ddof=1)) if nets is not None and m > 1
                 else None, ""))
    tests: tuple[tuple[str, Callable[[Fraction], bool], Callable[[Any], Any]], ...] = (
        ("P(ahead: net > 0)", lambda v: v > 0, lambda a: a > 0),
        ("P(even: net = 0)", lambda v: v == 0, lambda a: a == 0),
        ("P(behind: net < 0)", lambda v: v < 0, lambda a: a < 0),
    )
    for label, test, array_test in tests:
        p = exact.probability(test)
        if nets is None:
            rows.append((label, p, None, ""))
        else:
            hits = int(array_test(nets).sum())
            rows.append((label, p, Fraction(hits, m), _share_z(hits, m, p)))
    for q in (Fraction(5, 100), Fraction(25, 100), Fraction(1, 2), Fraction(75, 100), Fraction(95, 100)):
        simulated = None
        if nets is not None:
            ordered = np.sort(nets)
            simulated = Fraction(int(ordered[max(0, math.ceil(q * m) - 1)]), scale)
        rows.append((f"{percent_text(q, 0)} quantile (units)", exact.quantile(q), simulated, ""))
    if ruin is not None:
        label = f"P(ruin within {ruin.hands:,} hands, bankroll {fraction_text(ruin.bankroll)})"
        if sims is not None and sims.ruined is not None:
            hits = int(sims.ruined.sum())
            rows.append((label, ruin.probability, Fraction(hits, m), _share_z(hits, m, ruin.probability)))
        else:
            rows.append((label, ruin.probability, None, ""))
    return rows


def _figure_text(label: str, value: Fraction | float | None) -> str:
    if value is None:
        return ""
    if label.startswith("P("):
        return percent_text(value, 4) if isinstance(value, Fraction) else f"{value * 100:.4f}%"
    if isinstance(value, Fraction):
        return decimal_text(value, 4)
    return f"{value:.4f}"


def session_tables(one: OneHand, exact: SessionDist, ruin: Ruin | None, sims: SimulatedSessions | None,
                   shoe_label: str, *, distribution: bool = False) -> list[Table]:
    """The tables of ``exact-odds session``: exact figures beside simulated ones, and the one-hand results."""
    title = f"Flat bet on {one.bet}, {exact.hands:,} hands, {shoe_label}"
    headers = ["figure", "exact"] + ([f"simulated ({grouped(sims.sessions)} sessions)", "z"] if sims else [])
    rows: list[list[Cell]] = []
    for label, ex, sim, z in session_figures(one, exact, ruin, sims):
        row: list[Cell] = [label, _figure_text(label, ex)]
        if sims is not None:
            row += [_figure_text(label, sim), z]
        rows.append(row)
    notes = [f"Exact: the {exact.hands:,} hands taken as independent, each with the exact one-hand distribution of "
             f"the full shoe; integer ways over {one.total:,}^{exact.hands:,}.",
             "Ruin: the bankroll falls below one unit, so the next stake cannot be covered."]
    if sims is not None:
        notes.append(f"Simulated: {grouped(sims.sessions)} sessions of consecutive coups, "
                     f"{sims.simulation.procedure.describe()}; seed {sims.simulation.seed}. z: (simulated - exact) / "
                     "standard error.")
    hand_rows: list[list[Cell]] = [[decimal_text(Fraction(s, one.scale), 4), w, fraction_text(Fraction(w, one.total)),
                                    percent_text(Fraction(w, one.total), 4)]
                                   for s, w in zip(one.steps, one.ways, strict=True)]
    tables = [Table(title, headers, rows, notes),
              Table(f"One hand of {one.bet}: net result per unit staked", ["result", "ways", "probability", "percent"],
                    hand_rows, [f"Edge {percent_text(one.mean(), 4)} a hand; ways reduced by their common divisor."])]
    if distribution:
        cumulative = 0
        dist_rows: list[list[Cell]] = []
        for v, w in exact.items():
            cumulative += w
            dist_rows.append([decimal_text(v, 2), percent_text(Fraction(w, exact.total), 6),
                              percent_text(Fraction(cumulative, exact.total), 6)])
        tables.append(Table(f"Exact distribution of the net result after {exact.hands:,} hands",
                            ["net (units)", "probability", "cumulative"], dist_rows))
    return tables


def session_json(one: OneHand, exact: SessionDist, ruin: Ruin | None, sims: SimulatedSessions | None,
                 shoe_label: str, *, distribution: bool = False) -> dict[str, object]:
    """The ``session --format json`` object (exact values as fractions, simulated ones beside)."""
    figures = {label: {"exact": ex, **({"simulated": sim, "z": z} if sim is not None else {})}
               for label, ex, sim, z in session_figures(one, exact, ruin, sims)}
    out: dict[str, object] = {
        "bet": one.bet, "shoe": shoe_label, "hands": exact.hands,
        "one_hand": {fraction_text(Fraction(s, one.scale)): Fraction(w, one.total)
                     for s, w in zip(one.steps, one.ways, strict=True)},
        "edge": one.mean(), "figures": figures,
    }
    if ruin is not None:
        out["ruin"] = {"bankroll": ruin.bankroll, "hands": ruin.hands, "probability": ruin.probability,
                       "decimal": float(ruin.probability)}
    if sims is not None:
        out["simulated"] = {"sessions": sims.sessions, "seed": sims.simulation.seed,
                            "procedure": sims.simulation.procedure.describe()}
    if distribution:
        out["distribution"] = {fraction_text(v): Fraction(w, exact.total) for v, w in exact.items()}
    return out


_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "reset": "\x1b[0m"}


def _road_cell(road: str, item: object, color: bool) -> str:
    """Two characters for one cell of a road (with ANSI colours when asked)."""
    from exact_odds.roads import Entry

    letter: str
    if isinstance(item, Entry):
        letter, ties = item.winner, "" if not item.ties else str(item.ties) if item.ties < 10 else "+"
        hue = "red" if letter == "B" else "blue"
    else:
        letter, ties = str(item), ""
        if road == "bead plate":
            hue = {"B": "red", "P": "blue", "T": "green"}[letter]
        else:
            hue = "red" if letter == "R" else "blue"
    if not color:
        return f"{letter}{ties or ' '}"
    return f"{_ANSI[hue]}{letter}{_ANSI['green'] + ties if ties else ' '}{_ANSI['reset']}"


def _road_lines(road: str, grid: dict[tuple[int, int], object], color: bool) -> list[str]:
    from exact_odds.roads import ROWS

    width = max((x for x, _ in grid), default=-1) + 1
    return ["|" + "".join(_road_cell(road, grid[(x, y)], color) if (x, y) in grid else "  " for x in range(width))
            .rstrip() for y in range(ROWS)]


ROAD_LEGENDS = {
    "bead plate": "every coup down columns of six: B banker, P player, T tie",
    "big road": "streaks of banker (B) and player (P) wins; a digit counts the ties marked on an entry",
    "big eye boy": "R red, B blue: the big road's columns compared one column apart",
    "small road": "R red, B blue: the big road's columns compared two columns apart",
    "cockroach road": "R red, B blue: the big road's columns compared three columns apart",
}


def roads_text(roads: Roads, heading: str, *, color: bool = False) -> str:
    """The five scoreboards drawn in the terminal, with a heading and legends."""
    counts = {r: roads.results.count(r) for r in ("B", "P", "T")}
    lines = [heading, f"{len(roads.results)} coups: banker {counts['B']}, player {counts['P']}, tie {counts['T']}."]
    for name, grid in roads.grids().items():
        lines += ["", f"{name.capitalize()} ({ROAD_LEGENDS[name]})", *(_road_lines(name, grid, color) or ["|"])]
    return "\n".join(lines) + "\n"


def roads_json(roads: Roads, heading: str) -> dict[str, object]:
    """The ``roads --format json`` object: results, the derived marks, and every grid cell as [column, row, text]."""
    from exact_odds.roads import Entry

    def cell(item: object) -> object:
        return {"winner": item.winner, "ties": item.ties} if isinstance(item, Entry) else item

    return {
        "heading": heading, "results": "".join(roads.results),
        "big_eye_boy": "".join(roads.big_eye_boy), "small_road": "".join(roads.small_road),
        "cockroach_road": "".join(roads.cockroach),
        "grids": {name: [[x, y, cell(item)] for (x, y), item in sorted(grid.items())]
                  for name, grid in roads.grids().items()},
    }
