"""verify's ``procedure`` check: the burn, where each shoe ends, its cards; "not checked" when a log cannot show it.

Logs are made twice over: by ``exact-odds simulate --log`` and by a small dealer written as
examples/broken_simulator.py writes one (the standard library's ``random``, its own cut card), and the
shoe that should fail first is found by replaying each shoe's card positions by hand.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import run

RANKS = "A23456789TJQK"


def _point(card: str) -> int:
    rank = RANKS.index(card[0]) + 1
    return rank if rank < 10 else 0


def _total(cards: list[str]) -> int:
    return sum(map(_point, cards)) % 10


def _banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7)}.get(banker, False)


def _coup(cards: list[str]) -> tuple[list[str], list[str]]:
    player, banker = [cards.pop(), cards.pop()], [cards.pop(), cards.pop()]
    player[1], banker[0] = banker[0], player[1]  # dealt P, B, P, B
    if _total(player) >= 8 or _total(banker) >= 8:
        return player, banker
    third = None
    if _total(player) <= 5:
        player.append(cards.pop())
        third = _point(player[2])
    if _banker_draws(_total(banker), third):
        banker.append(cards.pop())
    return player, banker


def home_made_log(path: Path, *, shoes: int, cut: int, seed: int = 5) -> Path:
    """A log written as examples/broken_simulator.py writes one, its cut card ``cut`` cards from the end
    (one more coup after the coup in which it comes out)."""
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["shoe", "burn", "player", "banker"])
        for shoe in range(1, shoes + 1):
            deck = [r + s for _ in range(8) for s in "shdc" for r in RANKS]
            rng.shuffle(deck)
            deck.reverse()  # pop() deals from the top
            burn = deck.pop()
            for _ in range(_point(burn) or 10):
                deck.pop()
            shown = burn
            while True:
                was = len(deck)
                player, banker = _coup(deck)
                writer.writerow([shoe, shown, " ".join(player), " ".join(banker)])
                shown = ""
                if was <= cut or len(deck) <= cut:  # the cut card came out: one more coup, or this was it
                    if was > cut:
                        player, banker = _coup(deck)
                        writer.writerow([shoe, "", " ".join(player), " ".join(banker)])
                    break
    return path


def first_shoe_past(path: Path, cut: int) -> str | None:
    """The first shoe of a log with burn cards that deals a coup after its last by the standard rule
    (a cut card ``cut`` cards from the end of 416, one more coup), replayed card by card."""
    position: dict[str, int] = {}
    ended: set[str] = set()
    with path.open(encoding="utf-8") as lines:
        for row in csv.DictReader(lines):
            shoe = row["shoe"]
            if shoe in ended:
                return shoe
            if row["burn"]:
                position[shoe] = 1 + (_point(row["burn"]) or 10)
            start = position[shoe]
            position[shoe] += len(row["player"].split()) + len(row["banker"].split())
            if start >= 416 - cut:
                ended.add(shoe)
    return None


def _verify(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> tuple[int, Any]:
    """verify's exit status and JSON."""
    code, out, err = run(capsys, "verify", str(path), "--format", "json", *options)
    assert code != 2, err
    return code, json.loads(out)


def _procedure(data: Any) -> Any:
    return data["checks"]["procedure"]


@pytest.mark.parametrize("maker", ["simulate", "home-made"])
def test_shoes_dealt_past_the_cut_card_fail_naming_the_first_shoe(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], maker: str) -> None:
    def log(cut: int) -> Path:
        path = tmp_path / f"cut-{cut}.csv"
        if maker == "simulate":
            code, _, _ = run(capsys, "simulate", "--shoes", "6", "--seed", "2", "--cut-card", str(cut), "--log",
                             str(path), "--quiet")
            assert code == 0
            return path
        return home_made_log(path, shoes=6, cut=cut)

    past, honest = log(13), log(16)
    shoe = first_shoe_past(past, 16)
    assert shoe is not None and first_shoe_past(honest, 16) is None
    code, data = _verify(capsys, past)
    check = _procedure(data)
    assert code == 1 and check["verdict"] == "FAIL"
    assert isinstance(check["violations"], list)
    first = check["violations"][0]
    assert first["shoe"] == shoe and f"of shoe {shoe}: dealt after the shoe should have ended" in first["message"]
    assert all(c["verdict"] != "FAIL" for name, c in data["checks"].items() if name != "procedure")
    code, data = _verify(capsys, honest)
    assert code == 0 and _procedure(data)["verdict"] == "PASS" and _procedure(data)["checked"] == 6
    code, data = _verify(capsys, past, "--cut-card", "13")  # the procedure it was dealt by
    assert code == 0 and _procedure(data)["verdict"] == "PASS"


def test_cut_card_last_coup_and_no_burn_change_what_is_checked(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    seventh = tmp_path / "seventh.csv"
    run(capsys, "simulate", "--shoes", "4", "--seed", "1", "--cut-card", "7", "--last-coup", "this", "--log",
        str(seventh), "--quiet")
    assert _verify(capsys, seventh, "--cut-card", "7", "--last-coup", "this")[0] == 0
    assert _procedure(_verify(capsys, seventh)[1])["verdict"] == "FAIL"
    assert _procedure(_verify(capsys, seventh, "--cut-card", "40", "--last-coup", "this")[1])["verdict"] == "FAIL"
    unburnt = tmp_path / "unburnt.csv"
    run(capsys, "simulate", "--shoes", "3", "--seed", "1", "--no-burn", "--log", str(unburnt), "--quiet")
    assert _procedure(_verify(capsys, unburnt, "--no-burn")[1])["verdict"] == "PASS"
    burnt = tmp_path / "burnt.csv"
    run(capsys, "simulate", "--shoes", "3", "--seed", "1", "--log", str(burnt), "--quiet")
    code, data = _verify(capsys, burnt, "--no-burn")
    assert code == 1 and "but the procedure has no burn" in _procedure(data)["violations"][0]["message"]


def test_a_log_that_cannot_show_the_procedure_says_not_checked(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    unburnt = tmp_path / "unburnt.csv"
    run(capsys, "simulate", "--shoes", "2", "--seed", "1", "--no-burn", "--log", str(unburnt), "--quiet")
    fresh = tmp_path / "fresh.csv"
    run(capsys, "simulate", "--fresh", "--coups", "200", "--seed", "1", "--log", str(fresh), "--quiet")
    for path, why in ((unburnt, "the log has no burn column"), (fresh, "the log has no shoe column")):
        code, out, _ = run(capsys, "verify", str(path))
        assert code == 0 and "procedure      not checked (the log cannot show it: see the notes)" in out
        assert f"The dealing procedure is not checked: {why}" in out and "cut card 16" not in out
        assert "procedure" not in _verify(capsys, path)[1]["checks"]


def test_a_log_may_stop_in_its_last_shoe_but_no_earlier_shoe_may_stop_early(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "stops.csv"
    run(capsys, "simulate", "--coups", "200", "--seed", "1", "--log", str(path), "--quiet")
    code, data = _verify(capsys, path)
    assert code == 0 and any("the log's last, stops before its last coup" in n for n in data["notes"])
    rows = path.read_text(encoding="utf-8").splitlines()
    first_shoe = [r for r in rows[1:] if r.startswith("1,")]
    cut = rows[:1] + first_shoe[:40] + [r for r in rows[1:] if not r.startswith("1,")]
    path.write_text("\n".join(cut) + "\n", encoding="utf-8")
    code, data = _verify(capsys, path)
    violation = _procedure(data)["violations"][0]
    assert code == 1 and violation["coup"] == 40 and "the shoe ends after this coup" in violation["message"]


def test_statistical_checks_on_fewer_coups_say_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "aces.csv"
    run(capsys, "simulate", "--shoes", "3", "--seed", "1", "--log", str(path), "--quiet")
    rows = list(csv.reader(path.open(encoding="utf-8")))
    for row in rows[1:]:
        if row[0] == "2":
            row[2], row[3] = "As Ad", "Ah Ac"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)
    code, data = _verify(capsys, path)
    checks = data["checks"]
    total = data["log"]["coups"]
    assert code == 1
    for name in ("outcomes", "pairs", "cards"):
        assert any("left out" in note for note in checks[name]["notes"]), name
    assert checks["outcomes"]["checked"] < total
    assert any(f"of the log's {total:,} coups are left out of the statistical checks" in n
               for n in data["notes"])
