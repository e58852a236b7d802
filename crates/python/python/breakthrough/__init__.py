"""Perfect play for Breakthrough on small boards, from the ``breakthrough`` solver's
Rust engine: positions and moves, solving with proof certificates, checking
certificates, a tablebase of perfect play, and OpenSpiel (``breakthrough.openspiel``).

Boards are ``"WxH"``, columns x rows. White starts on ranks 1-2, moves first and
moves up the board. docs/python.md has a tour and every convention.
"""

import os
from typing import List, NamedTuple, Optional, Tuple, Union

from . import _native
from ._native import Position, perft
from .errors import (
    BoardError,
    BreakthroughError,
    MoveError,
    OptionError,
    PositionError,
    ProofError,
    StoreError,
)
from .results import RootMove, SolveResult, VerifyReport

__version__ = _native.__version__

__all__ = [
    "BoardError",
    "BreakthroughError",
    "MoveError",
    "MoveValue",
    "OptionError",
    "Position",
    "PositionError",
    "ProofError",
    "RootMove",
    "SolveResult",
    "StoreError",
    "Tablebase",
    "VerifyReport",
    "perft",
    "solve",
    "verify",
]

PositionLike = Union[Position, str]
PathLike = Union[str, "os.PathLike[str]"]


def solve(
    position: PositionLike,
    *,
    length: bool = False,
    all_moves: bool = False,
    proof: Optional[PathLike] = None,
    threads: Optional[int] = None,
    tt_mb: Optional[int] = None,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    progress: bool = False,
) -> SolveResult:
    """Proves who wins ``position`` (a Position, a position's text, or a board such
    as ``"5x5"`` for its start), as ``breakthrough solve --json`` does.

    ``length``: also the exact length under perfect play (plies).
    ``all_moves``: every root move's outcome and length.
    ``proof``: write the certificate to this file (``verify`` checks it).
    ``threads``: search threads (all cores by default); ``tt_mb``: the table in
    MiB (by board size by default). ``time_limit`` (seconds) and ``node_limit``
    stop the search early: the result then has ``status == "unknown"`` unless the
    winner was found. ``progress``: a progress line on stderr (a terminal only).

    The GIL is released while the search runs; Ctrl-C stops it within a second and
    raises KeyboardInterrupt. Raises BoardError, PositionError, OptionError,
    FileNotFoundError (``proof`` in a missing directory) and ProofError (a
    certificate that could not be written).
    """
    text = _native.solve(
        position,
        length=length,
        all_moves=all_moves,
        proof=None if proof is None else os.fspath(proof),
        threads=threads,
        tt_mb=tt_mb,
        time_limit=time_limit,
        node_limit=node_limit,
        progress=progress,
    )
    return SolveResult.from_json(text)


def verify(path: PathLike) -> VerifyReport:
    """Checks the certificate file (from ``solve(proof=...)``) or solved campaign
    directory at ``path`` with the rules alone, as ``breakthrough verify --json``.

    Returns the report when the proof holds; raises ProofError (its ``report`` says
    why) when it does not or the file is no certificate, FileNotFoundError when
    ``path`` does not exist, OSError when it cannot be read.
    """
    valid, text = _native.verify(os.fspath(path))
    report = VerifyReport.from_json(text)
    if not valid:
        raise ProofError(f"{os.fspath(path)}: {report.error}", report.to_dict())
    return report


class MoveValue(NamedTuple):
    """A legal move and what it leads to, for the side playing it: ``outcome`` is
    ``"win"``, ``"loss"`` or ``"unknown"``; ``length`` the plies to the end of the
    game under perfect play, the move counted (None while unknown)."""

    move: str
    outcome: str
    length: Optional[int]


class Tablebase:
    """Perfect play for any position, from a store of solved positions (the
    directory ``store``, created when missing: the store ``breakthrough serve
    --store`` keeps) and, for what it lacks, solved on demand.

    A position the store lacks is solved on ``threads`` solver threads (all cores
    by default; a table of ``tt_mb`` MiB each); a call waits at most ``move_time``
    seconds for it, then answers "unknown" (None) while the solve goes on in the
    background, for at most ``solve_limit`` seconds in all. A position whose solve
    gave up answers "unknown" for ten minutes. Answers never guess: every known
    value comes from a completed solve.

    Safe to call from several threads; use it as a context manager, or ``close()``
    it. Raises StoreError when the store is damaged, in use by another process, or
    closed; OptionError for a bad setting.
    """

    def __init__(
        self,
        store: PathLike,
        *,
        threads: Optional[int] = None,
        tt_mb: int = 256,
        move_time: float = 5.0,
        solve_limit: float = 600.0,
    ):
        self._native = _native.Tablebase(
            os.fspath(store),
            threads=threads,
            tt_mb=tt_mb,
            move_time=move_time,
            solve_limit=solve_limit,
        )

    def probe(self, position: PositionLike) -> Tuple[Optional[str], Optional[int]]:
        """``(winner, length)``: ``"white"``, ``"black"`` or None while unknown, and
        the plies to the end of the game under perfect play (0 when it is over)."""
        return self._native.probe(position)

    def moves(self, position: PositionLike) -> List[MoveValue]:
        """Every legal move with its outcome and length, best first: the fastest
        wins, then moves not known, then the longest losses; ties keep the legal
        moves' order. Empty when the game is over."""
        return [MoveValue(*m) for m in self._native.moves(position)]

    def best_move(self, position: PositionLike) -> Optional[str]:
        """The move of perfect play (the fastest win, else the longest
        resistance), or None when the game is over or a move is not known."""
        return self._native.best_move(position)

    @property
    def store(self) -> str:
        return os.fspath(self._native.store)

    def __len__(self) -> int:
        """Positions in the store."""
        return len(self._native)

    def close(self) -> None:
        """Stops the solves and closes the store; what was solved stays stored."""
        self._native.close()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Tablebase(store={self.store!r})"
