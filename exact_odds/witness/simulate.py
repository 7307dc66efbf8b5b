"""The simulator: seeded shoes dealt coup by coup, flat bets, the check against exact values, and sessions.

Simulation is a witness, never a source: :func:`simulate` returns the same :class:`~exact_odds.core.dist.Dist`
of :class:`~exact_odds.core.coup.Coup` as the exact engine (counts of coups dealt as the ways); its coups are
checked as anybody's log is (:class:`exact_odds.witness.verify.Verifier`), each flat bet's simulated player EV
beside the exact one. Shoes, seeds and dealing are those of :mod:`exact_odds.dealing` (docs/checking.md);
:func:`compare_sessions` sets simulated sessions beside the exact ones.

>>> from exact_odds.core.shoe import Shoe
>>> sim = simulate(Shoe.decks(8), coups=1000, seed=7, procedure=Procedure(fresh=True))
>>> sim.coups.total
1000
>>> checked = simulate(Shoe.decks(8), shoes=3, seed=7, reference=STANDARD_TABLEAU)
>>> checked.check is not None and [c.verdict for c in checked.check.log.checks][:3]
['PASS', 'PASS', 'PASS']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.analysis.sessions import OneHand, Ruin, SessionDist, SessionError
from exact_odds.bets import Bet
from exact_odds.core.coup import COUP_CODES, FLAGS_AT, PLAYER_PAIR, Coup, Detail, Winner, coup_table, payout_lookup
from exact_odds.core.dist import Dist
from exact_odds.core.notebook import Approx, Percent, html_table, html_tables
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, ShoeError
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.dealing.dealer import Progress, ShoePlay, compiled_dealer, deal_coups, play_shoes
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, Procedure, shoe_card_codes
from exact_odds.dealing.shuffle import FRESH_BLOCK, batch_end, block_rng, check_seed, fresh_six, shoe_orders, shoes_for
from exact_odds.engine.enumerator import winners
from exact_odds.inputs.errors import InputError, suits_unknown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from exact_odds.core.verdict import Verdict
    from exact_odds.witness.verify import CoupLog, LogVerification


@dataclass(frozen=True, slots=True)
class _Block:
    """One block of a run: its coup codes, each coup's shoe (``None`` in fresh mode), the shoes it used, the coups
    (or shoes) done so far, and, when asked for, its coups as a log."""

    codes: NDArray[np.int16]
    shoe_of: NDArray[np.int32] | None
    shoes: int
    done: int
    log: CoupLog | None


class SimulationError(InputError):
    """Simulation options that cannot work (for example no coups to deal)."""


@dataclass(frozen=True, slots=True)
class BetResult:
    """A flat bet of one unit on every coup: ``results`` counts coups by net payout; ``net`` is the exact final
    result in units; ``low``/``high`` the lowest and highest running result along the way (0 at the start)."""

    bet: Bet
    results: Dist[Fraction]
    net: Fraction
    low: Fraction
    high: Fraction

    @property
    def coups(self) -> int:
        """Number of coups bet."""
        return self.results.total

    def mean(self) -> Fraction:
        """Mean result per unit staked: the observed player EV (negative when the house wins)."""
        return self.net / self.coups

    def variance(self) -> Fraction:
        """Sample variance of the per-coup result (denominator n - 1)."""
        n = self.coups
        squares = sum((v * v * c for v, c in self.results.items()), Fraction(0))
        return (squares - self.net * self.net / n) / (n - 1) if n > 1 else Fraction(0)

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval of the player EV at ``level``."""
        half = NormalDist().inv_cdf(0.5 + level / 2) * math.sqrt(float(self.variance()) / self.coups)
        m = float(self.mean())
        return m - half, m + half


@lru_cache(maxsize=64)
def _payouts(bet: Bet) -> tuple[NDArray[np.int64], int]:
    """The bet's payout (times the scale) on every coup code, read at the bet's own detail, and the scale."""
    import numpy as np

    table, scale = payout_lookup(bet, bet.detail)
    codes = np.arange(COUP_CODES)
    own = codes % PLAYER_PAIR + PLAYER_PAIR * (codes // PLAYER_PAIR & FLAGS_AT[bet.detail])  # flags it records
    by_code: NDArray[np.int64] = table[own]
    by_code.flags.writeable = False
    return by_code, scale


class _BetTracker:
    """Running result of one bet, block by block, in exact scaled integers (payouts by :func:`_payouts`)."""

    def __init__(self, bet: Bet) -> None:
        self.bet = bet
        self.lut, self.scale = _payouts(bet)
        self.net = self.low = self.high = 0

    def add(self, codes: NDArray[np.int16]) -> None:
        if not len(codes):
            return
        path = self.net + self.lut[codes].cumsum()
        self.low = min(self.low, int(path.min()))
        self.high = max(self.high, int(path.max()))
        self.net = int(path[-1])

    def result(self, counts: NDArray[np.int64]) -> BetResult:
        """The result, given the number of coups dealt with each code (``counts``)."""
        import numpy as np

        scale = self.scale
        paid = self.lut[counts > 0]
        values, where = np.unique(paid, return_inverse=True)
        coups = np.bincount(where, weights=counts[counts > 0]).astype(np.int64)
        results = Dist({Fraction(int(v), scale): int(n) for v, n in zip(values, coups, strict=True)})
        return BetResult(self.bet, results, Fraction(self.net, scale), Fraction(self.low, scale),
                         Fraction(self.high, scale))


@dataclass(frozen=True, slots=True)
class PlayerEvCheck:
    """A flat bet's simulated player EV with its confidence interval, beside the exact one over the same coups."""

    bet: str
    simulated: float
    low: float
    high: float
    exact: Fraction | float
    note: str

    @property
    def covered(self) -> bool:
        """Whether the interval contains the exact player EV."""
        return self.low <= float(self.exact) <= self.high


@dataclass(frozen=True, slots=True)
class SimulationCheck:
    """A simulation checked against the exact values: ``log``, its coups verified as a log (the verdict rests on
    its checks); ``player_evs``, each flat bet's player EV with its ``level`` interval beside the exact one."""

    log: LogVerification
    player_evs: tuple[PlayerEvCheck, ...]
    level: float

    @property
    def verdict(self) -> Verdict:
        """``"PASS"`` or ``"FAIL"``: the verification's."""
        return self.log.verdict

    @property
    def reference(self) -> str:
        """The name of the tableau the exact values assume."""
        return self.log.tableau.name


@dataclass(frozen=True, slots=True)
class Simulation:
    """The result of :func:`simulate`: ``coups`` (ways = counts), ``shoes`` used (0 in fresh mode), each flat
    bet's result, the ``check`` against a reference, every coup's code and shoe (``sequence``/``shoe_of``) if kept."""

    shoe: Shoe
    seed: int
    tableau: str
    procedure: Procedure
    detail: Detail
    coups: Dist[Coup]
    shoes: int
    bets: tuple[BetResult, ...]
    check: SimulationCheck | None
    sequence: NDArray[np.int16] | None
    shoe_of: NDArray[np.int32] | None

    @property
    def n(self) -> int:
        """Number of coups dealt."""
        return self.coups.total

    def winners(self) -> Dist[Winner]:
        """Counts of banker, player and tie."""
        return winners(self.coups)

    def _repr_html_(self) -> str:
        counts = self.winners()
        mode = f"{self.n:,} coups" + (f" from {self.shoes:,} shoes" if self.shoes else "")
        tables = [html_table(["outcome", "coups", "share"],
                             [[w, counts[w], Approx(counts[w] / self.n)] for w in ("banker", "player", "tie")],
                             caption=f"Simulated coups, {self.shoe}, {mode}, seed {self.seed}")]
        if self.bets:
            tables.append(html_table(["bet", "coups", "net", "player_ev (simulated)"],
                                     [[r.bet.name, r.coups, r.net, Percent(r.mean())] for r in self.bets],
                                     caption="Flat bets of one unit on every coup"))
        if self.check is not None:
            tables.append(html_table(
                ["bet", "player_ev (simulated)", "low", "high", "player_ev (exact)", "covered"],
                [[e.bet, Percent(e.simulated), Percent(e.low), Percent(e.high), Percent(e.exact), e.covered]
                 for e in self.check.player_evs],
                caption=f"Check against the exact values ({self.check.reference} tableau): {self.check.verdict}",
                notes=[f"{self.check.level:.0%} confidence intervals; the verdict rests on the checks of the "
                       "coups dealt, not on these intervals."]))
        return html_tables(*tables)


def _check_run(shoe: Shoe, seed: int, coups: int | None, shoes: int | None, procedure: Procedure,
               detail: Detail) -> int:
    """Raise unless the run can be dealt; return its target (coups, or shoes with ``shoes``)."""
    procedure.check(shoe)
    check_seed(seed)
    if (coups is None) == (shoes is None):
        raise SimulationError("give either a number of coups or a number of shoes")
    target = coups if coups is not None else shoes
    assert target is not None
    if target < 1:
        raise SimulationError(f"the number of {'coups' if coups is not None else 'shoes'} must be at least 1")
    if shoes is not None and procedure.fresh:
        raise SimulationError("fresh mode deals no shoes: give a number of coups")
    if detail is Detail.SUITS and shoe.suited is None:
        raise ShoeError(suits_unknown())
    return target


def _fresh_blocks(shoe: Shoe, seed: int, coups: int, tableau: Tableau, detail: Detail, *,
                  logs: bool) -> Iterator[_Block]:
    """The coups of fresh mode, block by block: each the first six cards of a fresh shuffle."""
    import numpy as np

    from exact_odds.witness.verify import CoupLog  # numpy-backed: single-shoe commands never load it

    codes = np.asarray(shoe_card_codes(shoe), dtype=np.uint8)
    done = block = 0
    while done < coups:
        n = min(FRESH_BLOCK, coups - done)
        six = codes[fresh_six(block_rng(seed, block), len(codes), n, infinite=shoe.infinite)]
        coup_codes, _ = deal_coups(six, tableau, detail)
        log = CoupLog.from_dealt(six.T, codes=coup_codes, detail=detail, suited=shoe.suited is not None) if logs \
            else None
        done += n
        yield _Block(coup_codes, None, 0, done, log)
        block += 1


def _shoe_blocks(shoe: Shoe, seed: int, target: int, *, count_shoes: bool, tableau: Tableau, procedure: Procedure,
                 detail: Detail, logs: bool) -> Iterator[_Block]:
    """The coups of whole shoes, batch by batch; ``target`` counts shoes with ``count_shoes``, else coups."""
    codes = shoe_card_codes(shoe)
    shoes = target if count_shoes else shoes_for(target, len(codes))
    coups = target * len(codes) // CARDS_PER_COUP if count_shoes else target
    loops = compiled_dealer(coups, shoes, len(codes))
    done = first = 0
    while done < target:
        wanted = target - done if count_shoes else shoes_for(target - done, len(codes))
        rows = batch_end(first, first + wanted, len(codes)) - first
        cards = shoe_orders(codes, seed, first, first + rows, loops=loops)
        play = play_shoes(cards, tableau, procedure, detail, loops=loops)
        take = len(play.codes) if count_shoes else min(len(play.codes), target - done)
        block_shoes = play.shoe[:take] + first
        log = _shoe_log(cards, play, take, first, detail, suited=shoe.suited is not None) if logs else None
        used_shoes = rows if count_shoes else int(block_shoes[-1]) - first + 1
        done += rows if count_shoes else take
        yield _Block(play.codes[:take], block_shoes, used_shoes, done, log)
        first += rows


def _shoe_log(cards: NDArray[np.uint8], play: ShoePlay, take: int, first: int, detail: Detail, *,
              suited: bool) -> CoupLog:
    """The first ``take`` coups of a block of shoes as a log (row ``i`` of ``cards``: shoe ``first + i + 1``), each
    shoe's first coup showing the card its burn turned face up."""
    import numpy as np

    from exact_odds.witness.verify import CoupLog  # numpy-backed: single-shoe commands never load it

    rows = play.shoe[:take]
    burn = None
    if play.burn.turned.any():
        opens = np.concatenate([[True], rows[1:] != rows[:-1]])
        burn = np.where(opens, play.burn.turned.argmax(axis=1)[rows], -1)[:, None]
    return CoupLog.from_dealt(cards, rows=rows, start=play.start[:take], codes=play.codes[:take], detail=detail,
                              shoe=rows + first + 1, burn=burn, suited=suited)


def simulate(shoe: Shoe, *, seed: int, coups: int | None = None, shoes: int | None = None,
             tableau: Tableau = STANDARD_TABLEAU, procedure: Procedure = STANDARD_PROCEDURE,
             bets: Sequence[Bet] = (), detail: Detail = Detail.POINTS, reference: Tableau | None = None,
             alpha: float = 0.001, level: float = 0.95, keep: bool = False,
             record: Callable[[CoupLog], None] | None = None, progress: Progress | None = None,
             each: Callable[[NDArray[np.int16]], None] | None = None) -> Simulation:
    """Deal ``coups`` coups (or ``shoes`` whole shoes) from ``shoe`` with ``tableau``.

    Flat one-unit bets on each of ``bets`` are tracked; ``detail`` (raised to what the bets need) says which pair
    flags the coups record. With ``reference``, the coups are checked against the exact values under that tableau
    as they are dealt (:class:`SimulationCheck`: significance ``alpha``, confidence ``level``). ``record(log)``
    is given each block's coups as a :class:`~exact_odds.witness.verify.CoupLog` (to write them, say). With
    ``keep`` every coup's code is kept in order (for roads); ``each(codes)`` is given each block's codes instead
    (for sessions). ``progress(done, total)`` is called after each block.
    """
    import numpy as np

    from exact_odds.witness.verify import Verifier  # numpy-backed: single-shoe commands never load it

    logs = reference is not None or record is not None
    detail = max([detail, *(b.detail for b in bets), *([Detail.RANKS] if logs else [])])
    target = _check_run(shoe, seed, coups, shoes, procedure, detail)
    if not 0 < level < 1:
        raise SimulationError(f"the confidence level must lie strictly between 0 and 1, got {level}")
    job = target * len(shoe_card_codes(shoe)) // CARDS_PER_COUP if shoes is not None else target
    verifier = None if reference is None else Verifier(
        shoe, reference, alpha=alpha, expect=bets, source="the coups dealt", job=job,
        procedure=None if procedure.fresh else procedure)  # fresh shoes' coups show no procedure
    trackers = [_BetTracker(b) for b in bets]
    watchers = [*(t.add for t in trackers), *([each] if each is not None else [])]
    blocks = (_fresh_blocks(shoe, seed, target, tableau, detail, logs=logs) if procedure.fresh else
              _shoe_blocks(shoe, seed, target, count_shoes=shoes is not None, tableau=tableau, procedure=procedure,
                           detail=detail, logs=logs))
    counts = np.zeros(COUP_CODES, dtype=np.int64)
    kept: list[NDArray[np.int16]] = []
    kept_shoes: list[NDArray[np.int32]] = []
    shoes_done = 0
    for block in blocks:
        shoes_done += block.shoes
        counts += np.bincount(block.codes, minlength=COUP_CODES)
        for watch in watchers:  # the bets' trackers, then ``each``
            watch(block.codes)
        if block.log is not None:
            if verifier is not None:
                verifier.add(block.log)
            if record is not None:
                record(block.log)
        if keep:
            kept.append(block.codes)
            kept_shoes += [block.shoe_of] if block.shoe_of is not None else []
        if progress is not None:
            progress(block.done, target)
    table = coup_table()
    dist = Dist({table[c]: int(k) for c, k in enumerate(counts) if k})
    results = tuple(t.result(counts) for t in trackers)
    check = None
    if verifier is not None:
        found = verifier.result()
        note = ("exact, full shoe" if found.mode == "fresh" else
                "exact given the cards seen before each coup in its shoe, averaged")
        check = SimulationCheck(found, tuple(PlayerEvCheck(r.bet.name, float(r.mean()), *r.interval(level),
                                                           found.player_ev[r.bet.name], note) for r in results), level)
    return Simulation(
        shoe=shoe, seed=seed, tableau=tableau.name, procedure=procedure, detail=detail, coups=dist,
        shoes=shoes_done, bets=results, check=check, sequence=np.concatenate(kept) if keep else None,
        shoe_of=np.concatenate(kept_shoes) if keep and kept_shoes else None,
    )


@dataclass(frozen=True, slots=True)
class SimulatedSessions:
    """``sessions`` flat bettors of ``hands`` hands each, on consecutive coups; ``tally``: their net results in
    units times ``scale``, and with a ``bankroll`` those ruined."""

    bet: Bet
    hands: int
    scale: int
    tally: SessionTally
    bankroll: Fraction | None
    simulation: Simulation

    @property
    def sessions(self) -> int:
        """Number of sessions."""
        return self.tally.sessions


def simulate_sessions(shoe: Shoe, bet: Bet, *, hands: int, sessions: int, seed: int,
                      bankroll: Fraction | None = None, tableau: Tableau = STANDARD_TABLEAU,
                      procedure: Procedure = STANDARD_PROCEDURE, progress: Progress | None = None) -> SimulatedSessions:
    """``sessions`` sessions of ``hands`` consecutive coups, each betting one unit on ``bet`` every hand; with
    ``bankroll`` (units), a session is ruined when its bankroll falls below one unit (it could not stake again)."""
    if hands < 1 or sessions < 1:
        raise SimulationError("the numbers of hands and of sessions must be at least 1")
    if bankroll is not None and bankroll < 1:
        raise SimulationError(f"the bankroll must be at least one unit (one stake), got {bankroll}")
    lut, scale = payout_lookup(bet, bet.detail)
    # bankroll + path / scale < 1, i.e. path < (1 - bankroll) * scale, for integer paths.
    tally = SessionTally(hands, None if bankroll is None else math.ceil((1 - bankroll) * scale))
    sim = simulate(shoe, seed=seed, coups=hands * sessions, tableau=tableau, procedure=procedure,
                   detail=bet.detail, progress=progress, each=lambda codes: tally.add(lut[codes]))
    assert tally.sessions == sessions and not tally.pending
    return SimulatedSessions(bet, hands, scale, tally, bankroll, sim)


class SessionTally:
    """The simulated sessions' net results, summed as the coups are dealt (memory does not grow with the sessions).

    Each session is ``hands`` consecutive coups; :meth:`add` takes the bet's scaled payouts of the next coups, in
    order. ``counts`` maps a net result (scaled) to its sessions; with ``floor``, a session whose running result
    falls below it is counted as ruined.

    >>> tally = SessionTally(2)
    >>> tally.add([1, -1, 1, 1])
    >>> tally.sessions, sorted(tally.counts.items())
    (2, [(0, 1), (2, 1)])
    """

    def __init__(self, hands: int, floor: int | None = None) -> None:
        if hands < 1:
            raise SessionError(f"the number of hands must be at least 1, got {hands}")
        self.hands, self.floor = hands, floor
        self.counts: Counter[int] = Counter()
        self.sessions = 0
        self.ruined = 0
        self._done = self._net = self._low = 0  # the session under way: hands played, result, lowest result

    def add(self, paid: NDArray[Any]) -> None:
        """The payouts (scaled integers) of the next coups, in the order they were dealt."""
        import numpy as np

        paid = np.asarray(paid, dtype=np.int64)
        if self._done and len(paid):  # finish the session under way
            path = self._net + paid[:self.hands - self._done].cumsum()
            self._low = min(self._low, int(path.min()))
            self._net, self._done, paid = int(path[-1]), self._done + len(path), paid[len(path):]
            if self._done == self.hands:
                self._count(np.array([self._net]), np.array([self._low]))
                self._done = 0
        whole = len(paid) // self.hands
        step = max(1, (1 << 22) // self.hands)
        for first in range(0, whole, step):  # whole sessions, a few million payouts at a time
            rows = min(step, whole - first)
            path = paid[first * self.hands:(first + rows) * self.hands].reshape(rows, self.hands).cumsum(axis=1)
            self._count(path[:, -1], path.min(axis=1))
        rest = paid[whole * self.hands:]
        if len(rest):  # a session begun
            path = rest.cumsum()
            self._done, self._net, self._low = len(rest), int(path[-1]), int(path.min())

    def _count(self, nets: NDArray[np.int64], lows: NDArray[np.int64]) -> None:
        import numpy as np

        values, found = np.unique(nets, return_counts=True)
        self.counts.update(dict(zip(values.tolist(), found.tolist(), strict=True)))
        self.sessions += len(nets)
        if self.floor is not None:
            self.ruined += int((lows < self.floor).sum())

    @property
    def pending(self) -> int:
        """Hands of a session begun but not finished (0 once every session dealt is counted)."""
        return self._done

    def items(self) -> list[tuple[int, int]]:
        """(net result, scaled; sessions) in increasing order of the result."""
        return sorted(self.counts.items())

    def total(self) -> int:
        """The sum of the sessions' net results (scaled)."""
        return sum(value * n for value, n in self.counts.items())

    def variance(self) -> Fraction:
        """The sample variance of the net results (scaled, denominator ``sessions - 1``), exactly."""
        m = self.sessions
        if m < 2:
            return Fraction(0)
        squares = sum(value * value * n for value, n in self.counts.items())
        return Fraction(squares * m - self.total() ** 2, m * (m - 1))

    def hits(self, event: Callable[[int], bool]) -> int:
        """Sessions whose net result satisfies ``event``."""
        return sum(n for value, n in self.counts.items() if event(value))

    def order_statistic(self, k: int) -> int:
        """The ``k``-th smallest net result (scaled; ``k`` from 0)."""
        seen = 0
        for value, n in self.items():
            seen += n
            if seen > k:
                return value
        raise IndexError(f"no net result {k} of {self.sessions}")


FigureKind = Literal["mean", "sd", "ahead", "even", "behind", "quantile", "ruin"]
"""What a :class:`Figure` measures: the net result's mean and sd, P(net > 0), P(net = 0), P(net < 0), a quantile
of the net result, P(ruin)."""

QUANTILES: tuple[Fraction, ...] = (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(19, 20))
"""The quantiles of the net result that :func:`compare_sessions` compares."""

_SIDES: tuple[tuple[FigureKind, Callable[[Any], Any]], ...] = (
    ("ahead", lambda net: net > 0), ("even", lambda net: net == 0), ("behind", lambda net: net < 0))


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of a flat bettor's session, exact (a :class:`Fraction`, but ``sd`` a float) and ``simulated``
    (``None`` without); ``z``: (simulated - exact) / standard error, where defined; ``q``: a quantile's level."""

    kind: FigureKind
    exact: Fraction | float
    simulated: Fraction | float | None = None
    z: float | None = None
    q: Fraction | None = None

    @property
    def is_probability(self) -> bool:
        """Whether the figure is a probability (else it is in units)."""
        return self.kind in ("ahead", "even", "behind", "ruin")


@dataclass(frozen=True, slots=True)
class SessionComparison:
    """The exact session figures beside the simulated ones; ``figures``: mean, sd, ahead, even, behind, the
    :data:`QUANTILES`, then ruin when ``ruin`` is given."""

    one: OneHand
    exact: SessionDist
    ruin: Ruin | None
    simulated: SimulatedSessions | None
    figures: tuple[Figure, ...]


def share_z(hits: int, sessions: int, p: Fraction) -> float | None:
    """z-score of ``hits`` out of ``sessions`` against the exact probability ``p`` (``None`` when degenerate).

    >>> round(share_z(60, 100, Fraction(1, 2)), 6)
    2.0
    """
    pf = float(p)
    if sessions == 0 or pf <= 0 or pf >= 1:
        return None
    return float((hits / sessions - pf) / (pf * (1 - pf) / sessions) ** 0.5)


def _share(kind: FigureKind, p: Fraction, hits: int | None, sessions: int) -> Figure:
    if hits is None:
        return Figure(kind, p)
    return Figure(kind, p, Fraction(hits, sessions), share_z(hits, sessions, p))


def _mean(exact: SessionDist, sd: float, tally: SessionTally | None, scale: int) -> Figure:
    if tally is None:
        return Figure("mean", exact.mean())
    m = tally.sessions
    simulated = Fraction(tally.total(), m * scale)
    z = (float(simulated) - float(exact.mean())) / (sd / math.sqrt(m)) if sd > 0 else None
    return Figure("mean", exact.mean(), simulated, z)


def compare_sessions(one: OneHand, exact: SessionDist, ruin: Ruin | None = None,
                     simulated: SimulatedSessions | None = None) -> SessionComparison:
    """The exact figures of a session (and of ruin) beside those of the simulated sessions.

    >>> from exact_odds.analysis.sessions import one_hand, session_distribution
    >>> from exact_odds.bets import find_bet
    >>> from exact_odds.core.shoe import Shoe
    >>> one = one_hand(Shoe.infinite_deck(), find_bet("player"))
    >>> mean, sd, ahead, even, behind, q5, *_ = compare_sessions(one, session_distribution(one, 2)).figures
    >>> mean.exact == 2 * one.mean(), q5.q, q5.exact, mean.simulated is None
    (True, Fraction(1, 20), Fraction(-2, 1), True)
    """
    tally = simulated.tally if simulated is not None else None
    m = tally.sessions if tally is not None else 0
    scale = simulated.scale if simulated is not None else 1
    sd = math.sqrt(exact.variance())
    spread = math.sqrt(tally.variance() / scale**2) if tally is not None and m > 1 else None
    figures = [_mean(exact, sd, tally, scale), Figure("sd", sd, spread)]
    for kind, test in _SIDES:
        figures.append(_share(kind, exact.probability(test), None if tally is None else tally.hits(test), m))
    for q in QUANTILES:
        value = Fraction(tally.order_statistic(max(0, math.ceil(q * m) - 1)), scale) if tally is not None else None
        figures.append(Figure("quantile", exact.quantile(q), value, q=q))
    if ruin is not None:
        figures.append(_share("ruin", ruin.probability, None if tally is None else tally.ruined, m))
    return SessionComparison(one, exact, ruin, simulated, tuple(figures))
