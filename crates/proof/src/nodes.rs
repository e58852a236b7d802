//! The writer of a node stream (see [`format`](mod@crate::format)): what every prover,
//! the solver's extraction and a campaign's top alike, writes a proof with.

use breakthrough_engine::{Position, Step};

use crate::claim::Claim;
use crate::varint;

/// Writes a node stream, one position at a time, depth first.
#[derive(Debug, Default)]
pub struct NodeWriter {
    pub(crate) bytes: Vec<u8>,
    /// Positions expanded so far.
    pub(crate) expanded: u64,
    /// Whether tag 1 means "proven elsewhere" ([`Claim::WinsGiven`]).
    pub(crate) given_tag: bool,
}

impl NodeWriter {
    /// An empty stream for a proof of `claim` (whose tags depend on it).
    pub fn new(claim: Claim) -> NodeWriter {
        NodeWriter {
            given_tag: claim == Claim::WinsGiven,
            ..NodeWriter::default()
        }
    }

    /// Positions expanded so far.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Expands a new position here; returns its number.
    pub fn expand(&mut self) -> u64 {
        self.bytes.push(0);
        self.expanded += 1;
        self.expanded - 1
    }

    /// Refers to the position numbered `id`, expanded before.
    pub fn refer(&mut self, id: u64) {
        debug_assert!(id < self.expanded);
        let tag = self.expanded - id + u64::from(self.given_tag);
        varint::write(&mut self.bytes, tag);
    }

    /// A position proven elsewhere (only for [`Claim::WinsGiven`]).
    pub fn given(&mut self) {
        debug_assert!(self.given_tag);
        self.bytes.push(1);
    }

    /// The winner's move at the position just expanded.
    pub fn winning_move(&mut self, step: Step) {
        self.bytes.extend([step.from, step.to]);
    }

    /// The number of replies of the loser at the position just expanded; the nodes
    /// after each reply follow, in the order of [`replies_in_order`].
    pub fn replies(&mut self, count: usize) {
        varint::write(&mut self.bytes, count as u64);
    }
}

/// The loser's moves in the format's order: by (from-square, to-square) bit index,
/// so that a certificate stays valid whatever order an engine generates moves in.
pub fn replies_in_order(position: &Position) -> Vec<Step> {
    let mut steps = position.steps();
    steps.sort_unstable_by_key(|step| (step.from, step.to));
    steps
}
