"""The optional extras, imported where they are used: ``plot`` (matplotlib), ``dask`` (dask.distributed),
``fast`` (numba) and ``xlsx`` (openpyxl); a missing one is an :class:`~exact_odds.inputs.errors.InputError`
naming the extra to install.

>>> installed("json"), installed("no_such_package")
(True, False)
>>> require("no_such_package", "plot", "plots need matplotlib")
Traceback (most recent call last):
...
exact_odds.inputs.errors.InputError: plots need matplotlib: pip install 'exact-odds[plot]'
"""

from __future__ import annotations

import importlib
from importlib.util import find_spec
from types import ModuleType

from exact_odds.inputs.errors import InputError

EXTRAS = {"plot": "matplotlib", "dask": "distributed", "fast": "numba", "xlsx": "openpyxl"}
"""Each optional extra of the package (``pip install 'exact-odds[EXTRA]'``) and the package it installs."""


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (it is found; nothing is imported)."""
    return find_spec(module) is not None


def require(module: str, extra: str, needed_by: str, error: type[InputError] = InputError) -> ModuleType:
    """``module``, imported now; if it is missing, ``error`` with ``needed_by`` (what needs it) and the
    command that installs ``extra``, one of :data:`EXTRAS`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise error(f"{needed_by}: pip install 'exact-odds[{extra}]'") from None
