"""``python -m exact_odds``: the command line."""

import sys

from exact_odds.cli import main

sys.exit(main())
