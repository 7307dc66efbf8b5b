"""Bulk exact evaluation: the coup counts and bet expectations of many compositions at once.

The integers of :func:`exact_odds.engine.enumerator.deal` (ordered six-card sequences, unused cards
included), each composition's checked to add up to ``N (N-1) ... (N-5)``. Bottom up:
:mod:`~exact_odds.batch.coefficients` (the table ``C`` with ``ways[coup] = sum_S C[S, coup] * monomial_S``),
:mod:`~exact_odds.batch.plan` (the kernel: float64 up to 456 cards, int64 up to 1,448, Python integers
beyond; its loops compiled by :mod:`~exact_odds.batch.loops` when :mod:`~exact_odds.batch.compiled` says),
:mod:`~exact_odds.batch.evaluation` (:func:`evaluate`, :func:`distributions`), :mod:`~exact_odds.batch.io`.

>>> ev = evaluate([[32] * 13])
>>> ev.outcomes[0].tolist(), ev.sequences.tolist()[0]
([2292252566437888, 2230518282592256, 475627426473216], 4998398275503360)
"""

from exact_odds.batch.evaluation import evaluate

__all__ = ["evaluate"]
