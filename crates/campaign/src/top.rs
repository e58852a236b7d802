//! The top of a proof kept in several files: a campaign's master proof, whose leaves
//! are positions that other certificates (its jobs') prove.
//!
//! The top is a certificate with the claim [`Claim::WinsGiven`]: the winner's
//! strategy down to positions marked "proven elsewhere". The verifier lists those
//! positions ([`breakthrough_proof::VerifyReport::given`]); the claim holds when
//! each is proven won by the same side by a certificate of its own (of the position
//! or of its mirror image: the rules are the same seen in a mirror).

use breakthrough_engine::{Color, Position, Step};
use breakthrough_proof::{replies_in_order, Certificate, Claim, NodeWriter};
use hashbrown::HashMap;

/// What the top does at a position the winner's strategy reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopNode {
    /// Proven elsewhere: another certificate proves the winner wins here.
    Given,
    /// The winner, to move, plays this move.
    Move(Step),
    /// The loser, to move: every legal reply follows.
    Replies,
}

/// Why the top could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopError {
    #[error("at {0}, the top has no move for the winner")]
    NoMove(String),
    #[error("at {0}, the top plays {1}, which is not a legal move there")]
    IllegalMove(String, String),
    #[error("at {0}, the loser's reply {1} wins the game")]
    LoserWins(String, String),
    #[error("at {0}, the winner's move {1} wins the game for the loser")]
    WrongSide(String, String),
    #[error("at {0}, the loser is to move, yet the top plays {1}")]
    LoserMove(String, String),
}

/// Writes the top of a proof that `winner` wins from `root`: `decide` says what the
/// top does at each unfinished position it reaches (a position reached again is
/// referred back to). Fails where `decide` gives the winner no legal move, or gives
/// the loser's positions a move.
pub fn write_top(
    root: &Position,
    winner: Color,
    decide: &mut dyn FnMut(&Position) -> TopNode,
) -> Result<Certificate, TopError> {
    let mut writer = Writer {
        winner,
        decide,
        ids: HashMap::new(),
        nodes: NodeWriter::new(Claim::WinsGiven),
    };
    if root.winner().is_none() {
        writer.node(root)?;
    }
    Ok(Certificate::new(
        *root,
        winner,
        Claim::WinsGiven,
        writer.nodes,
    ))
}

struct Writer<'d> {
    winner: Color,
    decide: &'d mut dyn FnMut(&Position) -> TopNode,
    /// Expanded positions, exactly (the verifier knows no symmetry in references).
    ids: HashMap<(u64, u64, bool), u64>,
    nodes: NodeWriter,
}

fn identity(position: &Position) -> (u64, u64, bool) {
    (
        position.pieces(Color::White).0,
        position.pieces(Color::Black).0,
        position.to_move() == Color::Black,
    )
}

impl Writer<'_> {
    fn node(&mut self, position: &Position) -> Result<(), TopError> {
        if let Some(&id) = self.ids.get(&identity(position)) {
            self.nodes.refer(id);
            return Ok(());
        }
        let mover_is_winner = position.to_move() == self.winner;
        match ((self.decide)(position), mover_is_winner) {
            (TopNode::Given, _) => {
                self.nodes.given();
                Ok(())
            }
            (TopNode::Move(step), true) => self.winning_move(position, step),
            (TopNode::Replies, false) => self.replies(position),
            (_, true) => Err(TopError::NoMove(position.to_string())),
            (TopNode::Move(step), false) => Err(TopError::LoserMove(
                position.to_string(),
                position.to_move_text(step).to_string(),
            )),
        }
    }

    /// Expands a position where the winner plays `step`, and what follows.
    fn winning_move(&mut self, position: &Position, step: Step) -> Result<(), TopError> {
        let text = || position.to_move_text(step).to_string();
        if !position.steps().contains(&step) {
            return Err(TopError::IllegalMove(position.to_string(), text()));
        }
        let id = self.nodes.expand();
        self.ids.insert(identity(position), id);
        self.nodes.winning_move(position, step);
        let next = position.play_step(step);
        match next.winner() {
            Some(side) if side == self.winner => Ok(()),
            Some(_) => Err(TopError::WrongSide(position.to_string(), text())),
            None => self.node(&next),
        }
    }

    /// Expands a position of the loser, and what follows each of its replies.
    fn replies(&mut self, position: &Position) -> Result<(), TopError> {
        let id = self.nodes.expand();
        self.ids.insert(identity(position), id);
        let replies = replies_in_order(position);
        self.nodes.replies(replies.len());
        for step in replies {
            let next = position.play_step(step);
            if next.winner().is_some() {
                let text = position.to_move_text(step).to_string();
                return Err(TopError::LoserWins(position.to_string(), text));
            }
            self.node(&next)?;
        }
        Ok(())
    }
}
