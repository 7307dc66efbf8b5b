"""Verify a log of coups that any program dealt: :func:`verify_log`.

The hypothesis under test: *the log's coups were dealt by the tableau from well-shuffled shoes of the given
composition, and its labels say what its cards show* (docs/checking.md). Deterministic checks coup by coup
(:mod:`~exact_odds.witness.verify.checks`), statistical ones against the exact conditional odds
(:mod:`~exact_odds.witness.verify.odds`), each judged at ``alpha / 3``. :func:`verify_counts` checks totals only.

>>> from exact_odds.core.shoe import Shoe
>>> rows = [{"player": "9h 4c 2d", "banker": "Kd 3s 3c", "winner": "banker"},
...         {"player": "7s 7d", "banker": "8c Qh", "winner": "banker", "player_pair": "yes"}]
>>> result = verify_log(rows, Shoe.decks(8))
>>> result.check("rules").verdict, result.check("labels").verdict, result.verdict
('PASS', 'PASS', 'PASS')
>>> bad = verify_log([{"player": "2h 5c", "banker": "Kd 6s 9c"}], Shoe.decks(8))
>>> bad.check("rules").violations[0].message
'coup 1: banker 6 drew after the player stood; the table says stand (when the player stands, the banker draws on 0-5)'
"""

from __future__ import annotations

import itertools
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from exact_odds.batch import evaluate
from exact_odds.batch.compiled import KERNEL, load, wanted
from exact_odds.core.coup import BANKER_PAIR, OUTCOMES, PLAYER_PAIR, Detail, Payable, winner_index
from exact_odds.core.notebook import Approx, html_table
from exact_odds.core.shoe import CARDS_PER_COUP, MIN_CARDS_PER_COUP, RANKS, Card, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.core.verdict import IndicatorSum, deterministic_check, judge, named_check, overall, statistical_check
from exact_odds.dealing.dealer import compiled_dealer, play_shoes
from exact_odds.dealing.procedure import Procedure, card_code, shoe_card_codes
from exact_odds.dealing.shuffle import batch_end, shoe_orders
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import STDIN, user_lines
from exact_odds.inputs.registry import name_key
from exact_odds.inputs.validate import OBSERVED
from exact_odds.witness.verify import checks
from exact_odds.witness.verify.log import CoupLog, ShoeOrder, compositions, shoe_order, suit_compositions
from exact_odds.witness.verify.odds import CardTally, OutcomeTally, full_shoe_odds, pair_odds
from exact_odds.witness.verify.read import Interleaved, LogError, read_blocks, read_log, rows_log

if TYPE_CHECKING:
    from exact_odds.bets.main import Configuration
    from exact_odds.core.verdict import Check, Verdict, Violation

MAX_VIOLATIONS = 10
"""Violations kept in full per check by default."""


class VerifyError(InputError):
    """A verification that cannot be made as asked (e.g. shoes from an infinite deck)."""


@dataclass(frozen=True, slots=True)
class LogVerification:
    """The result of :func:`verify_log` (or :func:`~exact_odds.witness.verify.core.verify_counts`).

    ``mode``: ``"shoes"`` (a shoe column), ``"fresh"``, ``"counts"`` or ``"counts over whole shoes"``;
    ``ignored``: the log's columns it did not know; ``procedure``: the one the shoes were held to (``None``:
    unchecked, ``notes`` say why). ``player_ev``: each bet to ``expect``'s exact player EV over the outcomes
    check's coups: a ``Fraction`` when they all had one composition, else the mean of the floats.
    """

    source: str
    mode: str
    shoe: Shoe
    tableau: Tableau
    alpha: float
    coups: int
    shoes: int | None
    checks: tuple[Check, ...]
    columns: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    player_ev: dict[str, Fraction | float] = field(default_factory=dict)
    procedure: Procedure | None = None

    @property
    def verdict(self) -> Verdict:
        """``FAIL`` if any check failed, else ``PASS``."""
        return overall(self.checks)

    def check(self, name: str) -> Check:
        """The check called ``name`` (``rules``, ``labels``, ``accounting``, ``outcomes``, ``pairs``, ``cards``)."""
        return named_check(self.checks, name)

    def _repr_html_(self) -> str:
        rows = [[c.name, c.verdict, c.checked, c.unit, c.violation_count, None if c.p_value is None else
                 Approx(c.p_value)] for c in self.checks]
        where = f"{self.coups:,} coups" + ("" if self.shoes is None else f" in {self.shoes:,} shoes")
        return html_table(["check", "verdict", "checked", "of", "violations", "p-value"], rows,
                          caption=f"{self.source}: {where}, {self.tableau.name} tableau, {self.shoe}: {self.verdict}",
                          notes=[f"A statistical check fails when its p-value is below {self.alpha:g}."])


def verify_log(rows: CoupLog | Iterable[Mapping[str, object]], shoe: Shoe | None = None,
               tableau: Tableau = STANDARD_TABLEAU, *, alpha: float = 0.001, max_violations: int = MAX_VIOLATIONS,
               bets: Sequence[Payable] = (), config: Configuration | None = None, expect: Sequence[Payable] = (),
               source: str = "log", procedure: Procedure | None = None) -> LogVerification:
    """Check a log of coups against ``tableau`` and the exact odds of ``shoe`` (default 8 decks).

    ``rows``: a :class:`~exact_odds.witness.verify.log.CoupLog`, or rows in memory with the keys of the file
    format. ``alpha``: the verdict's significance level; ``max_violations``: kept in full per check (all are
    counted). ``net:<bet>`` labels are looked up in ``config``, then ``bets``, then the built-in bets.
    ``expect``: bets whose exact player EV the result gives; ``procedure``: the one the shoes are held to.
    """
    verifier = Verifier(shoe, tableau, alpha=alpha, max_violations=max_violations, bets=bets, config=config,
                        expect=expect, source=source, procedure=procedure)
    verifier.add(rows)
    return verifier.result()


def verify_file(path: str | Path, shoe: Shoe | None = None, tableau: Tableau = STANDARD_TABLEAU, *,
                alpha: float = 0.001, max_violations: int = MAX_VIOLATIONS, bets: Sequence[Payable] = (),
                config: Configuration | None = None, expect: Sequence[Payable] = (),
                procedure: Procedure | None = None) -> LogVerification:
    """:func:`verify_log` of the log file at ``path`` (``"-"``: standard input), read and checked a block of
    whole shoes at a time, with the same result; a log whose shoes are interleaved is read whole."""
    stdin = str(path) == STDIN
    source = "standard input" if stdin else str(path)
    try:
        job = 0 if stdin else os.stat(path).st_size // BYTES_PER_COUP
    except OSError:
        job = 0
    check = partial(Verifier, shoe, tableau, alpha=alpha, max_violations=max_violations, bets=bets, config=config,
                    expect=expect, source=source, procedure=procedure, job=job)
    lines = user_lines(path, "log", LogError, newline="")
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogateescape", newline="") as copy:
        verifier = check(one_log=True)
        try:
            for block in read_blocks(_copied(lines, copy) if stdin else lines, source=source):
                verifier.add(block)
        except Interleaved:
            copy.seek(0)
            whole = itertools.chain(copy, lines) if stdin else user_lines(path, "log", LogError, newline="")
            verifier = check(one_log=False)
            verifier.add(read_log(whole, source=source))
        return verifier.result()


BYTES_PER_COUP = 100
"""About the bytes of one coup's line: a file's size over this says, from its first block, if the kernel compiles."""


def _copied(lines: Iterator[str], copy: IO[str]) -> Iterator[str]:
    for line in lines:
        copy.write(line)
        yield line


KERNEL_ROWS = 1 << 18
"""Coups whose exact odds the compiled kernel evaluates in one call, at least (NumPy's takes a block at a time)."""


@dataclass(frozen=True, slots=True)
class _Part:
    """Coups ``start:stop`` in shoe order as :func:`~exact_odds.witness.verify.log.compositions` yields them,
    their indices in the log, and their counts by rank and suit when bets look at suits."""

    start: int
    stop: int
    left: NDArray[np.int64]
    dealt: NDArray[np.int64]
    size: NDArray[np.int64]
    idx: NDArray[np.int64]
    suits: NDArray[np.int64] | None


DETERMINISTIC = (("rules", "coups"), ("labels", "labels"), ("accounting", "cards"), ("procedure", "shoes"))
"""The deterministic checks and what they count, in the order of the report."""


class Verifier:
    """:func:`verify_log`, a block of whole shoes at a time (:meth:`add`, then :meth:`result`).

    ``one_log``: the blocks are one log's coups in order, cut for the statistics where :func:`verify_log` cuts
    the log read whole (the same result to the last digit). ``job``: the coups to come, if known (a large job
    compiles from its first block).
    """

    def __init__(self, shoe: Shoe | None = None, tableau: Tableau = STANDARD_TABLEAU, *, alpha: float = 0.001,
                 max_violations: int = MAX_VIOLATIONS, bets: Sequence[Payable] = (),
                 config: Configuration | None = None, expect: Sequence[Payable] = (), source: str = "log",
                 procedure: Procedure | None = None, one_log: bool = False, job: int = 0) -> None:
        if not 0 < alpha < 1:
            raise VerifyError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
        if max_violations < 0:
            raise VerifyError(f"max_violations must be at least 0, got {max_violations}")
        self.shoe = Shoe.decks(8) if shoe is None else shoe
        self.tableau, self.alpha, self.keep, self.source, self.job = tableau, alpha, max_violations, source, job
        self.find_bet = checks.bet_finder(bets, config=config)
        self.suited_bets = any(b.detail is Detail.SUITS for b in expect)
        self.outcomes, self.cards = OutcomeTally(self.shoe, tableau, expect), CardTally(self.shoe)
        self.found: dict[str, Check] = {}
        self.coups, self.names = 0, set[str]()  # coups so far, the names of their shoes
        self.with_shoes: bool | None = None
        self.columns: tuple[str, ...] = ()
        self.ignored: tuple[str, ...] = ()
        self.procedure, self.one_log = procedure, one_log
        self.unchecked: str | None = None  # why the procedure is not checked (set by the first block)
        self.stopped: Violation | None = None  # the latest block's last shoe stopped before its end

    def add(self, rows: CoupLog | Iterable[Mapping[str, object]]) -> None:
        """Check the next block of the log (a :class:`CoupLog`, or rows as :func:`verify_log` takes them)."""
        log = rows if isinstance(rows, CoupLog) else rows_log(rows)
        self._begin(log)
        shoes = shoe_order(log, first_number=self.coups + 1)
        hands = checks.hands_of(log)
        accounting, usable = checks.accounting_check(log, shoes, self.shoe, keep=self.keep)
        for check in (checks.rules_check(log, hands, shoes, self.tableau, keep=self.keep),
                      checks.label_check(log, hands, shoes, self.tableau, self.find_bet, keep=self.keep), accounting):
            self._merge(check, self.coups)
        self._check_procedure(log, shoes)
        self._statistics(log, hands, shoes, usable)
        self.coups += len(log)

    def result(self) -> LogVerification:
        """The verification of every block added so far."""
        checked = self.procedure is not None and self.unchecked is None
        found = tuple(self.found.get(name) or deterministic_check(name, 0, [], 0, unit=unit)
                      for name, unit in DETERMINISTIC if checked or name != "procedure")
        left_out = self.outcomes.left_out_note(self.coups, shoes=bool(self.with_shoes))
        every = (*found, *self.outcomes.checks(shoes=bool(self.with_shoes)), self.cards.check(left_out))
        return LogVerification(self.source, "shoes" if self.with_shoes else "fresh", self.shoe, self.tableau,
                               self.alpha, self.coups, len(self.names) if self.with_shoes else None,
                               judge(every, self.alpha), self.columns, self.ignored,
                               (*([] if left_out is None else [left_out]), *self._procedure_notes()),
                               player_ev=self.outcomes.player_ev(), procedure=self.procedure if checked else None)

    def _procedure_notes(self) -> tuple[str, ...]:
        """Why the procedure was not checked, or that the log stops in the middle of its last shoe."""
        if self.procedure is not None and self.unchecked is not None:
            return (f"The dealing procedure is not checked: {self.unchecked}.",)
        if self.stopped is not None and self.stopped.shoe is not None:
            return (f"Shoe {self.stopped.shoe}, the log's last, stops before its last coup by the procedure "
                    "(a log may stop in the middle of a shoe).",)
        return ()

    def _check_procedure(self, log: CoupLog, shoes: ShoeOrder) -> None:
        if self.procedure is None or self.unchecked is not None:
            return
        if self.stopped is not None:  # the shoe the block before stopped in was not the log's last
            self._merge(deterministic_check("procedure", 0, (self.stopped,), 1, unit="shoes"), 0)
            self.stopped = None
        found = checks.procedure_check(log, shoes, self.procedure, self.shoe.size, keep=self.keep)
        self._merge(found.check, self.coups)
        if found.open is not None:
            self.stopped = replace(found.open, index=found.open.index + self.coups)

    def _begin(self, log: CoupLog) -> None:
        """Refuse a block that cannot go on from the blocks before it; count its shoes."""
        if self.shoe.infinite and log.shoe is not None:
            raise VerifyError("an infinite deck is never depleted, so it has no shoes: drop the shoe column "
                              "or give a finite shoe (e.g. --decks 8)")
        if self.with_shoes is None:
            self.with_shoes = log.shoe is not None
            self.unchecked = checks.why_unchecked(log, self.procedure)
            if self.procedure is not None and self.unchecked is None:
                self.procedure.check(self.shoe)
        elif self.with_shoes != (log.shoe is not None):
            raise VerifyError("the blocks of one log must all have a shoe column, or none")
        self.columns, self.ignored = log.columns, log.ignored  # a JSON line may add columns: the latest has all
        if log.shoe is not None:
            names = set(log.shoe_names)
            again = names & self.names
            if again:
                raise VerifyError(f"shoe {min(again)} goes on from an earlier block: give each block whole shoes")
            self.names |= names

    def _merge(self, check: Check, shift: int) -> None:
        """Add a block's deterministic check to the checks so far, its violations' indices moved on by ``shift``."""
        before = self.found.get(check.name) or deterministic_check(check.name, 0, (), 0, unit=check.unit)
        moved = tuple(replace(v, index=v.index + shift) for v in check.violations)
        self.found[check.name] = deterministic_check(
            check.name, before.checked + check.checked, (*before.violations, *moved)[: self.keep],
            before.violation_count + check.violation_count, tuple(dict.fromkeys((*before.notes, *check.notes))),
            unit=check.unit)

    def _statistics(self, log: CoupLog, hands: checks.Hands, shoes: ShoeOrder, usable: NDArray[np.bool_]) -> None:
        """Add the block to the statistical sums, in one pass over the compositions (``usable``: in log order, the
        coups whose shoes' cards add up)."""
        jit = wanted(max(len(log), self.job)) and load(KERNEL) is not None
        gather = KERNEL_ROWS if jit else 0  # NumPy's kernel: a block at a time
        suits, offset = self._suits(log, shoes), self.coups if self.one_log else 0  # cut as one log read whole
        pending: list[_Part] = []
        for start, stop, left, dealt, size in compositions(log, shoes, self.shoe.counts, offset=offset,
                                                           deplete=not self.shoe.infinite):
            by_suit = None
            if self.suited_bets and not self.shoe.infinite:
                by_suit = next(suits) if suits is not None else np.broadcast_to(
                    np.asarray(self.shoe.suited, dtype=np.int64), (stop - start, 13, 4))
            pending.append(_Part(start, stop, left, dealt, size, shoes.order[start:stop], by_suit))
            if by_suit is not None or sum(len(p.left) for p in pending) >= gather:
                self._add_parts(log, hands, shoes, usable, pending, jit)
                pending = []
        self._add_parts(log, hands, shoes, usable, pending, jit)

    def _add_parts(self, log: CoupLog, hands: checks.Hands, shoes: ShoeOrder, usable: NDArray[np.bool_],
                   parts: list[_Part], jit: bool) -> None:
        plain = [p for p in parts if p.suits is None]
        blocks = [(p.left, usable[p.idx], p.size) for p in plain]
        found = dict(zip(map(id, plain), self.outcomes.block_odds(blocks, jit), strict=True))
        for p in parts:
            ok = usable[p.idx]
            self.outcomes.add(hands, p.left, p.idx, ok, p.suits, p.size, odds=found.get(id(p)))
            self.cards.add(log, p.idx, shoes.first[p.start:p.stop], p.left, p.dealt, ok, p.size)

    def _suits(self, log: CoupLog, shoes: ShoeOrder) -> Iterator[NDArray[np.int64]] | None:
        """The counts by rank and suit before each coup of a log with shoes, for bets that look at suits."""
        if not self.suited_bets or self.shoe.infinite:
            return None
        if self.shoe.suited is None:
            raise VerifyError("a bet that looks at suits needs a shoe whose suits are known")
        if log.shoe is None:
            return None
        if not log.suited:
            raise VerifyError("a bet that looks at suits needs the suit of every card of a log with shoes")
        return suit_compositions(log, shoes, self.shoe.suited, offset=self.coups if self.one_log else 0)


COUNT_NAMES = ("banker", "player", "tie", "player-pair", "banker-pair")
"""The counts ``--counts`` takes: the three outcomes (required) and the two pairs (optional)."""
REFERENCE_SHOES = (4000, 16000)
"""Shoes dealt by default to estimate whole-shoe rates: as many as the counts' shoes, within these bounds."""
_CHUNK = 500


class CountsError(InputError):
    """Counts that cannot be read or used; the message says which."""


def parse_counts(text: str) -> dict[str, int]:
    """Counts from ``"banker=N,player=N,tie=N[,player-pair=N,banker-pair=N]"`` (names in any case;
    ``_`` or a space for ``-``; ``B``/``P``/``T`` for the outcomes).

    >>> parse_counts("B=45, player=44, Tie=11, player_pair=9")
    {'banker': 45, 'player': 44, 'tie': 11, 'player-pair': 9}
    """
    short = {"b": "banker", "p": "player", "t": "tie"}
    out: dict[str, int] = {}
    for part in (p for p in re.split(r"[,\s]+", text.strip()) if p):
        name, eq, value = part.partition("=")
        key = short.get(name_key(name), name_key(name))
        if not eq or key not in COUNT_NAMES:
            raise CountsError(f"count {part!r} should be NAME=N with NAME one of {', '.join(COUNT_NAMES)}")
        if key in out:
            raise CountsError(f"count {key!r} is given twice")
        out[key] = OBSERVED.parse(value, f"count {key!r}", CountsError)  # ASCII digits, 0 to 10**15
    check_counts(out)
    return out


def check_counts(counts: Mapping[str, int]) -> int:
    """The coups that ``counts`` add up to (banker + player + tie), if some coups could give them, else
    :class:`CountsError`.

    >>> check_counts({"banker": 1, "player": 1, "tie": 1, "player-pair": 3})
    3
    """
    missing = [k for k in OUTCOMES if k not in counts]
    if missing:
        raise CountsError(f"counts need banker, player and tie; {missing[0]!r} is missing")
    for key in COUNT_NAMES:
        value = counts.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CountsError(f"count {key!r} must be a whole number at least 0, got {value!r}")
    n = sum(counts[k] for k in OUTCOMES)
    if n == 0:
        raise CountsError("counts of zero coups: nothing to verify")
    for key in COUNT_NAMES[3:]:
        if counts.get(key, 0) > n:
            raise CountsError(f"count {key!r} is {counts[key]:,}, more than the {_many(n, 'coup')} counted "
                              f"(banker + player + tie): a coup has at most one {key.replace('-', ' ')}")
    return n


def coups_per_shoe(shoe: Shoe, procedure: Procedure) -> tuple[int, int]:
    """The fewest and the most coups one whole ``shoe`` can deal by ``procedure``, for any order of its cards.

    >>> coups_per_shoe(Shoe.decks(8), Procedure())
    (66, 101)
    """
    burns = [procedure.burned(card_code(Card(rank))) for rank, n in zip(RANKS, shoe.counts, strict=True) if n]
    least, most = shoe.size - procedure.cut - max(burns), shoe.size - procedure.cut - min(burns)
    if procedure.last_coup == "one-more":  # coups starting before the cut card, and one more
        return -(-max(least, 0) // CARDS_PER_COUP) + 1, -(-max(most, 0) // MIN_CARDS_PER_COUP) + 1
    return max(least, 0) // CARDS_PER_COUP + 1, max(most, 0) // MIN_CARDS_PER_COUP + 1


def _check_shoes(coups: int, shoes: int, shoe: Shoe, procedure: Procedure) -> None:
    least, most = coups_per_shoe(shoe, procedure)
    if not shoes * least <= coups <= shoes * most:
        total = f", so {shoes:,} shoes deal {shoes * least:,} to {shoes * most:,}" if shoes > 1 else ""
        raise CountsError(f"counts of {_many(coups, 'coup')} cannot come from {_many(shoes, 'whole shoe')}: a shoe "
                          f"of {shoe.size:,} cards ({procedure.shoe_rules()}) deals {least:,} to {most:,} coups"
                          + total)


def _many(n: int, thing: str) -> str:
    return f"{n:,} {thing}" if n == 1 else f"{n:,} {thing}s"


@dataclass(frozen=True, slots=True)
class ShoeRates:
    """Per-coup rates of banker, player, tie and the two pairs over whole shoes, estimated from ``shoes`` shoes:
    ``rates`` (5,), their covariance, and ``spread``, that of one shoe's counts less its coups times the rates."""

    shoes: int
    seed: int
    coups_per_shoe: float
    rates: NDArray[np.float64]
    rate_covariance: NDArray[np.float64]
    spread: NDArray[np.float64]


def _shoe_sums(shoe: Shoe, tableau: Tableau, procedure: Procedure, seed: int, first: int, stop: int,
               loops: ModuleType | None) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Coups, summed exact rates and counts (5 each) per shoe, for shoes ``first`` to ``stop - 1``."""
    cards = shoe_orders(shoe_card_codes(shoe), seed, first, stop, loops=loops)
    play = play_shoes(cards, tableau, procedure, Detail.RANKS, compositions=True, loops=loops)
    left = play.left_ranks()
    codes = np.asarray(play.codes, dtype=np.int64)
    p, _ = pair_odds(left)
    rates = np.column_stack([evaluate(left, tableau=tableau).probabilities(), p, p])
    seen = np.column_stack([winner_index(codes)[:, None] == np.arange(3), codes // PLAYER_PAIR % 2,
                            codes // BANKER_PAIR % 2]).astype(np.float64)
    rows = stop - first

    def per_shoe(values: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.stack([np.bincount(play.shoe, weights=column, minlength=rows) for column in values.T],
                        axis=1).astype(np.float64)

    return np.asarray(np.bincount(play.shoe, minlength=rows), dtype=np.float64), per_shoe(rates), per_shoe(seen)


def shoe_rates(shoe: Shoe, tableau: Tableau, procedure: Procedure, *, shoes: int = REFERENCE_SHOES[0],
               seed: int = 0) -> ShoeRates:
    """Estimate the per-coup rates over whole shoes dealt by ``procedure``."""
    procedure.check(shoe)
    loops = compiled_dealer(shoes * shoe.size // CARDS_PER_COUP, shoes, shoe.size)
    bounds = [0]
    while bounds[-1] < shoes:  # _CHUNK shoes at a time, fewer of many cards
        bounds.append(batch_end(bounds[-1], min(shoes, bounds[-1] + _CHUNK), shoe.size))
    parts = [_shoe_sums(shoe, tableau, procedure, seed, a, b, loops) for a, b in pairwise(bounds)]
    coups, expected, observed = (np.concatenate(column) for column in zip(*parts, strict=True))
    rates = expected.sum(axis=0) / coups.sum()
    mean = coups.mean()
    residual = expected - coups[:, None] * rates
    rate_cov = np.cov(residual, rowvar=False) / (shoes * mean * mean)
    spread = np.cov(observed - coups[:, None] * rates, rowvar=False)
    return ShoeRates(shoes, seed, float(mean), rates, rate_cov, spread)


def _counts_check(name: str, counts: Mapping[str, int], n: int, members: Sequence[str],
                  expected: NDArray[np.float64], moments: NDArray[np.float64], outer: NDArray[np.float64],
                  notes: list[str]) -> Check:
    acc = IndicatorSum([k.replace("-", " ") for k in members])
    acc.add_sums(n, np.array([counts[k] for k in members]), expected, moments, outer)
    return statistical_check(name, n, [acc.test(", ".join(acc.names))], acc.tallies(), notes)


def _fresh(counts: Mapping[str, int], n: int, shoe: Shoe, tableau: Tableau) -> list[Check]:
    p = full_shoe_odds(shoe, tableau)
    laws: list[tuple[str, Sequence[str], NDArray[np.float64], NDArray[np.float64]]] = [
        ("outcomes", OUTCOMES, p, np.diag(p))]
    names = [k for k in COUNT_NAMES[3:] if k in counts]
    if names:
        single, both = pair_odds(np.array([shoe.counts]), infinite=shoe.infinite)
        q, b = float(single[0]), float(both[0])
        laws.append(("pairs", names, np.full(len(names), q),
                     np.full((len(names), len(names)), b) + np.eye(len(names)) * (q - b)))
    note = f"Expected: {n:,} coups, each from a fresh full shoe ({shoe}, tableau {tableau.name!r})."
    return [_counts_check(name, counts, n, members, n * rates, n * moments, n * np.outer(rates, rates), [note])
            for name, members, rates, moments in laws]


def _whole(counts: Mapping[str, int], n: int, shoes: int, rates: ShoeRates) -> list[Check]:
    found = []
    for name, members in (("outcomes", list(OUTCOMES)), ("pairs", [k for k in COUNT_NAMES[3:] if k in counts])):
        if not members:
            continue
        j = [COUNT_NAMES.index(k) for k in members]
        estimate = n * n * rates.rate_covariance[np.ix_(j, j)]
        moments = shoes * rates.spread[np.ix_(j, j)] + estimate
        ratio = max(float(np.sqrt(estimate[i, i] / moments[i, i])) for i in range(len(j)))
        notes = [f"Expected: {n:,} coups at per-coup rates estimated from {rates.shoes:,} whole shoes dealt with "
                 f"seed {rates.seed} ({rates.coups_per_shoe:.2f} coups a shoe), standard errors "
                 + ", ".join(f"{k} {np.sqrt(rates.rate_covariance[i, i]):.2e}" for k, i in zip(members, j,
                                                                                              strict=True))
                 + f"; the estimate's error is at most {ratio:.1%} of the test's standard deviation and is "
                 "included in the covariance."]
        found.append(_counts_check(name, counts, n, members, n * rates.rates[j], moments, np.zeros((len(j), len(j))),
                                   notes))
    return found


def verify_counts(counts: Mapping[str, int], shoe: Shoe | None = None, tableau: Tableau = STANDARD_TABLEAU, *,
                  alpha: float = 0.001, shoes: int | None = None, procedure: Procedure | None = None,
                  seed: int = 0, reference_shoes: int | None = None) -> LogVerification:
    """Check outcome (and pair) counts against fresh-shoe odds, or over ``shoes`` whole shoes dealt by
    ``procedure`` with rates estimated from ``reference_shoes`` shoes dealt with ``seed`` (the cut-card effect;
    the estimate's covariance enters the test; default: as many as ``shoes``, within :data:`REFERENCE_SHOES`).

    >>> result = verify_counts(parse_counts("banker=4586,player=4462,tie=952"))
    >>> result.check("outcomes").verdict, result.coups
    ('PASS', 10000)
    """
    shoe = Shoe.decks(8) if shoe is None else shoe
    if not 0 < alpha < 1:
        raise CountsError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    n = check_counts(counts)
    if shoes is None:
        found, mode = _fresh(counts, n, shoe, tableau), "counts"
    else:
        if procedure is None or procedure.fresh:
            raise CountsError("counts over whole shoes need a dealing procedure with a cut card")
        if reference_shoes is None:
            reference_shoes = min(max(REFERENCE_SHOES[0], shoes), REFERENCE_SHOES[1])
        if shoes < 1 or reference_shoes < 2:
            raise CountsError("give at least one shoe, and at least two reference shoes")
        procedure.check(shoe)
        _check_shoes(n, shoes, shoe, procedure)
        rates = shoe_rates(shoe, tableau, procedure, shoes=reference_shoes, seed=seed)
        found, mode = _whole(counts, n, shoes, rates), "counts over whole shoes"
    return LogVerification("counts", mode, shoe, tableau, alpha, n, shoes, judge(found, alpha))
