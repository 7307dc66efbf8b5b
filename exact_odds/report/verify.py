"""Tables and JSON for ``verify`` (and any check of a log): a verdict per check, the first violations, the
figures. Floats here are test statistics (never exact results), shown rounded."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Table, grouped
from exact_odds.report.concepts import shoe_json

if TYPE_CHECKING:
    from exact_odds.core.verdict import Check, Tally
    from exact_odds.witness.verify import LogVerification

FIGURE_CHECKS = ("outcomes", "pairs", "cards")
"""The statistical checks whose tallies the report lists."""


def p_text(p: float | None) -> str:
    """A p-value to three significant digits (``"< 1e-300"`` where it underflowed to 0)."""
    if p is None:
        return ""
    if p <= 0.0:
        return "< 1e-300"
    return f"{p:.3g}"


def _mode_text(result: LogVerification) -> str:
    if result.mode == "shoes":
        return f"{grouped(result.coups)} coups from {grouped(result.shoes or 0)} shoes"
    if result.mode == "fresh":
        return f"{grouped(result.coups)} coups, each from a fresh full shoe (the log has no shoe column)"
    if result.mode == "counts":
        return f"counts of {grouped(result.coups)} coups, each from a fresh full shoe"
    return f"counts of {grouped(result.coups)} coups from {grouped(result.shoes or 0)} whole shoes"


def checks_table(checks: Sequence[Check], title: str, notes: Sequence[str] = ()) -> Table:
    """One row per check: verdict, what it examined, p-value and threshold, violations."""
    rows: list[list[Cell]] = [
        [c.name, c.verdict, f"{grouped(c.checked)} {c.unit}", p_text(c.p_value),
         "" if c.threshold is None else f"{c.threshold:.3g}",
         "" if c.p_value is not None or c.verdict == "SKIP" else c.violation_count]
        for c in checks]
    return Table(title, ["check", "verdict", "checked", "p-value", "threshold", "violations"], rows, notes)


def _notes(result: LogVerification) -> list[str]:
    hypothesis = (f"Hypothesis: dealt by the tableau {result.tableau.name!r} from well-shuffled shoes of "
                  f"{result.shoe}" + ("." if result.mode.startswith("counts") else ", and labelled as its cards show."))
    notes = [f"Log: {result.source}; {_mode_text(result)}.", hypothesis,
             f"Significance level {result.alpha:g}, shared by the statistical checks (each FAILs below its "
             "threshold); a deterministic check FAILs on its first violation."]
    if result.ignored:
        notes.append(f"Columns ignored: {', '.join(result.ignored)}.")
    return notes + list(result.notes)


def violations_table(checks: Sequence[Check]) -> Table | None:
    """The violations kept in full (the first of each check), or ``None`` when there are none."""
    rows: list[list[Cell]] = []
    more = []
    for c in checks:
        rows += [[c.name, "" if v.line is None else str(v.line), v.message] for v in c.violations]
        if c.violation_count > len(c.violations):
            more.append(f"{c.name}: {grouped(c.violation_count - len(c.violations))} more "
                        "(--max-violations N shows more).")
    if not rows:
        return None
    return Table("Violations", ["check", "line", "what"], rows, more)


def _tally_rows(tallies: tuple[Tally, ...]) -> list[list[Cell]]:
    return [[t.name, t.observed, f"{t.expected:,.1f}", f"{t.observed - t.expected:+,.1f}",
             f"{math.sqrt(max(t.variance, 0.0)):,.1f}", f"{t.z:+.2f}"] for t in tallies]


def figures_table(check: Check) -> Table:
    """Observed against expected counts of one statistical check, with its chi-square tests."""
    notes = [f"{t.label}: chi-square {t.statistic:,.2f} on {t.df} degrees of freedom, p = {p_text(t.p_value)}."
             for t in check.tests]
    notes += list(check.notes)
    return Table(f"{check.name.capitalize()}: observed and expected",
                 ["event", "observed", "expected", "difference", "sd", "z"], _tally_rows(check.tallies), notes)


def chi_square_table(checks: Sequence[Check]) -> Table | None:
    """Every chi-square test the statistical checks rest on, or ``None`` when no check ran one."""
    rows: list[list[Cell]] = [[c.name, t.label, f"{t.statistic:.2f}", t.df, p_text(t.p_value)]
                              for c in checks for t in c.tests]
    if not rows:
        return None
    return Table("Chi-square tests", ["check", "test", "chi-square", "df", "p-value"], rows)


def run_table(result: LogVerification, seed: int | None = None) -> Table:
    """How a verification was made and its verdict, as a table (so that csv carries it too); ``seed``: of the
    reference shoes dealt to estimate the rates of whole shoes, if any."""
    rows: list[list[Cell]] = [["verdict", result.verdict], ["significance level", f"{result.alpha:g}"],
                              ["tableau", result.tableau.name], ["shoe", str(result.shoe)],
                              ["log", f"{result.source}; {_mode_text(result)}"]]
    if seed is not None:
        rows.append(["seed", str(seed)])
    return Table("Verification run", ["figure", "value"], rows)


def verify_command_tables(result: LogVerification, seed: int | None = None) -> list[Table]:
    """:func:`verify_tables` with the run (verdict, seed) after the verdicts."""
    first, *rest = verify_tables(result)
    return [first, run_table(result, seed), *rest]


def verify_tables(result: LogVerification) -> list[Table]:
    """The tables of ``verify``: the verdict of each check, the violations, the chi-square tests, the figures."""
    return verification_tables(result.checks, f"Verification: {result.verdict}", _notes(result), FIGURE_CHECKS,
                               chi_square=True)


def verification_tables(checks: Sequence[Check], title: str, notes: Sequence[str], figures: Sequence[str], *,
                        chi_square: bool = False) -> list[Table]:
    """The verdict of each check, the violations, (``chi_square``) the tests, and the figures of the checks
    named in ``figures``."""
    found = (violations_table(checks), chi_square_table(checks) if chi_square else None)
    return [checks_table(checks, title, notes), *(t for t in found if t is not None),
            *(figures_table(c) for c in checks if c.name in figures and c.tallies)]


def _check_json(check: Check) -> dict[str, object]:
    out: dict[str, object] = {"verdict": check.verdict, "checked": check.checked, "unit": check.unit}
    if check.p_value is not None:
        out.update(p_value=check.p_value, threshold=check.threshold,
                   tests=[{"label": t.label, "statistic": t.statistic, "df": t.df, "p_value": t.p_value}
                          for t in check.tests])
    else:
        out.update(violation_count=check.violation_count,
                   violations=[{"line": v.line, "shoe": v.shoe, "coup": v.coup, "message": v.message}
                               for v in check.violations])
    if check.details:
        out["details"] = [{"label": t.label, "statistic": t.statistic, "df": t.df, "p_value": t.p_value}
                          for t in check.details]
    if check.notes:
        out["notes"] = list(check.notes)
    return out


def _tallies_json(check: Check) -> dict[str, object]:
    """Each event's tally by its name in snake_case (``player_pair``, ``A``...)."""
    return {t.name.replace(" ", "_"): {"observed": t.observed, "expected": t.expected, "variance": t.variance,
                                       "z": t.z} for t in check.tallies}


def checks_json(checks: Sequence[Check], figures: Sequence[str] = FIGURE_CHECKS) -> dict[str, object]:
    """The ``checks`` by name, and the tallies of those named in ``figures``: a verification's JSON, in part."""
    out: dict[str, object] = {"checks": {c.name: _check_json(c) for c in checks}}
    for c in checks:
        if c.name in figures and c.tallies:
            out[c.name] = _tallies_json(c)
    return out


def verify_json(result: LogVerification, seed: int | None = None) -> dict[str, object]:
    """The ``verify --format json`` object (see docs/json.md)."""
    out: dict[str, object] = {"verdict": result.verdict, "seed": seed, **checks_json(result.checks)}
    out.update(log={"source": result.source, "mode": result.mode, "coups": result.coups, "shoes": result.shoes,
                    "columns": list(result.columns), "ignored_columns": list(result.ignored)},
               alpha=result.alpha, notes=list(result.notes),
               hypothesis={"tableau": result.tableau.name, "shoe": shoe_json(result.shoe), "alpha": result.alpha})
    return out
