"""A seeded shoe simulator: shuffle, burn, cut card, vectorised dealing, flat bets, checks.

Simulation is a witness, never a source (design habit 9): :func:`simulate` returns the
same :class:`~exact_odds.dist.Dist` of :class:`~exact_odds.engine.Coup` as the exact
engine (with *counts of coups dealt* as the ways), so the same analysis code runs on both,
and :func:`verify` sets the simulated counts beside the exact expectations.

**Randomness.** Every random number comes from NumPy's ``numpy.random.default_rng`` (the
PCG64 generator) seeded by ``numpy.random.SeedSequence``. Work is cut into blocks of fixed
size (:data:`FRESH_BLOCK` coups or :data:`SHOE_BLOCK` shoes); block ``i`` draws from
``default_rng(SeedSequence(seed, spawn_key=(i,)))``, so a run depends only on the seed and
the options, never on timing or on how the work is scheduled. In shoe mode shoe ``i`` is row
``i % SHOE_BLOCK`` of block ``i // SHOE_BLOCK`` (:func:`shoe_orders`): it depends only on the
seed and ``i``, and :mod:`exact_odds.study` deals the same shoes with the same dealer
(:func:`play_shoes`). NumPy is imported lazily.

**Cards.** A card is coded ``4 * (rank - 1) + suit`` (0-51; suits in the order spades,
hearts, diamonds, clubs). A shoe whose suits are unknown (rank counts not divisible by
four) is dealt with every card coded as a spade and cannot settle suited bets.

**Dealing procedure** (:class:`Procedure`), after Wizard of Odds, "Baccarat" rules
(wizardofodds.com/games/baccarat/basics) and Wikipedia, "Punto banco":

- *Shoe mode* (the default). The whole shoe is shuffled. The burn: the first card is
  turned face up and its value says how many further cards are burned face down (ace 1,
  2-9 their pip value, a ten or a court card 10). A cut card is placed with ``cut`` cards
  behind it (default 16). ``last_coup="one-more"`` (Wizard of Odds): when the cut card
  comes out during a coup, that coup is finished and one more is dealt; when it comes out
  before the first card of a coup, that coup is the last. ``last_coup="this"`` (Wikipedia's
  description, the cut card "in front of the seventh from last card", ``cut=7``): the coup
  during which the cut card comes out is the last. Either way the shoe is then finished.
- *Fresh mode* (``fresh=True``): every coup is the first six cards of a freshly shuffled
  full shoe (no burn, no cut card); only those six cards are drawn (a partial Fisher-Yates
  shuffle, which gives them exactly the law of the first six cards of a full shuffle).
  Fresh mode also accepts the infinite deck (cards drawn with replacement).

**Dealing** is vectorised: for many coups at once the first four cards give the two
totals, the player rule is a lookup by player total, and the banker rule a lookup in a
``10 x 11`` array indexed by [banker total, player's third card or 10 when the player
stood]. :func:`deal_coup_simple` and :func:`play_shoe_simple` do the same one coup at a
time from the :class:`~exact_odds.tableau.Tableau` itself; tests check they agree.

>>> from exact_odds.shoe import Shoe
>>> sim = simulate(Shoe.decks(8), coups=1000, seed=7, procedure=Procedure(fresh=True))
>>> sim.coups.total
1000
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Literal

from exact_odds.bets import Bet
from exact_odds.dist import Dist
from exact_odds.engine import Coup, Detail, Winner, deal, winners
from exact_odds.errors import InputError
from exact_odds.shoe import RANKS, SUITS, Card, Shoe, ShoeError
from exact_odds.tableau import STANDARD_TABLEAU, Tableau

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FRESH_BLOCK = 1 << 18
"""Coups per block in fresh mode (part of what a seed means: changing it changes the streams)."""

SHOE_BLOCK = 2048
"""Shoes per block in shoe mode (part of what a seed means)."""

MAX_BURN = 11
"""The most cards the burn can take: the turned card and ten more."""

CODES = 12800
"""Number of coup codes: 100 totals x 4 card counts x 32 pair flags (see :func:`coup_code`)."""

OUTCOMES: tuple[Winner, ...] = ("banker", "player", "tie")
"""The outcome categories of the chi-square check, in order."""

LastCoup = Literal["one-more", "this"]
Progress = Callable[[int, int], None]
"""A progress callback: ``progress(done, total)`` in units of coups (or shoes with ``shoes=``)."""


class SimulationError(InputError):
    """Simulation options that cannot work (for example a cut card too near the end)."""


# ---------------------------------------------------------------- cards and coups


def card_code(card: Card) -> int:
    """The code of a card: ``4 * (rank - 1) + suit index`` (a card without a suit counts as a spade)."""
    return 4 * (card.rank - 1) + (SUITS.index(card.suit) if card.suit is not None else 0)


def code_card(code: int, *, suited: bool = True) -> Card:
    """The card of a code (without its suit when ``suited`` is false)."""
    return Card(RANKS[code // 4], SUITS[code % 4] if suited else None)


def _point(code: int) -> int:
    rank = code // 4 + 1
    return rank if rank < 10 else 0


def burn_value(code: int) -> int:
    """How many cards the turned card orders burned: ace 1, 2-9 the pip value, ten and court cards 10."""
    rank = code // 4 + 1
    return min(rank, 10)


def coup_code(coup: Coup) -> int:
    """A coup as an integer 0-12799.

    ``player * 10 + banker + 100 * (player drew + 2 * banker drew) + 400 * (player pair
    + 2 * banker pair + 4 * player suited + 8 * banker suited + 16 * twin pair)``.
    """
    flags = (coup.player_pair + 2 * coup.banker_pair + 4 * coup.player_suited + 8 * coup.banker_suited
             + 16 * coup.twin_pair)
    return coup.player * 10 + coup.banker + 100 * ((coup.player_cards - 2) + 2 * (coup.banker_cards - 2)) + 400 * flags


@lru_cache(maxsize=1)
def coup_table() -> tuple[Coup, ...]:
    """Every coup by its code (the inverse of :func:`coup_code`)."""
    out = []
    for code in range(CODES):
        flags, rest = divmod(code, 400)
        cards, totals = divmod(rest, 100)
        out.append(Coup(totals // 10, totals % 10, 2 + cards % 2, 2 + cards // 2,
                        bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8), bool(flags & 16)))
    return tuple(out)


def shoe_card_codes(shoe: Shoe) -> list[int]:
    """Every card of the shoe (one deck's worth of weight for the infinite deck) as codes, sorted."""
    codes: list[int] = []
    for i in range(13):
        if shoe.suited is not None:
            for s, n in enumerate(shoe.suited[i]):
                codes += [4 * i + s] * n
        else:
            codes += [4 * i] * shoe.counts[i]
    return codes


# ---------------------------------------------------------------- the simple, obviously correct dealer


def deal_coup_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU,
                     detail: Detail = Detail.POINTS) -> tuple[Coup, int]:
    """Deal one coup from card codes in order (P, B, P, B, then draws); return it and the cards used.

    Written one rule at a time from the tableau, as a dealer would follow it; the reference
    for the vectorised dealer. ``cards`` needs at least as many cards as the coup uses.
    """
    p1, b1, p2, b2 = cards[:4]
    player = (_point(p1) + _point(p2)) % 10
    banker = (_point(b1) + _point(b2)) % 10
    used = 4
    player_cards = banker_cards = 2
    if player not in tableau.naturals and banker not in tableau.naturals:
        third: int | None = None
        if tableau.player_draws[player]:
            third = _point(cards[used])
            player = (player + third) % 10
            player_cards, used = 3, used + 1
        if tableau.banker_draws_on(banker, third):
            banker = (banker + _point(cards[used])) % 10
            banker_cards, used = 3, used + 1
    pairs = detail >= Detail.RANKS
    suits = detail >= Detail.SUITS
    player_pair = pairs and p1 // 4 == p2 // 4
    banker_pair = pairs and b1 // 4 == b2 // 4
    coup = Coup(player, banker, player_cards, banker_cards, player_pair, banker_pair,
                suits and p1 == p2, suits and b1 == b2, player_pair and banker_pair and p1 // 4 == b1 // 4)
    return coup, used


# ---------------------------------------------------------------- the procedure


@dataclass(frozen=True)
class Procedure:
    """How cards reach the table (see the module docstring for the rules and their sources).

    ``fresh``: every coup from a freshly shuffled full shoe. Otherwise ``burn`` says whether
    the burn is done, ``cut`` how many cards lie behind the cut card, and ``last_coup``
    whether one more coup follows the one in which the cut card comes out (``"one-more"``)
    or that coup is the last (``"this"``).
    """

    fresh: bool = False
    cut: int = 16
    last_coup: LastCoup = "one-more"
    burn: bool = True

    @property
    def min_cut(self) -> int:
        """The fewest cards behind the cut card that always leave enough for the last coup."""
        return 11 if self.last_coup == "one-more" else 6

    def check(self, shoe: Shoe) -> None:
        """Raise :class:`SimulationError` unless this procedure can deal from ``shoe``."""
        if self.last_coup not in ("one-more", "this"):
            raise SimulationError(f"last coup rule must be 'one-more' or 'this', got {self.last_coup!r}")
        if self.fresh:
            return
        if shoe.infinite:
            raise SimulationError("an infinite deck has no cut card: use fresh mode (--fresh) with --decks inf")
        if self.cut < self.min_cut:
            raise SimulationError(
                f"a cut card {self.cut} cards from the end can leave too few cards for the last coup "
                f"(with the {self.last_coup!r} rule it needs at least {self.min_cut})")
        need = self.cut + (MAX_BURN if self.burn else 0) + 6
        if shoe.size < need:
            raise SimulationError(f"a shoe of {shoe.size} cards is too small for a cut card {self.cut} cards "
                                  f"from the end (it needs at least {need} cards)")

    def describe(self) -> str:
        """One line for reports."""
        if self.fresh:
            return "a freshly shuffled full shoe for every coup"
        return f"whole shoes: {self.shoe_rules()}"

    def shoe_rules(self) -> str:
        """The burn, the cut card and the last-coup rule, in words (for whole shoes)."""
        burn = "burn by the first card" if self.burn else "no burn"
        last = "one more coup after the cut card" if self.last_coup == "one-more" else (
            "the coup with the cut card is the last")
        return f"{burn}, cut card {self.cut} cards from the end, {last}"


def play_shoe_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU, procedure: Procedure = Procedure(),
                     detail: Detail = Detail.POINTS) -> list[tuple[int, Coup]]:
    """Deal a whole shuffled shoe one coup at a time; return (index of the coup's first card, coup).

    The reference for the vectorised shoe dealer: burn, then coups until the cut card's
    rule says the shoe is finished.
    """
    size = len(cards)
    limit = size - procedure.cut
    pos = 1 + burn_value(cards[0]) if procedure.burn else 0
    out: list[tuple[int, Coup]] = []
    while True:
        coup, used = deal_coup_simple(cards[pos:pos + 6], tableau, detail)
        out.append((pos, coup))
        last = pos >= limit if procedure.last_coup == "one-more" else pos + used > limit
        pos += used
        if last:
            return out


# ---------------------------------------------------------------- the vectorised dealer


@dataclass(frozen=True)
class DealTables:
    """A tableau as NumPy lookup arrays: naturals and player draws by total, banker by [total, third]."""

    natural: NDArray[np.bool_]
    player: NDArray[np.bool_]
    banker: NDArray[np.bool_]
    point: NDArray[np.uint8]

    @classmethod
    def of(cls, tableau: Tableau) -> DealTables:
        import numpy as np

        banker = np.zeros((10, 11), dtype=bool)
        for total in range(10):
            for third in range(10):
                banker[total, third] = tableau.banker_draws_on(total, third)
            banker[total, 10] = tableau.banker_draws_on(total, None)
        return cls(
            natural=np.array([t in tableau.naturals for t in range(10)], dtype=bool),
            player=np.array(tableau.player_draws, dtype=bool),
            banker=banker,
            point=np.array([_point(c) for c in range(52)], dtype=np.uint8),
        )


def deal_coups(cards: NDArray[np.integer], tables: DealTables,
               detail: Detail = Detail.POINTS) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    """Deal many coups at once from ``cards`` of shape (6, n) (card codes in dealing order).

    Returns the coup codes (:func:`coup_code`) and the number of cards each coup used.
    """
    import numpy as np

    pts = tables.point[cards].astype(np.int16)
    player = (pts[0] + pts[2]) % 10
    banker = (pts[1] + pts[3]) % 10
    live = ~(tables.natural[player] | tables.natural[banker])
    player_draws = live & tables.player[player]
    third = np.where(player_draws, pts[4], 10)
    banker_draws = live & tables.banker[banker, third]
    banker_card = np.where(player_draws, pts[5], pts[4])
    player = (player + np.where(player_draws, pts[4], 0)) % 10
    banker = (banker + np.where(banker_draws, banker_card, 0)) % 10
    code = player * 10 + banker + 100 * player_draws + 200 * banker_draws
    if detail >= Detail.RANKS:
        ranks = cards // 4
        player_pair = ranks[0] == ranks[2]
        banker_pair = ranks[1] == ranks[3]
        code += 400 * player_pair + 800 * banker_pair + 6400 * (player_pair & banker_pair & (ranks[0] == ranks[1]))
    if detail >= Detail.SUITS:
        code += 1600 * (cards[0] == cards[2]) + 3200 * (cards[1] == cards[3])
    used = (4 + player_draws.astype(np.int8) + banker_draws.astype(np.int8)).astype(np.int8)
    return code.astype(np.int16), used


@dataclass(frozen=True)
class ShoePlay:
    """Coups dealt from a block of shoes, in order shoe by shoe.

    ``codes``: coup codes; ``shoe``: the shoe (row) of each coup; ``start``: the index of
    the coup's first card in its shoe; ``left``: the cards left in the shoe (burned cards
    are gone) before each coup, counted by card code (shape (n, 52)), when asked for.
    """

    codes: NDArray[np.int16]
    shoe: NDArray[np.int32]
    start: NDArray[np.int16]
    left: NDArray[np.int16] | None


def play_shoes(cards: NDArray[np.integer], tables: DealTables, procedure: Procedure,
               detail: Detail = Detail.POINTS, *, compositions: bool = False) -> ShoePlay:
    """Deal every shoe of ``cards`` (shape (shoes, cards per shoe)) in lockstep, one coup per shoe a round."""
    import numpy as np

    shoes, size = cards.shape
    rows = np.arange(shoes)
    limit = size - procedure.cut
    if procedure.burn:
        pos = 1 + np.minimum(cards[:, 0] // 4 + 1, 10).astype(np.int64)
    else:
        pos = np.zeros(shoes, dtype=np.int64)
    left = None
    if compositions:
        left = np.zeros((shoes, 52), dtype=np.int16)
        np.add.at(left, (np.repeat(rows, size), cards.ravel()), 1)
        for j in range(MAX_BURN):
            left[rows, cards[:, j]] -= j < pos
    active = np.ones(shoes, dtype=bool)
    offsets = np.arange(6)
    rec_codes, rec_start, rec_active, rec_left = [], [], [], []
    while active.any():
        index = np.minimum(pos[:, None] + offsets, size - 1)
        six = np.take_along_axis(cards, index, axis=1).T
        code, used = deal_coups(six, tables, detail)
        rec_codes.append(code)
        rec_start.append(pos.copy())
        rec_active.append(active.copy())
        if left is not None:
            rec_left.append(left.copy())
            for j in range(6):
                left[rows, six[j]] -= active & (j < used)
        last = pos >= limit if procedure.last_coup == "one-more" else pos + used > limit
        pos = np.where(active, pos + used, pos)
        active &= ~last
    mask = np.array(rec_active).T
    shoe_of = np.broadcast_to(rows[:, None], mask.shape)[mask]
    return ShoePlay(
        codes=np.array(rec_codes).T[mask],
        shoe=shoe_of.astype(np.int32),
        start=np.array(rec_start).T[mask].astype(np.int16),
        left=np.stack(rec_left, axis=1)[mask] if rec_left else None,
    )


def fresh_six(rng: np.random.Generator, size: int, n: int, *, infinite: bool = False) -> NDArray[np.int64]:
    """Indices (6, n) into a shoe of ``size`` cards: the first six cards of ``n`` independent shuffles.

    A partial Fisher-Yates shuffle: step ``k`` picks a position uniformly among the cards
    not yet dealt and swaps it forward; only the six swaps are tracked. With ``infinite``
    every card is drawn independently (with replacement).
    """
    import numpy as np

    if infinite:
        return np.stack([rng.integers(0, size, size=n) for _ in range(6)])
    picks = [rng.integers(k, size, size=n) for k in range(6)]
    dealt: list[NDArray[np.int64]] = []
    moved: list[NDArray[np.int64]] = []  # moved[m]: the card placed at position picks[m] by step m
    for k in range(6):
        card = picks[k].copy()
        displaced = np.full(n, k, dtype=np.int64)
        for m in range(k):
            card = np.where(picks[k] == picks[m], moved[m], card)
            displaced = np.where(picks[m] == k, moved[m], displaced)
        dealt.append(card)
        moved.append(displaced)
    return np.stack(dealt)


def shuffled_shoes(rng: np.random.Generator, codes: Sequence[int], shoes: int) -> NDArray[np.uint8]:
    """``shoes`` independent uniform shuffles of ``codes``, one per row.

    Rows are shuffled in order, so row ``i`` does not depend on how many rows follow it.
    """
    import numpy as np

    base = np.asarray(codes, dtype=np.uint8)
    out: NDArray[np.uint8] = rng.permuted(np.tile(base, (shoes, 1)), axis=1)
    return out


def _check_seed(seed: int) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise SimulationError(f"a seed must be a whole number of at least 0, got {seed!r}")


def block_rng(seed: int, block: int) -> np.random.Generator:
    """The generator of block ``block``: ``default_rng(SeedSequence(seed, spawn_key=(block,)))``."""
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))


def shoe_orders(codes: Sequence[int], seed: int, first: int, stop: int) -> NDArray[np.uint8]:
    """Shoes ``first`` to ``stop - 1`` of a shoe-mode run with ``seed``: shuffles of ``codes``, one per row.

    Shoe ``i`` is row ``i % SHOE_BLOCK`` of ``shuffled_shoes(block_rng(seed, i // SHOE_BLOCK),
    codes, SHOE_BLOCK)``; it depends only on the seed and its index, so any split of the
    shoes among workers deals the same shoes (the rows of a block before ``first`` are
    shuffled too, and dropped).
    """
    import numpy as np

    parts = []
    for block in range(first // SHOE_BLOCK, (stop - 1) // SHOE_BLOCK + 1):
        base = block * SHOE_BLOCK
        rows = shuffled_shoes(block_rng(seed, block), codes, min(stop - base, SHOE_BLOCK))
        parts.append(rows[max(first - base, 0):])
    return np.concatenate(parts)


def shoe_cards(shoe: Shoe, seed: int, index: int = 0) -> list[int]:
    """The card codes of shoe number ``index`` of a shoe-mode simulation with ``seed``, in dealing order."""
    _check_seed(seed)
    return [int(c) for c in shoe_orders(shoe_card_codes(shoe), seed, index, index + 1)[0]]


@dataclass(frozen=True)
class ShoeCoup:
    """One coup of a simulated shoe, with what came before it.

    ``coup``: its number in the shoe (1-based) of ``coups`` dealt from the shoe; ``start``:
    the index of its first card; ``burn``: the turned card and the cards it burned;
    ``remaining``: the shoe just before the coup; ``cards``: the next six cards in dealing
    order (the coup uses the first four to six).
    """

    coup: int
    coups: int
    start: int
    burn: tuple[Card, ...]
    remaining: Shoe
    cards: tuple[Card, ...]


def shoe_coup(shoe: Shoe, seed: int, *, coup: int = 1, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
              procedure: Procedure = Procedure()) -> ShoeCoup:
    """Coup number ``coup`` of shoe number ``index`` of a shoe-mode simulation with ``seed``."""
    procedure.check(shoe)
    if procedure.fresh:
        raise SimulationError("a coup from a fresh shoe has no place in a shoe: leave out --fresh")
    cards = shoe_cards(shoe, seed, index)
    coups = play_shoe_simple(cards, tableau, procedure)
    if not 1 <= coup <= len(coups):
        raise SimulationError(f"this shoe has {len(coups)} coups; choose a coup from 1 to {len(coups)}")
    start = coups[coup - 1][0]
    suited = shoe.suited is not None
    by_code = [0] * 52
    for c in cards[start:]:
        by_code[c] += 1
    counts = tuple(sum(by_code[4 * i:4 * i + 4]) for i in range(13))
    remaining = Shoe(counts, tuple(tuple(by_code[4 * i:4 * i + 4]) for i in range(13)) if suited else None)
    burned = cards[:1 + burn_value(cards[0])] if procedure.burn else []
    return ShoeCoup(coup, len(coups), start, tuple(code_card(c, suited=suited) for c in burned), remaining,
                    tuple(code_card(c, suited=suited) for c in cards[start:start + 6]))


def shoe_winners(shoe: Shoe, seed: int, *, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
                 procedure: Procedure = Procedure()) -> list[Winner]:
    """The winner of every coup of shoe number ``index`` of a shoe-mode simulation with ``seed``."""
    procedure.check(shoe)
    if procedure.fresh:
        raise SimulationError("fresh shoes make no shoe to follow: leave out --fresh")
    return [coup.winner for _, coup in play_shoe_simple(shoe_cards(shoe, seed, index), tableau, procedure)]


# ---------------------------------------------------------------- bets along the way


@dataclass(frozen=True)
class BetResult:
    """A flat bet of one unit on every coup.

    ``results`` counts coups by net payout; ``net`` is the exact final result in units;
    ``low``/``high`` the lowest and highest running result along the way (0 at the start).
    """

    bet: Bet
    results: Dist[Fraction]
    net: Fraction
    low: Fraction
    high: Fraction

    @property
    def coups(self) -> int:
        """Number of coups bet."""
        return self.results.total

    def mean(self) -> Fraction:
        """Mean result per unit staked (the observed edge, negative for the house's side)."""
        return self.net / self.coups

    def variance(self) -> Fraction:
        """Sample variance of the per-coup result (denominator n - 1)."""
        n = self.coups
        squares = sum((v * v * c for v, c in self.results.items()), Fraction(0))
        return (squares - self.net * self.net / n) / (n - 1) if n > 1 else Fraction(0)

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval of the edge at ``level``."""
        half = NormalDist().inv_cdf(0.5 + level / 2) * math.sqrt(float(self.variance()) / self.coups)
        m = float(self.mean())
        return m - half, m + half


def payout_lut(bet: Bet, detail: Detail = Detail.SUITS) -> tuple[NDArray[np.int64], int]:
    """The bet's payout on every coup code that can occur at ``detail``, scaled to integers.

    Returns (table, scale): ``table[code] / scale`` is the exact payout (codes that cannot
    occur at ``detail`` hold 0).
    """
    import numpy as np

    allowed = {Detail.POINTS: 0, Detail.RANKS: 1 | 2 | 16, Detail.SUITS: 31}[detail]
    payouts = [bet.payout(c) if (code // 400) & ~allowed == 0 else Fraction(0)
               for code, c in enumerate(coup_table())]
    scale = math.lcm(*(p.denominator for p in payouts))
    return np.array([int(p * scale) for p in payouts], dtype=np.int64), scale


class _BetTracker:
    """Running result of one bet, block by block, in exact scaled integers."""

    def __init__(self, bet: Bet, detail: Detail) -> None:
        self.bet = bet
        self.lut, self.scale = payout_lut(bet, detail)
        self.net = self.low = self.high = 0

    def add(self, codes: NDArray[np.int16]) -> None:
        if not len(codes):
            return
        path = self.net + self.lut[codes].cumsum()
        self.low = min(self.low, int(path.min()))
        self.high = max(self.high, int(path.max()))
        self.net = int(path[-1])

    def result(self, counts: Dist[Coup]) -> BetResult:
        scale = self.scale
        return BetResult(self.bet, counts.map(self.bet.payout), Fraction(self.net, scale),
                         Fraction(self.low, scale), Fraction(self.high, scale))


# ---------------------------------------------------------------- exact references


@dataclass(frozen=True)
class Reference:
    """Exact expectations for the coups of a run, under the tableau the exact values assume.

    ``expected``: the expected count of each of :data:`OUTCOMES`; ``covariance``: the
    covariance matrix of those counts (a sum over coups of ``diag(p) - p p^T``);
    ``edges``: each bet's exact edge (mean result per unit) for these coups, and
    ``edge_notes`` says how it was obtained. ``tableau``: the name of that tableau.
    """

    tableau: str
    coups: int
    expected: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    edges: dict[str, Fraction | float]
    edge_notes: dict[str, str]


def fresh_reference(shoe: Shoe, coups: int, bets: Sequence[Bet], tableau: Tableau = STANDARD_TABLEAU) -> Reference:
    """The reference for ``coups`` coups each dealt from the full ``shoe``."""
    dist = winners(deal(shoe, tableau))
    p = [Fraction(dist[w], dist.total) for w in OUTCOMES]
    cov = tuple(tuple(float(coups * ((p[i] if i == j else 0) - p[i] * p[j])) for j in range(3)) for i in range(3))
    edges: dict[str, Fraction | float] = {}
    notes: dict[str, str] = {}
    for bet in bets:
        edges[bet.name] = deal(shoe, tableau, detail=bet.detail).expectation(bet.payout)
        notes[bet.name] = "exact, full shoe"
    return Reference(tableau.name, coups, tuple(float(coups * x) for x in p), cov, edges, notes)


class _ShoeReference:
    """Accumulates, coup by coup, the exact probabilities and edges given each coup's composition.

    Each block's compositions are evaluated at once by :func:`exact_odds.batch.evaluate`
    (identical integers to the reference enumerator), then summed in floating point.
    """

    def __init__(self, bets: Sequence[Bet], tableau: Tableau) -> None:
        import numpy as np

        self.bets, self.tableau = tuple(bets), tableau
        self.suited = any(b.detail is Detail.SUITS for b in bets)
        self.coups = 0
        self.total = np.zeros(3)
        self.outer = np.zeros((3, 3))
        self.edge_sums = np.zeros(len(self.bets))

    def add(self, left: NDArray[np.int16]) -> None:
        import numpy as np

        from exact_odds.batch import evaluate

        if not len(left):
            return
        by_suit = left.reshape(-1, 13, 4).astype(np.int64)
        ev = evaluate(by_suit.sum(axis=2), bets=self.bets, tableau=self.tableau,
                      suits=by_suit if self.suited else None)
        probs = ev.probabilities()
        self.coups += len(left)
        self.total += probs.sum(axis=0)
        self.outer += probs.T @ probs
        if self.bets:
            self.edge_sums += ev.edges().sum(axis=0)

    def reference(self) -> Reference:
        import numpy as np

        cov = np.diag(self.total) - self.outer
        n = max(self.coups, 1)
        return Reference(self.tableau.name, self.coups, tuple(float(x) for x in self.total),
                         tuple(tuple(float(x) for x in row) for row in cov),
                         {b.name: float(e) / n for b, e in zip(self.bets, self.edge_sums, strict=True)},
                         {b.name: "exact given each coup's composition, averaged" for b in self.bets})


# ---------------------------------------------------------------- the simulation


@dataclass(frozen=True)
class Simulation:
    """The result of :func:`simulate`.

    ``coups``: a :class:`Dist` of the coups dealt (ways = counts); ``shoes``: shoes used
    (0 in fresh mode); ``bets``: each flat bet's result; ``reference``: exact expectations
    when asked for; ``sequence``/``shoe_of``: every coup's code and shoe in order, when kept.
    """

    shoe: Shoe
    seed: int
    tableau: str
    procedure: Procedure
    detail: Detail
    coups: Dist[Coup]
    shoes: int
    bets: tuple[BetResult, ...]
    reference: Reference | None
    sequence: NDArray[np.int16] | None
    shoe_of: NDArray[np.int32] | None

    @property
    def n(self) -> int:
        """Number of coups dealt."""
        return self.coups.total

    def winners(self) -> Dist[Winner]:
        """Counts of banker, player and tie."""
        return winners(self.coups)


def simulate(shoe: Shoe, *, seed: int, coups: int | None = None, shoes: int | None = None,
             tableau: Tableau = STANDARD_TABLEAU, procedure: Procedure = Procedure(), bets: Sequence[Bet] = (),
             detail: Detail = Detail.POINTS, reference: Tableau | None = None, keep: bool = False,
             progress: Progress | None = None) -> Simulation:
    """Deal ``coups`` coups (or ``shoes`` whole shoes) from ``shoe`` with ``tableau``.

    Flat one-unit bets on each of ``bets`` are tracked. ``detail`` (raised to what the
    bets need) says which pair flags the coups record. With ``reference`` (a tableau),
    the exact expectations of the coups dealt under that tableau are gathered for
    :func:`verify`. With ``keep`` every coup's code is kept in order (for sessions and
    roads). ``progress(done, total)`` is called after each block.
    """
    import numpy as np

    procedure.check(shoe)
    _check_seed(seed)
    if (coups is None) == (shoes is None):
        raise SimulationError("give either a number of coups or a number of shoes")
    target = coups if coups is not None else shoes
    assert target is not None
    if target < 1:
        raise SimulationError(f"the number of {'coups' if coups is not None else 'shoes'} must be at least 1")
    if shoes is not None and procedure.fresh:
        raise SimulationError("fresh mode deals no shoes: give a number of coups")
    detail = max([detail, *(b.detail for b in bets)])
    if detail is Detail.SUITS and shoe.suited is None:
        raise ShoeError("suited bets need a shoe whose suits are known (whole decks or counts divisible by 4)")
    tables = DealTables.of(tableau)
    codes = shoe_card_codes(shoe)
    trackers = [_BetTracker(b, detail) for b in bets]
    shoe_ref = _ShoeReference(bets, reference) if reference is not None and not procedure.fresh else None
    counts = np.zeros(CODES, dtype=np.int64)
    kept: list[NDArray[np.int16]] = []
    kept_shoes: list[NDArray[np.int32]] = []
    done = shoes_done = block = 0
    while done < target:
        if procedure.fresh:
            n = min(FRESH_BLOCK, target - done)
            index = fresh_six(block_rng(seed, block), len(codes), n, infinite=shoe.infinite)
            block_codes, _ = deal_coups(np.asarray(codes, dtype=np.uint8)[index], tables, detail)
            block_shoes = None
            done += n
        else:
            rows = SHOE_BLOCK if shoes is None else min(SHOE_BLOCK, target - done)
            first = block * SHOE_BLOCK
            play = play_shoes(shoe_orders(codes, seed, first, first + rows), tables, procedure, detail,
                              compositions=shoe_ref is not None)
            take = len(play.codes) if shoes is not None else min(len(play.codes), target - done)
            block_codes = play.codes[:take]
            block_shoes = play.shoe[:take] + block * SHOE_BLOCK
            if shoe_ref is not None and play.left is not None:
                shoe_ref.add(play.left[:take])
            used_shoes = rows if shoes is not None else int(block_shoes[-1]) - block * SHOE_BLOCK + 1
            shoes_done += used_shoes
            done += rows if shoes is not None else take
        counts += np.bincount(block_codes, minlength=CODES)
        for t in trackers:
            t.add(block_codes)
        if keep:
            kept.append(block_codes)
            if block_shoes is not None:
                kept_shoes.append(block_shoes)
        block += 1
        if progress is not None:
            progress(done, target)
    table = coup_table()
    dist = Dist({table[c]: int(k) for c, k in enumerate(counts) if k})
    if reference is None:
        ref = None
    elif shoe_ref is not None:
        ref = shoe_ref.reference()
    else:
        ref = fresh_reference(shoe, dist.total, bets, reference)
    return Simulation(
        shoe=shoe, seed=seed, tableau=tableau.name, procedure=procedure, detail=detail, coups=dist,
        shoes=shoes_done, bets=tuple(t.result(dist) for t in trackers), reference=ref,
        sequence=np.concatenate(kept) if keep else None,
        shoe_of=np.concatenate(kept_shoes) if keep and kept_shoes else None,
    )


# ---------------------------------------------------------------- verification


@dataclass(frozen=True)
class OutcomeCheck:
    """One outcome: observed and expected counts and the z-score ``(observed - expected) / sd``."""

    outcome: str
    observed: int
    expected: float
    sd: float

    @property
    def z(self) -> float:
        """Standardised difference."""
        return (self.observed - self.expected) / self.sd if self.sd > 0 else 0.0


@dataclass(frozen=True)
class EdgeCheck:
    """A bet's simulated edge with its confidence interval beside the exact edge."""

    bet: str
    simulated: float
    low: float
    high: float
    exact: Fraction | float
    note: str

    @property
    def covered(self) -> bool:
        """Whether the interval contains the exact edge."""
        return self.low <= float(self.exact) <= self.high


@dataclass(frozen=True)
class Verification:
    """Simulated counts against exact expectations.

    ``chi_square`` is ``d^T V^-1 d`` over the first two outcomes (``d`` = observed minus
    expected counts, ``V`` their exact covariance); with identical coups (fresh mode) it is
    Pearson's statistic, and in shoe mode it allows each coup its own probabilities. Under
    the hypothesis that the simulated table deals by the reference tableau it is
    asymptotically chi-square with ``df`` = 2 degrees of freedom (a martingale central limit
    theorem: each coup's outcome is centred by its exact conditional probabilities).
    ``log_p`` is the natural logarithm of the p-value, ``-chi_square / 2`` for two degrees of
    freedom (a generic chi-square tail is :func:`exact_odds.stats.chi_square_sf`).
    ``verdict`` is ``"FAIL"`` when the p-value is below ``alpha``.
    """

    outcomes: tuple[OutcomeCheck, ...]
    chi_square: float
    df: int
    log_p: float
    alpha: float
    edges: tuple[EdgeCheck, ...]
    reference: Reference
    level: float

    @property
    def p_value(self) -> float:
        """The p-value (0.0 when it is below the smallest float; see ``log_p``)."""
        return math.exp(self.log_p)

    @property
    def verdict(self) -> str:
        """``"PASS"`` or ``"FAIL"`` at significance level ``alpha``."""
        return "FAIL" if self.log_p < math.log(self.alpha) else "PASS"


def verify(sim: Simulation, *, alpha: float = 0.001, level: float = 0.95) -> Verification:
    """Compare a simulation that gathered a :class:`Reference` with it."""
    import numpy as np

    ref = sim.reference
    if ref is None:
        raise SimulationError("this simulation gathered no exact reference (pass reference=...)")
    if not 0 < alpha < 1 or not 0 < level < 1:
        raise SimulationError("the significance level and the confidence level must lie strictly between 0 and 1")
    observed = sim.winners()
    obs = np.array([observed[w] for w in OUTCOMES], dtype=float)
    exp = np.array(ref.expected)
    cov = np.array(ref.covariance)
    d = (obs - exp)[:2]
    chi2 = float(d @ np.linalg.solve(cov[:2, :2], d))
    checks = tuple(OutcomeCheck(w, observed[w], ref.expected[i], math.sqrt(max(cov[i, i], 0.0)))
                   for i, w in enumerate(OUTCOMES))
    edges = tuple(EdgeCheck(r.bet.name, float(r.mean()), *r.interval(level), ref.edges[r.bet.name],
                            ref.edge_notes[r.bet.name]) for r in sim.bets)
    # With two degrees of freedom the chi-square tail is exactly P(X >= x) = exp(-x / 2), so the
    # p-value's logarithm is -x / 2 (kept, so that a p-value below the smallest float can be stated).
    return Verification(checks, chi2, 2, -chi2 / 2, alpha, edges, ref, level)


def random_seed() -> int:
    """A fresh seed from the operating system's entropy (reports print it so a run can be repeated)."""
    import secrets

    return secrets.randbits(32)


# ---------------------------------------------------------------- simulated sessions


@dataclass(frozen=True)
class SimulatedSessions:
    """``sessions`` flat bettors of ``hands`` hands each, on consecutive coups of one simulation.

    ``net``: each session's net result in units times ``scale`` (exact integers);
    ``ruined``: with a ``bankroll``, whether the session's bankroll fell below one unit.
    """

    bet: Bet
    hands: int
    scale: int
    net: NDArray[np.int64]
    bankroll: Fraction | None
    ruined: NDArray[np.bool_] | None
    simulation: Simulation

    @property
    def sessions(self) -> int:
        """Number of sessions."""
        return len(self.net)


def simulate_sessions(shoe: Shoe, bet: Bet, *, hands: int, sessions: int, seed: int,
                      bankroll: Fraction | None = None, tableau: Tableau = STANDARD_TABLEAU,
                      procedure: Procedure = Procedure(), progress: Progress | None = None) -> SimulatedSessions:
    """Deal ``hands * sessions`` coups and cut them into ``sessions`` sessions of ``hands`` consecutive coups.

    Each session bets one unit on ``bet`` every hand. With ``bankroll`` (units), a session is
    ruined when its bankroll falls below one unit at any point (it could not stake again).
    """
    import numpy as np

    if hands < 1 or sessions < 1:
        raise SimulationError("the numbers of hands and of sessions must be at least 1")
    if bankroll is not None and bankroll < 1:
        raise SimulationError(f"the bankroll must be at least one unit (one stake), got {bankroll}")
    sim = simulate(shoe, seed=seed, coups=hands * sessions, tableau=tableau, procedure=procedure,
                   detail=bet.detail, keep=True, progress=progress)
    assert sim.sequence is not None
    lut, scale = payout_lut(bet, sim.detail)
    codes = sim.sequence.reshape(sessions, hands)
    net = np.empty(sessions, dtype=np.int64)
    ruined = np.zeros(sessions, dtype=bool) if bankroll is not None else None
    step = max(1, (1 << 22) // hands)
    for first in range(0, sessions, step):
        path = lut[codes[first:first + step]].cumsum(axis=1)
        net[first:first + step] = path[:, -1]
        if ruined is not None and bankroll is not None:
            # bankroll + path / scale < 1, i.e. path < (1 - bankroll) * scale, for integer paths.
            ruined[first:first + step] = path.min(axis=1) < math.ceil((1 - bankroll) * scale)
    return SimulatedSessions(bet, hands, scale, net, bankroll, ruined, sim)
