"""Whether bulk work runs its element-wise loops compiled (numba, the ``fast`` extra).

The modules of compiled loops (``exact_odds.batch.loops``, ``report.csvloops``, ``witness.verify.loops``,
``dealing.loops``) are loaded here (:func:`load`); without numba NumPy runs the same steps, to the same
integers and text. Loading numba costs about half a second, which pays from :data:`JIT_MIN` compositions.

>>> wanted(700_000) == (os.environ.get(JIT_ENV, "1") == "1")  # EXACT_ODDS_JIT decides when set
True
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from functools import cache
from importlib.machinery import ModuleSpec
from types import ModuleType

JIT_ENV = "EXACT_ODDS_JIT"
"""Environment variable: ``0`` runs NumPy alone, ``1`` the compiled loops at any size."""
JIT_MIN = 600_000
"""Compositions from which loading the compiled loops pays for itself (about 1 us saved each)."""
KERNEL = "exact_odds.batch.loops"


def wanted(count: int, *, worth: int = JIT_MIN) -> bool:
    """Whether a job of ``count`` units runs compiled: ``EXACT_ODDS_JIT`` when it says ``0`` or ``1``,
    else whether ``count`` reaches ``worth`` (lower for units that save more)."""
    setting = os.environ.get(JIT_ENV, "")
    if setting in ("0", "1"):
        return setting == "1"
    return count >= worth


class _WithoutScipy:
    """An import finder that finds SciPy missing (numba's array functions load without it)."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if name.partition(".")[0] == "scipy":
            raise ModuleNotFoundError(f"{name} is left out while numba's array functions load", name=name)
        return None


def _numba_arrays() -> None:
    """Import numba's array functions (which its compiler imports on first use) without SciPy: it would
    import ``scipy.linalg`` for functions the loops never use."""
    if "scipy" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    finder = _WithoutScipy()
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        sys.meta_path.remove(finder)


@cache
def load(name: str) -> ModuleType | None:
    """The module of compiled loops ``name``, or None when numba is missing or has no writable cache."""
    try:
        _numba_arrays()
        return importlib.import_module(name)
    except (ImportError, OSError, RuntimeError):
        return None


def chosen(name: str, count: int, jit: bool | None = None, *, worth: int = JIT_MIN) -> ModuleType | None:
    """The module of compiled loops ``name`` when ``jit`` says so (None: :func:`wanted` decides for a job
    of ``count`` units), else None."""
    return load(name) if (wanted(count, worth=worth) if jit is None else jit) else None
