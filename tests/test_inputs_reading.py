"""Reading the files a user names, safely (:mod:`exact_odds.inputs.reading`): regular files only, a size cap
per kind, UTF-8 checked by line; and the TOML depth check (:func:`exact_odds.inputs.sources.toml_depth`)."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest
from conftest import run
from test_cli_hostile_input import DEEP

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.reading import is_file, read_user_file, user_blocks, user_lines
from exact_odds.inputs.sources import parse_toml, toml_depth


def test_toml_depth_skips_strings_and_comments() -> None:
    assert toml_depth('a = "[[[[[[["\nb = \'[[[[\'\n# [[[[[[[[\nc = """\n[[[[[[[[\n"""\n', limit=2) == 0
    assert toml_depth("a = 1\nb = [[[1]]]\n", limit=2) == 2
    with pytest.raises(InputError, match=r"^f.toml:1: nested more than 32 deep \(tables, dotted keys, arrays"):
        parse_toml(DEEP, "f.toml")
    assert parse_toml("x = " + "[" * 31 + "]" * 31, "f.toml")["x"] is not None


DEEP_KEYS = {
    "header": "a = 1\n[x." + ".".join(["a"] * 300_000) + "]\n",
    "array of tables": "a = 1\n[[x." + ".".join(["a"] * 300_000) + "]]\n",
    "dotted key": "a = 1\n" + ".".join(["a"] * 50_000) + " = 1\n",
    "dotted key in an inline table": "a = 1\nx = { " + ".".join(["a"] * 50_000) + " = 1 }\n",
    "inline tables": "a = 1\nx = " + "{ a = " * 100_000 + "1" + " }" * 100_000 + "\n",
    "under a header": "[" + ".".join(["a"] * 20) + "]\n" + ".".join(["b"] * 8) + " = [[[[[1]]]]]\n",
}


@pytest.mark.parametrize("name", sorted(DEEP_KEYS))
def test_deep_tables_and_dotted_keys_are_refused_before_parsing(name: str) -> None:
    """Headers and dotted keys of many parts kept tomllib busy for minutes or took gigabytes: the scan
    counts their parts with the brackets, in one pass, and names the line and the limit."""
    start = time.perf_counter()
    with pytest.raises(InputError, match=r"^f.toml:2: nested more than 32 deep "):
        parse_toml(DEEP_KEYS[name], "f.toml")
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("text", [
    '["a.b.c.d.e"]\nx = 1\n', "[a]\n'b.c.d.e' = 1.5e3\n", "x = [1.5, 2.5, 3.5, 4.5, 5.5]\n",
    "x = 1979-05-27T07:32:00.999\ny = 1.0\n", "a.b = { c = [1.0, 2.0] } # a.b.c.d.e.f\n",
    'x = """\n[a.b.c.d.e.f]\n"""\ny = 1\n',
])
def test_dots_in_strings_comments_and_values_are_not_nesting(text: str) -> None:
    assert toml_depth(text, limit=5) == 0 and parse_toml(text, "f.toml")


def test_the_depth_adds_up_headers_keys_and_brackets() -> None:
    text = "[a.b]\nc.d = [{ e.f = 1 }]\n"  # a, b, c, d, the array, the inline table, e, f
    assert toml_depth(text, limit=7) == 2 and toml_depth(text, limit=8) == 0
    assert toml_depth("[[a.b]]\nc = 1\n", limit=3) == 2 and toml_depth("[[a.b]]\nc = 1\n", limit=4) == 0


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


def test_is_file_never_raises(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    assert is_file(tmp_path / "f") and not is_file(tmp_path) and not is_file(tmp_path / "fifo")
    assert not is_file("x" * 5000) and not is_file("a\x00b") and not is_file("") and not is_file(tmp_path / "none")
