#!/usr/bin/env python3
"""A small baccarat simulator with a deliberate bug, to show `exact-odds verify` catching it.

It deals whole 8-deck shoes (shuffle, burn by the first card, a cut card 16 cards from the
end, one more coup after it) and writes one coup a line as CSV, the format `exact-odds verify`
reads: shoe, the card the burn turned face up (on a shoe's first coup: the number of cards
burned, and so where the shoe ends, depends on it), the player's and the banker's cards in
the order dealt, and the labels its own bookkeeping gives (winner, totals, pairs).

The bug: when the player has drawn, the banker's rule is looked up with the player's *total*
instead of the player's third card. The rule table itself is right; the call is wrong, the
kind of slip that a frequency check of a few thousand coups hardly notices.

    python3 examples/broken_simulator.py --shoes 20 --seed 1 --output broken.csv
    exact-odds verify broken.csv                     # FAIL: the rules check names the coups
    python3 examples/broken_simulator.py --shoes 20 --seed 1 --fixed --output fixed.csv
    exact-odds verify fixed.csv                      # PASS

It uses only the standard library (Python's `random`, seeded), not exact-odds.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections.abc import Iterator
from typing import TextIO

RANKS = "A23456789TJQK"
SUITS = "shdc"


def point(card: str) -> int:
    """Baccarat points: ace 1, 2-9 face value, ten and court cards 0."""
    rank = RANKS.index(card[0]) + 1
    return rank if rank < 10 else 0


def total(cards: list[str]) -> int:
    return sum(point(c) for c in cards) % 10


def banker_draws(banker: int, third: int | None) -> bool:
    """The banker's rule (right): ``third`` is the player's third card's points, or None if the player stood."""
    if third is None:
        return banker <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7)}.get(banker, False)


def coup(cards: Iterator[str], *, fixed: bool) -> tuple[list[str], list[str]]:
    player = [next(cards)]
    banker = [next(cards)]
    player.append(next(cards))
    banker.append(next(cards))
    if total(player) >= 8 or total(banker) >= 8:
        return player, banker
    third = None
    if total(player) <= 5:
        player.append(next(cards))
        third = point(player[2]) if fixed else total(player)  # THE BUG: the player's total, not the card
    if banker_draws(total(banker), third):
        banker.append(next(cards))
    return player, banker


def shoe_coups(rng: random.Random, *, fixed: bool) -> Iterator[tuple[str, list[str], list[str]]]:
    """The coups of one shoe: (the card its burn turned face up, on the first coup; the player's
    cards; the banker's cards)."""
    cards = [r + s for _ in range(8) for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    position = 1 + (point(cards[0]) or 10)  # burn: the first card says how many more go
    stream = iter(cards[position:])
    cut = len(cards) - 16
    burn = cards[0]  # shown to everyone, so logged: where the shoe ends depends on it
    while True:
        player, banker = coup(stream, fixed=fixed)
        yield burn, player, banker
        burn = ""
        was, position = position, position + len(player) + len(banker)
        if was >= cut:
            return
        if position >= cut:
            yield "", *coup(stream, fixed=fixed)
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shoes", type=int, default=20, help="shoes to deal (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of Python's random (default 1)")
    parser.add_argument("--fixed", action="store_true", help="deal with the bug fixed")
    parser.add_argument("--output", help="write the log here (default: standard output)")
    args = parser.parse_args()
    if args.output:
        with open(args.output, "w", newline="", encoding="utf-8") as out:
            write(out, args.shoes, random.Random(args.seed), fixed=args.fixed)
    else:
        write(sys.stdout, args.shoes, random.Random(args.seed), fixed=args.fixed)


def write(out: TextIO, shoes: int, rng: random.Random, *, fixed: bool) -> None:
    """Deal ``shoes`` shoes and write their coups to ``out`` as CSV."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["shoe", "burn", "player", "banker", "winner", "player_total", "banker_total", "player_pair",
                     "banker_pair"])
    for shoe in range(1, shoes + 1):
        for burn, player, banker in shoe_coups(rng, fixed=fixed):
            p, b = total(player), total(banker)
            winner = "banker" if b > p else "player" if p > b else "tie"
            writer.writerow([shoe, burn, " ".join(player), " ".join(banker), winner, p, b,
                             str(player[0][0] == player[1][0]).lower(), str(banker[0][0] == banker[1][0]).lower()])


if __name__ == "__main__":
    main()
