"""Coefficient tables as data (exact_odds.engine.store): the file format's checks, the cache, the shipped tables.

The cache directory is the test session's own (``EXACT_ODDS_CACHE_DIR``, set in conftest.py), or a
test's ``tmp_path``; no test writes to the user's cache.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zlib
from array import array
from pathlib import Path

import pytest

from exact_odds.core.coup import Detail
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau, parse_tableau
from exact_odds.engine import polynomial, store
from exact_odds.engine.store import (
    CACHE_ENV,
    MAX_TABLE_BYTES,
    STANDARD_KEY,
    Arrays,
    CorruptTable,
    cache_dir,
    cache_path,
    decisions,
    decode,
    encode,
    load,
    tableau_key,
)

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "examples" / "wrong_banker_6.toml"
ARRAYS: Arrays = {"small": array("B", [0, 1, 255]), "wide": array("H", [65535, 7]),
                  "long": array("I", [2**32 - 1]), "huge": array("Q", [2**64 - 1, 0]), "empty": array("B")}


def _wrong() -> Tableau:
    return parse_tableau(WRONG.read_text(encoding="utf-8"))


def test_round_trip_keeps_every_array() -> None:
    data = encode("t", "k" * 64, ARRAYS)
    assert data.startswith(b"exact-odds coefficient table\nformat 1\ntable t\n")
    got = decode(data, "t", "k" * 64)
    assert {n: (a.typecode, a.tolist()) for n, a in got.items()} == {
        n: (a.typecode, a.tolist()) for n, a in ARRAYS.items()}


def test_narrowest_typecode() -> None:
    assert [store.typecode_for(n) for n in (0, 255, 256, 65_536, 2**32, 2**64 - 1)] == ["B", "B", "H", "I", "Q", "Q"]
    with pytest.raises(OverflowError):
        store.typecode_for(2**64)


@pytest.mark.parametrize(("damage", "why"), [
    (lambda d: d[:-7], "checksum"),  # truncated
    (lambda d: d[:len(d) // 2], "checksum|bad header"),
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "checksum"),  # one bit of the payload
    (lambda d: d.replace(b"table t\n", b"table u\n"), "checksum"),  # the header is covered too
    (lambda d: d.replace(b"small:B:3", b"small:B:4"), "checksum"),
    (lambda d: b"PK" + d, "not a table file"),
    (lambda d: d.replace(b"\n\n", b"\n", 1), "bad header"),
    (lambda d: b"", "not a table file"),
], ids=["truncated", "half", "bit-flip", "header", "length", "magic", "separator", "empty"])
def test_damaged_files_are_refused(damage: object, why: str) -> None:
    data = encode("t", "k" * 64, ARRAYS)
    with pytest.raises(CorruptTable, match=why):
        decode(damage(data), "t", "k" * 64)  # type: ignore[operator]


def test_a_file_for_another_table_tableau_or_format_is_refused() -> None:
    data = encode("t", "k" * 64, ARRAYS)
    for name, key in (("u", "k" * 64), ("t", "j" * 64)):
        with pytest.raises(CorruptTable, match="not format 1 table"):
            decode(data, name, key)
    newer = data.replace(b"format 1\n", b"format 2\n")
    with pytest.raises(CorruptTable):
        decode(newer, "t", "k" * 64)


@pytest.mark.parametrize("arrays", [b"small:B", b"small:X:3", b"small:B:x", b"small:B:9"])
def test_a_well_checksummed_but_malformed_file_is_refused(arrays: bytes) -> None:
    """Whatever a file says, decoding it raises CorruptTable and nothing else."""
    good = encode("t", "k" * 64, {"small": ARRAYS["small"]})
    payload = good.partition(b"\n\n")[2]
    header = b"format 1\ntable t\ntableau " + b"k" * 64 + b"\narrays " + arrays + b"\n"
    crc = zlib.crc32(payload, zlib.crc32(header))
    with pytest.raises(CorruptTable):
        decode(store.MAGIC + header + f"crc32 {crc:08x}\n\n".encode() + payload, "t", "k" * 64)


def test_tableau_key_is_the_rule_not_its_name() -> None:
    assert STANDARD_KEY == hashlib.sha256(decisions(STANDARD_TABLEAU)).hexdigest() == tableau_key(STANDARD_TABLEAU)
    renamed = Tableau("another name", STANDARD_TABLEAU.naturals, STANDARD_TABLEAU.player_draws,
                      STANDARD_TABLEAU.banker_draws)
    assert tableau_key(renamed) == STANDARD_KEY
    assert tableau_key(_wrong()) != STANDARD_KEY


def test_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "given"))
    assert cache_dir() == tmp_path / "given"
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "exact-odds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "exact-odds"


class Builder:
    """A table builder that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, tableau: Tableau) -> Arrays:
        self.calls += 1
        return {"rule": array("B", decisions(tableau))}


def test_custom_tableau_is_built_once_then_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    build, rule = Builder(), _wrong()
    first = load("probe", rule, build)
    path = cache_path("probe", tableau_key(rule))
    assert path.parent == tmp_path and path.exists() and build.calls == 1
    assert oct(path.stat().st_mode & 0o777) == oct(0o644)
    assert load("probe", rule, build)["rule"].tolist() == first["rule"].tolist() and build.calls == 1
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


@pytest.mark.parametrize("damage", [lambda d: d[:100], lambda d: d[:-1] + b"x", lambda d: b"junk"],
                         ids=["truncated", "altered", "junk"])
def test_corrupt_cache_file_is_rebuilt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, damage: object) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    build, rule = Builder(), _wrong()
    good = load("probe", rule, build)
    path = cache_path("probe", tableau_key(rule))
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    assert load("probe", rule, build)["rule"].tolist() == good["rule"].tolist() and build.calls == 2
    assert decode(path.read_bytes(), "probe", tableau_key(rule))["rule"].tolist() == good["rule"].tolist()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
@pytest.mark.parametrize("put", ["fifo", "zeros", "huge"])
def test_a_cache_file_that_is_no_table_file_is_rebuilt_unread(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                              put: str) -> None:
    """A FIFO (opening it waited for a writer: a hang), a link to /dev/zero (read whole: all memory) or a file
    past MAX_TABLE_BYTES in the cache file's place: not read, the table built and the file replaced."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    build, rule = Builder(), _wrong()
    path = cache_path("probe", tableau_key(rule))
    if put == "fifo":
        os.mkfifo(path)
    elif put == "zeros":
        path.symlink_to("/dev/zero")
    else:
        with open(path, "wb") as fh:
            fh.truncate(MAX_TABLE_BYTES + 1)
    assert load("probe", rule, build)["rule"].tolist() == build(rule)["rule"].tolist() and build.calls == 2
    assert path.is_file() and not path.is_symlink() and path.stat().st_size < MAX_TABLE_BYTES


def test_a_cache_that_cannot_be_written_still_answers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    build = Builder()
    assert load("probe", _wrong(), build)["rule"].tolist() == list(decisions(_wrong()))
    assert load("probe", _wrong(), build) and build.calls == 2


def test_standard_tables_come_from_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    build = Builder()
    arrays = load("single-points", STANDARD_TABLEAU, build)
    assert build.calls == 0 and list(tmp_path.iterdir()) == [] and len(arrays["mono"]) > 0


def test_a_damaged_shipped_table_is_rebuilt_not_trusted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    good = (Path(store.DATA_DIR) / "standard-single-winners.bin").read_bytes()
    (tmp_path / "standard-single-winners.bin").write_bytes(good[:-10])
    monkeypatch.setattr(store, "DATA_DIR", tmp_path)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    build = Builder()
    assert load("single-winners", STANDARD_TABLEAU, build)["rule"] and build.calls == 1
    assert cache_path("single-winners", STANDARD_KEY).exists()  # then kept in the cache
    assert load("single-winners", STANDARD_TABLEAU, build)["rule"] and build.calls == 1


CONCURRENT = """
import sys
from exact_odds.engine.polynomial import tables
from exact_odds.core.tableau import load_tableau
t = tables(load_tableau(sys.argv[1]), "pairs")
print(sum(t.arrays["count"]), len(t.arrays["mono"]))
"""


def test_processes_building_one_table_at_once(tmp_path: Path) -> None:
    """Four processes build the same custom table into an empty cache together: each gets the same
    table, and the cache ends with one valid file and no temporary files."""
    env = {**os.environ, CACHE_ENV: str(tmp_path)}
    runs = [subprocess.Popen([sys.executable, "-c", CONCURRENT, str(WRONG)], env=env, stdout=subprocess.PIPE,
                             text=True) for _ in range(4)]
    outputs = {run.communicate(timeout=300)[0] for run in runs}
    assert all(run.returncode == 0 for run in runs) and len(outputs) == 1
    files = list(tmp_path.iterdir())
    assert [f.name for f in files] == [cache_path("single-pairs", tableau_key(_wrong())).name]
    decode(files[0].read_bytes(), "single-pairs", tableau_key(_wrong()))


def test_custom_tableau_answers_from_its_cached_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    polynomial.tables.cache_clear()
    rule, shoe = _wrong(), Shoe.decks(2)
    first = polynomial.deal_by_tables(shoe, rule, Detail.RANKS)
    assert all(cache_path(f"single-{part}", tableau_key(rule)).exists() for part in ("points", "pairs"))
    polynomial.tables.cache_clear()
    polynomial._RECENT.clear()
    assert polynomial.deal_by_tables(shoe, rule, Detail.RANKS) == first
    polynomial.tables.cache_clear()


@pytest.mark.slow
def test_shipped_tables_match_a_fresh_build() -> None:
    """What make_tables --check is to tables/: every shipped table is rebuilt from the tableau and compared."""
    done = subprocess.run([sys.executable, "scripts/make_coefficients.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
