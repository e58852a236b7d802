//! The JSON API's answers (`/api/v1/...`), as serde types; `docs/api.md` documents
//! them.

use breakthrough_result::Side;
use serde::{Deserialize, Serialize};

/// A move's outcome for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveOutcome {
    Win,
    Loss,
    Unknown,
}

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The store had it before this request.
    Stored,
    /// Solved for this request (and stored).
    Solved,
    /// The rules alone: the game is over.
    Rules,
    /// Not known yet.
    Unknown,
}

/// `GET /api/v1/position`: a position, its value and every legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionAnswer {
    /// `WxH`, columns x rows.
    pub board: String,
    /// The position in the text format of docs/RULES.md.
    pub position: String,
    pub to_move: Side,
    /// Who wins with perfect play; null while unknown.
    pub winner: Option<Side>,
    /// Plies to the end of the game under perfect play; null while unknown.
    pub length: Option<u32>,
    /// Whether the game is over (then `winner` has won and there are no moves).
    pub game_over: bool,
    /// Where the position's own value came from.
    pub source: Source,
    /// Whether a solve of this position is queued or running: ask again later.
    pub solving: bool,
    /// Whether the solver pool's queue was full, so that newer positions took this
    /// one's place (or the server is stopping): nothing is being solved for it.
    pub busy: bool,
    /// Whether a solve of this position gave up lately (at its limit, or giving its
    /// thread to newer requests), so it is not solved again for now.
    pub hard: bool,
    /// When `hard`: seconds until the position may be queued again.
    pub retry_after: Option<u64>,
    /// Every legal move, best first for the side to move.
    pub moves: Vec<MoveAnswer>,
}

/// A legal move and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAnswer {
    /// The move, as `solve --json` names it (`a2-b3`, `a4xb3`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The outcome for the side that plays it.
    pub outcome: MoveOutcome,
    /// Plies to the end of the game under perfect play after it, the move counted.
    pub length: Option<u32>,
    pub source: Source,
    /// The position after the move.
    pub position: String,
}

/// `GET /api/v1/mainline`: perfect play from a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MainLine {
    pub board: String,
    pub position: String,
    pub winner: Option<Side>,
    pub length: Option<u32>,
    /// The moves of perfect play: the winner's fastest win against the loser's
    /// longest defence, ties to the first in the legal moves' order.
    pub moves: Vec<String>,
    /// Whether the line reaches the end of the game; false when a position on it was
    /// not known within the request's budget (the line stops there).
    pub complete: bool,
}

/// `GET /api/v1/results`: the boards of the results directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsAnswer {
    pub results: Vec<BoardResult>,
}

/// One board's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardResult {
    pub board: String,
    /// The start position.
    pub position: String,
    pub winner: Option<Side>,
    /// "first" or "second" player, when solved.
    pub winner_order: Option<String>,
    pub length: Option<u32>,
    pub nodes: u64,
    pub seconds: f64,
    /// Whether the result came from a campaign.
    pub campaign: bool,
}

/// An error's answer (HTTP 400 or 404).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorAnswer {
    pub error: String,
}
