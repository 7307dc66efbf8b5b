"""What information is worth: the best bet in each case and the value per coup, exactly.

One unit is staked per coup on at most one bet; expectations are the bettor's (``player_ev``). In each
case of an :class:`~exact_odds.analysis.information.knowledge.Information` the bettor makes the bet of
highest expectation, or sits out when none is positive; the *value* of the information is
``sum over cases c of P(c) * max(EV_c(bet 1), ..., EV_c(bet n), 0)``, the figure of the published
known-card and edge-sorting analyses (without sitting out, ``sit_out=False``, the best bet however bad).

>>> from exact_odds.bets import find_bet
>>> from exact_odds.report import percent_text
>>> from exact_odds.core.shoe import Shoe
>>> worth = advantage(Shoe.decks(8), Information.rank_at(1), [find_bet("banker"), find_bet("player")])
>>> percent_text(worth.value, 3), [case.best_bet for case in worth.cases][5:9]
('6.765%', ['player', 'player', 'player', 'player'])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from exact_odds.analysis.information.given import Case, deal_cases
from exact_odds.analysis.information.knowledge import Information, InformationError, Known
from exact_odds.core.coup import Coup, Payable
from exact_odds.core.dist import Dist, Ways
from exact_odds.core.notebook import Approx, Percent, html_table
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau


@dataclass(frozen=True, slots=True)
class CaseValue:
    """One case of an information: ``ways`` of ``total`` sequences fall in it; ``ev[i]`` is the exact
    expectation of the :class:`Advantage`'s ``bets[i]`` given it; ``best`` indexes the bet made (``None``: sit
    out)."""

    case: Case
    known: Known
    ways: Ways
    total: Ways
    ev: tuple[Fraction, ...]
    best: int | None
    bet_names: tuple[str, ...]

    @property
    def probability(self) -> Fraction:
        """The chance of this case."""
        return Fraction(self.ways, self.total)

    @property
    def best_ev(self) -> Fraction:
        """The expectation of the play made in this case (0 when sitting out)."""
        return self.ev[self.best] if self.best is not None else Fraction(0)

    @property
    def best_bet(self) -> str | None:
        """The name of the bet made, or ``None`` when sitting out."""
        return self.bet_names[self.best] if self.best is not None else None


@dataclass(frozen=True, slots=True)
class Advantage:
    """The value of an information on one shoe for a set of bets; ``flat[i]`` is the expectation of
    ``bets[i]`` without the information (given ``known`` alone)."""

    information: Information
    known: Known
    bet_names: tuple[str, ...]
    cases: tuple[CaseValue, ...]
    flat: tuple[Fraction, ...]
    sit_out: bool

    @property
    def value(self) -> Fraction:
        """Expectation per coup of the best play in every case: ``E[max(EV, 0)]`` (or ``E[max EV]``)."""
        return sum((c.probability * c.best_ev for c in self.cases), Fraction(0))

    @property
    def flat_value(self) -> Fraction:
        """The best one can do without the information: the best bet's expectation, or 0 sitting out."""
        best = max(self.flat)
        return max(best, Fraction(0)) if self.sit_out else best

    @property
    def gain(self) -> Fraction:
        """What the information adds per coup: ``value - flat_value``."""
        return self.value - self.flat_value

    @property
    def betting_frequency(self) -> Fraction:
        """The chance that the best play is a bet rather than sitting out."""
        return sum((c.probability for c in self.cases if c.best is not None), Fraction(0))

    @property
    def edge_when_betting(self) -> Fraction | None:
        """Expectation per unit actually staked (``value / betting_frequency``), ``None`` if never betting."""
        frequency = self.betting_frequency
        return self.value / frequency if frequency else None

    def _repr_html_(self) -> str:
        """The value of the information as a table in a notebook: each case, its chance, every bet's
        expectation (player_ev) in it and the play made."""
        info = self.information
        rows = [[*c.case, c.probability, Approx(c.probability), *(Percent(ev) for ev in c.ev),
                 c.best_bet or "sit out"] for c in self.cases]
        rows.append(["all", *([None] * (len(info.positions) - 1)), Fraction(1), Approx(1),
                     *(Percent(ev) for ev in self.flat), "(by case)"])
        given = f", given {self.known}" if self.known.positions else ""
        return html_table([*(f"card {p}" for p in info.positions), "probability", "≈",
                           *(f"player_ev {name}" for name in self.bet_names), "play"],
                          rows, caption=f"Best play by the {info.name}{given}",
                          notes=[f"value per coup {self.value} ≈ {float(self.value):.4%}; gain over the best play "
                                 f"without it {float(self.gain):.4%}"])


def best_of(ev: Sequence[Fraction], *, sit_out: bool = True) -> int | None:
    """Index of the highest expectation (the first on equal ones); ``None`` if sitting out is better.

    >>> best_of([Fraction(-1, 100), Fraction(1, 50)]), best_of([Fraction(-1, 100)])
    (1, None)
    """
    best = max(range(len(ev)), key=lambda i: (ev[i], -i))
    return best if ev[best] > 0 or not sit_out else None


def player_ev(dist: Dist[Coup], bets: Sequence[Payable]) -> tuple[Fraction, ...]:
    """Each bet's exact expectation over ``dist`` (e.g. :func:`~exact_odds.analysis.information.given.deal_known`'s),
    the coups dealt at the detail the bets need."""
    return _expectations(dist, [bet.payout for bet in bets])


def _expectations(dist: Dist[Coup], payouts: Sequence[Callable[[Coup], Fraction]]) -> tuple[Fraction, ...]:
    return tuple(sum((w * pay(coup) for coup, w in dist.items()), Fraction(0)) / dist.total for pay in payouts)


MAX_CASES = 2_500
"""The most cases :func:`advantage` values: the rank of three cards (2,197 cases) takes a few seconds,
of four (28,561) some 20 s and 430 MB."""


def advantage(shoe: Shoe, information: Information, bets: Sequence[Payable], tableau: Tableau = STANDARD_TABLEAU, *,
              known: Known | None = None, sit_out: bool = True,
              progress: Callable[[int, int], None] | None = None) -> Advantage:
    """The best play in each case of ``information`` and its value per coup, exactly.

    ``bets`` are the bets one may make; ``known`` is knowledge held in every case (the information comes
    on top of it). ``progress(done, total)``, if given, is called with the cases valued so far: once with
    none, when the coups are dealt, then after each.
    """
    if not bets:
        raise InformationError("name at least one bet to value the information")
    count = math.prod(len(groups) for groups in information.groups)
    if count > MAX_CASES:
        sizes = " x ".join(str(len(groups)) for groups in information.groups)
        raise InformationError(f"the information has {count:,} cases ({sizes}); at most {MAX_CASES:,} are valued "
                               "here: watch fewer positions, or group the cards (e.g. high=6|7|8|9)")
    detail = max(bet.detail for bet in bets)
    given = known or Known()
    split = deal_cases(shoe, information, tableau, known=given, detail=detail)
    total = sum(d.total for d in split.values())
    paying = [cache(bet.payout) for bet in bets]  # each coup's payout found once for every case
    names = tuple(bet.name for bet in bets)
    cases = []
    if progress is not None:
        progress(0, len(split))
    for case, dist in split.items():
        ev = _expectations(dist, paying)
        cases.append(CaseValue(case, information.known(case).and_(given), dist.total, total, ev,
                               best_of(ev, sit_out=sit_out), names))
        if progress is not None:
            progress(len(cases), len(split))
    flat = tuple(sum((c.probability * c.ev[i] for c in cases), Fraction(0)) for i in range(len(bets)))
    return Advantage(information, given, names, tuple(cases), flat, sit_out)
