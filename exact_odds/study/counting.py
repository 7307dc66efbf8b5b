"""Counts of one's own: tags per rank, a true-count trigger and a bet, judged by exact expectations.

The running count adds the tags of the cards seen, the *true count* is ``running * 52 / unseen``, and
the count bets one unit when the true count reaches its trigger, compared in integers. Specs, the
published counts and what a study reports of a count: docs/study.md.

>>> count = Count.parse("4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4")
>>> count.tags, count.trigger, count.bet
((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), Fraction(4, 1), 'dragon-7')
>>> count.tags == PUBLISHED_COUNTS["jacobson-dragon-7"].tags, count.spec()
(True, '4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4')
>>> import numpy as np
>>> count.triggered(np.array([16, 15]), np.array([208, 208])).tolist()  # true counts 4 and 3.75
[True, False]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.analysis.removal import Correlation, correlation
from exact_odds.core.shoe import RANK_LABELS, RANKS, ShoeError, parse_rank
from exact_odds.core.stats import Estimate
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.registry import unknown_name
from exact_odds.inputs.validate import TAG, THRESHOLD_EXACT, shown
from exact_odds.study.estimates import per_coup, per_shoe, ratio
from exact_odds.study.records import DECK

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.analysis.removal import Removal

    Array = npt.NDArray[Any]


class CountError(InputError):
    """A count spec that cannot be read, or a count that cannot be studied; the message says why."""


@dataclass(frozen=True, slots=True)
class Count:
    """A count: ``tags`` per rank (A..K), bet ``bet`` when the true count >= ``trigger``; ``source`` says
    where it was published (empty for one's own)."""

    name: str
    tags: tuple[int, ...]
    trigger: Fraction
    bet: str
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.tags) != len(RANKS):
            raise CountError(f"a count tags each of the {len(RANKS)} ranks, got {len(self.tags)} tags")

    @classmethod
    def parse(cls, spec: str, *, name: str | None = None) -> Count:
        """A count from ``"4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4"`` (see the module docstring)."""
        tags: dict[int, int] = {}
        fields: dict[str, str] = {}
        for entry in re.split(r"[,\s]+", spec.strip()):
            if not entry:
                continue
            key, value = _split_entry(entry)
            if key in ("bet", "tc", "name"):
                if key in fields:
                    raise CountError(f"{shown(key)} is given twice in count {shown(spec)}")
                fields[key] = value
                continue
            for rank in _ranks_of(key, entry):
                if rank in tags:
                    raise CountError(f"rank {RANK_LABELS[rank]} is tagged twice in count {shown(spec)}")
                tags[rank] = TAG.parse(value, f"count entry {shown(entry)}: a tag", CountError)
        for key, what in (("bet", "bet=NAME (e.g. bet=dragon-7)"), ("tc", "a trigger tc>=T (e.g. tc>=4)")):
            if key not in fields:
                raise CountError(f"count {shown(spec)} needs {what}")
        label = name or fields.get("name") or f"{fields['bet']} count"
        trigger = THRESHOLD_EXACT.parse(fields["tc"], "trigger tc>=T", CountError)
        return cls(label, tuple(tags.get(i, 0) for i in range(len(RANKS))), trigger, fields["bet"])

    def spec(self) -> str:
        """The count as a spec that :meth:`parse` reads back (ranks of equal tags grouped)."""
        return ", ".join([*self.tag_entries(), f"bet={self.bet}", f"tc>={_number_text(self.trigger)}"])

    def tag_entries(self) -> list[str]:
        """The non-zero tags as ``RANKS=TAG`` entries, ranks of equal tags grouped (``["4|5|6|7=-1", ...]``)."""
        by_tag: dict[int, list[str]] = {}
        for label, tag in zip(RANK_LABELS, self.tags, strict=True):
            if tag:
                by_tag.setdefault(tag, []).append(label)
        return [f"{'|'.join(labels)}={tag:+d}" for tag, labels in sorted(by_tag.items())]

    def triggered(self, running: Array, unseen: Array) -> Array:
        """Whether the true count is at least the trigger ``T``, exactly: whether ``52 * running`` reaches
        ``ceil(T * unseen)``, made in Python integers once per number of cards unseen (a trigger of many
        digits, ``tc>=1e-17``, would overflow int64)."""
        run = np.asarray(running, dtype=np.int64)
        left = np.asarray(unseen, dtype=np.int64)
        if left.size == 0:
            return np.zeros(left.shape, dtype=np.bool_)
        low = int(left.min())
        least = np.zeros(int(left.max()) - low + 1, dtype=np.int64)  # by cards unseen, less the fewest
        met = np.zeros(len(least), dtype=np.bool_)
        met[left - low] = True
        t = self.trigger
        for n in np.flatnonzero(met).tolist():  # a sort of the coups, np.unique, cost 8 times the comparison
            least[n] = -(-t.numerator * (n + low) // t.denominator)
        return np.asarray(DECK * run >= least[left - low], dtype=np.bool_)

    def balance(self) -> int:
        """The sum of the tags over one deck (0 for a balanced count)."""
        return 4 * sum(self.tags)


def _split_entry(entry: str) -> tuple[str, str]:
    match = re.fullmatch(r"([^=<>]+)(>=|=)(.+)", entry)
    if match is None:
        raise CountError(f"count entry {shown(entry)} should look like RANKS=TAG (e.g. 8|9=+2), bet=NAME or tc>=T")
    key, op, value = match.groups()
    key = key.strip().lower() if key.strip().lower() in ("bet", "tc", "name") else key.strip()
    if (key == "tc") != (op == ">="):
        raise CountError(f"count entry {shown(entry)}: write the trigger as tc>=T and tags as RANKS=TAG")
    return key, value.strip()


def _ranks_of(text: str, entry: str) -> list[int]:
    try:
        return [parse_rank(part) - 1 for part in text.split("|")]
    except ShoeError as err:
        raise CountError(f"count entry {shown(entry)}: {err}") from None


def _number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else str(float(x)) if (x * 10**6).denominator == 1 else str(x)


JACOBSON_SOURCE = ("E. Jacobson, \"Card Counting the Dragon Side Bet in EZ Baccarat\", Wizard of Odds, 2011 "
                   "(wizardofodds.com/games/baccarat/dragon-bet/)")
WIZARD_PANDA_SOURCE = ("M. Shackleford, \"Card Counting the Panda 8 Bet\", Wizard of Odds "
                       "(wizardofodds.com/games/baccarat/appendix/8/)")

PUBLISHED_COUNTS: dict[str, Count] = {
    "jacobson-dragon-7": Count("jacobson-dragon-7", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), Fraction(4),
                               "dragon-7", JACOBSON_SOURCE),
    "wizard-panda-8": Count("wizard-panda-8", (1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1), Fraction(11),
                            "panda-8", WIZARD_PANDA_SOURCE),
}
"""Published counts by name (tags A..K; both balanced: one deck's tags add up to 0)."""


def numbered(counts: Sequence[Count]) -> tuple[Count, ...]:
    """The counts, a repeated name numbered (``"dragon-7 count"``, ``"dragon-7 count (2)"``)."""
    out: list[Count] = []
    for count in counts:
        names = {c.name for c in out}
        name, k = count.name, 1
        while name in names:
            k += 1
            name = f"{count.name} ({k})"
        out.append(replace(count, name=name))
    return tuple(out)


def find_count(text: str) -> Count:
    """A published count by name (:data:`PUBLISHED_COUNTS`), else a count spec."""
    key = text.strip().lower()
    if key in PUBLISHED_COUNTS:
        return PUBLISHED_COUNTS[key]
    if "=" not in text:
        raise CountError(unknown_name("count", text.strip(), PUBLISHED_COUNTS,
                                      f" (published counts: {', '.join(PUBLISHED_COUNTS)}; or write a spec such as "
                                      "'4|5|6|7=-1, 8|9=+2, bet=dragon-7, tc>=4')"))
    return Count.parse(text)


@dataclass(frozen=True, slots=True)
class CountStudy:
    """What a count did over the shoes of a study (bettor's side, units staked): ``expectation``, the bet's
    exact ``player_ev`` in the full shoe; ``frequency`` of the coups it bets; ``player_ev`` / ``realised_ev``,
    their mean exact expectation / result (``None`` if none); ``gain_*`` / ``realised_*``, the expected /
    realised result per coup dealt and per shoe; ``bets_per_shoe``."""

    count: Count
    expectation: Fraction
    correlation: Correlation
    frequency: Estimate
    player_ev: Estimate | None
    realised_ev: Estimate | None
    gain_per_coup: Estimate
    realised_per_coup: Estimate
    gain_per_shoe: Estimate
    realised_per_shoe: Estimate
    bets_per_shoe: Estimate


@dataclass(frozen=True, slots=True)
class CountComparison:
    """Two counts on the same shoes, ``first`` minus ``second`` shoe by shoe: ``both``, the share of coups
    on which both trigger, and the mean per-shoe difference of the expected and realised gains."""

    first: str
    second: str
    both: float
    gain_per_shoe: Estimate
    realised_per_shoe: Estimate


@dataclass(frozen=True, slots=True)
class CountColumns:
    """What a study recorded of one count's bet, coup by coup: the count's ``running`` count, cards
    ``unseen``, the bet's exact ``player_ev`` (float, sign exact), its ``result``, and each coup's ``shoe``."""

    running: Array
    unseen: Array
    player_ev: Array
    result: Array
    shoe: Array
    shoes: int


def count_correlation(count: Count, removal: Removal) -> Correlation:
    """Betting correlation of the tags with the exact effects of removal of the bet, weighted by the shoe."""
    weights = [n if e is not None else 0 for n, e in zip(removal.shoe.counts, removal.effects, strict=True)]
    values = [e if e is not None else Fraction(0) for e in removal.effects]
    return correlation(list(count.tags), values, weights)


def study_count(count: Count, removal: Removal, columns: CountColumns) -> CountStudy:
    """A count's results over the coups of a study (see :class:`CountStudy`)."""
    c = columns
    bet = count.triggered(c.running, c.unseen).astype(np.float64)
    expected, realised = c.player_ev * bet, c.result * bet
    return CountStudy(
        count, removal.expectation, count_correlation(count, removal), per_coup(bet, c.shoe, c.shoes),
        ratio(expected, bet, c.shoe, c.shoes), ratio(realised, bet, c.shoe, c.shoes),
        per_coup(expected, c.shoe, c.shoes), per_coup(realised, c.shoe, c.shoes), per_shoe(expected, c.shoe, c.shoes),
        per_shoe(realised, c.shoe, c.shoes), per_shoe(bet, c.shoe, c.shoes))


def compare_counts(first: Count, a: CountColumns, second: Count, b: CountColumns) -> CountComparison:
    """``first`` against ``second`` on the same coups (the columns of one study)."""
    bet_a = first.triggered(a.running, a.unseen)
    bet_b = second.triggered(b.running, b.unseen)
    diff = np.where(bet_a, a.player_ev, 0.0) - np.where(bet_b, b.player_ev, 0.0)
    diff_realised = np.where(bet_a, a.result, 0.0) - np.where(bet_b, b.result, 0.0)
    return CountComparison(first.name, second.name, float(np.mean(bet_a & bet_b)),
                           per_shoe(diff, a.shoe, a.shoes), per_shoe(diff_realised, a.shoe, a.shoes))
