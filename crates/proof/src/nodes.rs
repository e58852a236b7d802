//! The writer of a node stream (see [`format`](mod@crate::format)): what every prover,
//! the solver's extraction and a campaign's top alike, writes a proof with.

use breakthrough_engine::{Position, Step};

use crate::claim::Claim;
use crate::encoding::Encoding;
use crate::settle::DEFAULT_SETTLE_PLIES;
use crate::varint;

/// Writes a node stream, one position at a time, depth first.
#[derive(Debug)]
pub struct NodeWriter {
    pub(crate) bytes: Vec<u8>,
    /// Positions expanded so far.
    pub(crate) expanded: u64,
    pub(crate) encoding: Encoding,
    /// The smallest tag of a reference back (the tags below it mean something else).
    first_reference: u64,
    /// Whether the claim is [`Claim::WinsGiven`], with a tag for "proven elsewhere".
    pub(crate) given_tag: bool,
}

impl NodeWriter {
    /// An empty stream for a proof of `claim` (whose tags depend on it), spelled as
    /// version 3 with marks of up to [`DEFAULT_SETTLE_PLIES`] plies allowed.
    pub fn new(claim: Claim) -> NodeWriter {
        NodeWriter::with_encoding(
            claim,
            Encoding::Indexed {
                settle_plies: DEFAULT_SETTLE_PLIES as u8,
            },
        )
    }

    /// An empty stream for a proof of `claim`, spelled as `encoding` says.
    ///
    /// # Panics
    /// If `encoding` leaves more plies to the verifier than the format allows
    /// ([`crate::MAX_SETTLE_PLIES`]).
    pub fn with_encoding(claim: Claim, encoding: Encoding) -> NodeWriter {
        assert!(
            encoding.settle_plies() <= crate::MAX_SETTLE_PLIES,
            "{encoding:?}: more plies to settle than the format allows"
        );
        let given_tag = claim == Claim::WinsGiven;
        let settled_tag = matches!(encoding, Encoding::Indexed { .. });
        NodeWriter {
            bytes: Vec::new(),
            expanded: 0,
            encoding,
            first_reference: 1 + u64::from(given_tag) + u64::from(settled_tag),
            given_tag,
        }
    }

    /// How the stream is spelled.
    pub fn encoding(&self) -> Encoding {
        self.encoding
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
        let tag = self.expanded - id - 1 + self.first_reference;
        varint::write(&mut self.bytes, tag);
    }

    /// A position proven elsewhere (only for [`Claim::WinsGiven`]).
    pub fn given(&mut self) {
        debug_assert!(self.given_tag);
        self.bytes.push(self.first_reference as u8 - 1);
    }

    /// A position the verifier settles by its own search (only for version 3; see
    /// [`crate::settle`]): the prover must have checked that the mark holds.
    pub fn settled(&mut self) {
        debug_assert!(matches!(self.encoding, Encoding::Indexed { .. }));
        self.bytes.push(1);
    }

    /// The winner's move at `position`, the position just expanded.
    pub fn winning_move(&mut self, position: &Position, step: Step) {
        match self.encoding {
            Encoding::Squares => self.bytes.extend([step.from, step.to]),
            Encoding::Indexed { .. } => {
                let index = replies_in_order(position)
                    .iter()
                    .position(|&legal| legal == step)
                    .expect("the winner's move is legal");
                varint::write(&mut self.bytes, index as u64);
            }
        }
    }

    /// The number of replies of the loser at the position just expanded; the nodes
    /// after each reply follow, in the order of [`replies_in_order`].
    pub fn replies(&mut self, count: usize) {
        varint::write(&mut self.bytes, count as u64);
    }
}

/// Every legal move in the format's order: by (from-square, to-square) bit index,
/// so that a certificate stays valid whatever order an engine generates moves in.
pub fn replies_in_order(position: &Position) -> Vec<Step> {
    let mut steps = position.steps();
    steps.sort_unstable_by_key(|step| (step.from, step.to));
    steps
}
