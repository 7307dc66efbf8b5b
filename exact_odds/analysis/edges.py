"""House edges and par sheets of any bet, exactly.

One unit is staked per coup; a payout is the net result (win > 0, push 0, loss -1). The *house edge* is
minus the mean net result, *per resolved bet* divided by the chance that the bet is decided. A
:class:`ParSheet` lists each pay line of a bet with its combinations (ordered six-card sequences),
probability, payout and contribution to the return, then the "loses" line; every figure is exact.

>>> from exact_odds.bets import find_bet
>>> sheet = par_sheet(Shoe.decks(8), find_bet("banker"))
>>> [(line.label, line.ways) for line in sheet.lines]
[('banker wins', 2292252566437888), ('tie (push)', 475627426473216), ('loses', 2230518282592256)]
>>> sheet.house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from exact_odds.bets import BUILTIN_BETS, BUILTIN_CONFIGURATIONS, Bet, Configuration, usable_bets
from exact_odds.bets.core import Rule, ways_by_line
from exact_odds.bets.main import ROLES
from exact_odds.core.coup import Detail, Winner
from exact_odds.core.dist import Ways
from exact_odds.core.notebook import Approx, Percent, html_table, html_tables
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal, winners

LOSES = "loses"
"""Label of the par-sheet line of the coups that no pay line matches (the stake is lost)."""


@dataclass(frozen=True, slots=True)
class ParLine:
    """One line of a par sheet: ``ways`` of ``total`` coups pay ``pays`` net units."""

    label: str
    ways: Ways
    pays: Fraction
    total: Ways

    @property
    def probability(self) -> Fraction:
        """The chance that this line decides the bet."""
        return Fraction(self.ways, self.total)

    @property
    def contribution(self) -> Fraction:
        """This line's share of the expected value: probability times pays."""
        return self.probability * self.pays


@dataclass(frozen=True, slots=True)
class ParSheet:
    """A bet's par sheet on one shoe and rule table: its pay lines in order (those that cannot occur kept with
    zero ways), then the ``"loses"`` line (pays -1), out of ``total`` ordered six-card sequences."""

    bet: Bet
    shoe: Shoe
    tableau: Tableau
    lines: tuple[ParLine, ...]
    total: Ways

    def _probability(self, pays_sign: int) -> Fraction:
        """The chance of the lines whose payout has sign ``pays_sign`` (1, 0 or -1)."""
        return Fraction(sum(line.ways for line in self.lines if (line.pays > 0) - (line.pays < 0) == pays_sign),
                        self.total)

    def _moment(self, power: int) -> Fraction:
        """The mean of the net result to the ``power``: each line's ways times its payout to the ``power``,
        summed over a common denominator, divided once (the same Fraction as the lines' sum)."""
        scale = math.lcm(*(line.pays.denominator ** power for line in self.lines))
        return Fraction(sum(line.ways * line.pays.numerator ** power * (scale // line.pays.denominator ** power)
                            for line in self.lines), self.total * scale)

    @property
    def win(self) -> Fraction:
        """Probability that the bet wins (a positive payout)."""
        return self._probability(1)

    @property
    def push(self) -> Fraction:
        """Probability of a push (net payout 0)."""
        return self._probability(0)

    @property
    def loss(self) -> Fraction:
        """Probability that the bet loses money (a negative payout)."""
        return self._probability(-1)

    @property
    def expected_value(self) -> Fraction:
        """Mean net result per unit staked per coup (the sum of the lines' contributions)."""
        return self._moment(1)

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit staked per coup: ``-expected_value``."""
        return -self.expected_value

    @property
    def house_edge_resolved(self) -> Fraction | None:
        """Expected loss per unit staked on coups that decide the bet (``None`` if it always pushes)."""
        decided = 1 - self.push
        return self.house_edge / decided if decided else None

    @property
    def variance(self) -> Fraction:
        """Variance of the net result of one unit staked, in squared units."""
        return self._moment(2) - self.expected_value**2

    @property
    def std_dev(self) -> float:
        """Standard deviation in units staked (a float, for display only)."""
        return math.sqrt(self.variance)

    def _repr_html_(self) -> str:
        """The par sheet as a table in a notebook: each line's combinations, probability, payout and return."""
        rows = [[line.label, line.ways, line.probability, Approx(line.probability), line.pays,
                 Percent(line.contribution)] for line in self.lines]
        rows.append(["total", self.total, Fraction(1), Approx(1), None, Percent(self.expected_value)])
        resolved = self.house_edge_resolved
        notes = [f"house_edge {self.house_edge} ≈ {float(self.house_edge):.4%} per coup"
                 + ("" if resolved is None or not self.push else f", {float(resolved):.4%} per resolved bet")
                 + f"; standard deviation {self.std_dev:.4f} units"]
        return html_table(["line", "combinations", "probability", "≈", "pays", "return"], rows,
                          caption=f"Par sheet of {self.bet.name}, {self.shoe}, {self.tableau.name} tableau",
                          notes=notes)


def par_sheet(shoe: Shoe, bet: Bet, *, tableau: Tableau = STANDARD_TABLEAU, detail: Detail = Detail.POINTS) -> ParSheet:
    """The par sheet of ``bet`` on ``shoe`` under ``tableau``, counted by the engine at the bet's detail, or
    at ``detail`` if finer (the same counts: bets of different details can share one cached enumeration).

    >>> from exact_odds.bets import find_bet
    >>> sheet = par_sheet(Shoe.decks(8), find_bet("ez/banker"))
    >>> sheet.lines[0].label, sheet.lines[0].ways
    ('banker wins with three-card 7 (push)', 112633011329024)
    """
    detail = max(detail, bet.detail)
    dist = deal(shoe, tableau, detail=detail)
    by_line = _ways_by_rules(shoe, tableau, detail, bet.rules)
    labelled = [(line.label, line.pays) for line in bet.lines] + [(LOSES, Fraction(-1))]
    lines = tuple(ParLine(label, by_line[i], pays, dist.total) for i, (label, pays) in enumerate(labelled))
    return ParSheet(bet, shoe, tableau, lines, dist.total)


@lru_cache(maxsize=256)
def _ways_by_rules(shoe: Shoe, tableau: Tableau, detail: Detail, rules: tuple[Rule, ...]) -> tuple[Ways, ...]:
    """The ways of the pay lines of ``rules`` (:func:`~exact_odds.bets.core.ways_by_line`): counted once for
    the bets whose lines have the same rules, whatever their payouts."""
    return tuple(ways_by_line(rules, deal(shoe, tableau, detail=detail).items()))


def house_edge(shoe: Shoe, bet: Bet, *, tableau: Tableau = STANDARD_TABLEAU) -> Fraction:
    """The house edge of ``bet`` per unit staked per coup (see :class:`ParSheet`).

    >>> from exact_odds.bets import find_bet
    >>> house_edge(Shoe.infinite_deck(), find_bet("tie"))
    Fraction(681400, 4826809)
    """
    return par_sheet(shoe, bet, tableau=tableau).house_edge


def configuration_sheets(shoe: Shoe, config: Configuration, *, tableau: Tableau = STANDARD_TABLEAU,
                         detail: Detail = Detail.POINTS) -> dict[str, ParSheet]:
    """The par sheets of a configuration's banker, player and tie bets, by role (see :func:`par_sheet`)."""
    return {role: par_sheet(shoe, bet, tableau=tableau, detail=detail)
            for role, bet in zip(ROLES, config.bets, strict=True)}


def distinct_bets(bets: Sequence[Bet]) -> list[tuple[Bet, list[Bet]]]:
    """Bets grouped by identical pay lines: (first bet, every bet with the same lines), in order (a report
    shows one par sheet per distinct pay table: ``tie-9/banker`` is the standard banker bet)."""
    groups: dict[tuple[object, ...], list[Bet]] = {}
    for bet in bets:
        groups.setdefault((bet.lines, bet.detail), []).append(bet)
    return [(same[0], same) for same in groups.values()]


@dataclass(frozen=True, slots=True)
class ReferenceSheets:
    """Every figure of ``exact-odds report`` for one shoe: ``counts`` of each outcome of ``total``; each
    configuration's par sheets by role; ``main``: one par sheet per distinct main-bet pay table, with the
    bets sharing it; the ``others``' par sheets; the bets the shoe cannot settle (``omitted``)."""

    shoe: Shoe
    counts: dict[Winner, Ways]
    total: Ways
    configurations: tuple[tuple[Configuration, dict[str, ParSheet]], ...]
    main: tuple[tuple[ParSheet, tuple[Bet, ...]], ...]
    others: tuple[ParSheet, ...]
    omitted: tuple[Bet, ...]

    def _repr_html_(self) -> str:
        """The sheets as tables in a notebook: the odds, then every bet's house edge (each par sheet shows
        itself in full)."""
        odds = html_table(["outcome", "ways", "probability", "≈"],
                          [[w, n, Fraction(n, self.total), Approx(n / self.total)] for w, n in self.counts.items()],
                          caption=f"Odds of one coup, {self.shoe}")
        sheets = [(sheet, ", ".join(bet.name for bet in same)) for sheet, same in self.main]
        sheets += [(sheet, sheet.bet.name) for sheet in self.others]
        resolved = [s.house_edge_resolved for s, _ in sheets]
        edges = html_table(["bet", "house_edge", "≈ per coup", "≈ per resolved bet"],
                           [[names, s.house_edge, Percent(s.house_edge), None if r is None else Percent(r)]
                            for (s, names), r in zip(sheets, resolved, strict=True)],
                           caption=f"House edges, {self.shoe}", max_rows=len(sheets),
                           notes=[f"Left out (this shoe cannot settle them): {', '.join(b.name for b in self.omitted)}"]
                           if self.omitted else [])
        return html_tables(odds, edges)


def reference_sheets(shoe: Shoe, bets: Iterable[Bet] = BUILTIN_BETS.values(),
                     configurations: Iterable[Configuration] = BUILTIN_CONFIGURATIONS.values(), *,
                     tableau: Tableau = STANDARD_TABLEAU) -> ReferenceSheets:
    """The reference sheets of ``shoe`` for ``bets`` (those in none of ``configurations`` are side bets).

    >>> sheets = reference_sheets(Shoe.decks(8))
    >>> sheets.counts["tie"], [sheet.bet.name for sheet, _ in sheets.main][:3]
    (475627426473216, ['banker', 'player', 'tie'])
    """
    configs = tuple(configurations)
    main_bets = [bet for config in configs for bet in config.bets]
    others, omitted = usable_bets(shoe, [bet for bet in bets if bet not in main_bets])

    @cache
    def sheet(bet: Bet) -> ParSheet:
        return par_sheet(shoe, bet, tableau=tableau)

    dist = winners(deal(shoe, tableau))
    return ReferenceSheets(
        shoe, {role: dist[role] for role in ROLES}, dist.total,
        tuple((c, {role: sheet(bet) for role, bet in zip(ROLES, c.bets, strict=True)}) for c in configs),
        tuple((sheet(bet), tuple(same)) for bet, same in distinct_bets(main_bets)),
        tuple(sheet(bet) for bet in others),
        tuple(omitted))
