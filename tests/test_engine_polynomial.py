"""The single-shoe tables (exact_odds.engine.polynomial) against the reference enumerator, and the light start-up.

Convention: ways of ordered six-card sequences, unused cards included (``engine.enumerate_coups``);
the fast path must return the identical ``Dist`` (same coups, same integers) at every detail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import exact_odds
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import Shoe, ShoeError, falling
from exact_odds.core.tableau import COLUMNS, STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal, deal_winners, enumerate_coups, fastest, winners
from exact_odds.engine.polynomial import build_single, deal_by_tables, winners_by_tables
from exact_odds.engine.store import Arrays
from exact_odds.report.base import NARROW, plain_layout

ROOT = Path(__file__).resolve().parent.parent


def _suited(rows: list[list[int]]) -> Shoe:
    """A shoe from per-rank suit counts (suits known)."""
    return Shoe(tuple(sum(r) for r in rows), tuple(tuple(r) for r in rows))


def _agree(shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU) -> None:
    """Every detail, and the odds alone, equal the reference enumerator's."""
    for detail in Detail:
        if detail is Detail.SUITS and shoe.suited is None:
            continue
        reference = enumerate_coups(shoe, tableau, detail)
        assert deal_by_tables(shoe, tableau, detail) == reference, (shoe, detail)
    assert winners_by_tables(shoe, tableau) == winners(reference), shoe


@pytest.mark.parametrize("decks", [1, 2, 8, 100, 10_000])
def test_whole_decks_every_detail(decks: int) -> None:
    _agree(Shoe.decks(decks))


def test_infinite_deck_every_detail() -> None:
    _agree(Shoe.infinite_deck())
    _agree(Shoe((1, 2, 0, 3, 1, 0, 0, 5, 1, 2, 0, 1, 9), infinite=True))  # proportions, suits unknown


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 10_000))
@example(416)
def test_any_number_of_decks(decks: int) -> None:
    shoe = Shoe.decks(decks)
    for detail in (Detail.POINTS, Detail.SUITS):
        dist = deal_by_tables(shoe, STANDARD_TABLEAU, detail)
        assert dist == enumerate_coups(shoe, STANDARD_TABLEAU, detail)
        assert dist.total == falling(52 * decks, 6)
    assert winners_by_tables(shoe, STANDARD_TABLEAU) == winners(dist)


suit_rows = st.lists(st.lists(st.integers(0, 9), min_size=4, max_size=4), min_size=13, max_size=13).filter(
    lambda rows: sum(map(sum, rows)) >= 6)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(suit_rows)
@example([[1, 0, 0, 0]] * 6 + [[0] * 4] * 7)  # six singletons: no pair possible
@example([[0] * 4] * 12 + [[6, 0, 0, 0]])  # six kings of one suit: every pair suited, every coup a twin
@example([[2, 2, 0, 0]] * 2 + [[0] * 4] * 11)  # two ranks of point 1 and 2, two suits each
def test_depleted_shoes_with_suits(rows: list[list[int]]) -> None:
    _agree(_suited(rows))


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
@example([0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0])  # six tens: one point class, one rank
def test_rank_counts_without_suits(counts: list[int]) -> None:
    shoe = Shoe(tuple(counts))
    _agree(shoe)
    with pytest.raises(ShoeError, match="suits are known"):
        deal_by_tables(shoe, STANDARD_TABLEAU, Detail.SUITS)


@st.composite
def tableaux(draw: st.DrawFn) -> Tableau:
    """Any rule the format can write (built as data)."""
    naturals = draw(st.frozensets(st.integers(0, 9), max_size=4))
    player = tuple(draw(st.booleans()) for _ in range(10))
    rows = tuple(tuple(draw(st.lists(st.booleans(), min_size=len(COLUMNS), max_size=len(COLUMNS))))
                 for _ in range(10))
    return Tableau("random", naturals, player, rows)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(tableaux(), suit_rows)
@example(Tableau("all draw", frozenset(), (True,) * 10, ((True,) * 11,) * 10), [[1, 1, 1, 1]] * 13)
def test_any_tableau(tableau: Tableau, rows: list[list[int]]) -> None:
    """The tables of a custom rule (built, then cached in the test's cache directory) agree too."""
    _agree(_suited(rows), tableau)


def test_deal_is_the_reference_dist() -> None:
    """``deal`` walks a shoe of few kinds of card and evaluates the tables otherwise: the same Dist."""
    few = Shoe.from_counts([4, 4, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4])  # three point classes, six ranks
    assert fastest(few, Detail.POINTS) and not fastest(few, Detail.SUITS)
    assert not fastest(Shoe.decks(6), Detail.POINTS)
    for shoe in (few, Shoe.decks(6)):
        assert deal(shoe, detail=Detail.SUITS) == enumerate_coups(shoe, detail=Detail.SUITS)
        assert deal_winners(shoe) == winners(enumerate_coups(shoe))


def test_table_layout() -> None:
    """The standard tables: the sizes the module promises; one group of segments per (family, coup)."""
    points: Arrays = build_single(STANDARD_TABLEAU, "points")
    pairs: Arrays = build_single(STANDARD_TABLEAU, "pairs")
    assert len(points["mono"]) == 35_564 and len(points["group_end"]) == 205  # 205 coups of totals and cards
    assert len(pairs["mono"]) < 32_000
    for arrays in (points, pairs):
        assert arrays["group_end"][-1] == len(arrays["seg_end"]) and arrays["seg_end"][-1] == len(arrays["mono"])
        groups = list(zip(arrays["group_family"], arrays["group_code"], strict=True))
        assert groups == sorted(set(groups))


# ---------------------------------------------------------------- tabulate's layouts written out

cell = st.text(alphabet=sorted(NARROW), max_size=10)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(cell, min_size=n, max_size=n), st.lists(st.lists(cell, min_size=n, max_size=n), min_size=1, max_size=4))),
       st.sampled_from(["simple", "github"]))
@example((["a", " b "], [["", "x  "]]), "simple")
@example((["total", "P ≈"], [["9♠", "± 1"]]), "github")
def test_plain_layout_is_tabulate(table: tuple[list[str], list[list[str]]], fmt: str) -> None:
    from tabulate import tabulate

    headers, rows = table
    assert plain_layout(headers, rows, fmt) == tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True)


def test_plain_layout_leaves_the_rest_to_tabulate() -> None:
    assert plain_layout(["a"], [["漢字"]], "simple") is None  # two columns each: tabulate measures them
    assert plain_layout(["a"], [["two\nlines"]], "simple") is None
    assert plain_layout(["a"], [], "simple") is None
    assert plain_layout(["a"], [["x"]], "grid") is None


# ---------------------------------------------------------------- start-up

PROBE = """
import json, sys
from exact_odds.cli import main
main(sys.argv[1:])
heavy = ("numpy", "sympy", "matplotlib", "tabulate")
print(json.dumps([m for m in heavy if m in sys.modules]), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [
    ["odds", "--decks", "8"], ["edges"], ["parsheet", "--bet", "banker"], ["report"],
    ["sidebets", "--decks", "8"], ["bunco"], ["odds", "--format", "markdown"], ["report", "--format", "json"],
], ids=lambda argv: " ".join(argv))
def test_interactive_commands_import_nothing_heavy(argv: list[str]) -> None:
    """The single-shoe commands load neither NumPy, SymPy, Matplotlib nor tabulate (a fresh process)."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []


def test_the_package_imports_nothing_heavy() -> None:
    """``import exact_odds`` loads neither NumPy, SymPy, Matplotlib nor tabulate (a fresh process);
    every name of ``__all__`` is found."""
    done = subprocess.run([sys.executable, "-c", "import sys, exact_odds; print(sorted(m for m in sys.modules "
                           "if m in ('numpy', 'sympy', 'matplotlib', 'tabulate')))"], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
    for name in exact_odds.__all__:
        assert getattr(exact_odds, name) is not None
    assert set(exact_odds.__all__) <= set(dir(exact_odds))
