"""Bulk exact evaluation: the coup counts and bet expectations of many compositions at once.

The integers equal those of the reference enumerator :func:`exact_odds.engine.enumerator.deal`
(ordered six-card sequences, unused cards included); only the arithmetic is organised for speed.
Every outcome count is a fixed non-negative integer combination of monomials, products of falling
factorials of the counts of each kind of card: ``ways[coup] = sum_S C[S, coup] * monomial_S``.

The modules, bottom up: :mod:`~exact_odds.batch.coefficients` (kinds, parts, the table ``C``, suited
variants, factor tables), :mod:`~exact_odds.batch.plan` (functionals in dense blocks, the NumPy kernel,
the way each shoe takes), :mod:`~exact_odds.batch.fused` and :mod:`~exact_odds.batch.loops` (the
compiled path, when numba is installed: :mod:`~exact_odds.batch.compiled`), :mod:`~exact_odds.batch.basis`
(few functionals spanning many bets), :mod:`~exact_odds.batch.evaluation` (:func:`evaluate`,
:func:`distributions`) and :mod:`~exact_odds.batch.io` (:func:`parse_compositions`).

Exactness: float64 where every quantity is provably below ``2**53`` (shoes of at most 456 cards, sums
checked), int64 where the sums fit (up to 1,448 cards), Python integers beyond; ``EXACT_ODDS_JIT``
forces the compiled loops on or off. Each composition's ways are checked to add up to
``N (N-1) ... (N-5)``.

>>> ev = evaluate([[32] * 13])
>>> ev.outcomes[0].tolist(), ev.sequences.tolist()[0]
([2292252566437888, 2230518282592256, 475627426473216], 4998398275503360)
"""

from exact_odds.batch.coefficients import INT64_MAX_CARDS
from exact_odds.batch.evaluation import Evaluation, distributions, evaluate, evaluate_shoes
from exact_odds.batch.io import CompositionError, parse_compositions
from exact_odds.batch.plan import CHUNK
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS

__all__ = [
    "CHUNK",
    "FLOAT_MAX_CARDS",
    "INT64_MAX_CARDS",
    "CompositionError",
    "Evaluation",
    "distributions",
    "evaluate",
    "evaluate_shoes",
    "parse_compositions",
]
