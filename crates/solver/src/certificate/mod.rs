//! Proof certificates: the winner's strategy as a file anyone can check with the
//! rules alone.
//!
//! A certificate is a graph of positions. Where the winner moves, it names one move;
//! where the loser moves, it answers every legal move. Every path ends in a finished
//! game won by the claimed side. Nothing of the search survives in it: the endgame
//! knowledge's shortcuts (a forced capture, a double threat) are spelled out as moves,
//! so [`Certificate::verify`] needs nothing but the engine's move generation.
//!
//! - [`extract`](crate::solve) builds one after a solve, in a pass of its own: a df-pn
//!   table is not a proof (entries are evicted, positions transpose), so the pass
//!   walks the strategy and re-proves whatever the table has lost.
//! - `written` is the extraction's bounded memory of the positions it has written.
//! - [`format`] writes and reads the file (versioned, compressed, checksummed).
//! - `verify` checks it, using only `breakthrough_engine`.
//! - [`top`] writes the top of a proof whose leaves other certificates prove (a
//!   campaign's), with the claim [`Claim::WinsGiven`].

pub(crate) mod extract;
mod format;
#[cfg(test)]
mod tests;
pub mod top;
mod verify;
mod written;

use breakthrough_engine::{Color, Position};

pub use format::{read_parts, write_parts, FormatError};
pub use verify::{verify_length, VerifyError, VerifyReport};

/// What a certificate proves of its side (the side with one move at each of its
/// positions; the other side answers with every legal move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The side wins: every game ends won by it.
    Wins,
    /// The side wins within this many plies: every game ends won by it, none longer.
    WinsWithin(u32),
    /// The side holds out this many plies: no game ends won by its opponent within
    /// them (each ends won by the side, or reaches the bound with the game going on).
    HoldsOut(u32),
    /// The side wins, given the positions the proof marks as proven elsewhere: the
    /// top of a campaign's proof, whose leaves other certificates prove (see
    /// [`VerifyReport::given`] and [`top`]).
    WinsGiven,
}

impl Claim {
    /// The bound in plies; `None` for [`Claim::Wins`].
    pub fn plies(self) -> Option<u32> {
        match self {
            Claim::Wins | Claim::WinsGiven => None,
            Claim::WinsWithin(plies) | Claim::HoldsOut(plies) => Some(plies),
        }
    }
}

/// A proof that `winner` wins from `root` (or, with a bounded [`Claim`], wins within
/// or holds out a number of plies), as the node stream of the file format.
#[derive(Clone, PartialEq, Eq)]
pub struct Certificate {
    root: Position,
    /// The claim's side: the winner, or the side that holds out.
    winner: Color,
    claim: Claim,
    /// Positions expanded in the stream (finished games are not counted).
    positions: u64,
    /// The uncompressed node stream (see [`format`]).
    stream: Vec<u8>,
}

impl std::fmt::Debug for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Certificate({} {} {:?}, {} positions, {} stream bytes)",
            self.root,
            self.winner,
            self.claim,
            self.positions,
            self.stream.len()
        )
    }
}

impl Certificate {
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

    /// Positions the proof expands.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The same proof claiming the other side wins: for tests that a false claim fails.
    pub fn with_claimed_winner(&self, winner: Color) -> Certificate {
        Certificate {
            winner,
            ..self.clone()
        }
    }

    /// The same proof with another claim: for tests that a false bound fails.
    pub fn with_claim(&self, claim: Claim) -> Certificate {
        Certificate {
            claim,
            ..self.clone()
        }
    }
}
