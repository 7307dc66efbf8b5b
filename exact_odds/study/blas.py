"""How many threads the BLAS library behind NumPy may run, set before NumPy loads.

The bulk paths multiply in pieces of at most about 10**6 multiply-adds (``batch.fused.BLAS_WORK``),
small enough to stay in cache, where a second BLAS thread gains little on an idle machine and costs
much on a busy one: its threads wait for each other by spinning, so a process holding two of them
beside other work takes two to three times the CPU (``simulate --verify`` of a singular shoe on a
loaded two-core machine: 5.8 s of CPU with two threads, 1.9 s with one). A whole process of the
command line therefore runs one BLAS thread, as each worker process does, unless the user chose.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables that set a BLAS library's threads (read once, when NumPy loads it)."""
ONE_THREAD = dict.fromkeys(BLAS_THREADS, "1")
"""Those variables, each set to one thread."""


def one_thread_unless_chosen(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Set every variable of :data:`BLAS_THREADS` to 1 in ``environ``, unless one of them is set already
    (the user's choice then stands, whole); return whether they were set. Effective only before NumPy
    is imported, and inherited by the processes this one starts."""
    if any(k in environ for k in BLAS_THREADS):
        return False
    environ.update(ONE_THREAD)
    return True
