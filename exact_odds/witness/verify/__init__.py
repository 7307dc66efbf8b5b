"""Verify anybody's baccarat log against the exact values: :func:`verify_log` (in memory), :func:`verify_file`
(any length), a :class:`Verifier` (a block at a time), :func:`verify_counts` (totals only)."""

from exact_odds.witness.verify.core import (
    COUNT_NAMES,
    MAX_VIOLATIONS,
    LogVerification,
    Verifier,
    VerifyError,
    parse_counts,
    verify_counts,
    verify_file,
    verify_log,
)
from exact_odds.witness.verify.log import CoupLog, write_log
from exact_odds.witness.verify.read import LogBuilder, LogError, load_log, read_blocks, read_log, rows_log

__all__ = ["COUNT_NAMES", "MAX_VIOLATIONS", "CoupLog", "LogBuilder", "LogError", "LogVerification", "Verifier",
           "VerifyError", "load_log", "parse_counts", "read_blocks", "read_log", "rows_log", "verify_counts",
           "verify_file", "verify_log", "write_log"]
