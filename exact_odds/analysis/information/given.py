"""The exact coup distribution given partial information about the next coup, and what it is worth.

Ways count ordered six-card sequences, unused cards included: ``deal_known(shoe, Known())`` is
``deal(shoe)``. :func:`advantage` values an information: in each case the bettor makes the best bet (one
unit staked) or sits out when none is positive, so the *value* is
``sum over cases c of P(c) * max(EV_c(bet 1), ..., EV_c(bet n), 0)``.

How: cards are pooled into *kinds*, alike in everything the question looks at (point value; rank when
pairs matter; suit when a suit is known or a suited pair asked; the label at every position), and a
sequence of kinds is dealt in ``prod_k n_k (n_k - 1) ...`` ways. The first four positions are walked
over kinds and aggregated by what the rest of the coup needs; the ways of the last two are a polynomial
of degree two in the cards the first four removed, so equal aggregates are summed into three moments
(:class:`Moments`) and positions 5 and 6 are walked once per sum. Suited pairs of a rank whose suits
nothing singles out are split by the engine's exact integer shares.

>>> from exact_odds.engine.enumerator import winners
>>> from exact_odds.core.shoe import Shoe
>>> nine = winners(deal_known(Shoe.decks(8), Known.parse("1=9")))
>>> nine["player"], nine["banker"], nine["tie"]
(215108869548032, 132334879180800, 37048426309888)
>>> nine.total == 32 * 415 * 414 * 413 * 412 * 411
True
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from exact_odds.analysis.information.knowledge import (
    POSITIONS,
    Information,
    InformationError,
    Known,
    matches,
    require_suits,
    suited_ranks,
)
from exact_odds.core.coup import Coup, Detail, Payable
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.notebook import Approx, Percent, html_table
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, SUITS, Card, Rank, Shoe, ShoeError, Suit, falling
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal
from exact_odds.engine.polynomial import SuitSplit, suit_split
from exact_odds.inputs.errors import suits_unknown

Label = Hashable
"""What a position reveals of a card (``None`` at a position nobody watches)."""


class _Excluded:
    """The label of a card a position may not be."""

    def __repr__(self) -> str:
        return "EXCLUDED"


EXCLUDED: Label = _Excluded()
"""Label of the cards that knowledge rules out at a position (such sequences are not counted)."""


@dataclass(frozen=True, slots=True)
class Scheme:
    """What each of the six positions tells of a card: ``labels[i]`` maps each card type ``(rank, suit)`` (the
    suit ``None`` for a rank not in ``split``, whose suits are not told apart) to its label at position
    ``i + 1``, or to :data:`EXCLUDED`."""

    split: frozenset[Rank]
    labels: tuple[dict[tuple[Rank, Suit | None], Label], ...]


def card_types(split: frozenset[Rank]) -> list[tuple[Rank, Suit | None]]:
    """Every card type: the ranks, with the ranks of ``split`` one type per suit."""
    return [(r, s) for r in RANKS for s in (SUITS if r in split else (None,))]


@dataclass(frozen=True, slots=True)
class _Kind:
    """Cards alike in everything the enumeration asks: see the module docstring."""

    point: int
    rank: int  # rank value when pairs matter, else 0
    suit: int  # suit index when this kind is one suit of a rank at ``Detail.SUITS``, else -1
    labels: tuple[Label, ...]  # per position
    count: int
    suits: tuple[int, ...] | None  # counts per suit, for suited-pair shares (``Detail.SUITS``)


def _type_count(shoe: Shoe, rank: Rank, suit: Suit | None) -> int:
    if suit is None:
        return shoe.counts[rank - 1]
    if shoe.suited is None:
        raise ShoeError(suits_unknown(f"a known {rank.label} of one suit"))
    return shoe.suited[rank - 1][SUITS.index(suit)]


def kinds_of(shoe: Shoe, scheme: Scheme, detail: Detail) -> list[_Kind]:
    """The kinds of card of ``shoe`` under ``scheme`` at ``detail`` (empty kinds left out)."""
    if detail is Detail.SUITS and shoe.suited is None:
        raise ShoeError(suits_unknown())
    merged: dict[tuple[int, int, int, tuple[Label, ...]], int] = {}
    suits: dict[tuple[int, int, int, tuple[Label, ...]], tuple[int, ...] | None] = {}
    for rank, suit in card_types(scheme.split):
        n = _type_count(shoe, rank, suit)
        if not n:
            continue
        one_suit = detail is Detail.SUITS and suit is not None
        key = (rank.point, rank.value if detail >= Detail.RANKS else 0, SUITS.index(suit) if one_suit else -1,
               tuple(labels[(rank, suit)] for labels in scheme.labels))
        merged[key] = merged.get(key, 0) + n
        if detail is Detail.SUITS and shoe.suited is not None:
            suits[key] = None if one_suit else shoe.suited[rank - 1]
    return [_Kind(p, r, s, labels, n, suits.get((p, r, s, labels))) for (p, r, s, labels), n in merged.items()]


# ---------------------------------------------------------------- the first four cards

_Hand = tuple[int, int]  # (rank the hand's first two cards pair in, or 0; suited: 1 yes, 0 no, -1 by shares)
FourKey = tuple[int, int, tuple[int, ...], _Hand, _Hand, tuple[Label, ...]]
"""(player total, banker total, classes removed (sorted), player hand, banker hand, labels 1-4)."""


def _hand(a: _Kind, b: _Kind, detail: Detail) -> _Hand:
    if detail is Detail.POINTS or a.rank != b.rank:
        return (0, 0)
    if detail is Detail.RANKS:
        return (a.rank, 0)
    return (a.rank, -1) if a.suit < 0 else (a.rank, int(a.suit == b.suit))


def first_four(kinds: Sequence[_Kind], class_of: Sequence[int], detail: Detail,
               infinite: bool) -> dict[FourKey, Ways]:
    """Ways of the first four positions (P, B, P, B) over kinds, aggregated for the rest of the coup."""
    allowed = [[i for i, k in enumerate(kinds) if k.labels[p] is not EXCLUDED] for p in range(4)]
    n = [k.count for k in kinds]
    fin = 0 if infinite else 1
    out: dict[FourKey, Ways] = {}
    for i1 in allowed[0]:
        k1, w1 = kinds[i1], n[i1]
        for i2 in allowed[1]:
            w2 = w1 * (n[i2] - fin * (i2 == i1))
            if not w2:
                continue
            k2 = kinds[i2]
            for i3 in allowed[2]:
                w3 = w2 * (n[i3] - fin * ((i3 == i1) + (i3 == i2)))
                if not w3:
                    continue
                k3 = kinds[i3]
                pt, player = (k1.point + k3.point) % 10, _hand(k1, k3, detail)
                for i4 in allowed[3]:
                    w4 = w3 * (n[i4] - fin * ((i4 == i1) + (i4 == i2) + (i4 == i3)))
                    if not w4:
                        continue
                    k4 = kinds[i4]
                    removed = () if infinite else tuple(sorted((class_of[i1], class_of[i2], class_of[i3],
                                                                class_of[i4])))
                    key = (pt, (k2.point + k4.point) % 10, removed, player, _hand(k2, k4, detail),
                           (k1.labels[0], k2.labels[1], k3.labels[2], k4.labels[3]))
                    out[key] = out.get(key, 0) + w4
    return out


Flags = tuple[bool, bool, bool, bool, bool]


def flag_shares(ways: Ways, player: _Hand, banker: _Hand,
                splits: dict[int, SuitSplit]) -> Iterator[tuple[Flags, Ways]]:
    """The ways of four first cards split by the coup's pair flags: a hand pairing in a rank whose suits are
    not told apart is split by the engine's exact suited shares (jointly when both hands pair in it)."""
    pp, bp = player[0] != 0, banker[0] != 0
    twin = pp and bp and player[0] == banker[0]
    if twin and player[1] < 0:
        split = splits[player[0]].twin
        unit = ways // sum(split)
        for (ps, bs), w in zip(((False, False), (True, False), (False, True), (True, True)), split, strict=True):
            yield (True, True, ps, bs, True), unit * w
        return
    p_opts, b_opts = _shares(player, splits), _shares(banker, splits)
    unit = ways // (sum(w for _, w in p_opts) * sum(w for _, w in b_opts))
    for ps, pw in p_opts:
        for bs, bw in b_opts:
            yield (pp, bp, ps, bs, twin), unit * pw * bw


def _shares(hand: _Hand, splits: dict[int, SuitSplit]) -> tuple[tuple[bool, int], ...]:
    if hand[1] >= 0:
        return ((bool(hand[1]), 1),)
    s = splits[hand[0]]
    return ((False, s.pair - s.suited), (True, s.suited))


def suit_splits(kinds: Sequence[_Kind], infinite: bool) -> dict[int, SuitSplit]:
    """Suited-pair shares of every rank whose suits are not told apart (``Detail.SUITS``)."""
    return {k.rank: suit_split(k.suits, infinite) for k in kinds if k.suits is not None and k.suit < 0}


# ---------------------------------------------------------------- the fifth and sixth cards

ThirdKey = tuple[int, int, int, int, Label, Label]
"""(player total, banker total, player cards, banker cards, label at 5, label at 6)."""


@dataclass(frozen=True, slots=True)
class Classes:
    """Kinds pooled by point value and labels at positions 5 and 6."""

    point: tuple[int, ...]
    five: tuple[Label, ...]
    six: tuple[Label, ...]
    count: tuple[int, ...]


def classes_of(kinds: Sequence[_Kind]) -> tuple[Classes, list[int]]:
    """The classes, and the class of each kind."""
    index: dict[tuple[int, Label, Label], int] = {}
    class_of = [index.setdefault((k.point, k.labels[4], k.labels[5]), len(index)) for k in kinds]
    counts = [0] * len(index)
    for k, c in zip(kinds, class_of, strict=True):
        counts[c] += k.count
    keys = list(index)
    return Classes(tuple(p for p, _, _ in keys), tuple(f for _, f, _ in keys), tuple(s for _, _, s in keys),
                   tuple(counts)), class_of


@dataclass
class Moments:
    """The first four cards of one aggregate: ``s0`` the sum of their ways ``w``, ``s1[c]`` of ``w * r_c`` and
    ``s2[c * C + d]`` of ``w * r_c * r_d``, ``r_c`` being the cards of class ``c`` they took (``C`` classes)."""

    s0: int
    s1: list[int]
    s2: list[int]

    @classmethod
    def empty(cls, classes: int) -> Moments:
        return cls(0, [0] * classes, [0] * (classes * classes))

    def add(self, ways: Ways, removed: Sequence[int]) -> None:
        """Add the ways of first four cards that removed one card of each class in ``removed``."""
        self.s0 += ways
        size = len(self.s1)
        for c in removed:
            self.s1[c] += ways
            for d in removed:
                self.s2[c * size + d] += ways


def last_two_summed(cl: Classes, m: Moments, pt: int, bt: int, tableau: Tableau,
                    infinite: bool) -> dict[ThirdKey, Ways]:
    """The ways of positions 5 and 6 (drawn by the tableau, or unused but counted) summed over the first
    fours of ``m``, from their moments.

    With ``n_c = N_c - r_c`` cards of class ``c`` left, a fifth card ``x`` and a sixth ``y`` come in
    ``n_x (n_y - d)`` ways, ``d = [x = y]``; summed with the weights of the first fours this is
    ``N_x (N_y - d) s0 - N_x s1[y] - (N_y - d) s1[x] + s2[x, y]``. An unused sixth card is summed over the
    classes of its label first. The tests compare it with playing each composition left.
    """
    fin = 0 if infinite else 1
    size, count, s0, s1, s2 = len(cl.count), cl.count, m.s0, m.s1, m.s2
    five = [c for c in range(size) if count[c] and cl.five[c] is not EXCLUDED]
    six = [c for c in range(size) if count[c] and cl.six[c] is not EXCLUDED]
    by_label: dict[Label, list[int]] = {}
    for c in six:
        by_label.setdefault(cl.six[c], []).append(c)
    totals = {label: (sum(count[y] for y in ys), sum(s1[y] for y in ys)) for label, ys in by_label.items()}
    out: dict[ThirdKey, Ways] = {}
    player_draws = tableau.player_draws_on(pt, bt)
    banker_alone = not player_draws and tableau.banker_draws_given(pt, bt, None)
    for x in five:
        px, nx, s1x, row, l5 = cl.point[x], count[x], s1[x], x * size, cl.five[x]
        if player_draws and tableau.banker_draws_given(pt, bt, px):
            for y in six:
                ny = count[y] - fin * (x == y)
                w = nx * ny * s0 - nx * s1[y] - ny * s1x + s2[row + y]
                if w:
                    key = ((pt + px) % 10, (bt + cl.point[y]) % 10, 3, 3, l5, cl.six[y])
                    out[key] = out.get(key, 0) + w
            continue
        if player_draws:
            coup = ((pt + px) % 10, bt, 3, 2)
        else:
            coup = (pt, (bt + px) % 10 if banker_alone else bt, 2, 3 if banker_alone else 2)
        for l6, ys in by_label.items():  # the sixth card is not used: any card left, by its label
            total, r1 = totals[l6]
            my = total - fin * (cl.six[x] == l6)
            w = nx * my * s0 - nx * r1 - my * s1x + sum(s2[row + y] for y in ys)
            if w:
                key = (*coup, l5, l6)
                out[key] = out.get(key, 0) + w
    return out


# ---------------------------------------------------------------- the whole coup


def walk(shoe: Shoe, scheme: Scheme, tableau: Tableau, detail: Detail) -> dict[tuple[Label, ...], Counter[Coup]]:
    """Ways of every (labels at positions 1-6, coup) over the ordered six-card sequences allowed (a card
    labelled :data:`EXCLUDED` at its position is not counted)."""
    kinds = kinds_of(shoe, scheme, detail)
    cl, class_of = classes_of(kinds)
    splits = suit_splits(kinds, shoe.infinite) if detail is Detail.SUITS else {}
    four = first_four(kinds, class_of, detail, shoe.infinite)
    groups: defaultdict[tuple[int, int, Flags, tuple[Label, ...]], Moments] = defaultdict(
        lambda: Moments.empty(len(cl.count)))
    for (pt, bt, removed, player, banker, labels), w4 in four.items():
        for flags, wf in (flag_shares(w4, player, banker, splits) if detail is not Detail.POINTS else
                          ((_NO_FLAGS, w4),)):
            groups[pt, bt, flags, labels].add(wf, removed)
    out: defaultdict[tuple[Label, ...], Counter[Coup]] = defaultdict(Counter)
    for (pt, bt, flags, labels), moments in groups.items():
        for (p, b, pc, bc, l5, l6), w in last_two_summed(cl, moments, pt, bt, tableau, shoe.infinite).items():
            out[(*labels, l5, l6)][Coup(p, b, pc, bc, *flags)] += w
    return out


_NO_FLAGS: Flags = (False,) * 5


# ---------------------------------------------------------------- knowledge and cases

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
    """``deal_known`` of each case of ``information`` (on top of ``known``), in one enumeration, in the order
    of :meth:`Information.cases` (cases that cannot happen left out).

    >>> from exact_odds.engine.enumerator import deal
    >>> from exact_odds.core.shoe import Shoe
    >>> cases = deal_cases(Shoe.decks(8), Information.grouped([1], {"high": "6|7|8|9"}))
    >>> sorted(cases), sum(d.total for d in cases.values()) == deal(Shoe.decks(8)).total
    ([('high',), ('other',)], True)
    """
    known = known or Known()
    found = walk(shoe, scheme_of(shoe, known, information), tableau, detail)
    index = [p - 1 for p in information.positions]
    ways: dict[Case, Counter[Coup]] = {}
    for labels, dist in found.items():
        ways.setdefault(tuple(str(labels[i]) for i in index), Counter()).update(dist)
    out = {case: Dist(ways[case]) for case in information.cases() if case in ways}
    if not out:
        raise InformationError(f"no sequence of six cards from this shoe agrees with {known}")
    return out


def deal_dealt(shoe: Shoe, cards: Sequence[Card], tableau: Tableau = STANDARD_TABLEAU, *,
               detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """The odds of a coup under way: ``cards`` are its first positions, in dealing order (whether the rules
    allow them is :func:`exact_odds.analysis.conditional.deal_given`'s check). Ways of the *remaining*
    positions from the remaining cards: :func:`deal_known` of the prefix divided by the ways of the known cards.

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


# ---------------------------------------------------------------- what information is worth


@dataclass(frozen=True, slots=True)
class CaseValue:
    """One case of an information: ``ways`` of ``total`` sequences fall in it; ``ev[i]`` is the exact
    expectation of the :class:`Advantage`'s ``bets[i]`` given it; ``best`` indexes the bet made (``None``: sit
    out)."""

    case: Case
    known: Known
    ways: Ways
    total: Ways
    ev: tuple[Fraction, ...]
    best: int | None
    bet_names: tuple[str, ...]

    @property
    def probability(self) -> Fraction:
        """The chance of this case."""
        return Fraction(self.ways, self.total)

    @property
    def best_ev(self) -> Fraction:
        """The expectation of the play made in this case (0 when sitting out)."""
        return self.ev[self.best] if self.best is not None else Fraction(0)

    @property
    def best_bet(self) -> str | None:
        """The name of the bet made, or ``None`` when sitting out."""
        return self.bet_names[self.best] if self.best is not None else None


@dataclass(frozen=True, slots=True)
class Advantage:
    """The value of an information on one shoe for a set of bets; ``flat[i]`` is the expectation of
    ``bets[i]`` without the information (given ``known`` alone)."""

    information: Information
    known: Known
    bet_names: tuple[str, ...]
    cases: tuple[CaseValue, ...]
    flat: tuple[Fraction, ...]
    sit_out: bool

    @property
    def value(self) -> Fraction:
        """Expectation per coup of the best play in every case: ``E[max(EV, 0)]`` (or ``E[max EV]``)."""
        return sum((c.probability * c.best_ev for c in self.cases), Fraction(0))

    @property
    def flat_value(self) -> Fraction:
        """The best one can do without the information: the best bet's expectation, or 0 sitting out."""
        best = max(self.flat)
        return max(best, Fraction(0)) if self.sit_out else best

    @property
    def gain(self) -> Fraction:
        """What the information adds per coup: ``value - flat_value``."""
        return self.value - self.flat_value

    @property
    def betting_frequency(self) -> Fraction:
        """The chance that the best play is a bet rather than sitting out."""
        return sum((c.probability for c in self.cases if c.best is not None), Fraction(0))

    @property
    def edge_when_betting(self) -> Fraction | None:
        """Expectation per unit actually staked (``value / betting_frequency``), ``None`` if never betting."""
        frequency = self.betting_frequency
        return self.value / frequency if frequency else None

    def _repr_html_(self) -> str:
        """The value of the information as a table in a notebook: each case, its chance, every bet's
        expectation (player_ev) in it and the play made."""
        info = self.information
        rows = [[*c.case, c.probability, Approx(c.probability), *(Percent(ev) for ev in c.ev),
                 c.best_bet or "sit out"] for c in self.cases]
        rows.append(["all", *([None] * (len(info.positions) - 1)), Fraction(1), Approx(1),
                     *(Percent(ev) for ev in self.flat), "(by case)"])
        given = f", given {self.known}" if self.known.positions else ""
        return html_table([*(f"card {p}" for p in info.positions), "probability", "≈",
                           *(f"player_ev {name}" for name in self.bet_names), "play"],
                          rows, caption=f"Best play by the {info.name}{given}",
                          notes=[f"value per coup {self.value} ≈ {float(self.value):.4%}; gain over the best play "
                                 f"without it {float(self.gain):.4%}"])


def best_of(ev: Sequence[Fraction], *, sit_out: bool = True) -> int | None:
    """Index of the highest expectation (the first on equal ones); ``None`` if sitting out is better.

    >>> best_of([Fraction(-1, 100), Fraction(1, 50)]), best_of([Fraction(-1, 100)])
    (1, None)
    """
    best = max(range(len(ev)), key=lambda i: (ev[i], -i))
    return best if ev[best] > 0 or not sit_out else None


def player_ev(dist: Dist[Coup], bets: Sequence[Payable]) -> tuple[Fraction, ...]:
    """Each bet's exact expectation over ``dist`` (e.g. :func:`~exact_odds.analysis.information.given.deal_known`'s),
    the coups dealt at the detail the bets need."""
    return _expectations(dist, [bet.payout for bet in bets])


def _expectations(dist: Dist[Coup], payouts: Sequence[Callable[[Coup], Fraction]]) -> tuple[Fraction, ...]:
    return tuple(sum((w * pay(coup) for coup, w in dist.items()), Fraction(0)) / dist.total for pay in payouts)


MAX_CASES = 2_500
"""The most cases :func:`advantage` values: the rank of three cards (2,197 cases) takes a few seconds,
of four (28,561) some 20 s and 430 MB."""


def advantage(shoe: Shoe, information: Information, bets: Sequence[Payable], tableau: Tableau = STANDARD_TABLEAU, *,
              known: Known | None = None, sit_out: bool = True,
              progress: Callable[[int, int], None] | None = None) -> Advantage:
    """The best play among ``bets`` in each case of ``information`` (on top of ``known``) and its value per
    coup, exactly. ``progress(done, total)``, if given, is called with the cases valued so far."""
    if not bets:
        raise InformationError("name at least one bet to value the information")
    count = math.prod(len(groups) for groups in information.groups)
    if count > MAX_CASES:
        sizes = " x ".join(str(len(groups)) for groups in information.groups)
        raise InformationError(f"the information has {count:,} cases ({sizes}); at most {MAX_CASES:,} are valued "
                               "here: watch fewer positions, or group the cards (e.g. high=6|7|8|9)")
    detail = max(bet.detail for bet in bets)
    given = known or Known()
    split = deal_cases(shoe, information, tableau, known=given, detail=detail)
    total = sum(d.total for d in split.values())
    paying = [cache(bet.payout) for bet in bets]  # each coup's payout found once for every case
    names = tuple(bet.name for bet in bets)
    cases = []
    report = progress or (lambda done, total: None)
    report(0, len(split))
    for case, dist in split.items():
        ev = _expectations(dist, paying)
        cases.append(CaseValue(case, information.known(case).and_(given), dist.total, total, ev,
                               best_of(ev, sit_out=sit_out), names))
        report(len(cases), len(split))
    flat = tuple(sum((c.probability * c.ev[i] for c in cases), Fraction(0)) for i in range(len(bets)))
    return Advantage(information, given, names, tuple(cases), flat, sit_out)
