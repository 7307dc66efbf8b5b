"""The deterministic checks of a log, coup by coup: rules, labels, accounting and the dealing procedure.

Every decision is asked of the tableau (:func:`~exact_odds.core.tableau.draw_lookup`); every label is recomputed
from the cards (a ``net:<bet>`` to half a unit of its last decimal when written with four or more); no card is
dealt more often than its shoe holds; a log with ``shoe`` and ``burn`` columns is held to the procedure's burn,
end and cards (docs/checking.md). Messages name the coup (``"coup 12 of shoe 3: ..."``) and say what the table,
the cards or the procedure say instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.bets import BetError, find_bet
from exact_odds.core.coup import Detail, Payable, encode, payout_lookup
from exact_odds.core.shoe import RANK_LABELS, SUITS, Shoe
from exact_odds.core.tableau import STOOD, Tableau, banker_rule, draw_lookup, player_rule
from exact_odds.core.verdict import Check, Violation, deterministic_check
from exact_odds.dealing.procedure import Procedure
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.registry import name_key
from exact_odds.witness.verify.log import (
    LABELS,
    MISSING,
    CoupLog,
    ShoeOrder,
    compiled_loops,
    counts_by,
    label_text,
    seen_before,
    violation,
)

if TYPE_CHECKING:
    from exact_odds.bets.main import Configuration

POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Point value by rank 0-13 (0: no card; ace 1; ten and court cards 0)."""


@dataclass(frozen=True, eq=False, slots=True)
class Hands:
    """What each coup's cards show: two-card totals, the player's third card's points (or ``STOOD``), final
    totals, the winner (index into ``OUTCOMES``), the pairs, and the coup code (suited flags where suits show)."""

    player2: NDArray[np.int8]
    banker2: NDArray[np.int8]
    third: NDArray[np.int8]
    player: NDArray[np.int64]
    banker: NDArray[np.int64]
    winner: NDArray[np.int64]
    player_pair: NDArray[np.bool_]
    banker_pair: NDArray[np.bool_]
    code: NDArray[np.int64]


def hands_of(log: CoupLog) -> Hands:
    """The :class:`Hands` of every coup of ``log`` (in one pass with the compiled loops)."""
    fast = compiled_loops(len(log))
    return _plain_hands(log) if fast is None else _compiled_hands(fast, log)


def _compiled_hands(fast: ModuleType, log: CoupLog) -> Hands:
    weights = np.asarray(encode(*np.eye(9, dtype=np.int64)), dtype=np.int64)  # each part's weight in the code
    kinds = (np.int8,) * 3 + (np.int64,) * 3 + (np.bool_,) * 2 + (np.int64,)  # the fields' types, in order
    arrays: list[NDArray[Any]] = [np.empty(len(log), dtype=kind) for kind in kinds]
    hands = Hands(*arrays)
    fast.hands(log.ranks, log.suits, log.player_cards, log.banker_cards, STOOD, weights,
               *(getattr(hands, f.name) for f in fields(Hands)))
    return hands


def _plain_hands(log: CoupLog) -> Hands:
    pts = np.take(np.asarray(POINTS, dtype=np.int8), log.ranks)  # small sums: int8 holds them
    rows = np.arange(len(log))
    player_drew, banker_drew = log.player_cards == 3, log.banker_cards == 3
    player2, banker2 = (pts[:, 0] + pts[:, 2]) % 10, (pts[:, 1] + pts[:, 3]) % 10
    third = np.where(player_drew, pts[:, 4], STOOD)
    player = (player2 + np.where(player_drew, pts[:, 4], 0)) % 10
    banker = (banker2 + np.where(banker_drew, pts[rows, log.banker_third_slot()], 0)) % 10
    winner = np.where(banker > player, 0, np.where(player > banker, 1, 2))
    player, banker = player.astype(np.int64), banker.astype(np.int64)
    r, s = log.ranks, log.suits
    player_pair, banker_pair = r[:, 0] == r[:, 2], r[:, 1] == r[:, 3]
    player_suited = player_pair & (s[:, 0] == s[:, 2]) & (s[:, 0] >= 0)
    banker_suited = banker_pair & (s[:, 1] == s[:, 3]) & (s[:, 1] >= 0)
    code = encode(player, banker, player_drew, banker_drew, player_pair, banker_pair, player_suited, banker_suited,
                  player_pair & banker_pair & (r[:, 0] == r[:, 1]))
    return Hands(player2, banker2, third, player, banker, winner, player_pair, banker_pair,
                 np.asarray(code, dtype=np.int64))


class _Found:
    """Violations as they are found: the first ``keep`` in full, all of them counted."""

    def __init__(self, keep: int) -> None:
        self.keep, self.count, self.items = keep, 0, list[tuple[int, str]]()

    def add(self, indices: NDArray[Any], message: Callable[[int], str]) -> None:
        self.count += len(indices)
        for i in indices[: self.keep].tolist():  # the first of each kind; the first of all are sorted out below
            self.items.append((i, message(i)))

    def violations(self, log: CoupLog, shoes: ShoeOrder, order: NDArray[Any] | None = None) -> list[Violation]:
        """The first ``keep`` in full, by index (positions in ``order`` when given, else the log's)."""
        first = sorted(self.items, key=lambda item: item[0])[: self.keep]
        return [violation(log, shoes, i if order is None else int(order[i]), text) for i, text in first]


def _rule_message(tableau: Tableau, h: Hands, i: int, banker_drew: bool | None = None) -> str:
    """What the table says of coup ``i``'s player decision (or, given ``banker_drew``, the banker's)."""
    p, b, third = int(h.player2[i]), int(h.banker2[i]), int(h.third[i])
    drew = third != STOOD if banker_drew is None else banker_drew
    did, told = ("drew", "stand") if drew else ("stood", "draw")
    who, other = (f"player {p}", f"banker {b}") if banker_drew is None else (f"banker {b}", f"player {p}")
    if tableau.natural(p, b):
        return f"{who} {did} against {other}; the table says a natural ends the coup"
    if banker_drew is None:
        return f"{who} {did}; the table says {told} ({player_rule(tableau)})"
    after = "after the player stood" if third == STOOD else f"after player's third card {third}"
    rule = banker_rule(tableau, b, None if third == STOOD else third)
    return f"{who} {did} {after}; the table says {told} ({rule})"


def rules_check(log: CoupLog, hands: Hands, shoes: ShoeOrder, tableau: Tableau, *, keep: int) -> Check:
    """Every player and banker decision of ``log`` against ``tableau``."""
    lookup = draw_lookup(tableau)
    player_drew, banker_drew = log.player_cards == 3, log.banker_cards == 3
    found = _Found(keep)
    found.add(np.flatnonzero(lookup.player[hands.player2, hands.banker2] != player_drew),
              lambda i: _rule_message(tableau, hands, i))
    banker_should = lookup.banker[hands.player2, hands.banker2, hands.third]
    found.add(np.flatnonzero(banker_should != banker_drew),
              lambda i: _rule_message(tableau, hands, i, bool(banker_drew[i])))
    return deterministic_check("rules", len(log), found.violations(log, shoes), found.count,
                               [f"Each decision asked of the tableau {tableau.name!r}."])


def _label_values(log: CoupLog, hands: Hands, tableau: Tableau) -> dict[str, NDArray[Any]]:
    """What the cards say of each label the log carries, in the order of the report."""
    truths = {"winner": hands.winner, "player_total": hands.player, "banker_total": hands.banker,
              "player_pair": hands.player_pair, "banker_pair": hands.banker_pair}
    if "natural" in log.labels:
        natural = np.array([[tableau.natural(p, b) for b in range(10)] for p in range(10)], dtype=bool)
        truths["natural"] = natural[hands.player2, hands.banker2]
    return {name: truths[name] for name in LABELS if name in log.labels}


def _cards_shown(log: CoupLog, hands: Hands, name: str, i: int) -> str:
    player, banker = log.hands(i)
    if name in ("player_pair", "player_total"):
        return player
    if name in ("banker_pair", "banker_total"):
        return banker
    if name == "natural":
        return f"player {int(hands.player2[i])}, banker {int(hands.banker2[i])} on two cards"
    return f"player {player} = {int(hands.player[i])}, banker {banker} = {int(hands.banker[i])}"


def _matches(logged: NDArray[np.float64], decimals: NDArray[np.int8], exact: NDArray[np.float64]) -> NDArray[Any]:
    """Whether logged net results equal the exact ones (to half a unit of a fourth or later decimal)."""
    slack = np.where(decimals >= 4, 0.5 * 10.0 ** -decimals.astype(np.float64), 0.0) + 1e-9
    return np.asarray(np.abs(logged - exact) <= slack)


def _net_labels(log: CoupLog, hands: Hands, find_bet: Callable[[str], Payable], found: _Found) -> tuple[int, list[str]]:
    """Compare every ``net:<bet>`` column; returns the values checked and notes."""
    checked, notes = 0, list[str]()
    has_suits: NDArray[np.bool_] = np.asarray((log.suits[:, :4] >= 0).all(axis=1))
    for name, (logged, decimals) in log.nets.items():
        try:
            bet = find_bet(name)
        except InputError as err:
            raise InputError(f"column 'net:{name}': {err}") from None
        table, scale = payout_lookup(bet, Detail.SUITS)
        exact = table[hands.code] / scale
        present = ~np.isnan(logged)
        if bet.detail is Detail.SUITS and not has_suits[present].all():
            notes.append(f"net:{name}: coups whose first four cards lack suits are not checked (the bet needs them).")
            present &= has_suits
        checked += int(present.sum())
        bad = np.flatnonzero(present & ~_matches(logged, decimals, exact))
        found.add(bad, partial(_net_message, log, hands, name, logged, table, scale))
    return checked, notes


def _net_message(log: CoupLog, hands: Hands, name: str, logged: NDArray[np.float64], table: NDArray[np.int64],
                 scale: int, i: int) -> str:
    pays = Fraction(int(table[hands.code[i]]), scale)
    return f"net:{name} is {logged[i]:g} in the log; the bet pays {pays} ({_cards_shown(log, hands, 'winner', i)})"


def _label_message(log: CoupLog, hands: Hands, name: str, logged: NDArray[Any], truth: NDArray[Any], i: int) -> str:
    return (f"{name} is {label_text(name, int(logged[i]))} in the log; the cards give "
            f"{label_text(name, int(truth[i]))} ({_cards_shown(log, hands, name, i)})")


def label_check(log: CoupLog, hands: Hands, shoes: ShoeOrder, tableau: Tableau,
                find_bet: Callable[[str], Payable], *, keep: int) -> Check:
    """Every label ``log`` carries, recomputed from its cards."""
    found = _Found(keep)
    checked = 0
    fast = compiled_loops(len(log))
    for name, truth in _label_values(log, hands, tableau).items():
        logged = log.labels[name]
        counted = None if fast is None else fast.label_errors(logged, truth, MISSING)  # (given, wrong) in one pass
        checked += int((logged != MISSING).sum()) if counted is None else counted[0]
        if counted is None or counted[1]:  # the coups looked at only when some label is wrong
            found.add(np.flatnonzero((logged != MISSING) & (logged != truth)),
                      partial(_label_message, log, hands, name, logged, truth))
    net_checked, notes = _net_labels(log, hands, find_bet, found)
    return deterministic_check("labels", checked + net_checked, found.violations(log, shoes), found.count, notes,
                               unit="labels")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _suspects(log: CoupLog, shoes: ShoeOrder, kinds: NDArray[Any], n_kinds: int,
              holds: NDArray[np.int64]) -> NDArray[np.int64]:
    """Positions (in shoe order) of the coups of every shoe that deals some kind (``kinds``: log order) more often
    than it holds, from totals (a fast pass before :func:`_over`)."""
    valid = kinds >= 0
    if log.shoe is None:
        if holds.min(initial=6) >= kinds.shape[1]:  # a coup shows at most that many cards
            return np.zeros(0, dtype=np.int64)
        same = ((kinds[:, :, None] == kinds[:, None, :]) & valid[:, None, :]).sum(axis=2)
        bad_coups = (valid & (same > holds[np.maximum(kinds, 0)])).any(axis=1)
        return np.flatnonzero(bad_coups[shoes.order])
    totals = counts_by(log.shoe, kinds, len(log.shoe_names), n_kinds)
    bad_shoes = np.flatnonzero((totals > holds).any(axis=1))
    if not bad_shoes.size:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.isin(log.shoe[shoes.order], bad_shoes))


def _over(log: CoupLog, shoes: ShoeOrder, kinds: NDArray[Any], n_kinds: int, holds: NDArray[np.int64],
          name: Callable[[int], str], found: _Found) -> NDArray[np.bool_]:
    """Record every coup that deals a card of a kind (``kinds``: log order, -1 for none) its shoe has run out
    of; return them (log order)."""
    bad = np.zeros(len(log), dtype=bool)
    subset = _suspects(log, shoes, kinds, n_kinds, holds)
    if not subset.size:
        return bad
    for start, _, before, own in seen_before(kinds[shoes.order[subset]], None, n_kinds, shoes.first[subset]):
        after = before + own
        first_kind: dict[int, tuple[int, int]] = {}
        for row, kind in np.argwhere((after > holds) & (own > 0)).tolist():
            first_kind.setdefault(int(shoes.order[subset[start + row]]), (row, kind))
        bad[list(first_kind)] = True

        def message(i: int, b: dict[int, tuple[int, int]] = first_kind, a: NDArray[Any] = after) -> str:
            row, kind = b[i]
            return f"the {_ordinal(int(a[row, kind]))} {name(kind)} dealt from a shoe that holds {int(holds[kind])}"

        found.add(np.array(sorted(first_kind), dtype=np.int64), message)
    return bad


def accounting_check(log: CoupLog, shoes: ShoeOrder, shoe: Shoe, *, keep: int) -> tuple[Check, NDArray[np.bool_]]:
    """No card dealt more often than ``shoe`` holds, per shoe of the log (or per coup without shoes); returns
    the check and, in log order, whether each coup's shoe adds up (the statistics leave out those that do not)."""
    if shoe.infinite:
        return (deterministic_check("accounting", 0, [], 0, ["An infinite deck holds every card without end."],
                                    unit="cards"),
                np.ones(len(log), dtype=bool))
    added = _shoes_add_up(log, shoe)
    if added is not None:
        cards, suited = added
        notes = ["Cards with suits are counted by rank and by rank and suit."] if suited else []
        return deterministic_check("accounting", cards, [], 0, notes, unit="cards"), np.ones(len(log), dtype=bool)
    found = _Found(keep)
    shown, suits = log.ranks, log.suits
    if log.burn_ranks is not None and log.burn_suits is not None:  # burn cards come out of the shoe too
        shown, suits = np.concatenate([shown, log.burn_ranks], axis=1), np.concatenate([suits, log.burn_suits], axis=1)
    ranks = shown - 1  # int8 holds the kinds of rank (0-12) and of rank and suit (0-51)
    bad = _over(log, shoes, ranks, 13, np.array(shoe.counts, dtype=np.int64),
                lambda k: f"card of rank {RANK_LABELS[k]}", found)
    notes = []
    if shoe.suited is not None and (suits >= 0).any():
        kinds = np.where(suits >= 0, ranks * 4 + suits, -1)
        holds = np.array([c for row in shoe.suited for c in row], dtype=np.int64)
        bad |= _over(log, shoes, kinds, 52, holds, _card_name, found)
        notes.append("Cards with suits are counted by rank and by rank and suit.")
    usable = ~bad if log.shoe is None else ~np.isin(log.shoe, np.unique(log.shoe[bad]))
    cards = int((shown > 0).sum())
    check = deterministic_check("accounting", cards, found.violations(log, shoes), found.count, notes, unit="cards")
    return check, usable


def _shoes_add_up(log: CoupLog, shoe: Shoe) -> tuple[int, bool] | None:
    """In one compiled pass, when every shoe adds up: the cards shown and whether suits were counted too."""
    fast = None if log.shoe is None else compiled_loops(log.ranks.size)
    if fast is None or log.shoe is None:
        return None
    burn_ranks = burn_suits = np.zeros((len(log), 0), dtype=np.int8)
    if log.burn_ranks is not None and log.burn_suits is not None:  # burn cards come out of the shoe too
        burn_ranks, burn_suits = log.burn_ranks, log.burn_suits
    by_rank = np.empty((len(log.shoe_names), 13), dtype=np.int32)
    by_card = np.empty((len(log.shoe_names), 52), dtype=np.int32)
    cards, suits = fast.shoe_totals(log.shoe, log.ranks, log.suits, burn_ranks, burn_suits, by_rank, by_card)
    suited = shoe.suited is not None and suits > 0
    if (by_rank > np.array(shoe.counts)).any() or (suited and (by_card > np.array(shoe.suited).reshape(52)).any()):
        return None
    return int(cards), suited


def _card_name(kind: int) -> str:
    return f"{RANK_LABELS[kind // 4]}{SUITS[kind % 4].value}"


def bet_finder(extra: Sequence[Payable] = (), *, config: Configuration | None = None) -> Callable[[str], Payable]:
    """Find a bet by name: in ``config``'s pay table, then among ``extra`` (bets read from files), then among the
    built-in bets (whose error lists the valid names)."""
    def find(name: str) -> Payable:
        if config is not None:
            try:
                return config.bet(name)
            except BetError:
                pass
        for bet in extra:
            if name_key(name) in map(name_key, (bet.name, *getattr(bet, "aliases", ()))):
                return bet
        return find_bet(name)

    return find


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
    """The ``procedure`` check of a block of whole shoes, and ``open``: the violation that the block's last shoe
    stopped early (``None`` when it did not), which counts only when more coups follow that shoe."""

    check: Check
    open: Violation | None


def procedure_check(log: CoupLog, shoes: ShoeOrder, procedure: Procedure, size: int, *, keep: int) -> ProcedureCheck:
    """Check the burn, the end and the cards of each shoe of ``log`` (shoes of ``size`` cards) against
    ``procedure``; the first ``keep`` violations in full.

    >>> from exact_odds.witness.verify.log import shoe_order
    >>> cards = np.arange(6 * 10).reshape(10, 6) % 52
    >>> log = CoupLog.from_dealt(cards, player_cards=[2] * 10, banker_cards=[2] * 10, shoe=[1] * 10)
    >>> found = procedure_check(log, shoe_order(log), Procedure(burn=False, cut=6, last_coup="this"), 40, keep=1)
    >>> found.check.violation_count, found.check.violations[0].message[:69]
    (1, 'coup 10 of shoe 1: dealt after the shoe should have ended with coup 9')
    """
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
    rules = procedure.shoe_rules()

    def cards(i: int) -> str:
        return f"cards {int(start[i]) + 1}-{int(start[i] + used[i])} of {size}"

    def dealt_after(i: int) -> str:
        e = int(end[shoe_id[i]])
        ended = e - int(opening[shoe_id[i]]) + 1
        return f"dealt after the shoe should have ended with coup {ended} ({cards(e)}; {rules})"

    def ends_early(i: int) -> str:
        return f"the shoe ends after this coup ({cards(i)}), before its last coup by the procedure ({rules})"

    found = _Found(keep)
    found.add(np.flatnonzero(bad_burn), lambda i: _burn_message(int(shown[i]), bool(first[i]), procedure))
    found.add(np.flatnonzero(after), dealt_after)
    found.add(np.flatnonzero(past), lambda i: f"deals {cards(i)}: past the shoe's last card")
    final = int(np.argmax(order == len(log) - 1))  # the block's last coup, in shoe order
    stops = early & (closing == final)  # the shoe the block stops in: judged when more coups follow it
    open_violation = violation(log, shoes, int(order[final]), ends_early(final)) if stops.any() else None
    found.add(closing[early & ~stops], ends_early)
    check = deterministic_check("procedure", len(opening), found.violations(log, shoes, order), found.count,
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
