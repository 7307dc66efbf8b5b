"""Evaluation plans: functionals of the coefficients laid out in dense blocks, and the kernel that runs them.

A plan evaluates ``F`` *functionals* of a composition, non-negative integer weights on coup codes:
``ways_f = sum over coups of weight_f(coup) * ways(coup) = sum_S (sum_coup C[S, coup] weight_f(coup))
monomial_S``. The values of every part needed are built level by level, one multiplication each (a
part is its parent, less its last kind, times one factor); then for each pair of levels (cards in A,
cards in B) one matrix product ``matrix @ values[side M]`` times ``values[side R]`` gives the sums.
Functionals of the pair flags alone take a four-card stage, times ``(N-4)(N-5)``.

Exactness: every quantity is a non-negative integer at most ``w N**6`` (weights at most ``w``), and
subtractions come only afterwards. So one kernel runs three ways, by shoe size: float64 (BLAS) up to
456 cards, a sum below ``2**53`` being exact (checked for every result; NumPy, or compiled in
:mod:`exact_odds.batch.fused`); int64 while ``w N**6 < 2**63``; Python integers (object arrays) beyond.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

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
    leading_table,
    leading_weights,
    monomial_terms,
    table_codes,
)
from exact_odds.batch.compiled import KERNEL, chosen
from exact_odds.batch.fused import compiled_rows
from exact_odds.core.shoe import CARDS_PER_COUP
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
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
    """The rows of the part values (parts x compositions): row 0 the empty part of either group (1),
    then parts by (cards, group, part code), row ``i`` being ``values[parent[i]] * factors[factor[i]]``
    (the parent, less the last kind, in an earlier ``level`` of rows of equal card count)."""

    parent: IntArray
    factor: IntArray  # row of the factor table: (kind * 7 + multiplicity) * types + designation
    levels: tuple[tuple[int, int], ...]
    spans: dict[tuple[int, int], tuple[int, int]]  # (group, cards) -> slice of rows
    codes: tuple[IntArray, IntArray]  # per group: sorted part codes of its rows (0: the empty part)
    rows: tuple[IntArray, IntArray]  # per group: the row of each code


def _code(digits: IntArray) -> IntArray:
    return np.asarray(digits @ (DIGITS ** np.arange(digits.shape[1], dtype=np.int64)), dtype=np.int64)


def _last(rows: IntArray) -> IntArray:
    """The index of each row's last non-zero digit (its last kind)."""
    return np.asarray(rows.shape[1] - 1 - np.argmax(rows[:, ::-1] != 0, axis=1), dtype=np.int64)


def _with_ancestors(parts: set[Part], kinds: int) -> IntArray:
    """The parts and their ancestors (trailing kinds dropped), the empty part left out, by part code."""
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
    """One dense block: ``sums[f] += sum_r values[r_rows][r] * (matrix @ values[m_rows])[r * F + f]``;
    ``at``: its first row among the stage's row parts."""

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
    ``copies``, (functional, twin) for one equal to an earlier one as sums of monomials (the player's
    and the banker's pairs), evaluated once and copied."""

    space: Space
    classes: int
    layout: Layout
    stages: tuple[Stage, ...]
    weights: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()


def part_rows(layout: Layout, group: int, digits: IntArray) -> IntArray:
    """Rows of the layout of the parts (rows of digits) of one group."""
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
    """A reusable work array (uninitialised), one per name, shape and dtype and thread (a page fault per
    4 KB would be paid for every chunk otherwise); object arrays are new."""
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
    at a time (compiled, a row at a time: :func:`exact_odds.batch.loops.part_values`)."""
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


def _width(plan: Plan) -> int:
    """Compositions per chunk on the compiled path (:data:`WIDE_PARTIALS`)."""
    partials = sum(stage.rows * len(stage.functionals) for stage in plan.stages)
    return CHUNK if partials <= WIDE_PARTIALS else CHUNK // 2


def _compiled_float_rows(plan: Plan, rows: IntArray, counts: IntArray, suits: IntArray | None, sizes: IntArray,
                         out: Array, fast: ModuleType) -> list[IntArray]:
    """The float64 rows of :func:`_numpy_rows` by the compiled chunks of :mod:`exact_odds.batch.fused`,
    written straight into ``out`` when it holds every row in int64."""
    whole = len(rows) == counts.shape[0]
    target = out if whole and out.dtype == np.int64 else np.zeros((len(rows), plan.classes), dtype=np.int64)
    chosen_suits = None if suits is None else np.ascontiguousarray(suits if whole else suits[rows], dtype=np.int64)
    bad = compiled_rows(plan, np.ascontiguousarray(counts if whole else counts[rows]), chosen_suits,
                        sizes if whole else sizes[rows], target, fast, _width(plan), float(FLOAT_EXACT))
    if target is not out:
        out[rows] = target
    return [rows[bad]]


def ways(plan: Plan, counts: IntArray, suits: IntArray | None, sizes: IntArray | None = None, *,
         jit: bool | None = None) -> Array:
    """Exact ways of each functional: shape (n, functionals), int64 if every value fits, else object.

    ``counts``: rank counts (n, 13); ``suits``: counts per rank and suit (n, 13, 4) at
    ``Detail.SUITS``; ``sizes``: the cards of each, when known. Shoes are evaluated ``CHUNK`` at
    a time, in float64 where that is exact (compiled with ``jit``, None: for large jobs,
    :func:`exact_odds.batch.compiled.chosen`), else in int64 or Python integers.
    """
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
