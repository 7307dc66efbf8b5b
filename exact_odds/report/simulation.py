"""Rows and text for ``simulate``, ``deal`` and ``session``: simulated figures beside the exact ones."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.core.coup import OUTCOMES
from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, percent_text, yes_no
from exact_odds.report.concepts import procedure_json, shoe_json
from exact_odds.report.verify import checks_json, verify_tables

if TYPE_CHECKING:
    from exact_odds.analysis.conditional import Step
    from exact_odds.analysis.sessions import Ruin
    from exact_odds.core.coup import Coup, Winner
    from exact_odds.core.shoe import Card, Shoe
    from exact_odds.dealing import ShoeCoup
    from exact_odds.witness.simulate import Figure, SessionComparison, Simulation, SimulationCheck


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
