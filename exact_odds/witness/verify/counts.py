"""Verify totals only: banker/player/tie (and pair) counts of a simulation that kept nothing else.

**Fresh shoes** (the default): the counts are multinomial with the full shoe's exact probabilities.
**Whole shoes** (``shoes=M`` and a dealing ``procedure``): the per-coup rates ``pi`` differ slightly
(the cut-card effect) and are *estimated* from ``K`` shoes dealt with a seed, as the mean over their
coups of the exact conditional probabilities; ``d = X - n pi`` then has covariance
``M V + n^2 Cov(pi_hat)`` (``V``: one shoe's, estimated from the same shoes), so the test stays valid
for any ``K``. Counts no deal could give are refused (:class:`CountsError`): a pair count above the
coups, or a total that ``M`` shoes cannot deal (:func:`coups_per_shoe`).

>>> result = verify_counts(parse_counts("banker=4586,player=4462,tie=952"))
>>> result.check("outcomes").verdict, result.coups
('PASS', 10000)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from exact_odds.batch import evaluate
from exact_odds.core.coup import BANKER_PAIR, OUTCOMES, PLAYER_PAIR, Detail, winner_index
from exact_odds.core.shoe import CARDS_PER_COUP, MIN_CARDS_PER_COUP, RANKS, Card, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.core.verdict import Check, IndicatorSum, judge, statistical_check
from exact_odds.dealing.dealer import compiled_dealer, play_shoes
from exact_odds.dealing.procedure import card_code, shoe_card_codes
from exact_odds.dealing.shuffle import batch_end, shoe_orders
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import OBSERVED
from exact_odds.witness.verify.core import LogVerification
from exact_odds.witness.verify.odds import full_shoe_odds, pair_odds

if TYPE_CHECKING:
    from exact_odds.dealing.procedure import Procedure

COUNT_NAMES = ("banker", "player", "tie", "player-pair", "banker-pair")
"""The counts ``--counts`` takes: the three outcomes (required) and the two pairs (optional)."""
REFERENCE_SHOES = (4000, 16000)
"""Shoes dealt by default to estimate whole-shoe rates: as many as the counts' shoes, within these bounds
(about a second per 4,000 shoes of 8 decks)."""
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
        key = re.sub(r"[\s_]+", "-", name.strip().lower())
        key = short.get(key, key)
        if not eq or key not in COUNT_NAMES:
            raise CountsError(f"count {part!r} should be NAME=N with NAME one of {', '.join(COUNT_NAMES)}")
        if key in out:
            raise CountsError(f"count {key!r} is given twice")
        out[key] = OBSERVED.parse(value, f"count {key!r}", CountsError)  # ASCII digits, 0 to 10**15
    check_counts(out)
    return out


def check_counts(counts: Mapping[str, int]) -> int:
    """The coups that ``counts`` add up to (banker + player + tie), if some coups could give them (the three
    outcomes given, whole numbers at least 0, a pair count at most the coups), else :class:`CountsError`.

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
    """The fewest and the most coups one whole ``shoe`` can deal by ``procedure``, for any order of the cards
    (a coup uses 4 to 6 cards; the burn 1 + the value of the turned card).

    >>> from exact_odds.dealing.procedure import Procedure
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
    """Per-coup rates of banker, player, tie, player pair and banker pair over whole shoes, estimated from
    ``shoes`` shoes: ``rates`` (5,), their covariance (5, 5), and ``spread``, the covariance of one shoe's
    counts less its coups times the rates."""

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


def _counts_check(name: str, counts: Mapping[str, int], members: Sequence[str], expected: NDArray[np.float64],
                  moments: NDArray[np.float64], outer: NDArray[np.float64], notes: list[str]) -> Check:
    n = sum(counts[k] for k in OUTCOMES)
    acc = IndicatorSum([k.replace("-", " ") for k in members])
    acc.add_sums(n, np.array([counts[k] for k in members]), expected, moments, outer)
    return statistical_check(name, n, [acc.test(", ".join(acc.names))], acc.tallies(), notes)


def _fresh(counts: Mapping[str, int], shoe: Shoe, tableau: Tableau) -> list[Check]:
    n = sum(counts[k] for k in OUTCOMES)
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
    return [_counts_check(name, counts, members, n * rates, n * moments, n * np.outer(rates, rates), [note])
            for name, members, rates, moments in laws]


def _whole(counts: Mapping[str, int], shoes: int, rates: ShoeRates) -> list[Check]:
    n = sum(counts[k] for k in OUTCOMES)
    checks = []
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
        checks.append(_counts_check(name, counts, members, n * rates.rates[j], moments, np.zeros((len(j), len(j))),
                                    notes))
    return checks


def verify_counts(counts: Mapping[str, int], shoe: Shoe | None = None, tableau: Tableau = STANDARD_TABLEAU, *,
                  alpha: float = 0.001, shoes: int | None = None, procedure: Procedure | None = None,
                  seed: int = 0, reference_shoes: int | None = None) -> LogVerification:
    """Check outcome (and pair) counts against fresh-shoe odds, or over ``shoes`` whole shoes dealt by
    ``procedure`` (cut card, burn, last coup) with rates estimated from ``reference_shoes`` shoes dealt
    with ``seed`` (default: as many as ``shoes``, within :data:`REFERENCE_SHOES`)."""
    shoe = Shoe.decks(8) if shoe is None else shoe
    if not 0 < alpha < 1:
        raise CountsError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    n = check_counts(counts)
    if shoes is None:
        checks, mode = _fresh(counts, shoe, tableau), "counts"
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
        checks, mode = _whole(counts, shoes, rates), "counts over whole shoes"
    return LogVerification("counts", mode, shoe, tableau, alpha, n, shoes, judge(checks, alpha))
