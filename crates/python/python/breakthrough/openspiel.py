"""OpenSpiel's ``breakthrough`` game and this package's positions, both ways, and
perfect play as an OpenSpiel bot.

Conventions (docs/python.md has the table):

- OpenSpiel's Black is player 0: it moves first and moves down the board. Here
  White moves first and moves up. So OpenSpiel's Black is White here and its White
  is Black; OpenSpiel's rank ``r`` of ``H`` rows is rank ``H + 1 - r`` here; files
  keep their letters. OpenSpiel's ``a5a4`` on 6 rows is ``a2-a3`` here, its capture
  ``b4c3*`` is ``b3xc4``.
- ``breakthrough(rows=R,columns=C)`` is the board ``CxR`` here (columns x rows).
- On boards of fewer than 6 rows OpenSpiel starts with one row of pieces a side,
  where this package's start has two; its positions are positions here all the
  same. Boards here have at least 4 rows and at most 64 squares: a state of a
  smaller or larger OpenSpiel board raises PositionError.

Needs OpenSpiel (``pip install open_spiel``); the plot of ``Evaluation`` needs
matplotlib.
"""

import random
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import pyspiel

from . import MoveValue, Position, Tablebase, _native
from .errors import MoveError

__all__ = [
    "Evaluation",
    "PerfectPlayer",
    "evaluate",
    "from_action",
    "to_action",
    "to_position",
]

_HERE = re.compile(r"^([a-z])(\d+)([-x])([a-z])(\d+)$")
_THERE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)(\*?)$")


def _rows(state: Any) -> int:
    return int(state.get_game().get_parameters()["rows"])


def to_position(state: Any) -> Position:
    """The position of an OpenSpiel ``breakthrough`` state (any reached by play,
    terminal ones included); raises PositionError for a board not supported here."""
    return _native.openspiel_position(str(state), state.move_number() % 2 == 0)


def _name_here(text: str, rows: int) -> str:
    found = _THERE.match(text)
    if found is None:
        raise MoveError(f"OpenSpiel action {text!r} is not a breakthrough move")
    file_from, rank_from, file_to, rank_to, capture = found.groups()
    joint = "x" if capture else "-"
    return f"{file_from}{rows + 1 - int(rank_from)}{joint}{file_to}{rows + 1 - int(rank_to)}"


def _name_there(move: str, rows: int) -> str:
    found = _HERE.match(move)
    if found is None:
        raise MoveError(f"move {move!r}: expected a name such as a2-a3 or b3xc4")
    file_from, rank_from, joint, file_to, rank_to = found.groups()
    capture = "*" if joint == "x" else ""
    return f"{file_from}{rows + 1 - int(rank_from)}{file_to}{rows + 1 - int(rank_to)}{capture}"


def from_action(state: Any, action: int) -> str:
    """The name here (``a2-a3``, ``b3xc4``) of OpenSpiel's ``action`` in ``state``;
    raises MoveError when the action is not legal there."""
    if state.is_terminal() or action not in state.legal_actions():
        raise MoveError(f"action {action} is not legal in OpenSpiel's state\n{state}")
    return _name_here(state.action_to_string(state.current_player(), action), _rows(state))


def to_action(state: Any, move: str) -> int:
    """OpenSpiel's action for the move named ``move`` here, in ``state``; raises
    MoveError when it is malformed or not legal there."""
    if state.is_terminal():
        raise MoveError(f"move {move!r}: the game is over")
    there = _name_there(move, _rows(state))
    for action in state.legal_actions():
        if state.action_to_string(state.current_player(), action) == there:
            return action
    raise MoveError(f"move {move!r} ({there} in OpenSpiel) is not legal in\n{state}")


class PerfectPlayer(pyspiel.Bot):
    """An OpenSpiel bot that plays perfectly: the fastest win, else the longest
    resistance, from a Tablebase (by default a new one over ``store``).

    When a move's value is not known within the tablebase's budget, it plays the
    first of ``Tablebase.moves`` (a known win if there is one, else a move not known)
    and counts it in ``unsure``.
    """

    def __init__(self, tablebase: Optional[Tablebase] = None, *, store: Optional[str] = None, **options: Any):
        pyspiel.Bot.__init__(self)
        if tablebase is None:
            if store is None:
                raise ValueError("PerfectPlayer needs a tablebase or a store directory")
            tablebase = Tablebase(store, **options)
        self.tablebase = tablebase
        self.unsure = 0

    def step(self, state: Any) -> int:
        moves = self.tablebase.moves(to_position(state))
        if any(m.length is None for m in moves):
            self.unsure += 1
        return to_action(state, moves[0].move)

    def restart_at(self, state: Any) -> None:
        pass


@dataclass
class Evaluation:
    """How a bot's moves compare with perfect play, per ply of the game (ply 0 is
    the first move). At each of the bot's moves whose values are known:
    ``kept`` counts moves that keep the position's game-theoretic value (a win
    stays a win; from a lost position every move does), ``perfect`` those that are
    also perfect in length (the fastest win, or the longest loss), ``moves`` all of
    them; ``unknown`` counts moves not judged (a value not known in time)."""

    moves: List[int] = field(default_factory=list)
    kept: List[int] = field(default_factory=list)
    perfect: List[int] = field(default_factory=list)
    unknown: int = 0
    games: int = 0

    def _grow(self, ply: int) -> None:
        while len(self.moves) <= ply:
            self.moves.append(0)
            self.kept.append(0)
            self.perfect.append(0)

    @property
    def kept_share(self) -> float:
        """The share of all judged moves that keep the value."""
        return sum(self.kept) / max(1, sum(self.moves))

    @property
    def perfect_share(self) -> float:
        """The share of all judged moves that are perfect in length too."""
        return sum(self.perfect) / max(1, sum(self.moves))

    def per_ply(self) -> List[Dict[str, float]]:
        """For each ply with moves judged: ``ply``, ``moves``, and the shares
        ``kept`` and ``perfect``."""
        return [
            {"ply": ply, "moves": n, "kept": k / n, "perfect": p / n}
            for ply, (n, k, p) in enumerate(zip(self.moves, self.kept, self.perfect))
            if n
        ]

    def plot(self, path: Optional[str] = None, title: str = "", axes: Any = None) -> Any:
        """Plots the shares per ply (matplotlib); saves to ``path`` when given.
        Returns the axes."""
        import matplotlib

        if axes is None:
            if path is not None:
                matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            _, axes = plt.subplots(figsize=(7, 4))
        rows = self.per_ply()
        plies = [r["ply"] for r in rows]
        axes.plot(plies, [r["kept"] for r in rows], marker="o", label="keeps the value")
        axes.plot(plies, [r["perfect"] for r in rows], marker="s", label="perfect in length")
        axes.set_xlabel("ply")
        axes.set_ylabel("share of the bot's moves")
        axes.set_ylim(-0.02, 1.02)
        axes.set_title(title or f"{self.games} games: value kept {self.kept_share:.0%}, perfect {self.perfect_share:.0%}")
        axes.legend()
        if path is not None:
            axes.figure.savefig(path, bbox_inches="tight")
        return axes


def _judge(evaluation: Evaluation, ply: int, values: List[MoveValue], chosen: str) -> None:
    if any(v.length is None for v in values):
        evaluation.unknown += 1
        return
    best = values[0]
    move = next(v for v in values if v.move == chosen)
    evaluation._grow(ply)
    evaluation.moves[ply] += 1
    kept = best.outcome == "loss" or move.outcome == "win"
    evaluation.kept[ply] += kept
    evaluation.perfect[ply] += kept and move.outcome == best.outcome and move.length == best.length


def evaluate(
    bot: Any,
    game: Any,
    games: int = 20,
    seed: int = 0,
    *,
    tablebase: Optional[Tablebase] = None,
    store: Optional[str] = None,
    opponent: Any = None,
    **options: Any,
) -> Evaluation:
    """Plays ``games`` games of ``game`` (an OpenSpiel breakthrough game), ``bot``
    taking the first player's side in even games and the second's in odd ones (so
    it must play either side: OpenSpiel's MCTS bot does, its uniform random bot
    made for one player does not),
    against ``opponent`` (by default OpenSpiel's uniform random bot, seeded from
    ``seed``), and judges each of ``bot``'s moves against perfect play from
    ``tablebase`` (or a new one over ``store``, with ``options``)."""
    own = tablebase is None
    if own:
        if store is None:
            raise ValueError("evaluate needs a tablebase or a store directory")
        tablebase = Tablebase(store, **options)
    rng = random.Random(seed)
    evaluation = Evaluation()
    try:
        for number in range(games):
            side = number % 2
            other = opponent or pyspiel.make_uniform_random_bot(1 - side, rng.randrange(2**31))
            state = game.new_initial_state()
            for player_bot in (bot, other):
                player_bot.restart_at(state)
            while not state.is_terminal():
                player = state.current_player()
                if player == side:
                    action = bot.step(state)
                    _judge(evaluation, state.move_number(), tablebase.moves(to_position(state)), from_action(state, action))
                else:
                    action = other.step(state)
                state.apply_action(action)
            evaluation.games += 1
    finally:
        if own:
            tablebase.close()
    return evaluation
