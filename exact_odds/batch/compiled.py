"""Whether bulk work runs its element-wise loops compiled (numba, the ``fast`` extra).

The compiled loops (:mod:`exact_odds.batch.loops` for the kernel, :mod:`exact_odds.batch.textloops`
for reading and writing compositions, :mod:`exact_odds.witness.verify.loops` for verify's bookkeeping)
need numba (``pip install 'exact-odds[fast]'``). Without it, or with the environment variable
``EXACT_ODDS_JIT=0``, the same steps run in NumPy; the integers and the text are the same either
way (the tests compare both paths). Each module of loops is loaded here, by :func:`module`.

Compiled code is cached on disk, but a process still pays about 0.5 s to load it (importing
numba, then readying its compiler on the first call); it saves about 1 us per composition. So it
is used for large jobs only: a call with :data:`JIT_MIN` compositions or more, or any call once
the command has announced a job that large (:func:`expect`), or once a process has loaded some.
``EXACT_ODDS_JIT=1`` uses it at any size.

Readying numba's compiler imports its array functions, which look for SciPy's BLAS (for
``np.correlate`` and ``np.convolve`` in compiled code): where SciPy is installed that imports
``scipy.linalg``, about 0.1 s of a process's start. The loops use neither, so numba's array
functions are imported first with SciPy out of sight (:func:`_numba_arrays`); those two
functions then take numba's own loops, and everything else of numba is as before (its linear
algebra imports SciPy when a function using it is compiled).
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

_ANNOUNCED = [False]
"""Whether a job announced by :func:`expect` is worth the compiled loops."""
_LOADED: set[str] = set()
"""The modules of loops this process has loaded (numba is then ready: further calls cost nothing)."""


def expect(count: int, *, worth: int = JIT_MIN) -> None:
    """Announce a job of ``count`` compositions evaluated over many calls (a simulation checked
    coup by coup, a study): the compiled loops are used from the first call if ``count`` is ``worth``
    or more (a job whose units save more than the kernel's compositions alone, such as a study's
    coups, names its own lower threshold)."""
    _ANNOUNCED[0] = _ANNOUNCED[0] or count >= worth


class _WithoutScipy:
    """An import finder that finds SciPy missing (:func:`_numba_arrays`)."""

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
def _load(name: str) -> ModuleType | None:
    """The module of compiled loops ``name``, or None when numba is missing or cannot set up its
    code cache (no writable cache directory): NumPy then does the work."""
    try:
        _numba_arrays()
        found = importlib.import_module(name)
    except (ImportError, OSError, RuntimeError):
        return None
    _LOADED.add(name)
    return found


def _wanted(count: int) -> bool:
    """Whether ``count`` compositions (or the job announced) are worth the compiled loops."""
    setting = os.environ.get(JIT_ENV, "")
    if setting in ("0", "1"):
        return setting == "1"
    return bool(_LOADED) or _ANNOUNCED[0] or count >= JIT_MIN


def module(name: str, count: int) -> ModuleType | None:
    """The module of compiled loops ``name`` (e.g. ``"exact_odds.witness.verify.loops"``) for a call on
    ``count`` compositions, cards or coups, or None for NumPy."""
    return _load(name) if _wanted(count) else None


def loops(count: int) -> ModuleType | None:
    """The kernel's compiled loops for a call on ``count`` compositions, or None for NumPy."""
    return module("exact_odds.batch.loops", count)


def text_loops(count: int) -> ModuleType | None:
    """The compiled readers and writers for ``count`` compositions (lines), or None for NumPy."""
    return module("exact_odds.batch.textloops", count)
