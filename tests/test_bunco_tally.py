"""A host's tally sheet: what the rules make impossible, and counts far from the exact means."""

from __future__ import annotations

from pathlib import Path

import pytest

from exact_odds.bunco.party import COMMON_PARTY, Party
from exact_odds.bunco.tally import TallyError, load_tally, read_tally, verify_tally

EXAMPLE = Path(__file__).parent.parent / "examples" / "bunco_tally.csv"


def lines() -> list[str]:
    return EXAMPLE.read_text(encoding="utf-8").splitlines()


def edited(line: int, new: str) -> list[str]:
    """The example sheet with its line ``line`` (1-based) replaced."""
    out = lines()
    out[line - 1] = new
    return out


def test_the_example_night_passes() -> None:
    result = verify_tally(load_tally(EXAMPLE))
    assert result.verdict == "PASS", [(c.name, c.verdict) for c in result.checks]
    assert [c.name for c in result.checks] == ["rounds", "points", "tables", "movement", "counts"]


def test_a_bunco_by_a_loser_at_the_head_table_is_impossible() -> None:
    assert lines()[1] == "1,1,P1,0,1,0,0,8"
    result = verify_tally(read_tally(edited(2, "1,1,P1,0,1,1,0,29")))
    messages = [v.message for v in result.check("tables").violations]
    assert messages[0] == ("line 2: P1 lost at the head table in round 1 with a Bunco: 21 points reach the target 21 "
                           "and ring the bell")
    assert result.verdict == "FAIL"


def test_a_player_who_both_won_and_lost() -> None:
    result = verify_tally(read_tally(edited(2, "1,1,P1,1,1,0,0,8")))
    assert result.check("rounds").violation_count == 2  # the player, and the round's count of winners
    assert result.check("rounds").verdict == "FAIL"


def test_points_that_do_not_cover_the_buncos() -> None:
    result = verify_tally(read_tally(edited(2, "1,1,P1,0,1,0,2,8")))
    assert result.check("points").violations[0].message == (
        "line 2: P1 has 8 points with 0 Buncos and 2 mini Buncos; under standard scoring they leave -2, "
        "not a whole number of dice at 1 a die")


def test_a_player_at_the_wrong_table_next_round() -> None:
    assert lines()[13] == "2,3,P1,0,1,0,0,0"
    result = verify_tally(read_tally(edited(14, "2,2,P1,0,1,0,0,0")))
    assert result.check("movement").violations[0].message == (
        "line 14: P1 lost at table 1 in round 1 and sits at table 2 in round 2, not table 3")


def test_too_many_buncos_fail_the_counts() -> None:
    out = lines()
    out[1:] = [",".join([*row.split(",")[:5], "3", row.split(",")[6], str(int(row.split(",")[7]) + 63)])
               for row in out[1:]]
    result = verify_tally(read_tally(out))
    assert result.check("counts").verdict == "FAIL"
    assert result.check("counts").tallies[0].observed == 216


def test_without_tables_the_table_checks_skip() -> None:
    out = [",".join(c for i, c in enumerate(row.split(",")) if i != 1) for row in lines()]
    result = verify_tally(read_tally(out))
    assert result.check("tables").verdict == "SKIP" and result.check("movement").verdict == "SKIP"
    assert result.verdict == "PASS"


def test_players_who_keep_their_seats() -> None:
    result = verify_tally(load_tally(EXAMPLE), Party(movement="none"))
    assert result.check("movement").verdict == "SKIP"
    assert result.check("tables").verdict == "PASS" and COMMON_PARTY.movement == "standard"


@pytest.mark.parametrize(("text", "message"), [
    ([], "tally: the tally sheet is empty"),
    (["round,player,wins,losses,buncos,mini_buncos,points"], "tally: the tally sheet has no rows"),
    (["round,player,wins,losses,bunco,mini_buncos,points"], "line 1: unknown column 'bunco' (did you mean 'buncos'?)"),
    (["round,player,wins,losses,mini_buncos,points"], "line 1: the tally sheet has no column buncos"),
    (["round,player,wins,losses,buncos,mini_buncos,points", "1,A,1,0,x,0,3"],
     "line 2: buncos must be a whole number from 0 to 999,999,999, got 'x'"),
    (["round,player,wins,losses,buncos,mini_buncos,points", "1,A,1,0"], "line 2: 4 fields, the header names 7"),
    (["round,player,wins,losses,buncos,mini_buncos,points", "0,A,1,0,0,0,0"],
     "line 2: rounds and tables are numbered from 1"),
    (["round,player,wins,losses,buncos,mini_buncos,points", "1, ,1,0,0,0,0"], "line 2: no player named"),
])
def test_a_bad_sheet_is_one_line(text: list[str], message: str) -> None:
    with pytest.raises(TallyError) as caught:
        read_tally(text)
    assert str(caught.value) == message


def test_a_sheet_that_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(TallyError, match="cannot read tally file"):
        load_tally(tmp_path / "missing.csv")
