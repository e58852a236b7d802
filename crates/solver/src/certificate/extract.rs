//! Extraction: writes the winner's strategy out of a finished search, move by move.
//!
//! At the winner's positions it picks, in this order, a move that reaches the goal,
//! a move into a position the certificate already proves (a transposition costs a
//! few bytes), or the move df-pn proves, searching again over the same table when
//! the table has lost the proof. At the loser's positions it takes every legal move,
//! including those the endgame knowledge skipped (they lose to a win in one).
//!
//! A bounded claim ([`Claim::WinsWithin`], [`Claim::HoldsOut`]) is written the same
//! way, each position searched with the bounded question for the plies left; a
//! position already written is referred to only where its proof covers the plies
//! left (a proof of a win no longer than them, or one that holds out at least as
//! long), and written again otherwise.

use breakthrough_engine::{Color, Move, Position, Step};
use hashbrown::HashMap;

use super::format::{replies_in_order, NodeWriter};
use super::{Certificate, Claim};
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
    #[error("internal error: the search proved a length of {0} plies, the proof is longer")]
    TooLong(u32),
}

/// A certificate and the principal variation read from it.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The winner's strategy: a win ([`Claim::Wins`]), or for an exact length `L` a
    /// win within `L` plies.
    pub certificate: Certificate,
    /// For an exact length `L > 0`: the loser's strategy that holds out `L - 1` plies.
    pub hold: Option<Certificate>,
    /// The winner's moves and the loser's longest-resisting replies, to the end; for
    /// an exact length, perfect play (see [`Proof::is_perfect_play`]).
    pub principal_variation: Vec<Move>,
    /// Length of the longest game the proof allows, in plies.
    pub height: u32,
    /// Nodes searched again because the table had lost them.
    pub search_nodes: u64,
    /// Wall-clock seconds of the extraction.
    pub seconds: f64,
}

impl Proof {
    /// Whether this proves an exact length, so that its principal variation is
    /// perfect play (the fastest win against the longest defence), not just the
    /// line of one winning strategy.
    pub fn is_perfect_play(&self) -> bool {
        matches!(self.certificate.claim(), Claim::WinsWithin(_))
    }

    /// The certificate's parts: the winner's, then the loser's if there is one.
    pub fn parts(&self) -> Vec<Certificate> {
        std::iter::once(&self.certificate)
            .chain(&self.hold)
            .cloned()
            .collect()
    }

    /// Positions expanded in all parts.
    pub fn positions(&self) -> u64 {
        self.certificate.positions() + self.hold.as_ref().map_or(0, Certificate::positions)
    }

    /// The file's bytes: version 1 for a plain win, version 2 with its parts for a
    /// length (see [`crate::certificate`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.certificate.claim() == Claim::Wins && self.hold.is_none() {
            self.certificate.to_bytes()
        } else {
            super::write_parts(&self.parts())
        }
    }

    /// The file format's version.
    pub fn format_version(&self) -> u16 {
        if self.certificate.claim() == Claim::Wins && self.hold.is_none() {
            1
        } else {
            2
        }
    }
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

/// What the certificate holds of an expanded position.
#[derive(Clone, Copy)]
struct Planned {
    /// The claim's side's move, or the opponent's longest-resisting reply.
    step: Step,
    /// The longest game below it in the certificate.
    height: u32,
    /// The plies left to the bound where it was written (0 for [`Claim::Wins`]).
    left: u32,
}

/// The positions a certificate expands and its move at each: what an extraction
/// wrote, to read lines back from.
#[derive(Default)]
pub(crate) struct Strategy {
    ids: HashMap<Exact, u64>,
    plan: Vec<Planned>,
}

impl Strategy {
    /// The longest game of the proof from a position it expands (0 for others).
    pub fn height(&self, position: &Position) -> u32 {
        self.ids
            .get(&exact(position))
            .map_or(0, |&id| self.plan[id as usize].height)
    }

    /// The move the certificate plays at a position it expands: the claim's side's
    /// move, or the opponent's longest-resisting reply.
    pub fn step(&self, position: &Position) -> Option<Step> {
        self.ids
            .get(&exact(position))
            .map(|&id| self.plan[id as usize].step)
    }
}

/// The line from `root` whose moves `choose` picks, to the end of the game or
/// until it picks none.
pub(crate) fn line(root: &Position, choose: impl Fn(&Position) -> Option<Step>) -> Vec<Move> {
    let mut line = Vec::new();
    let mut position = *root;
    while position.winner().is_none() {
        let Some(step) = choose(&position) else {
            break;
        };
        line.push(position.to_move_text(step));
        position = position.play_step(step);
    }
    line
}

struct Extractor<'s, 'a> {
    search: &'s mut Dfpn<'a>,
    /// The claim's side.
    winner: Color,
    claim: Claim,
    ids: HashMap<Exact, u64>,
    plan: Vec<Planned>,
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
    let (certificate, strategy) = write_proof(search, root, winner, Claim::Wins)?;
    Ok(Proof {
        certificate,
        hold: None,
        principal_variation: line(root, |position| strategy.step(position)),
        height: strategy.height(root),
        search_nodes: search.budget.nodes() - nodes_before,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Writes the proof of `claim` about `winner` at `root`, which `search` proves (its
/// table holds the proof, or what it has lost is searched again).
pub(crate) fn write_proof(
    search: &mut Dfpn<'_>,
    root: &Position,
    winner: Color,
    claim: Claim,
) -> Result<(Certificate, Strategy), ExtractError> {
    let mut extractor = Extractor {
        search,
        winner,
        claim,
        ids: HashMap::new(),
        plan: Vec::new(),
        writer: NodeWriter::default(),
    };
    if root.winner().is_none() {
        let height = extractor.node(root, claim.plies().unwrap_or(0))?;
        if let Claim::WinsWithin(bound) = claim {
            if height > bound {
                return Err(ExtractError::TooLong(bound));
            }
        }
    }
    let certificate = Certificate::new(*root, winner, claim, extractor.writer);
    let strategy = Strategy {
        ids: extractor.ids,
        plan: extractor.plan,
    };
    Ok((certificate, strategy))
}

impl Extractor<'_, '_> {
    /// Whether the position written as `id` proves what a position `left` plies from
    /// the bound needs.
    fn covers(&self, id: u64, left: u32) -> bool {
        let planned = self.plan[id as usize];
        match self.claim {
            Claim::Wins | Claim::WinsGiven => true,
            Claim::WinsWithin(_) => planned.height <= left,
            Claim::HoldsOut(_) => planned.left >= left,
        }
    }

    /// The table key of the question at a position `left` plies from the bound.
    fn key(&self, position: &Position, left: u32) -> Key {
        match self.claim {
            Claim::Wins | Claim::WinsGiven => Key::of(position),
            Claim::WinsWithin(_) => Key::within(position, self.winner, left),
            Claim::HoldsOut(_) => Key::within(position, self.winner.opponent(), left),
        }
    }

    /// Writes the proof of an unfinished position `left` plies from the bound;
    /// returns its height.
    fn node(&mut self, position: &Position, left: u32) -> Result<u32, ExtractError> {
        if matches!(self.claim, Claim::HoldsOut(_)) && left == 0 {
            return Ok(0);
        }
        let identity = exact(position);
        if let Some(&id) = self.ids.get(&identity) {
            if self.covers(id, left) {
                self.writer.refer(id);
                return Ok(self.plan[id as usize].height);
            }
        }
        let id = self.writer.expand();
        self.ids.insert(identity, id);
        self.plan.push(Planned {
            step: Step { from: 0, to: 0 },
            height: 0,
            left,
        });
        let (step, height) = if position.to_move() == self.winner {
            let step = self.winning_move(position, left)?;
            self.writer.winning_move(step);
            let next = position.play_step(step);
            let height = match next.winner() {
                Some(_) => 1,
                None => 1 + self.node(&next, left.saturating_sub(1))?,
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
                let height = 1 + self.node(&next, left.saturating_sub(1))?;
                if height > longest.1 {
                    longest = (step, height);
                }
            }
            longest
        };
        self.plan[id as usize] = Planned { step, height, left };
        Ok(height)
    }

    /// A move that keeps the claim, preferring the cheapest to prove.
    fn winning_move(&mut self, position: &Position, left: u32) -> Result<Step, ExtractError> {
        if let Some(step) = move_to_goal(position) {
            return Ok(step);
        }
        match self.claim {
            // The opponent cannot win on our move: any move holds out the last ply.
            Claim::HoldsOut(_) if left == 1 => return Ok(position.steps()[0]),
            Claim::WinsWithin(bound) if left == 0 => return Err(ExtractError::TooLong(bound)),
            _ => {}
        }
        let after = left.saturating_sub(1);
        if let Some(step) = position.steps().into_iter().find(|&step| {
            self.ids
                .get(&exact(&position.play_step(step)))
                .is_some_and(|&id| self.covers(id, after))
        }) {
            return Ok(step);
        }
        let key = self.key(position, left);
        // Depth 1 keeps the root's reported numbers those of the solve.
        match self
            .search
            .mid(1, position, key, key.hash(), Pn::INF, Pn::INF, Seen::Never)?
        {
            (phi, _, Some(step)) if phi == Pn::ZERO => Ok(step),
            // A question decided without a move: the plies are used up.
            _ => Err(ExtractError::NoWinningMove(position.to_string())),
        }
    }
}
