"""How many threads the BLAS library behind NumPy may run, set before NumPy loads.

The bulk paths multiply in pieces small enough to stay in cache, where a second BLAS thread gains
little and, its threads spinning, takes two to three times the CPU on a busy machine. So a process of
the command line runs one BLAS thread, as each worker process does, unless the user chose.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables that set a BLAS library's threads (read once, when NumPy loads it)."""
ONE_THREAD = dict.fromkeys(BLAS_THREADS, "1")
"""Those variables, each set to one thread."""


def one_thread_unless_chosen(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Set every variable of :data:`BLAS_THREADS` to 1 in ``environ`` unless one is set already (the user's
    choice); return whether they were set. Effective before NumPy is imported, and inherited."""
    if any(k in environ for k in BLAS_THREADS):
        return False
    environ.update(ONE_THREAD)
    return True
