"""The exact coup distribution given partial information about the next coup.

:func:`deal_known` conditions on a :class:`~exact_odds.analysis.information.knowledge.Known`;
:func:`deal_cases` splits the coups by the cases of an
:class:`~exact_odds.analysis.information.knowledge.Information` in one enumeration; :func:`deal_dealt` is
the odds of a coup under way. Ways count ordered six-card sequences, unused cards included (see the
package): ``deal_known(shoe, Known())`` is ``deal(shoe)``, the cases of an information add up, coup by
coup, to ``deal(shoe)``, and a case's probability is its total over ``deal(shoe).total``.

>>> from exact_odds.engine.enumerator import winners
>>> from exact_odds.core.shoe import Shoe
>>> nine = winners(deal_known(Shoe.decks(8), Known.parse("1=9")))
>>> nine["player"], nine["banker"], nine["tie"]
(215108869548032, 132334879180800, 37048426309888)
>>> nine.total == 32 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

from collections.abc import Sequence

from exact_odds.analysis.information.knowledge import (
    POSITIONS,
    Information,
    InformationError,
    Known,
    matches,
    require_suits,
    suited_ranks,
)
from exact_odds.analysis.information.walk import EXCLUDED, Label, Scheme, card_types, walk
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import CARDS_PER_COUP, Card, Rank, Shoe, Suit, falling
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal

Case = tuple[str, ...]
"""One label per watched position of an information."""


def scheme_of(shoe: Shoe, known: Known, information: Information | None = None) -> Scheme:
    """What each position tells of each card: the information's label, or :data:`EXCLUDED` where
    the knowledge rules the card out (``None`` where nothing is watched)."""
    sets = [c for c in known.cards if c is not None]
    if information is not None:
        sets += [cards for groups in information.groups for _, cards in groups]
    split = suited_ranks(sets)
    require_suits(shoe.suited, split)
    watched = {p: i for i, p in enumerate(information.positions)} if information is not None else {}

    def label(position: int, rank: Rank, suit: Suit | None) -> Label:
        allowed = known.cards_at(position)
        if allowed is not None and not matches(allowed, rank, suit):
            return EXCLUDED
        if information is not None and position in watched:
            return information.label_of(watched[position], rank, suit)
        return None

    return Scheme(split, tuple({(r, s): label(p, r, s) for r, s in card_types(split)} for p in POSITIONS))


def deal_known(shoe: Shoe, known: Known, tableau: Tableau = STANDARD_TABLEAU, *,
               detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """Exact ways of every coup over the ordered six-card sequences of ``shoe`` that agree with ``known``
    (:class:`InformationError` if none does).

    >>> from exact_odds.core.shoe import Shoe
    >>> deal_known(Shoe.decks(1), Known.parse("1=9 3=9 2=K 4=K"))[Coup(8, 0, 2, 2)] == 4 * 4 * 3 * 3 * 48 * 47
    True
    """
    found = walk(shoe, scheme_of(shoe, known), tableau, detail)
    dist = Dist(found.get((None,) * CARDS_PER_COUP, {}))
    if not dist.total:
        raise InformationError(f"no sequence of six cards from this shoe agrees with {known}")
    return dist


def deal_cases(shoe: Shoe, information: Information, tableau: Tableau = STANDARD_TABLEAU, *,
               known: Known | None = None, detail: Detail = Detail.POINTS) -> dict[Case, Dist[Coup]]:
    """The coups of ``shoe`` split by the cases of ``information`` (on top of ``known``), in one enumeration:
    each case's distribution is ``deal_known`` of the case, in the order of :meth:`Information.cases`
    (cases that cannot happen left out).

    >>> from exact_odds.engine.enumerator import deal
    >>> from exact_odds.core.shoe import Shoe
    >>> cases = deal_cases(Shoe.decks(8), Information.grouped([1], {"high": "6|7|8|9"}))
    >>> sorted(cases), sum(d.total for d in cases.values()) == deal(Shoe.decks(8)).total
    ([('high',), ('other',)], True)
    """
    known = known or Known()
    found = walk(shoe, scheme_of(shoe, known, information), tableau, detail)
    index = [p - 1 for p in information.positions]
    ways: dict[Case, dict[Coup, int]] = {}
    for labels, dist in found.items():
        case = tuple(str(labels[i]) for i in index)
        into = ways.setdefault(case, {})
        for coup, w in dist.items():
            into[coup] = into.get(coup, 0) + w
    out = {case: Dist(ways[case]) for case in information.cases() if case in ways}
    if not out:
        raise InformationError(f"no sequence of six cards from this shoe agrees with {known}")
    return out


def deal_dealt(shoe: Shoe, cards: Sequence[Card], tableau: Tableau = STANDARD_TABLEAU, *,
               detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """The odds of a coup under way: ``cards`` are its first positions, in dealing order.

    The ways of the *remaining* positions from the remaining cards, adding up to ``(N-k) (N-k-1) ...
    (N-5)`` after ``k`` cards: :func:`deal_known` on the prefix divided by the ways of dealing the known
    cards, which divide every coup's ways exactly. Whether the rules allow these cards is checked by
    :func:`exact_odds.analysis.conditional.deal_given`, not here. At ``Detail.SUITS`` the first four cards
    need their suits.

    >>> from exact_odds.engine.enumerator import winners
    >>> from exact_odds.core.shoe import Shoe, parse_cards
    >>> w = winners(deal_dealt(Shoe.decks(1), parse_cards("9h Kd 4c 3s 5d")))
    >>> (w["banker"], w["tie"], w["player"], w.total)
    (4, 3, 40, 47)
    """
    if not cards:
        return deal(shoe, tableau, detail=detail)
    if detail is Detail.SUITS and any(c.suit is None for c in cards[:4]):
        # Which suits were dealt would change the suited pairs of the rest: not a whole number of ways.
        raise InformationError("suited pairs of a coup under way need the suits of the first four cards")
    dist = deal_known(shoe, Known.prefix(cards), tableau, detail=detail)
    rest = CARDS_PER_COUP - len(cards)  # the positions after the known cards take any cards left
    per, left = divmod(dist.total, shoe.size**rest if shoe.infinite else falling(shoe.size - len(cards), rest))
    if left or any(w % per for _, w in dist.items()):
        raise AssertionError("the ways of the known cards do not divide the ways of the coup")
    return Dist({coup: w // per for coup, w in dist.items()})
