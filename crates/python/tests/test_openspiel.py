"""OpenSpiel's breakthrough and positions here agree at every ply of random games;
perfect play never lets a won game slip; the evaluation judges moves."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import breakthrough as bt  # noqa: E402
from breakthrough import openspiel as bo  # noqa: E402

# Columns x rows as this package names boards: 4x6 is breakthrough(rows=6,columns=4).
BOARDS = ["4x6", "5x6", "6x6", "4x7", "3x8", "5x5", "3x4"]


def game_of(board: str):
    columns, rows = board.split("x")
    return pyspiel.load_game(f"breakthrough(rows={rows},columns={columns})")


@pytest.mark.parametrize("board", BOARDS)
def test_every_ply_agrees(board):
    game = game_of(board)
    rng = random.Random(board)
    plies = 0
    for _ in range(200):
        state = game.new_initial_state()
        position = bo.to_position(state)
        assert position.board == board
        while True:
            assert position == bo.to_position(state)
            assert position.is_over == state.is_terminal()
            if state.is_terminal():
                winner = "white" if state.returns()[0] > 0 else "black"
                assert position.winner() == winner
                assert position.legal_moves() == []
                break
            actions = state.legal_actions()
            names = [bo.from_action(state, action) for action in actions]
            assert sorted(names) == sorted(position.legal_moves())
            assert [bo.to_action(state, name) for name in names] == actions
            index = rng.randrange(len(actions))
            position = position.play(names[index])
            state.apply_action(actions[index])
            plies += 1
    assert plies > 200 * 4


def test_conventions():
    state = game_of("5x6").new_initial_state()
    assert state.current_player() == 0  # OpenSpiel's Black moves first ...
    assert bo.to_position(state).to_move == "white"  # ... and is White here.
    action = bo.to_action(state, "a2-a3")
    assert state.action_to_string(0, action) == "a5a4"
    assert bo.from_action(state, action) == "a2-a3"
    # Fewer than 6 rows: OpenSpiel starts with one row a side.
    assert bo.to_position(game_of("5x5").new_initial_state()).to_text() == "BBBBB/5/5/5/WWWWW w"


def test_bad_moves_and_boards():
    state = game_of("4x6").new_initial_state()
    for bad in ["a2-a4", "nonsense", "a5-a4"]:
        with pytest.raises(bt.MoveError):
            bo.to_action(state, bad)
    with pytest.raises(bt.MoveError):
        bo.from_action(state, 10_000)
    with pytest.raises(bt.PositionError, match="more than 64"):
        bo.to_position(pyspiel.load_game("breakthrough(rows=9,columns=9)").new_initial_state())
    with pytest.raises(bt.PositionError):
        bo.to_position(pyspiel.load_game("breakthrough(rows=3,columns=5)").new_initial_state())


class RandomBot(pyspiel.Bot):
    """Plays a random legal move for whichever side is to move (OpenSpiel's own
    random bot plays one side only)."""

    def __init__(self, seed: int):
        pyspiel.Bot.__init__(self)
        self.rng = random.Random(seed)

    def step(self, state):
        return self.rng.choice(state.legal_actions())

    def restart_at(self, state):
        pass


def mcts_bot(game, seed: int, simulations: int = 40):
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(
        game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )


@pytest.mark.parametrize("opponent", ["random", "mcts"])
def test_perfect_player_never_lets_a_win_slip(tmp_path, opponent):
    game = game_of("4x5")
    with bt.Tablebase(tmp_path / "store", threads=2, move_time=60) as tablebase:
        player = bo.PerfectPlayer(tablebase)
        for number in range(12):
            side = number % 2
            other = (
                pyspiel.make_uniform_random_bot(1 - side, number)
                if opponent == "random"
                else mcts_bot(game, number)
            )
            state = game.new_initial_state()
            could_win = None
            while not state.is_terminal():
                if state.current_player() == side:
                    position = bo.to_position(state)
                    winner, _ = tablebase.probe(position)
                    assert winner is not None
                    if could_win is None:
                        could_win = winner == position.to_move
                    action = player.step(state)
                    after, _ = tablebase.probe(position.play(bo.from_action(state, action)))
                    if winner == position.to_move:
                        assert after == winner, f"{position}: a won position let slip"
                else:
                    action = other.step(state)
                state.apply_action(action)
            # A game the perfect player could win from its first move, it won.
            if could_win:
                assert state.returns()[side] > 0
        assert player.unsure == 0


def test_evaluate_judges_moves(tmp_path):
    game = game_of("3x5")
    with bt.Tablebase(tmp_path / "store", threads=2, move_time=60) as tablebase:
        perfect = bo.evaluate(bo.PerfectPlayer(tablebase), game, games=6, seed=3, tablebase=tablebase)
        assert perfect.games == 6 and perfect.unknown == 0 and sum(perfect.moves) > 6
        assert perfect.kept_share == 1.0 and perfect.perfect_share == 1.0
        sloppy = bo.evaluate(RandomBot(7), game, games=6, seed=3, tablebase=tablebase)
        assert sloppy.perfect_share < 1.0
        rows = sloppy.per_ply()
        assert rows[0]["ply"] == 0 and 0 <= rows[0]["kept"] <= 1
