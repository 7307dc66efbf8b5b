"""The provenance of a command's output, read from its options, and the figures of its HTML page.

:func:`provenance_from_args` says what produced an output (:class:`~exact_odds.report.provenance.Provenance`):
each part as the command's options give it (else its game's, else the standard one), through the
helpers of :mod:`exact_odds.cli.options`; :func:`exact_odds.cli.options.render` puts it at the top.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from exact_odds.cli.options import config_from_args, procedure_from_args, shoe_from_args, tableau_from_args

if TYPE_CHECKING:
    from exact_odds.analysis.removal import LinearCount, Removal
    from exact_odds.report.document import Figure
    from exact_odds.report.provenance import Provenance


_ALL_CONFIGURATIONS = frozenset({"edges", "report", "symbolic"})
"""Commands that show every built-in configuration unless --config (or a game) names one."""


def provenance_from_args(args: argparse.Namespace, **given: Any) -> Provenance:
    """What produced a command's output: its tableau, configuration, shoe, procedure and seed, each as
    the command's options (else its game's, else the standard) give it; None where the command has
    none. Keywords in ``given`` replace a part (``shoe=None`` for recorded results)."""
    from exact_odds.report.concepts import procedure_json, shoe_json
    from exact_odds.report.provenance import Provenance

    parts: dict[str, Any] = {"command": args.command, "seed": getattr(args, "seed", None)}
    if hasattr(args, "rules"):
        from exact_odds.engine.store import tableau_key

        tableau = tableau_from_args(args)
        parts["tableau"] = (tableau.name, tableau_key(tableau))
    if hasattr(args, "config"):
        config = config_from_args(args)
        default = None if args.command in _ALL_CONFIGURATIONS else "standard"
        parts["configuration"] = config.name if config is not None else default
    if hasattr(args, "decks"):
        parts["shoe"] = shoe_json(shoe_from_args(args))
    if hasattr(args, "no_burn"):
        procedure = procedure_from_args(args)
        parts["procedure"] = procedure_json(procedure)
        parts["procedure_text"] = procedure.describe()
    parts.update(given)
    if parts.get("procedure") is None:
        parts["procedure_text"] = None
    return Provenance(**parts)


def removal_figures(removals: Sequence[Removal], counts: Sequence[LinearCount], *,
                    title: str) -> Callable[[], list[Figure]]:
    """The figures of an HTML page that shows effects of removal: one bar chart per bet (drawn when asked)."""

    def draw() -> list[Figure]:
        from exact_odds.report.document import Figure
        from exact_odds.report.plots import eor_svg

        return [Figure(title, eor_svg(removals, counts, title=title))]

    return draw


def figure(title: str, draw: Callable[[], str]) -> Callable[[], list[Figure]]:
    """The figures of an HTML page: one drawing, ``draw()`` giving its ``<svg>`` (called only for the page)."""

    def figures() -> list[Figure]:
        from exact_odds.report.document import Figure

        return [Figure(title, draw())]

    return figures
