//! What a solve reports.

use breakthrough_engine::{Color, Move, Position};

use crate::certificate::extract::{ExtractError, Proof};
use crate::length::answers::{GameLength, PartialLength};
use crate::limits::Stop;
use crate::progress::SearchStats;

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The position solved.
    pub position: Position,
    /// Who wins with best play; `None` when a limit stopped the search first.
    pub winner: Option<Color>,
    /// A move of the side to move that keeps its win; `None` when it loses or unknown.
    pub best_move: Option<Move>,
    /// Why the search stopped early, if it did.
    pub stopped: Option<Stop>,
    pub stats: SearchStats,
    /// Each legal move at the root with its outcome for the side playing it, as far
    /// as the search proved it (a won root proves one winning move, not all).
    pub root_moves: Vec<RootMove>,
    /// The exact length under perfect play, when asked for and found.
    pub length: Option<GameLength>,
    /// How far the length's questions got when a limit stopped them.
    pub partial_length: Option<PartialLength>,
    /// The certificate, when asked for and the position was solved.
    pub proof: Option<Result<Proof, ExtractError>>,
}

/// A move at the root and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// Whether the side playing it wins; `None` when the search did not prove it.
    pub wins: Option<bool>,
    /// Plies from the position to the end of the game when this move is played and
    /// both sides then play perfectly, the move counted; when asked for.
    pub length: Option<u32>,
}

impl Solution {
    /// Whether the search proved the outcome.
    pub fn is_solved(&self) -> bool {
        self.winner.is_some()
    }
}
