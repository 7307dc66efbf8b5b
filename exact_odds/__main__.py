"""The command line as a whole process: ``python -m exact_odds`` and the ``exact-odds`` script (:func:`start`)."""

import gc

from exact_odds.cli import run

YOUNG_GC_THRESHOLD = 50_000
"""Allocations between two collections of the youngest generation in a whole process (Python's default
is 700): starting a command allocates some 20,000 objects (modules, classes, functions, the parser), none
of them garbage, and walking them again and again as they come costs a single-shoe command a tenth of its
time. A long command's cyclic garbage is still collected, in batches of this size."""


def start() -> None:
    """Run the command line in this process (:func:`exact_odds.cli.run`), the collector of cyclic garbage
    set first, before the command line's modules are imported, to run less often (:data:`YOUNG_GC_THRESHOLD`)."""
    gc.set_threshold(YOUNG_GC_THRESHOLD, *gc.get_threshold()[1:])

    run()


if __name__ == "__main__":
    start()
