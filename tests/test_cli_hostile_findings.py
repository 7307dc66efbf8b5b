"""What the fuzzing of the command line found (``tests/test_cli_fuzz.py``), each fixed where it began and kept
here as a regression test: a process of its own, one line on stderr and exit status 2 (or a good
run), in under 5 seconds of CPU and 500 MB.

- a Dask address of a scheme ``distributed`` cannot use (``--dask ucx://...``) raised its
  ``TypeError``: the address is checked first (:func:`exact_odds.inputs.validate.dask_address`);
- ``--option=--`` gave the option the value ``[]`` (argparse 3.11 drops the ``--``): the parser
  says the option has no value, as for ``--option --``;
- ``simulate --bets NAME`` with a name too long for a file name raised ``OSError`` from the test
  whether it is a file: :func:`exact_odds.inputs.reading.is_file` says no, never raises;
- ``study --edge-sort`` with every rank its own group (once ``''``, now refused as empty) took 1.3 GB and
  10 s for two shoes of one deck: the coefficient plan of a dozen groups summed every functional at once;
  it now sums a few at a time (:func:`exact_odds.batch.coefficients.monomial_sums`), the same integers in
  bounded memory;
- ``advantage --position 1-4`` (the ranks of four cards: 28,561 cases) ran 17 s in 430 MB, and
  ``1-6`` without end: at most :data:`exact_odds.analysis.information.given.MAX_CASES` (2,500) cases are
  valued (the ranks of three cards, 2,197 cases, take about 4 s), more is refused at once;
- a bets file with one ``[[bet.line]]`` repeated 5,000 times made ``study --shoes 2`` take 8.6 s (every
  coup tried every line): a bet has at most :data:`exact_odds.bets.user.MAX_LINES` pay lines, a file
  :data:`~exact_odds.bets.user.MAX_FILE_LINES` in all, and a line repeating an earlier rule is not tried.

The fixes themselves are tested beside their modules: the Dask addresses in ``tests/test_inputs_validate.py``,
``is_file`` in ``tests/test_inputs_reading.py``, the plan's sums in pieces in ``tests/test_study_edge_sorting.py``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run

SECONDS = 5.0
MEGABYTES = 500

_CHILD = """import atexit, sys
out = sys.argv.pop(1)
def peak():
    with open("/proc/self/status", encoding="ascii") as fh:
        kb = next((line.split()[1] for line in fh if line.startswith("VmHWM:")), "0")
    with open(out, "w", encoding="ascii") as fh:
        fh.write(kb)
atexit.register(peak)
from exact_odds.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _run(argv: list[str], workdir: Path) -> tuple[int, str, float, float]:
    """Exit status, stderr, CPU seconds and peak megabytes (VmHWM) of ``exact-odds ARGV`` in a process of its own."""
    report = workdir / "peak"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(report), *argv], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60, check=False, cwd=workdir)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    peak = int(report.read_text(encoding="ascii") or "0") / 1024 if report.exists() else 0.0
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), cpu, peak


FINDINGS: list[tuple[str, tuple[str, ...], str]] = [
    ("dask-ucx", ("study", "--shoes", "1", "--decks", "1", "--dask", "ucx://127.0.0.1:1"),
     "--dask must be a scheduler address such as tcp://HOST:PORT (tcp, tls, ws, wss, inproc), got 'ucx://"),
    ("dask-empty", ("count", "--count", "hilo", "--shoes", "1", "--dask", ""), "--dask must be a scheduler address"),
    ("option-equals-dashes", ("deal", "--seed=--"), "argument --seed: expected one argument"),
    ("option-equals-dashes-many", ("study", "--shoes", "1", "--thresholds=--"),
     "argument --thresholds: expected at least one argument"),
    ("option-equals-dashes-bet", ("parsheet", "--bet=--"), "argument --bet: expected"),
    ("bets-name-too-long", ("simulate", "--rounds", "100", "--bets", "x" * 300), "unknown bet '" + "x" * 40 + "…'"),
    ("config-name-too-long", ("edges", "--config", "c" * 300), "unknown configuration"),
    ("advantage-four-ranks", ("advantage", "--position", "1-4"),
     "the information has 28,561 cases (13 x 13 x 13 x 13); at most 2,500 are valued here"),
    ("advantage-six-ranks", ("advantage", "--position", "1-6"), "the information has 4,826,809 cases"),
]
"""(id, command line, a piece of the one line on stderr)."""


@pytest.mark.parametrize(("argv", "expected"), [f[1:] for f in FINDINGS], ids=[f[0] for f in FINDINGS])
def test_a_finding_is_one_line(tmp_path: Path, argv: tuple[str, ...], expected: str) -> None:
    code, err, cpu, peak = _run(list(argv), tmp_path)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("exact-odds: error: "), err[-2000:]
    assert expected in lines[0], lines[0]
    assert cpu < SECONDS and peak < MEGABYTES, (cpu, peak)


def test_edge_sorting_every_rank_is_bounded(tmp_path: Path) -> None:
    """Every rank its own group, thirteen groups told apart by rank (once written ``--edge-sort ''``, now refused
    as empty); a good run."""
    groups = " ".join(f"r{rank}={rank}" for rank in "A23456789TJQK")
    code, err, cpu, peak = _run(["study", "--shoes", "2", "--decks", "1", "--seed", "1", "--edge-sort", groups],
                                tmp_path)
    assert code == 0 and err == "", err[-2000:]
    assert cpu < SECONDS and peak < MEGABYTES, (cpu, peak)


def _repeated_line(times: int) -> str:
    """The example side bets with the Dragon Bonus's line "player wins by 7" repeated ``times`` times."""
    text = (Path(__file__).parent.parent / "examples" / "side_bets.toml").read_text(encoding="utf-8")
    line = '[[bet.line]]\nlabel = "player wins by 7"\npays = "6:1"\nwinner = "player"\nmargin = 7\n'
    assert line in text
    return text.replace(line, line * times, 1)


@pytest.mark.parametrize(("times", "code"), [(5000, 2), (190, 0)])
def test_a_pay_line_repeated_is_bounded(tmp_path: Path, times: int, code: int) -> None:
    """A bet's pay line repeated 5,000 times is refused at once; 190 times (within the limit) runs, each
    rule tried once."""
    (tmp_path / "bets.toml").write_text(_repeated_line(times), encoding="utf-8")
    found, err, cpu, peak = _run(["study", "--shoes", "2", "--decks", "1", "--seed", "1", "--bets", "bets.toml"],
                                 tmp_path)
    assert found == code, err[-2000:]
    assert (err.splitlines() == [] if code == 0 else "pay lines; at most 200 are allowed" in err), err[-2000:]
    assert cpu < SECONDS and peak < MEGABYTES, (cpu, peak)


def test_an_option_given_dashes_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("odds", "--decks=--"), ("odds", "--output=--"), ("parsheet", "--bet=--")):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and "expected" in err and len(err.splitlines()) == 1, err
