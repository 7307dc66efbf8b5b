"""Chemin de fer exactly: games with choices, their optimal strategies, and the casino game's equilibria.

The games (Kemeny and Snell's parlour game, the papers' models A1-B3, the casino game) and the method
are told in ``docs/chemin-de-fer.md``. A :class:`ChoiceGame` holds the Player's result, in ways over the
shoe's total, as a sum over the Banker's information sets of terms affine in the Player's free drawing
probabilities; :func:`solve` finds both sides' optimal strategies by exact linear programs (Foster,
1964), :func:`equilibria` every Nash equilibrium of the casino game, with a commission on the Banker's
wins (Ethier and Lee, 2023, Games 14:63). Each answer is certified by exact best replies.

>>> game = choice_game(Shoe.infinite_deck(), Information.TOTALS)
>>> game.model, game.player_sets, len(game.banker_sets), game.total == 52**6
('A1', (5,), 88, True)
>>> solution = solve(game)
>>> solution.player, solution.value, solution.certificate.holds, solution.player_unique
((Fraction(9, 11),), Fraction(-679568, 53094899), True, True)
>>> found = equilibria(commission_game(Shoe.infinite_deck(), Information.TOTALS, Fraction(1, 20)))
>>> len(found.equilibria), found.equilibria[0].player, found.equilibria[0].certificate.holds
(1, (Fraction(179, 214),), True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import lcm

from exact_odds.analysis.exact_lp import LPError, maximize, single_valued
from exact_odds.core.choices import (
    DRAW,
    NATURALS,
    PAIRS,
    PARLOUR_RULES,
    STAND,
    ChoiceRules,
    Decision,
    Pair,
    total,
)
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, falling
from exact_odds.core.tableau import COLUMNS
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

# Long: one game in three parts (the game, its solution, the casino game) sharing every record and helper.

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
    counts = shoe.point_counts()
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
    reaching each, the fixed part of his result (``base``) and every Banker set, in ways out of ``total``."""

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


# ---------------------------------------------------------------- solving the parlour game


@dataclass(frozen=True, slots=True)
class Certificate:
    """The check of a solution: the Player's expectation at the pair of strategies, the least the Banker
    can hold the Player's strategy to, and the most the Player can get against the Banker's."""

    expectation: Fraction
    banker_best_reply: Fraction
    player_best_reply: Fraction

    @property
    def holds(self) -> bool:
        """Whether each strategy is a best reply to the other."""
        return self.expectation == self.banker_best_reply == self.player_best_reply


@dataclass(frozen=True, slots=True)
class Cost:
    """What a choice at one free information set costs against an optimal opponent, in the Player's
    expectation per coup (a positive cost always hurts the side that chooses): ``draw`` and ``stand``
    are the costs of always drawing and always standing there."""

    side: str
    hand: Hand
    column: int | None
    draw: Fraction
    stand: Fraction


@dataclass(frozen=True, slots=True)
class Solution:
    """Optimal strategies and the value (the Player's expectation per coup) of a :class:`ChoiceGame`: the
    drawing probability of each free Player set and of each Banker set (``None`` where drawing and standing
    are equally good whatever the Player does), and whether each side's is unique (unreached sets aside)."""

    game: ChoiceGame
    value: Fraction
    player: tuple[Fraction, ...]
    banker: tuple[Fraction | None, ...]
    certificate: Certificate
    player_unique: bool
    banker_unique: bool


@dataclass(frozen=True, slots=True)
class _Reduced:
    """The Player's problem once the Banker sets with a settled best reply are folded into ``objective``:
    maximise ``objective(x) - sum of max(0, -d(x))`` over the contested sets' differences ``d``."""

    objective: Affine
    contested: tuple[Affine, ...]

    def constraints(self, k: int) -> tuple[list[list[Number]], list[Number]]:
        """``A y <= b`` over ``y = (x, s)``: ``x <= 1`` and ``s >= -d(x)``."""
        m = len(self.contested)
        rows: list[list[Number]] = [[int(i == j) for i in range(k + m)] for j in range(k)]
        rhs: list[Number] = [1] * k
        for i, d in enumerate(self.contested):
            rows.append([-c for c in d[1:]] + [-int(i == j) for j in range(m)])
            rhs.append(d[0])
        return rows, rhs

    def maximum(self, k: int) -> tuple[Number, tuple[Fraction, ...]]:
        """The greatest value of the Player's guaranteed result, in ways, and a point reaching it."""
        rows, rhs = self.constraints(k)
        c = [*self.objective[1:], *([-1] * len(self.contested))]
        lp = maximize(c, rows, rhs)
        return self.objective[0] + lp.value, lp.point[:k]

    def unique(self, k: int, value: Number, free: Sequence[int]) -> bool:
        """Whether the maximum is reached at one point only, the coordinates outside ``free`` held."""
        rows, rhs = self.constraints(k)
        rows.append([-c for c in self.objective[1:]] + [1] * len(self.contested))  # the result at least the value
        rhs.append(self.objective[0] - value)
        return single_valued(rows, rhs, free)


def _reduce(game: ChoiceGame) -> _Reduced:
    objective = list(game.base)
    contested = []
    for bset in game.banker_sets:
        if bset.decision is None:
            low, high = box_range(bset.difference)
            # min(draw, stand): the smaller where settled, stand - max(0, -difference) where contested
            affine_add(objective, bset.draw if low < 0 and high <= 0 else bset.stand)
            if low < 0 < high:
                contested.append(bset.difference)
    return _Reduced(tuple(objective), tuple(contested))


def reply_constraints(x: Sequence[Fraction], gradient: Sequence[Number],
                      slopes: Sequence[Sequence[Number]]) -> tuple[list[list[Number]], list[Number]]:
    """``A q <= b`` on the drawing probabilities ``q`` of the Banker's indifferent sets that make ``x`` a best
    reply for the Player: ``q`` in [0, 1]^m, and his gradient ``g_j = gradient[j] + sum q_n slopes[n][j]`` is 0
    where ``0 < x_j < 1``, at most 0 where ``x_j = 0``, at least 0 where ``x_j = 1``."""
    m = len(slopes)
    rows: list[list[Number]] = [[int(i == n) for i in range(m)] for n in range(m)]
    rhs: list[Number] = [1] * m
    for j, xj in enumerate(x):
        column = [s[j] for s in slopes]
        if xj < 1:
            rows.append(column)
            rhs.append(-gradient[j])
        if xj > 0:
            rows.append([-c for c in column])
            rhs.append(gradient[j])
    return rows, rhs


def _banker_mix(game: ChoiceGame, x: Sequence[Fraction]) -> tuple[list[Fraction | None], list[int], list[list[Number]],
                                                                  list[Number]]:
    """The Banker's best reply to ``x`` (standing where indifferent), the sets where his choice ties at ``x``
    but moves the Player's result (contested), and :func:`reply_constraints` on them."""
    gradient = list(game.base)
    choice: list[Fraction | None] = []
    contested: list[int] = []
    for i, bset in enumerate(game.banker_sets):
        if bset.decision is not None:
            choice.append(bset.decision)
            continue
        at = affine_at(bset.difference, x)
        affine_add(gradient, bset.draw if at < 0 else bset.stand)
        if not any(bset.difference):  # drawing and standing alike whatever the Player does
            choice.append(None)
            continue
        choice.append(DRAW if at < 0 else STAND)
        if at == 0:
            contested.append(i)
    rows, rhs = reply_constraints(x, gradient[1:], [game.banker_sets[i].difference[1:] for i in contested])
    return choice, contested, rows, rhs


def solve(game: ChoiceGame) -> Solution:
    """Optimal strategies of both sides and the value, exactly, certified (see the module)."""
    k = len(game.player_sets)
    reduced = _reduce(game)
    value, x = reduced.maximum(k) if k else (reduced.objective[0], ())
    choice, contested, rows, rhs = _banker_mix(game, x)
    if contested:
        for i, q in zip(contested, maximize([0] * len(contested), rows, rhs).point, strict=True):
            choice[i] = q
    certificate = Certificate(expectation(game, x, choice), banker_best_reply(game, x), player_best_reply(game, choice))
    return Solution(game, Fraction(value, game.total), tuple(Fraction(v) for v in x), tuple(choice), certificate,
                    _player_unique(game, reduced, value, x, choice), single_valued(rows, rhs, range(len(contested))))


def _player_unique(game: ChoiceGame, reduced: _Reduced, value: Number, x: Sequence[Fraction],
                   banker: Sequence[Fraction | None]) -> bool:
    """Whether the Player's optimal strategy is unique (sets never reached aside): only coordinates where he
    is indifferent against the Banker's optimal strategy can move; one alone moves unless the guaranteed
    result falls strictly both ways along it."""
    gradient = _against(game, banker)[1:]
    loose = [j for j, g in enumerate(gradient) if g == 0 and game.player_ways[j] > 0]
    if len(loose) > 1:
        return reduced.unique(len(x), value, loose)
    return all(_slope(game, x, j, step) < 0 for j in loose for step, inside in ((1, x[j] < 1), (-1, x[j] > 0))
               if inside)


def _slope(game: ChoiceGame, x: Sequence[Fraction], j: int, step: int) -> Number:
    """The one-sided derivative of the Player's guaranteed result at ``x`` along ``step`` times axis ``j``."""
    slope: Number = step * game.base[j + 1]
    for bset in game.banker_sets:
        if bset.decision is None:
            at = affine_at(bset.difference, x)
            draw, stand = step * bset.draw[j + 1], step * bset.stand[j + 1]
            slope += stand if at > 0 else draw if at < 0 else min(draw, stand)
    return slope


def _against(game: ChoiceGame, banker: Sequence[Number | None]) -> Affine:
    """The Player's result, in ways, against a Banker strategy: affine in his drawing probabilities."""
    f: list[Number] = list(game.base)
    for bset, q in zip(game.banker_sets, banker, strict=True):
        if bset.decision is None:
            q = STAND if q is None else q
            affine_add(f, bset.draw, q)
            affine_add(f, bset.stand, 1 - q)
    return tuple(f)


# ---------------------------------------------------------------- evaluating and certifying


def expectation(game: ChoiceGame, player: Sequence[Number], banker: Sequence[Number | None]) -> Fraction:
    """The Player's exact expectation per coup when the free Player sets draw with probabilities ``player``
    and every Banker set with ``banker`` (``None``: stands)."""
    return Fraction(affine_at(_against(game, banker), player)) / game.total


def banker_best_reply(game: ChoiceGame, player: Sequence[Number],
                      best: Callable[[Number, Number], Number] = min) -> Fraction:
    """The least the Banker can hold the Player to when the Player plays ``player`` (``best=max`` on the
    Banker's own game, :attr:`CommissionGame.banker`: the most the Banker can get, commission paid)."""
    result: Number = affine_at(game.base, player)
    for bset in game.banker_sets:
        if bset.decision is None:
            result += best(affine_at(bset.draw, player), affine_at(bset.stand, player))
    return Fraction(result, 1) / game.total


def player_best_reply(game: ChoiceGame, banker: Sequence[Number | None]) -> Fraction:
    """The most the Player can get when the Banker plays ``banker``."""
    return Fraction(box_range(_against(game, banker))[1]) / game.total


def costs(solution: Solution) -> tuple[Cost, ...]:
    """What each free choice costs against an optimal opponent, per coup (see :class:`Cost`)."""
    game, x = solution.game, solution.player
    out = []
    for j, hand in enumerate(game.player_sets):
        drawn = banker_best_reply(game, [*x[:j], DRAW, *x[j + 1:]])
        stood = banker_best_reply(game, [*x[:j], STAND, *x[j + 1:]])
        out.append(Cost("player", hand, None, solution.value - drawn, solution.value - stood))
    for bset, q in zip(game.banker_sets, solution.banker, strict=True):
        if bset.decision is None and q is not None:
            d = Fraction(affine_at(bset.difference, x), 1) / game.total
            out.append(Cost("banker", bset.hand, bset.column, d * (1 - q), -d * q))
    return tuple(out)


def solve_by_decks(max_decks: int, information: Information,
                   rules: ChoiceRules = PARLOUR_RULES) -> tuple[Solution, ...]:
    """The solutions for shoes of 1, 2, ..., ``max_decks`` full decks, then the infinite deck (model A).

    >>> [str(s.game.shoe) for s in solve_by_decks(2, Information.TOTALS)]
    ['1 deck', '2 decks', 'infinite deck']
    """
    shoes = [*(Shoe.decks(d) for d in range(1, max_decks + 1)), Shoe.infinite_deck()]
    return tuple(solve(choice_game(shoe, information, rules)) for shoe in shoes)


# ---------------------------------------------------------------- the casino game: a commission on the Banker's wins

MAX_COMMISSION = Fraction(1, 10)
"""The largest commission studied (Ethier and Lee: 0 to 1/10)."""


def banker_score(commission: Fraction) -> Score:
    """The Banker's result by final totals, in units of ``1 / commission.denominator``.

    >>> banker_score(Fraction(1, 20))[0][9], banker_score(Fraction(1, 20))[9][0]
    (19, -20)
    """
    unit = commission.denominator
    return tuple(tuple(-unit * SIGN[p][b] - commission.numerator * (p < b) for b in range(10)) for p in range(10))


@dataclass(frozen=True, slots=True)
class CommissionGame:
    """Chemin de fer with a commission on the Banker's wins: the Player's game and the Banker's (his result
    in units of ``1 / unit``), with the same information sets in the same order."""

    player: ChoiceGame
    banker: ChoiceGame
    commission: Fraction

    @property
    def unit(self) -> int:
        return self.commission.denominator


def commission_game(shoe: Shoe, information: Information, commission: Fraction,
                    rules: ChoiceRules = PARLOUR_RULES) -> CommissionGame:
    """The casino game of a shoe under an information model, with ``commission`` (0 to 1/10)."""
    if not 0 <= commission <= MAX_COMMISSION:
        raise StrategyError(f"a commission on the Banker's wins is from 0 to {MAX_COMMISSION}, got {commission}")
    return CommissionGame(choice_game(shoe, information, rules), choice_game(shoe, information, rules,
                                                                             banker_score(commission)), commission)


@dataclass(frozen=True, slots=True)
class BimatrixCertificate:
    """Each side's expectation at a pair of strategies and the most each could get by a best reply to
    the other; the pair is a Nash equilibrium when each pair is equal."""

    player: Fraction
    player_best_reply: Fraction
    banker: Fraction
    banker_best_reply: Fraction

    @property
    def holds(self) -> bool:
        """Whether each strategy is a best reply to the other."""
        return self.player == self.player_best_reply and self.banker == self.banker_best_reply


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """One Nash equilibrium: both sides' drawing probabilities (the Banker's ``None`` where nothing he does
    matters), each side's expectation per coup and the house's take; ``banker_unique``: whether this is the
    Banker's only strategy in equilibrium with this ``player``."""

    player: tuple[Fraction, ...]
    banker: tuple[Fraction | None, ...]
    player_ev: Fraction
    banker_ev: Fraction
    house_take: Fraction
    banker_unique: bool
    certificate: BimatrixCertificate


@dataclass(frozen=True, slots=True)
class Equilibria:
    """Every Nash equilibrium of a :class:`CommissionGame`, one per Player strategy; ``continuum``: whether
    equilibria also fill a segment between two of them (then those listed are its ends)."""

    game: CommissionGame
    equilibria: tuple[Equilibrium, ...]
    continuum: bool

    @property
    def unique(self) -> bool:
        """Whether the game has exactly one Nash equilibrium."""
        return len(self.equilibria) == 1 and not self.continuum and self.equilibria[0].banker_unique


# ---------------------------------------------------------------- the two sides' affine pieces


@dataclass(frozen=True, slots=True)
class _Sides:
    """The free Banker sets, each one's draw less stand for the Banker (``delta``) and for the Player
    (``effect``), and the Player's gradient when the Banker stands in every free set, all scaled to integers:
    his gradient ``j`` is ``gradient[j] + sum q_I effect_I[j + 1]``."""

    free: tuple[int, ...]
    delta: tuple[tuple[int, ...], ...]
    effect: tuple[tuple[int, ...], ...]
    gradient: tuple[int, ...]

    @classmethod
    def of(cls, game: CommissionGame) -> _Sides:
        player, banker = game.player, game.banker
        free = tuple(i for i, b in enumerate(player.banker_sets) if b.decision is None)
        gradient = list(player.base[1:])
        for i in free:
            affine_add(gradient, player.banker_sets[i].stand[1:])
        effect = [player.banker_sets[i].difference for i in free]
        scale = lcm(*(Fraction(v).denominator for f in (*effect, gradient) for v in f))
        return cls(free, tuple(_integral(banker.banker_sets[i].difference) for i in free),
                   tuple(tuple(int(v * scale) for v in f) for f in effect), tuple(int(v * scale) for v in gradient))


def _integral(f: Affine) -> tuple[int, ...]:
    """``f`` times the least positive integer that makes every coefficient whole."""
    scale = lcm(*(Fraction(v).denominator for v in f))
    return tuple(int(v * scale) for v in f)


def _dominance(sides: _Sides, k: int) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """The Banker sets and the Player coordinates settled by iterated strict dominance: where the side's
    gain from drawing keeps one sign over the other side's choices left."""
    x: dict[int, Fraction] = {}
    q: dict[int, Fraction] = {}
    gradients = [(sides.gradient[j], *(effect[j + 1] for effect in sides.effect)) for j in range(k)]
    changed = True
    while changed:
        changed = False
        for settled, gains, other in ((q, sides.delta, x), (x, gradients, q)):
            for i, gain in enumerate(gains):
                low, high = box_range(gain, other)
                if i not in settled and (low > 0 or high < 0):
                    settled[i] = DRAW if low > 0 else STAND
                    changed = True
    return x, q


# ---------------------------------------------------------------- the candidates: vertices of the arrangement


def _solve_square(rows: Sequence[Sequence[int]], rhs: Sequence[int]) -> tuple[tuple[int, ...], int] | None:
    """The solution of a square integer system as numerators over one positive denominator (Bareiss's
    fraction-free elimination); None if the system is singular."""
    n = len(rows)
    m = [[*row, b] for row, b in zip(rows, rhs, strict=True)]
    previous = 1
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        if pivot != col:
            m[col], m[pivot] = m[pivot], m[col]
        top = m[col]
        for r in range(col + 1, n):
            row = m[r]
            m[r] = [(top[col] * row[c] - row[col] * top[c]) // previous if c > col else 0 for c in range(n + 1)]
        previous = top[col]
    det = m[n - 1][n - 1]
    values = [0] * n
    for i in reversed(range(n)):  # back substitution, every value a numerator over det
        acc = m[i][n] * det - sum(m[i][c] * values[c] for c in range(i + 1, n))
        values[i] = acc // m[i][i]
    if det < 0:
        return tuple(-v for v in values), -det
    return tuple(values), det


def _vertices(sides: _Sides, k: int, x_fixed: dict[int, Fraction],
              contested: Sequence[int]) -> set[tuple[Fraction, ...]]:
    """Every vertex of the arrangement of the contested sets' hyperplanes ``delta = 0`` in the Player's box."""
    free = [j for j in range(k) if j not in x_fixed]
    found: set[tuple[Fraction, ...]] = set()
    for values in product((STAND, DRAW, None), repeat=len(free)):  # every face of the box: 0, 1 or inside
        face = dict(zip(free, values, strict=True))
        inside = [j for j in free if face[j] is None]
        held = {**x_fixed, **{j: v for j, v in face.items() if v is not None}}
        planes = []
        for n in contested:
            delta = sides.delta[n]
            constant = int(delta[0] + sum(delta[j + 1] * v for j, v in held.items()))
            coefficients = [int(delta[j + 1]) for j in inside]
            low, high = box_range((constant, *coefficients))
            if low < 0 < high:  # it crosses the inside of the face
                planes.append((coefficients, -constant))
        for chosen in combinations(planes, len(inside)):
            solved = _solve_square([c for c, _ in chosen], [b for _, b in chosen]) if chosen else ((), 1)
            if solved is not None and all(0 < v < solved[1] for v in solved[0]):
                x = dict(held)
                x.update((j, Fraction(v, solved[1])) for j, v in zip(inside, solved[0], strict=True))
                found.add(tuple(Fraction(x[j]) for j in range(k)))
    return found


# ---------------------------------------------------------------- the Banker's replies at one Player strategy


@dataclass(frozen=True, slots=True)
class _Replies:
    """At one Player strategy: the Banker's choice in each free set (``None``: indifferent) and
    :func:`reply_constraints` on the ``loose`` (indifferent) sets."""

    choice: tuple[Fraction | None, ...]
    loose: tuple[int, ...]
    rows: list[list[Number]]
    rhs: list[Number]

    def feasible(self) -> tuple[Fraction, ...] | None:
        """A point of the constraints (an exact vertex), or None if they have none."""
        if any(sum(min(0, c) for c in row) > b for row, b in zip(self.rows, self.rhs, strict=True)):
            return None  # one constraint alone fails over the whole box
        try:
            return maximize([0] * len(self.loose), self.rows, self.rhs).point if self.loose else (
                () if all(b >= 0 for b in self.rhs) else None)
        except LPError:
            return None

    def fixed(self) -> bool:
        """Whether the constraints leave one point only."""
        return single_valued(self.rows, self.rhs, range(len(self.loose)))


def _replies(sides: _Sides, x: Sequence[Fraction]) -> _Replies:
    choice: list[Fraction | None] = []
    loose: list[int] = []
    gradient = list(sides.gradient)
    denominator = lcm(*(v.denominator for v in x))
    numerators = [int(v * denominator) for v in x]
    for n, delta in enumerate(sides.delta):  # the sign of delta(x), in integers: of denominator * delta(x)
        at = delta[0] * denominator + sum(c * v for c, v in zip(delta[1:], numerators, strict=True))
        if at == 0:
            choice.append(None)
            if any(sides.effect[n]) or any(delta):
                loose.append(n)
            continue
        choice.append(DRAW if at > 0 else STAND)
        if at > 0:
            gradient = [g + c for g, c in zip(gradient, sides.effect[n][1:], strict=True)]
    rows, rhs = reply_constraints(x, gradient, [sides.effect[n][1:] for n in loose])
    return _Replies(tuple(choice), tuple(loose), rows, rhs)


def _equilibrium(game: CommissionGame, sides: _Sides, x: tuple[Fraction, ...]) -> Equilibrium | None:
    replies = _replies(sides, x)
    point = replies.feasible()
    if point is None:
        return None
    free_choice = list(replies.choice)
    for n, q in zip(replies.loose, point, strict=True):
        free_choice[n] = q
    by_set = dict(zip(sides.free, free_choice, strict=True))
    banker = [by_set.get(i, bset.decision) for i, bset in enumerate(game.player.banker_sets)]
    player_ev = expectation(game.player, x, banker)
    banker_ev = expectation(game.banker, x, banker) / game.unit
    certificate = BimatrixCertificate(player_ev, player_best_reply(game.player, banker), banker_ev,
                                      banker_best_reply(game.banker, x, max) / game.unit)
    return Equilibrium(x, tuple(banker), player_ev, banker_ev, -(player_ev + banker_ev), replies.fixed(), certificate)


def equilibria(game: CommissionGame) -> Equilibria:
    """Every Nash equilibrium of the casino game, exactly, each certified (see the module)."""
    sides = _Sides.of(game)
    k = len(game.player.player_sets)
    x_fixed, q_fixed = _dominance(sides, k)
    contested = [n for n in range(len(sides.free)) if n not in q_fixed]
    found = {}
    for x in sorted(_vertices(sides, k, x_fixed, contested)):
        equilibrium = _equilibrium(game, sides, x)
        if equilibrium is not None:
            found[x] = equilibrium
    points = sorted(found)
    continuum = any(_equilibrium(game, sides, tuple((a + b) / 2 for a, b in zip(u, v, strict=True))) is not None
                    for u, v in combinations(points, 2))
    return Equilibria(game, tuple(found[x] for x in points), continuum)
