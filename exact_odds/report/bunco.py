"""Tables and JSON for ``bunco``: one roll, the game's total, its means, variances and tails, the turn, and
with a simulation one observed-against-exact table per part; with ``--party/--night/--tally``, the party,
the head table's race, another table at its bell, the night's exact means, the simulated nights, a tally
sheet's checks.

A probability is shown exactly and to 10 decimals (in scientific notation below 1/10,000, never as 0). The
party's text tables list only outcomes of probability at least :data:`SHOWN`; the JSON carries every figure.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, scientific_text
from exact_odds.report.simulation import checks_json, verification_tables

if TYPE_CHECKING:
    from exact_odds import bunco
    from exact_odds.bunco.night import Night, NightMeans
    from exact_odds.bunco.party import Party
    from exact_odds.bunco.race import HeadRace, OtherScores, OtherTable
    from exact_odds.bunco.tally import TallyVerification
    from exact_odds.core.stats import Estimate


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


# ---------------------------------------------------------------- bunco --party/--night/--tally

SHOWN = Fraction(1, 10**6)
"""The least probability of an outcome a text table lists (the JSON lists every one)."""
LEAD_SHOWN = 41
"""The JSON lists team 1's lead at another table from -41 to 41 points, and lumps the rest exactly."""
LIKELIEST = 10
"""The text lists the most likely pairs of scores at another table (the JSON lists every pair in its window)."""


def _p(x: Fraction) -> str:
    return decimal_text(x, 10)


def party_json(party: Party) -> dict[str, object]:
    """The party's settings as JSON."""
    return {"name": party.name, "players": party.players, "tables": party.tables, "seats": party.seats,
            "rounds": party.rounds, "dice": party.dice.count, "sides": party.dice.sides, "target": party.target,
            "scoring": scoring_json(party.scoring),
            "bunco_ends_turn": party.bunco_ends_turn, "tie_break": party.tie_break, "movement": party.movement,
            "prizes": {"awards": list(party.prizes.awards), "ties": party.prizes.ties}}


def _party_table(party: Party) -> Table:
    tie = "split" if party.prizes.ties == "split" else "rolled off"
    rows: list[list[Cell]] = [
        ["players", f"{party.players}: {party.tables} tables of {party.seats}, the first the head table"],
        ["teams", "partners opposite: odd seats against even seats; seat 1 rolls first"],
        ["rounds", f"{party.rounds}, round r playing for face (r-1) mod {party.dice.sides} + 1"],
        ["dice", str(party.dice)],
        ["the bell", f"the head table's round ends when a team reaches {party.target} points"],
        ["scoring", str(party.scoring)],
        ["a Bunco", "ends the player's turn" if party.bunco_ends_turn else "lets the player roll on"],
        ["ties at the other tables", "a roll-off (each team 1/2)"],
        ["movement", "winners up a table, the head table's winners stay and its losers go to the foot, partners "
                     "change" if party.movement == "standard" else "everyone keeps their seat"],
        ["prizes", f"{', '.join(party.prizes.awards)}; a tie is {tie}"],
    ]
    return Table(f"Bunco party {party.name!r}", ["setting", "value"], rows)


def head_json(race: HeadRace) -> dict[str, object]:
    """The head table's race as JSON: exact chances, rolls until the bell, scores at the bell."""
    return {
        "first_team_wins": race.first_team_wins, "second_team_wins": 1 - race.first_team_wins,
        "mean_rolls": race.mean_rolls, "horizon": race.horizon, "beyond_horizon": race.beyond_horizon,
        "rolls": {str(t): race.rolls.probability(t) for t in race.rolls if t <= race.horizon},
        "team_1_points": race.team_scores(1), "team_2_points": race.team_scores(2),
        "points": [{"team_1": a, "team_2": b, "probability": p} for (a, b), p in race.bell_scores.items()],
    }


def _head_tables(race: HeadRace) -> list[Table]:
    first, n = race.first_team_wins, race.horizon
    summary: list[list[Cell]] = [
        ["P(team 1, seats 1 and 3, rings the bell)", _p(first)],
        ["P(team 2, seats 2 and 4, rings the bell)", _p(1 - first)],
        ["expected rolls until the bell", _p(race.mean_rolls)],
        [f"P(more than {n} rolls)", decimal_text(race.beyond_horizon, 16)],
    ]
    notes = (f"Exactly: P(team 1 rings the bell) = {fraction_text(first)}.",
             f"Exactly: expected rolls = {fraction_text(race.mean_rolls)}.",
             "Rolls are counted at the head table: every roll of every player, until the one that reaches "
             f"{race.target}.")
    chances = [race.rolls.probability(t) for t in range(1, n + 1)]
    cumulative = zip(range(1, n + 1), chances, accumulate(chances), strict=True)
    rolls: list[list[Cell]] = [[t, _p(p), _p(below)] for t, p, below in cumulative if p >= SHOWN]
    one, two = race.team_scores(1), race.team_scores(2)
    points: list[list[Cell]] = [[x, _p(one.get(x, Fraction(0))), _p(two.get(x, Fraction(0)))]
                                for x in sorted(set(one) | set(two))]
    return [Table(f"The head table: the race to {race.target} ({race.dice}, {race.rules.name} scoring)",
                  ["quantity", "≈"], summary, notes),
            Table("The head table: rolls until the bell", ["rolls", "P(T = t)", "P(T <= t)"], rolls,
                  (f"Rolls whose chance is below {float(SHOWN):g} are not listed; the JSON lists all up to {n}.",)),
            Table("The head table: each team's points when the bell rings", ["points", "team 1", "team 2"], points)]


def other_json(table: OtherTable | None) -> dict[str, object] | None:
    """Another table when the bell rings, as JSON (None for a party of one table)."""
    if table is None:
        return None
    low = high = Fraction(0)
    lead: dict[str, Fraction] = {}
    for d, p in table.lead().items():
        if d < -LEAD_SHOWN:
            low += p
        elif d > LEAD_SHOWN:
            high += p
        else:
            lead[str(d)] = p
    return {"first_team_ahead": table.first_team_ahead, "tied": table.tied,
            "second_team_ahead": table.second_team_ahead, "first_team_wins": table.first_team_wins,
            "beyond_horizon": table.beyond_horizon, "mean_points": list(table.mean_points),
            "lead": lead, "lead_below": low, "lead_above": high, "scores": _scores_json(table.scores)}


def _scores_json(scores: OtherScores) -> dict[str, object]:
    return {"most_points": scores.cap, "beyond": scores.leftover,
            "points": [{"team_1": k[0], "team_2": k[1], "probability": scores.scores.probability(k)}
                       for k in scores.scores if k is not None]}


def _scores_table(scores: OtherScores, race: HeadRace) -> Table:
    pairs = sorted(((k, w) for k, w in scores.scores.items() if k is not None), key=lambda kw: (-kw[1], kw[0]))
    rows: list[list[Cell]] = [[a, b, _p(scores.scores.probability((a, b)))] for (a, b), _ in pairs[:LIKELIEST]]
    within = 1 - scores.leftover
    notes = (f"Both teams at most {scores.cap} points, the bell within {race.horizon} rolls: probability "
             f"{_p(within)}; the JSON lists every such pair.",
             f"Within them: P(team 1 ahead) = {_p(scores.first_team_ahead)}, P(tied) = {_p(scores.tied)}, "
             f"P(team 2 ahead) = {_p(scores.second_team_ahead)}.")
    return Table(f"Another table: the {LIKELIEST} most likely scores when the bell rings",
                 ["team 1", "team 2", "probability"], rows, notes)


def _other_tables(table: OtherTable, race: HeadRace) -> list[Table]:
    rows: list[list[Cell]] = [
        ["P(team 1 ahead)", _p(table.first_team_ahead)],
        ["P(the teams tied: a roll-off)", _p(table.tied)],
        ["P(team 2 ahead)", _p(table.second_team_ahead)],
        ["P(team 1 wins the round, roll-off included)", _p(table.first_team_wins)],
        ["expected points of team 1 at the bell", _p(table.mean_points[0])],
        ["expected points of team 2 at the bell", _p(table.mean_points[1])],
    ]
    notes = ("Timing: every table rolls in step, one roll a tick; the bell rings after the head table's last roll, "
             "so every table has rolled as many times as the head table.",
             f"Exact for every bell within {race.horizon} rolls; the bell rings later with probability "
             f"{decimal_text(race.beyond_horizon, 16)} (not counted above). The means are exact, with no horizon.",
             f"Exactly: P(team 1 wins) = {fraction_text(table.first_team_wins)}.")
    lead: list[list[Cell]] = [[d, _p(p)] for d, p in table.lead().items() if p >= SHOWN]
    return [Table("Another table when the bell rings", ["quantity", "≈"], rows, notes),
            Table("Another table: team 1's lead when the bell rings", ["lead", "probability"], lead,
                  (f"Leads whose chance is below {float(SHOWN):g} are not listed.",)),
            _scores_table(table.scores, race)]


def means_json(means: NightMeans) -> dict[str, object]:
    """A night's exact means as JSON."""
    return {"buncos": means.buncos, "mini_buncos": means.minis, "points_per_player": means.points}


def _means_table(party: Party, means: NightMeans) -> Table:
    rows: list[list[Cell]] = [["Buncos in a night (all tables)", _p(means.buncos)],
                              ["mini Buncos in a night (all tables)", _p(means.minis)],
                              ["points of a player in a night", _p(means.points)]]
    return Table(f"A night of {party.rounds} rounds: exact means", ["quantity", "≈"], rows,
                 ("Every table rolls as often as the head table, so a night expects rounds x tables x E[rolls] rolls "
                  "(Wald's identity).",))


def _estimate_json(e: Estimate) -> dict[str, object]:
    low, high = e.interval or (e.value, e.value)
    return {"value": e.value, "standard_error": e.error, "ci95_low": low, "ci95_high": high}


def _compared_json(e: Estimate) -> dict[str, object]:
    return {"simulated": _estimate_json(e), "exact": e.exact}


def _estimate_cells(e: Estimate) -> list[Cell]:
    exact = "" if e.exact is None else decimal_text(e.exact, 6)
    low, high = e.interval or (e.value, e.value)
    return [f"{e.value:.6f}", f"{low:.6f}", f"{high:.6f}", exact]


def night_json(night: Night) -> dict[str, object]:
    """The simulated nights as JSON: prizes, counts, a player's wins and the checks."""
    return {
        "nights": night.nights, "seed": night.seed, "verdict": "PASS" if night.passed else "FAIL",
        "level": 0.95,
        "prizes": [{"award": p.award, "outright": _estimate_json(p.outright), "players_tied": _estimate_json(
            p.mean_tied)} for p in night.prizes],
        "buncos": _compared_json(night.buncos), "mini_buncos": _compared_json(night.minis),
        "points_per_player": _compared_json(night.points),
        "bunco_counts": {str(k): n for k, n in night.bunco_counts.items()},
        "wins": [_estimate_json(e) for e in night.wins],
        "checks": [{"what": what, "bins": len(t.bins), "df": t.df, "statistic": float(t.statistic),
                    "p_value": t.p_value, "alpha": t.alpha, "impossible": t.impossible, "verdict": t.verdict}
                   for what, t in night.checks],
    }


def _night_tables(night: Night) -> list[Table]:
    party = night.party
    head = ["figure", "simulated", "95% low", "95% high", "exact"]
    seeded = f"{grouped(night.nights)} nights, seed {night.seed}"
    counts: list[list[Cell]] = [["Buncos in a night", *_estimate_cells(night.buncos)],
                                ["mini Buncos in a night", *_estimate_cells(night.minis)],
                                ["points of a player in a night", *_estimate_cells(night.points)]]
    tie = "split" if party.prizes.ties == "split" else "rolled off"
    prizes: list[list[Cell]] = [row for p in night.prizes for row in (
        [f"{p.award}: won outright", *_estimate_cells(p.outright)],
        [f"{p.award}: players tied for it", *_estimate_cells(p.mean_tied)])]
    wins: list[list[Cell]] = [[f"{counted(k, 'win')}, {counted(party.rounds - k, 'loss')}", *_estimate_cells(e)]
                              for k, e in enumerate(night.wins)]
    buncos: list[list[Cell]] = [[k, n, f"{n / night.nights:.6f}"] for k, n in night.bunco_counts.items()]
    checks: list[list[Cell]] = [[what, len(t.bins), t.df, f"{float(t.statistic):.4f}", f"{t.p_value:.4g}",
                                 t.verdict] for what, t in night.checks]
    return [Table(f"Simulated nights ({seeded}): counts", head, counts),
            Table(f"Simulated nights ({seeded}): prizes", head, prizes,
                  (f"A prize tied between players is {tie}; 'players tied' is the mean number with the most.",)),
            Table(f"Simulated nights ({seeded}): a player's wins and losses", head, wins),
            Table(f"Simulated nights ({seeded}): Buncos in a night", ["Buncos", "nights", "share"], buncos),
            Table(f"Simulated nights ({seeded}): every round against the exact tables: "
                  f"{'PASS' if night.passed else 'FAIL'}", ["check", "bins", "df", "chi-square", "p-value", "verdict"],
                  checks, ("Each check is Pearson's chi-square of the rounds' outcomes against the exact ones (bins "
                           "expecting fewer than 5 pooled), at the significance level shared among the checks.",))]


def bunco_party_json(party: Party, race: HeadRace, table: OtherTable | None, means: NightMeans,
                     night: Night | None = None) -> dict[str, object]:
    """The ``bunco --party/--night --format json`` object."""
    out: dict[str, object] = {"party": party_json(party), "head_table": head_json(race),
                              "other_table": other_json(table), "night_means": means_json(means)}
    if night is not None:
        out["simulation"] = night_json(night)
    return out


def bunco_party_tables(party: Party, race: HeadRace, table: OtherTable | None, means: NightMeans,
                       night: Night | None = None) -> list[Table]:
    """The ``bunco --party/--night`` report (see the module)."""
    tables = [_party_table(party), *_head_tables(race)]
    if table is not None:
        tables += _other_tables(table, race)
    tables.append(_means_table(party, means))
    return tables + (_night_tables(night) if night is not None else [])


TALLY_FIGURES = ("counts",)
"""The statistical checks of a tally sheet, whose observed and expected counts the report lists."""


def tally_tables(result: TallyVerification) -> list[Table]:
    """The ``bunco --tally`` report, in the style of ``verify``."""
    notes = [f"Sheet: {result.source}; {grouped(result.rows)} rows.",
             f"Party: {result.party.name!r} ({result.party.tables} tables of {result.party.seats}, the bell at "
             f"{result.party.target}, {result.party.scoring.name} scoring).",
             f"Significance level {result.alpha:g}; a rule check FAILs on its first violation."]
    return verification_tables(result.checks, f"Tally sheet: {result.verdict}", notes, TALLY_FIGURES)


def tally_json(result: TallyVerification) -> dict[str, object]:
    """The ``bunco --tally --format json`` object: the verdict, the checks by name, the counts and the party."""
    return {"verdict": result.verdict, **checks_json(result.checks, TALLY_FIGURES),
            "sheet": {"source": result.source, "rows": result.rows}, "alpha": result.alpha,
            "party": party_json(result.party)}
