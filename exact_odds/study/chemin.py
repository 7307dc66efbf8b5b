"""Chemin de fer as the shoe is dealt: the optimal strategies and the value of what is left, before every coup.

Shoes are dealt as ``study`` deals them, or a recorded shoe is read as ``study --input`` reads it (each
coup's cards counted off as the standard tableau plays them), and the game with choices
(:mod:`exact_odds.analysis.chemin`) is solved on the cards not yet dealt before each coup.

>>> from exact_odds.study.replay import read_record
>>> rows = recorded_shoe(read_record("Kh 3d 9s 2c  5h 5d 7c 4s"), Shoe.decks(1), Information.TOTALS)
>>> [(r.coup, r.cards_left) for r in rows], rows[0].value == solve(choice_game(Shoe.decks(1), Information.TOTALS)).value
([(1, 52), (2, 48)], True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.analysis.chemin import Hand, Information, Solution, StrategyError, choice_game, solve
from exact_odds.core.choices import PARLOUR_RULES, ChoiceRules
from exact_odds.core.shoe import CARDS_PER_COUP, Card, Shoe
from exact_odds.dealing.dealer import play_shoe_simple
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, Procedure, shoe_of_codes
from exact_odds.dealing.shuffle import shoe_cards
from exact_odds.study.replay import replay

Progress = Callable[[int, int], None]
"""Called with (coups solved, coups in all) as the work goes on."""


@dataclass(frozen=True, slots=True)
class CoupSolution:
    """The game before coup ``coup`` of shoe ``shoe`` (1-based): the cards left and the solution on them."""

    shoe: int
    coup: int
    cards_left: int
    solution: Solution

    @property
    def value(self) -> Fraction:
        """The value of the game on the cards left (``player_ev``)."""
        return self.solution.value

    @property
    def player(self) -> tuple[tuple[Hand, Fraction], ...]:
        """The Player's optimal drawing probability in each of his free information sets."""
        return tuple(zip(self.solution.game.player_sets, self.solution.player, strict=True))


def _solve_each(shoes: Sequence[tuple[int, int, Shoe]], information: Information, rules: ChoiceRules,
                progress: Progress | None) -> tuple[CoupSolution, ...]:
    out = []
    for done, (number, coup, left) in enumerate(shoes, 1):
        out.append(CoupSolution(number, coup, left.size, solve(choice_game(left, information, rules))))
        if progress is not None:
            progress(done, len(shoes))
    return tuple(out)


def dealt_shoes(shoe: Shoe, shoes: int, seed: int, information: Information, *,
                procedure: Procedure = STANDARD_PROCEDURE,
                rules: ChoiceRules = PARLOUR_RULES, progress: Progress | None = None) -> tuple[CoupSolution, ...]:
    """Deal ``shoes`` shoes with ``seed`` as ``study`` does and solve the game before every coup, on the cards
    not yet dealt (the burned ones are gone too)."""
    if shoe.infinite:
        raise StrategyError("shoes are dealt from a finite shoe: give --decks N or --shoe")
    procedure.check(shoe)
    compositions = []
    for index in range(shoes):
        cards = shoe_cards(shoe, seed, index)
        for coup, (start, _) in enumerate(play_shoe_simple(cards, procedure=procedure), 1):
            compositions.append((index + 1, coup, shoe_of_codes(cards[start:], suited=False)))
    return _solve_each(compositions, information, rules, progress)


def recorded_shoe(cards: Sequence[Card], shoe: Shoe, information: Information, *,
                  rules: ChoiceRules = PARLOUR_RULES, progress: Progress | None = None) -> tuple[CoupSolution, ...]:
    """Solve the game before every coup of a recorded shoe dealt from ``shoe`` (see the module)."""
    played = replay(cards, shoe, bets=())
    compositions = []
    left = shoe
    for recorded in played.coups:
        if left.size < CARDS_PER_COUP:
            break
        compositions.append((1, recorded.number, left))
        left = left.without(recorded.cards)
    return _solve_each(compositions, information, rules, progress)
