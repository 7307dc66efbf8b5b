"""verify and bunco --verify read a log a block at a time: the same report as the log read whole, memory
independent of the log's length, and one line when memory runs out anyway."""

from __future__ import annotations

import io
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import one_line_error, run

import exact_odds.bunco.verify as roll_reading
import exact_odds.witness.verify.read as reading
from exact_odds.batch.compiled import JIT_ENV


def _interleaved(path: Path, out: Path) -> Path:
    """The log at ``path`` with its first shoe's coups moved to its end."""
    head, *rows = path.read_text(encoding="utf-8").splitlines()
    first = [r for r in rows if r.startswith("1,")]
    out.write_text("\n".join([head, *[r for r in rows if not r.startswith("1,")], *first]) + "\n", encoding="utf-8")
    return out


def _json_lines(path: Path, out: Path) -> Path:
    """The log at ``path`` as JSON Lines whose ``winner`` key appears only from its 1,500th coup on."""
    head, *rows = path.read_text(encoding="utf-8").splitlines()
    with out.open("w", encoding="utf-8") as lines:
        for i, row in enumerate(rows):
            coup = dict(zip(head.split(","), row.split(","), strict=True))
            if i < 1500:
                del coup["winner"]
            lines.write(json.dumps(coup) + "\n")
    return out


def _close(a: Any, b: Any) -> bool:
    """JSON values equal, their floats to 1e-9 (a sum of floats added in other groups)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_close, a, b))
    return bool(a == b)


def test_a_log_read_in_blocks_gives_the_report_of_the_log_read_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "log.csv"
    run(capsys, "simulate", "--shoes", "40", "--seed", "3", "--log", str(log), "--quiet")
    logs = [log, _interleaved(log, tmp_path / "interleaved.csv"), _json_lines(log, tmp_path / "late.jsonl")]
    for path in logs:
        for fmt in ("text", "json"):
            whole = run(capsys, "verify", str(path), "--format", fmt, "--max-violations", "3")
            with monkeypatch.context() as patch:
                patch.setattr(reading, "BLOCK", 700)  # blocks of about 700 coups: many in one log
                blocks = run(capsys, "verify", str(path), "--format", fmt, "--max-violations", "3")
            assert whole[0] == blocks[0] and whole[2] == blocks[2]
            if fmt == "text":
                assert whole[1] == blocks[1], path
            else:
                assert _close(json.loads(whole[1]), json.loads(blocks[1])), path
    with monkeypatch.context() as patch:
        patch.setattr(reading, "BLOCK", 700)
        patch.setattr(sys, "stdin", io.StringIO(logs[1].read_text(encoding="utf-8")))
        code, out, _ = run(capsys, "verify", "-")  # interleaved shoes on standard input: read again, whole
    assert code == 0 and "coups from 40 shoes" in out


def _peak_kb(*argv: str) -> int:
    """The peak resident memory (KB) of ``exact-odds argv`` run in a process of its own, on NumPy's paths (the
    compiled loops, and their compiler's memory, are taken for long calls only: they would enter one peak
    and not the other)."""
    script = ("import resource, sys; from exact_odds.cli import main; code = main(sys.argv[1:]); "
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False,
                          env={**os.environ, JIT_ENV: "0"})
    assert done.returncode in (0, 1), done.stderr
    return int(done.stderr.strip().splitlines()[-1])


@pytest.mark.slow
def test_verify_peaks_at_ten_times_the_length_as_it_peaks_at_one(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    short, long = tmp_path / "short.csv", tmp_path / "long.csv"
    run(capsys, "simulate", "--shoes", "1000", "--seed", "1", "--log", str(short), "--quiet")  # 81,000 coups
    run(capsys, "simulate", "--shoes", "10000", "--seed", "1", "--log", str(long), "--quiet")  # 809,000
    assert _peak_kb("verify", str(long)) <= 1.5 * _peak_kb("verify", str(short))


@pytest.mark.slow
def test_bunco_verify_peaks_at_ten_times_the_length_as_it_peaks_at_one(tmp_path: Path) -> None:
    rng = random.Random(1)
    paths = []
    for rolls in (100_000, 1_000_000):
        path = tmp_path / f"rolls-{rolls}.csv"
        faces = [" ".join(str(rng.randint(1, 6)) for _ in range(3)) for _ in range(1000)]
        with path.open("w", encoding="utf-8") as out:
            out.write("round,dice\n")
            out.writelines(f"{i % 6 + 1},{faces[rng.randrange(1000)]}\n" for i in range(rolls))
        paths.append(path)
    assert _peak_kb("bunco", "--verify", str(paths[1])) <= 1.5 * _peak_kb("bunco", "--verify", str(paths[0]))


def test_bunco_rolls_read_in_blocks_give_the_report_of_the_rolls_read_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2)
    path = tmp_path / "rolls.csv"
    path.write_text("round,dice,score\n" + "".join(
        f"{i % 6 + 1},{' '.join(str(rng.randint(1, 6)) for _ in range(3))},{rng.choice([0, 1, 2, 5, 21])}\n"
        for i in range(5000)), encoding="utf-8")
    for fmt in ("text", "json"):
        whole = run(capsys, "bunco", "--verify", str(path), "--format", fmt, "--max-violations", "4")
        with monkeypatch.context() as patch:
            patch.setattr(roll_reading, "BLOCK", 333)
            assert run(capsys, "bunco", "--verify", str(path), "--format", fmt, "--max-violations", "4") == whole


def test_running_out_of_memory_is_one_line_naming_what_to_reduce(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import exact_odds.bunco as bunco
    import exact_odds.cli.simulation as command

    def short_of_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    log = tmp_path / "log.csv"
    run(capsys, "simulate", "--shoes", "1", "--seed", "3", "--log", str(log), "--quiet")
    monkeypatch.setattr(command, "verify_file", short_of_memory)
    assert one_line_error(*run(capsys, "verify", str(log)), "out of memory", "keep each shoe's coups together")
    monkeypatch.setattr(bunco, "verify_roll_file", short_of_memory)
    assert one_line_error(*run(capsys, "bunco", "--verify", str(log)), "out of memory", "fewer --dice")
