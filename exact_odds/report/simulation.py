"""Rows and text for ``simulate``, ``deal`` and ``session``: simulated figures beside the exact ones."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.report.base import (
    OUTCOME_ORDER,
    Cell,
    Table,
    decimal_text,
    fraction_text,
    grouped,
    percent_text,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from exact_odds.conditional import Step
    from exact_odds.dist import Dist
    from exact_odds.engine import Coup
    from exact_odds.sessions import OneHand, Ruin, SessionDist
    from exact_odds.shoe import Card
    from exact_odds.simulate import ShoeCoup, SimulatedSessions, Simulation, Verification


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
