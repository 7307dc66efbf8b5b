"""Tables and JSON for counts of one's own and edge sorting over dealt shoes (``count``, ``study``).

Signs are the bettor's. A simulated figure is shown with its 95% confidence interval (1.96 standard
errors, shoes as the sampling units); JSON gives the value, the standard error and the interval.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Table, decimal_text, grouped, percent_text
from exact_odds.report.provenance import procedure_json, shoe_json
from exact_odds.study.estimates import Z95

if TYPE_CHECKING:
    from exact_odds.study.edge_sorting import EdgeSortStudy, Play
    from exact_odds.study.estimates import Estimate
    from exact_odds.study.run import Study

CI_NOTE = "± 95% confidence interval (1.96 standard errors), shoes as the sampling units."


def estimate_text(est: Estimate | None, *, percent: bool = True, digits: int = 4, signed: bool = True) -> str:
    """``+1.2345% ± 0.0123%`` (plain units with ``percent=False``, no ``+`` with ``signed=False``), or ``n/a``."""
    if est is None:
        return "n/a"
    scale, unit = (100, "%") if percent else (1, "")
    text = f"{scale * est.value:{'+' if signed else ''}.{digits}f}{unit}"
    return text if est.error is None else f"{text} ± {scale * Z95 * est.error:.{digits}f}{unit}"


def estimate_json(est: Estimate | None) -> dict[str, float | None] | None:
    """``{"value", "standard_error", "ci95_low", "ci95_high"}`` (``None`` for no estimate)."""
    if est is None:
        return None
    low, high = est.interval or (None, None)
    return {"value": est.value, "standard_error": est.error, "ci95_low": low, "ci95_high": high}


def study_title(study: Study) -> str:
    """``"1,000 shoes of 8 decks, seed 1"``."""
    return f"{grouped(study.shoes)} shoes of {study.shoe}, seed {study.seed}"


def dealing_note(study: Study) -> str:
    """How many coups were dealt, and the rules of the shoe."""
    return (f"{grouped(study.coups)} coups dealt ({study.coups / study.shoes:.2f} per shoe); "
            f"{study.procedure.shoe_rules()}.")


def count_tables(study: Study) -> list[Table]:
    """The counts of one's own: their definition, their results over the shoes, and comparisons."""
    if not study.counts:
        return []
    defs: list[list[Cell]] = [[c.count.name, c.count.bet, ", ".join(c.count.tag_entries()) or "all 0",
                               f"{float(c.count.trigger):g}", decimal_text(c.correlation.rounded(3), 3),
                               percent_text(c.expectation, 4)] for c in study.counts]
    rows: list[list[Cell]] = [[c.count.name, estimate_text(c.frequency, digits=3, signed=False),
                               estimate_text(c.bets_per_shoe, percent=False, digits=3, signed=False),
                               estimate_text(c.player_ev, digits=3), estimate_text(c.gain_per_coup, digits=4),
                               estimate_text(c.gain_per_shoe, percent=False, digits=4),
                               estimate_text(c.realised_per_shoe, percent=False, digits=3)]
                              for c in study.counts]
    tables = [
        Table("Counts of one's own", ["count", "bet", "tags", "true count >=", "BC", "full-shoe player_ev"], defs,
              ["True count: running count (tags of the cards seen: the turned burn card and the coups dealt) per "
               "deck unseen. BC: betting correlation of the tags with the bet's exact effects of removal."]),
        Table(f"Counts over {study_title(study)}",
              ["count", "triggered", "bets/shoe", "player_ev when triggered", "gain/coup", "gain/shoe",
               "realised gain/shoe"], rows,
              [dealing_note(study),
               "triggered: share of coups dealt with the true count at the trigger or above (one unit bet); "
               "player_ev: the bet's exact expectation before the coup, given the cards seen; gain: the exact "
               "expectations of the coups bet, per coup dealt and per shoe; realised: what those bets paid "
               "(units).", CI_NOTE])]
    if study.comparisons:
        pairs: list[list[Cell]] = [[f"{p.first} - {p.second}", f"{100 * p.both:.3f}%",
                                    estimate_text(p.gain_per_shoe, percent=False, digits=4),
                                    estimate_text(p.realised_per_shoe, percent=False, digits=3)]
                                   for p in study.comparisons]
        tables.append(Table("Counts compared on the same shoes", ["counts", "both trigger", "gain/shoe",
                                                                   "realised gain/shoe"], pairs,
                            ["Differences shoe by shoe (paired): the first count's gain minus the second's.",
                             CI_NOTE]))
    return tables


def _play_row(play: Play) -> list[Cell]:
    share = "" if play.bet_share is None else f"{100 * play.bet_share:.2f}%"
    return [play.name, share, estimate_text(play.expected_per_coup), estimate_text(play.realised_per_coup, digits=3),
            estimate_text(play.expected_per_shoe, percent=False, digits=3),
            estimate_text(play.realised_per_shoe, percent=False, digits=2)]


def edge_sort_tables(study: Study) -> list[Table]:
    """Edge sorting beside flat betting, and what the sorted first card said."""
    sort = study.edge_sort
    if sort is None:
        return []
    plays = Table(f"Edge sorting over {study_title(study)}: {sort.information.name}",
                  ["play", "coups bet", "expected/coup", "realised/coup", "expected/shoe", "realised/shoe"],
                  [_play_row(p) for p in (*sort.plays, *sort.gains)],
                  [dealing_note(study),
                   f"Choosing among {', '.join(sort.bets)}, or sitting out when none has a positive expectation. "
                   "expected: the exact value of the play before each coup (for edge sorting E[max(player_ev, 0)] "
                   "over the groups of the first card, given the cards seen); realised: what the bets made paid; "
                   "per coup dealt (% of a unit) and per shoe (units). Rows 'a - b': differences coup by coup.",
                   CI_NOTE])
    choices = Table("Edge sorting: the first card's group and the play", ["group", "play", "share of coups"],
                    [[c.group, c.bet or "sit out", f"{100 * c.share:.3f}%"] for c in sort.choices])
    return [plays, choices]


def _play_json(play: Play) -> dict[str, object]:
    return {"name": play.name, "bet_share": play.bet_share,
            "expected_per_coup": estimate_json(play.expected_per_coup),
            "realised_per_coup": estimate_json(play.realised_per_coup),
            "expected_per_shoe": estimate_json(play.expected_per_shoe),
            "realised_per_shoe": estimate_json(play.realised_per_shoe)}


def edge_sort_json(sort: EdgeSortStudy) -> dict[str, object]:
    """The ``edge_sorting`` object of ``study --format json``."""
    return {"information": sort.information.name, "groups": list(sort.information.labels[0]),
            "bets": list(sort.bets), "plays": [_play_json(p) for p in sort.plays],
            "differences": [_play_json(p) for p in sort.gains],
            "choices": [{"group": c.group, "bet": c.bet, "share": c.share} for c in sort.choices]}


def counts_json(study: Study) -> dict[str, object]:
    """The ``counts`` and ``count_comparisons`` of ``count``/``study --format json``."""
    counts = {c.count.name: {
        "spec": c.count.spec(), "tags": dict(zip("A23456789TJQK", c.count.tags, strict=True)),
        "trigger": c.count.trigger, "bet": c.count.bet, "source": c.count.source,
        "full_shoe_player_ev": c.expectation, "betting_correlation": float(c.correlation),
        "triggered": estimate_json(c.frequency), "bets_per_shoe": estimate_json(c.bets_per_shoe),
        "player_ev_when_triggered": estimate_json(c.player_ev),
        "realised_per_bet": estimate_json(c.realised_ev), "gain_per_coup": estimate_json(c.gain_per_coup),
        "realised_gain_per_coup": estimate_json(c.realised_per_coup),
        "gain_per_shoe": estimate_json(c.gain_per_shoe), "realised_gain_per_shoe": estimate_json(c.realised_per_shoe),
    } for c in study.counts}
    pairs = [{"first": p.first, "second": p.second, "both_trigger": p.both,
              "gain_per_shoe_difference": estimate_json(p.gain_per_shoe),
              "realised_gain_per_shoe_difference": estimate_json(p.realised_per_shoe)} for p in study.comparisons]
    return {"counts": counts, "count_comparisons": pairs}


def play_json(study: Study) -> dict[str, object]:
    """The keys a study's counts and edge sorting add to its JSON (none when it has neither)."""
    out: dict[str, object] = counts_json(study) if study.counts else {}
    if study.edge_sort is not None:
        out["edge_sorting"] = edge_sort_json(study.edge_sort)
    return out


def count_json(study: Study) -> dict[str, object]:
    """The ``count --format json`` object: the shoes dealt and the counts' results."""
    return {"shoe": shoe_json(study.shoe), "shoes": study.shoes, "seed": study.seed, "coups": study.coups,
            "procedure": procedure_json(study.procedure),
            **counts_json(study)}
