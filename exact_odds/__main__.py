"""``python -m exact_odds``: the command line."""

from exact_odds.cli import run

run()
