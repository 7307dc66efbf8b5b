"""Games with choices (chemin de fer): information models, exact payoffs, optimal strategies, certificates.

The parlour game of Kemeny and Snell (1957): the Player wins 1, loses 1, a tie pushes (zero-sum). The
Player must draw on 0-4 and stand on 6-7, a natural ends the coup, and whatever the rules
(:class:`~exact_odds.core.choices.ChoiceRules`) leave free is chosen by the side that decides, each side
seeing what its **information model** lets it see:

- the cards are dealt with replacement (model **A**, the infinite deck) or from a given shoe (**B**);
- **1**: each side sees its own total; **2**: the Banker sees his two cards, the Player his total;
  **3**: each side sees his own two cards.

A **strategy** gives each information set a drawing probability. The Player's information sets are his
totals (or two-card hands under model 3), the Banker's his total (or two cards under 2 and 3) against the
Player's third card or "Player stood": 2 x 2^88 pure strategies under A1, 2^5 x 2^484 under B3. No pure
strategy is enumerated. The Player's expectation is additive over the Banker's information sets, each
term affine in the Player's free drawing probabilities ``x``, so the Banker's best reply is chosen set
by set and the Player's guaranteed expectation ``f(x) = sum over sets of min(affine, affine)`` is concave
and piecewise linear. Its maximum is found exactly as Foster (1964) did: sets whose best reply does not
depend on ``x`` over the box [0, 1]^k are settled first, and what remains is a small linear program
(:mod:`exact_odds.analysis.exact_lp`). The Banker's optimal strategy mixes only where his two choices tie
at the Player's optimum, with weights that make the Player's optimum a best reply (another small exact
linear program). Each answer is certified: each strategy is an exact best reply to the other.

All figures count the ordered six-card sequences of the shoe (:data:`~exact_odds.core.shoe.CARDS_PER_COUP`),
so a value is an integer count of ways over the shoe's total, divided once.

>>> solution = solve(choice_game(Shoe.infinite_deck(), Information.TOTALS))
>>> solution.player, solution.value, solution.certificate.holds, solution.player_unique
((Fraction(9, 11),), Fraction(-679568, 53094899), True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache

from exact_odds.analysis.exact_lp import maximize
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

SIGN = tuple(tuple((p > b) - (p < b) for b in range(10)) for p in range(10))
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
    column of :data:`~exact_odds.core.tableau.COLUMNS` (stood, then third card 0-9); ``naturals`` is the
    Player's result in ways over the coups that end on a natural; ``total`` the ways of every coup."""

    total: int
    naturals: int
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
def payoff_table(shoe: Shoe) -> PayoffTable:
    """The :class:`PayoffTable` of a shoe (the infinite deck: cards dealt with replacement).

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
    against = [[sum(n * SIGN[p][(b + e) % 10] for e, n in enumerate(counts)) for p in range(10)] for b in range(10)]
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
                naturals += ways * SIGN[p][b] * scale[4]
                continue
            gone = (*player, *banker) if depletes else ()
            drawn = [against[b][q] - sum(SIGN[q][(b + u) % 10] for u in gone) for q in range(10)]
            row = [Cell(ways * drawn[p] * scale[5], ways * SIGN[p][b] * scale[4], ways * scale[4])]
            for c in range(10):
                w = ways * left[c]
                q = (p + c) % 10
                row.append(Cell(w * (drawn[q] - depletes * SIGN[q][(b + c) % 10]) * scale[6],
                                w * SIGN[q][b] * scale[5], w * scale[5]))
            cells[player, banker] = tuple(row)
    return PayoffTable(falling(size, CARDS_PER_COUP) if not shoe.infinite else size ** CARDS_PER_COUP,
                       naturals, cells)


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
    """A game with choices on one shoe: the Player's free information sets (his variables, in order)
    and the ways reaching each, the fixed part of the Player's result (``base``: naturals and the Banker's
    fixed cells, affine), and every Banker information set. Results are in ways out of ``total``."""

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


def _affine_add(a: list[Number], b: Affine, weight: Number = 1) -> None:
    for i, v in enumerate(b):
        a[i] += weight * v


def _at(f: Affine, x: Sequence[Number]) -> Number:
    return f[0] + sum((c * v for c, v in zip(f[1:], x, strict=True)), 0)


def _check_rules(information: Information, rules: ChoiceRules) -> None:
    if rules.banker_cards and not information.banker_sees_cards:
        raise StrategyError(f"rules {rules.name!r} decide on the Banker's two cards, but under model "
                            f"{information.value} the Banker sees only his total")
    if rules.player_cards and not information.player_sees_cards:
        raise StrategyError(f"rules {rules.name!r} decide on the Player's two cards, but only under model 3 "
                            "does the Player see them")


def choice_game(shoe: Shoe, information: Information, rules: ChoiceRules = PARLOUR_RULES) -> ChoiceGame:
    """The game with choices of a shoe under an information model and rules (default: the papers' game)."""
    _check_rules(information, rules)
    table = payoff_table(shoe)
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
            _affine_add(entry[0], tuple(weight), drawn)
            _affine_add(entry[1], tuple(weight), stood)
            if any(weight):
                reach[bk, ci] = reach.get((bk, ci), 0) + ways
    base: list[Number] = [table.naturals, *([0] * k)]
    banker_sets = []
    for (bk, ci), (draw, stand) in sorted(sets.items(), key=lambda item: (_hand_order(item[0][0]), item[0][1])):
        column = COLUMNS[ci]
        rule = rules.banker_decision(bk, column) if isinstance(bk, tuple) else rules.banker[bk][ci]
        banker_sets.append(BankerSet(bk, column, tuple(draw), tuple(stand), reach.get((bk, ci), 0), rule))
        if rule is not None:
            _affine_add(base, tuple(draw), rule)
            _affine_add(base, tuple(stand), 1 - rule)
    return ChoiceGame(shoe, information, rules, free, tuple(player_ways[h] for h in free), tuple(base),
                      tuple(banker_sets), table.total)


def _hand_order(hand: Hand) -> tuple[int, int, int]:
    """Hands by total, then by cards: ``5`` before ``0+5`` before ``1+4``."""
    if isinstance(hand, int):
        return hand, -1, -1
    return total(hand), *hand


# ---------------------------------------------------------------- solving


@dataclass(frozen=True, slots=True)
class Certificate:
    """The check of a solution, exactly: the Player's expectation at the pair of strategies, the least
    the Banker can hold the Player's strategy to, and the most the Player can get against the Banker's.
    The pair is an equilibrium when the three are equal."""

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
    """Optimal strategies and the value (the Player's expectation per coup) of a :class:`ChoiceGame`.

    ``player``: the drawing probability of each free Player set (``game.player_sets``). ``banker``: the
    drawing probability of each Banker set (``game.banker_sets``): the rules' where fixed, the optimal
    one where free, ``None`` where drawing and standing are equally good whatever the Player does (a set
    never reached, or a tie throughout). ``player_unique`` and ``banker_unique``: whether no other optimal
    strategy exists (sets that are never reached aside).
    """

    game: ChoiceGame
    value: Fraction
    player: tuple[Fraction, ...]
    banker: tuple[Fraction | None, ...]
    certificate: Certificate
    player_unique: bool
    banker_unique: bool

    def rules(self) -> ChoiceRules:
        """The solution as rules without free cells (a set where any choice will do stands)."""
        game = self.game
        rules = game.rules
        for hand, x in zip(game.player_sets, self.player, strict=True):
            if isinstance(hand, int):
                player = list(rules.player)
                player[hand] = x
                rules = replace(rules, player=tuple(player))
            else:
                rules = replace(rules, player_cards=(*rules.player_cards, (hand, x)))
        rows: dict[Hand, list[Decision]] = {}
        for bset, q in zip(game.banker_sets, self.banker, strict=True):
            rows.setdefault(bset.hand, list(_default_row(rules, bset.hand)))[COLUMNS.index(bset.column)] = (
                STAND if q is None else q)
        banker = [list(row) for row in rules.banker]
        cards = dict(rules.banker_cards)
        for hand, row in rows.items():
            if isinstance(hand, int):
                banker[hand] = row
            else:
                cards[hand] = tuple(row)
        return replace(rules, name=f"{rules.name}, solved", banker=tuple(tuple(r) for r in banker),
                       banker_cards=tuple(sorted(cards.items())))


def _default_row(rules: ChoiceRules, hand: Hand) -> tuple[Decision, ...]:
    if isinstance(hand, int):
        return tuple(STAND if d is None else d for d in rules.banker[hand])
    return tuple(STAND if rules.banker_decision(hand, c) is None else rules.banker_decision(hand, c)
                 for c in COLUMNS)


def _box_range(f: Affine) -> tuple[Number, Number]:
    """The least and the greatest value of an affine function over the box [0, 1]^k."""
    return (f[0] + sum(min(0, c) for c in f[1:]), f[0] + sum(max(0, c) for c in f[1:]))


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
        m = len(self.contested)
        rows.append([-c for c in self.objective[1:]] + [1] * m)  # the result at least the value
        rhs.append(self.objective[0] - value)
        for j in free:
            direction = [int(i == j) for i in range(k + m)]
            high = maximize(direction, rows, rhs).value
            low = -maximize([-v for v in direction], rows, rhs).value
            if high != low:
                return False
        return True


def _reduce(game: ChoiceGame) -> _Reduced:
    objective = list(game.base)
    contested = []
    for bset in game.banker_sets:
        if bset.decision is not None:
            continue
        low, high = _box_range(bset.difference)
        if low >= 0:
            _affine_add(objective, bset.stand)
        elif high <= 0:
            _affine_add(objective, bset.draw)
        else:
            _affine_add(objective, bset.stand)
            contested.append(bset.difference)
    return _Reduced(tuple(objective), tuple(contested))


def _banker_mix(game: ChoiceGame, x: Sequence[Fraction]) -> tuple[list[Fraction | None], list[int], list[list[Number]],
                                                                  list[Number]]:
    """The Banker's best reply to ``x`` set by set, the sets where he is indifferent at ``x`` (contested),
    and the constraints on their drawing probabilities that make ``x`` a best reply for the Player."""
    k = len(x)
    gradient: list[Number] = list(game.base[1:])
    choice: list[Fraction | None] = []
    contested: list[int] = []
    for i, bset in enumerate(game.banker_sets):
        if bset.decision is not None:
            choice.append(bset.decision)
            continue
        d = bset.difference
        at = _at(d, x)
        if not any(d):  # drawing and standing alike whatever the Player does
            choice.append(None)
            _affine_add_gradient(gradient, bset.stand)
        elif at != 0:
            choice.append(STAND if at > 0 else DRAW)
            _affine_add_gradient(gradient, bset.stand if at > 0 else bset.draw)
        else:
            choice.append(STAND)
            contested.append(i)
            _affine_add_gradient(gradient, bset.stand)
    rows: list[list[Number]] = [[int(i == j) for i in range(len(contested))] for j in range(len(contested))]
    rhs: list[Number] = [1] * len(contested)
    for j in range(k):  # the gradient g_j = gradient_j + sum q_I d_I,j: 0 inside, <= 0 at 0, >= 0 at 1
        slopes = [game.banker_sets[i].difference[j + 1] for i in contested]
        if x[j] < 1:
            rows.append(slopes)
            rhs.append(-gradient[j])
        if x[j] > 0:
            rows.append([-s for s in slopes])
            rhs.append(gradient[j])
    return choice, contested, rows, rhs


def _affine_add_gradient(gradient: list[Number], f: Affine) -> None:
    for j, c in enumerate(f[1:]):
        gradient[j] += c


def solve(game: ChoiceGame) -> Solution:
    """Optimal strategies of both sides and the value, exactly, certified (see the module)."""
    k = len(game.player_sets)
    reduced = _reduce(game)
    value, x = reduced.maximum(k) if k else (reduced.objective[0], ())
    choice, contested, rows, rhs = _banker_mix(game, x)
    m = len(contested)
    for i, q in zip(contested, maximize([0] * m, rows, rhs).point if m else (), strict=True):
        choice[i] = q
    banker_unique = all(maximize([int(i == j) for i in range(m)], rows, rhs).value ==
                        -maximize([-int(i == j) for i in range(m)], rows, rhs).value for j in range(m))
    return Solution(game, Fraction(value, game.total), tuple(Fraction(v) for v in x), tuple(choice),
                    certify(game, x, choice), _player_unique(game, reduced, value, x, choice), banker_unique)


def _player_unique(game: ChoiceGame, reduced: _Reduced, value: Number, x: Sequence[Fraction],
                   banker: Sequence[Fraction | None]) -> bool:
    """Whether the Player's optimal strategy is unique (sets never reached aside).

    Every optimal strategy is a best reply to the Banker's optimal one, so only the coordinates where
    the Player is indifferent against it can move. One such coordinate moves iff the guaranteed result
    does not fall strictly both ways from the optimum along it; several are settled by linear programs.
    """
    gradient = _against(game, banker)[1:]
    loose = [j for j, g in enumerate(gradient) if g == 0 and game.player_ways[j] > 0]
    if len(loose) > 1:
        return reduced.unique(len(x), value, loose)
    return all(_slope(game, x, j, step) < 0 for j in loose for step, inside in ((1, x[j] < 1), (-1, x[j] > 0))
               if inside)


def _slope(game: ChoiceGame, x: Sequence[Fraction], j: int, step: int) -> Number:
    """The one-sided derivative of the Player's guaranteed result at ``x`` along ``step`` times axis ``j``
    (``game.base`` holds the Banker's fixed cells already)."""
    slope: Number = step * game.base[j + 1]
    for bset in game.banker_sets:
        if bset.decision is None:
            at = _at(bset.difference, x)
            draw, stand = step * bset.draw[j + 1], step * bset.stand[j + 1]
            slope += stand if at > 0 else draw if at < 0 else min(draw, stand)
    return slope


def _against(game: ChoiceGame, banker: Sequence[Number | None]) -> Affine:
    """The Player's result, in ways, against a Banker strategy: affine in his drawing probabilities."""
    f: list[Number] = list(game.base)
    for bset, q in zip(game.banker_sets, banker, strict=True):
        if bset.decision is None:
            q = STAND if q is None else q
            _affine_add(f, bset.draw, q)
            _affine_add(f, bset.stand, 1 - q)
    return tuple(f)


# ---------------------------------------------------------------- evaluating and certifying


def expectation(game: ChoiceGame, player: Sequence[Number], banker: Sequence[Number | None]) -> Fraction:
    """The Player's exact expectation per coup when the free Player sets draw with probabilities ``player``
    and every Banker set with ``banker`` (``None``: stands)."""
    result: Number = _at(game.base, player)
    for bset, q in zip(game.banker_sets, banker, strict=True):
        if bset.decision is None:
            q = STAND if q is None else q
            result += q * _at(bset.draw, player) + (1 - q) * _at(bset.stand, player)
    return Fraction(result, 1) / game.total


def banker_best_reply(game: ChoiceGame, player: Sequence[Number]) -> Fraction:
    """The least the Banker can hold the Player to when the Player plays ``player``."""
    result: Number = _at(game.base, player)
    for bset in game.banker_sets:
        if bset.decision is None:
            result += min(_at(bset.draw, player), _at(bset.stand, player))
    return Fraction(result, 1) / game.total


def player_best_reply(game: ChoiceGame, banker: Sequence[Number | None]) -> Fraction:
    """The most the Player can get when the Banker plays ``banker``: his result is affine in his drawing
    probabilities, so its maximum over the box takes each coefficient's positive part."""
    return Fraction(_box_range(_against(game, banker))[1], 1) / game.total


def certify(game: ChoiceGame, player: Sequence[Number], banker: Sequence[Number | None]) -> Certificate:
    """The :class:`Certificate` of a pair of strategies."""
    return Certificate(expectation(game, player, banker), banker_best_reply(game, player),
                       player_best_reply(game, banker))


def costs(solution: Solution) -> tuple[Cost, ...]:
    """What each free choice costs against an optimal opponent, per coup (see :class:`Cost`).

    The Banker's choice at one set costs the Player's gain there against the Player's optimal strategy;
    the Player's habit on one set (always drawing, always standing) costs the value less what the Banker's
    best reply to that habit holds him to.
    """
    game, x = solution.game, solution.player
    out = []
    for j, hand in enumerate(game.player_sets):
        drawn = banker_best_reply(game, [*x[:j], DRAW, *x[j + 1:]])
        stood = banker_best_reply(game, [*x[:j], STAND, *x[j + 1:]])
        out.append(Cost("player", hand, None, solution.value - drawn, solution.value - stood))
    for bset, q in zip(game.banker_sets, solution.banker, strict=True):
        if bset.decision is None and q is not None:
            d = Fraction(_at(bset.difference, x), 1) / game.total
            out.append(Cost("banker", bset.hand, bset.column, d * (1 - q), -d * q))
    return tuple(out)
