"""The shared shapes of the JSON output, one per concept (conventions: docs/json.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exact_odds.core.shoe import Shoe
    from exact_odds.dealing.procedure import Procedure


def shoe_json(shoe: Shoe) -> dict[str, object]:
    """The shoe: ``{"description": "8 decks", "cards": 416}`` (``cards`` ``null`` for the infinite deck)."""
    return {"description": str(shoe), "cards": None if shoe.infinite else shoe.size}


def procedure_json(procedure: Procedure) -> dict[str, object]:
    """How coups are dealt: ``fresh`` (every coup from a full shoe: the rest then does not apply), ``cut_card``
    (cards behind it), ``last_coup`` (``"one-more"`` or ``"this"``), ``burn``, and a ``description``."""
    return {"description": procedure.describe(), "fresh": procedure.fresh, "cut_card": procedure.cut,
            "last_coup": procedure.last_coup, "burn": procedure.burn}
