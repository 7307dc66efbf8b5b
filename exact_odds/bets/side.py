"""The common baccarat side bets, each with its pay table and the source of that table, and
:data:`BUILTIN_BETS`, every built-in bet as one immutable value.

Payouts are net units (:mod:`exact_odds.bets.core`). A *pair* is a hand whose first two cards have
the same rank, a *perfect* pair also the same suit, a *twin* pair both hands pairing in one rank; a
*natural* is a coup that ended on the first four cards with an 8 or a 9. Rules are plain functions
or frozen dataclasses, so bets compare by value and pickle for workers; each bet asks the engine
for the least :class:`~exact_odds.core.coup.Detail` it needs. Each bet's ``source`` cites its pay table.

>>> from exact_odds import Shoe, deal
>>> -deal(Shoe.decks(8)).expectation(DRAGON_7.payout)
Fraction(64613588827, 848912750595)
>>> find_bet("Banco") is find_bet("banker"), list(BUILTIN_BETS)[:4]
(True, ['banker', 'player', 'tie', 'tie-9/banker'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from exact_odds.bets.core import Bet, BetError, PayLine, exact_payout
from exact_odds.bets.main import BUILTIN_CONFIGURATIONS, WinWith
from exact_odds.core.coup import Coup, Detail, Winner
from exact_odds.inputs.registry import Registry

WOO_SIDE_BETS = "Wizard of Odds, Baccarat side bets (wizardofodds.com/games/baccarat/side-bets/)"
WOO_EZ = "Wizard of Odds, EZ Baccarat (wizardofodds.com/games/baccarat/ez-baccarat/)"
WOO_LUCKY_6 = "Wizard of Odds, Lucky 6, Macau pay table (wizardofodds.com/games/baccarat/side-bets/lucky-6/)"
WOO_EGALITE = "Wizard of Odds, Egalite Bets in Baccarat (wizardofodds.com/games/baccarat/side-bets/egalite/)"
WOO_PERFECT_1 = ("Wizard of Odds, Perfect Pairs (Version 1) "
                 "(wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver1/)")
WOO_PERFECT_2 = ("Wizard of Odds, Perfect Pairs (Version 2) "
                 "(wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver2/)")
EZ_TIGER = ("EZ Baccarat Tiger side bets (DEQ Systems) as posted on tables: Tiger 12:1/20:1, Small Tiger 22:1, "
            "Big Tiger 50:1, Tiger Tie 35:1, Tiger Pair 4:1/20:1/100:1. The Tiger is the Lucky 6 with the Macau "
            "pay table (Wizard of Odds, wizardofodds.com/games/baccarat/side-bets/lucky-6/); Big Tiger house edge "
            "15.2533% (E. Jacobson, advancedadvantageplay.com, 'Card counting the Big Tiger baccarat side bet')")


def line(label: str, rule: Callable[[Coup], bool], pays: str) -> PayLine:
    """A pay line with an exact payout written as odds (``"11:1"``)."""
    return PayLine(label, rule, exact_payout(pays, where=label))


# ---------------------------------------------------------------- pairs


def player_pair(coup: Coup) -> bool:
    return coup.player_pair


def banker_pair(coup: Coup) -> bool:
    return coup.banker_pair


def both_pairs(coup: Coup) -> bool:  # in any ranks
    return coup.player_pair and coup.banker_pair


def twin_pair(coup: Coup) -> bool:
    return coup.twin_pair


def both_perfect(coup: Coup) -> bool:
    return coup.player_suited and coup.banker_suited


def one_perfect(coup: Coup) -> bool:  # at least one
    return coup.player_suited or coup.banker_suited


PLAYER_PAIR = Bet(
    "player-pair", (line("player pair", player_pair, "11:1"),), WOO_SIDE_BETS,
    "The player's first two cards are the same rank; pays 11:1.",
    aliases=("p-pair", "player-pairs"), detail=Detail.RANKS,
)
BANKER_PAIR = Bet(
    "banker-pair", (line("banker pair", banker_pair, "11:1"),), WOO_SIDE_BETS,
    "The banker's first two cards are the same rank; pays 11:1.",
    aliases=("b-pair", "banker-pairs"), detail=Detail.RANKS,
)
EITHER_PAIR = Bet(
    "either-pair",
    (line("player pair", player_pair, "5:1"), line("banker pair", banker_pair, "5:1")),
    WOO_SIDE_BETS,
    "Either hand's first two cards are the same rank; pays 5:1.",
    aliases=("any-pair",), detail=Detail.RANKS,
)
PERFECT_PAIR = Bet(
    "perfect-pair",
    (line("both hands perfect pairs", both_perfect, "200:1"), line("one hand perfect pair", one_perfect, "25:1")),
    f"25:1 for one hand, 200:1 for both (the pay table this project was asked to analyse); "
    f"combinations as in {WOO_PERFECT_2}, which pays 250:1 for both",
    "A hand's first two cards are the same rank and suit: 25:1 for one hand, 200:1 for both.",
    aliases=("perfect-pairs",), detail=Detail.SUITS,
)
PERFECT_PAIR_V1 = Bet(
    "perfect-pair-v1", (line("one or both hands perfect pairs", one_perfect, "25:1"),), WOO_PERFECT_1,
    "Either hand's first two cards are the same rank and suit; pays 25:1 (no bonus for both).",
    detail=Detail.SUITS,
)
PERFECT_PAIR_V2 = Bet(
    "perfect-pair-v2",
    (line("both hands perfect pairs", both_perfect, "250:1"), line("one hand perfect pair", one_perfect, "25:1")),
    WOO_PERFECT_2,
    "A hand's first two cards are the same rank and suit: 25:1 for one hand, 250:1 for both.",
    detail=Detail.SUITS,
)

# ---------------------------------------------------------------- EZ Baccarat: Dragon 7, Panda 8


DRAGON_7 = Bet(
    "dragon-7", (line("banker wins with a three-card 7", WinWith("banker", 7, 3), "40:1"),), WOO_EZ,
    "The banker wins with a three-card 7; pays 40:1.",
    aliases=("dragon7", "fortune-7"),
)
PANDA_8 = Bet(
    "panda-8", (line("player wins with a three-card 8", WinWith("player", 8, 3), "25:1"),), WOO_EZ,
    "The player wins with a three-card 8; pays 25:1.",
    aliases=("panda8", "golden-8"),
)

# ---------------------------------------------------------------- Dragon Bonus

DRAGON_BONUS_MARGINS = ((9, "30:1"), (8, "10:1"), (7, "6:1"), (6, "4:1"), (5, "2:1"), (4, "1:1"))
"""Non-natural wins by margin: points ahead, pays."""


@dataclass(frozen=True, slots=True)
class NaturalResult:
    """The coup ends on the first four cards with a natural and ``side`` wins (or ``"tie"``)."""

    side: Winner

    def __call__(self, coup: Coup) -> bool:
        return coup.natural and coup.winner == self.side


@dataclass(frozen=True, slots=True)
class WinsBy:
    """``side`` wins without a natural, by exactly ``margin`` points."""

    side: Winner
    margin: int

    def __call__(self, coup: Coup) -> bool:
        return not coup.natural and coup.winner == self.side and abs(coup.player - coup.banker) == self.margin


def _dragon_bonus(side: Winner) -> Bet:
    lines = (
        line(f"{side} natural win", NaturalResult(side), "1:1"),
        line("natural tie (push)", NaturalResult("tie"), "0"),
        *(line(f"{side} wins by {m}", WinsBy(side, m), pays) for m, pays in DRAGON_BONUS_MARGINS),
    )
    return Bet(
        f"dragon-bonus-{side}", lines, WOO_SIDE_BETS,
        f"On the {side}: a natural win pays 1:1 and a natural tie pushes; a non-natural win by 9 points "
        "pays 30:1, by 8 10:1, by 7 6:1, by 6 4:1, by 5 2:1, by 4 1:1; anything else loses.",
        aliases=(f"{side}-dragon-bonus",),
    )


DRAGON_BONUS_PLAYER = _dragon_bonus("player")
DRAGON_BONUS_BANKER = _dragon_bonus("banker")

# ---------------------------------------------------------------- Big and Small


def five_or_six_cards(coup: Coup) -> bool:
    return coup.cards >= 5


def four_cards(coup: Coup) -> bool:
    return coup.cards == 4


BIG = Bet(
    "big", (line("five or six cards", five_or_six_cards, "0.54:1"),), WOO_SIDE_BETS,
    "Five or six cards are dealt in the coup; pays 0.54:1.",
)
SMALL = Bet(
    "small", (line("four cards", four_cards, "1.5:1"),), WOO_SIDE_BETS,
    "Exactly four cards are dealt (neither hand draws); pays 1.5:1.",
)

# ---------------------------------------------------------------- Lucky 6 and the Tiger bets


def _six_bet(name: str, source: str, description: str, aliases: tuple[str, ...] = ()) -> Bet:
    return Bet(
        name,
        (line("banker wins with a two-card 6", WinWith("banker", 6, 2), "12:1"),
         line("banker wins with a three-card 6", WinWith("banker", 6, 3), "20:1")),
        source, description, aliases=aliases,
    )


LUCKY_6 = _six_bet("lucky-6", WOO_LUCKY_6,
                   "The banker wins with a 6: pays 12:1 with two cards, 20:1 with three.", ("lucky6",))
TIGER = _six_bet("tiger", EZ_TIGER, "The banker wins with a 6: pays 12:1 with two cards, 20:1 with three "
                 "(the Lucky 6 under another name).")
SMALL_TIGER = Bet(
    "small-tiger", (line("banker wins with a two-card 6", WinWith("banker", 6, 2), "22:1"),), EZ_TIGER,
    "The banker wins with a two-card 6; pays 22:1.",
)
BIG_TIGER = Bet(
    "big-tiger", (line("banker wins with a three-card 6", WinWith("banker", 6, 3), "50:1"),), EZ_TIGER,
    "The banker wins with a three-card 6; pays 50:1.",
)
TIGER_TIE = Bet(
    "tiger-tie", (line("tie at 6", WinWith("tie", 6), "35:1"),), EZ_TIGER,
    "The hands tie with 6 each; pays 35:1.",
)
TIGER_PAIR = Bet(
    "tiger-pair",
    (line("twin pair (both hands pair in one rank)", twin_pair, "100:1"),
     line("both hands pair", both_pairs, "20:1"),
     line("player pair", player_pair, "4:1"),
     line("banker pair", banker_pair, "4:1")),
    EZ_TIGER,
    "The first two cards of a hand pair: 4:1 for one hand, 20:1 for both, 100:1 for both in the same rank.",
    detail=Detail.RANKS,
)

# ---------------------------------------------------------------- Egalite

EGALITE_PAYS = {0: "150:1", 1: "215:1", 2: "225:1", 3: "200:1", 4: "120:1",
                5: "110:1", 6: "45:1", 7: "45:1", 8: "80:1", 9: "80:1"}
"""Egalite pay table by tie total (Wizard of Odds, "Egalite Bets in Baccarat")."""

EGALITE = tuple(
    Bet(
        f"egalite-{total}", (line(f"tie at {total}", WinWith("tie", total), pays),), WOO_EGALITE,
        f"The hands tie with {total} each; pays {pays}.",
    )
    for total, pays in EGALITE_PAYS.items()
)

SIDE_BETS: tuple[Bet, ...] = (
    PLAYER_PAIR, BANKER_PAIR, EITHER_PAIR, PERFECT_PAIR, PERFECT_PAIR_V1, PERFECT_PAIR_V2,
    DRAGON_7, PANDA_8, DRAGON_BONUS_PLAYER, DRAGON_BONUS_BANKER, BIG, SMALL,
    LUCKY_6, TIGER, SMALL_TIGER, BIG_TIGER, TIGER_TIE, TIGER_PAIR, *EGALITE,
)
"""Every built-in side bet, in the order reports list them."""

BUILTIN_BETS: Registry[Bet] = Registry(
    "bet", (*(bet for config in BUILTIN_CONFIGURATIONS.values() for bet in config.bets), *SIDE_BETS),
    error=BetError, sort_listing=True)
"""Every built-in bet by name, in the order reports list them: main bets by configuration, then side bets."""


def find_bet(name: str) -> Bet:
    """The built-in bet called ``name`` or an alias, in any spelling (else a :class:`BetError` naming them)."""
    return BUILTIN_BETS.find(name)


def registered(names: Iterable[str] | None = None) -> list[Bet]:
    """The named built-in bets, or every built-in bet in registration order."""
    return [find_bet(n) for n in names] if names is not None else list(BUILTIN_BETS.values())
