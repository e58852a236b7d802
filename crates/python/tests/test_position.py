"""Positions: text, moves, equality, pickling, the diagram, and bad input."""

import pickle

import pytest

import breakthrough as bt


def test_start_and_text():
    start = bt.Position()
    assert start.board == "5x5"
    assert start.to_text() == "BBBBB/BBBBB/5/WWWWW/WWWWW w"
    assert bt.Position("6x5") == bt.Position.start("6x5")
    assert bt.Position(text="BBB/BBB/3/WWW/WWW w").board == "3x5"
    assert bt.Position("3x5", "BBB/BBB/3/WWW/WWW w") == bt.Position("3x5")
    assert (start.width, start.height, start.to_move) == (5, 5, "white")
    assert str(start) == start.to_text()
    assert eval(repr(start), {"Position": bt.Position}) == start


def test_moves_and_the_end():
    position = bt.Position.from_text("3/1W1/B2/3 w")
    assert sorted(position.legal_moves()) == ["b3-a4", "b3-b4", "b3-c4"]
    after = position.play("b3-b4")
    assert after.winner() == "white" and after.is_over and after.legal_moves() == []
    with pytest.raises(bt.MoveError, match="game is over"):
        after.play("a1-a2")
    capture = bt.Position.from_text("3/1B1/W2/3 w").play("a2xb3")
    assert capture.winner() == "white"  # Black has no pieces left


def test_equality_hash_mirror_and_pickle():
    a = bt.Position("4x5").play("a2-a3")
    b = bt.Position.from_text(a.to_text())
    assert a == b and hash(a) == hash(b) and a != bt.Position("4x5")
    assert a != "not a position"
    assert len({a, b, a.mirror()}) == 2
    assert a.mirror().mirror() == a
    assert pickle.loads(pickle.dumps(a)) == a


def test_svg_diagram():
    svg = bt.Position("3x4")._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<circle") == 12
    assert "white to move" in svg
    assert bt.Position("3x4").diagram().splitlines()[0].startswith("4")


@pytest.mark.parametrize("board", ["99x99", "1x5", "5x3", "5", "axb", ""])
def test_bad_boards(board):
    with pytest.raises(bt.BoardError):
        bt.Position(board)


@pytest.mark.parametrize(
    "text",
    ["", "BBB/BBB/3/WWW/WWW", "BBB/BBB/3/WWW/WWW x", "BBQ/BBB/3/WWW/WWW w", "BBB/BB/3/WWW/WWW w",
     "BBB/BBB/BBB/WWW/WWW w", "W2/3/3/3 w"],
)
def test_bad_positions(text):
    with pytest.raises(bt.PositionError) as raised:
        bt.Position.from_text(text)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, bt.BreakthroughError)


def test_board_and_text_disagree():
    with pytest.raises(bt.PositionError, match="not on board 4x5"):
        bt.Position("4x5", "BBB/BBB/3/WWW/WWW w")


@pytest.mark.parametrize("move", ["a2-a4", "a2xa3", "z9-z10", "nonsense", "a7-a8"])
def test_illegal_moves(move):
    with pytest.raises(bt.MoveError):
        bt.Position("5x5").play(move)


def test_perft_counts():
    # The start-position counts of ../shared/data/perft.tsv for 5x5.
    assert [bt.perft("5x5", depth) for depth in range(4)] == [1, 13, 156, 1924]
    assert bt.perft(bt.Position("3x4"), 2) == bt.perft("3x4", 2)
    with pytest.raises(TypeError):
        bt.perft(42, 1)
