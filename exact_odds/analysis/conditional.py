"""Exact odds of a coup already under way, and a coup told step by step.

The cards on the table are a *prefix* of the coup's dealing order (P, B, P, B, then the third cards).
:func:`deal_given` checks that the tableau allows them (:func:`dealing_order`) and counts the rest of the
coup: the ordered sequences of the *remaining* positions from the remaining cards, unused ones included.

>>> from exact_odds.core.shoe import Shoe
>>> given = deal_given(Shoe.decks(8), parse_dealt("P: 9h 4c B: Kd"))
>>> given.total == 413 * 412 * 411
True

:func:`explain_coup` tells why each third card was or was not drawn, quoting the rule in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.analysis.information import deal_dealt
from exact_odds.core.coup import OUTCOMES, Coup, Detail, Winner
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import SUITS, Card, Shoe, ShoeError, parse_card
from exact_odds.core.tableau import (
    STANDARD_TABLEAU,
    Play,
    Tableau,
    banker_rule,
    natural_totals,
    play,
    player_rule,
    ranges_text,
)
from exact_odds.engine.enumerator import deal, winners
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown


class DealtError(InputError):
    """Cards dealt that no coup can show (wrong order, a draw the rules forbid); the message says why."""


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards on the table in the current coup: the player's and the banker's, in order."""

    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()

    def __str__(self) -> str:
        sides = [f"{name}: {' '.join(map(str, cards))}" for name, cards in (("P", self.player), ("B", self.banker))
                 if cards]
        return " ".join(sides) or "no cards"


_SIDE = re.compile(r"^(p|player|punto|b|banker|banco):?$", re.IGNORECASE)


def parse_dealt(text: str) -> Dealt:
    """The cards of ``"P: 9h 4c B: Kd"`` (sides ``P``/``Player``, ``B``/``Banker``; cards as in ``parse_card``):
    each side named once, with its cards in the order dealt, or left out when it has none yet."""
    sides: dict[str, list[Card]] = {}
    current: list[Card] | None = None
    for token in filter(None, re.split(r"[\s,]+", text.replace(":", ": ").strip())):
        side = _SIDE.match(token)
        if side is not None:
            key = side.group(1)[0].lower()
            if key in sides:
                raise DealtError(f"the {'player' if key == 'p' else 'banker'} is named twice in {shown(text)}")
            current = sides[key] = []
        elif token.endswith(":"):
            raise DealtError(f"unknown side {token[:-1]!r} in {shown(text)} (use 'P:' and 'B:')")
        elif current is None:
            raise DealtError(f"say whose cards come first: start with 'P:' or 'B:' (got {shown(token)})")
        else:
            current.append(parse_card(token))
    if not sides:
        raise DealtError("no cards dealt: write e.g. 'P: 9h 4c B: Kd'")
    return Dealt(tuple(sides.get("p", [])), tuple(sides.get("b", [])))


def _total(cards: Sequence[Card]) -> int:
    return sum(c.rank.point for c in cards) % 10


def dealing_order(dealt: Dealt, tableau: Tableau = STANDARD_TABLEAU) -> tuple[Card, ...]:
    """The dealt cards in dealing order (P, B, P, B, third cards), after checking that ``tableau`` allows
    them (the error says which rule forbids a third card)."""
    p, b = dealt.player, dealt.banker
    if len(p) > 3 or len(b) > 3:
        raise DealtError("a hand has at most three cards")
    first = min(len(p), 2), min(len(b), 2)
    if first not in ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)):
        raise DealtError("the first four cards go player, banker, player, banker: "
                         f"{len(p)} player and {len(b)} banker cards cannot be on the table")
    order = [hand[i] for i in range(2) for hand in (p, b) if i < len(hand)]
    if len(p) < 3 and len(b) < 3:
        return tuple(order)
    if first != (2, 2):
        raise DealtError("a third card comes only after both hands have two cards")
    pt, bt = _total(p[:2]), _total(b[:2])
    if tableau.natural(pt, bt):
        hand, natural = ("player", pt) if pt in natural_totals(tableau) else ("banker", bt)
        raise DealtError(f"the {hand} has a natural {natural}: the coup ended on four cards, no third card")
    player_draws = tableau.player_draws_on(pt, bt)
    if len(p) == 3 and not player_draws:
        raise DealtError(f"the player stands on {pt} ({player_rule(tableau)}): no third player card")
    if len(p) == 2 and player_draws:
        raise DealtError(f"the player draws on {pt} before the banker ({player_rule(tableau)}): "
                         "give the player's third card first")
    third = p[2].rank.point if len(p) == 3 else None
    if len(b) == 3 and not tableau.banker_draws_given(pt, bt, third):
        raise DealtError(f"the banker stands on {bt} here ({banker_rule(tableau, bt, third)}): no third banker card")
    return (*order, *p[2:], *b[2:])


def _check_in_shoe(shoe: Shoe, cards: Sequence[Card]) -> None:
    """Refuse dealt cards the shoe does not hold (a suit named on a shoe whose suits are not known)."""
    if shoe.infinite:
        return
    for card in cards:
        i = card.rank - 1
        if sum(c.rank == card.rank for c in cards) > shoe.counts[i]:
            raise ShoeError(f"cannot deal {card}: no {card.rank.label} left in the shoe")
        if card.suit is None:
            continue
        if shoe.suited is None:
            raise ShoeError(f"cannot deal {card}: this shoe's suits are not known (leave the suit out)")
        if cards.count(card) > shoe.suited[i][SUITS.index(card.suit)]:
            raise ShoeError(f"cannot deal {card}: none of that suit left in the shoe")


def deal_given(shoe: Shoe, dealt: Dealt, tableau: Tableau = STANDARD_TABLEAU, *,
               detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """Exact ways of every coup outcome given the cards already dealt in this coup (``shoe``: before them):
    :func:`~exact_odds.analysis.information.deal_dealt` of them, once the rules and the shoe allow them."""
    order = dealing_order(dealt, tableau)
    _check_in_shoe(shoe, order)
    return deal_dealt(shoe, order, tableau, detail=detail)


def _coup(end: Play) -> Coup:
    return Coup(end.player, end.banker, end.player_cards, end.banker_cards)


# ---------------------------------------------------------------- a coup told step by step


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of a coup: what happened and why, the cards dealt so far, and the exact distribution of
    the coup given them (``None`` once the coup is over)."""

    text: str
    cards: Dealt
    odds: Dist[Coup] | None

    def winner_odds(self) -> dict[Winner, Fraction] | None:
        """The exact probability of each outcome given the cards seen, in ``OUTCOMES`` order (``None`` once over)."""
        if self.odds is None:
            return None
        by_winner = winners(self.odds)
        return {w: by_winner.probability(w) for w in OUTCOMES}


def explain_coup(shoe: Shoe, cards: Sequence[Card], tableau: Tableau = STANDARD_TABLEAU, *,
                 card_text: Callable[[Card], str] = str) -> tuple[list[Step], Coup]:
    """Deal one coup from ``cards`` (in dealing order) out of ``shoe`` and tell it step by step: the steps
    (before the coup, after four cards, after the player's third card if any, the banker's decision) and the
    coup. ``card_text`` writes a card (``Q♠`` or ``Qs``); too few cards raise
    :class:`~exact_odds.core.tableau.IncompleteCoup`."""
    end = play(tableau, [c.rank.point for c in cards])
    p: tuple[Card, ...] = (cards[0], cards[2])
    b: tuple[Card, ...] = (cards[1], cards[3])
    pt, bt = _total(p), _total(b)
    four = Dealt(p, b)
    steps = [Step("Before the coup, from the cards left in the shoe.", Dealt(), deal(shoe, tableau)),
             Step(f"Player {pt}, banker {bt} on the first four cards.", four, deal_given(shoe, four, tableau))]
    if tableau.natural(pt, bt):
        side, t = ("player", pt) if pt in natural_totals(tableau) else ("banker", bt)
        steps.append(Step(f"The {side} has a natural {t}: both hands stand (a natural, "
                          f"{ranges_text(natural_totals(tableau))} on two cards, ends the coup).", four, None))
        return steps, _coup(end)
    third: int | None = None
    if end.player_cards == 3:
        p, third = (*p, cards[4]), cards[4].rank.point
        steps.append(Step(f"The player has {pt} and draws ({player_rule(tableau)}): {card_text(cards[4])} "
                          f"({third} points) makes {end.player}.", Dealt(p, b), deal_given(shoe, Dealt(p, b), tableau)))
    else:
        steps.append(Step(f"The player has {pt} and stands ({player_rule(tableau)}).", four, None))
    rule = banker_rule(tableau, bt, third)
    if end.banker_cards == 3:
        b = (*b, cards[2 + end.player_cards])  # the card after the player's last
        steps.append(Step(f"The banker has {bt} and draws ({rule}): {card_text(b[2])} makes {end.banker}.",
                          Dealt(p, b), None))
    else:
        steps.append(Step(f"The banker has {bt} and stands ({rule}).", Dealt(p, b), None))
    return steps, _coup(end)
