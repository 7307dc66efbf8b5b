"""User-defined side bets from TOML: built-in equivalents, the oracle, published figures, errors."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import brute_force, shoe_cards
from test_bets_side import line_ways, suited_shoe, tiny_suited_shoes

from exact_odds.bets import BUILTIN_BETS, BetError, find_bet
from exact_odds.bets.user import FIELDS, MAX_FILE_LINES, MAX_LINES, Conditions, load_bets, parse_bets
from exact_odds.core.coup import Coup, Detail
from exact_odds.core.shoe import Shoe
from exact_odds.engine.enumerator import deal

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "side_bets.toml"
EIGHT = Shoe.decks(8)
SAME_AS_BUILT_IN = {
    "my-dragon-7": "dragon-7",
    "my-dragon-bonus-player": "dragon-bonus-player",
    "my-perfect-pair": "perfect-pair",
    "my-tiger-pair": "tiger-pair",
}


def test_example_file_bets_equal_the_built_ins_at_eight_decks() -> None:
    bets = BUILTIN_BETS.extended(load_bets(EXAMPLE))
    for mine, builtin in SAME_AS_BUILT_IN.items():
        a, b = bets.find(mine), bets.find(builtin)
        assert a.detail == b.detail, mine
        dist = deal(EIGHT, detail=a.detail)
        # Identical ways of every payout (the Tiger Pair file pays one pair on one line, not two).
        assert dist.map(a.payout) == dist.map(b.payout), mine


@settings(max_examples=25, deadline=None)
@given(tiny_suited_shoes())
@example(suited_shoe({(6, 0): 2, (6, 1): 2, (0, 0): 2}))
def test_example_file_bets_agree_with_brute_force(shoe: Shoe) -> None:
    oracle = brute_force(shoe_cards(shoe))
    for bet in load_bets(EXAMPLE):
        assert line_ways(bet, deal(shoe, detail=bet.detail).items()) == line_ways(bet, oracle.items()), bet.name


def test_published_figures_of_bets_that_are_not_built_in() -> None:
    # E. Jacobson, advancedadvantageplay.com, "Baccarat side bets", 8 decks: 88 89 98 99 at 20:1,
    # 7.372%; 9 over 7 at 50:1, 8.103%; Bad Beat at 50:1, 8.459% (we get 8.4585%).
    bets = {bet.name: bet for bet in load_bets(EXAMPLE)}

    def edge(name: str) -> float:
        bet = bets[name]
        return float(-deal(EIGHT, detail=bet.detail).expectation(bet.payout)) * 100

    assert round(edge("88-89-98-99"), 3) == 7.372
    assert round(edge("9-over-7"), 3) == 8.103
    assert abs(edge("bad-beat") - 8.459) < 0.001


def test_loading_twice_gives_equal_bets_held_once() -> None:
    first = load_bets(EXAMPLE)
    joined = BUILTIN_BETS.extended(first)
    again = load_bets(EXAMPLE, joining=joined)  # the same bets again: no clash
    assert again == first and joined.extended(again) == joined
    assert len(joined) == len(BUILTIN_BETS) + len(first)
    assert joined.find("MY DRAGON 7") is first[0]


DRAGON = """\
[[bet]]
name = "{name}"
source = "test"

[[bet.line]]
pays = "40:1"
winner = "banker"
banker_total = 7
banker_cards = 3
"""


def test_default_labels_description_and_detail() -> None:
    (bet,) = parse_bets(DRAGON.format(name="t-dragon"))
    assert bet.lines[0].label == "winner banker, banker_total 7, banker_cards 3"
    assert bet.description == "winner banker, banker_total 7, banker_cards 3: pays 40."
    assert bet.detail is Detail.POINTS and bet.payout(Coup(2, 7, 3, 3)) == 40 and bet.payout(Coup(2, 7, 3, 2)) == -1


@pytest.mark.parametrize(("text", "detail"), [
    ('pays = 1\nmargin = [1, 3]', Detail.POINTS),
    ('pays = 1\npairs = 2', Detail.RANKS),
    ('pays = 1\ntwin_pair = true', Detail.RANKS),
    ('pays = 1\nbanker_suited_pair = true\nwinner = "tie"', Detail.SUITS),
])
def test_detail_is_the_least_the_conditions_need(text: str, detail: Detail) -> None:
    (bet,) = parse_bets(f'[[bet]]\nname = "t-detail"\nsource = "s"\n[[bet.line]]\n{text}\n')
    assert bet.detail is detail


def test_pays_words_and_partial_losses() -> None:
    text = ('[[bet]]\nname = "t-pays"\nsource = "s"\n[[bet.line]]\npays = "push"\nwinner = "tie"\n'
            '[[bet.line]]\npays = "-1/2"\nwinner = "player"\n[[bet.line]]\npays = "lose"\n')
    (bet,) = parse_bets(text)
    assert [line.pays for line in bet.lines] == [0, Fraction(-1, 2), -1]
    assert bet.lines[2].label == "any coup"


LINE = "[[bet]]\nname = 'x'\nsource = 's'\n[[bet.line]]\n"  # [[bet.line]] is line 4, its keys from line 5
BAD = [
    ("[[bet]]\nname = 'x'\n", r"bets:1: a bet needs source"),
    ("[[bet]]\nsource = 's'\n", r"bets:1: a bet needs name"),
    ("[[bet]]\nname = 'x'\nsource = 's'\n", r"bets:1: bet 'x' has no pay lines"),
    (LINE + "winner = 'banker'\n", r"bets:4: a pay line needs pays"),
    (LINE + "pays = 0.95\n", r"bets:5: pays: 0.95 is a float"),
    (LINE + "pays = '-2'\n", r"bets:5: pays: '-2' loses more than the stake \(the least is -1\)"),
    (LINE + "pays = 1\nbanker_totl = 7\n",
     r"bets:6: unknown key 'banker_totl' \(did you mean 'banker_total'\?\)"),
    (LINE + "pays = 1\n\nbanker_total = 10\n",
     r"bets:7: banker_total must be 0-9, got 10"),
    (LINE + "pays = 1\nmargin = [9, 4]\n", r"bets:6: margin = \[9, 4\] is empty"),
    (LINE + "pays = 1\nmargin = [1, 2, 3]\n", r"bets:6: margin = \[low, high\]"),
    (LINE + "pays = 1\ncards = { one_of = [] }\n", r"bets:6: cards = \{ one_of"),
    (LINE + "pays = 1\nwinner = 'dragon'\n", r"bets:6: winner must be"),
    (LINE + "pays = 1\nnatural = 1\n", r"bets:6: natural must be true or false"),
    ("[[bet]]\nname = 'x'\nsource = 's'\ncolour = 'red'\n[[bet.line]]\npays = 1\n", r"bets:4: unknown key 'colour'"),
    (LINE + "pays = 1\n[[bet]]\nname = 'X'\nsource = 's'\n"
     "[[bet.line]]\npays = 2\n", r"bets:7: bet name 'X' is used twice in this file"),
    ("[[bet]]\nname = 'dragon-7'\nsource = 's'\n[[bet.line]]\npays = 1\n",
     r"bets:2: bet name 'dragon-7' is already taken by the bet 'dragon-7'"),
    ("[[bet]]\nname = 'x'\naliases = ['fortune-7']\nsource = 's'\n[[bet.line]]\npays = 1\n",
     r"bets:3: bet name 'fortune-7' is already taken"),
    ("[bets]\nname = 'x'\n", r"bets:1: unknown key 'bets' \(did you mean 'bet'\?\); write each bet as \[\[bet\]\]"),
    ("name = 'x'\n", r"bets:1: unknown key 'name'"),
    ("", r"bets: no bets"),
    ("[[bet]\n", r"bets:1: not valid TOML"),

    (LINE + "pays = 1\n[[bet]]\nname = 'y'\nsource = ''\n",
     r"bets:8: a bet needs source"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_errors_name_the_line_and_the_problem(text: str, message: str) -> None:
    with pytest.raises(BetError, match=f"^{message}") as err:
        parse_bets(text)
    assert "\n" not in str(err.value)


def test_reading_bets_changes_nothing_global() -> None:
    before = list(BUILTIN_BETS.values())
    (bet,) = parse_bets(DRAGON.format(name="t-atomic"))
    assert bet.name == "t-atomic" and list(BUILTIN_BETS.values()) == before
    with pytest.raises(BetError, match="unknown bet 't-atomic'"):
        find_bet("t-atomic")
    text = DRAGON.format(name="t-atomic") + "[[bet]]\nname = 't-atomic-2'\nsource = 's'\n"
    with pytest.raises(BetError, match="has no pay lines"):
        parse_bets(text)


def test_a_different_bet_under_a_name_of_the_set_it_joins_is_refused() -> None:
    joined = BUILTIN_BETS.extended(parse_bets(DRAGON.format(name="t-clash")))
    assert parse_bets(DRAGON.format(name="t-clash"), joining=joined)  # the very same bet is fine
    with pytest.raises(BetError, match="^bets:2: bet name 't-clash' is already taken by the bet 't-clash'"):
        parse_bets(DRAGON.format(name="t-clash").replace("40:1", "41:1"), joining=joined)
    assert parse_bets(DRAGON.format(name="t-clash").replace("40:1", "41:1"))  # the built-ins alone: no clash


def _many_lines(bets: int, lines: int) -> str:
    return "".join(f"[[bet]]\nname = 'x{b}'\nsource = 's'\n" + "[[bet.line]]\npays = 1\n" * lines for b in range(bets))


def test_a_bet_or_a_file_with_too_many_pay_lines_is_refused_with_its_line() -> None:
    """Every coup tries a bet's lines in order: a bet has at most 200, a file 1,000 in all (the limits hold)."""
    assert len(parse_bets(_many_lines(5, MAX_LINES))) == 5
    with pytest.raises(BetError, match=r"^bets:1: bet 'x0' has 201 pay lines; at most 200 are allowed$"):
        parse_bets(_many_lines(1, MAX_LINES + 1))
    eleventh = 1 + 10 * (3 + 2 * 100)  # the line of the bet that passes 1,000: 10 bets of 3 + 2 x 100 lines before it
    with pytest.raises(BetError, match=rf"^bets:{eleventh}: the file has more than 1,000 pay lines in all"):
        parse_bets(_many_lines(11, MAX_FILE_LINES // 10))


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(BetError, match="cannot read bets file"):
        load_bets(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text(DRAGON.format(name="t-file").replace("banker_cards = 3", "banker_cards = 4"))
    with pytest.raises(BetError, match=f"^{bad}:9: banker_cards must be 2-3, got 4$"):
        load_bets(bad)


# ---------------------------------------------------------------- conditions against a direct reading

DIRECT: dict[str, Callable[[Coup], object]] = {
    "winner": lambda c: c.winner,
    "player_total": lambda c: c.player,
    "banker_total": lambda c: c.banker,
    "player_cards": lambda c: c.player_cards,
    "banker_cards": lambda c: c.banker_cards,
    "cards": lambda c: c.player_cards + c.banker_cards,
    "margin": lambda c: max(c.player, c.banker) - min(c.player, c.banker),
    "natural": lambda c: c.player_cards + c.banker_cards == 4 and (c.player >= 8 or c.banker >= 8),
    "player_natural": lambda c: c.player_cards == 2 and c.player in (8, 9),
    "banker_natural": lambda c: c.banker_cards == 2 and c.banker in (8, 9),
    "player_pair": lambda c: c.player_pair,
    "banker_pair": lambda c: c.banker_pair,
    "twin_pair": lambda c: c.twin_pair,
    "pairs": lambda c: [c.player_pair, c.banker_pair].count(True),
    "player_suited_pair": lambda c: c.player_suited,
    "banker_suited_pair": lambda c: c.banker_suited,
    "suited_pairs": lambda c: [c.player_suited, c.banker_suited].count(True),
}
COUPS = list(deal(suited_shoe({(0, 0): 3, (0, 1): 2, (5, 0): 2, (7, 2): 2, (12, 3): 3}), detail=Detail.SUITS))


def toml_value(key: str, draw: st.DrawFn) -> tuple[str, set[object]]:
    """A random TOML value for ``key`` and the set of values it allows."""
    field = FIELDS[key]
    if field.kind == "bool":
        b = draw(st.booleans())
        return str(b).lower(), {b}
    if field.kind == "winner":
        names = draw(st.lists(st.sampled_from(["banker", "player", "tie"]), min_size=1, max_size=3, unique=True))
        return "[" + ", ".join(f'"{n}"' for n in names) + "]", set(names)
    low, high = sorted(draw(st.lists(st.integers(field.low, field.high), min_size=2, max_size=2)))
    form = draw(st.sampled_from(["int", "range", "set"]))
    if form == "int":
        return str(low), {low}
    if form == "range":
        return f"[{low}, {high}]", set(range(low, high + 1))
    return f"{{ one_of = [{low}, {high}] }}", {low, high}


@st.composite
def conditions(draw: st.DrawFn) -> tuple[str, dict[str, set[object]]]:
    keys = draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=4, unique=True))
    text, allowed = [], {}
    for key in keys:
        value, values = toml_value(key, draw)
        text.append(f"{key} = {value}")
        allowed[key] = values
    return "\n".join(text), allowed


@settings(max_examples=80, deadline=None)
@given(conditions())
@example(("margin = [4, 9]\nwinner = \"player\"", {"margin": set(range(4, 10)), "winner": {"player"}}))
def test_conditions_mean_what_the_grammar_says(case: tuple[str, dict[str, set[object]]]) -> None:
    text, allowed = case
    (bet,) = parse_bets(f'[[bet]]\nname = "t-prop"\nsource = "s"\n[[bet.line]]\npays = 1\n{text}\n')
    rule = bet.lines[0].rule
    assert isinstance(rule, Conditions)
    for coup in COUPS:
        assert rule(coup) == all(DIRECT[key](coup) in values for key, values in allowed.items())


def test_user_bets_pickle() -> None:
    import pickle

    for bet in load_bets(EXAMPLE):
        assert pickle.loads(pickle.dumps(bet)) == bet, bet.name
