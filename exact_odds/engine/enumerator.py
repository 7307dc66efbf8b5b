"""The reference enumerator: every card-removal path of one punto banco coup.

A coup is counted over *ordered six-card sequences* (the published tables' convention), dealt P, B, P,
B and then the third cards as drawn; unused cards still count, so the ways add up to ``N (N-1) ...
(N-5)`` (``W**6`` for an infinite deck of weight ``W``). The walk: each hand's first two cards as
unordered pairs (two distinct cards counted twice); the third-card stage depends only on the two totals
and the point values removed, and is computed once for each.

>>> from exact_odds.core.shoe import Shoe
>>> d = deal(Shoe.decks(8))
>>> d.total, d.ways(lambda c: c.winner == "banker")
(4998398275503360, 2292252566437888)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations_with_replacement

from exact_odds.core.coup import Coup, Detail, Winner, winner_of
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, Shoe, ShoeError, falling
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.polynomial import SuitSplit, deal_by_tables, suit_split, winners_by_tables
from exact_odds.inputs.errors import suits_unknown

Flags = tuple[bool, ...]
_Kind = tuple[int, int, tuple[int, ...]]  # (point, count, identity) of one kind of card
_Pair = tuple[_Kind, _Kind]


def _kinds(shoe: Shoe, detail: Detail) -> list[_Kind]:
    """The kinds of card distinguished at ``detail``: point classes, ranks or rank-suits."""
    if detail is Detail.POINTS:
        return [(p, n, (p,)) for p, n in enumerate(shoe.point_counts()) if n]
    if detail is Detail.RANKS:
        return [(r.point, n, (r.value,)) for r, n in zip(RANKS, shoe.counts, strict=True) if n]
    if shoe.suited is None:
        raise ShoeError(suits_unknown())
    return [
        (r.point, n, (r.value, s))
        for r, row in zip(RANKS, shoe.suited, strict=True)
        for s, n in enumerate(row)
        if n
    ]


def _removal_ways(cards: tuple[_Kind, ...], infinite: bool) -> int:
    """Ways to draw these cards in a fixed order: a product over kinds of falling factorials."""
    taken: dict[tuple[int, ...], int] = {}
    ways = 1
    for _, n, ident in cards:
        k = taken.get(ident, 0)
        ways *= n if infinite else n - k
        taken[ident] = k + 1
    return ways


def _pair_flags(hand: _Pair, detail: Detail) -> Flags:
    """(pair by rank, pair by rank and suit) for a hand's first two cards."""
    a, b = hand
    if detail is Detail.POINTS:
        return (False, False)
    same_rank = a[2][0] == b[2][0]
    return (same_rank, detail is Detail.SUITS and a[2] == b[2])


FirstFour = tuple[int, int, tuple[int, ...], Flags]
"""(player total, banker total, point values removed (sorted), flags as in :class:`Coup`:
player pair, banker pair, player suited, banker suited, twin pair)."""

_NO_FLAGS: Flags = (False,) * 5


def first_four(shoe: Shoe, detail: Detail = Detail.POINTS) -> dict[FirstFour, Ways]:
    """Ways of the first four cards by what the rest of the coup needs (at ``SUITS`` by
    :func:`_first_four_suited`, the integers of :func:`first_four_by_kind`)."""
    if detail is Detail.SUITS:
        return _first_four_suited(shoe)
    return first_four_by_kind(shoe, detail)


def first_four_by_kind(shoe: Shoe, detail: Detail = Detail.POINTS) -> dict[FirstFour, Ways]:
    """The straightforward first four: every pair of two-card hands over the kinds of card (at
    ``SUITS`` the 52 rank-suits: slow, the reference for the fast path)."""
    out: dict[FirstFour, Ways] = {}
    for player, banker, pt, bt, removed, ways in _four_cards(shoe, _kinds(shoe, detail)):
        pflags = _pair_flags(player, detail)
        bflags = _pair_flags(banker, detail)
        twin = pflags[0] and bflags[0] and player[0][2][0] == banker[0][2][0]
        key = (pt, bt, removed, (pflags[0], bflags[0], pflags[1], bflags[1], twin))
        out[key] = out.get(key, 0) + ways
    return out


def _four_cards(shoe: Shoe, kinds: list[_Kind]) -> Iterator[tuple[_Pair, _Pair, int, int, tuple[int, ...], Ways]]:
    """Every (player hand, banker hand) over ``kinds`` with nonzero ways: the hands, their totals, the
    point values removed (sorted) and the ways of dealing the four cards."""
    hands = [((a, b), 1 if a is b else 2) for a, b in combinations_with_replacement(kinds, 2)]  # (hand, orderings)
    for player, p_orders in hands:
        pt = (player[0][0] + player[1][0]) % 10
        for banker, b_orders in hands:
            ways = _removal_ways(player + banker, shoe.infinite)
            if ways:
                bt = (banker[0][0] + banker[1][0]) % 10
                removed = tuple(sorted(k[0] for k in player + banker))
                yield player, banker, pt, bt, removed, ways * p_orders * b_orders


def _suited_ways(ways: int, p_rank: int | None, b_rank: int | None,
                 split: dict[int, SuitSplit]) -> Iterator[tuple[Flags, int]]:
    """The ways of four first cards split by suited flags, ``p_rank``/``b_rank`` the rank each hand pairs
    in (or None): a suited pair's share is independent of the other cards unless both pair in one rank."""
    if p_rank is None and b_rank is None:
        yield _NO_FLAGS, ways
        return
    if p_rank is not None and p_rank == b_rank:
        twin = split[p_rank].twin
        unit = ways // sum(twin)
        for (ps, bs), w in zip(((False, False), (True, False), (False, True), (True, True)), twin, strict=True):
            yield (True, True, ps, bs, True), unit * w
        return
    p_opts = _one_hand(p_rank, split)
    b_opts = _one_hand(b_rank, split)
    unit = ways // (sum(w for _, w in p_opts) * sum(w for _, w in b_opts))
    for ps, pw in p_opts:
        for bs, bw in b_opts:
            yield (p_rank is not None, b_rank is not None, ps, bs, False), unit * pw * bw


def _one_hand(rank: int | None, split: dict[int, SuitSplit]) -> tuple[tuple[bool, int], ...]:
    """(suited, ways) shares of one hand: not a pair, one share of weight 1."""
    if rank is None:
        return ((False, 1),)
    s = split[rank]
    return ((False, s.pair - s.suited), (True, s.suited))


def _first_four_suited(shoe: Shoe) -> dict[FirstFour, Ways]:
    """First four at ``SUITS``, fast: by rank, each pair's ways split by exact suit shares
    (:func:`~exact_odds.engine.polynomial.suit_split`), the other cards' ways not depending on which suit it took."""
    if shoe.suited is None:
        raise ShoeError(suits_unknown())
    split = {r.value: suit_split(row, shoe.infinite)
             for r, row, n in zip(RANKS, shoe.suited, shoe.counts, strict=True) if n}
    out: dict[FirstFour, Ways] = {}
    for player, banker, pt, bt, removed, ways in _four_cards(shoe, _kinds(shoe, Detail.RANKS)):
        p_rank = player[0][2][0] if player[0] is player[1] else None
        b_rank = banker[0][2][0] if banker[0] is banker[1] else None
        for flags, w in _suited_ways(ways, p_rank, b_rank, split):
            if w:
                key = (pt, bt, removed, flags)
                out[key] = out.get(key, 0) + w
    return out


ThirdStage = dict[tuple[int, int, int, int], Ways]


def third_stage(
    counts: tuple[int, ...], pt: int, bt: int, tableau: Tableau, *, infinite: bool = False
) -> ThirdStage:
    """Ways of (player total, banker total, player cards, banker cards) after the first four, ``counts``
    being the cards left by point value; unused cards counted, so they add up to ``falling(N, 2)``."""
    size = sum(counts)
    sixth = size if infinite else size - 1  # an unused sixth card, after a fifth
    unused = size * size if infinite else falling(size, 2)  # two unused cards
    out: Counter[tuple[int, int, int, int]] = Counter()
    if not tableau.player_draws_on(pt, bt):
        if tableau.banker_draws_given(pt, bt, None):
            for y, n in enumerate(counts):
                if n:
                    out[pt, (bt + y) % 10, 2, 3] += n * sixth
        else:
            out[pt, bt, 2, 2] += unused
        return out
    for x, nx in enumerate(counts):
        if not nx:
            continue
        ptot = (pt + x) % 10
        if tableau.banker_draws_given(pt, bt, x):
            for y, ny in enumerate(counts):
                ny_left = ny if infinite else ny - (x == y)
                if ny_left:
                    out[ptot, (bt + y) % 10, 3, 3] += nx * ny_left
        else:
            out[ptot, bt, 3, 2] += nx * sixth
    return out


def enumerate_coups(shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU, detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """The reference enumeration, walked as the module describes: the oracle :func:`deal` is tested against."""
    points = shoe.point_counts()
    stages: dict[tuple[int, int, tuple[int, ...]], ThirdStage] = {}
    ways: dict[Coup, int] = {}
    for (pt, bt, removed, flags), w4 in first_four(shoe, detail).items():
        key = (pt, bt, removed)
        stage = stages.get(key)
        if stage is None:
            left = list(points)
            if not shoe.infinite:
                for p in removed:
                    left[p] -= 1
            stage = stages[key] = third_stage(tuple(left), pt, bt, tableau, infinite=shoe.infinite)
        for (p, b, pc, bc), w in stage.items():
            coup = Coup(p, b, pc, bc, *flags)
            ways[coup] = ways.get(coup, 0) + w4 * w
    return Dist(ways)


def deal(shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU, *, detail: Detail = Detail.POINTS) -> Dist[Coup]:
    """Exact ways of every coup outcome from ``shoe`` under ``tableau`` (ordered six-card sequences, see
    the module); ``detail`` says whether pair and suited-pair flags are recorded. Evaluated from the
    single-shoe tables (:func:`exact_odds.engine.polynomial.deal_by_tables`) or, for few kinds of card,
    walked (:func:`fastest`): the ``Dist`` of :func:`enumerate_coups` either way. Cached."""
    return _deal_cached(shoe, tableau, detail)


ENUMERATED_KINDS = 5


def fastest(shoe: Shoe, detail: Detail) -> bool:
    """Whether the walk, growing as the fourth power of the kinds of card present (point classes at
    ``POINTS``, ranks otherwise), beats the tables on ``shoe``: at most :data:`ENUMERATED_KINDS` kinds."""
    counts = shoe.point_counts() if detail is Detail.POINTS else shoe.counts
    return sum(1 for n in counts if n) <= ENUMERATED_KINDS


@lru_cache(maxsize=64)
def _deal_cached(shoe: Shoe, tableau: Tableau, detail: Detail) -> Dist[Coup]:
    return enumerate_coups(shoe, tableau, detail) if fastest(shoe, detail) else deal_by_tables(shoe, tableau, detail)


def sequences(shoe: Shoe) -> Ways:
    """Number of ordered six-card sequences: N (N-1) ... (N-5), or W**6 if infinite."""
    return shoe.size**CARDS_PER_COUP if shoe.infinite else falling(shoe.size, CARDS_PER_COUP)


def deal_winners(shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU) -> Dist[Winner]:
    """``winners(deal(shoe, tableau))`` from the table merged by winner: less than half the work.

    >>> from exact_odds.core.shoe import Shoe
    >>> deal_winners(Shoe.decks(8)) == winners(deal(Shoe.decks(8)))
    True
    """
    return winners(deal(shoe, tableau)) if fastest(shoe, Detail.POINTS) else winners_by_tables(shoe, tableau)


def winners(dist: Dist[Coup]) -> Dist[Winner]:
    """Collapse a coup distribution to banker / player / tie."""
    return dist.map(winner_of)


