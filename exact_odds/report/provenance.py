"""Provenance: which program, command, tableau (name and SHA-256 of its decisions), pay table, shoe, dealing
procedure and seed produced an output, at the top of every format. A part a command does not use is
``None`` (JSON ``null``). No date and no host: the same command line gives the same bytes. The shapes of a
shoe and a procedure are every JSON output's (docs/json.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from exact_odds import __version__

if TYPE_CHECKING:
    from exact_odds.core.shoe import Shoe
    from exact_odds.dealing import Procedure

PROGRAM = "exact-odds"


@dataclass(frozen=True, slots=True)
class Provenance:
    """What produced an output (see the module). ``tableau`` is ``(name, sha256 hex key)``;
    ``procedure_text`` the procedure in words for the formats people read."""

    command: str
    tableau: tuple[str, str] | None = None
    configuration: str | None = None
    shoe: Mapping[str, object] | None = None
    procedure: Mapping[str, object] | None = None
    procedure_text: str | None = None
    seed: int | None = None
    version: str = __version__

    def as_json(self) -> dict[str, object]:
        """The ``"provenance"`` object of the JSON outputs, the first key of each (:func:`with_provenance`)."""
        tableau = None if self.tableau is None else {"name": self.tableau[0], "key": self.tableau[1]}
        return {"program": PROGRAM, "version": self.version, "command": self.command, "tableau": tableau,
                "configuration": self.configuration, "shoe": None if self.shoe is None else dict(self.shoe),
                "procedure": None if self.procedure is None else dict(self.procedure), "seed": self.seed}

    def fields(self) -> list[tuple[str, str]]:
        """(label, value) of each part given, for people: program first, then tableau ... seed."""
        parts = [("program", f"{PROGRAM} {self.version}, command {self.command}"),
                 ("tableau", None if self.tableau is None else f"{self.tableau[0]} (sha256 {self.tableau[1]})"),
                 ("configuration", self.configuration),
                 ("shoe", None if self.shoe is None else str(self.shoe["description"])),
                 ("procedure", self.procedure_text), ("seed", None if self.seed is None else str(self.seed))]
        return [(label, value) for label, value in parts if value is not None]

    def comment_lines(self) -> str:
        """``# label: value`` lines (each ending with a newline), for the top of a CSV file."""
        return "".join(f"# {label}: {value}\n" for label, value in self.fields())

    def text_block(self) -> str:
        """The header of a plain-text output: one ``label: value`` line each, then a blank line."""
        width = max(len(label) for label, _ in self.fields())
        return "".join(f"{label.ljust(width)}  {value}\n" for label, value in self.fields()) + "\n"

    def markdown_block(self) -> str:
        """The header of a Markdown output: a list of the parts, then a blank line."""
        return "".join(f"- **{label}**: {value}\n" for label, value in self.fields()) + "\n"


def with_provenance(value: object, provenance: Provenance) -> dict[str, object]:
    """A command's JSON result with ``"provenance"`` as its first key; a list becomes ``"results"``."""
    if isinstance(value, dict):
        return {"provenance": provenance.as_json(), **{k: v for k, v in value.items() if k != "provenance"}}
    return {"provenance": provenance.as_json(), "results": value}


def shoe_json(shoe: Shoe) -> dict[str, object]:
    """The shoe: ``{"description": "8 decks", "cards": 416}`` (``cards`` ``null`` for the infinite deck)."""
    return {"description": str(shoe), "cards": None if shoe.infinite else shoe.size}


def procedure_json(procedure: Procedure) -> dict[str, object]:
    """How coups are dealt: ``fresh`` (every coup from a full shoe: the rest then does not apply), ``cut_card``
    (cards behind it), ``last_coup`` (``"one-more"`` or ``"this"``), ``burn``, and a ``description``."""
    return {"description": procedure.describe(), "fresh": procedure.fresh, "cut_card": procedure.cut,
            "last_coup": procedure.last_coup, "burn": procedure.burn}
