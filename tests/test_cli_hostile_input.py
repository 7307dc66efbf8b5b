"""Hostile numbers, names and files: refused at once, by every command alike, in one line.

Each case of the tracker's list of inputs that once gave a traceback, hung or grew without
bound is run as a separate process: exit status 2, exactly one line on stderr, no traceback,
in under 5 seconds and 500 MB. Beside them, the one validation layer
(:mod:`exact_odds.inputs.validate`), the safe reading of files (:mod:`exact_odds.inputs.reading`) and the
TOML depth check (:func:`exact_odds.inputs.sources.toml_depth`) are tested directly.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run

from exact_odds.bets import BetError, parse_configuration
from exact_odds.bets.main import EXAMPLE_TOML
from exact_odds.core.shoe import Shoe, ShoeError
from exact_odds.core.tableau import STANDARD_TOML, TableauError, parse_tableau
from exact_odds.inputs import validate
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import read_user_file, user_blocks, user_lines
from exact_odds.inputs.sources import parse_toml, toml_depth

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
    ("config-deep", ("edges", "--config", "{deep.toml}"), ":1: arrays or inline tables nested more than 32 deep"),
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


# ---------------------------------------------------------------- the validation layer


@pytest.mark.parametrize("text", ["²", "\u0663", "1_000", "1e3", "0x10", "3.0", "", " ", "+", "1 2", "٣٣", "inf",
                                  "1" + "0" * 5000, "-1", "10001"], ids=lambda text: validate.shown(text)[:30])
def test_whole_numbers_are_ascii_digits_within_the_bound(text: str) -> None:
    with pytest.raises(InputError, match=r"^--decks must be a whole number from 1 to 10,000, got '"):
        validate.DECKS.parse(text, "--decks")


def test_whole_numbers_in_range_read_as_int() -> None:
    assert validate.DECKS.parse(" +8 ", "--decks") == 8 and validate.DECKS.parse("0008", "x") == 8
    assert validate.SEED.parse(str(2**64 - 1), "--seed") == 2**64 - 1
    assert validate.decks("inf") is None and validate.decks(" Infinity ") is None and validate.decks(6) == 6
    with pytest.raises(InputError, match="or 'inf', got True"):
        validate.decks(True)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "1e999", "1e-999999999", "0x1p3", "1_0", "١", ""])
def test_real_numbers_are_finite(text: str) -> None:
    with pytest.raises(InputError, match=r"^--thresholds must be a finite number from -1,000,000 to 1,000,000"):
        validate.THRESHOLD.parse(text, "--thresholds")


def test_real_numbers_in_range() -> None:
    assert validate.THRESHOLD.parse("-1.5e2", "t") == -150.0 and validate.ALPHA.parse("0.001", "a") == 0.001
    for bad in ("0", "1", "1e-999"):
        with pytest.raises(InputError, match="strictly between 0 and 1"):
            validate.ALPHA.parse(bad, "--alpha")


@pytest.mark.parametrize(("value", "message"), [
    ("-2", "'-2' loses more than the stake"),
    ("-3/2", "loses more than the stake"),
    ("1e999999999", "is too long to be read exactly"),
    ("9" * 4000, r"\(4,000 characters\) is too long"),
    ("1e99", "is out of range: it must be from -1 to 1,000,000,000"),
    ("1/0", "is not an exact number"),
    ("2:0", "is not an exact number"),
    ("\u0663", "is not an exact number"),
    (0.95, "is a float"),
    (float("nan"), "is a float"),
    (True, "expected a number or a string, got bool"),
    (10**5000, "is out of range"),
], ids=lambda value: validate.shown(value)[:30])
def test_payouts_are_exact_and_bounded(value: object, message: str) -> None:
    with pytest.raises(InputError, match=f"^pays: .*{message}"):
        validate.PAYOUT.parse(value, "pays")


def test_payouts_read_every_exact_form() -> None:
    forms = {"19/20": Fraction(19, 20), "0.95": Fraction(19, 20), "11:1": 11, "1 to 2": Fraction(1, 2),
             "1e3": 1000, "-1": -1, "push": None}
    for text, value in forms.items():
        if value is not None:
            assert validate.PAYOUT.parse(text, "pays") == value
    assert validate.PAYOUT.parse(Fraction(-1), "pays") == -1 and validate.PAYOUT.parse(10**9, "pays") == 10**9


@pytest.mark.parametrize("odds", [False, True], ids=["exact", "odds"])
def test_plain_ratios_read_as_the_regular_expressions_read_them(odds: bool) -> None:
    """The forms read without regular expressions (digits, ``a/b``, ``a:b``) are the numbers the regular
    expressions read, and every other form is left to them."""
    texts = ["0", "7", "007", "19/20", "11:1", "30:1", "1:0", "0:1", "4/0", "1/2/3", "1:2:3", "1:2/3", "/2", "2/",
             ":1", "1:", "", "+1", "-1", "1.5", "1.5:1", "1 / 2", "1 to 2", "١٢", "²", "12:٣", "1e3", "99" * 20]
    for text in texts:
        plain = validate._plain_ratio(text, odds=odds)
        if plain is not None:
            assert plain == validate._written_number(text, odds=odds), text
        assert validate._exact_text(text, odds=odds) == validate._written_number(text, odds=odds), text


def test_messages_quote_long_values_short() -> None:
    assert validate.shown("abc") == "'abc'"
    assert validate.shown("9" * 5000) == "'99999999999999999999…' (5,000 characters)"
    assert validate.shown(10**5000).startswith("a number of 5,001 digits")


def test_names_are_not_empty() -> None:
    with pytest.raises(InputError, match="--config must not be empty"):
        validate.name("  ", "--config")
    with pytest.raises(InputError, match="printable characters"):
        validate.name("a\x00b", "--config")
    assert validate.name(" standard ", "--config") == "standard"


def test_every_command_refuses_a_bad_number_with_the_same_words() -> None:
    """An option and a file say the same of the same number."""
    with pytest.raises(ShoeError) as from_spec:
        Shoe.parse("A=\u0663")
    with pytest.raises(InputError) as from_batch:
        from exact_odds.batch import parse_compositions

        parse_compositions("\u0663" + ROW[2:])
    rule = "must be a whole number from 0 to 40,000, got '\u0663'"
    assert str(from_spec.value).endswith(rule) and str(from_batch.value).endswith(rule)


def test_a_negative_payout_is_refused_in_a_configuration_as_in_a_bets_file() -> None:
    with pytest.raises(BetError, match=r"^cfg.toml:2: banker win: '-2' loses more than the stake \(the least is -1\)$"):
        parse_configuration(CONFIG.format(win="-2"), source="cfg.toml")
    assert parse_configuration(CONFIG.format(win="-1"), source="cfg.toml").bets[0].lines[0].pays == -1


def test_a_unicode_digit_is_no_rules_row() -> None:
    with pytest.raises(TableauError, match=r"^rules:20: banker row '\u0663' is not a total 0-9$"):
        parse_tableau(STANDARD_TOML + '"\u0663" = "S S S S S S S S S S S"\n')


def test_specials_are_bounded_and_read_in_linear_time() -> None:
    hundred = EXAMPLE_TOML.replace("[player]", "".join(
        f'[[banker.special]]\ntotal = {i % 10}\npays = "1"\n' for i in range(99)) + "[player]")
    start = time.perf_counter()
    assert len(parse_configuration(hundred).bets[0].lines) == 1 + 100 + 1
    assert time.perf_counter() - start < 1.0


# ---------------------------------------------------------------- TOML and files


def test_toml_depth_skips_strings_and_comments() -> None:
    assert toml_depth('a = "[[[[[[["\nb = \'[[[[\'\n# [[[[[[[[\nc = """\n[[[[[[[[\n"""\n', limit=2) == 0
    assert toml_depth("a = 1\nb = [[[1]]]\n", limit=2) == 2
    with pytest.raises(InputError, match=r"^f.toml:1: arrays or inline tables nested more than 32 deep$"):
        parse_toml(DEEP, "f.toml")
    assert parse_toml("x = " + "[" * 32 + "]" * 32, "f.toml")["x"] is not None


def test_toml_numbers_too_long_to_read() -> None:
    with pytest.raises(InputError, match="^f.toml: a whole number with more digits than can be read$"):
        parse_toml("x = " + "1" * 5000, "f.toml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFO on this system")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(InputError, match="it is a FIFO, not a regular file"):
        read_user_file(fifo, "rules")
    with pytest.raises(InputError, match="it is a FIFO"):
        list(user_lines(fifo, "log"))
    assert time.perf_counter() - start < 1.0


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no device nodes on this system")
def test_a_device_and_a_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="^cannot read bets file '/dev/zero': it is a character device"):
        read_user_file("/dev/zero", "bets")
    with pytest.raises(InputError, match="it is a directory, not a regular file"):
        read_user_file(tmp_path, "rules")


def test_files_are_capped_by_kind(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("#" * (1 << 20) + "\n")
    with pytest.raises(InputError, match=r"^rules file '.*big.toml' is larger than 1 MiB, the most a rules file"):
        read_user_file(big, "rules")
    assert read_user_file(big, "rules", cap=2 << 20).startswith("#")  # a cap of the caller's


def test_blocks_of_whole_lines(tmp_path: Path) -> None:
    """A file of any size, read in blocks of whole lines, each numbered by its first line."""
    text = tmp_path / "lines.csv"
    text.write_bytes(b"1,2\r\n" + b"".join(b"%d\n" % i for i in range(2, 500)) + b"last")
    blocks = list(user_blocks(text, "compositions", block=64))
    assert len(blocks) > 20 and all(body.endswith("\n") for _, body in blocks[:-1])
    assert "".join(body for _, body in blocks) == text.read_text().replace("\r\n", "\n")
    starts, expected = [first for first, _ in blocks], 1
    for first, body in blocks:
        assert first == expected
        expected += body.count("\n")
    assert starts[-1] == 500 and blocks[-1][1].endswith("last")


def test_blocks_name_the_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"".join(b"%d\n" % i for i in range(1, 300)) + b"\xff\n")
    with pytest.raises(InputError, match=r"is not UTF-8 text \(line 300\)"):
        list(user_blocks(bad, "compositions", block=50))
    long = tmp_path / "long.csv"
    long.write_bytes(b"1\n2\n" + b"9" * 5000)
    with pytest.raises(InputError, match=r"line 3 is longer than 1,000 bytes"):
        list(user_blocks(long, "compositions", block=100, max_line=1000))


def test_decoding_errors_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\r\nstill ok\n\xff\n")
    with pytest.raises(InputError, match=r"^results file '.*bad.txt' is not UTF-8 text \(line 3\)$"):
        read_user_file(bad, "results")
    lines = user_lines(bad, "log")
    assert next(lines) == "ok\n" and next(lines) == "still ok\n"
    with pytest.raises(InputError, match=r"is not UTF-8 text \(line 3\)$"):
        next(lines)


def test_lines_are_capped_and_text_keeps_its_newlines(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("a,b\r\n" + "x" * 100 + "\n")
    assert list(user_lines(path, "log", newline="")) == ["a,b\r\n", "x" * 100 + "\n"]
    assert read_user_file(path, "log") == "a,b\n" + "x" * 100 + "\n"
    with pytest.raises(InputError, match="line 2 is longer than 50 characters"):
        list(user_lines(path, "log", max_line=50))


def test_a_byte_order_mark_opening_a_file_is_read_as_nothing(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Spreadsheets may open UTF-8 text with a byte-order mark: every reader skips it there, and only there."""
    path = tmp_path / "marked.csv"
    path.write_bytes(b"\xef\xbb\xbf1,2\n\xef\xbb\xbf3\n")
    assert read_user_file(path, "log") == "1,2\n\ufeff3\n"
    assert list(user_lines(path, "log")) == ["1,2\n", "\ufeff3\n"]
    assert "".join(body for _, body in user_blocks(path, "compositions", block=4)) == "1,2\n\ufeff3\n"
    row = ",".join(["32"] * 13)
    path.write_bytes(b"\xef\xbb\xbf" + row.encode() + b"\n")
    code, out, _ = run(capsys, "batch", "--input", str(path))
    assert code == 0 and out.endswith("\n1,2292252566437888,2230518282592256,475627426473216,4998398275503360\n")


def test_standard_input_is_read_under_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("B P T\n"))
    assert read_user_file("-", "results", stdin=True) == "B P T\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("B" * 100))
    with pytest.raises(InputError, match="standard input is larger than 10 bytes"):
        read_user_file("-", "results", stdin=True, cap=10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\n\xff\n"), encoding="utf-8"))
    with pytest.raises(InputError, match=r"on standard input is not UTF-8 text \(line 2\)"):
        list(user_lines("-", "log"))
