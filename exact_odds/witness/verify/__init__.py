"""Verify anybody's baccarat log against the exact values: rules, labels, accounting, statistics.

``verify_log(rows, shoe, tableau)`` checks a log of coups (a file read by :func:`read_log`
or :func:`load_log`, rows in memory, or a :class:`CoupLog` a simulator built with
:meth:`CoupLog.from_dealt`); a :class:`Verifier` does the same a block at a time (our own
simulator checks its coups so, and :func:`verify_file` a log file of any length, a block of whole
shoes at a time); ``verify_counts`` checks totals only. See
:mod:`exact_odds.witness.verify.core` for the checks and the hypothesis they test.
"""

from exact_odds.core.verdict import Check, ChiSquare, IndicatorSum, Tally, Verdict, Violation
from exact_odds.witness.verify.core import (
    MAX_VIOLATIONS,
    LogVerification,
    Verifier,
    VerifyError,
    verify_file,
    verify_log,
)
from exact_odds.witness.verify.counts import COUNT_NAMES, parse_counts, verify_counts
from exact_odds.witness.verify.log import CoupLog, log_text, write_log
from exact_odds.witness.verify.read import LogBuilder, LogError, load_log, read_blocks, read_log, rows_log

__all__ = ["COUNT_NAMES", "MAX_VIOLATIONS", "Check", "ChiSquare", "CoupLog", "IndicatorSum", "LogBuilder",
           "LogError", "LogVerification", "Tally", "Verdict", "Verifier", "VerifyError", "Violation", "load_log",
           "log_text", "parse_counts", "read_blocks", "read_log", "rows_log", "verify_counts", "verify_file",
           "verify_log", "write_log"]
