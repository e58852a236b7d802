//! The words a result is written in: sides, statuses, outcomes, kinds of line.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// "white" or "black", as results write it.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// "first" for White, "second" for Black: who wins from the start position.
    pub fn order(self) -> &'static str {
        match self {
            Side::White => "first",
            Side::Black => "second",
        }
    }
}

/// Whether the winner was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unknown,
}

/// What kind of line `principal_variation` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// The fastest win against the longest defence (the length is known).
    PerfectPlay,
    /// The proof's winning moves and the loser's longest resistance against them.
    ProofLine,
}

/// A root move's outcome for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Loss,
    Unproven,
}
