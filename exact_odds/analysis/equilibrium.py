"""Chemin de fer solved exactly: optimal strategies of both sides, the value, certificates, costs of choices.

The Player's guaranteed expectation ``f(x) = sum over the Banker's free sets of min(draw(x), stand(x))``
is concave and piecewise linear in his free drawing probabilities ``x``; it is maximised as Foster
(1964) did, by small exact linear programs (:mod:`exact_odds.analysis.exact_lp`), and each answer is
certified by exact best replies (``docs/chemin-de-fer.md``, "How it is computed").

>>> from exact_odds.analysis.strategy import Information, choice_game
>>> from exact_odds.core.shoe import Shoe
>>> solution = solve(choice_game(Shoe.infinite_deck(), Information.TOTALS))
>>> solution.player, solution.value, solution.certificate.holds, solution.player_unique
((Fraction(9, 11),), Fraction(-679568, 53094899), True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from exact_odds.analysis.exact_lp import maximize, single_valued
from exact_odds.analysis.strategy import (
    Affine,
    ChoiceGame,
    Hand,
    Information,
    Number,
    affine_add,
    affine_at,
    box_range,
    choice_game,
)
from exact_odds.core.choices import DRAW, PARLOUR_RULES, STAND, ChoiceRules, Decision
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import COLUMNS


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
    row = rules.banker[hand] if isinstance(hand, int) else [rules.banker_decision(hand, c) for c in COLUMNS]
    return tuple(STAND if d is None else d for d in row)


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
        if bset.decision is not None:
            continue
        low, high = box_range(bset.difference)
        if low >= 0:
            affine_add(objective, bset.stand)
        elif high <= 0:
            affine_add(objective, bset.draw)
        else:
            affine_add(objective, bset.stand)
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
    """The Banker's best reply to ``x`` set by set (standing where he is indifferent), the free sets where his
    choice moves the Player's result but ties at ``x`` (contested), and :func:`reply_constraints` on them."""
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
    return Solution(game, Fraction(value, game.total), tuple(Fraction(v) for v in x), tuple(choice),
                    certify(game, x, choice), _player_unique(game, reduced, value, x, choice),
                    single_valued(rows, rhs, range(len(contested))))


def _player_unique(game: ChoiceGame, reduced: _Reduced, value: Number, x: Sequence[Fraction],
                   banker: Sequence[Fraction | None]) -> bool:
    """Whether the Player's optimal strategy is unique (sets never reached aside): only the coordinates
    where he is indifferent against the Banker's optimal strategy can move; one moves iff the guaranteed
    result does not fall strictly both ways along it, several are settled by linear programs."""
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


def banker_best_reply(game: ChoiceGame, player: Sequence[Number]) -> Fraction:
    """The least the Banker can hold the Player to when the Player plays ``player``."""
    result: Number = affine_at(game.base, player)
    for bset in game.banker_sets:
        if bset.decision is None:
            result += min(affine_at(bset.draw, player), affine_at(bset.stand, player))
    return Fraction(result, 1) / game.total


def player_best_reply(game: ChoiceGame, banker: Sequence[Number | None]) -> Fraction:
    """The most the Player can get when the Banker plays ``banker``: his result is affine in his drawing
    probabilities, so its maximum over the box takes each coefficient's positive part."""
    return Fraction(box_range(_against(game, banker))[1]) / game.total


def certify(game: ChoiceGame, player: Sequence[Number], banker: Sequence[Number | None]) -> Certificate:
    """The :class:`Certificate` of a pair of strategies."""
    return Certificate(expectation(game, player, banker), banker_best_reply(game, player),
                       player_best_reply(game, banker))


def costs(solution: Solution) -> tuple[Cost, ...]:
    """What each free choice costs against an optimal opponent, per coup (see :class:`Cost`): the Banker's,
    the Player's gain there against the Player's optimal strategy; the Player's habit on one set, the value
    less what the Banker's best reply to it holds him to."""
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


# ---------------------------------------------------------------- many shoes


def solve_by_decks(max_decks: int, information: Information,
                   rules: ChoiceRules = PARLOUR_RULES) -> tuple[Solution, ...]:
    """The solutions for shoes of 1, 2, ..., ``max_decks`` full decks, then the infinite deck (model A).

    >>> [str(s.game.shoe) for s in solve_by_decks(2, Information.TOTALS)]
    ['1 deck', '2 decks', 'infinite deck']
    """
    shoes = [*(Shoe.decks(d) for d in range(1, max_decks + 1)), Shoe.infinite_deck()]
    return tuple(solve(choice_game(shoe, information, rules)) for shoe in shoes)
