"""Exact odds of a coup already under way: the distribution given the cards dealt so far.

A coup is dealt P, B, P, B and then the third cards as the tableau says, so the cards
already on the table are a *prefix* of the coup's six-card sequence. :func:`deal_given`
removes them from the shoe and walks the rest of the coup: the missing first-four cards are
enumerated over the kinds of card left, and then the third-card stage is
:func:`exact_odds.engine.enumerator.third_stage` (or, after a player's third card, the rest of the coup
played by :func:`exact_odds.core.tableau.play_totals`).

Every decision (a natural, the player's draw, the banker's draw) is the tableau's own rule,
asked through :meth:`~exact_odds.core.tableau.Tableau.natural`,
:meth:`~exact_odds.core.tableau.Tableau.player_draws_on`,
:meth:`~exact_odds.core.tableau.Tableau.banker_draws_given` and :func:`~exact_odds.core.tableau.play`,
so a custom tableau is followed here exactly as everywhere else. The rule's *words* in the
messages (:func:`player_rule`, :func:`banker_rule`) are read off the same questions.

Convention: ways count the ordered sequences of the coup's *remaining* positions drawn from
the remaining cards, unused positions included, so the ways of a coup with ``k`` cards dealt
from an ``N``-card shoe add up to ``(N-k) (N-k-1) ... (N-5)``. This is the brute-force count
of every ordered six-card sequence that starts with the dealt cards, divided by the ways of
dealing those cards (tests check it on tiny shoes).

>>> from exact_odds.core.shoe import Shoe
>>> given = deal_given(Shoe.decks(8), parse_dealt("P: 9h 4c B: Kd"))
>>> given.total == 413 * 412 * 411
True

:func:`explain_coup` tells why each third card was or was not drawn, rule by rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.core.coup import OUTCOMES, Coup, Detail, Winner
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, SUITS, Card, Shoe, ShoeError, falling, parse_card
from exact_odds.core.tableau import STANDARD_TABLEAU, Play, Tableau, play, play_totals
from exact_odds.engine.enumerator import deal, third_stage, winners
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
    """The cards of ``"P: 9h 4c B: Kd"`` (sides ``P``/``Player``, ``B``/``Banker``; cards as in ``parse_card``).

    Each side is named once, with its cards in the order they were dealt; a side may be
    left out when it has no card yet.
    """
    sides: dict[str, list[Card]] = {}
    current: list[Card] | None = None
    for token in re.split(r"[\s,]+", text.replace(":", ": ").strip()):
        if not token:
            continue
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


def _point(card: Card) -> int:
    return card.rank.point


def _total(cards: Sequence[Card]) -> int:
    return sum(_point(c) for c in cards) % 10


def _ranges(values: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 5]`` as ``"0-3 or 5"``."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 2 else " or ".join(map(str, r)) if len(r) == 2 else str(r[0])
             for r in runs]
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else "no total"


def natural_totals(tableau: Tableau) -> list[int]:
    """The two-card totals that end the coup whatever the other hand holds, e.g. ``[8, 9]``."""
    return [t for t in range(10) if all(tableau.natural(t, other) for other in range(10))]


def _live(tableau: Tableau) -> list[int]:
    """The two-card totals after which the coup goes on (when the other hand has no natural)."""
    ends = natural_totals(tableau)
    return [t for t in range(10) if t not in ends]


def _banker_draws(tableau: Tableau, banker: int, third: int | None) -> bool:
    """Whether the banker draws on ``banker`` given the player's third card, when the coup goes on."""
    return any(tableau.banker_draws_given(player, banker, third) for player in _live(tableau))


def player_rule(tableau: Tableau) -> str:
    """The player's rule in words, e.g. ``"the player draws on 0-5 and stands on 6 or 7"``.

    >>> player_rule(STANDARD_TABLEAU)
    'the player draws on 0-5 and stands on 6 or 7'
    """
    live = _live(tableau)
    draws = [t for t in live if any(tableau.player_draws_on(t, banker) for banker in live)]
    stands = [t for t in live if t not in draws]
    if not stands:
        return f"the player draws on {_ranges(draws)}"
    if not draws:
        return f"the player stands on {_ranges(stands)}"
    return f"the player draws on {_ranges(draws)} and stands on {_ranges(stands)}"


def banker_rule(tableau: Tableau, banker: int, third: int | None) -> str:
    """The part of the banker's rule that decides banker total ``banker`` (not a natural), in words.

    ``third`` is the player's third card's point value, ``None`` when the player stood.

    >>> banker_rule(STANDARD_TABLEAU, 6, 2)
    "with 6 the banker draws when the player's third card is 6 or 7"
    """
    if third is None:
        draws = [t for t in _live(tableau) if _banker_draws(tableau, t, None)]
        return f"when the player stands, the banker draws on {_ranges(draws)}"
    cards = [x for x in range(10) if _banker_draws(tableau, banker, x)]
    if len(cards) == 10:
        return f"with {banker} the banker always draws when the player has drawn"
    if not cards:
        return f"with {banker} the banker always stands when the player has drawn"
    return f"with {banker} the banker draws when the player's third card is {_ranges(cards)}"


def dealing_order(dealt: Dealt, tableau: Tableau = STANDARD_TABLEAU) -> tuple[Card, ...]:
    """The dealt cards in dealing order (P, B, P, B, third cards), after checking the rules allow them.

    A third card is accepted only where ``tableau`` draws it; the error says which rule forbids it.
    """
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
    third = _point(p[2]) if len(p) == 3 else None
    if len(b) == 3 and not tableau.banker_draws_given(pt, bt, third):
        raise DealtError(f"the banker stands on {bt} here ({banker_rule(tableau, bt, third)}): no third banker card")
    return (*order, *p[2:], *b[2:])


# ---------------------------------------------------------------- the enumeration


_Kind = tuple[int, int, int]  # (point, rank value or -1, suit index or -1)


@dataclass(frozen=True, slots=True)
class _Rest:
    """The cards left once the dealt cards are off the shoe (possibly fewer than a :class:`Shoe` allows)."""

    counts: tuple[int, ...]
    suited: tuple[tuple[int, ...], ...] | None
    infinite: bool

    @classmethod
    def of(cls, shoe: Shoe, cards: Sequence[Card]) -> _Rest:
        if shoe.infinite:
            return cls(shoe.counts, shoe.suited, True)
        counts = list(shoe.counts)
        suited = [list(row) for row in shoe.suited] if shoe.suited is not None else None
        for card in cards:
            i = card.rank - 1
            if counts[i] == 0:
                raise ShoeError(f"cannot deal {card}: no {card.rank.label} left in the shoe")
            counts[i] -= 1
            if card.suit is None:
                suited = None
            elif suited is None:
                if shoe.suited is None:
                    raise ShoeError(f"cannot deal {card}: this shoe's suits are not known (leave the suit out)")
            else:
                j = SUITS.index(card.suit)
                if suited[i][j] == 0:
                    raise ShoeError(f"cannot deal {card}: none of that suit left in the shoe")
                suited[i][j] -= 1
        return cls(tuple(counts), tuple(tuple(r) for r in suited) if suited is not None else None, False)

    def point_counts(self) -> tuple[int, ...]:
        out = [0] * 10
        for rank, n in zip(RANKS, self.counts, strict=True):
            out[rank.point] += n
        return tuple(out)

    def kinds(self, detail: Detail) -> list[tuple[_Kind, int]]:
        """Kinds of card told apart at ``detail``, with their counts."""
        if detail is Detail.POINTS:
            return [((p, -1, -1), n) for p, n in enumerate(self.point_counts()) if n]
        if detail is Detail.RANKS:
            return [((r.point, r.value, -1), n) for r, n in zip(RANKS, self.counts, strict=True) if n]
        if self.suited is None:
            raise ShoeError("suited pairs need the suits of the shoe and of every dealt card")
        return [((r.point, r.value, s), n) for r, row in zip(RANKS, self.suited, strict=True)
                for s, n in enumerate(row) if n]

    def points_without(self, taken: Sequence[_Kind]) -> tuple[int, ...]:
        left = list(self.point_counts())
        if not self.infinite:
            for kind in taken:
                left[kind[0]] -= 1
        return tuple(left)


def _kind_of(card: Card, detail: Detail) -> _Kind:
    rank = card.rank.value if detail >= Detail.RANKS else -1
    suit = SUITS.index(card.suit) if detail is Detail.SUITS and card.suit is not None else -1
    return (card.rank.point, rank, suit)


def _completions(kinds: list[tuple[_Kind, int]], missing: int,
                 infinite: bool) -> Iterator[tuple[tuple[_Kind, ...], int]]:
    """Every ordered choice of ``missing`` kinds with its ways (counts fall as cards are taken)."""
    if missing == 0:
        yield (), 1
        return
    for kind, n in kinds:
        left = [(k, m - (not infinite and k == kind)) for k, m in kinds]
        for rest, ways in _completions([(k, m) for k, m in left if m], missing - 1, infinite):
            yield (kind, *rest), n * ways


def _flags(first: Sequence[_Kind], detail: Detail) -> tuple[bool, bool, bool, bool, bool]:
    """(player pair, banker pair, player suited, banker suited, twin) of the first four cards P, B, P, B."""
    if detail is Detail.POINTS:
        return (False,) * 5
    p1, b1, p2, b2 = first
    pp, bp = p1[1] == p2[1], b1[1] == b2[1]
    suits = detail is Detail.SUITS
    return pp, bp, suits and p1 == p2, suits and b1 == b2, pp and bp and p1[1] == b1[1]


def deal_given(shoe: Shoe, dealt: Dealt, tableau: Tableau = STANDARD_TABLEAU, *,
               detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """Exact ways of every coup outcome given the cards already dealt in this coup.

    ``shoe`` is the shoe *before* the dealt cards (they are removed here). Ways count the
    ordered sequences of the coup's remaining positions (see the module docstring). With no
    card dealt this is :func:`exact_odds.engine.enumerator.deal`.
    """
    order = dealing_order(dealt, tableau)
    if not order:
        return deal(shoe, tableau, detail=detail)
    rest = _Rest.of(shoe, order)
    if detail is Detail.SUITS and any(c.suit is None for c in order[:4]):
        raise DealtError("suited pairs need the suits of the first four cards")
    known = [_kind_of(c, detail) for c in order]
    if len(order) > 4:
        return _after_third(rest, dealt, known, tableau, detail)
    stages: dict[tuple[int, int, tuple[int, ...]], dict[tuple[int, int, int, int], Ways]] = {}
    out: dict[Coup, Ways] = {}
    for extra, w4 in _completions(rest.kinds(detail), 4 - len(order), rest.infinite):
        first = (*known, *extra)
        pt = (first[0][0] + first[2][0]) % 10
        bt = (first[1][0] + first[3][0]) % 10
        key = (pt, bt, tuple(sorted(k[0] for k in extra)))
        stage = stages.get(key)
        if stage is None:
            stage = stages[key] = third_stage(rest.points_without(extra), pt, bt, tableau, infinite=rest.infinite)
        flags = _flags(first, detail)
        for (p, b, pc, bc), w in stage.items():
            coup = Coup(p, b, pc, bc, *flags)
            out[coup] = out.get(coup, 0) + w4 * w
    return Dist(out)


def _after_third(rest: _Rest, dealt: Dealt, known: Sequence[_Kind], tableau: Tableau, detail: Detail) -> Dist[Coup]:
    """The coup once a third card is on the table: only the banker's draw, if any, is left.

    With the player's third card down, the next card of the shoe (any of the cards left)
    finishes the coup through :func:`~exact_odds.core.tableau.play_totals`; when the banker
    stands it fills the unused sixth position, so every card counts once either way.
    """
    flags = _flags(known[:4], detail)
    pc, bc = len(dealt.player), len(dealt.banker)
    left = rest.point_counts()
    if bc == 3:  # the coup is over; the unused positions take any of the cards left
        size, unused = sum(left), CARDS_PER_COUP - pc - bc
        coup = Coup(_total(dealt.player), _total(dealt.banker), pc, bc, *flags)
        return Dist({coup: size**unused if rest.infinite else falling(size, unused)})
    player, banker, third = _total(dealt.player[:2]), _total(dealt.banker), _point(dealt.player[2])
    return Dist((_coup(play_totals(tableau, player, banker, (third, y)), flags), n) for y, n in enumerate(left))


def _coup(end: Play, flags: tuple[bool, bool, bool, bool, bool] = (False,) * 5) -> Coup:
    """The :class:`Coup` of a played coup, with the pair flags of its first four cards."""
    return Coup(end.player, end.banker, end.player_cards, end.banker_cards, *flags)


# ---------------------------------------------------------------- a coup told step by step


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of a coup: what happened, why, and the exact odds after it.

    ``cards``: the cards dealt so far (as :class:`Dealt`); ``odds``: the exact
    distribution of the coup given them (``None`` once the coup is over).
    """

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
    """Deal one coup from ``cards`` (in dealing order) out of ``shoe`` and tell it step by step.

    Returns the steps (before the coup, after the first four cards, after the player's
    third card when there is one, the banker's decision) and the coup; the last step's
    ``cards`` are the hands of the whole coup. What is drawn is
    :func:`~exact_odds.core.tableau.play` of ``tableau``; the steps tell it, quoting the rule in
    words (:func:`player_rule`, :func:`banker_rule`). Each step gives the exact distribution
    given the cards seen; ``card_text`` writes a card in the text (e.g. ``Q♠`` or ``Qs``).
    Too few cards for the coup raise :class:`~exact_odds.core.tableau.IncompleteCoup`.
    """
    end = play(tableau, [_point(c) for c in cards])
    p: tuple[Card, ...] = (cards[0], cards[2])
    b: tuple[Card, ...] = (cards[1], cards[3])
    pt, bt = _total(p), _total(b)
    four = Dealt(p, b)
    steps = [Step("Before the coup, from the cards left in the shoe.", Dealt(), deal(shoe, tableau)),
             Step(f"Player {pt}, banker {bt} on the first four cards.", four, deal_given(shoe, four, tableau))]
    if tableau.natural(pt, bt):
        side, t = ("player", pt) if pt in natural_totals(tableau) else ("banker", bt)
        steps.append(Step(f"The {side} has a natural {t}: both hands stand (a natural, "
                          f"{_ranges(natural_totals(tableau))} on two cards, ends the coup).", four, None))
        return steps, _coup(end)
    third: int | None = None
    if end.player_cards == 3:
        p, third = (*p, cards[4]), _point(cards[4])
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
