"""verify's loops, compiled (numba): imported only through :func:`exact_odds.witness.verify.log.compiled_loops`.

Each mirrors a NumPy step (named in its docstring) operation for operation: the same integers and floats, in one
pass that stays in the cache. A value out of range raises ValueError rather than write past an array. Arrays are
C-contiguous: ``ranks`` int8 (1-13, 0 for no card); ``left`` int16 or int64; ``gram``, ``acc``, ``p`` float64.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # numba's own dependency
from numba import types
from numba.extending import intrinsic

_jit = numba.njit(cache=True, nogil=True)


def _vector_at(context: Any, builder: Any, kind: Any, array: Any, offset: Any, vector: Any) -> Any:
    """A pointer to ``width`` doubles of ``array`` (of numba type ``kind``) from its flat ``offset``."""
    data = context.make_array(kind)(context, builder, array).data
    return builder.bitcast(builder.gep(data, [offset]), vector.as_pointer())


def _spread(builder: Any, value: Any, vector: Any) -> Any:
    index = ir.IntType(32)
    one = builder.insert_element(ir.Constant(vector, ir.Undefined), value, ir.Constant(index, 0))
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined),
                                  ir.Constant(ir.VectorType(index, vector.count), [0] * vector.count))


def _card_adder() -> Any:
    """An intrinsic ``add(count, acc, at)``: ``p = count / count[15]`` (a card's composition at 2-14, its size at
    15), then ``acc.flat[at:]``'s 14 rows of 16 ``+= p p^T`` over the upper triangle, in registers of 4 doubles;
    no fused multiply-add: NumPy's floats. The caller keeps the indices in bounds."""
    vector = ir.VectorType(ir.DoubleType(), 4)

    @intrinsic
    def add(typingctx, count, acc, at):
        def codegen(context, builder, signature, args):
            composition, sums, offset = args
            given = [builder.load(_vector_at(context, builder, signature.args[0], composition,
                                             ir.Constant(offset.type, 4 * b), vector), align=8) for b in range(4)]
            size = _spread(builder, builder.extract_element(given[3], ir.Constant(ir.IntType(32), 3)), vector)
            blocks = [builder.fdiv(block, size) for block in given]
            for i in range(14):
                column = i + 2
                scale = _spread(builder, builder.extract_element(blocks[column // 4],
                                                                 ir.Constant(ir.IntType(32), column % 4)), vector)
                for b in range(column // 4, 4):
                    place = _vector_at(context, builder, signature.args[1], sums,
                                       builder.add(offset, ir.Constant(offset.type, i * 16 + 4 * b)), vector)
                    product = builder.fmul(blocks[b], scale)
                    builder.store(builder.fadd(builder.load(place, align=8), product), place, align=8)
            return context.get_dummy_value()

        return types.void(count, acc, types.intp), codegen

    return add


_add_card = _card_adder()


@_jit
def card_sums(ranks, first, ok, dealt, total, left, width, groups, chunk, seen, gram, acc, p):
    """The card tally of a block (``odds._cards`` and ``_add_grams``): each card of coups ``ok`` counted in
    ``seen[key, rank]``, and ``gram[key] += sum p p^T`` over each ``chunk`` of cards, summed in ``acc`` (keys, 14,
    16; ``(i, j)`` at ``[i, j + 2]``), its composition carried from the card before. Returns the cards."""
    kinds = seen.shape[1]
    side = kinds + 1
    if acc.shape[1] != side or acc.shape[2] != 16 or side != 14 or p.shape[0] != 16 or left.shape[1] != kinds \
            or groups * side > min(acc.shape[0], seen.shape[0], gram.shape[0]):
        raise ValueError("a tally of the wrong shape")
    acc[:, :, :] = 0.0
    count = p  # the card's composition at 2-14 (its coup's, less the coup's cards before it), its size at 15
    count[:] = 0.0
    cards = n = 0
    previous = last_coup = last_slot = -1
    for c in range(ranks.shape[0]):
        for e in range(ranks.shape[1]):
            if ranks[c, e] <= 0:
                continue
            rank = ranks[c, e] - 1
            if rank >= kinds:
                raise ValueError("a card rank beyond 13")
            before = -1 if e == 0 and first[c] else previous
            previous = rank
            if not ok[c]:
                continue
            k = min((dealt[c] + e) // width, groups - 1) * side + before + 1
            seen[k, rank] += 1
            if c == last_coup and e == last_slot + 1:
                count[ranks[c, last_slot] + 1] -= 1.0
            else:
                for r in range(kinds):
                    count[r + 2] = left[c, r]
                for q in range(e):
                    count[ranks[c, q] + 1] -= 1.0
            last_coup, last_slot = c, e
            count[15] = float(total[c] - e)
            _add_card(count, acc, k * side * 16)
            cards += 1
            n += 1
            if n == chunk:
                _flush(acc, gram)
                n = 0
    if n:
        _flush(acc, gram)
    return cards


@_jit
def _flush(acc, gram):
    """``gram[key] += acc[key]`` (the upper triangle mirrored), then ``acc`` zeroed."""
    side = gram.shape[1]
    for a in range(gram.shape[0]):
        for i in range(side):
            for j in range(i, side):
                gram[a, i, j] += acc[a, i, j + 2]
                if j != i:
                    gram[a, j, i] += acc[a, i, j + 2]
    acc[:, :, :] = 0.0


@_jit
def winner_odds(ways, sequences, weights, scales, probabilities, ev):
    """``probabilities[i] = ways[i] / sequences[i]``, ``ev[i, j] = (ways[i] @ weights[:, j]) / (sequences[i] *
    scales[j])`` (numerators in int64, bounded by the caller): ``odds._many_odds``."""
    if ways.shape[1] != 3 or weights.shape[0] != 3 or ev.shape[1] != weights.shape[1] \
            or scales.shape[0] != weights.shape[1] or min(probabilities.shape[0], ev.shape[0]) < ways.shape[0]:
        raise ValueError("odds of the wrong shape")
    for i in range(ways.shape[0]):
        s = float(sequences[i])
        b, p, t = ways[i, 0], ways[i, 1], ways[i, 2]
        probabilities[i, 0] = float(b) / s
        probabilities[i, 1] = float(p) / s
        probabilities[i, 2] = float(t) / s
        for j in range(weights.shape[1]):
            numerator = b * weights[0, j] + p * weights[1, j] + t * weights[2, j]
            ev[i, j] = float(numerator) / (s * scales[j])


@_jit
def compositions(ranks, burn, first, base, seen, left, dealt):
    """``left[i] = base - seen`` and ``dealt[i]``: the cards seen in coup ``i``'s shoe before its hands, ``seen``
    carried from block to block (``log.compositions``)."""
    for i in range(ranks.shape[0]):
        if first[i]:
            seen[:] = 0
        for e in range(burn.shape[1]):
            if burn[i, e] > 0:
                if burn[i, e] > seen.shape[0]:
                    raise ValueError("a card rank beyond 13")
                seen[burn[i, e] - 1] += 1
        total = 0
        for r in range(seen.shape[0]):
            left[i, r] = base[r] - seen[r]
            total += seen[r]
        dealt[i] = total
        for e in range(ranks.shape[1]):
            if ranks[i, e] > 0:
                if ranks[i, e] > seen.shape[0]:
                    raise ValueError("a card rank beyond 13")
                seen[ranks[i, e] - 1] += 1


@_jit
def group_counts(group, kinds, shift, out):
    """``log.counts_by``."""
    out[:, :] = 0
    for i in range(kinds.shape[0]):
        g = group[i]
        for e in range(kinds.shape[1]):
            k = kinds[i, e] - 1 + shift
            if k >= out.shape[1] or g < 0 or g >= out.shape[0]:
                raise ValueError("a kind or a group out of range")
            if k >= 0:
                out[g, k] += 1


@_jit
def hands(ranks, suits, player_cards, banker_cards, stood, weights, player2, banker2, third, player, banker,
          winner, player_pair, banker_pair, code):
    """``checks.hands_of`` (``weights``: each part's weight in the coup code)."""
    pts = np.zeros(6, np.int64)
    for i in range(ranks.shape[0]):
        for e in range(6):
            r = ranks[i, e]
            if r > 13 or r < 0:
                raise ValueError("a card rank beyond 13")
            pts[e] = r if r < 10 else 0
        p2, b2 = (pts[0] + pts[2]) % 10, (pts[1] + pts[3]) % 10
        player_drew, banker_drew = player_cards[i] == 3, banker_cards[i] == 3
        p = (p2 + pts[4]) % 10 if player_drew else p2
        b = (b2 + pts[5 if player_drew else 4]) % 10 if banker_drew else b2
        player2[i], banker2[i], third[i] = p2, b2, pts[4] if player_drew else stood
        player[i], banker[i] = p, b
        winner[i] = 0 if b > p else (1 if p > b else 2)
        pp, bp = ranks[i, 0] == ranks[i, 2], ranks[i, 1] == ranks[i, 3]
        player_pair[i], banker_pair[i] = pp, bp
        ps = pp and suits[i, 0] == suits[i, 2] and suits[i, 0] >= 0
        bs = bp and suits[i, 1] == suits[i, 3] and suits[i, 1] >= 0
        twin = pp and bp and ranks[i, 0] == ranks[i, 1]
        code[i] = (weights[0] * p + weights[1] * b + weights[2] * player_drew + weights[3] * banker_drew
                   + weights[4] * pp + weights[5] * bp + weights[6] * ps + weights[7] * bs + weights[8] * twin)


@_jit
def shoe_cards(cards, rows, start, used, suited, ranks, suits):
    """Coup ``i``'s ``used[i]`` cards from ``cards[rows[i], start[i]]`` on, as ranks and suits (``from_dealt``)."""
    last = cards.shape[1] - 1
    for i in range(rows.shape[0]):
        for e in range(ranks.shape[1]):
            if e < used[i]:
                code = cards[rows[i], min(start[i] + e, last)]
                ranks[i, e] = (code >> 2) + 1
                suits[i, e] = code & 3 if suited else -1
            else:
                ranks[i, e], suits[i, e] = 0, -1


@_jit
def shoe_totals(shoe, ranks, suits, burn_ranks, burn_suits, by_rank, by_card):
    """Each shoe's cards (burns too) by rank in ``by_rank`` and by card in ``by_card``; returns the cards and the
    suits given (``checks.accounting_check``)."""
    by_rank[:, :] = 0
    by_card[:, :] = 0
    cards = suited = 0
    hand, burned = ranks.shape[1], burn_ranks.shape[1]
    for i in range(ranks.shape[0]):
        g = shoe[i]
        if g < 0 or g >= by_rank.shape[0]:
            raise ValueError("a kind or a group out of range")
        for e in range(hand + burned):
            r = ranks[i, e] if e < hand else burn_ranks[i, e - hand]
            s = suits[i, e] if e < hand else burn_suits[i, e - hand]
            if r > 13 or s > 3:
                raise ValueError("a card rank beyond 13")
            suited += s >= 0
            if r > 0:
                cards += 1
                by_rank[g, r - 1] += 1
                if s >= 0:
                    by_card[g, 4 * (r - 1) + s] += 1
    return cards, suited


@_jit
def pair_probabilities(left, table, size, p, both):
    """``odds.pair_odds`` from the terms ``table`` by count (``size`` empty: add them up). False at a count the
    table does not hold."""
    for i in range(left.shape[0]):
        s = 0.0
        spread = 0.0
        cards = 0
        for r in range(left.shape[1]):
            c = left[i, r]
            if c < 0 or c >= table.shape[0]:
                return False
            s += table[c, 0]
            spread += table[c, 1]
            cards += c
        n = size[i] if size.shape[0] else float(cards)
        p[i] = s / (n * (n - 1))
        both[i] = (s * s - spread) / (n * (n - 1) * (n - 2) * (n - 3))
    return True


@_jit
def label_errors(logged, truth, missing):
    """The labels given (``logged`` not ``missing``) and, of those, the ones ``truth`` contradicts."""
    given = wrong = 0
    for i in range(logged.shape[0]):
        if logged[i] != missing:
            given += 1
            wrong += logged[i] != truth[i]
    return given, wrong
