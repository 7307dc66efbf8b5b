"""Bulk exact evaluation: the coup counts and bet expectations of many compositions at once.

The integers are identical to those of the reference enumerator :func:`exact_odds.engine.enumerator.deal`
(ordered six-card sequences, unused cards included); only the arithmetic is organised for
speed.

How. A coup is decided by six cards in dealing order. Give each card a *kind* (its point
class 0-9 for the main bets; its rank A-K when pairs matter). The number of ways to deal a
given sequence of kinds is a product over kinds of falling factorials
``n_k (n_k - 1) ... (n_k - m_k + 1)`` where ``m_k`` is how often kind ``k`` occurs in the
sequence, so it depends only on the multiset of kinds: a *monomial*. Every outcome count
is therefore a fixed non-negative integer combination of monomials,
``ways[outcome] = sum_S C[S, outcome] * monomial_S(composition)``, where ``C[S, outcome]``
counts the arrangements of the multiset ``S`` that produce the outcome. ``C`` is computed
once per rule table by playing every sequence of kinds through the one vectorised tableau,
and cached. Suited pairs, which rank counts cannot tell apart, are counted through
non-negative *variants* combined afterwards by inclusion-exclusion.

The modules, bottom up:

- :mod:`~exact_odds.batch.kinds`: kinds of card, and parts of monomials;
- :mod:`~exact_odds.batch.suited`: the suited variants and their inclusion-exclusion;
- :mod:`~exact_odds.batch.coefficients`: the coefficient table, by playing every sequence;
- :mod:`~exact_odds.batch.monomials`: its terms grouped by monomial;
- :mod:`~exact_odds.batch.leading`: four-card tables for what depends on the first four cards;
- :mod:`~exact_odds.batch.kernel`: factor tables (the one falling-factorial table), part values and
  the blocks' products, in NumPy;
- :mod:`~exact_odds.batch.plan`: functionals laid out in dense blocks, and the way each shoe takes;
- :mod:`~exact_odds.batch.compiled`: whether the compiled loops run (:mod:`~exact_odds.batch.loops`,
  :mod:`~exact_odds.batch.fused`, :mod:`~exact_odds.batch.textloops`; numba, optional);
- :mod:`~exact_odds.batch.basis`: few functionals spanning many bets' numerators;
- :mod:`~exact_odds.batch.evaluation`: :func:`evaluate`, :class:`Evaluation`,
  :func:`evaluate_shoes`, :func:`distributions`;
- :mod:`~exact_odds.batch.io`: :func:`parse_compositions`.

Exactness: one algorithm, three ways to run it, chosen by shoe size and by whether numba is
installed (``EXACT_ODDS_JIT`` forces either way): float64 where every quantity is provably below
``2**53`` (shoes of at most 456 cards, sums checked), in NumPy or compiled; int64 where the sums fit
(up to 1,448 cards); Python integers beyond. Each composition's ways are checked to add up to
``N (N-1) ... (N-5)``.

>>> ev = evaluate([[32] * 13])
>>> ev.outcomes[0].tolist(), ev.sequences.tolist()[0]
([2292252566437888, 2230518282592256, 475627426473216], 4998398275503360)
"""

from exact_odds.batch.evaluation import Evaluation, distributions, evaluate, evaluate_shoes
from exact_odds.batch.io import CompositionError, parse_compositions
from exact_odds.batch.kernel import FLOAT_MAX_CARDS, INT64_MAX_CARDS
from exact_odds.batch.plan import CHUNK

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
