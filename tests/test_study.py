"""Shoe studies: the documented shuffle, dealing against a one-coup-at-a-time reference, exact
edges against the enumerator, identical results whatever the workers (processes, Dask)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import body, run
from oracle import play

from exact_odds.bets import find_bet
from exact_odds.core.coup import Detail, coup_table
from exact_odds.core.shoe import RANKS, SUITS, Card, Shoe, ShoeError, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.dealing.dealer import play_shoe_simple
from exact_odds.dealing.procedure import DealingError, Procedure, shoe_card_codes
from exact_odds.dealing.shuffle import shoe_cards
from exact_odds.engine.enumerator import deal
from exact_odds.inputs.errors import InputError
from exact_odds.study import workers
from exact_odds.study.replay import play_cards, read_record, replay
from exact_odds.study.run import CoupRecords, Study, StudyError, run_study
from exact_odds.study.tasks import deal_shoes
from exact_odds.witness.simulate import simulate

MAIN = [find_bet(n) for n in ("banker", "player", "tie")]


def card_of(code: int) -> Card:
    return Card(RANKS[code // 4], SUITS[code % 4])


def test_play_cards_agrees_with_the_oracle() -> None:
    cards = parse_cards("Ah As 3d 9c Kh 5s 6d 2c 7h")
    for seq in list(permutations(cards, 6))[::97]:
        result = play_cards(seq)
        assert result is not None and result[0] == play(seq)
    assert play_cards(parse_cards("2 3 4")) is None
    assert play_cards(parse_cards("2 3 2 3")) is None  # the player must draw


def test_shoes_are_the_simulators() -> None:
    """Study shoe i is simulate's shoe i for the same seed, and its coups are simulate's coups."""
    sim = simulate(Shoe.decks(1), shoes=5, seed=7, keep=True)
    study = run_study(Shoe.decks(1), shoes=5, seed=7, bets=MAIN, shoes_per_task=2)
    assert sim.sequence is not None and sim.shoe_of is not None
    assert study.records.shoe.tolist() == sim.shoe_of.tolist()
    winners = [("banker", "player", "tie").index(coup_table()[c].winner) for c in sim.sequence]
    assert study.records.winner.tolist() == winners


@pytest.mark.parametrize("procedure", [Procedure(), Procedure(cut=6, last_coup="this", burn=False),
                                       Procedure(cut=11, burn=False)])
def test_dealing_matches_one_coup_at_a_time(procedure: Procedure) -> None:
    codes = shoe_card_codes(Shoe.decks(2))
    dealt = deal_shoes(3, 2, 14, procedure, STANDARD_TABLEAU, codes, Detail.SUITS)
    assert dealt.unseen_cards is not None
    assert deal_shoes(3, 2, 14, procedure, STANDARD_TABLEAU, codes).unseen_cards is None  # by card only for suits
    full = np.bincount(codes, minlength=52)
    for i in range(2, 14):
        order = shoe_cards(Shoe.decks(2), 3, i)
        simple = play_shoe_simple(order, STANDARD_TABLEAU, procedure)
        rows = dealt.shoe == i
        mine = [(int(s), int(w)) for s, w in zip(dealt.start[rows], dealt.winner[rows], strict=True)]
        assert mine == [(s, ("banker", "player", "tie").index(c.winner)) for s, c in simple]
        # Cards not seen before each coup: all but the cards dealt so far, the burned ones (face down) kept.
        first = mine[0][0]
        for cards, ranks, (start, _) in zip(dealt.unseen_cards[rows], dealt.unseen[rows], mine, strict=True):
            visible = [order[0]] * procedure.burn + order[first:start]
            unseen = full - np.bincount(visible, minlength=52)
            assert cards.tolist() == unseen.tolist()
            assert ranks.tolist() == unseen.reshape(13, 4).sum(axis=1).tolist()


@pytest.fixture(scope="module")
def small_study() -> Study:
    return run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=5)


def assert_same(a: Study, b: Study) -> None:
    for field in CoupRecords.__dataclass_fields__:
        assert np.array_equal(getattr(a.records, field), getattr(b.records, field)), field
    assert a.bets == b.bets and a.cut_card == b.cut_card


def test_same_seed_same_results_whatever_the_workers(small_study: Study) -> None:
    again = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=7, workers=2)
    assert_same(small_study, again)
    other = run_study(Shoe.decks(2), shoes=24, seed=12, bets=MAIN, shoes_per_task=5)
    assert not np.array_equal(other.records.winner, small_study.records.winner)


def test_the_records_are_joined_only_when_asked_for(small_study: Study, monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers each task's records stay where it wrote them (this process's memory, or the shared
    store for a worker's) until ``records`` is read: the figures are found without them joined. (The
    worker is ready before the study starts, and this process's tasks take a fifth of a second more, so
    that both do some: a worker still starting is given none.)"""
    from exact_odds.study import tasks as study_tasks
    from exact_odds.study.tasks import study_workers

    run_local = study_tasks._run_local

    def slowly(*args: Any) -> Any:
        time.sleep(0.2)
        return run_local(*args)

    monkeypatch.setattr(study_tasks, "_run_local", slowly)
    with study_workers(2, 24, 104, 5) as started:
        assert started is not None
        started.pool.apply(int)  # its process is ready
        study = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=5, workers=2, pool=started)
    pieces = study.parts.pieces
    assert len(pieces) == 5 and len({id(store) for store, _, _ in pieces}) == 2  # a worker's tasks and this one's
    assert study.coups == sum(rows for _, _, rows in pieces) == small_study.coups
    assert_same(small_study, study)
    assert study.parts.pieces == ((study.parts.own, 0, study.coups),)


@pytest.mark.parametrize("workers_", [1, 2])
def test_a_study_without_its_records_has_the_same_figures(small_study: Study, workers_: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``records=False`` keeps only the fields the figures may read: the figures are the same, even
    when every sum is taken from the values kept (as for a sum of zero, whose sign they give)."""
    from exact_odds.core.stats import exact_sum
    from exact_odds.study import run as study_module

    lean = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=5, workers=workers_, records=False)
    assert lean.bets == small_study.bets and lean.cut_card == small_study.cut_card
    assert lean.coups == small_study.coups
    with pytest.raises(StudyError, match="records=True"):
        _ = lean.records
    monkeypatch.setattr(study_module, "total", lambda parts, values: exact_sum(values()))
    again = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=5, workers=workers_, records=False)
    assert again.bets == small_study.bets


def test_statistics_are_those_of_the_records_whatever_the_split(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures summed task by task in the workers are the sums over all the records, which the
    workers wrote in shared memory (removed at the end)."""
    monkeypatch.setattr(workers, "SHARED_DIRECTORY", str(tmp_path))
    study = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=5, workers=2)
    records, m = study.records, study.coups
    for j, bet in enumerate(study.bets):
        edges = records.edges[:, j]
        assert bet.mean_player_ev == math.fsum(edges) / m
        assert bet.favourable == int((edges > 0).sum()) and bet.perfect_gain == math.fsum(edges[edges > 0]) / m
        assert bet.quantiles[-1][1] == edges.max() and bet.histogram[0][0] == edges.min()
        for t in bet.thresholds:
            chosen = records.running[:, j] * 52 / records.unseen >= t.threshold
            assert t.coups == int(chosen.sum()) and t.gain == math.fsum(edges[chosen]) / m
    n = np.bincount(records.shoe)
    for i, effect in enumerate(study.cut_card):
        assert effect.mean == math.fsum(np.bincount(records.shoe, records.probabilities[:, i])) / math.fsum(n)
        assert effect.observed == float((records.winner == i).sum()) / m
    assert not list(tmp_path.iterdir())


def test_edges_are_exact(small_study: Study) -> None:
    """Replaying shoe 0 without the study gives exactly the engine's expectations, and the study's
    edges are those values as floats."""
    order = [card_of(c) for c in shoe_cards(Shoe.decks(2), 11, 0)]
    burn = 1 + (order[0].rank.point or 10)
    shoe = Shoe.decks(2).without([order[0]])
    rep = replay(order[burn:], shoe, bets=MAIN)
    rows = small_study.records.shoe == 0
    edges = small_study.records.edges[rows]
    burned = Shoe.decks(2).without([order[0]])  # burned cards stay unseen: the study keeps them in the shoe
    seen: list[Card] = []
    for k, coup in enumerate(rep.coups[: len(edges)]):
        if k < 3:
            dist = deal(burned.without(seen) if seen else burned)
            assert coup.expectations == tuple(dist.expectation(b.payout) for b in MAIN)
        seen += coup.cards
        assert edges[k].tolist() == pytest.approx([float(x) for x in coup.expectations], rel=1e-14)
    assert small_study.records.favourable.tolist() == (small_study.records.edges > 0).tolist()


def test_statistics(small_study: Study) -> None:
    banker = small_study.bets[0]
    assert banker.expectation == deal(Shoe.decks(2)).expectation(MAIN[0].payout)
    assert sum(n for _, _, n in banker.histogram) == small_study.coups
    assert banker.quantiles[0][1] == small_study.records.edges[:, 0].min()
    assert banker.count is not None and sum(banker.count.tags) == 0
    assert [t.threshold for t in banker.thresholds] == [0, 4, 8, 12, 16, 20]
    full = [c.full for c in small_study.cut_card]
    assert sum(full) == 1 and all(abs(c.mean - float(c.full)) < 0.02 for c in small_study.cut_card)
    assert len(np.unique(small_study.records.shoe)) == 24


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    run_study(Shoe.decks(1), shoes=7, seed=1, bets=MAIN[:1], shoes_per_task=3,
              progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 7), (3, 7), (6, 7), (7, 7)]


def test_side_bets_with_suits() -> None:
    bets = [find_bet("perfect-pair"), find_bet("player-pair"), find_bet("dragon-7")]
    study = run_study(Shoe.decks(1), shoes=3, seed=5, bets=bets, procedure=Procedure(burn=False))
    assert study.bets[0].count is None  # no first-order effect in a full shoe
    assert study.records.edges.shape == (study.coups, 3)


def test_dask_gives_the_same_results(small_study: Study) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_study(Shoe.decks(2), shoes=24, seed=11, bets=MAIN, shoes_per_task=6,
                           dask=cluster.scheduler_address)
    assert_same(small_study, remote)


def test_bad_studies(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DealingError, match="at least 11"):
        run_study(Shoe.decks(8), shoes=1, seed=0, bets=MAIN, procedure=Procedure(cut=10))
    with pytest.raises(StudyError, match="finite"):
        run_study(Shoe.infinite_deck(), shoes=1, seed=0, bets=MAIN)
    with pytest.raises(StudyError, match="whole shoes"):
        run_study(Shoe.decks(8), shoes=1, seed=0, bets=MAIN, procedure=Procedure(fresh=True))
    with pytest.raises(DealingError, match="seed"):
        run_study(Shoe.decks(8), shoes=1, seed=-3, bets=MAIN)
    with pytest.raises(ShoeError, match="suits"):
        run_study(Shoe.from_counts([5] * 13), shoes=1, seed=0, bets=[find_bet("perfect-pair")])
    with pytest.raises(InputError, match="at least 1"):
        run_study(Shoe.decks(8), shoes=0, seed=0, bets=MAIN)
    with pytest.raises(StudyError, match="scheduler"):
        pytest.importorskip("distributed")
        monkeypatch.setattr("exact_odds.study.cluster.DASK_TIMEOUT", 0.5)
        run_study(Shoe.decks(1), shoes=1, seed=0, bets=MAIN, dask="tcp://127.0.0.1:9")


# ---------------------------------------------------------------- recorded shoes


def test_replay_a_record() -> None:
    cards = read_record("# a shoe\nKh 3d 9s 2c  # natural for the player\n5h 5d 7c 4s 2h\n8c 8d")
    rep = replay(cards, Shoe.decks(8), bets=[*MAIN, find_bet("perfect-pair")])
    assert [c.number for c in rep.coups] == [1, 2]
    assert rep.coups[0].coup.winner == "player" and rep.coups[0].unseen == 416
    assert rep.coups[1].expectations[0] == deal(Shoe.decks(8).without(cards[:4])).expectation(MAIN[0].payout)
    assert rep.leftover == tuple(parse_cards("2h 8c 8d"))  # 5h 5d 7c 4s: the banker's natural 9


def test_replay_errors() -> None:
    with pytest.raises(StudyError, match="card 5 .*no A left"):
        replay(parse_cards("A A A A A 2 3 4 5 6"), Shoe.from_counts([4] + [4] * 12), bets=MAIN)
    with pytest.raises(StudyError, match="has no suit"):
        replay(parse_cards("Kh 3d 9 2c"), Shoe.decks(8), bets=[find_bet("perfect-pair")])


# ---------------------------------------------------------------- the study command


def test_study_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "study", "--shoes", "4", "--decks", "1", "--seed", "3", "--format", "json")
    data = json.loads(out)
    assert code == 0 and err == "" and data["shoes"] == 4 and set(data["bets"]) == {"banker", "player", "tie"}
    assert Fraction(data["cut_card_effect"]["tie"]["full"]) == Fraction(1372227328, 14658134400)


def test_study_seed_is_random_by_default_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """Like simulate, deal and roads: without --seed the study draws one and prints it, so it can be repeated."""
    argv = ("study", "--shoes", "2", "--decks", "1", "--bet", "banker", "--format", "json")
    code, out, _ = run(capsys, *argv)
    seed = json.loads(out)["seed"]
    assert code == 0 and isinstance(seed, int) and seed >= 0
    again = run(capsys, *argv, "--seed", str(seed))
    assert again == (0, out, "")
    code, text, _ = run(capsys, *argv[:-2], "--seed", str(seed))
    assert code == 0 and f"seed {seed}" in text


def test_study_command_tables_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "edges.png"
    code, out, _ = run(capsys, "study", "--shoes", "3", "--decks", "1", "--bet", "banker", "--plot", str(target),
                       "--quiet")
    assert code == 0 and "Cut-card effect" in out and target.read_bytes().startswith(b"\x89PNG")


def test_study_command_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "shoe.txt"
    record.write_text("Kh 3d 9s 2c 5h 5d 7c 4s 2h\n")
    code, out, _ = run(capsys, "study", "--record", str(record), "--format", "csv")
    assert code == 0 and body(out).splitlines()[0] == "coup,unseen,cards,result,banker,player,tie"
    assert body(out).splitlines()[1].startswith("1,416,Kh 3d 9s 2c,player 9-5,")


def test_study_command_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "study", "--decks", "8")
    assert code == 2 and "--shoes" in err
    code, _, err = run(capsys, "study", "--shoes", "2", "--cut-card", "3")
    assert code == 2 and "cut card" in err and len(err.splitlines()) == 1


def test_study_of_user_bets_in_worker_processes(capsys: pytest.CaptureFixture[str]) -> None:
    """Bets loaded from a TOML file reach the workers (as payout tables) and match the built-in ones."""
    examples = Path(__file__).resolve().parent.parent / "examples" / "side_bets.toml"
    common = ["--shoes", "4", "--decks", "2", "--seed", "9", "--format", "json", "--workers", "2"]
    code, out, _ = run(capsys, "study", "--bets", str(examples), "--bet", "my-dragon-7", *common)
    assert code == 0
    code, builtin, _ = run(capsys, "study", "--bet", "dragon-7", *common)
    mine, theirs = json.loads(out)["bets"]["my-dragon-7"], json.loads(builtin)["bets"]["dragon-7"]
    assert mine == theirs


def test_shoe_orders_resume_a_block_where_the_last_task_left_it() -> None:
    """Tasks of one block in any order, split or not, deal the rows of the block's one stream."""
    import numpy as np

    from exact_odds.dealing.shuffle import _RESUME, SHOE_BLOCK, block_rng, shoe_orders, shuffled_shoes

    codes = [int(c) for c in np.repeat(np.arange(52), 2)]
    whole = np.concatenate([shuffled_shoes(block_rng(7, b), codes, SHOE_BLOCK) for b in range(2)])
    for first, stop in [(0, 100), (100, 150), (300, 400), (250, 260), (2000, 2100), (2040, 3000), (10, 20),
                        (3000, 3001), (5, 2500)]:
        assert (shoe_orders(codes, 7, first, stop) == whole[first:stop]).all()
    assert (shoe_orders(codes, 8, 100, 110) != whole[100:110]).any()  # another seed: another stream
    _RESUME.state = None


def test_a_study_too_big_for_memory_is_refused_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    """The records of 10,000,000 shoes of 8 decks would take hundreds of GiB: refused before any work,
    with the number of shoes that fit; a study of that many fits."""
    from exact_odds.cli import main
    from exact_odds.study.checks import RECORD_MEMORY, check_memory, record_bytes

    assert main(["study", "--shoes", "10000000", "--decks", "8", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    fit = RECORD_MEMORY // record_bytes(Shoe.decks(8), 3, 0, False)
    assert err.count("\n") == 1 and "GiB" in err and f"at most {fit:,} shoes" in err
    check_memory(Shoe.decks(8), fit, 3, 0, False)
    with pytest.raises(StudyError):
        check_memory(Shoe.decks(8), fit + 1, 3, 0, False)


def test_the_memory_bound_covers_what_a_study_keeps() -> None:
    """The estimate is an upper bound of the records actually kept (131 bytes a coup with three bets)."""
    import dataclasses

    from exact_odds.study.checks import WORKING_COPIES, record_bytes

    study = run_study(Shoe.decks(1), shoes=3, seed=2, bets=[find_bet("banker"), find_bet("player"), find_bet("tie")])
    kept = sum(getattr(study.records, f.name).nbytes for f in dataclasses.fields(study.records))
    assert kept * WORKING_COPIES <= 3 * record_bytes(Shoe.decks(1), 3, 0, False)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "127.0.0.1:1", "tcp://127.0.0.1:99999"])
def test_a_dask_address_where_nothing_listens_is_refused_at_once(capsys: pytest.CaptureFixture[str],
                                                                 address: str) -> None:
    import time

    from exact_odds.cli import main

    pytest.importorskip("distributed")
    started = time.monotonic()
    assert main(["study", "--shoes", "2", "--decks", "1", "--seed", "1", "--dask", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err and time.monotonic() - started < 5


# ---------------------------------------------------------------- an address that is not a scheduler's


@contextmanager
def service(answer: bytes | None) -> Iterator[str]:
    """A TCP service on a free local port, as ``tcp://127.0.0.1:PORT``, for the block: it sends each
    connection ``answer`` and hangs up, or with None says nothing and holds it until the block ends."""
    import socket
    import threading

    listener, held, ended = socket.create_server(("127.0.0.1", 0)), list[socket.socket](), threading.Event()
    listener.settimeout(0.05)

    def serve() -> None:
        while not ended.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            if answer is None:
                held.append(conn)
            else:
                with conn:
                    conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        ended.set()
        thread.join(5)
        for conn in [listener, *held]:
            conn.close()


@contextmanager
def web_server() -> Iterator[str]:
    """An HTTP server (as the dashboard is) on a free local port, as ``HOST:PORT``, for the block."""
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    server = ThreadingHTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


NOT_SCHEDULERS = {"http-400": (b"HTTP/1.1 400 Bad Request\r\n\r\n", "another protocol"),
                  "ones": (b"\xff" * 64, "another protocol"), "ssh": (b"SSH-2.0-OpenSSH_9.6\r\n", "another protocol"),
                  "no-frames": ((64).to_bytes(8, "little") + bytes(8), "another protocol"),
                  "hang-up": (b"", "hung up"), "silent": (None, "sent nothing within 1 s"),
                  "web-server": (b"web", "sent nothing within 1 s")}
"""Services that are not schedulers (``b"web"``: :func:`web_server`), and a word of their refusal."""

STUDY = ("study", "--shoes", "1", "--seed", "1", "-q", "--decks", "1", "--cut-card", "14")
COUNT = ("count", "--count", "wizard-panda-8", "--shoes", "1", "--decks", "1", "--cut-card", "14")


def refused_in_time(capsys: pytest.CaptureFixture[str], command: tuple[str, ...], answer: bytes | None,
                    seconds: float, *words: str) -> None:
    """Assert that ``command`` with ``--dask`` at a :func:`service` answering ``answer`` (or a
    :func:`web_server`) fails within ``seconds`` with one line of error naming the address."""
    from conftest import one_line_error

    with web_server() if answer == b"web" else service(answer) as address:
        started = time.monotonic()
        code, out, err = run(capsys, *command, "--dask", address)
        assert time.monotonic() - started < seconds
    assert one_line_error(code, out, err, repr(address), *words), (code, out, err)


@pytest.mark.parametrize("server", NOT_SCHEDULERS)
@pytest.mark.parametrize("command", [STUDY, COUNT], ids=["study", "count"])
def test_a_dask_address_that_is_not_a_scheduler_is_refused_in_time(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, server: str,
        command: tuple[str, ...]) -> None:
    """The realistic case: the dashboard's port (a web server, which waits to be spoken to) given
    for the scheduler's. The greeting is awaited 1 s here, not :data:`~exact_odds.study.cluster.GREETING_TIMEOUT`."""
    pytest.importorskip("distributed")
    monkeypatch.setattr("exact_odds.study.cluster.GREETING_TIMEOUT", 1.0)
    answer, word = NOT_SCHEDULERS[server]
    refused_in_time(capsys, command, answer, 5, "is not a Dask scheduler", word, "8786")


@pytest.mark.parametrize("server", [pytest.param("silent", marks=pytest.mark.slow), "http-400"])
def test_a_connection_distributed_cannot_make_is_refused_in_time(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch, server: str) -> None:
    """Past the greeting's check (as at a ``tls`` or ``ws`` address), the connection itself is bounded:
    distributed waits for a handshake without end, or reads another protocol's bytes as a length."""
    pytest.importorskip("distributed")
    monkeypatch.setattr("exact_odds.study.cluster._greeting_problem", lambda sock, deadline: None)
    monkeypatch.setattr("exact_odds.study.cluster.DASK_TIMEOUT", 1)
    refused_in_time(capsys, STUDY, NOT_SCHEDULERS[server][0], 8, "is not a Dask scheduler")


def test_a_tcp_scheduler_passes_the_greeting_check() -> None:
    distributed = pytest.importorskip("distributed")
    from exact_odds.study.cluster import check_scheduler

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        check_scheduler(cluster.scheduler_address)
        study = run_study(Shoe.decks(1), shoes=2, seed=3, bets=MAIN, dask=cluster.scheduler_address)
    assert study.records.edges.shape[0] == study.coups > 0
