"""Loading the compiled loops (exact_odds.batch.compiled): numba's array functions are imported
without SciPy, which then stays out of the process, and numba's linear algebra still works."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")

PROBE = """
import sys
import numpy as np
from exact_odds.batch import evaluate
found = evaluate(np.full((1, 13), 4, dtype=np.int64))
print(int(found.sequences[0]), "scipy" in sys.modules)
import numba
dot = numba.njit(lambda a, b: np.dot(a, b))
print(dot(np.arange(3.0), np.arange(3.0)))
"""


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None, reason="SciPy is not installed: nothing to leave out")
def test_the_compiled_loops_load_without_scipy_and_numba_linear_algebra_still_works() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], env={**os.environ, "EXACT_ODDS_JIT": "1"},
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(math.perm(52, 6)), "False", str(0.0 * 0 + 1.0 * 1 + 2.0 * 2)]
