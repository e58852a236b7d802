//! Extraction: writes the winner's strategy out of a finished search, move by move.
//!
//! At the winner's positions it picks, in this order, a move that reaches the goal,
//! a move into a position the certificate already proves (a transposition costs a
//! few bytes), or the move df-pn proves, searching again over the same table when
//! the table has lost the proof. At the loser's positions it takes every legal move,
//! including those the endgame knowledge skipped (they lose to a win in one).

use breakthrough_engine::{Color, Move, Position, Step};
use hashbrown::HashMap;

use super::format::{replies_in_order, NodeWriter};
use super::Certificate;
use crate::dfpn::{Dfpn, Seen};
use crate::knowledge::move_to_goal;
use crate::{Key, Pn, Stop};

/// Why no certificate came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    #[error("extracting the proof stopped: {0}")]
    Stopped(#[from] Stop),
    /// A bug: the search proved a win that the extraction cannot follow.
    #[error("internal error: no winning move found at {0}, which the search proved won")]
    NoWinningMove(String),
    #[error("internal error: at {0}, a loser's reply ends the game")]
    LoserWins(String),
}

/// A certificate and the principal variation read from it.
#[derive(Clone, Debug)]
pub struct Proof {
    pub certificate: Certificate,
    /// The winner's moves and the loser's longest-resisting replies, to the end.
    pub principal_variation: Vec<Move>,
    /// Length of the longest game the proof allows, in plies.
    pub height: u32,
    /// Nodes searched again because the table had lost them.
    pub search_nodes: u64,
    /// Wall-clock seconds of the extraction.
    pub seconds: f64,
}

/// Identity of a position (exact, not up to the mirror: the verifier knows no symmetry).
type Exact = (u64, u64, bool);

fn exact(position: &Position) -> Exact {
    (
        position.pieces(Color::White).0,
        position.pieces(Color::Black).0,
        position.to_move() == Color::Black,
    )
}

struct Extractor<'s, 'a> {
    search: &'s mut Dfpn<'a>,
    winner: Color,
    ids: HashMap<Exact, u64>,
    /// Per expanded position: the move of the principal variation, and the height.
    plan: Vec<(Step, u32)>,
    writer: NodeWriter,
}

/// Extracts a proof that `winner` wins `root`, which `search` has proven.
pub(crate) fn extract(
    search: &mut Dfpn<'_>,
    root: &Position,
    winner: Color,
) -> Result<Proof, ExtractError> {
    let nodes_before = search.budget.nodes();
    let started = std::time::Instant::now();
    let mut extractor = Extractor {
        search,
        winner,
        ids: HashMap::new(),
        plan: Vec::new(),
        writer: NodeWriter::default(),
    };
    let height = match root.winner() {
        Some(_) => 0,
        None => extractor.node(root)?,
    };
    let mut principal_variation = Vec::new();
    let mut position = *root;
    while position.winner().is_none() {
        let step = extractor.plan[extractor.ids[&exact(&position)] as usize].0;
        principal_variation.push(position.to_move_text(step));
        position = position.play_step(step);
    }
    let search_nodes = extractor.search.budget.nodes() - nodes_before;
    Ok(Proof {
        certificate: Certificate::new(*root, winner, extractor.writer),
        principal_variation,
        height,
        search_nodes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl Extractor<'_, '_> {
    /// Writes the proof of an unfinished position; returns its height.
    fn node(&mut self, position: &Position) -> Result<u32, ExtractError> {
        let identity = exact(position);
        if let Some(&id) = self.ids.get(&identity) {
            self.writer.refer(id);
            return Ok(self.plan[id as usize].1);
        }
        let id = self.writer.expand();
        self.ids.insert(identity, id);
        self.plan.push((Step { from: 0, to: 0 }, 0));
        let (step, height) = if position.to_move() == self.winner {
            let step = self.winning_move(position)?;
            self.writer.winning_move(step);
            let next = position.play_step(step);
            let height = match next.winner() {
                Some(_) => 1,
                None => 1 + self.node(&next)?,
            };
            (step, height)
        } else {
            let replies = replies_in_order(position);
            self.writer.replies(replies.len());
            let mut longest = (replies[0], 0);
            for step in replies {
                let next = position.play_step(step);
                if next.winner().is_some() {
                    return Err(ExtractError::LoserWins(position.to_string()));
                }
                let height = 1 + self.node(&next)?;
                if height > longest.1 {
                    longest = (step, height);
                }
            }
            longest
        };
        self.plan[id as usize] = (step, height);
        Ok(height)
    }

    /// A move that keeps the win, preferring the cheapest to prove.
    fn winning_move(&mut self, position: &Position) -> Result<Step, ExtractError> {
        if let Some(step) = move_to_goal(position) {
            return Ok(step);
        }
        if let Some(step) = position
            .steps()
            .into_iter()
            .find(|&step| self.ids.contains_key(&exact(&position.play_step(step))))
        {
            return Ok(step);
        }
        let key = Key::of(position);
        // Depth 1 keeps the root's reported numbers those of the solve.
        match self
            .search
            .mid(1, position, key, key.hash(), Pn::INF, Pn::INF, Seen::Never)?
        {
            (phi, _, Some(step)) if phi == Pn::ZERO => Ok(step),
            _ => Err(ExtractError::NoWinningMove(position.to_string())),
        }
    }
}
