"""The casino game of chemin de fer: a commission on the Banker's wins, and every Nash equilibrium, exactly.

The house takes a commission ``alpha`` (0 to 1/10, classically 5%) of what the Banker wins: he gets
``-1`` when the Player wins and ``1 - alpha`` when he wins himself, so the game is no longer zero-sum
(Ethier and Lee, 2023, *A game-theoretic analysis of baccara chemin de fer, II*, Games 14:63). Both
sides' payoffs are additive over the Banker's information sets and affine in the Player's free drawing
probabilities ``x`` (:class:`~exact_odds.analysis.strategy.ChoiceGame`, one per side). Dominated
choices are removed, then every equilibrium is found among the vertices of the arrangement the
Banker's indifference hyperplanes cut in the Player's box, each checked by an exact linear program and
certified by exact best replies (``docs/chemin-de-fer.md``, "The casino game").

>>> from exact_odds.analysis.strategy import Information
>>> from exact_odds.core.shoe import Shoe
>>> game = commission_game(Shoe.infinite_deck(), Information.TOTALS, Fraction(1, 20))
>>> found = equilibria(game)
>>> len(found.equilibria), found.equilibria[0].player, found.equilibria[0].certificate.holds
(1, (Fraction(179, 214),), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import lcm

from exact_odds.analysis.equilibrium import expectation, player_best_reply, reply_constraints
from exact_odds.analysis.exact_lp import LPError, maximize, single_valued
from exact_odds.analysis.strategy import (
    SIGN,
    Affine,
    ChoiceGame,
    Information,
    Number,
    Score,
    StrategyError,
    affine_at,
    box_range,
    choice_game,
)
from exact_odds.core.choices import DRAW, PARLOUR_RULES, STAND, ChoiceRules
from exact_odds.core.shoe import Shoe

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
    """The free Banker sets, each one's difference (draw less stand) for the Banker (``delta``) and for the
    Player (``effect``), and the Player's gradient when the Banker stands in every free set: his gradient
    ``j`` is ``gradient[j] + sum q_I effect_I[j + 1]``. All in integers (a positive factor changes no sign)."""

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
            for j, c in enumerate(player.banker_sets[i].stand[1:]):
                gradient[j] += c
        effect = [player.banker_sets[i].difference for i in free]
        scale = lcm(*(Fraction(v).denominator for f in (*effect, gradient) for v in f))
        return cls(free, tuple(_integral(banker.banker_sets[i].difference) for i in free),
                   tuple(tuple(int(v * scale) for v in f) for f in effect), tuple(int(v * scale) for v in gradient))

    def gradient_range(self, j: int, fixed: dict[int, Fraction]) -> tuple[Number, Number]:
        """The least and greatest of the Player's gradient ``j`` over the Banker's strategies left."""
        return box_range((self.gradient[j], *(effect[j + 1] for effect in self.effect)), fixed)


def _integral(f: Affine) -> tuple[int, ...]:
    """``f`` times the least positive integer that makes every coefficient whole."""
    scale = lcm(*(Fraction(v).denominator for v in f))
    return tuple(int(v * scale) for v in f)


def _dominance(sides: _Sides, k: int) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """The Player coordinates and the Banker sets settled by iterated strict dominance."""
    x: dict[int, Fraction] = {}
    q: dict[int, Fraction] = {}
    changed = True
    while changed:
        changed = False
        for n, delta in enumerate(sides.delta):
            if n not in q:
                low, high = box_range(delta, x)
                if low > 0 or high < 0:
                    q[n] = DRAW if low > 0 else STAND
                    changed = True
        for j in range(k):
            if j not in x:
                low, high = sides.gradient_range(j, q)
                if low > 0 or high < 0:
                    x[j] = DRAW if low > 0 else STAND
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
    """At one Player strategy: the Banker's choice in each free set (``None`` where he is indifferent) and
    :func:`~exact_odds.analysis.equilibrium.reply_constraints` on the indifferent (``loose``) sets."""

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


# ---------------------------------------------------------------- evaluating and certifying


def banker_expectation(game: CommissionGame, player: Sequence[Number], banker: Sequence[Number | None]) -> Fraction:
    """The Banker's exact expectation per coup, the commission paid, at a pair of strategies."""
    return expectation(game.banker, player, banker) / game.unit


def banker_best_reply(game: CommissionGame, player: Sequence[Number]) -> Fraction:
    """The most the Banker can expect, the commission paid, when the Player plays ``player``."""
    banker = game.banker
    result: Number = affine_at(banker.base, player)
    for bset in banker.banker_sets:
        if bset.decision is None:
            result += max(affine_at(bset.draw, player), affine_at(bset.stand, player))
    return Fraction(result, 1) / banker.total / game.unit


def certify(game: CommissionGame, player: Sequence[Number], banker: Sequence[Number | None]) -> BimatrixCertificate:
    """The :class:`BimatrixCertificate` of a pair of strategies."""
    return BimatrixCertificate(expectation(game.player, player, banker), player_best_reply(game.player, banker),
                               banker_expectation(game, player, banker), banker_best_reply(game, player))


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
    banker_ev = banker_expectation(game, x, banker)
    return Equilibrium(x, tuple(banker), player_ev, banker_ev, -(player_ev + banker_ev), replies.fixed(),
                       certify(game, x, banker))


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
