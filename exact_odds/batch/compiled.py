"""Whether bulk work runs its element-wise loops compiled (numba, the ``fast`` extra).

The compiled loops (:mod:`exact_odds.batch.loops` for the kernel, :mod:`exact_odds.batch.textloops`
for reading compositions, :mod:`exact_odds.report.csvloops` for writing them,
:mod:`exact_odds.witness.verify.loops` and :mod:`exact_odds.dealing.loops`) need numba
(``pip install 'exact-odds[fast]'``). Without it the same steps run in NumPy; the integers and the
text are the same either way (the tests compare both). Each module of loops is loaded here, by
:func:`load`.

Which way runs is a function of the job alone (:func:`wanted`): loading numba costs a process
about half a second, which pays for itself from :data:`JIT_MIN` compositions (about 1 us saved
each). A caller that splits a job into many calls names the whole job's size, or passes the
decision down (``jit=`` of :func:`~exact_odds.batch.evaluate`). The environment variable
``EXACT_ODDS_JIT`` forces either way: ``0`` NumPy alone, ``1`` the compiled loops at any size.

Readying numba's compiler imports its array functions, which would import ``scipy.linalg`` (for
``np.correlate`` and ``np.convolve``, which the loops never use): :func:`load` imports them with
SciPy out of sight; everything else of numba is as before.

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
"""Compositions from which loading the compiled loops (about 0.6 s) pays for itself (about 1 us
saved per composition)."""
KERNEL = "exact_odds.batch.loops"
TEXT = "exact_odds.batch.textloops"


def wanted(count: int, *, worth: int = JIT_MIN) -> bool:
    """Whether a job of ``count`` units (compositions, cards, coups) runs compiled: ``EXACT_ODDS_JIT``
    when it says ``0`` or ``1``, else whether ``count`` reaches ``worth`` (what a unit saves decides
    it: a study's coup saves more than the kernel's composition, and names a lower ``worth``)."""
    setting = os.environ.get(JIT_ENV, "")
    if setting in ("0", "1"):
        return setting == "1"
    return count >= worth


class _WithoutScipy:
    """An import finder that finds SciPy missing (numba's array functions load without it)."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        """Refuse ``scipy`` and its submodules; leave every other module to the other finders."""
        if name.partition(".")[0] == "scipy":
            raise ModuleNotFoundError(f"{name} is left out while numba's array functions load", name=name)
        return None


def _numba_arrays() -> None:
    """Import numba's array functions (``numba.np.arraymath``, which its compiler imports on its
    first use) without SciPy, unless SciPy is imported already."""
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
    """The module of compiled loops ``name`` (e.g. ``"exact_odds.witness.verify.loops"``), or None
    when numba is missing or cannot set up its code cache (no writable cache directory)."""
    try:
        _numba_arrays()
        return importlib.import_module(name)
    except (ImportError, OSError, RuntimeError):
        return None


def module(name: str, count: int, *, worth: int = JIT_MIN) -> ModuleType | None:
    """The module of compiled loops ``name`` for a job of ``count`` units (:func:`wanted`), or None
    for NumPy."""
    return load(name) if wanted(count, worth=worth) else None


def chosen(name: str, count: int, jit: bool | None) -> ModuleType | None:
    """The module ``name`` when ``jit`` says so (None: when a job of ``count`` compositions is worth
    it, :func:`wanted`), else None for NumPy."""
    return load(name) if (wanted(count) if jit is None else jit) else None
