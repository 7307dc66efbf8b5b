"""An independent baccarat dealer for the tests of ``exact-odds verify``: no code of the package.

Written from the printed rules of punto banco (Wizard of Odds, "Baccarat rules"), so that a
log it writes is a witness the package's own dealer cannot have shaped:

- points: ace 1, 2-9 face value, ten and court cards 0; a hand's total is the sum modulo 10;
- a natural (8 or 9 on two cards) in either hand ends the coup;
- the player draws on 0-5 and stands on 6-7;
- the player stood: the banker draws on 0-5; the player drew: the banker draws on 0-2, on 3
  unless the player's third card is an 8, on 4 when it is 2-7, on 5 when it is 4-7, on 6 when
  it is 6-7, and stands on 7.

Shoes are shuffled (Python's ``random``), the first card is turned and burns as many cards as
its value (a ten or court card 10), a cut card lies 16 cards from the end, and one more coup is
dealt after the coup in which it comes out. Options make the log wrong on purpose.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator

RANKS = "A23456789TJQK"
SUITS = "shdc"


def point(card: str) -> int:
    rank = RANKS.index(card[0]) + 1
    return rank if rank < 10 else 0


def total(cards: list[str]) -> int:
    return sum(point(c) for c in cards) % 10


def banker_draws(banker: int, third: int | None, *, wrong_6: bool = False) -> bool:
    """The printed banker rule (``wrong_6``: the banker also draws on 6 when the player stood)."""
    if third is None:
        return banker <= 5 or (wrong_6 and banker == 6)
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7)}.get(banker, False)


def deal(cards: Iterator[str], *, wrong_6: bool = False) -> tuple[list[str], list[str]]:
    """One coup from the next cards: the player's and the banker's hands."""
    p1, b1, p2, b2 = (next(cards) for _ in range(4))
    player, banker = [p1, p2], [b1, b2]
    if total(player) in (8, 9) or total(banker) in (8, 9):
        return player, banker
    third = None
    if total(player) <= 5:
        player.append(next(cards))
        third = point(player[2])
    if banker_draws(total(banker), third, wrong_6=wrong_6):
        banker.append(next(cards))
    return player, banker


def new_decks(decks: int) -> list[str]:
    """Decks fresh from the box: each A-K of spades, hearts, diamonds, clubs."""
    return [r + s for _ in range(decks) for s in SUITS for r in RANKS] * 1


def riffle(cards: list[str], rng: random.Random) -> list[str]:
    """One riffle shuffle (Gilbert-Shannon-Reeds): a binomial cut, then a uniform interleaving."""
    k = sum(rng.random() < 0.5 for _ in cards)
    left, right = cards[:k], cards[k:]
    spots = set(rng.sample(range(len(cards)), k))
    li, ri = iter(left), iter(right)
    return [next(li) if i in spots else next(ri) for i in range(len(cards))]


def shoe(decks: int, rng: random.Random, riffles: int | None) -> list[str]:
    cards = new_decks(decks)
    if riffles is None:
        rng.shuffle(cards)
        return cards
    for _ in range(riffles):
        cards = riffle(cards, rng)
    return cards


def rows(seed: int, *, shoes: int = 0, coups: int = 0, decks: int = 8, wrong_6: bool = False,
         pairs_on_two_cards_only: bool = False, riffles: int | None = None) -> list[dict[str, str]]:
    """A log as rows: ``shoes`` whole shoes (with a shoe column), or ``coups`` fresh-shoe coups."""
    rng = random.Random(seed)
    out: list[dict[str, str]] = []

    def record(player: list[str], banker: list[str], shoe_id: int | None) -> None:
        p, b = total(player), total(banker)
        player_pair = player[0][0] == player[1][0]
        banker_pair = banker[0][0] == banker[1][0]
        if pairs_on_two_cards_only:
            player_pair = player_pair and len(player) == 2
            banker_pair = banker_pair and len(banker) == 2
        row = {"player": " ".join(player), "banker": " ".join(banker),
               "winner": "banker" if b > p else "player" if p > b else "tie",
               "player_total": str(p), "banker_total": str(b),
               "player_pair": str(player_pair).lower(), "banker_pair": str(banker_pair).lower()}
        if shoe_id is not None:
            row = {"shoe": str(shoe_id), **row}
        out.append(row)

    for s in range(shoes):
        cards = shoe(decks, rng, riffles)
        burn = 1 + (point(cards[0]) or 10)
        stream = iter(cards[burn:])
        dealt, limit = burn, len(cards) - 16
        while True:
            player, banker = deal(stream, wrong_6=wrong_6)
            record(player, banker, s + 1)
            was = dealt
            dealt += len(player) + len(banker)
            if was >= limit:
                break
            if dealt >= limit:
                player, banker = deal(stream, wrong_6=wrong_6)
                record(player, banker, s + 1)
                break
    for _ in range(coups):
        player, banker = deal(iter(rng.sample(new_decks(decks), 6)), wrong_6=wrong_6)
        record(player, banker, None)
    return out


def csv_text(log: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(log[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(log)
    return buf.getvalue()
