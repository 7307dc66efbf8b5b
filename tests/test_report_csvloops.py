"""The compiled CSV writer of integer tables (exact_odds.report.csvloops) against the NumPy one and Python's str."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exact_odds.report.study import int_csv

pytest.importorskip("numba")

VALUES = st.one_of(st.integers(0, 2**63 - 1), st.integers(0, 1_000),
                   st.integers(0, 18).flatmap(lambda k: st.sampled_from([10**k - 1, 10**k, 10**k + 1])).map(
                       lambda v: min(v, 2**63 - 1)))


def _python(table: np.ndarray, head: str = "") -> str:
    return head + "".join(",".join(map(str, row)) + "\n" for row in table.tolist())


@given(st.integers(1, 30), st.integers(1, 6), st.data())
@example(2, 3, None)  # the extremes and every length of digits, below
def test_writer_equals_numpy_and_python(rows: int, columns: int, data: st.DataObject | None) -> None:
    if data is None:
        values = [0, 2**63 - 1, 2**63 - 2, *(10**k - 1 for k in range(1, 19)), *(10**k for k in range(19))]
        table = np.array(values, dtype=np.int64).reshape(-1, 5)
    else:
        table = np.array(data.draw(st.lists(VALUES, min_size=rows * columns, max_size=rows * columns)),
                         dtype=np.int64).reshape(rows, columns)
    expected = _python(table, "head,er\n")
    assert int_csv(table, "head,er\n", jit=False) == int_csv(table, "head,er\n", jit=True) == expected
    assert int_csv(table[:, ::-1], jit=True) == _python(table[:, ::-1])
