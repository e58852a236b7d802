"""The Python package's speed, side by side (docs/performance.md has the figures):

1. ``solve("5x5")`` from Python against ``breakthrough solve 5x5`` (the CLI), wall
   time, alternating, medians;
2. ``Tablebase.probe`` on stored positions, one thread, probes a second;
3. OpenSpiel states converted (``to_position``), a second.

Usage: python benchmark.py [--cli PATH] [--rounds N] [--store DIR]
"""

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time

import breakthrough as bt


def per_second(call, items: list, rounds: int) -> float:
    """The median over `rounds` of how many `items` a second `call` takes."""
    rates = []
    for _ in range(rounds):
        started = time.perf_counter()
        for item in items:
            call(item)
        rates.append(len(items) / (time.perf_counter() - started))
    return statistics.median(rates)


def solve_side_by_side(cli: str, rounds: int) -> None:
    python, command = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        bt.solve("5x5")
        python.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run([cli, "solve", "5x5", "--json", "--quiet"], check=True, capture_output=True)
        command.append(time.perf_counter() - started)
    p, c = statistics.median(python), statistics.median(command)
    print(f"solve 5x5: python {p:.3f} s, cli {c:.3f} s (medians of {rounds}); python/cli {p / c:.3f}")


def stored_positions(tablebase: bt.Tablebase, count: int) -> list:
    """Positions the store holds: random games from the 4x5 start, each position
    probed (and so solved and stored) on the way."""
    rng = random.Random(1)
    found = []
    while len(found) < count:
        position = bt.Position("4x5")
        while not position.is_over and len(found) < count:
            assert tablebase.probe(position)[0] is not None
            found.append(position)
            position = position.play(rng.choice(position.legal_moves()))
    return found


def probes(store: str, rounds: int) -> None:
    with bt.Tablebase(store, move_time=60) as tablebase:
        positions = stored_positions(tablebase, 2000)
        rate = per_second(tablebase.probe, positions, rounds)
    print(f"Tablebase.probe on {len(positions)} stored positions: {rate:,.0f} a second (median of {rounds})")


def conversions(rounds: int) -> None:
    import pyspiel

    from breakthrough import openspiel

    game = pyspiel.load_game("breakthrough(rows=6,columns=5)")
    rng = random.Random(2)
    states = []
    while len(states) < 5000:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < 5000:
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    rate = per_second(openspiel.to_position, states, rounds)
    print(f"openspiel.to_position on {len(states)} states of 5x6: {rate:,.0f} a second (median of {rounds})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..")
    parser.add_argument("--cli", default=os.path.join(root, "target", "release", "breakthrough"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", help="the tablebase's store (default: a new one in a temporary directory)")
    args = parser.parse_args()
    solve_side_by_side(args.cli, args.rounds)
    with tempfile.TemporaryDirectory() as scratch:
        probes(args.store or os.path.join(scratch, "store"), args.rounds)
    conversions(args.rounds)


if __name__ == "__main__":
    main()
