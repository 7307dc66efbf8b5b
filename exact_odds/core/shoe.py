"""Cards and shoes: ranks with baccarat point values, suits, and immutable compositions.

Conventions: the ace counts 1 point, 2-9 their face value, and T, J, Q, K count 0.
A :class:`Shoe` holds a count per rank (A, 2, ..., 9, T, J, Q, K) and, when known,
a count per rank and suit. A shoe built from whole decks knows its suits; a shoe given
by rank counts knows them when every count divides by four (suits equally represented).

>>> shoe = Shoe.decks(8)
>>> shoe.size, shoe.count(Rank.KING)
(416, 32)
>>> shoe.without(parse_cards("5,5,K,9")).size
412
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import RANK_COUNT, shown

CARDS_PER_COUP = 6
"""The ordered-sequence convention counts six cards per coup, used or not."""
MIN_CARDS_PER_COUP = 4
"""A coup takes at least four cards, so a shoe deals at most a quarter of its cards' worth of coups."""


class ShoeError(InputError):
    """A shoe, a card or a composition that cannot be used; the message says why."""


class Rank(IntEnum):
    """The thirteen ranks, numbered ace = 1 to king = 13."""

    ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(1, 14)

    @property
    def point(self) -> int:
        """Baccarat point value: ace 1, 2-9 face value, ten and court cards 0."""
        return self.value if self.value < 10 else 0

    @property
    def label(self) -> str:
        """One-character label: A 2 3 4 5 6 7 8 9 T J Q K."""
        return RANK_LABELS[self.value - 1]


RANK_LABELS = "A23456789TJQK"
RANKS: tuple[Rank, ...] = tuple(Rank)


class Suit(Enum):
    """The four suits; the value is the letter used in card specs."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol (for example ``♠``)."""
        return SUIT_SYMBOLS[self]


SUITS: tuple[Suit, ...] = tuple(Suit)
SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {**{s.value: s for s in Suit}, **{v: k for k, v in SUIT_SYMBOLS.items()}}


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a rank and, when it matters, a suit (``None`` means any suit)."""

    rank: Rank
    suit: Suit | None = None

    def __str__(self) -> str:
        return self.rank.label + (self.suit.value if self.suit else "")


def parse_rank(text: str) -> Rank:
    """A rank from ``A``, ``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K`` (any case)."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANK_LABELS:
        return Rank(RANK_LABELS.index(t) + 1)
    raise ShoeError(f"unknown rank {shown(text.strip())} (use A, 2-9, T or 10, J, Q, K)")


def parse_card(text: str) -> Card:
    """A card such as ``K``, ``Kh``, ``10d``, ``9♠`` (suit optional, any case)."""
    t = text.strip()
    if not t:
        raise ShoeError("empty card")
    last = t[-1].lower()
    if len(t) >= 2 and last in _SUIT_BY_TEXT and t.upper() != "10":
        return Card(parse_rank(t[:-1]), _SUIT_BY_TEXT[last])
    return Card(parse_rank(t))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by commas or white space: ``"5,5,K,9"`` or ``"Kh 3d 9s"``."""
    return tuple(parse_card(part) for part in re.split(r"[,\s]+", text.strip()) if part)


def falling(n: int, k: int) -> int:
    """The falling factorial n (n-1) ... (n-k+1); zero when n < k."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True, slots=True)
class Shoe:
    """An immutable composition: ``counts[i]`` cards of rank ``RANKS[i]``; ``suited`` (or ``None``) per rank
    the counts of spades, hearts, diamonds, clubs; ``infinite``: drawn in these proportions, never depleted."""

    counts: tuple[int, ...]
    suited: tuple[tuple[int, ...], ...] | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        if len(self.counts) != 13:
            raise ShoeError(f"a shoe needs 13 rank counts, got {len(self.counts)}")
        for rank, n in zip(RANKS, self.counts, strict=True):
            if not isinstance(n, int) or isinstance(n, bool):
                raise ShoeError(f"count of {rank.label} must be a whole number, got {shown(n)}")
            if n < 0:
                raise ShoeError(f"count of {rank.label} must not be negative, got {n}")
        if self.suited is not None:
            if len(self.suited) != 13 or any(len(row) != 4 for row in self.suited):
                raise ShoeError("suit counts need 13 rows of 4")
            if any(sum(row) != n for row, n in zip(self.suited, self.counts, strict=True)):
                raise ShoeError("suit counts do not add up to the rank counts")
            if any(c < 0 for row in self.suited for c in row):
                raise ShoeError("suit counts must not be negative")
        if not self.infinite and self.size < CARDS_PER_COUP:
            raise ShoeError(f"a shoe needs at least {CARDS_PER_COUP} cards, this one has {self.size}")
        if self.infinite and self.size == 0:
            raise ShoeError("an infinite shoe needs card proportions")

    @classmethod
    def decks(cls, n: int) -> Shoe:
        """``n`` full 52-card decks."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ShoeError(f"number of decks must be a whole number of at least 1, got {shown(n)}")
        return cls((4 * n,) * 13, ((n,) * 4,) * 13)

    @classmethod
    def infinite_deck(cls) -> Shoe:
        """The infinite-deck limit: every draw is independent, each rank with chance 1/13."""
        return cls((4,) * 13, ((1,) * 4,) * 13, infinite=True)

    @classmethod
    def from_counts(cls, counts: Sequence[int]) -> Shoe:
        """A shoe from 13 rank counts (A..K); suits are known when every count divides by 4."""
        counts = tuple(counts)
        suited = None
        if len(counts) == 13 and all(isinstance(n, int) and n >= 0 and n % 4 == 0 for n in counts):
            suited = tuple((n // 4,) * 4 for n in counts)
        return cls(counts, suited)

    @classmethod
    def parse(cls, spec: str) -> Shoe:
        """A shoe from ``"A=32,2=32,...,K=32"`` (ranks not named count zero; counts as
        :data:`~exact_odds.inputs.validate.RANK_COUNT` allows; a rank named twice is an error)."""
        counts = [0] * 13
        seen: set[Rank] = set()
        for part in re.split(r"[,\s]+", spec.strip()):
            if not part:
                continue
            if "=" not in part:
                raise ShoeError(f"shoe entry {shown(part)} should look like RANK=COUNT, e.g. K=32")
            name, _, value = part.partition("=")
            rank = parse_rank(name)
            if rank in seen:
                raise ShoeError(f"rank {rank.label} is given twice in the shoe")
            seen.add(rank)
            counts[rank - 1] = RANK_COUNT.parse(value, f"count of {rank.label}", ShoeError)
        if not seen:
            raise ShoeError("empty shoe spec (expected e.g. A=32,2=32,...,K=32)")
        return cls.from_counts(counts)

    @property
    def size(self) -> int:
        """Number of cards in the shoe (for an infinite shoe: the weight of one deck)."""
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        return self.counts[rank - 1]

    def point_counts(self) -> tuple[int, ...]:
        """Number of cards of each point value 0..9 (tens and court cards pooled at 0)."""
        out = [0] * 10
        for rank, n in zip(RANKS, self.counts, strict=True):
            out[rank.point] += n
        return tuple(out)

    def without(self, cards: Iterable[Card | Rank]) -> Shoe:
        """A new shoe without ``cards`` (a card without a suit makes the result's suits unknown)."""
        if self.infinite:
            raise ShoeError("cards cannot be removed from an infinite deck")
        counts = list(self.counts)
        suited = [list(row) for row in self.suited] if self.suited is not None else None
        for item in cards:
            card = item if isinstance(item, Card) else Card(item)
            i = card.rank - 1
            if counts[i] == 0:
                raise ShoeError(f"cannot remove {card}: no {card.rank.label} left in the shoe")
            counts[i] -= 1
            if card.suit is not None:
                if suited is None:
                    raise ShoeError(f"cannot remove {card}: this shoe's suits are not known")
                j = SUITS.index(card.suit)
                if suited[i][j] == 0:
                    raise ShoeError(f"cannot remove {card}: none of that suit left in the shoe")
                suited[i][j] -= 1
            elif suited is not None:
                suited = None
        if sum(counts) < CARDS_PER_COUP:
            raise ShoeError(f"removing those cards leaves {sum(counts)} cards; a coup needs {CARDS_PER_COUP}")
        return Shoe(tuple(counts), tuple(tuple(r) for r in suited) if suited is not None else None)

    def spec(self) -> str:
        """The shoe as a spec string accepted by :meth:`parse`."""
        return ",".join(f"{r.label}={n}" for r, n in zip(RANKS, self.counts, strict=True))

    def __str__(self) -> str:
        if self.infinite:
            return "infinite deck"
        if self.counts[0] % 4 == 0 and len(set(self.counts)) == 1:
            return f"{self.counts[0] // 4} deck{'s' if self.counts[0] != 4 else ''}"
        return self.spec()
