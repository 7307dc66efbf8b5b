"""The dealing procedure of a log's shoes, checked coup by coup: the burn, where each shoe ends, its cards.

A log with ``shoe`` and ``burn`` columns shows every card's place in its shoe, so each shoe is held to
the procedure (docs/checking.md): **burn** (the first coup shows the one turned card, none with
``burn=False``; no later coup shows one), **end** (no coup after the last by the procedure, and no shoe
stopping before it but the log's last: :attr:`ProcedureCheck.open`) and **cards** (no coup past the
shoe's last card). Without a burn column a procedure with a burn cannot be checked (:func:`why_unchecked`).

>>> from exact_odds.dealing.procedure import Procedure
>>> from exact_odds.witness.verify.log import CoupLog
>>> from exact_odds.witness.verify.shoes import shoe_order
>>> cards = np.arange(6 * 10).reshape(10, 6) % 52
>>> log = CoupLog.from_dealt(cards, player_cards=[2] * 10, banker_cards=[2] * 10, shoe=[1] * 10)
>>> found = procedure_check(log, shoe_order(log), Procedure(burn=False, cut=6, last_coup="this"), 40, keep=1)
>>> found.check.violation_count, found.check.violations[0].message[:69]
(1, 'coup 10 of shoe 1: dealt after the shoe should have ended with coup 9')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact_odds.core.verdict import Check, Violation, deterministic_check
from exact_odds.dealing.procedure import Procedure
from exact_odds.witness.verify.log import CoupLog
from exact_odds.witness.verify.shoes import ShoeOrder, violation


def why_unchecked(log: CoupLog, procedure: Procedure | None) -> str | None:
    """Why ``log`` cannot show ``procedure`` (``None``: it can, and :func:`procedure_check` checks it)."""
    if procedure is None or procedure.fresh:
        return "no procedure given"
    if log.shoe is None:
        return "the log has no shoe column, so every coup is taken as dealt from a fresh full shoe"
    if procedure.burn and log.burn_ranks is None:
        return ("the log has no burn column: without the card each shoe's burn turns face up, where its "
                "coups lie in the shoe is unknown")
    return None


@dataclass(frozen=True, slots=True)
class ProcedureCheck:
    """The ``procedure`` check of a block of whole shoes, and ``open``: the violation that the shoe holding the
    block's last coup stopped early (``None`` when it did not); it counts only when more coups follow that shoe."""

    check: Check
    open: Violation | None


def procedure_check(log: CoupLog, shoes: ShoeOrder, procedure: Procedure, size: int, *, keep: int) -> ProcedureCheck:
    """Check the burn, the end and the cards of each shoe of ``log`` (shoes of ``size`` cards) against
    ``procedure``; the first ``keep`` violations in full."""
    order, first = shoes.order, shoes.first
    used = (log.player_cards.astype(np.int64) + log.banker_cards)[order]
    burn_ranks = np.zeros((len(log), 1), dtype=np.int8) if log.burn_ranks is None else log.burn_ranks
    shown = (burn_ranks[order] > 0).sum(axis=1)
    shoe_id = np.cumsum(first) - 1
    opening = np.flatnonzero(first)
    bad_burn = shown != np.where(first, int(procedure.burn), 0)
    turned = burn_ranks[order][opening].max(axis=1).astype(np.int64)
    burned = np.where(procedure.burn, 1 + np.minimum(turned, 10), 0)  # the turned card and its value more
    before = np.cumsum(used) - used
    start = burned[shoe_id] + before - before[opening][shoe_id]
    last = np.asarray(procedure.last(start, used, size), dtype=bool)
    positions = np.arange(len(order))
    end = np.full(len(opening), len(order), dtype=np.int64)  # each shoe's last coup by the procedure
    np.minimum.at(end, shoe_id[last], positions[last])
    shoe_burn_ok = ~np.logical_or.reduceat(bad_burn, opening) if len(opening) else np.zeros(0, dtype=bool)
    judged = shoe_burn_ok[shoe_id]
    after = judged & ~first & (positions == end[shoe_id] + 1)  # the first coup dealt after its shoe's last
    closing = np.r_[opening[1:] - 1, len(order) - 1]
    early = shoe_burn_ok & (end == len(order))
    past = judged & (start + used > size)
    found: list[tuple[int, str]] = []
    rules = procedure.shoe_rules()

    def cards(i: int) -> str:
        return f"cards {int(start[i]) + 1}-{int(start[i] + used[i])} of {size}"

    for i in np.flatnonzero(bad_burn)[:keep].tolist():
        found.append((i, _burn_message(int(shown[i]), bool(first[i]), procedure)))
    for i in np.flatnonzero(after)[:keep].tolist():
        e = int(end[shoe_id[i]])
        found.append((i, f"dealt after the shoe should have ended with coup {e - int(opening[shoe_id[i]]) + 1} "
                         f"({cards(e)}; {rules})"))
    for i in np.flatnonzero(past)[:keep].tolist():
        found.append((i, f"deals {cards(i)}: past the shoe's last card"))

    def ends_early(i: int) -> str:
        return f"the shoe ends after this coup ({cards(i)}), before its last coup by the procedure ({rules})"

    final = int(np.argmax(order == len(log) - 1))  # the block's last coup, in shoe order
    stops = early & (closing == final)  # the shoe the block stops in: judged when more coups follow it
    open_violation = violation(log, shoes, int(order[final]), ends_early(final)) if stops.any() else None
    found += [(i, ends_early(i)) for i in closing[early & ~stops][:keep].tolist()]
    count = int(bad_burn.sum() + after.sum() + past.sum() + (early & ~stops).sum())
    kept = [violation(log, shoes, int(order[i]), text) for i, text in sorted(found, key=lambda item: item[0])[:keep]]
    check = deterministic_check("procedure", len(opening), kept, count,
                                [f"Each shoe's burn, its last coup and its cards against the procedure: {rules}."],
                                unit="shoes")
    return ProcedureCheck(check, open_violation)


def _burn_message(shown: int, first: bool, procedure: Procedure) -> str:
    if not procedure.burn:
        return f"shows {shown} burn card{'s' * (shown != 1)}, but the procedure has no burn"
    if not first:
        return "shows a burn card after the shoe's first coup; the procedure burns only before it"
    if shown == 0:
        return "shows no burn card: the procedure turns the shoe's first card face up and burns by its value"
    return f"shows {shown} burn cards; the procedure turns one card face up"
