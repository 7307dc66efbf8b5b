"""The committed reference tables are reproduced byte for byte by scripts/make_tables.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_tables_are_up_to_date() -> None:
    result = subprocess.run([sys.executable, "scripts/make_tables.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
