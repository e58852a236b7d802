"""The tablebase: probes and moves agree with solve; it is safe from several
threads, closes cleanly, and a store killed mid-solve opens and answers correctly."""

import signal
import threading
import time

import pytest

import breakthrough as bt
from conftest import python_process


def test_probe_and_moves_agree_with_solve(tmp_path):
    start = bt.Position("4x5")
    solved = bt.solve(start, length=True, all_moves=True, threads=1)
    with bt.Tablebase(tmp_path / "store", threads=1, move_time=60) as tablebase:
        assert tablebase.probe(start) == (solved.winner, solved.length)
        moves = tablebase.moves(start)
        assert {(m.move, m.outcome, m.length) for m in moves} == {tuple(m) for m in solved.root_moves}
        assert [m.length for m in moves if m.outcome == "loss"] == sorted(
            (m.length for m in moves if m.outcome == "loss"), reverse=True
        )
        assert tablebase.best_move(start) == moves[0].move
        assert len(tablebase) > 0
        # Stored now: the probe is answered from the store, text or Position alike.
        assert tablebase.probe(start.to_text()) == tablebase.probe("4x5")
        over = bt.Position.from_text("4/1W2/4/B3/4 b").play("a2-a1")
        assert tablebase.probe(over) == ("black", 0)
        assert tablebase.moves(over) == [] and tablebase.best_move(over) is None


def test_unknown_within_the_budget(tmp_path):
    with bt.Tablebase(tmp_path / "store", threads=1, move_time=0.2, solve_limit=0.5) as tablebase:
        winner, length = tablebase.probe("7x5")
        assert (winner, length) == (None, None)
        assert tablebase.best_move("7x5") is None
        assert {m.outcome for m in tablebase.moves("7x5")} == {"unknown"}


def test_threads_share_a_tablebase(tmp_path):
    positions = [bt.Position("3x5")]
    for move in positions[0].legal_moves():
        positions.append(positions[0].play(move))
    # A thread for each position, so that none waits in the queue: a solve that
    # others wait behind yields its thread after a second (the pool's fairness),
    # and on a loaded machine that left positions unknown.
    threads = len(positions)
    with bt.Tablebase(tmp_path / "store", threads=threads, tt_mb=64, move_time=60) as tablebase:
        expected = {p: bt.solve(p, length=True, threads=1) for p in positions}
        found = {}

        def probe(position):
            found[position] = tablebase.probe(position)

        workers = [threading.Thread(target=probe, args=(p,)) for p in positions for _ in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert found == {p: (r.winner, r.length) for p, r in expected.items()}


def test_closed_and_bad_stores(tmp_path):
    tablebase = bt.Tablebase(tmp_path / "store", threads=1)
    tablebase.close()
    tablebase.close()
    with pytest.raises(bt.StoreError, match="closed"):
        tablebase.probe("3x4")
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "explorer.redb").write_bytes(b"\x00" * 4096)
    with pytest.raises(bt.StoreError):
        bt.Tablebase(damaged)
    with bt.Tablebase(tmp_path / "in-use", threads=1):
        with pytest.raises(bt.StoreError):
            bt.Tablebase(tmp_path / "in-use", threads=1)
    for bad in [dict(move_time=0), dict(threads=0), dict(tt_mb=0), dict(solve_limit=-1)]:
        with pytest.raises(bt.OptionError):
            bt.Tablebase(tmp_path / "options", **bad)


def test_killed_mid_solve_leaves_a_store_that_answers(tmp_path):
    store = tmp_path / "store"
    # Something stored first, then a long solve that SIGKILL cuts short.
    process = python_process(
        "import breakthrough as bt\n"
        f"tablebase = bt.Tablebase({str(store)!r}, threads=2, move_time=600)\n"
        "print(tablebase.probe('4x5'), flush=True)\n"
        "print('solving', flush=True)\n"
        "tablebase.probe('6x5')\n"
    )
    first = process.stdout.readline().strip()
    assert first == "('black', 22)", process.stderr.read()
    assert process.stdout.readline().strip() == "solving"
    time.sleep(2.0)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    with bt.Tablebase(store, threads=1, move_time=60) as tablebase:
        assert tablebase.probe("4x5") == ("black", 22)
        after = bt.Position("4x5").play("b2-b3")
        assert tablebase.probe(after) == (lambda r: (r.winner, r.length))(bt.solve(after, length=True))
