"""Tables and JSON for ``edges``, ``parsheet``, ``symbolic`` and ``sidebets``: house edges, par sheets, closed
forms, break-even payouts, side bets. Percentages and decimals for people; exact fractions where a program reads
(csv, json, xlsx)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from typing import TYPE_CHECKING

from exact_odds.engine.deck_polynomials import Factored
from exact_odds.report.base import Cell, Math, Table, decimal_text, for_people, fraction_text, percent_text
from exact_odds.report.document import shoe_json

if TYPE_CHECKING:
    from exact_odds.analysis.edges import ParSheet
    from exact_odds.analysis.symbolic import LinearForm, Summary
    from exact_odds.bets.main import Configuration
    from exact_odds.core.shoe import Shoe


def _percent_or_na(x: Fraction | None) -> str:
    return percent_text(x) if x is not None else "n/a"


def edge_cells(sheet: ParSheet, fmt: str) -> list[Cell]:
    """House edge, per resolved bet, win, push, loss, std dev (+ player EV and variance for programs)."""
    if for_people(fmt):
        return [percent_text(sheet.house_edge), _percent_or_na(sheet.house_edge_resolved),
                *map(percent_text, (sheet.win, sheet.push, sheet.loss)), f"{sheet.std_dev:.4f}"]
    resolved = "" if sheet.house_edge_resolved is None else fraction_text(sheet.house_edge_resolved)
    return [fraction_text(sheet.house_edge), resolved, *map(fraction_text, (sheet.win, sheet.push, sheet.loss,
            sheet.expected_value, sheet.variance)), f"{sheet.std_dev:.10f}"]


def edge_headers(fmt: str) -> list[str]:
    if for_people(fmt):
        return ["house edge", "excl. pushes", "win", "push", "loss", "std dev"]
    return ["house_edge", "house_edge_resolved", "win", "push", "loss", "player_ev", "variance", "std_dev"]


EDGE_NOTE = ("House edge: expected loss per unit staked per coup (positive: the house wins); excl. pushes: "
             "per resolved bet. Exact fractions with --format csv or json.")


ConfigSheets = Sequence[tuple["Configuration", Mapping[str, "ParSheet"]]]
"""Each configuration with its bets' par sheets by role, as made by ``configuration_sheets``."""


def edges_table(shoe_label: str, configs: ConfigSheets, fmt: str) -> Table:
    """The house edges of the banker, player and tie bets of each configuration."""
    rows = [[config.name, role, *edge_cells(sheet, fmt)] for config, sheets in configs for role, sheet in
            sheets.items()]
    notes = [EDGE_NOTE] if for_people(fmt) else []
    notes += [f"{config.name}: {config.description} Source: {config.source}." for config, _ in configs]
    return Table(f"House edges of the main bets, {shoe_label}", ["configuration", "bet", *edge_headers(fmt)],
                 rows, notes if fmt != "csv" else ())


def edge_json(sheet: ParSheet) -> dict[str, object]:
    """One bet's exact figures for JSON (``std_dev`` a float; ``house_edge_resolved`` ``null`` when the bet
    always pushes)."""
    return {"house_edge": sheet.house_edge, "house_edge_resolved": sheet.house_edge_resolved,
            "std_dev": sheet.std_dev, "player_ev": sheet.expected_value, "win": sheet.win, "push": sheet.push,
            "loss": sheet.loss, "variance": sheet.variance}


def edges_json(shoe: Shoe, configs: ConfigSheets) -> dict[str, object]:
    """The ``edges --format json`` object: the shoe, configurations -> bet -> figures."""
    return {"shoe": shoe_json(shoe),
            "configurations": {config.name: {role: edge_json(sheet) for role, sheet in sheets.items()}
                               for config, sheets in configs}}


def par_sheet_table(sheet: ParSheet, fmt: str, *, title: str | None = None) -> Table:
    """A par sheet: each line's combinations (finite shoes), probability, pays and return, then the total."""
    people = for_people(fmt)
    counts = not sheet.shoe.infinite

    def number(x: Fraction) -> Cell:
        return decimal_text(x, 10) if people else x

    rows: list[list[Cell]] = [[line.label, *([line.ways] if counts else []), number(line.probability), line.pays,
                               number(line.contribution)] for line in sheet.lines]
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
    head: dict[str, object] = {"bet": sheet.bet.name, "shoe": shoe_json(sheet.shoe),
                               "description": sheet.bet.description, "source": sheet.bet.source,
                               "lines": lines_json(sheet)}
    if not sheet.shoe.infinite:
        head["sequences"] = sheet.total
    return {**head, **edge_json(sheet)}


def lines_json(sheet: ParSheet) -> list[dict[str, object]]:
    """Each pay line's outcome, combinations (finite shoes), probability, pays and return."""
    return [{"outcome": line.label, **({} if sheet.shoe.infinite else {"combinations": line.ways}),
             "probability": line.probability, "pays": line.pays, "return": line.contribution}
            for line in sheet.lines]


def _expression(text: str, fmt: str, owner: object, name: str) -> str:
    """An expression's text: code-quoted in Markdown; a :class:`~exact_odds.report.base.Math` cell in LaTeX
    (``owner``'s SymPy attribute ``name``, set as mathematics) and HTML."""
    if fmt in ("latex", "html"):
        return Math(getattr(owner, name) if fmt == "latex" else None, text)
    return f"`{text}`" if fmt == "markdown" else text


def _linear_text(form: LinearForm) -> str:
    return linear_text(form.constant, form.terms)


def _closed_form_note(summary: Summary) -> str:
    if summary.disagreements:
        return f"DISAGREES with the enumerator: {'; '.join(summary.disagreements)}."
    return (f"Interpolated from the enumerator at d = {_decks_text(summary.fit)}; every closed form agrees exactly "
            f"with the enumerator for d = {_decks_text(summary.checked)} and, as d grows, with the infinite deck.")


def _decks_text(decks: Sequence[int]) -> str:
    if len(decks) > 2 and list(decks) == list(range(decks[0], decks[-1] + 1)):
        return f"{decks[0]}..{decks[-1]}"
    return ", ".join(map(str, decks))


def closed_form_tables(summary: Summary, fmt: str) -> list[Table]:
    """Closed forms in d of banker/player/tie and of each bet's house edge."""
    people = for_people(fmt)
    rows: list[list[Cell]] = []
    for name, form in summary.outcomes.items():
        if people:
            rows.append([name, _expression(factored_text(form.factors), fmt, form, "probability"), form.limit,
                         decimal_text(form.limit, 10)])
        else:
            rows.append([name, polynomial_text(form.fractions), factored_text(form.factors), form.limit])
    headers = ["outcome", "probability", "limit as d grows", "≈"] if people else [
        "outcome", "combinations", "probability", "limit"]
    notes = [f"d: number of 52-card decks; ways count ordered six-card sequences out of 52d(52d-1)...(52d-5). "
             f"{_closed_form_note(summary)}"] if fmt != "csv" else []
    outcomes = Table("Banker, player and tie as functions of the number of decks d", headers, rows, notes)
    edge_rows: list[list[Cell]] = [
        [b.sheet.bet.name, _expression(factored_text(b.edge_factors), fmt, b, "edge_in_decks"), b.edge_limit,
         *([percent_text(b.edge_limit)] if people else [])] for b in summary.bets]
    headers = ["bet", "house edge", "limit as d grows", "≈"] if people else ["bet", "house_edge", "limit"]
    notes = ["House edge per unit staked per coup, the bet's own payouts substituted."] if fmt != "csv" else []
    return [outcomes, Table("House edges as functions of the number of decks d", headers, edge_rows, notes)]


def payout_symbol_tables(summary: Summary, fmt: str) -> list[Table]:
    """Each bet's house edge in its payout symbols on the summary's shoe, and break-even payouts."""
    people, shoe = for_people(fmt), summary.shoe
    expressions = Table(f"House edge in payout symbols, {shoe}", ["bet", "house edge" if people else "house_edge"],
                        [[b.sheet.bet.name, _expression(_linear_text(b.edge_form), fmt, b, "edge_expression")]
                         for b in summary.bets],
                        ["One symbol per pay line: its net payout per unit staked."] if fmt != "csv" else [])
    commission = summary.fair_commission
    fair_text = (f"The banker bet is fair at a commission of {percent_text(commission)} ({fraction_text(commission)})."
                 if commission is not None else "The banker never wins on this shoe.")
    rows = [(str(shoe), b.sheet, b.break_evens) for b in summary.bets]
    return [expressions, break_even_table(f"Break-even payouts, {shoe}", rows, fmt, note=fair_text)]


def symbolic_json(summary: Summary) -> dict[str, object]:
    """The ``symbolic --format json`` object (expressions as sympy text, numbers exact)."""
    return {
        "decks_symbol": "d", "fit_decks": list(summary.fit), "checked_decks": list(summary.checked),
        "disagreements": list(summary.disagreements),
        "outcomes": {name: {"combinations": polynomial_text(form.fractions),
                            "probability": factored_text(form.factors),
                            "limit": form.limit} for name, form in summary.outcomes.items()},
        "house_edges": {b.sheet.bet.name: {"in_decks": factored_text(b.edge_factors), "limit": b.edge_limit}
                        for b in summary.bets},
        "shoe": shoe_json(summary.shoe),
        "payout_symbols": {b.sheet.bet.name: {
            "house_edge": _linear_text(b.edge_form),
            "break_even": [{"line": line.label, "pays": fair}
                           for line, fair in zip(b.sheet.bet.lines, b.break_evens, strict=True)],
        } for b in summary.bets},
        "fair_banker_commission": summary.fair_commission,
    }


def edges_by_decks_tables(by_decks: Sequence[tuple[str, ConfigSheets]], fmt: str) -> list[Table]:
    """House edges of every configuration on several shoes (``by_decks``: shoe label, sheets): for people a table
    per configuration (a row per shoe), for programs one long table with every exact figure."""
    if not for_people(fmt):
        rows = [[config.name, label, role, *edge_cells(sheet, fmt)]
                for label, configs in by_decks for config, sheets in configs for role, sheet in sheets.items()]
        return [Table("House edges by number of decks", ["configuration", "decks", "bet", *edge_headers(fmt)], rows)]
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
    if for_people(fmt):
        return [par_sheet_table(sheet, fmt) for sheet in sheets]
    rows: list[list[Cell]] = [[str(sheet.shoe), sheet.bet.name, line.label, line.ways, line.probability, line.pays,
                               line.contribution] for sheet in sheets for line in sheet.lines]
    return [Table("Par sheets", ["shoe", "bet", "outcome", "combinations", "probability", "pays", "return"], rows)]


BreakEvens = Sequence[tuple[str, "ParSheet", Sequence[Fraction | None]]]
"""(shoe label, par sheet, break-even payout of each pay line) rows."""

BREAK_EVEN_NOTE = "Break-even: the payout of the line at which the bet is fair, the other lines unchanged."


def break_even_table(title: str, rows: BreakEvens, fmt: str, *, note: str = "") -> Table:
    """Break-even payouts of every pay line, on one shoe or several (``note`` adds to the note)."""
    people = for_people(fmt)
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


# ---------------------------------------------------------------- side bets: sidebets, report, tables/sidebets.*

def odds_text(pays: Fraction) -> str:
    """A net payout as a pay table shows it: ``"11:1"``, ``"0.54:1"``, ``"1:2"``, ``"push"``, ``"-1/2"``.

    >>> [odds_text(Fraction(p)) for p in (11, "27/50", "1/2", "1/3", 0, "-1/2")]
    ['11:1', '0.54:1', '0.5:1', '1:3', 'push', '-1/2']
    """
    if pays == 0:
        return "push"
    if pays < 0:
        return fraction_text(pays)
    digits = next((d for d in range(12) if (pays * 10**d).denominator == 1), None)
    if digits is not None:  # a terminating decimal: "0.54:1"
        return f"{decimal_text(pays, digits)}:1"
    return f"{pays.numerator}:{pays.denominator}"


def pay_table_text(sheet: ParSheet) -> str:
    """The bet's pays in line order, e.g. ``"200:1 / 25:1"`` (repeats of one payout shown once)."""
    return " / ".join(text for text, _ in groupby(odds_text(line.pays) for line in sheet.lines[:-1]))  # not "loses"


SIDE_BETS_NOTE = ("House edge: expected loss per unit staked per coup (positive: the house wins); win: the "
                  "chance of a positive payout. Exact fractions with --format csv or json; the pay lines of one "
                  "bet with `exact-odds parsheet --bet NAME`.")


def _sources_notes(sheets: Sequence[ParSheet]) -> list[str]:
    by_source: dict[str, list[str]] = {}
    for sheet in sheets:
        by_source.setdefault(sheet.bet.source, []).append(sheet.bet.name)
    return [f"{', '.join(names)}: {source}." for source, names in by_source.items()]


def side_bets_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str, *,
                    omitted: Sequence[str] = ()) -> Table:
    """The house edge of each bet on one shoe, with its pay table and its chance to win."""
    if for_people(fmt):
        headers = ["bet", "pays", "win", "house edge", "std dev"]
        rows: list[list[Cell]] = [[s.bet.name, pay_table_text(s), percent_text(s.win), percent_text(s.house_edge),
                                   f"{s.std_dev:.4f}"] for s in sheets]
    else:
        headers = ["bet", "pays", "win", "house_edge", "player_ev", "variance"]
        rows = [[s.bet.name, pay_table_text(s), s.win, s.house_edge, s.expected_value, s.variance] for s in sheets]
    notes: list[str] = []
    if fmt != "csv":
        notes = [SIDE_BETS_NOTE, *_sources_notes(sheets)]
        if omitted:
            notes.append(f"Not shown: {', '.join(omitted)} (perfect pairs need a shoe whose suits are known).")
    return Table(f"Side bets, {shoe_label}", headers, rows, notes)


def side_edges_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str) -> Table:
    """Each side bet's pay table and the columns of ``edges``."""
    rows: list[list[Cell]] = [[sheet.bet.name, pay_table_text(sheet), *edge_cells(sheet, fmt)] for sheet in sheets]
    notes = [EDGE_NOTE] if for_people(fmt) else []
    return Table(f"House edges of the side bets, {shoe_label}", ["bet", "pays", *edge_headers(fmt)], rows,
                 notes if fmt != "csv" else ())


def side_bet_json(sheet: ParSheet) -> dict[str, object]:
    """One bet for JSON: its exact figures, pay table and pay lines."""
    return {
        "house_edge": sheet.house_edge, "house_edge_resolved": sheet.house_edge_resolved,
        "player_ev": sheet.expected_value, "win": sheet.win, "push": sheet.push, "loss": sheet.loss,
        "variance": sheet.variance, "std_dev": sheet.std_dev, "pays": pay_table_text(sheet),
        "description": sheet.bet.description, "source": sheet.bet.source, "detail": sheet.bet.detail.name.lower(),
        "lines": lines_json(sheet),
    }


def side_bets_json(shoe: Shoe, sheets: Sequence[ParSheet], *, omitted: Sequence[str] = ()) -> dict[str, object]:
    """The ``sidebets --format json`` object: the shoe, each bet's figures, ``sequences`` and ``omitted``."""
    out: dict[str, object] = {"shoe": shoe_json(shoe), "side_bets": {s.bet.name: side_bet_json(s) for s in sheets}}
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


# ---------------------------------------------------------------- expressions as SymPy writes them
# The text SymPy's ``str`` gives the expressions ``symbolic`` shows, written from their exact data without
# SymPy (slow to import and to print). A sum of rational multiples of powers of single symbols: terms in
# descending lexicographic order of their exponents, symbols by name (a constant last), but a positive number
# before one negative term. A product (Factored): the number, the power of d, then the powers of sums by their
# number of terms and term by term, in numerator and denominator. The few products SymPy writes otherwise are
# left to SymPy; tests compare every text with SymPy's.

Term = tuple[Fraction, str, int]
"""A sum's term: coefficient, symbol name and exponent (``""`` and 0 for a constant)."""
SYMBOL = "d"
"""The name of the number of decks."""


def polynomial_text(coefficients: Sequence[int | Fraction]) -> str:
    """A polynomial in d (coefficients lowest power first), as ``str(Poly(...).as_expr())``."""
    return sum_text([(Fraction(c), SYMBOL if k else "", k) for k, c in enumerate(coefficients) if c])


def linear_text(constant: Fraction, terms: Sequence[tuple[Fraction, str]]) -> str:
    """``constant + sum(coefficient * symbol)`` (distinct names, coefficients not zero), as SymPy writes it."""
    return sum_text([*([(constant, "", 0)] if constant else []), *((c, name, 1) for c, name in terms)])


def _ordered(terms: Sequence[Term]) -> list[Term]:
    """The terms of a sum in the order SymPy writes them (see the module)."""
    if len(terms) == 2:
        constant, other = sorted(terms, key=lambda t: t[2] != 0)
        if constant[2] == 0 and other[2] != 0 and constant[0] > 0 > other[0]:
            return [constant, other]
    names = sorted({name for _, name, k in terms if k})
    return sorted(terms, key=lambda t: tuple(-(t[2] if t[1] == name else 0) for name in names))


def _term_text(term: Term) -> str:
    coefficient, name, k = term
    if not k:
        return fraction_text(coefficient)
    sign, c = ("-", -coefficient) if coefficient < 0 else ("", coefficient)
    power = name if k == 1 else f"{name}**{k}"
    numerator = [*([str(c.numerator)] if c.numerator != 1 else []), power]
    return sign + "*".join(numerator) + (f"/{c.denominator}" if c.denominator != 1 else "")


def sum_text(terms: Sequence[Term]) -> str:
    """A sum of distinct terms (``"0"`` if none) with their signs, as SymPy's ``_print_Add`` writes it."""
    out: list[str] = []
    for term in _ordered(terms):
        text = _term_text(term)
        negative = text.startswith("-")
        out += ["-" if negative else "+", text[1:] if negative else text]
    return ("" if out[0] == "+" else "-") + " ".join(out[1:]) if out else "0"


def _factor(coefficients: tuple[int, ...], k: int) -> tuple[tuple[object, ...], str]:
    """A factor (coefficients highest power first) to the power ``|k|``: its sort key and text."""
    if coefficients == (1, 0):
        return (0, k), SYMBOL if abs(k) == 1 else f"{SYMBOL}**{abs(k)}"
    top = len(coefficients) - 1
    terms = _ordered([(Fraction(c), SYMBOL if top - i else "", top - i) for i, c in enumerate(coefficients) if c])
    key = (len(terms), tuple((0, c) if not e else (1, e, c) for c, _, e in terms))
    text = f"({sum_text(terms)})"
    return (1, key, k), text if abs(k) == 1 else f"{text}**{abs(k)}"


def factored_text(value: Factored) -> str:
    """A factored rational function of d as ``str`` of its SymPy expression (``_print_Mul``) writes it."""
    number, factors = value.number, value.factors
    if not factors:
        return fraction_text(number)
    if len(factors) == 1 and ((abs(number) == 1 and factors[0][1] == 1 and factors[0][0] != (1, 0))
                              or (number == 1 and factors[0][1] < -1)):
        # sympy-backed: single-shoe commands never load it
        from exact_odds.analysis.symbolic_expressions import factored_expression

        return str(factored_expression(value))
    sign, number = ("-", -number) if number < 0 else ("", number)
    top = [str(number.numerator)] if number.numerator != 1 else []
    bottom = [str(number.denominator)] if number.denominator != 1 else []
    for (_, text), k in sorted(((_factor(f, k), k) for f, k in factors), key=lambda item: item[0][0]):
        (top if k > 0 else bottom).append(text)
    text = sign + "*".join(top or ["1"])
    if not bottom:
        return text
    return text + "/" + (bottom[0] if len(bottom) == 1 else f"({'*'.join(bottom)})")
