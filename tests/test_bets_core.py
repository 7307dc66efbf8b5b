"""Bet core: exact payouts, the registry, and the standard main bets against published edges."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from exact_odds import Shoe, deal
from exact_odds.analysis.edges import par_sheet
from exact_odds.bets import BetError, exact_payout, find_bet
from exact_odds.bets.core import Bet, PayLine
from exact_odds.core.coup import Coup


def test_payouts_parse_exactly() -> None:
    assert exact_payout("19/20") == exact_payout("0.95") == Fraction(19, 20)
    assert exact_payout("11:1") == 11 and exact_payout("1 to 2") == Fraction(1, 2) and exact_payout(8) == 8


@pytest.mark.parametrize("bad", [0.95, "abc", "1/0", True, None])
def test_bad_payouts_are_refused(bad: object) -> None:
    with pytest.raises(BetError):
        exact_payout(bad)


def test_float_message_says_how_to_write_it() -> None:
    with pytest.raises(BetError, match='write it as a string such as "19/20" or "0.95"'):
        exact_payout(0.95)


def test_registry_finds_aliases_and_lists_names() -> None:
    assert find_bet("Banco") is find_bet("banker")
    with pytest.raises(BetError, match="known bets: .*banker"):
        find_bet("nonesuch")


def test_payout_lines() -> None:
    banker = find_bet("banker")
    assert banker.payout(Coup(3, 5, 3, 3)) == Fraction(19, 20)
    assert banker.payout(Coup(5, 5, 3, 3)) == 0 and banker.payout(Coup(6, 5, 3, 3)) == -1


def test_eight_deck_standard_edges() -> None:
    # Wizard of Odds, Baccarat, 8 decks: banker 1.0579%, player 1.2351%, tie 14.3596%.
    dist = deal(Shoe.decks(8))
    edges = {n: -dist.expectation(find_bet(n).payout) for n in ("banker", "player", "tie")}
    assert [round(float(e) * 100, 4) for e in edges.values()] == [1.0579, 1.2351, 14.3596]
    # Exact identity: player EV = (P - B) / (P + B + T) with counts from the published table.
    b, p, t = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
    assert edges["player"] == Fraction(b - p, b + p + t)


def test_tabulated_bets_equal_by_content() -> None:
    """Equal when name, detail and every payout are (a copy, a pickled copy); else not."""
    import pickle

    from exact_odds.core.coup import TabulatedBet, tabulate

    banker = tabulate(find_bet("banker"))
    copy = pickle.loads(pickle.dumps(banker))
    assert copy is not banker and copy == banker and hash(copy) == hash(banker)
    assert tabulate(find_bet("banker")) == banker
    paying = [i for i, x in enumerate(banker.table) if x]
    for code, payout in ((paying[0], banker.table[paying[0]] + Fraction(1, 10**9)), (paying[-1], Fraction(0)),
                         (next(i for i, x in enumerate(banker.table) if not x), Fraction(1))):
        changed = list(banker.table)
        changed[code] = payout
        assert TabulatedBet(banker.name, banker.detail, tuple(changed)) != banker, code
    assert TabulatedBet(banker.name, banker.detail, (*banker.table, Fraction(0))) != banker
    assert TabulatedBet("other", banker.detail, banker.table) != banker and banker != tabulate(find_bet("player"))



@dataclass(frozen=True)
class _Never:
    """A rule that holds on no coup and counts its calls; equal by name."""

    name: str
    calls: list[str] = field(compare=False, hash=False)

    def __call__(self, coup: Coup) -> bool:
        self.calls.append(self.name)
        return False


def test_a_line_repeating_an_earlier_rule_is_not_tried() -> None:
    """:meth:`Bet.line_index` tries each rule once: a line whose rule equals an earlier line's never decides."""
    calls: list[str] = []
    lines = tuple(PayLine(name, _Never(name, calls), Fraction(1)) for name in "abab")
    coup = next(iter(deal(Shoe.decks(1))))
    assert Bet("t-never", lines, "test").line_index(coup) == 4
    assert calls == ["a", "b"]


def test_repeated_lines_change_no_result() -> None:
    """A bet with its lines repeated decides every coup by the same line as the bet (the first match),
    and its par sheet gives the repeats no ways."""
    bonus = find_bet("dragon-bonus-player")
    n = len(bonus.lines)
    repeated = Bet("t-repeated", bonus.lines * 3, "test", detail=bonus.detail)
    for coup in deal(Shoe.decks(1), detail=bonus.detail):
        first = next((i for i, line in enumerate(bonus.lines) if line.rule(coup)), None)
        assert repeated.line_index(coup) == (3 * n if first is None else first)
        assert repeated.payout(coup) == bonus.payout(coup)
    sheet, plain = par_sheet(Shoe.decks(1), repeated), par_sheet(Shoe.decks(1), bonus)
    assert [line.ways for line in sheet.lines] == [line.ways for line in plain.lines[:-1]] + [0] * 2 * n + [
        plain.lines[-1].ways]
    assert sheet.house_edge == plain.house_edge


@pytest.mark.parametrize("side", ["banker", "player", "tie", "nobody"])
def test_win_with_is_the_coups_winner_with_its_hand(side: str) -> None:
    """:class:`~exact_odds.bets.main.WinWith` holds on a coup exactly when the coup's winner is its side and
    the winning hand (the banker's for a tie) has its total and number of cards, for every coup code."""
    from exact_odds.bets.main import WinWith
    from exact_odds.core.coup import COUP_CODES, coup_of_code

    rules = [WinWith(side, total, cards) for total in (None, *range(10)) for cards in (None, 2, 3)]  # type: ignore[arg-type]
    for coup in map(coup_of_code, range(COUP_CODES)):
        total, cards = (coup.player, coup.player_cards) if side == "player" else (coup.banker, coup.banker_cards)
        for rule in rules:
            expected = coup.winner == side and rule.total in (None, total) and rule.cards in (None, cards)
            assert rule(coup) is expected, (rule, coup)
