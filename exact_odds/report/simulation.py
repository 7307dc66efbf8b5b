"""Rows and text for ``simulate``, ``deal``, ``session`` and ``roads``: simulated figures beside the exact
ones; and for ``verify`` (and any check of a log): a verdict per check, the first violations, the figures.
Floats in a check are test statistics (never exact results), shown rounded."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.analysis.roads import ROWS, Entry
from exact_odds.core.coup import OUTCOMES
from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, percent_text, yes_no
from exact_odds.report.document import procedure_json, shoe_json

if TYPE_CHECKING:
    from exact_odds.analysis.conditional import Step
    from exact_odds.analysis.roads import Roads
    from exact_odds.analysis.sessions import Ruin
    from exact_odds.core.coup import Coup, Winner
    from exact_odds.core.shoe import Card, Shoe
    from exact_odds.core.verdict import Check, ChiSquare, Tally
    from exact_odds.dealing.dealer import ShoeCoup
    from exact_odds.witness.simulate import Figure, SessionComparison, Simulation, SimulationCheck
    from exact_odds.witness.verify import LogVerification


def _percent(x: Fraction | float) -> str:
    return percent_text(x, 4) if isinstance(x, Fraction) else f"{x * 100:.4f}%"


def _winner_counts(sim: Simulation) -> dict[Winner, int]:
    counts = sim.winners()
    return {w: counts.ways(w) for w in counts} | {w: 0 for w in OUTCOMES if w not in counts}


def run_table(title: str, rows: Sequence[tuple[str, Cell]]) -> Table:
    """How a run was made and what it concluded, as a table that every format carries (a seed as text)."""
    return Table(title, ["figure", "value"], [[name, value] for name, value in rows])


def _simulation_run(sim: Simulation) -> Table:
    rows: list[tuple[str, Cell]] = [("seed", str(sim.seed)), ("tableau", sim.tableau),
                                     ("procedure", sim.procedure.describe()), ("coups", sim.n)]
    if sim.check is not None:
        rows += [("verdict", sim.check.verdict), ("significance level", f"{sim.check.log.alpha:g}"),
                 ("exact values under tableau", sim.check.reference)]
    return run_table("Simulation run", rows)


def simulation_tables(sim: Simulation) -> list[Table]:
    """The tables of ``simulate``: the run, outcomes, flat bets, and the check against exact values."""
    counts = _winner_counts(sim)
    mode = f"{grouped(sim.n)} coups" + (f" from {grouped(sim.shoes)} shoes" if sim.shoes else "")
    rows: list[list[Cell]] = [[w, counts[w], percent_text(Fraction(counts[w], sim.n), 4)] for w in OUTCOMES]
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
                             _percent(r.mean()), decimal_text(r.low, 2), decimal_text(r.high, 2)])
        tables.append(Table("Flat bets of one unit on every coup",
                            ["bet", "coups", "won", "pushed", "lost", "net (units)", "player EV", "lowest", "highest"],
                            bet_rows, ["Player EV: net result per coup per unit staked (negative when the house "
                                       "wins). Lowest and highest: the running result along the way (0 at the "
                                       "start)."]))
    if sim.check is not None:
        tables += _check_tables(sim.check)
    return [_simulation_run(sim), *tables]


def _check_tables(check: SimulationCheck) -> list[Table]:
    tables = verify_tables(check.log)
    if check.player_evs:
        level = f"{check.level * 100:g}%"
        ev_rows: list[list[Cell]] = [
            [e.bet, _percent(e.simulated), f"{e.low * 100:.4f}% to {e.high * 100:.4f}%", _percent(e.exact),
             yes_no(e.covered), e.note] for e in check.player_evs]
        tables.append(Table(f"Player EV: simulated with {level} confidence interval, and exact",
                            ["bet", "simulated", f"{level} interval", "exact", "inside", "exact value"], ev_rows,
                            ["Player EV: mean result per unit staked, the bettor's side (negative when the house "
                             "wins). The verdict rests on the checks above; the intervals are for reading."]))
    return tables


def simulation_json(sim: Simulation) -> dict[str, object]:
    """The ``simulate --format json`` object; a check adds ``verify``'s ``checks``, each outcome's expected
    count, and each bet's simulated ``player_ev`` beside the exact one (``player_ev_check``)."""
    counts = _winner_counts(sim)
    outcomes: dict[str, dict[str, object]] = {
        w: {"count": counts[w], "share": counts[w] / sim.n} for w in OUTCOMES}
    out: dict[str, object] = {
        "shoe": shoe_json(sim.shoe), "seed": sim.seed, "tableau": sim.tableau,
        "procedure": procedure_json(sim.procedure),
        "coups": sim.n, "shoes": sim.shoes, "outcomes": outcomes,
        "bets": {r.bet.name: {
            "coups": r.coups, "won": r.results.ways(lambda v: v > 0), "pushed": r.results.ways(lambda v: v == 0),
            "lost": r.results.ways(lambda v: v < 0), "net": r.net, "net_decimal": float(r.net),
            "player_ev": float(r.mean()), "lowest": r.low, "highest": r.high} for r in sim.bets},
    }
    check = sim.check
    if check is not None:
        verified = checks_json(check.log.checks)
        tallies = verified.pop("outcomes", {})
        assert isinstance(tallies, dict)
        for name, tally in tallies.items():
            outcomes[name].update(expected=tally["expected"], std_dev=tally["variance"] ** 0.5, z=tally["z"])
        out.update(
            verdict=check.verdict, alpha=check.log.alpha, reference_tableau=check.reference, **verified,
            player_ev_check={e.bet: {"simulated": e.simulated, "low": e.low, "high": e.high, "level": check.level,
                           "exact": e.exact, "exact_decimal": float(e.exact), "inside": e.covered, "note": e.note}
                   for e in check.player_evs},
        )
    return out


def card_label(card: Card, *, ascii_only: bool = False) -> str:
    """A card as ``Q♠`` / ``10♥`` (or ``Qs`` / ``Th`` with ``ascii_only``); rank alone when the suit is unknown."""
    rank = "10" if card.rank.label == "T" and not ascii_only else card.rank.label
    if card.suit is None:
        return rank
    return rank + (card.suit.value if ascii_only else card.suit.symbol)


def deal_text(sc: ShoeCoup, seed: int, shoe_label: str, steps: Sequence[Step], coup: Coup, *,
              ascii_only: bool) -> str:
    """The text of ``deal``: the cards, the hands, the winner, and the coup step by step."""
    def label(card: Card) -> str:
        return card_label(card, ascii_only=ascii_only)

    hands = steps[-1].cards
    burn = (f"burn: {label(sc.burn[0])} turned face up, {len(sc.burn) - 1} card{'s' if len(sc.burn) != 2 else ''} "
            f"burned face down" if sc.burn else "no burn")
    winner = coup.winner
    result = (f"Tie at {coup.player}." if winner == "tie" else
              f"{winner.capitalize()} wins, {max(coup.player, coup.banker)} to {min(coup.player, coup.banker)}.")
    lines = [
        f"Coup {sc.coup} of {sc.coups} in a shoe of {shoe_label} shuffled with seed {seed} ({burn}); "
        f"{grouped(sc.remaining.size)} cards left before it.",
        "",
        f"  Player  {' '.join(label(c) for c in hands.player):<12} = {coup.player}",
        f"  Banker  {' '.join(label(c) for c in hands.banker):<12} = {coup.banker}",
        f"  {result}",
        "",
        "Step by step, with the exact odds given the cards seen:",
    ]
    for step in steps:
        lines.append(f"  {step.text}")
        odds = step.winner_odds()
        if odds is not None:
            lines.append("      " + "  ".join(f"{w} {percent_text(p, 4)}" for w, p in odds.items()))
    return "\n".join(lines) + "\n"


def _step_json(step: Step) -> dict[str, object]:
    odds = step.winner_odds()
    if odds is None:
        return {"text": step.text, "dealt": str(step.cards)}
    return {"text": step.text, "dealt": str(step.cards),
            "odds": {w: {"probability": p, "decimal": float(p)} for w, p in odds.items()}}


def deal_json(sc: ShoeCoup, seed: int, shoe: Shoe, steps: Sequence[Step], coup: Coup) -> dict[str, object]:
    """The ``deal --format json`` object (``first_card``: the position in the shoe of the coup's first card)."""
    hands = steps[-1].cards
    return {
        "shoe": shoe_json(shoe), "seed": seed, "coup": sc.coup, "coups_in_shoe": sc.coups, "first_card": sc.start,
        "burn": [str(c) for c in sc.burn], "cards_left": sc.remaining.size,
        "player": {"cards": [str(c) for c in hands.player], "total": coup.player},
        "banker": {"cards": [str(c) for c in hands.banker], "total": coup.banker},
        "winner": coup.winner, "steps": [_step_json(s) for s in steps],
    }


_FIGURE_LABELS = {"mean": "mean net result (units)", "sd": "standard deviation (units)", "ahead": "P(ahead: net > 0)",
                  "even": "P(even: net = 0)", "behind": "P(behind: net < 0)"}


def figure_key(figure: Figure) -> str:
    """The JSON key of a session figure: ``mean``, ``std_dev``, ``p_ahead``, ``quantile_5``, ``p_ruin``..."""
    if figure.kind == "quantile":
        assert figure.q is not None
        return f"quantile_{decimal_text(figure.q * 100, 0)}"
    return {"sd": "std_dev", "mean": "mean"}.get(figure.kind, f"p_{figure.kind}")


def _figure_label(figure: Figure, ruin: Ruin | None) -> str:
    if figure.kind == "quantile":
        assert figure.q is not None
        return f"{percent_text(figure.q, 0)} quantile (units)"
    if figure.kind == "ruin":
        assert ruin is not None
        return f"P(ruin within {ruin.hands:,} hands, bankroll {fraction_text(ruin.bankroll)})"
    return _FIGURE_LABELS[figure.kind]


def _figure_text(figure: Figure, value: Fraction | float | None) -> str:
    if value is None:
        return ""
    if figure.is_probability:
        return _percent(value)
    if isinstance(value, Fraction):
        return decimal_text(value, 4)
    return f"{value:.4f}"


def session_tables(comparison: SessionComparison, shoe_label: str, *, distribution: bool = False) -> list[Table]:
    """The tables of ``session``: exact figures beside simulated ones, and the one-hand results."""
    one, exact, sims = comparison.one, comparison.exact, comparison.simulated
    title = f"Flat bet on {one.bet}, {exact.hands:,} hands, {shoe_label}"
    headers = ["figure", "exact"] + ([f"simulated ({grouped(sims.sessions)} sessions)", "z"] if sims else [])
    rows: list[list[Cell]] = [
        [_figure_label(f, comparison.ruin), _figure_text(f, f.exact),
         *([_figure_text(f, f.simulated), "" if f.z is None else f"{f.z:+.2f}"] if sims is not None else [])]
        for f in comparison.figures]
    notes = [f"Exact: the {exact.hands:,} hands taken as independent, each with the exact one-hand distribution of "
             f"the full shoe; integer ways over {one.total:,}^{exact.hands:,}.",
             "Ruin: the bankroll falls below one unit, so the next stake cannot be covered."]
    if sims is not None:
        notes.append(f"Simulated: {grouped(sims.sessions)} sessions of consecutive coups, "
                     f"{sims.simulation.procedure.describe()}; seed {sims.simulation.seed}. z: (simulated - exact) / "
                     "standard error.")
    hand_rows: list[list[Cell]] = [[decimal_text(v, 4), w, fraction_text(one.probability(v)),
                                    percent_text(one.probability(v), 4)] for v, w in one.items()]
    tables = [Table(title, headers, rows, notes),
              Table(f"One hand of {one.bet}: net result per unit staked", ["result", "ways", "probability", "percent"],
                    hand_rows, [f"Player EV {percent_text(one.mean(), 4)} a hand (house edge "
                                f"{percent_text(-one.mean(), 4)}); ways reduced by their common divisor."])]
    if sims is not None:
        tables.insert(0, run_table("Simulated sessions", [
            ("seed", str(sims.simulation.seed)), ("sessions", sims.sessions),
            ("procedure", sims.simulation.procedure.describe())]))
    if distribution:
        dist_rows: list[list[Cell]] = [[decimal_text(v, 2), percent_text(p, 6), percent_text(cumulative, 6)]
                                       for v, p, cumulative in exact.cumulative()]
        tables.append(Table(f"Exact distribution of the net result after {exact.hands:,} hands",
                            ["net (units)", "probability", "cumulative"], dist_rows))
    return tables


def session_json(comparison: SessionComparison, shoe: Shoe, *, distribution: bool = False) -> dict[str, object]:
    """The ``session --format json`` object (exact values as fractions, simulated ones beside; see docs/json.md)."""
    one, exact, ruin, sims = comparison.one, comparison.exact, comparison.ruin, comparison.simulated
    figures = {figure_key(f): {"label": _figure_label(f, ruin), "exact": f.exact,
                               **({"simulated": f.simulated, "z": f.z} if sims is not None else {})}
               for f in comparison.figures}
    out: dict[str, object] = {
        "bet": one.bet, "shoe": shoe_json(shoe), "seed": None if sims is None else sims.simulation.seed,
        "hands": exact.hands, "one_hand": {fraction_text(v): one.probability(v) for v, _ in one.items()},
        "player_ev": one.mean(), "figures": figures,
    }
    if ruin is not None:
        out["ruin"] = {"bankroll": ruin.bankroll, "hands": ruin.hands, "probability": ruin.probability,
                       "decimal": float(ruin.probability)}
    if sims is not None:
        out["simulated"] = {"sessions": sims.sessions, "seed": sims.simulation.seed,
                            "procedure": procedure_json(sims.simulation.procedure)}
    if distribution:
        out["distribution"] = {fraction_text(v): p for v, p, _ in exact.cumulative()}
    return out


# ---------------------------------------------------------------- roads

_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "reset": "\x1b[0m"}


def _road_cell(road: str, item: object, color: bool) -> str:
    """Two characters for one cell of a road (with ANSI colours when asked)."""
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
    counts = roads.counts()
    lines = [heading, f"{len(roads.results)} coups: banker {counts['B']}, player {counts['P']}, tie {counts['T']}."]
    for name, grid in roads.grids().items():
        lines += ["", f"{name.capitalize()} ({ROAD_LEGENDS[name]})", *(_road_lines(name, grid, color) or ["|"])]
    return "\n".join(lines) + "\n"


def roads_json(roads: Roads, heading: str) -> dict[str, object]:
    """The ``roads --format json`` object: results, the derived marks, and every grid cell as [column, row, text]."""
    def cell(item: object) -> object:
        return {"winner": item.winner, "ties": item.ties} if isinstance(item, Entry) else item

    return {
        "heading": heading, "results": "".join(roads.results),
        "big_eye_boy": "".join(roads.big_eye_boy), "small_road": "".join(roads.small_road),
        "cockroach_road": "".join(roads.cockroach),
        "grids": {name.replace(" ", "_"): [[x, y, cell(item)] for (x, y), item in sorted(grid.items())]
                  for name, grid in roads.grids().items()},
    }


# ---------------------------------------------------------------- verify

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


def _verification_run(result: LogVerification, seed: int | None) -> Table:
    """How a verification was made and its verdict; ``seed``: of the reference shoes dealt to estimate the rates
    of whole shoes, if any."""
    rows: list[tuple[str, Cell]] = [("verdict", result.verdict), ("significance level", f"{result.alpha:g}"),
                                    ("tableau", result.tableau.name), ("shoe", str(result.shoe)),
                                    ("log", f"{result.source}; {_mode_text(result)}")]
    return run_table("Verification run", rows + ([("seed", str(seed))] if seed is not None else []))


def verify_command_tables(result: LogVerification, seed: int | None = None) -> list[Table]:
    """:func:`verify_tables` with the run (verdict, seed) after the verdicts."""
    first, *rest = verify_tables(result)
    return [first, _verification_run(result, seed), *rest]


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
    def tests(found: Sequence[ChiSquare]) -> list[dict[str, object]]:
        return [{"label": t.label, "statistic": t.statistic, "df": t.df, "p_value": t.p_value} for t in found]

    if check.p_value is not None:
        out.update(p_value=check.p_value, threshold=check.threshold, tests=tests(check.tests))
    else:
        out.update(violation_count=check.violation_count,
                   violations=[{"line": v.line, "shoe": v.shoe, "coup": v.coup, "message": v.message}
                               for v in check.violations])
    if check.details:
        out["details"] = tests(check.details)
    if check.notes:
        out["notes"] = list(check.notes)
    return out


def _tallies_json(check: Check) -> dict[str, object]:
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
