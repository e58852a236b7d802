"""Typed results: ``SolveResult`` (what ``breakthrough solve --json`` prints, field
for field; docs/result.schema.json) and ``VerifyReport`` (``verify --json``;
docs/verify.schema.json)."""

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional


class _CliJson:
    """What both results share: made from the CLI's JSON text, kept as it came."""

    _json: str

    @classmethod
    def _fields(cls, data: Dict[str, Any]) -> Dict[str, Any]:
        """The entries of `data` that are fields of `cls`."""
        known = {name for name in cls.__dataclass_fields__ if not name.startswith("_")}  # type: ignore[attr-defined]
        return {name: value for name, value in data.items() if name in known}

    def to_dict(self) -> Dict[str, Any]:
        """The result as the CLI's JSON, parsed."""
        return json.loads(self._json)

    def to_json(self) -> str:
        """The JSON text, byte for byte what the CLI prints with ``--json``."""
        return self._json


class RootMove(NamedTuple):
    """A root move the solve settled: its outcome for the side to move (``"win"``,
    ``"loss"`` or ``"unknown"``) and, with ``length=True`` or ``all_moves=True``,
    the plies to the end of the game, the move counted."""

    move: str
    outcome: str
    length: Optional[int]


@dataclass(frozen=True)
class SolveResult(_CliJson):
    """The result of ``solve``: the fields of ``solve --json``. Nested objects
    (``stats``, ``solver``, ``proof``, ``length_search``, ``campaign``) are dicts as
    the JSON Schema describes them."""

    board: str
    position: str
    to_move: str
    status: str
    verdict: str
    machine: str
    stats: Dict[str, Any]
    solver: Dict[str, Any]
    winner: Optional[str] = None
    best_move: Optional[str] = None
    stopped_by: Optional[str] = None
    root_moves: List[RootMove] = field(default_factory=list)
    principal_variation: Optional[List[str]] = None
    principal_variation_kind: Optional[str] = None
    length: Optional[int] = None
    length_search: Optional[Dict[str, Any]] = None
    proof: Optional[Dict[str, Any]] = None
    campaign: Optional[Dict[str, Any]] = None
    _json: str = field(default="", repr=False, compare=False)

    @classmethod
    def from_json(cls, text: str) -> "SolveResult":
        """Reads ``solve --json``'s output (or a file ``solve --out`` wrote)."""
        data = json.loads(text)
        values = cls._fields(data)
        values["root_moves"] = [
            RootMove(m["move"], m["outcome"], m.get("length")) for m in data.get("root_moves", [])
        ]
        return cls(**values, _json=text)

    @property
    def solved(self) -> bool:
        """Whether the winner is known (``status == "solved"``)."""
        return self.status == "solved"



@dataclass(frozen=True)
class VerifyReport(_CliJson):
    """What ``verify`` found: the fields of ``verify --json``. A certificate of one
    proof (or a campaign's top) has its figures at the top level (``board`` to
    ``depth_histogram``); a file of several parts (a length certificate) has them
    in ``parts`` and the length they prove in ``length``; a campaign's directory
    adds ``campaign``."""

    valid: bool
    error: Optional[str] = None
    bytes: Optional[int] = None
    seconds: Optional[float] = None
    board: Optional[str] = None
    position: Optional[str] = None
    winner: Optional[str] = None
    claim: Optional[Dict[str, Any]] = None
    given: Optional[int] = None
    positions: Optional[int] = None
    winner_positions: Optional[int] = None
    loser_positions: Optional[int] = None
    loser_replies: Optional[int] = None
    transpositions: Optional[int] = None
    finished_games: Optional[int] = None
    settled: Optional[int] = None
    settle_plies: Optional[int] = None
    height: Optional[int] = None
    depth_histogram: Optional[List[int]] = None
    parts: List[Dict[str, Any]] = field(default_factory=list)
    length: Optional[int] = None
    campaign: Optional[Dict[str, Any]] = None
    _json: str = field(default="", repr=False, compare=False)

    @classmethod
    def from_json(cls, text: str) -> "VerifyReport":
        """Reads ``verify --json``'s output."""
        return cls(**cls._fields(json.loads(text)), _json=text)
