//! How a certificate's node stream is spelled: the difference between format
//! versions 1 and 2 and version 3 (see [`format`](mod@crate::format)).

/// How a node stream is spelled (see [`format`](mod@crate::format)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Versions 1 and 2: a winner's move as its two squares; no settled positions.
    Squares,
    /// Version 3: a winner's move as its index among the legal moves in the
    /// format's order, and positions marked settled, which the verifier decides by
    /// a search of at most `settle_plies` plies (see [`crate::settle`]).
    Indexed { settle_plies: u8 },
}

impl Encoding {
    /// The plies a mark may leave to the verifier's search (0: no marks).
    pub fn settle_plies(self) -> u32 {
        match self {
            Encoding::Squares => 0,
            Encoding::Indexed { settle_plies } => settle_plies.into(),
        }
    }
}
