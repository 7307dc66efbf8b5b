"""Tables and JSON for ``bunco``: one roll, the game's total, its means, variances and tails, the turn, and
with a simulation one observed-against-exact table per part.

A probability is shown exactly and to 10 decimals (in scientific notation below 1/10,000, never as 0).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, scientific_text
from exact_odds.report.verify import checks_json, verification_tables

if TYPE_CHECKING:
    from exact_odds import bunco

def counted(n: int, noun: str) -> str:
    """``"1 round"``, ``"6 rounds"``, ``"2 losses"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('s') else 's'}"


def scoring_json(rules: bunco.ScoringRules) -> dict[str, object]:
    """The scoring rules as JSON: their name and the points of a Bunco, a mini Bunco and a matching die."""
    return {"name": rules.name, "bunco": rules.bunco, "mini": rules.mini, "per_die": rules.per_die}


def _exact_and_approx(p: Fraction) -> list[Cell]:
    approx = decimal_text(p, 10) if not p or abs(p) >= Fraction(1, 10**4) else scientific_text(p, 4)
    return [fraction_text(p), approx]


def _roll_table(a: bunco.Analysis) -> Table:
    rows: list[list[Cell]] = [[score, "; ".join(r.describe() for r in a.roll if a.rules.score(r) == score), ways,
                               *_exact_and_approx(a.scores.probability(score))] for score, ways in a.scores.items()]
    notes = (f"Scoring: {a.rules}.",
             f"Ways: ordered rolls of the dice, {a.dice.sides}^{a.dice.count} = {grouped(a.dice.ways)} in all.")
    return Table(f"Bunco: one roll of {a.dice}, round {a.round_number}",
                 ["score", "roll", "ways", "probability", "≈"], rows, notes)


def _game_table(a: bunco.Analysis) -> Table:
    game = a.game
    above = game.survival()
    rows: list[list[Cell]] = [[t, w, *_exact_and_approx(game.totals.probability(t)), *_exact_and_approx(above[t])]
                              for t, w in game.totals.items()]
    numbers = ", ".join(str(n) for n in game.round_numbers)
    notes = (f"One roll per round, played for the round numbers {numbers} (round r plays for face (r-1) mod "
             f"{a.dice.sides} + 1). By symmetry a roll's odds do not depend on the round number.",
             f"Ways: sequences of {counted(game.rounds, 'roll')}, {grouped(a.dice.ways)}^{game.rounds} = "
             f"{grouped(game.totals.total)} in all.")
    return Table(f"Bunco: {counted(game.rounds, 'round')} of {a.dice}, one roll each: total points",
                 ["total", "ways", "P(total = t)", "P(total = t) ≈", "P(total > t)", "P(total > t) ≈"], rows, notes)


def _summary_table(a: bunco.Analysis) -> Table:
    r = counted(a.game.rounds, "round")
    rows: list[list[Cell]] = [
        ["P(Bunco) per roll", *_exact_and_approx(a.bunco_probability)],
        ["P(mini Bunco) per roll", *_exact_and_approx(a.mini_probability)],
        ["mean points per roll", *_exact_and_approx(a.roll_mean)],
        ["variance of a roll's points", *_exact_and_approx(a.roll_variance)],
        [f"P(at least one Bunco in {r})", *_exact_and_approx(a.game_bunco_probability)],
        [f"mean total of {r}", *_exact_and_approx(a.game.mean)],
        [f"variance of the total of {r}", *_exact_and_approx(a.game.variance)],
    ]
    rows += [[f"P(total > {k})", *_exact_and_approx(p)] for k, p in a.tails().items()]
    return Table(f"Bunco: {a.dice}, {r}: means, variances and tails", ["quantity", "exact", "≈"], rows,
                 (f"Scoring: {a.rules}.",))


def _turn_tables(a: bunco.Analysis) -> list[Table]:
    turn = a.turn
    points = turn.points
    rows: list[list[Cell]] = [[p, *_exact_and_approx(points.probability(p))] for p in points]
    title = (f"Bunco: one turn at the table, {a.dice}, round {a.round_number}: roll while each roll scores, "
             f"stop at {turn.target} points")
    notes = (f"Points are capped at {turn.target}; reaching {turn.target} ends the turn and the round.",
             f"A turn has at most {turn.max_rolls} rolls; ways count sequences of {turn.max_rolls} rolls "
             f"(rolls after the turn ended included), {grouped(a.dice.ways)}^{turn.max_rolls} in all.")
    summary: list[list[Cell]] = [
        [f"P(the turn reaches {turn.target})", *_exact_and_approx(turn.reach_probability)],
        ["expected points of a turn", *_exact_and_approx(turn.expected_points)],
        ["expected rolls in a turn", *_exact_and_approx(turn.expected_rolls)],
        ["P(the turn is a single roll)", *_exact_and_approx(turn.rolls.probability(1))],
    ]
    return [Table(title, ["points", "probability", "≈"], rows, notes),
            Table(f"Bunco: one turn at the table, {a.dice}: summary", ["quantity", "exact", "≈"], summary,
                  (f"Scoring: {a.rules}.",))]


def _level_text(alpha: Fraction) -> str:
    """A significance level as its shortest exact decimal (``0.001``), else as a fraction."""
    for digits in range(1, 13):
        text = decimal_text(alpha, digits)
        if Fraction(text) == alpha:
            return text
    return fraction_text(alpha)


def _grouped_decimal(x: Fraction, digits: int) -> str:
    """``x`` to ``digits`` decimals with thousands separators, e.g. ``1,234.50``."""
    whole, _, decimals = decimal_text(x, digits).partition(".")
    return f"{int(whole):,}.{decimals}"


def _chi_square_note(test: bunco.ChiSquare) -> str:
    if test.df == 0:
        return (f"All outcomes pooled into one bin (df 0): nothing to test; {test.verdict} at significance level "
                f"{_level_text(test.alpha)}.")
    p_value = f"{test.p_value:.4g}" if test.p_value > 0 else "< 1e-300"
    note = (f"Chi-square {decimal_text(test.statistic, 4)} on {test.df} degrees of freedom, p-value "
            f"{p_value}: {test.verdict} at significance level "
            f"{_level_text(test.alpha)}.")
    if test.impossible:
        note += f" {grouped(test.impossible)} observations of impossible outcomes."
    return note


def _simulation_table(what: str, label: str, test: bunco.ChiSquare, seed: int) -> Table:
    rows: list[list[Cell]] = [
        [str(b.low) if b.low == b.high else f"{b.low}–{b.high}", b.observed, _grouped_decimal(b.expected, 2),
         decimal_text(Fraction(b.observed, test.trials), 6), decimal_text(b.expected / test.trials, 6),
         decimal_text(b.contribution, 4)] for b in test.bins]
    notes = (_chi_square_note(test),
             "Outcomes with an expected count below 5 are pooled with their neighbours (in increasing order).")
    return Table(f"Bunco simulation: {grouped(test.trials)} {what} (seed {seed}), observed vs exact",
                 [label, "observed", "expected", "observed freq", "probability", "(O-E)²/E"], rows, notes)


def bunco_tables(a: bunco.Analysis, sim: bunco.Simulation | None = None) -> list[Table]:
    """The ``bunco`` report: roll, game (distribution and summary), turn (and the simulation if given)."""
    tables = [_roll_table(a), _game_table(a), _summary_table(a), *_turn_tables(a)]
    if sim is not None:
        games = f"games of {counted(a.game.rounds, 'round')}"
        tables += [_simulation_table("rolls", "score", sim.roll, sim.seed),
                   _simulation_table(games, "total", sim.game, sim.seed),
                   _simulation_table("turns", "points", sim.turn, sim.seed)]
    return tables


def _test_json(test: bunco.ChiSquare) -> dict[str, object]:
    return {"bins": [{"low": b.low, "high": b.high, "observed": b.observed, "expected": b.expected}
                     for b in test.bins],
            "statistic": test.statistic, "df": test.df, "p_value": test.p_value, "impossible": test.impossible,
            "verdict": test.verdict}


def bunco_json(a: bunco.Analysis, sim: bunco.Simulation | None = None) -> dict[str, object]:
    """The ``bunco --format json`` object: dice, scoring, roll, game and turn (and simulation)."""
    turn = a.turn
    out: dict[str, object] = {
        "dice": a.dice.count, "sides": a.dice.sides, "round": a.round_number, "scoring": scoring_json(a.rules),
        "roll": {str(s): a.scores.probability(s) for s in a.scores},
        "roll_summary": {"bunco": a.bunco_probability, "mini": a.mini_probability, "mean": a.roll_mean,
                         "variance": a.roll_variance},
        "game": {
            "rounds": a.game.rounds, "round_numbers": list(a.game.round_numbers), "mean": a.game.mean,
            "variance": a.game.variance, "bunco_at_least_once": a.game_bunco_probability,
            "more_than": {str(k): p for k, p in a.tails().items()},
            "distribution": {str(t): a.game.totals.probability(t) for t in a.game.totals},
        },
        "turn": {
            "target": turn.target, "max_rolls": turn.max_rolls, "reach_probability": turn.reach_probability,
            "expected_points": turn.expected_points, "expected_rolls": turn.expected_rolls,
            "distribution": {str(p): turn.points.probability(p) for p in turn.points},
            "rolls": {str(n): turn.rolls.probability(n) for n in turn.rolls},
        },
    }
    if sim is not None:
        out["simulation"] = {"trials": sim.trials, "seed": sim.seed, "alpha": sim.roll.alpha,
                             "roll": _test_json(sim.roll), "game": _test_json(sim.game),
                             "turn": _test_json(sim.turn)}
    return out


# ---------------------------------------------------------------- bunco --verify LOG

ROLL_FIGURES = ("faces", "scores", "buncos")
"""The statistical checks of a log of rolls, whose observed and expected counts the report lists."""


def rolls_verification_tables(result: bunco.RollVerification) -> list[Table]:
    """The ``bunco --verify`` report, in the style of ``verify``."""
    notes = [f"Log: {result.source}; {grouped(result.rolls)} rolls of {result.dice}.",
             f"Hypothesis: fair dice, independent rolls, scored by the rules {result.rules}.",
             f"Significance level {float(result.alpha):g}, shared by the statistical checks (each FAILs below its "
             "threshold); the labels check FAILs on its first wrong score."]
    if result.ignored:
        notes.append(f"Columns ignored: {', '.join(result.ignored)}.")
    return verification_tables(result.checks, f"Verification: {result.verdict}", notes, ROLL_FIGURES)


def rolls_verification_json(result: bunco.RollVerification) -> dict[str, object]:
    """The ``bunco --verify --format json`` object: the checks, the ``log`` read and the ``hypothesis``."""
    return {"verdict": result.verdict, **checks_json(result.checks, ROLL_FIGURES),
            "log": {"source": result.source, "rolls": result.rolls, "columns": list(result.columns),
                    "ignored_columns": list(result.ignored)},
            "alpha": result.alpha,
            "hypothesis": {"dice": result.dice.count, "sides": result.dice.sides,
                           "scoring": scoring_json(result.rules)}}
