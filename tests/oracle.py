"""A brute-force oracle: deal every ordered six-card sequence of a tiny shoe.

The rules here are written as plain if-statements from the printed tableau, independently
of ``exact_odds.core.tableau``, so the engine is checked against a second reading of the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import permutations

from exact_odds.core.coup import Coup
from exact_odds.core.shoe import RANKS, SUITS, Card, Shoe
from exact_odds.core.tableau import COLUMNS, Tableau


def point(card: Card) -> int:
    return card.rank.value if card.rank.value < 10 else 0


def banker_draws(banker: int, player_third: int | None) -> bool:
    """The standard banker rule, as printed."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def play(cards: tuple[Card, ...]) -> Coup:
    """Play one coup from six cards in dealing order (P, B, P, B, then draws)."""
    p1, b1, p2, b2, *rest = cards
    player = (point(p1) + point(p2)) % 10
    banker = (point(b1) + point(b2)) % 10
    pc = bc = 2
    pair_p = p1.rank == p2.rank
    pair_b = b1.rank == b2.rank
    suited_p = pair_p and p1.suit == p2.suit and p1.suit is not None
    suited_b = pair_b and b1.suit == b2.suit and b1.suit is not None
    twin = pair_p and pair_b and p1.rank == b1.rank
    if player < 8 and banker < 8:
        third: int | None = None
        if player <= 5:
            third = point(rest.pop(0))
            player = (player + third) % 10
            pc = 3
        if banker_draws(banker, third):
            banker = (banker + point(rest.pop(0))) % 10
            bc = 3
    return Coup(player, banker, pc, bc, pair_p, pair_b, suited_p, suited_b, twin)


def shoe_cards(shoe: Shoe) -> list[Card]:
    """Every card of a finite shoe, with suits when the shoe knows them."""
    cards: list[Card] = []
    for i, rank in enumerate(RANKS):
        if shoe.suited is not None:
            for suit, n in zip(SUITS, shoe.suited[i], strict=True):
                cards += [Card(rank, suit)] * n
        else:
            cards += [Card(rank)] * shoe.counts[i]
    return cards


def brute_force(cards: Iterable[Card]) -> Counter[Coup]:
    """Ways of every coup over all ordered six-card sequences of distinct card positions."""
    out: Counter[Coup] = Counter()
    for seq in permutations(list(cards), 6):
        out[play(seq)] += 1
    return out


# ---------------------------------------------------------------- any tableau, read as data
#
# The functions below play a coup under any :class:`~exact_odds.core.tableau.Tableau` by reading
# the table's DATA (``naturals``, ``player_draws[total]``,
# ``banker_draws[banker_total][COLUMNS.index(third)]``), never its methods nor
# ``exact_odds.core.tableau.play``/``play_many``, so a custom rules file given to a command can be
# checked against a second execution of the same table. Only point values matter here.

Hand = tuple[int, int, int, int]
"""How a coup ends: player total, banker total, player's cards, banker's cards (2 or 3)."""


def play_tableau(tableau: Tableau, points: Sequence[int]) -> Hand:
    """Play one coup from point values 0-9 in dealing order (P, B, P, B, then the draws)."""
    player = (points[0] + points[2]) % 10
    banker = (points[1] + points[3]) % 10
    if player in tableau.naturals or banker in tableau.naturals:
        return player, banker, 2, 2
    rest = list(points[4:])
    third: int | None = None
    if tableau.player_draws[player]:
        third = rest.pop(0)
    if tableau.banker_draws[banker][COLUMNS.index(third)]:
        banker = (banker + rest.pop(0)) % 10
        banker_cards = 3
    else:
        banker_cards = 2
    if third is not None:
        return (player + third) % 10, banker, 3, banker_cards
    return player, banker, 2, banker_cards


def shoe_points(shoe: Shoe) -> list[int]:
    """The point value of every card of a finite shoe, one entry per card."""
    return [point(Card(rank)) for rank, n in zip(RANKS, shoe.counts, strict=True) for _ in range(n)]


def point_counts(points: Iterable[int]) -> tuple[int, ...]:
    """How many cards of each point value 0-9."""
    counts = [0] * 10
    for p in points:
        counts[p] += 1
    return tuple(counts)


def brute_force_tableau(points: Sequence[int], tableau: Tableau, dealt: Sequence[int] = ()) -> Counter[Hand]:
    """Ways of every ending: every ordered sequence of distinct card positions of ``points``
    (the cards left in the shoe) filling the coup's ``6 - len(dealt)`` remaining positions
    after the cards ``dealt`` (point values in dealing order), unused positions included."""
    out: Counter[Hand] = Counter()
    for seq in permutations(points, 6 - len(dealt)):
        out[play_tableau(tableau, (*dealt, *seq))] += 1
    return out


def grouped_tableau(counts: Sequence[int], tableau: Tableau, dealt: Sequence[int] = ()) -> Counter[Hand]:
    """:func:`brute_force_tableau` from point counts, faster: each distinct sequence of point
    values is played once and weighted by the card sequences showing it (the product of the
    counts left at each position). A sequence stops as soon as :func:`play_tableau` can finish
    the coup from it (it reads no card it does not use: a missing one raises IndexError); the
    positions it leaves unused take any of the cards left. Tests check it equals the brute force."""
    out: Counter[Hand] = Counter()
    left = list(counts)
    seq = list(dealt)

    def walk(ways: int) -> None:
        if len(seq) >= 4:
            try:
                hand = play_tableau(tableau, seq)
            except IndexError:
                pass
            else:
                unused, size = 6 - len(seq), sum(left)
                for i in range(unused):
                    ways *= size - i
                out[hand] += ways
                return
        for p in range(10):
            n = left[p]
            if n:
                left[p] -= 1
                seq.append(p)
                walk(ways * n)
                seq.pop()
                left[p] += 1

    walk(1)
    return +out


def winner(hand: Hand) -> str:
    """``"banker"``, ``"player"`` or ``"tie"``."""
    player, banker = hand[0], hand[1]
    return "banker" if banker > player else "player" if player > banker else "tie"


def winner_ways(hands: Counter[Hand]) -> dict[str, int]:
    """Ways of a banker win, a player win and a tie."""
    out = {"banker": 0, "player": 0, "tie": 0}
    for hand, ways in hands.items():
        out[winner(hand)] += ways
    return out


CONFIG_NAMES = ("standard", "tie-9", "commission-4", "super-6", "ez")


def payout(bet: str, hand: Hand, config: str = "standard") -> Fraction:
    """Net result of one unit on ``bet`` (``banker``, ``player``, ``tie``, ``dragon-7``,
    ``panda-8``) in the pay table ``config``, from the published tables (Wizard of Odds,
    "Baccarat" and "EZ Baccarat"): banker 19:20 (24:25 in commission-4; 1:1 in super-6, 1:2
    on a banker 6; 1:1 in ez, a push on a three-card banker 7); player 1:1; banker and player
    push on a tie; tie 8:1 (9:1 in tie-9); dragon 7 pays 40:1 on a banker win with a
    three-card 7, panda 8 25:1 on a player win with a three-card 8, both lose otherwise."""
    side = winner(hand)
    player, banker, player_cards, banker_cards = hand
    if bet == "dragon-7":
        return Fraction(40 if side == "banker" and banker == 7 and banker_cards == 3 else -1)
    if bet == "panda-8":
        return Fraction(25 if side == "player" and player == 8 and player_cards == 3 else -1)
    if bet == "tie":
        return Fraction(9 if config == "tie-9" else 8) if side == "tie" else Fraction(-1)
    if side == "tie":
        return Fraction(0)
    if bet == "player":
        return Fraction(1 if side == "player" else -1)
    if side == "player":
        return Fraction(-1)
    if config == "commission-4":
        return Fraction(24, 25)
    if config == "super-6":
        return Fraction(1, 2) if banker == 6 else Fraction(1)
    if config == "ez":
        return Fraction(0) if banker == 7 and banker_cards == 3 else Fraction(1)
    return Fraction(19, 20)


def expected_value(hands: Counter[Hand], bet: str, config: str = "standard") -> Fraction:
    """The bettor's exact expectation per unit staked on ``bet``."""
    total = sum(hands.values())
    return sum((payout(bet, h, config) * w for h, w in hands.items()), Fraction(0)) / total
