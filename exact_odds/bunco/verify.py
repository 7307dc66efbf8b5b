"""A log of dice rolls, one roll a line (what ``bunco --verify`` reads and ``--log`` writes), and its check.

The format (CSV or JSON Lines: ``round``, ``dice``, optional ``score`` and ``game``) and the four checks
are described in docs/bunco.md, "Checking a log of rolls"; a line that cannot be read is a
:class:`~exact_odds.bunco.dice.BuncoError` naming it.

>>> log = read_rolls(["round,dice,score", "1,1 1 1,21", '2,"3,5,3",0'], Dice(3, 6))
>>> log.rounds.tolist(), log.faces.tolist(), log.scores.tolist() if log.scores is not None else None
([1, 2], [[1, 1, 1], [3, 5, 3]], [21, 0])
>>> read_rolls(["round,dice", "1,1 7 1"], Dice(3, 6))
Traceback (most recent call last):
  ...
exact_odds.bunco.dice.BuncoError: line 2: column 'dice': 7 is not a face of 3d6 (1 to 6)

>>> from exact_odds.bunco import STANDARD_SCORING
>>> log = read_rolls(["round,dice,score", "1,1 1 1,25", "2,3 5 3,0"], Dice(3, 6))
>>> result = verify_rolls(log, Dice(3, 6), STANDARD_SCORING)
>>> result.check("labels").violations[0].message
'roll 1: score is 25 in the log; the dice 1 1 1 in round 1 (playing for 1s) score 21: a Bunco'
"""

from __future__ import annotations

import csv
import itertools
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from exact_odds.bunco.dice import BuncoError, Dice, Roll, ScoringRules, check_alpha, roll_outcomes, roll_scores
from exact_odds.bunco.simulation import MIN_EXPECTED, pool, score_rolls
from exact_odds.core.dist import Dist
from exact_odds.core.verdict import (
    Check,
    ChiSquare,
    IndicatorSum,
    Tally,
    Violation,
    deterministic_check,
    judge,
    named_check,
    overall,
    statistical_check,
)
from exact_odds.inputs.reading import STDIN, json_objects, user_lines
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from exact_odds.core.verdict import Verdict

COLUMNS = ("game", "round", "dice", "score")
"""The columns a log of rolls may have, in the order ``--log`` writes them."""
REQUIRED = ("round", "dice")


@dataclass(frozen=True, eq=False, slots=True)
class RollLog:
    """Rolls as NumPy columns: ``rounds``, ``faces`` (n, dice), ``scores`` (-1 where the log gave none,
    ``None`` without a score column), ``lines`` read from; the log's ``columns`` and those ``ignored``."""

    rounds: NDArray[np.int64]
    faces: NDArray[np.int64]
    scores: NDArray[np.int64] | None
    lines: NDArray[np.int64]
    columns: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.rounds.shape[0])


def _whole(text: str, what: str, low: int) -> int:
    key = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", key):  # ASCII digits, never a number too long to convert
        raise ValueError(f"{shown(key)} is not {what}")
    value = int(key)
    if value < low:
        raise ValueError(f"{value} is not {what}")
    return value


def _faces(text: str, dice: Dice) -> list[int]:
    tokens = text.replace(",", " ").split()
    if len(tokens) != dice.count:
        raise ValueError(f"{len(tokens)} dice; the game rolls {dice.count}")
    faces = []
    for token in tokens:
        face = _whole(token, f"a face of {dice} (1 to {dice.sides})", 1)
        if face > dice.sides:
            raise ValueError(f"{face} is not a face of {dice} (1 to {dice.sides})")
        faces.append(face)
    return faces


class _Builder:
    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.columns: list[str] = []
        self.ignored: list[str] = []
        self.rounds: list[int] = []
        self.faces: list[int] = []
        self.scores: list[int] = []
        self.lines: list[int] = []
        self.count = 0  # rolls added, those taken by :meth:`take` included

    def header(self, names: Iterable[str], line: int) -> None:
        for name in names:
            key = name.strip().lower()
            if key in self.columns:
                raise BuncoError(f"line {line}: column {shown(key)} is given twice")
            self.columns.append(key)
            if key not in COLUMNS:
                self.ignored.append(name.strip())
        missing = [c for c in REQUIRED if c not in self.columns]
        if missing:
            raise BuncoError(f"line {line}: the log has no {shown(missing[0])} column (required: round, dice)")

    def add(self, fields: Mapping[str, str], line: int) -> None:
        for key in REQUIRED:
            if not fields.get(key, "").strip():
                raise BuncoError(f"line {line}: column {shown(key)} is empty")
        try:
            key = "round"
            number = _whole(fields["round"], "a round (1, 2, 3, ...)", 1)
            key = "dice"
            faces = _faces(fields["dice"], self.dice)
            key = "score"
            score = fields.get("score", "").strip() if "score" in self.columns else ""
            points = _whole(score, "a score (a whole number, 0 or more)", 0) if score else -1
        except ValueError as err:
            raise BuncoError(f"line {line}: column {shown(key)}: {err}") from None
        self.rounds.append(number)
        self.faces += faces
        self.scores.append(points)
        self.lines.append(line)
        self.count += 1

    def some_rolls(self, source: str) -> None:
        if not self.count:
            raise BuncoError(f"{source}: the log holds no rolls (expected a header line and one roll a line)")

    def take(self) -> RollLog:
        import numpy as np

        scores = np.array(self.scores, dtype=np.int64) if "score" in self.columns else None
        log = RollLog(np.array(self.rounds, dtype=np.int64),
                      np.array(self.faces, dtype=np.int64).reshape(-1, self.dice.count), scores,
                      np.array(self.lines, dtype=np.int64), tuple(self.columns), tuple(self.ignored))
        self.rounds, self.faces, self.scores, self.lines = [], [], [], []
        return log


BLOCK = 65_536
"""Rolls read before a block of them is passed on (:func:`read_roll_blocks`)."""


def _csv_rows(first: int, header: str, lines: Iterator[str], builder: _Builder) -> Iterator[None]:
    reader = csv.reader(itertools.chain([header], lines))
    try:
        names = next(reader)
        builder.header(names, first)
        keys = [n.strip().lower() for n in names]
        for row in reader:
            line = first + reader.line_num - 1
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(keys):
                raise BuncoError(f"line {line}: {len(row)} fields, but the header has {len(keys)}")
            builder.add(dict(zip(keys, row, strict=True)), line)
            if len(builder.rounds) % BLOCK == 0:
                yield
    except csv.Error as err:
        raise BuncoError(f"line {first + reader.line_num - 1}: {err}") from None


def _json_text(value: object) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value))
    return "" if value is None else str(value)


def _json_rows(numbered: Iterable[tuple[int, str]], builder: _Builder) -> Iterator[None]:
    for line, obj in json_objects(numbered, BuncoError, ("round", "dice")):
        fields = {str(k).strip().lower(): _json_text(v) for k, v in obj.items()}
        if len(fields) < len(obj):  # keys that differ only in case or spaces: one would silently win
            twice = next(k for k in fields if sum(str(o).strip().lower() == k for o in obj) > 1)
            raise BuncoError(f"line {line}: key {shown(twice)} is given twice")
        if not builder.columns:
            builder.header(obj, line)
        builder.add(fields, line)
        if len(builder.rounds) % BLOCK == 0:
            yield


def read_rolls(lines: Iterable[str], dice: Dice, *, source: str = "log") -> RollLog:
    """Read a log of rolls of ``dice`` from its lines (a file object, ``sys.stdin``, a list of strings)."""
    builder = _Builder(dice)
    for _ in _rows(lines, builder):
        pass
    builder.some_rolls(source)
    return builder.take()


def read_roll_blocks(lines: Iterable[str], dice: Dice, *, source: str = "log") -> Iterator[RollLog]:
    """Read a log of rolls as :func:`read_rolls` does, a block of :data:`BLOCK` rolls at a time.

    >>> [len(b) for b in read_roll_blocks(["round,dice", "1,1 2 3", "2,4 5 6"], Dice(3, 6))]
    [2]
    """
    builder = _Builder(dice)
    for _ in _rows(lines, builder):
        yield builder.take()
    builder.some_rolls(source)
    if builder.rounds:
        yield builder.take()


def _rows(lines: Iterable[str], builder: _Builder) -> Iterator[None]:
    rest = iter(lines)
    for number, text in enumerate(rest, 1):
        if text.strip():
            if text.lstrip().startswith("{"):
                yield from _json_rows(itertools.chain([(number, text)], enumerate(rest, number + 1)), builder)
            else:
                yield from _csv_rows(number, text, rest, builder)
            break


def load_rolls(path: str | Path, dice: Dice) -> RollLog:
    """Read the log file at ``path`` (``"-"``: standard input; :func:`exact_odds.inputs.reading.user_lines`)."""
    source = "standard input" if str(path) == "-" else str(path)
    return read_rolls(user_lines(path, "log", BuncoError, newline=""), dice, source=source)


def write_games(out: TextIO, faces: NDArray[np.int64], scores: NDArray[np.int64], *, first_game: int = 1,
                header: bool = True) -> None:
    """Write games of rolls as a log: ``faces`` (games, rounds, dice), ``scores`` (games, rounds), from ``first_game``.

    >>> import io, numpy as np
    >>> buf = io.StringIO()
    >>> write_games(buf, np.array([[[1, 1, 1], [3, 5, 3]]]), np.array([[21, 0]]))
    >>> print(buf.getvalue().strip())
    game,round,dice,score
    1,1,1 1 1,21
    1,2,3 5 3,0
    """
    if header:
        out.write(",".join(COLUMNS) + "\n")
    games, rounds = scores.shape
    rolls = [" ".join(map(str, roll)) for roll in faces.reshape(games * rounds, -1).tolist()]
    points = scores.reshape(-1).tolist()
    out.writelines(f"{first_game + i // rounds},{i % rounds + 1},{rolls[i]},{points[i]}\n"
                   for i in range(games * rounds))


MAX_VIOLATIONS = 10
"""Violations kept in full by default."""


@dataclass(frozen=True, slots=True)
class RollVerification:
    """The ``checks`` of a log of ``rolls`` rolls of ``dice`` under ``rules`` (:func:`verify_rolls`)."""

    source: str
    dice: Dice
    rules: ScoringRules
    alpha: float
    rolls: int
    checks: tuple[Check, ...]
    columns: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()

    @property
    def verdict(self) -> Verdict:
        """``FAIL`` if any check failed, else ``PASS``."""
        return overall(self.checks)

    def check(self, name: str) -> Check:
        """The check called ``name``."""
        return named_check(self.checks, name)


def _label_message(log: RollLog, i: int, face: int, true: int, number: int) -> str:
    faces = [int(f) for f in log.faces[i]]
    roll = Roll(sum(f == face for f in faces), alike=len(set(faces)) == 1)
    kind = f": a {roll.kind}" if roll.kind != "plain" else ""
    assert log.scores is not None
    return (f"roll {number}: score is {int(log.scores[i])} in the log; the dice {' '.join(map(str, faces))} in "
            f"round {int(log.rounds[i])} (playing for {face}s) score {true}{kind}")


class RollTally:
    """What the checks of :func:`verify_rolls` count, a block of rolls at a time (whole numbers: a log read
    in blocks gets the checks of the log read whole).

    >>> from exact_odds.bunco import STANDARD_SCORING, read_rolls
    >>> tally = RollTally(Dice(3, 6), STANDARD_SCORING)
    >>> tally.add(read_rolls(["round,dice,score", "1,1 1 1,25"], Dice(3, 6)))
    >>> tally.add(read_rolls(["round,dice,score", "2,2 2 2,21"], Dice(3, 6)))
    >>> [v.message[:24] for v in tally.label_check().violations]
    ['roll 1: score is 25 in t']
    """

    def __init__(self, dice: Dice, rules: ScoringRules, *, keep: int = MAX_VIOLATIONS) -> None:
        import numpy as np

        self.dice, self.rules, self.keep = dice, rules, keep
        self.rolls = 0
        self.scored = False  # the log has a score column
        self.given = self.wrong = 0
        self.violations: list[Violation] = []
        self.by_die = np.zeros((dice.count, dice.sides), dtype=np.int64)
        self.scores: dict[int, dict[int, int]] = {}  # round face -> score -> rolls
        self.buncos = self.minis = 0
        self.columns: tuple[str, ...] = ()
        self.ignored: tuple[str, ...] = ()

    def add(self, log: RollLog) -> None:
        """Count the next block of rolls of the log."""
        import numpy as np

        self.columns, self.ignored = log.columns, log.ignored
        face = (log.rounds - 1) % self.dice.sides + 1  # the face each roll's round plays for
        true = score_rolls(log.faces, self.rules, face)
        if log.scores is not None:
            self.scored = True
            given = log.scores >= 0
            wrong = np.flatnonzero(given & (log.scores != true))
            self.given += int(given.sum())
            self.wrong += len(wrong)
            room = max(0, self.keep - len(self.violations))
            self.violations += [Violation(self.rolls + i, int(log.lines[i]), None, self.rolls + i + 1,
                                          _label_message(log, i, int(face[i]), int(true[i]), self.rolls + i + 1))
                                for i in wrong[:room].tolist()]
        for j in range(self.dice.count):
            self.by_die[j] += np.bincount(log.faces[:, j] - 1, minlength=self.dice.sides)
        pairs, counts = np.unique(np.stack([face, true]), axis=1, return_counts=True)
        for (f, score), n in zip(pairs.T.tolist(), counts.tolist(), strict=True):
            by_score = self.scores.setdefault(f, {})
            by_score[score] = by_score.get(score, 0) + n
        alike = (log.faces == log.faces[:, :1]).all(axis=1)
        bunco = alike & (log.faces[:, 0] == face)
        self.buncos += int(bunco.sum())
        self.minis += int((alike & ~bunco).sum())
        self.rolls += len(log)

    def label_check(self) -> Check:
        """Every score the log gives against the rules (SKIP without a score column)."""
        if not self.scored:
            return deterministic_check("labels", 0, [], 0, ["The log has no score column."], unit="scores")
        return deterministic_check("labels", self.given, self.violations, self.wrong,
                                   [f"Scores recomputed under the rules {self.rules}."], unit="scores")

    def faces_check(self) -> Check:
        """The faces of all dice, and of each die of the rolls, against ``1 / sides`` each."""
        import numpy as np

        dice = self.dice
        names = [str(f) for f in range(1, dice.sides + 1)]
        p = np.full(dice.sides, 1 / dice.sides)
        every = IndicatorSum(names)
        by_die = []
        for j in range(dice.count):
            seen = self.by_die[j]
            every.add_identical(p, np.diag(p), self.rolls, seen)
            die = IndicatorSum(names)
            die.add_identical(p, np.diag(p), self.rolls, seen)
            by_die.append(die.test(f"die {j + 1}"))
        tests = [every.test("faces of all dice"),
                 ChiSquare("die by die", sum(t.statistic for t in by_die), sum(t.df for t in by_die))]
        return statistical_check("faces", self.rolls * dice.count, tests, every.tallies(),
                                 [f"Expected: each face 1 in {dice.sides} for every die."], unit="dice",
                                 details=by_die)

    def _score_bins(self) -> tuple[list[tuple[int, int]], dict[int, Dist[int]]]:
        exact = {f: roll_scores(self.dice, self.rules, round_number=f) for f in sorted(self.scores)}
        expected: dict[int, Fraction] = {}
        for f, dist in exact.items():
            rolls = sum(self.scores[f].values())
            for score, ways in dist.items():
                expected[score] = expected.get(score, Fraction(0)) + Fraction(rolls * ways, dist.total)
        return [(b.low, b.high) for b in pool(Dist({}), expected, MIN_EXPECTED)], exact

    def scores_check(self) -> Check:
        """Each roll's score (from its dice) against the exact score distribution of its round."""
        import numpy as np

        dice = self.dice
        bins, exact = self._score_bins()
        total = IndicatorSum([str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in bins])
        for f, dist in exact.items():
            p = np.array([float(sum(w for s, w in dist.items() if lo <= s <= hi) / dist.total) for lo, hi in bins])
            mine = self.scores[f]
            seen = np.array([sum(n for s, n in mine.items() if lo <= s <= hi) for lo, hi in bins])
            total.add_identical(p, np.diag(p), sum(mine.values()), seen)
        notes = [f"Expected: the exact score distribution of a roll of {dice} under the rules {self.rules.name}, for "
                 f"the face each roll's round plays for (round r plays for (r-1) mod {dice.sides} + 1); adjacent "
                 f"scores pooled until each bin expects at least {MIN_EXPECTED} rolls."]
        return statistical_check("scores", self.rolls, [total.test("scores")], total.tallies(), notes, unit="rolls")

    def buncos_check(self) -> Check:
        """The numbers of Buncos and of mini Buncos, each against its exact binomial distribution."""
        dice, n = self.dice, self.rolls
        odds = roll_outcomes(dice)  # the same for every round number
        tallies, tests = [], []
        for kind, seen in (("Bunco", self.buncos), ("mini Bunco", self.minis)):
            q = sum(w for r, w in odds.items() if r.kind == kind) / odds.total
            tallies.append(Tally(kind, seen, n * q, n * q * (1 - q)))
            tests.append(binomial_p_value(n, q, seen))
        notes = [f"{t.name}: exact two-sided binomial test, p = {p:.3g}." for t, p in zip(tallies, tests, strict=True)]
        notes.append(f"Expected: a roll of {dice} is a Bunco with probability 1/{dice.ways:,} and a mini Bunco with "
                     f"probability {dice.sides - 1}/{dice.ways:,}, whatever its round.")
        p_value = min(1.0, 2 * min(tests)) if n else None
        return Check("buncos", "SKIP", n, "rolls", p_value=p_value, tallies=tuple(tallies), notes=tuple(notes))

    def result(self, *, alpha: float, source: str) -> RollVerification:
        """The verification of the rolls added so far."""
        checks = (self.label_check(), self.faces_check(), self.scores_check(), self.buncos_check())
        return RollVerification(source, self.dice, self.rules, float(alpha), self.rolls, judge(checks, float(alpha)),
                                self.columns, self.ignored)


def binomial_p_value(n: int, q: float, x: int) -> float:
    """The two-sided p-value of ``x`` successes in ``n`` trials of probability ``q``: twice the smaller tail.

    >>> round(binomial_p_value(10, 0.5, 2), 6)  # 2 * P(X <= 2) = 2 * 56/1024
    0.109375
    """
    if q <= 0.0 or q >= 1.0:
        return 1.0 if x == round(n * q) else 0.0
    return min(1.0, 2.0 * min(_tail(n, q, x, down=True), _tail(n, q, x, down=False)))


def _tail(n: int, q: float, x: int, *, down: bool) -> float:
    # P(X <= x) (down) or P(X >= x), X binomial(n, q), summed away from the mean while terms count
    if (x >= n * q) if down else (x <= n * q):
        return 1.0 - (_tail(n, q, x + 1, down=False) if down else _tail(n, q, x - 1, down=True))
    log_q, log_r, log_n = math.log(q), math.log1p(-q), math.lgamma(n + 1)
    total, k, step = 0.0, x, -1 if down else 1
    while 0 <= k <= n:
        term = math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_q + (n - k) * log_r)
        total += term
        if term <= total * 1e-17:
            break
        k += step
    return total


def verify_rolls(log: RollLog, dice: Dice, rules: ScoringRules, *, alpha: float = 0.001,
                 max_violations: int = MAX_VIOLATIONS, source: str = "log") -> RollVerification:
    """Check a log of rolls of ``dice`` under ``rules``; ``max_violations`` wrong scores are listed in full."""
    tally = _tally(dice, rules, alpha, max_violations)
    tally.add(log)
    return tally.result(alpha=alpha, source=source)


def verify_roll_file(path: str | Path, dice: Dice, rules: ScoringRules, *, alpha: float = 0.001,
                     max_violations: int = MAX_VIOLATIONS) -> RollVerification:
    """:func:`verify_rolls` of the log file at ``path`` (``"-"``: standard input), read a block at a time."""
    source = "standard input" if str(path) == STDIN else str(path)
    tally = _tally(dice, rules, alpha, max_violations)
    for block in read_roll_blocks(user_lines(path, "log", BuncoError, newline=""), dice, source=source):
        tally.add(block)
    return tally.result(alpha=alpha, source=source)


def _tally(dice: Dice, rules: ScoringRules, alpha: float, max_violations: int) -> RollTally:
    check_alpha(alpha)
    if max_violations < 0:
        raise BuncoError(f"max_violations must be at least 0, got {max_violations}")
    return RollTally(dice, rules, keep=max_violations)
