"""solve and verify against the `breakthrough` command; Ctrl-C stops a solve."""

import json
import signal
import subprocess
import time

import pytest

import breakthrough as bt
from conftest import python_process


def cli_json(cli, *args):
    done = subprocess.run([cli, *args, "--json"], capture_output=True, text=True)
    assert done.returncode in (0, 4), done.stderr
    return json.loads(done.stdout)


def settled(result: dict) -> dict:
    """What must be equal: the answer, not the figures of the run."""
    keys = ["board", "position", "to_move", "winner", "best_move", "status", "verdict", "length",
            "root_moves", "principal_variation", "principal_variation_kind"]
    return {key: result.get(key) for key in keys}


@pytest.mark.parametrize("board", ["4x5", "5x5", "3x7"])
def test_solve_equals_the_cli(cli, board):
    ours = bt.solve(board, length=True, all_moves=True, threads=1)
    theirs = cli_json(cli, "solve", board, "--length", "--all-moves", "--threads", "1", "--quiet")
    assert settled(ours.to_dict()) == settled(theirs)
    assert set(ours.to_dict()) == set(theirs)
    assert ours.winner == theirs["winner"] and ours.length == theirs["length"]
    assert [tuple(m) for m in ours.root_moves] == [
        (m["move"], m["outcome"], m["length"]) for m in theirs["root_moves"]
    ]
    assert ours.solved and json.loads(ours.to_json()) == ours.to_dict()


def test_solve_a_position_and_limits():
    position = bt.Position("4x5").play("a2-a3")
    assert bt.solve(position).winner == "black"
    stopped = bt.solve("6x5", node_limit=1000, threads=1)
    assert stopped.status == "unknown" and stopped.stopped_by == "node_limit" and stopped.winner is None
    for bad in [dict(time_limit=0), dict(time_limit=-1.0), dict(threads=0), dict(tt_mb=10**9)]:
        with pytest.raises(bt.OptionError):
            bt.solve("3x4", **bad)
    with pytest.raises(bt.BoardError):
        bt.solve("99x99")
    with pytest.raises(bt.PositionError):
        bt.solve("BBB/BBB/3/WWW/WWX w")
    with pytest.raises(FileNotFoundError):
        bt.solve("3x4", proof="/no/such/directory/p.cert")


def test_proof_written_and_verified(tmp_path, cli):
    path = tmp_path / "4x5.cert"
    result = bt.solve("4x5", length=True, proof=path)
    assert result.proof["sha256"] and path.stat().st_size == result.proof["bytes"]
    report = bt.verify(path)
    assert report.valid and report.length == result.length == 22
    # Black wins within 22 plies; White holds out 21.
    assert [(part["winner"], part["claim"]) for part in report.parts] == [
        ("black", {"kind": "wins_within", "plies": 22}),
        ("white", {"kind": "holds_out", "plies": 21}),
    ]
    timeless = lambda report: {k: v for k, v in report.items() if k != "seconds"}  # noqa: E731
    assert timeless(report.to_dict()) == timeless(cli_json(cli, "verify", str(path)))
    plain = tmp_path / "3x4.cert"
    bt.solve("3x4", proof=plain)
    assert bt.verify(plain).winner == "black"


def test_bad_certificates(tmp_path):
    with pytest.raises(FileNotFoundError):
        bt.verify(tmp_path / "missing.cert")
    damaged = tmp_path / "damaged.cert"
    damaged.write_bytes(b"not a certificate at all")
    with pytest.raises(bt.ProofError) as raised:
        bt.verify(damaged)
    assert raised.value.report["valid"] is False and raised.value.report["error"]
    good = tmp_path / "good.cert"
    bt.solve("3x5", proof=good)
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0xFF
    good.write_bytes(bytes(data))
    with pytest.raises(bt.ProofError):
        bt.verify(good)


def test_ctrl_c_stops_a_solve():
    # CLOCK_MONOTONIC is one clock for every process of the machine. Python leaves
    # SIGINT alone when it starts ignored (as in a job started in the background),
    # so the child sets the handler an interactive Python has.
    process = python_process(
        "import breakthrough as bt, signal, time\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('solving', flush=True)\n"
        "try:\n"
        "    bt.solve('7x5', threads=1)\n"
        "    print('finished', flush=True)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic(), flush=True)\n"
        "    raise\n"
    )
    assert process.stdout.readline().strip() == "solving"
    time.sleep(1.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert "KeyboardInterrupt" in err and "finished" not in out, err
    assert process.returncode != 0
    word, raised = out.split()
    assert word == "interrupted"
    assert float(raised) - sent < 1.0, f"stopped {float(raised) - sent:.2f} s after Ctrl-C"
