"""Writing output safely: the files a command writes, and a standard output that fails.

``--output``, ``--plot`` and ``simulate --log`` replace only a regular file or a new path, keep
the target's mode (the umask's for a new file), and leave no temporary file behind, whatever
stops them; a standard output that cannot take the text (a full disk, a closed stdout, a
broken pipe, an encoding without the text's characters) is one line and exit status 2.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import body, needs, one_line_error, run

from exact_odds.inputs.errors import InputError
from exact_odds.report.files import atomic_file, output_target, shown

PYTHON = [sys.executable, "-m", "exact_odds"]


def leftovers(directory: Path) -> list[str]:
    """Temporary files of an atomic write left in ``directory``."""
    return sorted(p.name for p in directory.glob(".*.tmp"))


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


# ---------------------------------------------------------------- the targets a command may replace


@pytest.mark.usefixtures("umask_027")
def test_a_new_file_gets_the_umasks_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "odds.csv"
    assert run(capsys, "odds", "--decks", "1", "--format", "csv", "-o", str(target))[0] == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # 0o666 & ~0o027, not mkstemp's 0o600
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("mode", [0o644, 0o604, 0o660])
def test_an_existing_file_keeps_its_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: int) -> None:
    target = tmp_path / "odds.csv"
    target.write_text("old\n")
    target.chmod(mode)
    assert run(capsys, "odds", "--decks", "1", "--format", "csv", "-o", str(target))[0] == 0
    assert stat.S_IMODE(target.stat().st_mode) == mode and body(target.read_text()).startswith("outcome,")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_an_existing_file_keeps_its_owner(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "odds.csv"
    target.write_text("old\n")
    os.chown(target, 4321, 4321)
    assert run(capsys, "odds", "--decks", "1", "--format", "csv", "-o", str(target))[0] == 0
    assert (target.stat().st_uid, target.stat().st_gid) == (4321, 4321)


def test_a_link_is_followed_and_kept(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old\n")
    link.symlink_to(real)
    assert run(capsys, "odds", "--decks", "1", "--format", "csv", "-o", str(link))[0] == 0
    assert link.is_symlink() and body(real.read_text()).startswith("outcome,")


def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "link-to-fifo":
        os.mkfifo(tmp_path / "fifo")
        path.symlink_to(tmp_path / "fifo")
    elif kind == "link-to-dev-null":
        path.symlink_to(os.devnull)
    elif kind == "missing-directory":
        path = path / "out.csv"
    return path


@pytest.mark.parametrize("kind", ["fifo", "directory", "link-to-fifo", "link-to-dev-null", "missing-directory"])
@pytest.mark.parametrize("option", [("odds", "--output"), ("simulate", "--rounds", "50", "--log"),
                                    pytest.param(("eor", "--bet", "banker", "--plot"), marks=needs("matplotlib"))])
def test_targets_that_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str,
                                  option: tuple[str, ...]) -> None:
    target = _special(tmp_path, kind)
    before = os.lstat(target) if os.path.lexists(target) else None
    code, out, err = run(capsys, *option, str(target))
    assert one_line_error(code, out, err, "cannot write")
    after = os.lstat(target) if os.path.lexists(target) else None
    if before is None:
        assert after is None
    else:
        assert after is not None and (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_node_is_never_replaced(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    node = tmp_path / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null, in a scratch directory
    code, out, err = run(capsys, "odds", "-o", str(node))
    assert one_line_error(code, out, err, "not a regular file")
    assert stat.S_ISCHR(node.stat().st_mode)


@pytest.mark.parametrize(("name", "why"), [("", "no file name"), ("x" * 5000, "File name too long")])
def test_names_that_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                name: str, why: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "odds", "-o", name)
    assert one_line_error(code, out, err, why) and len(err) < 300  # a long name is cut in the message


def test_an_unknown_figure_format_is_refused_before_any_work(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "eor", "--plot", str(tmp_path / "eor.txt"))  # every bet, 8 decks: seconds of work
    assert one_line_error(code, out, err, "no figure format 'txt'", "png")
    assert list(tmp_path.iterdir()) == []


def test_a_common_figure_format_is_checked_without_loading_matplotlib(tmp_path: Path) -> None:
    """``--plot x.png`` is checked without importing matplotlib (a quarter of a second), so that a mistake
    later on the line is reported at once; the formats taken so are ones this matplotlib writes."""
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from exact_odds.report.plots import EVERY_MATPLOTLIB, NEEDS_LATEX

    assert set(FigureCanvasAgg.get_supported_filetypes()) - NEEDS_LATEX >= EVERY_MATPLOTLIB
    probe = ("import sys\nfrom exact_odds.cli import main\ncode = main(sys.argv[1:])\n"
             "print(code, 'matplotlib' in sys.modules)")
    for name, loads, said in (("eor.png", "False", "invalid choice: 'punto'"), ("eor.SVG", "False", "'punto'"),
                              ("eor", "False", "'punto'"), ("eor.txt", "True", "no figure format 'txt'")):
        done = subprocess.run([sys.executable, "-c", probe, "eor", "--plot", str(tmp_path / name), "--format", "punto"],
                              capture_output=True, text=True, check=True)
        assert done.stdout.split() == ["2", loads] and said in done.stderr


def test_a_figure_is_written_to_the_name_given(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "figure"
    assert run(capsys, "eor", "--bet", "banker", "--plot", str(target))[0] == 0
    assert target.read_bytes().startswith(b"\x89PNG") and leftovers(tmp_path) == []


def test_output_target_and_shown_names() -> None:
    assert output_target("new-file-here.csv")[1] is None
    with pytest.raises(InputError, match="NUL"):
        output_target("a\0b")
    assert shown("out.csv") == "'out.csv'" and "(300 characters)" in shown("y" * 300)


# ---------------------------------------------------------------- whatever stops the write


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError])
def test_a_stopped_write_leaves_the_old_file_and_no_temporary_file(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    stop: type[BaseException]) -> None:
    target = tmp_path / "odds.csv"
    target.write_text("old\n")

    def fail(*args: object) -> None:
        raise stop(28, "No space left on device") if stop is OSError else stop()

    monkeypatch.setattr("exact_odds.report.files.os.replace", fail)
    code, out, err = run(capsys, "odds", "-o", str(target))
    assert (code, err) == (130, "exact-odds: interrupted\n") if stop is KeyboardInterrupt else one_line_error(
        code, out, err, "No space left on device")
    assert target.read_text() == "old\n" and leftovers(tmp_path) == []


def test_an_exception_inside_the_block_removes_the_temporary_file(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), atomic_file(tmp_path / "x.txt") as fh:
        fh.write("partial")
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- a standard output that fails


def _run(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_stdout() -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*PYTHON, "odds", "--decks", "1"], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    assert proc.returncode == 2 and proc.stderr == (
        "exact-odds: error: cannot write to standard output: No space left on device\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell")
def test_a_closed_stdout() -> None:
    proc = _run(["/bin/sh", "-c", '"$@" >&-', "sh", *PYTHON, "odds", "--decks", "1"])
    assert proc.returncode == 2 and proc.stderr == "exact-odds: error: cannot write to standard output: it is closed\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_a_broken_pipe() -> None:
    proc = subprocess.Popen([*PYTHON, "odds", "--decks", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the command writes
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 2 and err == "exact-odds: error: cannot write to standard output: Broken pipe\n"


def test_an_encoding_without_the_characters() -> None:
    proc = _run([*PYTHON, "deal", "--seed", "7"], env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("exact-odds: error: cannot write to standard output: its encoding (ascii)")
    assert "PYTHONIOENCODING=utf-8" in proc.stderr
    ascii_ok = _run([*PYTHON, "deal", "--seed", "7", "--ascii"], env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert ascii_ok.returncode == 0 and ascii_ok.stderr == ""


def test_write_stdout_failures_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from exact_odds.cli import write_stdout

    class Full:
        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(InputError, match="No space left on device"):
        write_stdout("x")
    monkeypatch.setattr(sys, "stdout", None)
    with pytest.raises(InputError, match="closed"):
        write_stdout("x")
