"""Hostile numbers, names and files: refused at once, by every command alike, in one line.

Each case of the tracker's list of inputs that once gave a traceback, hung or grew without
bound is run as a separate process: exit status 2, exactly one line on stderr, no traceback,
in under 5 seconds and 500 MB. The one validation layer (:mod:`exact_odds.inputs.validate`) is tested
directly in ``tests/test_inputs_validate.py``, the safe reading of files (:mod:`exact_odds.inputs.reading`)
and the TOML depth check (:func:`exact_odds.inputs.sources.toml_depth`) in ``tests/test_inputs_reading.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exact_odds.core.tableau import STANDARD_TOML

SECONDS = 5.0
MEGABYTES = 500
DEEP = "x = " + "[" * 1000 + "]" * 1000 + "\n"
CONFIG = '[banker]\nwin = "{win}"\n[player]\nwin = "1"\n[tie]\nwin = "8"\n'
BET = '[[bet]]\nname = "hostile"\nsource = "s"\n[[bet.line]]\npays = "1"\nmargin = {margin}\n'
SPECIALS = ('[banker]\nwin = "1"\n'
            + "".join(f'[[banker.special]]\ntotal = {i % 10}\npays = "1"\n' for i in range(8000))
            + '[player]\nwin = "1"\n[tie]\nwin = "8"\n')
GAME_SPECIALS = ('[configuration.banker]\nwin = "1"\n'
                 + "".join(f'[[configuration.banker.special]]\ntotal = {i % 10}\npays = "1"\n' for i in range(5001)))
ROW = "32," * 12 + "32\n"

FILES: dict[str, str | bytes] = {
    "deep.toml": DEEP,
    "negative.toml": CONFIG.format(win="-2"),
    "huge-exponent.toml": CONFIG.format(win="1e999999999"),
    "long-exponent.toml": CONFIG.format(win="1e100000"),
    "nines.toml": CONFIG.format(win="9" * 4000),
    "specials.toml": SPECIALS,
    "arabic-row.toml": STANDARD_TOML + '"\u0663" = "S S S S S S S S S S S"\n',
    "margin-int64.toml": BET.format(margin="[0, 9223372036854775807]"),
    "margin-huge.toml": BET.format(margin="[0, 400000000]"),
    "long-int.toml": BET.format(margin="1" + "0" * 5000),
    "above-int64.csv": "9223372036854775808" + ROW[2:],
    "int64.csv": "9223372036854775807" + ROW[2:],
    "wraps.csv": "4611686018427387904,4611686018427387904," + "32," * 10 + "32\n",
    "unicode-digit.csv": "\u0663" + ROW[2:],
    "not-utf8.csv": ROW.encode() + b"4,4,4,4,4,4,4,4,4,4,4,4,\xff\n",
    "not-utf8.txt": b"B P\nB \xfe P T\n",
    "not-utf8.rec": b"Kh 3d 9s\n2c \xff\n",
    "not-utf8.log": b"player,banker\nKh 5d,7s 8c\nKh 5d,\xff 2c\n",
    "one-line.log": "player,banker" + "x" * (2 << 20),
    "million.txt": "B" * 1_000_000,
    "not-utf8.rolls": b"round,dice\n1,3 5 \xff\n",
    "game-decks.toml": "decks = " + "9" * 30 + "\n",
    "game-cut.toml": "[procedure]\ncut_card = 9223372036854775808\n",
    "game-specials.toml": GAME_SPECIALS,
}
"""The hostile files, by name (bytes where the bytes are the point)."""

CASES: list[tuple[str, tuple[str, ...], str]] = [
    # numbers in options
    ("decks-superscript", ("odds", "--decks", "²"), "--decks must be a whole number from 1 to 10,000"),
    ("decks-arabic-indic", ("odds", "--decks", "\u0663"), "--decks must be a whole number"),
    ("decks-5000-digits", ("odds", "--decks", "1" + "0" * 4999), "(5,000 characters)"),
    ("decks-800-nines", ("odds", "--decks", "9" * 800), "--decks must be a whole number"),
    ("shoe-count-5000-zeros", ("odds", "--shoe", "A=1" + "0" * 5000), "count of A must be a whole number"),
    ("decks-and-shoe", ("odds", "--decks", "8", "--shoe", "A=32"), "not allowed with argument --decks"),
    ("empty-config", ("edges", "--config", ""), "the configuration must not be empty"),
    ("empty-rules", ("odds", "--rules", ""), "the file name is empty"),
    ("bankroll-exponent", ("session", "--bet", "banker", "--bankroll", "1e999999999", "--sessions", "0"),
     "--bankroll: '1e999999999' is too long"),
    ("bunco-alpha-zero-division", ("bunco", "--alpha", "1/0", "--simulate", "10"), "--alpha must be an exact number"),
    ("bunco-alpha-tiny", ("bunco", "--alpha", "1e-999999999", "--simulate", "10"), "--alpha must be an exact number"),
    ("max-tag", ("eor", "--max-tag", "1000000", "--bet", "banker"), "--max-tag must be a whole number from 1 to 10"),
    ("study-max-tag", ("study", "--max-tag", "1000000", "--shoes", "1"), "--max-tag must be a whole number from 1"),
    ("study-seed", ("study", "--seed", "-1", "--shoes", "1"), "--seed must be a whole number from 0 to 2**64 - 1"),
    ("study-nan", ("study", "--thresholds", "nan", "--shoes", "1"), "--thresholds must be a finite number"),
    ("study-inf", ("study", "--thresholds", "inf", "--shoes", "1"), "--thresholds must be a finite number"),
    ("simulate-alpha-nan", ("simulate", "--alpha", "nan"), "--alpha must be a number strictly between 0 and 1"),
    ("coups-unicode", ("simulate", "--coups", "1\u0660"), "--coups must be a whole number"),
    ("workers", ("study", "--workers", "100000", "--shoes", "1"), "--workers must be a whole number from 1 to 256"),
    ("verify-counts-unicode", ("verify", "--counts", "banker=\u0663,player=4,tie=1"), "count 'banker' must be"),
    ("position-unicode", ("advantage", "--position", "\u0663"), "unknown position"),
    ("count-trigger-exponent", ("count", "--count", "4=1, bet=tie, tc>=1e999999999", "--shoes", "1"),
     "trigger tc>=T: '1e999999999' is too long"),
    # numbers and nesting in files
    ("config-negative-payout", ("edges", "--config", "{negative.toml}"),
     ":2: banker win: '-2' loses more than the stake (the least is -1)"),
    ("config-huge-exponent", ("edges", "--config", "{huge-exponent.toml}"),
     ":2: banker win: '1e999999999' is too long"),
    ("config-long-exponent", ("edges", "--config", "{long-exponent.toml}"), ":2: banker win: '1e100000' is too long"),
    ("config-4000-nines", ("edges", "--config", "{nines.toml}"), "(4,000 characters) is too long"),
    ("config-8000-specials", ("edges", "--config", "{specials.toml}"), "8,000 special lines; at most 100"),
    ("config-deep", ("edges", "--config", "{deep.toml}"), ":1: nested more than 32 deep"),
    ("rules-deep", ("odds", "--rules", "{deep.toml}"), "nested more than 32 deep"),
    ("bets-deep", ("sidebets", "--bets", "{deep.toml}"), "nested more than 32 deep"),
    ("verify-rules-deep", ("simulate", "--verify", "--verify-rules", "{deep.toml}", "--coups", "10"), "32 deep"),
    ("rules-arabic-indic-row", ("odds", "--rules", "{arabic-row.toml}"), "banker row '\u0663' is not a total 0-9"),
    ("bets-margin-int64", ("sidebets", "--bets", "{margin-int64.toml}"), "margin must be 0-9, got 9223372036854775807"),
    ("bets-margin-huge", ("sidebets", "--bets", "{margin-huge.toml}"), "margin must be 0-9, got 400000000"),
    ("bets-long-int", ("sidebets", "--bets", "{long-int.toml}"), "more digits than can be read"),
    ("batch-above-int64", ("batch", "--input", "{above-int64.csv}"),
     "count 1 (A) must be a whole number from 0 to 40,000"),
    ("batch-int64", ("batch", "--input", "{int64.csv}"), "count 1 (A) must be a whole number from 0 to 40,000"),
    ("batch-total-wraps", ("batch", "--input", "{wraps.csv}"), "count 1 (A) must be a whole number"),
    ("batch-unicode-digit", ("batch", "--input", "{unicode-digit.csv}"), "got '\u0663"),
    # files that are not text, not regular, or too big
    ("batch-not-utf8", ("batch", "--input", "{not-utf8.csv}"), "is not UTF-8 text (line 2)"),
    ("roads-not-utf8", ("roads", "--results", "{not-utf8.txt}"), "is not UTF-8 text (line 2)"),
    ("record-not-utf8", ("study", "--record", "{not-utf8.rec}"), "is not UTF-8 text (line 2)"),
    ("log-not-utf8", ("verify", "{not-utf8.log}"), "is not UTF-8 text (line 3)"),
    ("log-one-long-line", ("verify", "{one-line.log}"), "line 1 is longer than 1,048,576 characters"),
    ("roads-million", ("roads", "--results", "{million.txt}"), "roads are drawn for at most 10,000 coups"),
    ("roads-input-million", ("roads", "--input", "{million.txt}"), "roads are drawn for at most 10,000 coups"),
    ("rules-fifo", ("odds", "--rules", "{fifo}"), "it is a FIFO, not a regular file"),
    ("batch-fifo", ("batch", "--input", "{fifo}"), "it is a FIFO"),
    ("log-fifo", ("verify", "{fifo}"), "it is a FIFO"),
    ("config-fifo", ("edges", "--config", "{fifo}"), "it is a FIFO"),
    ("bets-zero-device", ("sidebets", "--bets", "/dev/zero"), "it is a character device, not a regular file"),
    ("batch-zero-device", ("batch", "--input", "/dev/zero"), "it is a character device"),
    ("roads-urandom", ("roads", "--results", "/dev/urandom"), "it is a character device"),
    ("log-zero-device", ("verify", "/dev/zero"), "it is a character device"),
    ("rules-directory", ("odds", "--rules", "{dir}"), "it is a directory, not a regular file"),
    ("game-fifo", ("odds", "--game", "{fifo}"), "it is a FIFO"),
    ("game-deep", ("odds", "--game", "{deep.toml}"), "nested more than 32 deep"),
    ("game-decks", ("odds", "--game", "{game-decks.toml}"), ":1: decks must be a whole number from 1 to 10,000"),
    ("game-cut-card", ("deal", "--game", "{game-cut.toml}"), ":2: cut_card must be a whole number from 0 to 520,000"),
    # found by the fuzzing: 35 s finding each table's lines among 5,001 headers (now read once)
    ("game-5001-specials", ("sidebets", "--game", "{game-specials.toml}"), "5,001 special lines; at most 100"),
    ("bunco-log-fifo", ("bunco", "--verify", "{fifo}"), "it is a FIFO"),
    ("bunco-log-not-utf8", ("bunco", "--verify", "{not-utf8.rolls}"), "is not UTF-8 text (line 2)"),
    ("long-file-name", ("odds", "--rules", "r" * 5000), "(5,000 characters)"),
]
"""(id, command line with {file} placeholders, a piece of the one line on stderr)."""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The paths of the hostile files, a FIFO and a directory, by placeholder name."""
    folder = tmp_path_factory.mktemp("hostile")
    paths = {"dir": str(folder)}
    for name, content in FILES.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        paths[name] = str(path)
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo")
        paths["fifo"] = str(folder / "fifo")
    return paths


# The child reports its own peak memory from /proc (VmHWM: the high-water mark of the process's
# own memory after exec). getrusage's ru_maxrss would also count the forking test process.
_CHILD = """import atexit, sys
out = sys.argv.pop(1)
def peak():
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            kb = next((line.split()[1] for line in fh if line.startswith("VmHWM:")), "0")
    except OSError:
        kb = "0"
    with open(out, "w", encoding="ascii") as fh:
        fh.write(kb)
atexit.register(peak)
from exact_odds.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _run(argv: list[str]) -> tuple[int, str, float, float]:
    """Exit status, stderr, seconds and peak megabytes (0 where unknown) of ``exact-odds ARGV`` in a
    process of its own, killed after 30 s."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "peak"
        start = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, "-c", _CHILD, str(report), *argv], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30, check=False)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"exact-odds {' '.join(argv)[:80]} ran past 30 s") from None
        seconds = time.perf_counter() - start
        text = report.read_text(encoding="ascii") if report.exists() else "0"
    peak = int(text or "0") / 1024
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), seconds, peak


@pytest.mark.parametrize(("argv", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_hostile_input_is_one_line_and_status_2(hostile: dict[str, str], argv: tuple[str, ...],
                                                expected: str) -> None:
    if any("{fifo}" in a for a in argv) and "fifo" not in hostile:
        pytest.skip("no FIFO on this system")
    if any(a.startswith("/dev/") for a in argv) and not Path("/dev/zero").exists():
        pytest.skip("no device nodes on this system")
    filled = [hostile[arg[1:-1]] if arg.startswith("{") and arg.endswith("}") else arg for arg in argv]
    code, err, seconds, peak = _run(filled)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err[-2000:]
    assert lines[0].startswith("exact-odds: error: ") and expected in lines[0], lines[0]
    assert seconds < SECONDS and peak < MEGABYTES, (seconds, peak)


def test_a_singular_shoe_is_verified() -> None:
    """``simulate --verify --shoe K=100``: every coup a tie 0-0, whose frequencies have a singular
    covariance: a good shoe, verified (PASS: 0 degrees of freedom), never a LinAlgError."""
    code, err, seconds, peak = _run(["simulate", "--verify", "--shoe", "K=100", "--seed", "1", "--quiet"])
    assert code == 0 and err == "" and seconds < 30 and peak < MEGABYTES, err[-2000:]
