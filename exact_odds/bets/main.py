"""The main bets (banker, player, tie) under the standard pay table.

Standard punto banco pays player 1:1, banker 19:20 (5% commission) and tie 8:1; banker and
player bets push on a tie. Source: Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat).
"""

from __future__ import annotations

from fractions import Fraction

from exact_odds.bets.core import Bet, PayLine, register
from exact_odds.engine import Coup


def banker_wins(coup: Coup) -> bool:
    """The banker's total is higher."""
    return coup.winner == "banker"


def player_wins(coup: Coup) -> bool:
    """The player's total is higher."""
    return coup.winner == "player"


def is_tie(coup: Coup) -> bool:
    """The totals are equal."""
    return coup.winner == "tie"


WIZARD = "Wizard of Odds, Baccarat (wizardofodds.com/games/baccarat)"

BANKER = register(Bet(
    "banker",
    (PayLine("banker wins", banker_wins, Fraction(19, 20)), PayLine("tie (push)", is_tie, Fraction(0))),
    WIZARD,
    "Banker wins pay 19:20 (5% commission); a tie pushes.",
    aliases=("b", "banco"),
))
PLAYER = register(Bet(
    "player",
    (PayLine("player wins", player_wins, Fraction(1)), PayLine("tie (push)", is_tie, Fraction(0))),
    WIZARD,
    "Player wins pay 1:1; a tie pushes.",
    aliases=("p", "punto"),
))
TIE = register(Bet(
    "tie",
    (PayLine("tie", is_tie, Fraction(8)),),
    WIZARD,
    "A tie pays 8:1.",
    aliases=("t", "egalite"),
))
