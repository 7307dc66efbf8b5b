"""Tables, text and JSON for ``eor``, ``batch``, ``study`` and ``count``, counts of one's own and edge sorting
included. Signs are the bettor's. A simulated figure is shown with its 95% confidence interval (1.96
standard errors, shoes as the sampling units); JSON gives the value, the standard error and the interval."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from exact_odds.analysis.removal import MAX_TAG, effects_are_zero, larger_count
from exact_odds.core.coup import OUTCOMES
from exact_odds.core.shoe import RANK_LABELS
from exact_odds.core.stats import Z95
from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, percent_text, signed_percent
from exact_odds.report.document import procedure_json, shoe_json

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from exact_odds.analysis.removal import LinearCount, Removal
    from exact_odds.batch.evaluation import Evaluation
    from exact_odds.core.coup import Payable
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.stats import Estimate
    from exact_odds.study.edge_sorting import EdgeSortStudy, Play
    from exact_odds.study.replay import Replay
    from exact_odds.study.run import Study


def _float_percent(x: float | None, digits: int = 4) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:+.{digits}f}%"


def int_csv(table: npt.NDArray[np.int64], head: str = "", jit: bool | None = None) -> str:
    """Rows of non-negative int64 as comma-separated decimal lines after ``head`` (ASCII), vectorised.

    Each value is written as five groups of four digits, right-aligned in 20 bytes, then one mask drops
    the leading zeros. A large table (or ``jit``) is written in one compiled pass (:mod:`.csvloops`).
    """
    # numpy-backed: single-shoe commands never load it
    import numpy as np

    from exact_odds.batch.compiled import chosen

    n, k = table.shape
    compiled = chosen("exact_odds.report.csvloops", n, jit)
    if compiled is not None:
        start = len(head)
        out = np.empty(start + table.size * 20, dtype=np.uint8)  # at most 19 digits and a separator a value
        out[:start] = np.frombuffer(head.encode("ascii"), dtype=np.uint8)
        return str(out[:start + compiled.write_int_csv(np.ascontiguousarray(table), out[start:])].data, "ascii")
    flat = table.ravel()
    groups = np.frombuffer("".join(f"{i:04d}" for i in range(10_000)).encode("ascii"), dtype=np.uint32)
    cells = np.empty((flat.size, 6), dtype=np.uint32)  # 24 bytes: 20 digits, separator, padding
    rest = flat
    for i in range(4, -1, -1):
        rest, group = np.divmod(rest, 10_000)
        cells[:, i] = groups[group]
    raw = cells.view(np.uint8).reshape(n, k, 24)
    raw[:, :, 20] = ord(",")
    raw[:, -1, 20] = ord("\n")
    digits = np.searchsorted(10 ** np.arange(1, 19, dtype=np.int64), flat, side="right") + 1
    keep = np.arange(21, dtype=np.uint8) >= (20 - digits).astype(np.uint8)[:, None]
    return head + raw.reshape(-1, 24)[:, :21][keep].tobytes().decode("ascii")


def batch_header(bets: Sequence[Payable], fmt: str) -> str:
    """The header row of :func:`batch_text`'s CSV (empty for ``jsonl``)."""
    if fmt == "jsonl":
        return ""
    return ",".join(["line", *OUTCOMES, "sequences", *(f"player_ev:{bet.name}" for bet in bets)]) + "\n"


def batch_text(evaluation: Evaluation, lines: Sequence[int], fmt: str, *, header: bool = True,
               jit: bool | None = None) -> str:
    """One line per composition, ``csv`` (a header row unless not ``header``) or ``jsonl``: the input line,
    banker, player and tie ways, the ordered six-card sequences, each bet's exact expectation as ``num/den``.
    ``jit``: write with the compiled loops (None: for a large table).
    """
    names = [bet.name for bet in evaluation.bets]
    head = batch_header(evaluation.bets, fmt) if header else ""
    if fmt != "jsonl" and lines and not names and object not in (evaluation.outcomes.dtype, evaluation.sequences.dtype):
        import numpy as np

        table = np.empty((len(lines), 5), dtype=np.int64)
        table[:, 0] = (np.arange(lines.start, lines.stop) if isinstance(lines, range) and lines.step == 1
                       else np.fromiter(lines, dtype=np.int64, count=len(lines)))
        table[:, 1:4] = evaluation.outcomes
        table[:, 4] = evaluation.sequences
        return int_csv(table, head, jit)
    columns = [list(lines), *evaluation.outcomes.T.tolist(), evaluation.sequences.tolist()]
    columns += [[fraction_text(x) for x in evaluation.expectations(j)] for j in range(len(names))]
    if fmt == "jsonl":
        out = []
        for line, b, p, t, seq, *evs in zip(*columns, strict=True):
            record: dict[str, object] = {"line": line, "banker": b, "player": p, "tie": t, "sequences": seq}
            if names:
                record["player_ev"] = dict(zip(names, evs, strict=True))
            out.append(json.dumps(record))
        return "".join(f"{row}\n" for row in out)
    if not lines:
        return head
    return head + "\n".join(map(",".join(["{}"] * len(columns)).format, *columns)) + "\n"


def eor_tables(shoe_label: str, removals: Sequence[Removal], counts: Sequence[LinearCount], fmt: str, *,
               omitted: Sequence[str] = (), max_tag: int = MAX_TAG) -> list[Table]:
    """Effects of removal per bet and rank (percentages; exact fractions for csv), and each bet's suggested
    count (tags up to ``max_tag``) with its betting correlation, or why it has none (:func:`count_notes`).
    """
    people = fmt != "csv"
    ranks = list(RANK_LABELS)
    rows: list[list[Cell]] = [[r.bet.name, percent_text(r.expectation, 4) if people else r.expectation,
                               *("n/a" if e is None else signed_percent(e, 5) if people else e for e in r.effects)]
                              for r in removals]
    notes = [f"Effect of removal: EV(shoe less one card of the rank) - EV(shoe), bettor's side, "
             f"{'% of a unit staked' if people else 'units staked'}; a removed card of unknown suit for suited bets.",
             "Identity: the effects weighted by the composition add up to zero, exactly."]
    if omitted:
        notes.append(f"Left out (suits unknown): {', '.join(omitted)}.")
    effects = Table(f"Effects of removal, {shoe_label}", ["bet", "EV", *ranks], rows, notes)
    count_rows: list[list[Cell]] = [
        [r.bet.name, *(f"{t:+d}" if t else "0" for t in c.tags), decimal_text(c.correlation.rounded(4), 4)
         if any(c.tags) else "n/a" if effects_are_zero(r.effects) else "none"]
        for r, c in zip(removals, counts, strict=True)]
    return [effects, Table(f"Suggested counts, {shoe_label}", ["bet", *ranks, "BC"], count_rows,
                           count_notes(removals, counts, max_tag))]


def count_notes(removals: Sequence[Removal], counts: Sequence[LinearCount], max_tag: int) -> list[str]:
    """The notes under the suggested counts: ``n/a`` when every effect of a bet is zero; ``none`` when no
    balanced count with tags up to ``max_tag`` exists, with the ``--max-tag`` that finds one (up to 10)."""
    notes = ["Balanced linear counts: tags proportional to the effects, one deck's tags sum to zero; "
             "BC = betting correlation (tags vs effects, weighted by the composition)."]
    without = [(r, c) for r, c in zip(removals, counts, strict=True) if not any(c.tags)]
    if any(effects_are_zero(r.effects) for r, _ in without):
        notes.append("n/a: every effect is zero (no linear count helps; such bets depend on the spread of "
                     "the composition, not its level).")
    for r, _ in without:
        if effects_are_zero(r.effects):
            continue
        larger = larger_count(r.effects, r.shoe.counts, above=max_tag)
        found = ("no larger --max-tag up to 10 finds one either" if larger is None else
                 f"--max-tag {larger[0]} finds one (BC {decimal_text(larger[1].correlation.rounded(4), 4)})")
        notes.append(f"none: {r.bet.name}'s effects are not zero, but no balanced count with tags up to "
                     f"±{max_tag} (--max-tag {max_tag}) correlates with them; {found}.")
    return notes


def eor_json(shoe: Shoe, removals: Sequence[Removal], counts: Sequence[LinearCount], *,
             omitted: Sequence[str] = ()) -> dict[str, object]:
    """The ``eor --format json`` object; effects are changes of the player EV per unit staked."""
    return {
        "shoe": shoe_json(shoe),
        "player_ev": {r.bet.name: r.expectation for r in removals},
        "effects_of_removal": {r.bet.name: r.as_dict() for r in removals},
        "count": {r.bet.name: {"tags": dict(zip(RANK_LABELS, c.tags, strict=True)),
                               "betting_correlation": float(decimal_text(c.correlation.rounded(6), 6)),
                               "betting_correlation_squared": c.correlation.squared}
                  for r, c in zip(removals, counts, strict=True)},
        "omitted": list(omitted),
    }


def _with_error(value: float, error: float | None) -> str:
    return f"{value:.6f}" if error is None else f"{value:.6f} ± {error:.6f}"


def percentile_head(q: float) -> str:
    """The header of a percentile column (never ``q25``, which reads as a quartile).

    >>> [percentile_head(q) for q in (0, 0.01, 0.25, 0.5, 1)]
    ['min', 'p1', 'p25', 'p50', 'max']
    """
    return f"p{round(100 * q)}" if 0 < q < 1 else ("min" if q == 0 else "max")


def study_tables(study: Study, fmt: str) -> list[Table]:
    """Edges per bet, count strategies, histograms, and the cut-card effect of a study."""
    quantile_heads = [percentile_head(q) for q, _ in study.bets[0].quantiles]
    rows: list[list[Cell]] = [[b.name, percent_text(b.expectation, 4), _float_percent(b.mean_player_ev),
                               *(_float_percent(v, 3) for _, v in b.quantiles),
                               f"{100 * b.favourable / study.coups:.4f}%", _float_percent(b.perfect_gain, 5),
                               _float_percent(b.perfect_player_ev, 3)] for b in study.bets]
    evs = Table(f"Exact player EV before each coup, {study_title(study)}",
                ["bet", "full shoe", "mean", *quantile_heads, "EV > 0", "gain/coup", "player EV when > 0"], rows,
                  [dealing_note(study),
                   "Player EV: the bettor's expectation given the cards seen (negative when the house wins); mean = "
                   "average over coups dealt. gain/coup: betting one unit only when EV > 0 (perfect information), "
                   "averaged over every coup dealt."])
    count_rows: list[list[Cell]] = []
    for b in study.bets:
        if b.count is None:
            count_rows.append([b.name, "none (effects all zero)", "", "", "", "", ""])
            continue
        tags = " ".join(f"{lab}:{t:+d}" if t else f"{lab}:0" for lab, t in zip(RANK_LABELS, b.count.tags, strict=True))
        count_rows += [[b.name, tags, decimal_text(b.count.correlation.rounded(3), 3), f"{t.threshold:g}",
                        f"{100 * t.coups / study.coups:.3f}%", _float_percent(t.gain, 5),
                        _float_percent(t.player_ev, 3)] for t in b.thresholds]
    counts = Table("Counting: bet one unit when the true count is at least the threshold",
                   ["bet", "tags", "BC", "true count >=", "coups bet", "gain/coup", "player EV per bet"], count_rows,
                   ["True count: running count per deck unseen. gain/coup: mean result per coup dealt."])
    hist_rows: list[list[Cell]] = [[b.name, _float_percent(lo, 3), _float_percent(hi, 3), n,
                                    f"{100 * n / study.coups:.3f}%"] for b in study.bets for lo, hi, n in b.histogram]
    histogram = Table("Distribution of the player EV (histogram)", ["bet", "from", "to", "coups", "share"], hist_rows)
    cut_rows: list[list[Cell]] = [[c.outcome, decimal_text(c.full, 6), _with_error(c.mean, c.mean_error),
                                   _with_error(c.observed, c.observed_error), f"{c.mean - float(c.full):+.6f}"]
                                  for c in study.cut_card]
    cut = Table("Cut-card effect: outcome frequencies over coups dealt versus the full shoe",
                ["outcome", "full shoe", "mean exact per coup", "observed", "mean - full"], cut_rows,
                ["± one standard error, shoes as sampling units."])
    return [evs, counts, histogram, cut, *count_tables(study), *edge_sort_tables(study)]


def study_json(study: Study) -> dict[str, object]:
    """The ``study --format json`` object (floats for simulated statistics, fractions for exact values)."""
    bets: dict[str, object] = {}
    for b in study.bets:
        entry: dict[str, object] = {
            "player_ev": b.expectation, "mean_player_ev": b.mean_player_ev,
            "quantiles": {f"{q:g}": v for q, v in b.quantiles},
            "histogram": [{"from": lo, "to": hi, "coups": n} for lo, hi, n in b.histogram],
            "favourable_coups": b.favourable, "perfect_gain_per_coup": b.perfect_gain,
            "perfect_player_ev_per_bet": b.perfect_player_ev,
        }
        if b.count is not None:
            entry["count"] = {"tags": dict(zip(RANK_LABELS, b.count.tags, strict=True)),
                              "betting_correlation": float(b.count.correlation),
                              "thresholds": [{"true_count": t.threshold, "coups": t.coups, "gain_per_coup": t.gain,
                                              "player_ev_per_bet": t.player_ev} for t in b.thresholds]}
        bets[b.name] = entry
    return {
        "shoe": shoe_json(study.shoe), "shoes": study.shoes, "seed": study.seed, "coups": study.coups,
        "procedure": procedure_json(study.procedure), "bets": bets,
        "cut_card_effect": {c.outcome: {"full": c.full, "mean": c.mean, "mean_error": c.mean_error,
                                        "observed": c.observed, "observed_error": c.observed_error}
                            for c in study.cut_card},
        **play_json(study),
    }


def replay_table(rep: Replay, fmt: str) -> Table:
    """The exact player EV of each bet before each coup of a recorded shoe."""
    people = fmt != "csv"
    rows: list[list[Cell]] = [[str(c.number), str(c.unseen), " ".join(map(str, c.cards)),
                               f"{c.coup.winner} {c.coup.player}-{c.coup.banker}",
                               *((percent_text(x, 4) if people else x) for x in c.expectations)] for c in rep.coups]
    notes = [f"Shoe {rep.shoe}; player EV: the bettor's exact expectation before the coup (negative when the house "
             "wins), given the cards dealt so far."]
    if rep.leftover:
        notes.append(f"{len(rep.leftover)} trailing card(s) make no whole coup: "
                     f"{' '.join(str(c) for c in rep.leftover)}.")
    return Table("Recorded shoe: exact player EV before each coup", ["coup", "unseen", "cards", "result", *rep.bets],
                 rows, notes)


def replay_json(rep: Replay) -> dict[str, object]:
    """The ``study --record --format json`` object."""
    return {"shoe": shoe_json(rep.shoe), "bets": list(rep.bets),
            "coups": [{"coup": c.number, "unseen": c.unseen, "cards": [str(card) for card in c.cards],
                       "winner": c.coup.winner, "player_total": c.coup.player, "banker_total": c.coup.banker,
                       "player_ev": dict(zip(rep.bets, c.expectations, strict=True))} for c in rep.coups],
            "leftover": [str(c) for c in rep.leftover]}


# ---------------------------------------------------------------- counts of one's own and edge sorting

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
