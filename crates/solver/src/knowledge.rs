//! Cheap exact endgame knowledge, applied before a position is searched.
//!
//! A piece one step from its goal rank always has a move to the goal: the board is
//! at least 2 wide, so it has at least one diagonal step, and its target is empty or
//! an enemy piece (a friendly piece on the goal rank would have ended the game
//! already). So:
//! - the side to move with such a piece wins at once;
//! - otherwise each such enemy piece must be captured at once: two of them lose,
//!   and with one, only the captures of that piece are worth searching.

use breakthrough_engine::{Bitboard, Color, Position, Step};

/// What the knowledge says of a position, from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The game is over and the side to move has lost.
    GameOver,
    /// A piece one step from the goal: the side to move wins with its next move.
    WinInOne,
    /// Two enemy pieces one step from their goal: only one can be taken.
    DoubleThreat,
    /// One enemy piece one step from its goal that nothing can capture.
    UnstoppableThreat,
    /// One enemy piece one step from its goal: only capturing it (on bit index
    /// `target`, with one of `captures` moves) can save the side to move.
    MustCapture { target: u32, captures: u32 },
    /// Nothing decided: search every move.
    Open,
}

impl Verdict {
    /// The proven outcome for the side to move, if the verdict decides the game.
    pub fn side_to_move_wins(self) -> Option<bool> {
        match self {
            Verdict::WinInOne => Some(true),
            Verdict::GameOver | Verdict::DoubleThreat | Verdict::UnstoppableThreat => Some(false),
            Verdict::MustCapture { .. } | Verdict::Open => None,
        }
    }

    /// Whether a move is worth searching: under a threat only its captures are.
    #[inline]
    pub fn allows(self, step: Step) -> bool {
        match self {
            Verdict::MustCapture { target, .. } => u32::from(step.to) == target,
            _ => true,
        }
    }
}

/// The rank one step before `colour`'s goal.
fn pre_goal_rank(position: &Position, colour: Color) -> Bitboard {
    let board = position.board();
    match colour {
        Color::White => board.rank(board.height() - 2),
        Color::Black => board.rank(1),
    }
}

/// Applies the knowledge to a position.
#[inline]
pub fn classify(position: &Position) -> Verdict {
    if position.winner().is_some() {
        return Verdict::GameOver;
    }
    let us = position.to_move();
    if !(position.pieces(us) & pre_goal_rank(position, us)).is_empty() {
        return Verdict::WinInOne;
    }
    let threats = position.pieces(us.opponent()) & pre_goal_rank(position, us.opponent());
    match threats.len() {
        0 => Verdict::Open,
        1 => {
            let target = threats.first().unwrap_or(0);
            let mut captures = 0;
            position.for_each_step(|step| captures += u32::from(u32::from(step.to) == target));
            if captures > 0 {
                Verdict::MustCapture { target, captures }
            } else {
                Verdict::UnstoppableThreat
            }
        }
        _ => Verdict::DoubleThreat,
    }
}

/// How many positions each kind of knowledge decided or narrowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnowledgeStats {
    pub game_over: u64,
    pub win_in_one: u64,
    pub double_threat: u64,
    pub unstoppable_threat: u64,
    pub must_capture: u64,
}

impl KnowledgeStats {
    pub(crate) fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::GameOver => self.game_over += 1,
            Verdict::WinInOne => self.win_in_one += 1,
            Verdict::DoubleThreat => self.double_threat += 1,
            Verdict::UnstoppableThreat => self.unstoppable_threat += 1,
            Verdict::MustCapture { .. } => self.must_capture += 1,
            Verdict::Open => {}
        }
    }
}
