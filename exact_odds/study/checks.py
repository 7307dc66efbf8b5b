"""What a study may be asked: the checks :func:`exact_odds.study.run.run_study` makes before dealing,
the memory of its records of every coup included (:data:`RECORD_MEMORY`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from exact_odds.core.coup import Detail, Payable
from exact_odds.core.shoe import MIN_CARDS_PER_COUP, Shoe, ShoeError
from exact_odds.dealing.procedure import Procedure
from exact_odds.dealing.shuffle import check_seed
from exact_odds.inputs.errors import InputError, suits_unknown
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    from exact_odds.analysis.information import Information
    from exact_odds.study.counting import Count


class StudyError(InputError):
    """Study options or a recorded shoe that cannot be used; the message says why."""


RECORD_MEMORY = 8 * 2**30
"""The most memory (bytes) a study's records may need: 8 GiB, about 250,000 shoes of 8 decks with
the three main bets. A larger study is refused up front; several studies with different seeds
cover more shoes."""

FIXED_BYTES = 56
"""Bytes of a coup's record whatever is studied: shoe index, cards unseen, winner, first card
(8 each) and the three probabilities (8 each)."""

BET_BYTES = 25
"""Bytes of a coup's record per bet: player EV, running count and result (8 each), favourable (1)."""

WORKING_COPIES = 3
"""The records are held about three times over at the peak: the tasks' parts, the joined arrays, and
the sorted copies the quantiles read (measured: 34 KB a shoe of 8 decks, 131 bytes a coup, 81 coups)."""


def record_bytes(shoe: Shoe, bets: int, counts: int, sorting: bool) -> int:
    """An upper bound of the memory (bytes) one shoe's records need at the peak."""
    per_coup = FIXED_BYTES + BET_BYTES * bets + 8 * counts + (32 if sorting else 0)
    return WORKING_COPIES * per_coup * (shoe.size // MIN_CARDS_PER_COUP)


def check_memory(shoe: Shoe, shoes: int, bets: int, counts: int, sorting: bool) -> None:
    """Raise unless the records of ``shoes`` shoes fit :data:`RECORD_MEMORY`."""
    each = record_bytes(shoe, bets, counts, sorting)
    if shoes * each > RECORD_MEMORY:
        raise StudyError(
            f"a study keeps a record of every coup: {shoes:,} shoes of {shoe} would need up to "
            f"{shoes * each / 2**30:,.1f} GiB, more than the {RECORD_MEMORY // 2**30} GiB a study may take; "
            f"study at most {RECORD_MEMORY // each:,} shoes at once (several studies with different seeds "
            "cover more)")


def check_study(shoe: Shoe, shoes: int, seed: int, bets: Sequence[Payable], procedure: Procedure,
                workers: int) -> None:
    """Raise unless a study with these arguments can run."""
    if shoes < 1:
        raise StudyError(f"the number of shoes must be at least 1, got {shoes}")
    if workers < 1:
        raise StudyError(f"the number of workers must be at least 1, got {workers}")
    if not bets:
        raise StudyError("a study needs at least one bet")
    if shoe.infinite:
        raise StudyError("a study deals finite shoes (give --decks N or --shoe SPEC)")
    if procedure.fresh:
        raise StudyError("a study deals whole shoes down to the cut card, not fresh shoes")
    procedure.check(shoe)
    check_seed(seed)
    if shoe.suited is None and any(b.detail is Detail.SUITS for b in bets):
        raise ShoeError(suits_unknown())


def check_play(bets: Sequence[Payable], counts: Sequence[Count], edge_sort: Information | None,
               sort_bets: Sequence[Payable]) -> None:
    """Raise unless every count's bet is studied and edge sorting can choose among its bets."""
    names = [b.name for b in bets]
    for count in counts:
        if count.bet not in names:
            raise StudyError(f"count {shown(count.name)} bets {shown(count.bet)}, which is not among the study's bets "
                             f"({', '.join(names)})")
    if edge_sort is None:
        return
    if edge_sort.positions != (1,):
        raise StudyError("edge sorting over shoes watches the first card of each coup (position 1)")
    if not sort_bets or any(b.detail is Detail.SUITS for b in sort_bets):
        raise StudyError("edge sorting chooses among one or more bets that do not look at suits")
