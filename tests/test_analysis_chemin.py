"""Chemin de fer solved exactly (exact_odds.analysis.chemin), checked by brute force.

The brute force here plays a pair of strategies on every ordered six-card sequence of a small shoe
(every permutation of its cards, as tests/oracle.py deals them), or on every sequence of point values
weighted by their chances when cards are dealt with replacement, reading the drawing rule from the
strategies alone: it shares nothing with the payoff tables or the solver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.analysis.chemin import (
    Hand,
    Information,
    Solution,
    StrategyError,
    choice_game,
    costs,
    expectation,
    model_code,
    parse_model,
    payoff_table,
    solve,
    solve_by_decks,
)
from exact_odds.core.choices import (
    PARLOUR_RULES,
    STAND,
    ChoiceRules,
    ChoiceRulesError,
    Decision,
    parse_choice_rules,
)
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import COLUMNS, STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal_winners


def sign(p: int, b: int) -> int:
    return (p > b) - (p < b)


def solution_rules(solution: Solution) -> ChoiceRules:
    """The solution as rules without free cells (a set where any choice will do stands)."""
    game = solution.game
    rules = game.rules
    for hand, x in zip(game.player_sets, solution.player, strict=True):
        if isinstance(hand, int):
            rules = replace(rules, player=(*rules.player[:hand], x, *rules.player[hand + 1:]))
        else:
            rules = replace(rules, player_cards=(*rules.player_cards, (hand, x)))
    rows: dict[Hand, list[Decision]] = {}
    for bset, q in zip(game.banker_sets, solution.banker, strict=True):
        if bset.hand not in rows:
            hand = bset.hand
            row = rules.banker[hand] if isinstance(hand, int) else [rules.banker_decision(hand, c) for c in COLUMNS]
            rows[hand] = [STAND if d is None else d for d in row]
        rows[bset.hand][COLUMNS.index(bset.column)] = STAND if q is None else q
    banker_rows = list(rules.banker)
    cards = dict(rules.banker_cards)
    for hand, row in rows.items():
        if isinstance(hand, int):
            banker_rows[hand] = tuple(row)
        else:
            cards[hand] = tuple(row)
    return replace(rules, name=f"{rules.name}, solved", banker=tuple(banker_rows),
                   banker_cards=tuple(sorted(cards.items())))


def banker_rule(rules: ChoiceRules, information: Information, banker: tuple[int, int], third: int | None) -> Fraction:
    """The Banker's drawing probability on his two cards (or their total) against the Player's third card."""
    if information.banker_sees_cards:
        decision = rules.banker_decision(banker, third)
    else:
        decision = rules.banker[sum(banker) % 10][COLUMNS.index(third)]
    assert decision is not None
    return decision


def result(seq: tuple[int, ...], information: Information, rules: ChoiceRules,
           score: Callable[[int, int], Fraction | int] = sign) -> Fraction:
    """One side's expected score on six point values in dealing order, strategies being probabilities: by
    default the Player's result (+1, -1, 0)."""
    p1, b1, p2, b2, c5, c6 = seq
    p, b = (p1 + p2) % 10, (b1 + b2) % 10
    if p >= 8 or b >= 8:
        return Fraction(score(p, b))
    player = (min(p1, p2), max(p1, p2))
    banker = (min(b1, b2), max(b1, b2))
    draws = rules.player_decision(player) if information.player_sees_cards else rules.player[p]
    assert draws is not None
    q = banker_rule(rules, information, banker, None)
    stood = q * score(p, (b + c5) % 10) + (1 - q) * score(p, b)
    pf = (p + c5) % 10
    q = banker_rule(rules, information, banker, c5)
    drew = q * score(pf, (b + c6) % 10) + (1 - q) * score(pf, b)
    return draws * drew + (1 - draws) * stood


def point_cards(shoe: Shoe) -> list[int]:
    return [min(rank, 10) % 10 for rank, n in enumerate(shoe.counts, 1) for _ in range(n)]


def brute_force(shoe: Shoe, information: Information, rules: ChoiceRules) -> Fraction:
    """Every permutation of six of the shoe's cards, or every sequence of points with replacement."""
    if shoe.infinite:
        return with_replacement(information, rules)
    sequences = list(permutations(point_cards(shoe), 6))
    return sum((result(seq, information, rules) for seq in sequences), Fraction(0)) / len(sequences)


WEIGHT = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
"""Chances in 13ths of each point value when cards are dealt with replacement (tens and court cards 0)."""


def with_replacement(information: Information, rules: ChoiceRules) -> Fraction:
    """Every sequence of four point values; the fifth and sixth cards summed over their 13 chances each."""
    one_card = [[sum(WEIGHT[e] * sign(q, (b + e) % 10) for e in range(10)) for b in range(10)] for q in range(10)]
    result = Fraction(0)
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        ways = WEIGHT[p1] * WEIGHT[b1] * WEIGHT[p2] * WEIGHT[b2]
        p, b = (p1 + p2) % 10, (b1 + b2) % 10
        if p >= 8 or b >= 8:
            result += ways * 169 * sign(p, b)
            continue
        player, banker = (min(p1, p2), max(p1, p2)), (min(b1, b2), max(b1, b2))
        draws = rules.player_decision(player) if information.player_sees_cards else rules.player[p]
        q = banker_rule(rules, information, banker, None)
        stood = 13 * (q * one_card[p][b] + (1 - q) * 13 * sign(p, b))
        drew = Fraction(0)
        for c in range(10):
            q, final = banker_rule(rules, information, banker, c), (p + c) % 10
            drew += WEIGHT[c] * (q * one_card[final][b] + (1 - q) * 13 * sign(final, b))
        assert draws is not None
        result += ways * (draws * drew + (1 - draws) * stood)
    return result / 13**6


SMALL = Shoe.parse("A=1,2=1,3=1,4=1,5=2,6=1,T=2")


@pytest.mark.parametrize("information", list(Information))
def test_solution_equals_brute_force_on_a_small_shoe(information: Information) -> None:
    solution = solve(choice_game(SMALL, information))
    assert solution.certificate.holds
    assert brute_force(SMALL, information, solution_rules(solution)) == solution.value


def test_kemeny_and_snell_nine_elevenths() -> None:
    """A1: Player draws on 5 with probability exactly 9/11, uniquely, certified; brute force agrees."""
    solution = solve(choice_game(Shoe.infinite_deck(), Information.TOTALS))
    assert solution.player == (Fraction(9, 11),)
    assert solution.player_unique and solution.banker_unique and solution.certificate.holds
    assert solution.value == Fraction(-679568, 53094899)
    assert brute_force(Shoe.infinite_deck(), Information.TOTALS, solution_rules(solution)) == solution.value


def test_certificate_is_exact_best_replies() -> None:
    game = choice_game(Shoe.decks(1), Information.BANKER_CARDS)
    solution = solve(game)
    cert = solution.certificate
    assert cert.expectation == cert.banker_best_reply == cert.player_best_reply == solution.value
    # a Player habit other than the optimum is held below the value by the Banker's best reply
    for cost in costs(solution):
        assert cost.draw >= 0 and cost.stand >= 0
    assert any(c.side == "banker" and (c.draw > 0 or c.stand > 0) for c in costs(solution))


def test_standard_tableau_priced_as_fixed_strategies() -> None:
    """No free cell: the value is the standard tableau's P(player wins) - P(banker wins), as the engine counts."""
    rules = ChoiceRules.from_tableau(STANDARD_TABLEAU)
    for shoe in (Shoe.decks(1), Shoe.decks(8), Shoe.infinite_deck()):
        dist = deal_winners(shoe)
        want = Fraction(dist["player"] - dist["banker"], dist.total)
        solution = solve(choice_game(shoe, Information.TOTALS, rules))
        assert solution.value == want and solution.player == ()
    assert brute_force(SMALL, Information.TOTALS, rules) == solve(choice_game(SMALL, Information.TOTALS, rules)).value


def test_fixed_pair_expectation_equals_brute_force() -> None:
    rules = parse_choice_rules('[player]\n5 = "1/3"\n[banker]\n6 = "S S S S S S S 1/2 D S S"\n'
                               '3 = "D D D D D D D D D S D"\n' + "".join(
                                   f'{t} = "{" ".join("D" if t < 6 else "S" for _ in COLUMNS)}"\n'
                                   for t in (0, 1, 2, 4, 5, 7)))
    game = choice_game(SMALL, Information.TOTALS, rules)
    assert not game.player_sets
    assert expectation(game, (), [None] * len(game.banker_sets)) == brute_force(SMALL, Information.TOTALS, rules)


def test_payoff_table_counts_every_sequence() -> None:
    table = payoff_table(Shoe.decks(2))
    stood = sum(row[0].ways for row in table.cells.values())
    dist = deal_winners(Shoe.decks(2))
    assert table.total == dist.total and 0 < stood < table.total


@settings(max_examples=12)
@given(st.lists(st.integers(0, 2), min_size=10, max_size=10).filter(lambda c: 6 <= sum(c) <= 8),
       st.sampled_from(list(Information)))
@example([2, 1, 1, 0, 1, 1, 0, 0, 1, 0], Information.OWN_CARDS)
def test_random_small_shoes_solved_exactly(points: list[int], information: Information) -> None:
    """On random shoes of 6-8 cards: the value equals a brute-force play of the solution, certified."""
    counts = [*points[1:], points[0], 0, 0, 0]  # ranks A-9, then the tens
    shoe = Shoe.from_counts(counts)
    solution = solve(choice_game(shoe, information))
    assert solution.certificate.holds
    assert brute_force(shoe, information, solution_rules(solution)) == solution.value


def test_models_and_their_names() -> None:
    assert parse_model("a1") == (True, Information.TOTALS)
    assert model_code(Shoe.decks(6), Information.OWN_CARDS) == "B3"
    with pytest.raises(StrategyError, match="unknown model"):
        parse_model("C4")
    rules = parse_choice_rules('[banker]\n"0+6" = "S S S S S S S D D S S"')
    with pytest.raises(StrategyError, match="sees only his total"):
        choice_game(Shoe.decks(1), Information.TOTALS, rules)


def test_strategy_spaces_have_the_papers_sizes() -> None:
    a1 = choice_game(Shoe.infinite_deck(), Information.TOTALS)
    b3 = choice_game(Shoe.decks(8), Information.OWN_CARDS)
    assert (len(a1.player_sets), len(a1.banker_sets)) == (1, 88)
    assert (len(b3.player_sets), len(b3.banker_sets)) == (5, 484)
    assert all(b.decision is None for b in b3.banker_sets) and PARLOUR_RULES.player[5] is None


@pytest.mark.parametrize(("text", "message"), [
    ('[player]\n12 = "F"', "player total '12' does not exist"),
    ('[player]\n8 = "F"', "natural"),
    ('[player]\n5 = "3/2"', "out of range"),
    ('[banker]\n"4+4" = "F F F F F F F F F F F"', "natural"),
    ('[banker]\n5 = "D D"', "11 cells"),
    ('[player]\n' + "".join(f'{t} = "S"\n' for t in range(8)) + '[banker]\n3 = "D F D D D D D D D S D"',
     "cannot be reached"),
    ('colour = "red"', "unknown key"),
])
def test_bad_rules_files(text: str, message: str) -> None:
    with pytest.raises(ChoiceRulesError, match=message):
        parse_choice_rules(text, source="house.toml")


@pytest.mark.parametrize("information", list(Information))
def test_the_decks_table_is_single_shoes_and_tends_to_model_a(information: Information) -> None:
    """Each row equals the shoe solved alone; the last row IS model A, and the values approach it as d grows."""
    solutions = solve_by_decks(3, information)
    shoes = [Shoe.decks(1), Shoe.decks(2), Shoe.decks(3), Shoe.infinite_deck()]
    assert [s.game.shoe for s in solutions] == shoes
    for solution, shoe in zip(solutions, shoes, strict=True):
        alone = solve(choice_game(shoe, information))
        assert (solution.value, solution.player, solution.banker) == (alone.value, alone.player, alone.banker)
        assert solution.certificate.holds
    limit = solutions[-1]
    assert limit.game.model == f"A{information.value}" and limit.value == Fraction(-679568, 53094899)
    gaps = [abs(s.value - limit.value) for s in solutions[:-1]]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < gaps[0]
