"""Evaluation plans: functionals of the coefficients laid out in dense blocks, and the kernel that runs them.

A plan evaluates ``F`` *functionals*, non-negative integer weights on coup codes: ``ways_f = sum_S
(sum_coup C[S, coup] weight_f(coup)) monomial_S``. Part values are built level by level (a part is its
parent, less its last kind, times one factor); then per pair of levels (cards in A, cards in B) a matrix
product ``matrix @ values[side M]`` times ``values[side R]`` gives the sums. Functionals of the pair flags
alone take a four-card stage, times ``(N-4)(N-5)``.

Every quantity is a non-negative integer at most ``w N**6`` (weights at most ``w``), so the kernel runs
three ways by shoe size: float64 (BLAS) up to 456 cards, each sum checked below ``2**53`` (NumPy, or
compiled: :func:`_compiled_float_rows`); int64 while ``w N**6 < 2**63``; Python integers beyond.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from exact_odds.batch.coefficients import (
    DIGITS,
    LEADING_CARDS,
    TYPES,
    Coefficients,
    Part,
    Space,
    factor_table,
    kind_counts,
    kind_of_rank,
    leading_table,
    leading_weights,
    monomial_terms,
    table_codes,
)
from exact_odds.batch.compiled import KERNEL, chosen
from exact_odds.core.shoe import CARDS_PER_COUP
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    BoolArray = npt.NDArray[np.bool_]
    Array = npt.NDArray[Any]

CHUNK = 256
"""Compositions per block of work (keeps the part values, about 2 KB a part, in cache)."""
WIDE_PARTIALS = 512
"""Plans whose products hold more rows than this per composition take chunks of ``CHUNK // 2`` on the
compiled path (read back from nearer caches)."""
FLOAT_EXACT = 2**53
INT64_EXACT = 2**63


# ---------------------------------------------------------------- the layout of part values


@dataclass(frozen=True)
class Layout:
    """The rows of the part values: row 0 the empty part (1), then parts by (cards, group, part code), row
    ``i`` being ``values[parent[i]] * factors[factor[i]]`` (the parent in an earlier ``level``)."""

    parent: IntArray
    factor: IntArray  # row of the factor table: (kind * 7 + multiplicity) * types + designation
    levels: tuple[tuple[int, int], ...]
    spans: dict[tuple[int, int], tuple[int, int]]  # (group, cards) -> slice of rows
    codes: tuple[IntArray, IntArray]  # per group: sorted part codes of its rows (0: the empty part)
    rows: tuple[IntArray, IntArray]  # per group: the row of each code


def _code(digits: IntArray) -> IntArray:
    return np.asarray(digits @ (DIGITS ** np.arange(digits.shape[1], dtype=np.int64)), dtype=np.int64)


def _last(rows: IntArray) -> IntArray:  # the index of each row's last non-zero digit (its last kind)
    return np.asarray(rows.shape[1] - 1 - np.argmax(rows[:, ::-1] != 0, axis=1), dtype=np.int64)


def _with_ancestors(parts: set[Part], kinds: int) -> IntArray:
    """The parts and their ancestors (trailing kinds dropped), but the empty part, by part code."""
    rows = np.array(list(parts), dtype=np.int64).reshape(len(parts), kinds)
    found = [rows[:0]]
    while len(rows := rows[rows.any(axis=1)]):
        found.append(rows)
        rows = rows.copy()
        rows[np.arange(len(rows)), _last(rows)] = 0
    every = np.concatenate(found)
    _, first = np.unique(_code(every), return_index=True)
    return every[first]


def make_layout(space: Space, parts: tuple[set[Part], set[Part]]) -> Layout:
    """The rows of the parts (and their ancestors) of both groups."""
    members = [_with_ancestors(group, kinds) for group, kinds in zip(parts, (space.split, space.kinds - space.split),
                                                                     strict=True)]
    group = np.concatenate([np.full(len(m), g, dtype=np.int64) for g, m in enumerate(members)])
    code = np.concatenate([_code(m) for m in members])
    last = np.concatenate([_last(m) for m in members])
    digit = np.concatenate([m[np.arange(len(m)), _last(m)] for m in members])
    cards = np.concatenate([(m // TYPES).sum(axis=1) for m in members])
    order = np.lexsort((code, group, cards))  # rows by (cards, group, part code)
    row = np.empty(len(order), dtype=np.int64)
    row[order] = np.arange(1, len(order) + 1)
    key = group * DIGITS ** max(space.split, space.kinds - space.split) + code  # (group, code), distinct
    by_key = np.argsort(key)
    wanted = key - digit * DIGITS ** last  # the parent's key: the last kind dropped
    at = np.minimum(np.searchsorted(key[by_key], wanted), len(key) - 1)
    parent = np.where(key[by_key][at] == wanted, row[by_key][at], 0) if len(key) else key
    factor = ((np.where(group == 1, space.split, 0) + last) * (CARDS_PER_COUP + 1) + digit // TYPES) * space.types \
        + digit % TYPES
    spans: dict[tuple[int, int], tuple[int, int]] = {(0, 0): (0, 1), (1, 0): (0, 1)}
    for (c, g), (start, stop) in _runs(cards[order] * 2 + group[order], 2).items():
        spans[(g, c)] = (start, stop)
    levels = tuple(_runs(cards[order], 1).values())
    codes = tuple(np.r_[0, code[group == g]] for g in (0, 1))
    rows = tuple(np.r_[0, row[group == g]] for g in (0, 1))
    return Layout(np.r_[0, parent[order]], np.r_[0, factor[order]], levels, spans, (codes[0], codes[1]),
                  (rows[0], rows[1]))


def _runs(keys: IntArray, base: int) -> dict[tuple[int, int], tuple[int, int]]:
    """The rows (from 1) of each run of equal sorted ``keys``: ``divmod(key, base)`` -> (first, stop)."""
    values, starts = np.unique(keys, return_index=True)
    bounds = np.r_[starts, len(keys)].tolist()
    return {divmod(v, base): (a + 1, b + 1) for v, a, b in zip(values.tolist(), bounds[:-1], bounds[1:], strict=True)}


# ---------------------------------------------------------------- dense blocks


@dataclass(frozen=True)
class Block:
    """``sums[f] += sum_r values[r_rows][r] * (matrix @ values[m_rows])[r * F + f]``; ``at``: its first row
    among the stage's row parts."""

    m_rows: tuple[int, int]
    r_rows: tuple[int, int]
    at: int
    matrix: FloatArray  # (rows of R * functionals, rows of M), integers
    integers: IntArray  # the same as int64


@dataclass(frozen=True)
class Stage:
    """The blocks of the functionals of one depth: 6 cards, or the first 4 (times ``(N-4)(N-5)``)."""

    depth: int
    functionals: tuple[int, ...]
    rows: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Plan:
    """Everything needed to evaluate ``classes`` functionals: ``weights``, the largest weight of each;
    ``copies``, (functional, twin) for one equal to an earlier one, evaluated once and copied."""

    space: Space
    classes: int
    layout: Layout
    stages: tuple[Stage, ...]
    weights: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()


def part_rows(layout: Layout, group: int, digits: IntArray) -> IntArray:  # of parts (rows of digits) of a group
    return layout.rows[group][np.searchsorted(layout.codes[group], _code(digits))]


def _stage(space: Space, layout: Layout, depth: int, functionals: tuple[int, ...], digits: IntArray,
           weights: IntArray) -> Stage:
    """The dense blocks of terms (rows of ``digits``, ``weights`` per functional) of one depth."""
    split, width = space.split, len(functionals)
    rows = (part_rows(layout, 0, digits[:, :split]), part_rows(layout, 1, digits[:, split:]))
    cards_a = (digits[:, :split] // TYPES).sum(axis=1)
    blocks: list[Block] = []
    at = 0
    for c in range(depth + 1):
        sel = cards_a == c
        if not sel.any():
            continue
        spans = (layout.spans[(0, c)], layout.spans[(1, depth - c)])
        r = 0 if spans[0][1] - spans[0][0] <= spans[1][1] - spans[1][0] else 1
        (r0, r1), (m0, m1) = spans[r], spans[1 - r]
        dense = np.zeros((r1 - r0, width, m1 - m0), dtype=np.float64)
        dense[rows[r][sel] - r0, :, rows[1 - r][sel] - m0] = weights[sel]
        matrix = dense.reshape(-1, m1 - m0)
        blocks.append(Block((m0, m1), (r0, r1), at, matrix, matrix.astype(np.int64)))
        at += r1 - r0
    return Stage(depth, functionals, at, tuple(blocks))


def _leading_terms(space: Space, codes: IntArray, weights: IntArray) -> tuple[IntArray, IntArray] | None:
    """Four-card digits and weights of the functionals (columns) if all depend on the pair flags alone."""
    digits, state, count = leading_table(space.detail)
    per_state = [leading_weights(codes, weights[:, f]) for f in range(weights.shape[1])]
    if any(w is None or (w[state] < 0).any() for w in per_state):
        return None
    summed = np.stack([count * w[state] for w in per_state if w is not None], axis=1)
    code = _code(digits)
    uniq, inverse = np.unique(code, return_inverse=True)
    total = np.zeros((len(uniq), summed.shape[1]), dtype=np.int64)
    np.add.at(total, inverse.ravel(), summed)
    first = np.zeros(len(uniq), dtype=np.int64)
    first[inverse.ravel()] = np.arange(len(code))
    keep = total.any(axis=1)
    return digits[first[keep]], total[keep]


def _distinct(depth: int, functionals: tuple[int, ...], digits: IntArray, summed: IntArray,
              copies: list[tuple[int, int]]) -> tuple[int, tuple[int, ...], IntArray, IntArray]:
    """The stage's terms less each functional that repeats an earlier one, appended to ``copies``."""
    kept: list[int] = []
    for k, f in enumerate(functionals):
        twin = next((q for q in kept if np.array_equal(summed[:, q], summed[:, k])), None)
        if twin is None:
            kept.append(k)
        else:
            copies.append((f, functionals[twin]))
    return depth, tuple(functionals[k] for k in kept), digits, summed[:, kept]


def make_weighted_plan(co: Coefficients, weights: IntArray) -> Plan:
    """A plan for the functionals ``weights[code, f]`` (non-negative integers) of the table ``co``."""
    codes = table_codes(co)
    if (weights[codes] < 0).any():
        raise ValueError("functionals must have non-negative weights")
    count = weights.shape[1]
    short = [f for f in range(count) if _leading_terms(co.space, codes, weights[:, [f]]) is not None]
    full = [f for f in range(count) if f not in short]
    terms: list[tuple[int, tuple[int, ...], IntArray, IntArray]] = []
    copies: list[tuple[int, int]] = []
    if short:
        found = _leading_terms(co.space, codes, weights[:, short])
        assert found is not None
        terms.append(_distinct(LEADING_CARDS, tuple(short), *found, copies))
    if full:
        terms.append(_distinct(CARDS_PER_COUP, tuple(full), *monomial_terms(co, weights[:, full]), copies))
    split = co.space.split
    parts = ({tuple(p) for _, _, d, _ in terms for p in d[:, :split].tolist()},
             {tuple(p) for _, _, d, _ in terms for p in d[:, split:].tolist()})
    layout = make_layout(co.space, parts)
    stages = tuple(_stage(co.space, layout, depth, fs, d, w) for depth, fs, d, w in terms)
    largest = tuple(int(weights[codes, f].max(initial=0)) for f in range(count))
    return Plan(co.space, count, layout, stages, largest, tuple(copies))


def make_plan(co: Coefficients, class_of: IntArray, classes: int) -> Plan:
    """Collapse coups to classes (``class_of[code]``): one functional of weight 0/1 per class."""
    weights = np.zeros((len(class_of), classes), dtype=np.int64)
    weights[np.arange(len(class_of)), class_of] = 1
    return make_weighted_plan(co, weights)


# ---------------------------------------------------------------- the kernel, in the dtype of its inputs

_LOCAL = threading.local()


def buffer(name: str, shape: tuple[int, ...], dtype: Any = np.float64) -> Array:
    """A reusable work array (uninitialised), one per name, shape, dtype and thread (else a page fault per
    4 KB each chunk); object arrays are new."""
    if dtype is object:
        return np.empty(shape, dtype=object)
    buffers: dict[tuple[str, tuple[int, ...], Any], Array] = _LOCAL.__dict__.setdefault("buffers", {})
    key = (name, shape, dtype)
    if key not in buffers:
        if len(buffers) > 64:
            buffers.clear()
        buffers[key] = np.empty(shape, dtype=dtype)
    return buffers[key]


def part_values(layout: Layout, factors: Array) -> Array:
    """Values of every part of the layout (rows) for each composition (columns of ``factors``), a level
    at a time."""
    values = buffer("values", (len(layout.parent), factors.shape[1]), factors.dtype)
    values[0] = 1
    step = factors[layout.factor]
    for start, stop in layout.levels:
        np.multiply(values[layout.parent[start:stop]], step[start:stop], out=values[start:stop])
    return values


def run(plan: Plan, factors: Array) -> list[Array]:
    """Each stage's sums (functionals x compositions), in the dtype of ``factors`` (BLAS in float64)."""
    values = part_values(plan.layout, factors)
    return [_products(stage, values).sum(axis=0) for stage in plan.stages]


def _products(stage: Stage, values: Array) -> Array:
    """Per row part of the stage and functional, ``matrix @ values[m_rows]`` times the row part's value."""
    b, dtype = values.shape[1], values.dtype
    partial = buffer(f"partial{stage.depth}", (stage.rows, len(stage.functionals), b), dtype)
    for block in stage.blocks:
        (m0, m1), (r0, r1) = block.m_rows, block.r_rows
        seg = partial[block.at:block.at + r1 - r0]
        matrix = block.matrix if dtype == np.float64 else block.integers
        np.matmul(matrix, values[m0:m1], out=seg.reshape(-1, b))
        np.multiply(seg, values[r0:r1, None, :], out=seg)
    return partial


# ---------------------------------------------------------------- the compiled float64 path
# With the compiled loops (:mod:`exact_odds.batch.loops`) a chunk takes one compiled call for its kind
# counts, factor table and part values, one BLAS product per block of each stage (blocks of one shape
# over adjacent rows stacked into one call), and one compiled call per stage that weighs and adds the
# products and writes the exact integers, flagging any sum that reached 2**53. The main bets' six-card
# parts are never stored: they feed only the product with the other group's empty part, which the
# compiled call makes as it makes them (:func:`_tail`). Work arrays are made once per plan and width.


class _StageWork(NamedTuple):
    """One stage's products (matrix, values read, partial written: one BLAS call each), work and columns."""

    products: tuple[tuple[FloatArray, FloatArray, FloatArray], ...]
    partial: FloatArray
    total: FloatArray
    rows: IntArray
    columns: IntArray
    leading: bool


class Prepared(NamedTuple):
    """Work arrays of one plan for chunks of ``width`` compositions; the parts past ``values``
    (:func:`_tail`) are weighed by ``weights`` into ``sums`` (a row of a stage's partial sums)."""

    plan: Plan
    kinds: IntArray
    factors: FloatArray
    values: FloatArray
    stages: tuple[_StageWork, ...]
    bad: BoolArray
    weights: FloatArray
    sums: FloatArray


Merged = tuple[tuple[int, int], tuple[int, int], "FloatArray"]


def _merged(blocks: tuple[Block, ...]) -> list[Merged]:
    """The blocks as (m_rows, r_rows, matrix), those of the same row parts over adjacent rows merged."""
    merged: list[Merged] = []
    for block in sorted(blocks, key=lambda b: (b.r_rows, b.m_rows)):
        if merged and merged[-1][1] == block.r_rows and merged[-1][0][1] == block.m_rows[0]:
            (m0, _), r_rows, matrix = merged.pop()
            merged.append(((m0, block.m_rows[1]), r_rows, np.concatenate([matrix, block.matrix], axis=1)))
        else:
            merged.append((block.m_rows, block.r_rows, block.matrix))
    return sorted(merged, key=lambda m: m[0])


TAIL_FUNCTIONALS = 2
"""The functionals :func:`exact_odds.batch.loops.weighed_tail` weighs (the main bets' banker and player)."""


def _tail(plan: Plan) -> int:
    """The first part of the *tail*, weighed as it is made: the last level (six-card parts) when one
    product of :data:`TAIL_FUNCTIONALS` functionals weighed by the empty part alone reads exactly it,
    no other reads past its start and its parents come before it; else the layout's end."""
    layout = plan.layout
    end = len(layout.parent)
    first = layout.levels[-1][0] if layout.levels else end
    reads = [(m_rows, r_rows, len(stage.functionals)) for stage in plan.stages for m_rows, r_rows, _ in
             _merged(stage.blocks)]
    tail = [read for read in reads if read[0][1] > first]
    others = max((r1 for (_, m1), (_, r1), _ in reads if m1 <= first), default=0)
    if tail != [((first, end), (0, 1), TAIL_FUNCTIONALS)] or others > first or (layout.parent[first:] >= first).any():
        return end
    return first


BLAS_WORK = 1_000_000
"""The most multiply-adds of one matrix of a BLAS call: a larger one is split into equal pieces (batched)."""
BLAS_LINES = 4
"""Matrices are padded with zeros to a multiple of this many lines when that adds at most a quarter."""


def _padding(lines: int, functionals: int) -> int:
    """Rows of partial sums (``functionals`` lines each) padding ``lines`` to a multiple of :data:`BLAS_LINES`."""
    return next((extra for extra in range(lines // 4 // functionals + 1)
                 if (lines + extra * functionals) % BLAS_LINES == 0), 0)


def _stage_work(stage: Stage, values: FloatArray, width: int,
                tail: int) -> tuple[_StageWork, tuple[FloatArray, FloatArray] | None]:
    """A stage's work: its BLAS products (:func:`_merged`, those of one shape over adjacent rows stacked,
    padded) and, if it reads the tail (from row ``tail``), its weights and the row of sums it feeds."""
    functionals = len(stage.functionals)
    merged = [(m_rows, r_rows, matrix if m_rows[0] >= tail else np.concatenate(
        [matrix, np.zeros((_padding(len(matrix), functionals) * functionals, matrix.shape[1]))]))
        for m_rows, r_rows, matrix in _merged(stage.blocks)]
    rows = [r for _, (r0, r1), matrix in merged
            for r in [*range(r0, r1), *[0] * (len(matrix) // functionals - (r1 - r0))]]
    partial = np.empty((len(rows), functionals, width), dtype=np.float64)
    products: list[tuple[FloatArray, FloatArray, FloatArray]] = []
    weighed, at, k = None, 0, 0
    while k < len(merged):
        (m0, m1), _, matrix = merged[k]
        if m0 >= tail:
            weighed = np.ascontiguousarray(matrix), partial[at:at + 1].reshape(-1, width)
            at, k = at + 1, k + 1
            continue
        count, height = 1, len(matrix) // functionals
        while (k + count < len(merged) and merged[k + count][2].shape == matrix.shape
               and merged[k + count][0][0] == m0 + count * (m1 - m0) < tail):
            count += 1
        lines, depth = matrix.shape
        pieces = next(p for p in range(1, lines + 1)
                      if lines % p == 0 and (lines // p * depth * width <= BLAS_WORK or p == lines))
        stack: FloatArray = np.stack([m for _, _, m in merged[k:k + count]])  # (count, lines, depth)
        source: FloatArray = values[m0:m0 + count * depth].reshape(count, depth, width)
        target: FloatArray = partial[at:at + count * height].reshape(count, lines, width)
        if pieces > 1:  # (count, pieces, rows, ...), the values read by every piece
            piece = lines // pieces
            stack, source = stack.reshape(count, pieces, piece, depth), source[:, None]
            target = target.reshape(count, pieces, piece, width)
        products.append((stack[0], source[0], target[0]) if count == 1 else (stack, source, target))
        at, k = at + count * height, k + count
    return _StageWork(tuple(products), partial, np.empty((functionals, width), dtype=np.float64),
                      np.array(rows, dtype=np.int64), np.array(stage.functionals, dtype=np.int64),
                      stage.depth < CARDS_PER_COUP), weighed


def _prepare(plan: Plan, width: int) -> Prepared:
    """Work arrays and product views of ``plan`` for chunks of ``width`` compositions."""
    tail = _tail(plan)
    values = np.empty((tail, width), dtype=np.float64)
    stages = []
    weights, sums = np.empty((TAIL_FUNCTIONALS, 0), dtype=np.float64), np.empty((TAIL_FUNCTIONALS, 0), dtype=np.float64)
    for stage in plan.stages:
        work, weighed = _stage_work(stage, values, width, tail)
        stages.append(work)
        if weighed is not None:
            weights, sums = weighed
    kinds = plan.space.kinds
    return Prepared(plan, np.empty((kinds, width), dtype=np.int64),
                    np.empty((kinds * (CARDS_PER_COUP + 1) * plan.space.types, width), dtype=np.float64), values,
                    tuple(stages), np.zeros(width, dtype=bool), weights, sums)


def prepared(plan: Plan, width: int) -> Prepared:
    """The :class:`Prepared` work of ``plan`` for ``width`` compositions, made once per thread."""
    cache: dict[tuple[int, int], Prepared] = _LOCAL.__dict__.setdefault("prepared", {})
    key = (id(plan), width)
    found = cache.get(key)
    if found is None or found.plan is not plan:
        if len(cache) > 16:
            cache.clear()
        found = cache[key] = _prepare(plan, width)
    return found


def _chunk(work: Prepared, fast: ModuleType, counts: IntArray, suits: IntArray | None, kind_of: IntArray,
           sizes: IntArray, start: int, out: IntArray) -> int:
    """Evaluate a chunk from row ``start`` into ``out[start:]``; how many had a sum reach ``2**53`` (not
    proven exact: flagged in ``work.bad``)."""
    layout = work.plan.layout
    if suits is None:
        fast.chunk_values(counts, kind_of, start, layout.parent, layout.factor, work.kinds, work.factors, work.values,
                          work.weights, work.sums)
    else:  # the suited factor table in NumPy, the rest compiled
        fast.chunk_kinds(counts, kind_of, start, work.kinds)
        work.factors[:] = factor_table(work.plan.space, work.kinds.astype(np.float64),
                                       suits[start:start + work.kinds.shape[1]].transpose(1, 2, 0))
        fast.part_values(work.factors, layout.parent, layout.factor, work.values, work.weights, work.sums)
    bad = 0
    for stage in work.stages:
        for matrix, source, target in stage.products:
            np.matmul(matrix, source, out=target)
        bad += fast.stage_into(stage.partial, work.values, stage.rows, stage.columns, sizes, stage.leading, start,
                               float(FLOAT_EXACT), stage.total, out, work.bad)
    return int(bad)


# ---------------------------------------------------------------- exact arithmetic by shoe size


def _chunks(rows: IntArray) -> list[IntArray | slice]:
    """Blocks of at most ``CHUNK`` rows: slices when the rows are consecutive."""
    if len(rows) and (np.diff(rows) == 1).all():
        first = int(rows[0])
        return [slice(s, min(s + CHUNK, first + len(rows))) for s in range(first, first + len(rows), CHUNK)]
    return [rows[s:s + CHUNK] for s in range(0, len(rows), CHUNK)]


def _finish(plan: Plan, stage_sums: list[Array], sizes: Array, out: Array, rows: IntArray | slice) -> None:
    """Write the stages' exact sums to ``out[rows]``, the four-card ones times ``(N-4)(N-5)``."""
    for stage, sums in zip(plan.stages, stage_sums, strict=True):
        found = sums.T
        if stage.depth == LEADING_CARDS:
            rest = (sizes - LEADING_CARDS) * (sizes - LEADING_CARDS - 1)
            found = found * rest.astype(found.dtype)[:, None]
        first, count = stage.functionals[0], len(stage.functionals)
        consecutive = stage.functionals == tuple(range(first, first + count))
        columns: slice | IntArray = slice(first, first + count) if consecutive else np.array(stage.functionals)
        if isinstance(rows, slice) or isinstance(columns, slice):
            out[rows, columns] = found
        else:
            out[rows[:, None], columns] = found


def _numpy_rows(plan: Plan, rows: IntArray, kinds: IntArray, suits: IntArray | None, sizes: IntArray, out: Array,
                *, floats: bool) -> list[IntArray]:
    """Evaluate ``rows`` with NumPy a chunk at a time: in float64 (shoes of at most 456 cards), returning
    the rows whose sums reached ``2**53`` (not proven exact); else smallest first, in int64 where
    ``w N**6`` fits (no BLAS), else in Python integers."""
    top = max(plan.weights, default=1)
    failed: list[IntArray] = []
    for chunk in _chunks(rows if floats else rows[np.argsort(sizes[rows], kind="stable")]):
        bound = top * int(sizes[chunk].max()) ** CARDS_PER_COUP
        dtype = np.float64 if floats else np.int64 if bound < INT64_EXACT else object
        chunk_suits = None if suits is None else suits[chunk].transpose(1, 2, 0)
        sums = run(plan, factor_table(plan.space, kinds[:, chunk].astype(dtype), chunk_suits))
        if floats and bound >= FLOAT_EXACT:  # else proven exact
            bad = np.logical_or.reduce([(s >= FLOAT_EXACT).any(axis=0) for s in sums])
            if bad.any():
                ids = np.arange(chunk.start, chunk.stop) if isinstance(chunk, slice) else chunk
                failed.append(ids[bad])
                sums = [s[:, ~bad] for s in sums]
                chunk = ids[~bad]
        exact = [s.astype(np.int64 if floats else out.dtype, copy=False).astype(out.dtype, copy=False) for s in sums]
        _finish(plan, exact, sizes[chunk].astype(out.dtype, copy=False), out, chunk)
    return failed


def _compiled_float_rows(plan: Plan, rows: IntArray, counts: IntArray, suits: IntArray | None, sizes: IntArray,
                         out: Array, fast: ModuleType) -> list[IntArray]:
    """The float64 rows of :func:`_numpy_rows` by compiled chunks (of ``CHUNK // 2`` when the products hold
    more than :data:`WIDE_PARTIALS` rows), written straight into ``out`` when it holds every row in int64."""
    whole = len(rows) == counts.shape[0]
    target = out if whole and out.dtype == np.int64 else np.zeros((len(rows), plan.classes), dtype=np.int64)
    counts = np.ascontiguousarray(counts if whole else counts[rows])
    suits = None if suits is None else np.ascontiguousarray(suits if whole else suits[rows], dtype=np.int64)
    sizes = sizes if whole else sizes[rows]
    width = CHUNK if sum(stage.rows * len(stage.functionals) for stage in plan.stages) <= WIDE_PARTIALS else CHUNK // 2
    kind_of = kind_of_rank(plan.space.detail)
    failed = [rows[:0]]
    for start in range(0, len(counts), width):
        work = prepared(plan, min(width, len(counts) - start))
        if _chunk(work, fast, counts, suits, kind_of, sizes, start, target):
            failed.append(rows[start + np.flatnonzero(work.bad)])
            work.bad[:] = False
    if target is not out:
        out[rows] = target
    return failed


def ways(plan: Plan, counts: IntArray, suits: IntArray | None, sizes: IntArray | None = None, *,
         jit: bool | None = None) -> Array:
    """Exact ways of each functional, shape (n, functionals), int64 if every value fits, else object, of
    rank counts (n, 13), suit counts (n, 13, 4) at ``Detail.SUITS`` and the ``sizes`` when known; float64
    where exact (compiled as :func:`exact_odds.batch.compiled.chosen` says for ``jit``), else int64 or ints."""
    n = counts.shape[0]
    sizes = np.einsum("ij->i", counts) if sizes is None else sizes
    bound = max(plan.weights, default=1) * int(sizes.max(initial=0)) ** CARDS_PER_COUP
    out: Array = np.zeros((n, plan.classes), dtype=np.int64 if bound < INT64_EXACT else object)
    suits = suits if plan.space.suited else None
    small = sizes <= FLOAT_MAX_CARDS
    fast = chosen(KERNEL, n, jit)
    kinds: IntArray | None = None
    if fast is not None:  # the kind counts made a chunk at a time
        failed = _compiled_float_rows(plan, np.flatnonzero(small), counts, suits, sizes, out, fast)
    else:
        kinds = kind_counts(counts, plan.space.detail)
        failed = _numpy_rows(plan, np.flatnonzero(small), kinds, suits, sizes, out, floats=True)
    rest = np.concatenate([np.flatnonzero(~small), *failed]).astype(np.int64)
    if len(rest):
        kinds = kind_counts(counts, plan.space.detail) if kinds is None else kinds
        _numpy_rows(plan, rest, kinds, suits, sizes, out, floats=False)
    for functional, twin in plan.copies:
        out[:, functional] = out[:, twin]
    return out
