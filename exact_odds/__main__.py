"""The command line as a whole process: ``python -m exact_odds`` and the ``exact-odds`` script (:func:`start`)."""

import gc

from exact_odds.cli import run

YOUNG_GC_THRESHOLD = 50_000
"""Allocations between collections of the youngest generation (Python's default is 700): starting a command
allocates some 20,000 objects, none of them garbage, and walking them again and again costs a single-shoe
command a tenth of its time."""


def start() -> None:
    """Run the command line (:func:`exact_odds.cli.run`), the cyclic garbage collector set to run less often first."""
    gc.set_threshold(YOUNG_GC_THRESHOLD, *gc.get_threshold()[1:])
    run()


if __name__ == "__main__":
    start()
