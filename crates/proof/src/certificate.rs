//! What a certificate claims and the proof it holds.

use breakthrough_engine::{Color, Position};

use crate::claim::Claim;
use crate::encoding::Encoding;
use crate::nodes::NodeWriter;

/// A proof that `winner` wins from `root` (or, with a bounded [`Claim`], wins within
/// or holds out a number of plies), as the node stream of the file format.
#[derive(Clone, PartialEq, Eq)]
pub struct Certificate {
    pub(crate) root: Position,
    /// The claim's side: the winner, or the side that holds out.
    pub(crate) winner: Color,
    pub(crate) claim: Claim,
    pub(crate) encoding: Encoding,
    /// Positions expanded in the stream (finished games are not counted).
    pub(crate) positions: u64,
    /// The uncompressed node stream (see [`format`](mod@crate::format)).
    pub(crate) stream: Vec<u8>,
}

impl std::fmt::Debug for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Certificate({} {} {:?} {:?}, {} positions, {} stream bytes)",
            self.root,
            self.winner,
            self.claim,
            self.encoding,
            self.positions,
            self.stream.len()
        )
    }
}

impl Certificate {
    /// The certificate whose node stream `nodes` wrote: a proof of `claim` about
    /// `winner` at `root` (the writer must have been made for the same claim).
    pub fn new(root: Position, winner: Color, claim: Claim, nodes: NodeWriter) -> Certificate {
        debug_assert_eq!(nodes.given_tag, claim == Claim::WinsGiven);
        Certificate {
            root,
            winner,
            claim,
            encoding: nodes.encoding,
            positions: nodes.expanded,
            stream: nodes.bytes,
        }
    }

    /// The position proven.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// The side claimed to win (or, for [`Claim::HoldsOut`], to hold out).
    pub fn winner(&self) -> Color {
        self.winner
    }

    /// What the certificate claims of its side.
    pub fn claim(&self) -> Claim {
        self.claim
    }

    /// How its node stream is spelled.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Positions the proof expands.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The uncompressed node stream (see [`format`](mod@crate::format)), read-only:
    /// for tools that measure a proof's bytes; only [`Certificate::verify`] says
    /// whether it proves anything.
    pub fn stream(&self) -> &[u8] {
        &self.stream
    }

    /// The same proof claiming the other side wins: for tests that a false claim fails.
    #[cfg(any(test, feature = "testing"))]
    pub fn with_claimed_winner(&self, winner: Color) -> Certificate {
        Certificate {
            winner,
            ..self.clone()
        }
    }

    /// The same proof with another claim: for tests that a false bound fails.
    #[cfg(any(test, feature = "testing"))]
    pub fn with_claim(&self, claim: Claim) -> Certificate {
        Certificate {
            claim,
            ..self.clone()
        }
    }
}
