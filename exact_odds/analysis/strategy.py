"""Games with choices (chemin de fer): information models, and the exact payoffs of every decision.

The parlour game of Kemeny and Snell (1957) and the papers' models A1-B3 are told in
``docs/chemin-de-fer.md``; what the rules (:class:`~exact_odds.core.choices.ChoiceRules`) leave free is
chosen by the side that decides. A **strategy** gives each information set a drawing probability. No
pure strategy is enumerated: the Player's expectation is additive over the Banker's information sets,
each term affine in the Player's free drawing probabilities, and a :class:`ChoiceGame` holds those
affine terms (:mod:`exact_odds.analysis.equilibrium` solves it). Figures count the ordered six-card
sequences of the shoe: integer ways over the shoe's total, divided once.

>>> game = choice_game(Shoe.infinite_deck(), Information.TOTALS)
>>> game.model, game.player_sets, len(game.banker_sets), game.total == 52**6
('A1', (5,), 88, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache

from exact_odds.core.choices import (
    NATURALS,
    PAIRS,
    PARLOUR_RULES,
    ChoiceRules,
    Decision,
    Pair,
    total,
)
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, falling
from exact_odds.core.tableau import COLUMNS
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

Number = int | Fraction
Affine = tuple[Number, ...]
"""An affine function of the Player's free drawing probabilities: ``(constant, coefficient of x1, ...)``."""
Hand = int | Pair
"""What a side sees of his own two cards: their total, or the cards (point values) themselves."""


class StrategyError(InputError):
    """A model, a shoe or rules that do not make a game with choices; the message says why."""


class Information(IntEnum):
    """What each side sees of his own hand (the papers' models 1, 2 and 3)."""

    TOTALS = 1
    BANKER_CARDS = 2
    OWN_CARDS = 3

    @property
    def banker_sees_cards(self) -> bool:
        """Whether the Banker decides on his two cards rather than their total."""
        return self is not Information.TOTALS

    @property
    def player_sees_cards(self) -> bool:
        """Whether the Player decides on his two cards rather than their total."""
        return self is Information.OWN_CARDS

    @property
    def description(self) -> str:
        """The model in words."""
        return {1: "each side sees its own total", 2: "Banker sees his two cards, Player his total",
                3: "each side sees its own two cards"}[self.value]


def model_code(shoe: Shoe, information: Information) -> str:
    """The papers' name of a model: ``A`` (with replacement: the infinite deck) or ``B``, then 1-3."""
    return f"{'A' if shoe.infinite else 'B'}{information.value}"


def parse_model(text: str) -> tuple[bool, Information]:
    """``"A1"`` .. ``"B3"`` (any case): whether cards are dealt with replacement, and the information.

    >>> parse_model("b3")
    (False, <Information.OWN_CARDS: 3>)
    """
    code = text.strip().upper()
    if len(code) != 2 or code[0] not in "AB" or code[1] not in "123":
        raise StrategyError(f"unknown model {text.strip()[:20]!r}: A1, A2, A3 (cards dealt with replacement) or "
                            "B1, B2, B3 (from the shoe); 1 each sees his total, 2 the Banker sees his cards, 3 each "
                            "sees his cards")
    return code[0] == "A", Information(int(code[1]))


# ---------------------------------------------------------------- payoffs of one shoe

Score = tuple[tuple[int, ...], ...]
"""What a coup is worth to one side, in whole units, by the final totals: ``score[player][banker]``."""

SIGN: Score = tuple(tuple((p > b) - (p < b) for b in range(10)) for p in range(10))
"""``SIGN[p][b]``: the Player's result with final totals ``p`` and ``b``: +1 wins, -1 loses, 0 ties."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One column of a deal of four cards: the Player's result in ways if the Banker draws or stands, and
    the ways of the deals that reach it (the Player standing, or drawing that third card)."""

    draw: int
    stand: int
    ways: int


@dataclass(frozen=True, slots=True)
class PayoffTable:
    """A shoe's payoffs, by two-card hands: ``cells[(player, banker)]`` holds one :class:`Cell` per
    column of :data:`~exact_odds.core.tableau.COLUMNS` (stood, then third card 0-9); ``natural_result`` is the
    Player's result in ways over the coups that end on a natural; ``total`` the ways of every coup."""

    total: int
    natural_result: int
    cells: dict[tuple[Pair, Pair], tuple[Cell, ...]]


def point_counts(shoe: Shoe) -> tuple[int, ...]:
    """Cards of each point value 0-9 (tens and court cards are 0)."""
    return (sum(shoe.counts[9:]), *shoe.counts[:9])


def _take_pair(counts: Sequence[int], pair: Pair, depletes: int) -> tuple[int, Sequence[int]]:
    """Ways of dealing two cards with these point values in either order, and the counts left."""
    a, b = pair
    ways = counts[a] * (counts[a] - depletes) if a == b else 2 * counts[a] * counts[b]
    if ways <= 0:
        return 0, counts
    if not depletes:
        return ways, counts
    left = list(counts)
    left[a] -= 1
    left[b] -= 1
    return ways, left


@lru_cache(maxsize=32)
def payoff_table(shoe: Shoe, score: Score = SIGN) -> PayoffTable:
    """The :class:`PayoffTable` of a shoe (the infinite deck: cards dealt with replacement), each coup scored
    ``score[p][b]`` for final totals ``p`` and ``b`` (by default the Player's result, :data:`SIGN`).

    >>> table = payoff_table(Shoe.decks(1))
    >>> table.total == 52 * 51 * 50 * 49 * 48 * 47, len(table.cells)
    (True, 1936)
    """
    counts = point_counts(shoe)
    size = sum(counts)
    depletes = 0 if shoe.infinite else 1
    scale = [size ** (CARDS_PER_COUP - k) if shoe.infinite else falling(size - k, CARDS_PER_COUP - k)
             for k in range(CARDS_PER_COUP + 1)]
    # against[b][p]: the Player's result in ways when the Banker draws one card to b, the Player having p
    against = [[sum(n * score[p][(b + e) % 10] for e, n in enumerate(counts)) for p in range(10)] for b in range(10)]
    naturals = 0
    cells: dict[tuple[Pair, Pair], tuple[Cell, ...]] = {}
    for player in PAIRS:
        ways_p, left_p = _take_pair(counts, player, depletes)
        if not ways_p:
            continue
        p = total(player)
        for banker in PAIRS:
            ways_b, left = _take_pair(left_p, banker, depletes)
            if not ways_b:
                continue
            ways, b = ways_p * ways_b, total(banker)
            if p in NATURALS or b in NATURALS:
                naturals += ways * score[p][b] * scale[4]
                continue
            gone = (*player, *banker) if depletes else ()
            drawn = [against[b][q] - sum(score[q][(b + u) % 10] for u in gone) for q in range(10)]
            row = [Cell(ways * drawn[p] * scale[5], ways * score[p][b] * scale[4], ways * scale[4])]
            for c in range(10):
                w = ways * left[c]
                q = (p + c) % 10
                row.append(Cell(w * (drawn[q] - depletes * score[q][(b + c) % 10]) * scale[6],
                                w * score[q][b] * scale[5], w * scale[5]))
            cells[player, banker] = tuple(row)
    return PayoffTable(scale[0], naturals, cells)


# ---------------------------------------------------------------- the game


@dataclass(frozen=True, slots=True)
class BankerSet:
    """One information set of the Banker: his ``hand`` (total or cards) against ``column`` (the Player's
    third card, ``None`` if he stood); the Player's result in ways if the Banker draws or stands there,
    each affine in the Player's free drawing probabilities; the ways that can reach it; the rules' decision."""

    hand: Hand
    column: int | None
    draw: Affine
    stand: Affine
    ways: int
    decision: Decision

    @property
    def difference(self) -> Affine:
        """``draw - stand``: positive where the Banker should stand."""
        return tuple(d - s for d, s in zip(self.draw, self.stand, strict=True))


@dataclass(frozen=True, slots=True)
class ChoiceGame:
    """A game with choices on one shoe: the Player's free information sets (his variables) and the ways
    reaching each, the fixed part of his result (``base``, affine), and every Banker information set;
    results are in ways out of ``total``."""

    shoe: Shoe
    information: Information
    rules: ChoiceRules
    player_sets: tuple[Hand, ...]
    player_ways: tuple[int, ...]
    base: Affine
    banker_sets: tuple[BankerSet, ...]
    total: int

    @property
    def model(self) -> str:
        """The papers' name of the model (``A1`` .. ``B3``)."""
        return model_code(self.shoe, self.information)


def affine_add(a: list[Number], b: Affine, weight: Number = 1) -> None:
    """``a += weight * b``, in place."""
    for i, v in enumerate(b):
        a[i] += weight * v


def affine_at(f: Affine, x: Sequence[Number]) -> Number:
    return f[0] + sum((c * v for c, v in zip(f[1:], x, strict=True)), 0)


def box_range(f: Affine, fixed: Mapping[int, Number] | None = None) -> tuple[Number, Number]:
    """The least and the greatest value of ``f`` over the box [0, 1]^k, the coordinates in ``fixed`` held."""
    held = fixed or {}
    constant = f[0] + sum((c * held[j] for j, c in enumerate(f[1:]) if j in held), 0)
    free = [c for j, c in enumerate(f[1:]) if j not in held]
    return constant + sum(min(0, c) for c in free), constant + sum(max(0, c) for c in free)


def _check_rules(information: Information, rules: ChoiceRules) -> None:
    if rules.banker_cards and not information.banker_sees_cards:
        raise StrategyError(f"rules {shown(rules.name)} decide on the Banker's two cards, but under model "
                            f"{information.value} the Banker sees only his total")
    if rules.player_cards and not information.player_sees_cards:
        raise StrategyError(f"rules {shown(rules.name)} decide on the Player's two cards, but only under model 3 "
                            "does the Player see them")


def choice_game(shoe: Shoe, information: Information, rules: ChoiceRules = PARLOUR_RULES,
                score: Score = SIGN) -> ChoiceGame:
    """The game with choices of a shoe under an information model and rules (default: the papers' game),
    its results counted by ``score`` (default: the Player's result, :data:`SIGN`)."""
    _check_rules(information, rules)
    table = payoff_table(shoe, score)
    player_key = (lambda h: h) if information.player_sees_cards else total
    banker_key = (lambda h: h) if information.banker_sees_cards else total
    sums: dict[tuple[Hand, Hand], list[list[int]]] = {}
    player_ways: dict[Hand, int] = {}
    player_rule: dict[Hand, Decision] = {}
    for (player, banker), row in table.cells.items():
        pk, bk = player_key(player), banker_key(banker)
        player_rule[pk] = rules.player_decision(player)
        player_ways[pk] = player_ways.get(pk, 0) + row[0].ways
        acc = sums.setdefault((pk, bk), [[0, 0, 0] for _ in COLUMNS])
        for a, cell in zip(acc, row, strict=True):
            a[0] += cell.draw
            a[1] += cell.stand
            a[2] += cell.ways
    free = tuple(sorted((h for h, d in player_rule.items() if d is None), key=_hand_order))
    variable = {h: i + 1 for i, h in enumerate(free)}
    k = len(free)
    sets: dict[tuple[Hand, int], list[list[Number]]] = {}
    reach: dict[tuple[Hand, int], int] = {}
    for (pk, bk), acc in sums.items():
        decision = player_rule[pk]
        for ci, (drawn, stood, ways) in enumerate(acc):
            weight: list[Number] = [0] * (k + 1)  # the chance the Player reaches this column, affine in x
            if decision is None:
                weight[0], weight[variable[pk]] = (1, -1) if ci == 0 else (0, 1)
            else:
                weight[0] = (1 - decision) if ci == 0 else decision
            entry = sets.setdefault((bk, ci), [[0] * (k + 1), [0] * (k + 1)])
            affine_add(entry[0], tuple(weight), drawn)
            affine_add(entry[1], tuple(weight), stood)
            if any(weight):
                reach[bk, ci] = reach.get((bk, ci), 0) + ways
    base: list[Number] = [table.natural_result, *([0] * k)]
    banker_sets = []
    for (bk, ci), (draw, stand) in sorted(sets.items(), key=lambda item: (_hand_order(item[0][0]), item[0][1])):
        column = COLUMNS[ci]
        rule = rules.banker_decision(bk, column) if isinstance(bk, tuple) else rules.banker[bk][ci]
        banker_sets.append(BankerSet(bk, column, tuple(draw), tuple(stand), reach.get((bk, ci), 0), rule))
        if rule is not None:
            affine_add(base, tuple(draw), rule)
            affine_add(base, tuple(stand), 1 - rule)
    return ChoiceGame(shoe, information, rules, free, tuple(player_ways[h] for h in free), tuple(base),
                      tuple(banker_sets), table.total)


def _hand_order(hand: Hand) -> tuple[int, int, int]:
    """Hands by total, then by cards: ``5`` before ``0+5`` before ``1+4``."""
    if isinstance(hand, int):
        return hand, -1, -1
    return total(hand), *hand
