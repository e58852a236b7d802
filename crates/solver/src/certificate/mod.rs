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
//! - [`format`] writes and reads the file (versioned, compressed, checksummed).
//! - `verify` checks it, using only `breakthrough_engine`.

pub(crate) mod extract;
mod format;
#[cfg(test)]
mod tests;
mod verify;

use breakthrough_engine::{Color, Position};

pub use format::FormatError;
pub use verify::{VerifyError, VerifyReport};

/// A proof that `winner` wins from `root`, as the node stream of the file format.
#[derive(Clone, PartialEq, Eq)]
pub struct Certificate {
    root: Position,
    winner: Color,
    /// Positions expanded in the stream (finished games are not counted).
    positions: u64,
    /// The uncompressed node stream (see [`format`]).
    stream: Vec<u8>,
}

impl std::fmt::Debug for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Certificate({} {} wins, {} positions, {} stream bytes)",
            self.root,
            self.winner,
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

    /// The side claimed to win.
    pub fn winner(&self) -> Color {
        self.winner
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
}
