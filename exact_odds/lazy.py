"""Packages whose public names are imported from their modules on first use (PEP 562).

``exact_odds``, ``exact_odds.report`` and ``exact_odds.bunco`` list every public name and the
module defining it; a command then imports only the modules it uses, which keeps the start-up
of the single-shoe commands short (see docs/performance.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any


def lazy_attributes(package: str, home_of: Mapping[str, str],
                    names: Sequence[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``home_of`` is imported from its
    module when first asked for, then kept as an ordinary attribute; ``names`` are the public ones."""

    def attribute(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def listing() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return attribute, listing
