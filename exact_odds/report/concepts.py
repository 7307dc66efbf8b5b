"""The shared shapes of the JSON output: one shape per concept, used by every command.

Conventions (see ``docs/json.md``): keys are snake_case; an exact number is a string
``"num/den"`` (an integer as ``"n"``); a decimal is a JSON number (rounded from the exact value,
or a simulated statistic); integer counts of ways are JSON integers. Money is in units staked:
``house_edge`` is positive when the house wins, ``player_ev`` is the bettor's expectation
(negative when the house wins); the two always add up to zero for the same bet and shoe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exact_odds.core.shoe import Shoe
    from exact_odds.dealing import Procedure


def shoe_json(shoe: Shoe) -> dict[str, object]:
    """The shoe concept: ``{"description": "8 decks", "cards": 416}``.

    ``cards`` is the number of cards in the shoe, or ``null`` for the infinite-deck limit
    (where every draw is independent).
    """
    return {"description": str(shoe), "cards": None if shoe.infinite else shoe.size}


def procedure_json(procedure: Procedure) -> dict[str, object]:
    """The dealing-procedure concept: how coups are dealt from a shoe.

    ``{"description": str, "fresh": bool, "cut_card": int, "last_coup": "one-more" | "this",
    "burn": bool}``: ``fresh`` deals every coup from a freshly shuffled full shoe (the other
    fields then do not apply); ``cut_card`` is the number of cards behind the cut card.
    """
    return {"description": procedure.describe(), "fresh": procedure.fresh, "cut_card": procedure.cut,
            "last_coup": procedure.last_coup, "burn": procedure.burn}
