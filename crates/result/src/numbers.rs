//! Proof numbers as results write them: a count, or "inf".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A proof or disproof number: finite, or infinite (written "inf").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ProofNumber {
    Finite(u64),
    Infinite(Infinity),
}

/// The one infinite proof number, written "inf".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Infinity {
    #[serde(rename = "inf")]
    Inf,
}

impl ProofNumber {
    pub const INFINITE: ProofNumber = ProofNumber::Infinite(Infinity::Inf);

    /// The number, or `None` for infinity.
    pub fn finite(self) -> Option<u64> {
        match self {
            ProofNumber::Finite(n) => Some(n),
            ProofNumber::Infinite(_) => None,
        }
    }
}

impl std::fmt::Display for ProofNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProofNumber::Finite(n) => write!(f, "{n}"),
            ProofNumber::Infinite(_) => f.write_str("inf"),
        }
    }
}
