"""OpenSpiel's MCTS bot against perfect play: for a few simulation budgets, how
often its moves keep the game-theoretic value and how often they are perfect in
length, per ply, and the plot of those shares.

The bot plays games from the start against OpenSpiel's uniform random bot, on
the first side in even games and the second in odd ones. Each of its moves is
judged against the tablebase's values; a move whose values the tablebase does
not know within --move-time seconds is not judged (counted as unknown): on 5x6
the first plies are too hard to solve on demand, so the plot starts where the
tablebase answers.

Usage: python mcts_vs_perfect.py [--rows 6] [--columns 5] [--budgets 25,100,400]
       [--games 6] [--store DIR] [--move-time S] [--out docs/mcts-5x6.png]
Needs open_spiel and matplotlib (pip install "./crates/python[openspiel,plot]").
"""

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import breakthrough as bt
from breakthrough import openspiel as bo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--columns", type=int, default=5)
    parser.add_argument("--budgets", default="25,100,400", help="MCTS simulations per move, comma-separated")
    parser.add_argument("--games", type=int, default=6, help="games per budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", default="mcts-store", help="the tablebase's store (kept between runs)")
    parser.add_argument("--move-time", type=float, default=10.0, help="seconds a position may take to solve")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--tt-mb", type=int, default=512)
    parser.add_argument("--out", default="mcts.png", help="the plot (.png or .svg)")
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = pyspiel.load_game(f"breakthrough(rows={args.rows},columns={args.columns})")
    board = f"{args.columns}x{args.rows}"
    budgets = [int(b) for b in args.budgets.split(",")]
    figure, (kept_axes, perfect_axes) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    with bt.Tablebase(args.store, threads=args.threads, tt_mb=args.tt_mb, move_time=args.move_time) as tablebase:
        for budget in budgets:
            rng = np.random.RandomState(args.seed)
            bot = mcts.MCTSBot(game, 2.0, budget, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            started = time.perf_counter()
            result = bo.evaluate(bot, game, games=args.games, seed=args.seed, tablebase=tablebase)
            print(
                f"{board}, MCTS {budget} simulations: {result.games} games, {sum(result.moves)} moves judged "
                f"({result.unknown} not known in time): value kept {result.kept_share:.1%}, "
                f"perfect {result.perfect_share:.1%} ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
            rows = result.per_ply()
            plies = [r["ply"] for r in rows]
            kept_axes.plot(plies, [r["kept"] for r in rows], marker="o", label=f"{budget} simulations")
            perfect_axes.plot(plies, [r["perfect"] for r in rows], marker="s", label=f"{budget} simulations")
            # Saved after each budget: a long run cut short keeps what it measured.
            save(figure, kept_axes, perfect_axes, board, args)
    print(f"plot: {args.out}")


def save(figure, kept_axes, perfect_axes, board: str, args: argparse.Namespace) -> None:
    kept_axes.set_title("keeps the game-theoretic value")
    perfect_axes.set_title("perfect in length too")
    for axes in (kept_axes, perfect_axes):
        axes.set_xlabel("ply")
        axes.set_ylim(-0.02, 1.02)
        axes.legend()
    kept_axes.set_ylabel("share of MCTS's moves judged")
    figure.suptitle(
        f"OpenSpiel MCTS against perfect play on {board} (breakthrough(rows={args.rows},columns={args.columns})), "
        f"{args.games} games a budget",
        y=1.03,
    )
    figure.savefig(args.out, bbox_inches="tight", dpi=80)


if __name__ == "__main__":
    main()
