"""What is known of the next coup's six cards, and kinds of information that split it into cases.

A :class:`Known` says which cards each position (see the package) may be: a rank (``7``), a card with its
suit (``7h``) or alternatives (``7|8|9``). An :class:`Information` partitions the cards at each watched
position into labelled groups; each combination of groups is a *case*.

>>> Known.parse("1=7|8|9, 5=7h")
Known.parse('1=7|8|9 5=7h')
>>> Information.rank_at(1).labels[0][:3]
('A', '2', '3')
>>> Information.grouped([1, 2], {"high": "6|7|8|9"}).cases()[:2]
[('high', 'high'), ('high', 'other')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from exact_odds.core.shoe import CARDS_PER_COUP, RANKS, SUITS, Card, Rank, ShoeError, Suit, parse_card
from exact_odds.inputs.errors import InputError, suits_unknown
from exact_odds.inputs.validate import shown, without_leading_zeros

POSITIONS: tuple[int, ...] = tuple(range(1, CARDS_PER_COUP + 1))
"""The six positions of a coup in dealing order, 1 to 6."""

POSITION_NAMES: dict[int, str] = {
    1: "player's first card", 2: "banker's first card", 3: "player's second card", 4: "banker's second card",
    5: "fifth card", 6: "sixth card"}
"""What each position is called in reports."""

_ALIASES = {"p1": 1, "b1": 2, "p2": 3, "b2": 4}

CardSet = frozenset[Card]
"""Cards a position may be; a card without a suit stands for every card of its rank."""


class InformationError(InputError):
    """Knowledge or a kind of information that cannot be used; the message says why."""


def position_of(text: str) -> int:
    """A position from ``1``..``6`` (or ``P1``, ``B1``, ``P2``, ``B2``)."""
    t = without_leading_zeros(text.strip().lower())
    if t in _ALIASES:
        return _ALIASES[t]
    if t in {str(p) for p in POSITIONS}:  # ASCII digits only: "٣" is no position
        return int(t)
    raise InformationError(f"unknown position {shown(text.strip())} (use 1-6 in dealing order: 1 P1, 2 B1, 3 P2, 4 B2, "
                           "5 the fifth card, 6 the sixth card)")


def positions_of(text: str) -> tuple[int, ...]:
    """Positions from ``"1"``, ``"1,2"`` or a range ``"1-4"``; each at most once."""
    out: list[int] = []
    for part in filter(None, re.split(r"[,\s]+", text.strip())):
        first, dash, last = part.partition("-")
        out += range(position_of(first), position_of(last if dash else first) + 1)
    if not out:
        raise InformationError("no position given (use 1-6, e.g. '1' or '1-4')")
    if len(set(out)) != len(out):
        raise InformationError(f"a position is named twice in {shown(text)}")
    return tuple(out)


def card_set(text: str) -> CardSet:
    """Cards from ``"7"``, ``"7h"`` or ``"7|8|9"`` (``|`` separates alternatives)."""
    parts = text.split("|")
    if not all(p.strip() for p in parts):
        what = "no card" if not text.strip() else "an empty card"
        raise InformationError(f"{what} in {shown(text)} (write e.g. 7, 7h or 7|8|9)")
    return frozenset(parse_card(p) for p in parts)


def card_set_text(cards: CardSet) -> str:
    """A card set as a spec: ranks in order A..K, each followed by its suited cards."""
    return "|".join(str(c) for c in sorted(cards, key=lambda c: (c.rank, SUITS.index(c.suit) if c.suit else -1)))


def matches(cards: CardSet, rank: Rank, suit: Suit | None) -> bool:
    """Whether a card of ``rank`` (of ``suit``; ``None``: a card whose suit is not told apart, which matches
    only rank-wide entries) is in ``cards``."""
    return Card(rank) in cards or (suit is not None and Card(rank, suit) in cards)


def suited_ranks(sets: Iterable[CardSet]) -> frozenset[Rank]:
    """Ranks that some set names with a suit: their cards must be told apart by suit."""
    return frozenset(c.rank for cards in sets for c in cards if c.suit is not None)


@dataclass(frozen=True, slots=True)
class Known:
    """What is known of each of the six positions: the cards it may be (``None``: nothing); the empty
    ``Known()`` knows nothing."""

    cards: tuple[CardSet | None, ...] = (None,) * CARDS_PER_COUP

    def __post_init__(self) -> None:
        if len(self.cards) != CARDS_PER_COUP:
            raise InformationError(f"knowledge needs one entry per position, got {len(self.cards)}")
        if any(c is not None and not c for c in self.cards):
            raise InformationError("a known position needs at least one card it may be")

    @classmethod
    def of(cls, known: Mapping[int, str | Card | Rank | Iterable[Card]]) -> Known:
        """Knowledge from ``{position: cards}``; cards as a spec (``"7|8"``), a card, a rank or cards."""
        cards: list[CardSet | None] = [None] * CARDS_PER_COUP
        for position, value in known.items():
            if position not in POSITIONS:
                raise InformationError(f"unknown position {shown(position)} (use 1-6)")
            if isinstance(value, str):
                cards[position - 1] = card_set(value)
            elif isinstance(value, Rank):
                cards[position - 1] = frozenset({Card(value)})
            elif isinstance(value, Card):
                cards[position - 1] = frozenset({value})
            else:
                cards[position - 1] = frozenset(value)
        return cls(tuple(cards))

    @classmethod
    def parse(cls, spec: str) -> Known:
        """Knowledge from ``"1=7"``, ``"5=7h"``, ``"1=7|8|9, 2=K"`` (positions 1-6 or P1 B1 P2 B2)."""
        known: dict[int, str] = {}
        for entry in re.split(r"[,\s]+", spec.strip()):
            if not entry:
                continue
            where, eq, what = entry.partition("=")
            if not eq:
                raise InformationError(f"known card {shown(entry)} should look like POSITION=CARDS, e.g. 1=7 or 5=7h|8")
            position = position_of(where)
            if position in known:
                raise InformationError(f"position {position} is given twice in {shown(spec)}")
            known[position] = what
        return cls.of(known)

    @classmethod
    def prefix(cls, cards: Sequence[Card]) -> Known:
        """The first ``len(cards)`` positions known exactly, in dealing order."""
        if len(cards) > CARDS_PER_COUP:
            raise InformationError(f"a coup has {CARDS_PER_COUP} positions, got {len(cards)} cards")
        return cls.of(dict(zip(POSITIONS, cards, strict=False)))

    def cards_at(self, position: int) -> CardSet | None:
        """The cards ``position`` may be, or ``None`` when nothing is known of it."""
        return self.cards[position - 1]

    @property
    def positions(self) -> tuple[int, ...]:
        """The positions something is known of."""
        return tuple(p for p in POSITIONS if self.cards[p - 1] is not None)

    def and_(self, other: Known) -> Known:
        """Both pieces of knowledge: at each position, the cards both allow."""
        cards: list[CardSet | None] = []
        for position, (a, b) in enumerate(zip(self.cards, other.cards, strict=True), 1):
            if a is None or b is None:
                cards.append(a if b is None else b)
                continue
            both = _cards(every=(a, b))
            if not both:
                raise InformationError(f"position {position} cannot be both {card_set_text(a)} and {card_set_text(b)}")
            cards.append(both)
        return Known(tuple(cards))

    def spec(self) -> str:
        """The knowledge as a spec accepted by :meth:`parse` (``""`` when nothing is known)."""
        return " ".join(f"{p}={card_set_text(c)}" for p, c in zip(POSITIONS, self.cards, strict=True) if c is not None)

    def __str__(self) -> str:
        return self.spec() or "nothing known"

    def __repr__(self) -> str:
        return f"Known.parse({self.spec()!r})"


def _cards(every: Sequence[CardSet] = (), none: Sequence[CardSet] = ()) -> CardSet:
    """The cards in every set of ``every`` and in none of ``none``, with as few entries as possible."""
    out: set[Card] = set()
    for rank in RANKS:
        suits = [s for s in SUITS if all(matches(c, rank, s) for c in every) and
                 not any(matches(c, rank, s) for c in none)]
        out |= {Card(rank)} if len(suits) == len(SUITS) else {Card(rank, s) for s in suits}
    return frozenset(out)


OTHER = "other"
"""Label of the cards that no named group holds."""


@dataclass(frozen=True, slots=True)
class Information:
    """A kind of information: ``groups[i]`` partitions the cards at ``positions[i]`` as ``(label, cards)``
    pairs; a *case* is one label per watched position (:meth:`known` makes it a :class:`Known`)."""

    name: str
    positions: tuple[int, ...]
    groups: tuple[tuple[tuple[str, CardSet], ...], ...]

    def __post_init__(self) -> None:
        if not self.positions or len(set(self.positions)) != len(self.positions):
            raise InformationError("an information watches one or more distinct positions")
        if any(p not in POSITIONS for p in self.positions) or len(self.groups) != len(self.positions):
            raise InformationError("an information needs one partition per watched position 1-6")
        for groups in self.groups:
            _check_partition(groups)

    @classmethod
    def rank_at(cls, *positions: int) -> Information:
        """The rank of the card at each position (13 cases per position)."""
        ranks = tuple((r.label, frozenset({Card(r)})) for r in RANKS)
        return cls(f"rank of card {_positions_text(positions)}", tuple(positions), (ranks,) * len(positions))

    @classmethod
    def grouped(cls, positions: Sequence[int], groups: Mapping[str, str | CardSet]) -> Information:
        """Named groups of cards at each position (``{"high": "6|7|8|9"}``); the rest is ``"other"``.

        With one group this is "whether the card is in the group" (edge sorting's high/low).
        """
        named = [(label, card_set(cards) if isinstance(cards, str) else frozenset(cards))
                 for label, cards in groups.items()]
        if any(label == OTHER for label, _ in named):
            raise InformationError(f"{OTHER!r} is the label of the cards in no group; choose another name")
        rest = _cards(none=[cards for _, cards in named])
        partition = tuple(named + ([(OTHER, rest)] if rest else []))
        desc = ", ".join(f"{label} = {card_set_text(cards)}" for label, cards in named)
        return cls(f"group of card {_positions_text(positions)} ({desc})", tuple(positions),
                   (partition,) * len(positions))

    @classmethod
    def parse(cls, positions: str, groups: str | None = None) -> Information:
        """From option text: positions ``"1"``/``"1,3"``/``"1-4"``; groups ``"high=6|7|8|9"`` or ``"6|7|8|9"``
        (a group without a name is ``in``), separated by spaces or commas; without groups, the rank."""
        where = positions_of(positions)
        if groups is None or not groups.strip():
            return cls.rank_at(*where)
        named: dict[str, str] = {}
        for entry in re.split(r"[,\s]+", groups.strip()):
            if entry:
                label, eq, cards = entry.rpartition("=") if "=" in entry else ("in", "=", entry)
                if not label or not eq or label in named:
                    raise InformationError(f"group {shown(entry)}: write NAME=CARDS (e.g. high=6|7|8|9), each name "
                                           "once")
                named[label] = cards
        return cls.grouped(where, named)

    @property
    def labels(self) -> tuple[tuple[str, ...], ...]:
        """The labels of each watched position's groups, in order."""
        return tuple(tuple(label for label, _ in groups) for groups in self.groups)

    def cases(self) -> list[tuple[str, ...]]:
        """Every case: one label per watched position, in the order of the groups."""
        return list(product(*self.labels))

    def known(self, case: Sequence[str]) -> Known:
        """The knowledge that a case amounts to."""
        cards: dict[int, CardSet] = {}
        for position, groups, label in zip(self.positions, self.groups, case, strict=True):
            found = [c for name, c in groups if name == label]
            if not found:
                raise InformationError(f"no group {shown(label)} at position {position}")
            cards[position] = found[0]
        return Known.of(cards)

    def label_of(self, index: int, rank: Rank, suit: Suit | None) -> str:
        """The label of a card at the ``index``-th watched position (suit as in :func:`matches`)."""
        for label, cards in self.groups[index]:
            if matches(cards, rank, suit):
                return label
        raise InformationError(f"no group holds {Card(rank, suit)}")  # unreachable for a partition


def _positions_text(positions: Sequence[int]) -> str:
    return ", ".join(map(str, positions))


def _check_partition(groups: Sequence[tuple[str, CardSet]]) -> None:
    """Every card in exactly one group, every group non-empty, labels distinct."""
    labels = [label for label, _ in groups]
    if len(set(labels)) != len(labels):
        raise InformationError(f"a group label is used twice: {labels}")
    for label, cards in groups:
        if not cards:
            raise InformationError(f"group {shown(label)} holds no card")
    for rank in RANKS:
        for suit in SUITS:
            holders = [label for label, cards in groups if matches(cards, rank, suit)]
            if len(holders) != 1:
                what = "no group" if not holders else f"groups {', '.join(holders)}"
                raise InformationError(f"{Card(rank, suit)} is in {what}: the groups must hold every card once")


def require_suits(suited: object, ranks: frozenset[Rank]) -> None:
    """Refuse knowledge of suits on a shoe whose suits are not known."""
    if ranks and suited is None:
        raise ShoeError(suits_unknown(f"a known {min(ranks).label} of one suit",
                                      hint="give whole decks, or --shoe counts divisible by 4"))
