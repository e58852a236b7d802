"""The exceptions the package raises. Every one is a ``BreakthroughError``; those
about bad input are ``ValueError`` too."""

from typing import Any, Dict, Optional


class BreakthroughError(Exception):
    """Any error of this package."""


class BoardError(BreakthroughError, ValueError):
    """A board size that is malformed or not supported (``"WxH"``, 2 to 64 squares
    wide and at least 4 rows, at most 64 squares)."""


class PositionError(BreakthroughError, ValueError):
    """A position text (or an OpenSpiel state) that is malformed or that no game
    reaches: pieces off the board, too many pieces, a game already over."""


class MoveError(BreakthroughError, ValueError):
    """A move that is malformed or not legal in the position, or a move after the
    end of the game."""


class OptionError(BreakthroughError, ValueError):
    """An option out of range: a time limit not above 0, a table larger than the
    memory available, no threads."""


class ProofError(BreakthroughError):
    """A certificate that does not hold or cannot be read as one (``verify``), or a
    solve whose certificate could not be written. ``report`` holds ``verify``'s
    result as a dict (``valid`` false, ``error`` saying why) where there is one."""

    def __init__(self, message: str, report: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.report = report


class StoreError(BreakthroughError):
    """A tablebase's store that cannot be used: damaged, in use by another process,
    on a failing disk, or closed."""
