//! What `breakthrough verify --json` prints: whether a certificate file or a
//! campaign's certificate directory holds, and its figures.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::proof::Claim;
use crate::terms::Side;

/// The check of a certificate by `verify`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerifyResult {
    /// Whether the proof holds (exit code 0); if not, `error` says where it fails
    /// (exit code 4).
    pub valid: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The file's bytes, or all the files' of a campaign's certificate (absent for
    /// a campaign's certificate that does not hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Seconds the check took (absent for a certificate that does not hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// The one part of a plain certificate (also in `parts`), or a campaign's top
    /// proof, with its figures at the top level (absent for a file of several
    /// parts).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<VerifiedPart>,
    /// A certificate file's parts in order: one for `solve --proof`, two for a
    /// length certificate (none for a campaign's directory, or a certificate that
    /// does not hold).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<VerifiedPart>,
    /// The exact length in plies that a length certificate's two parts prove
    /// together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// A campaign's certificate directory: its parts, checked after the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignCheck>,
}

/// One proof checked: what it claims of which position, and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerifiedPart {
    pub board: String,
    /// The root, in the position notation of RULES.md.
    pub position: String,
    /// The side whose strategy the proof is (the winner, or for "holds out" the
    /// side that holds out).
    pub winner: Side,
    pub claim: Claim,
    /// Positions the proof takes as proven elsewhere (claim `wins_given` only).
    #[serde(default)]
    pub given: u64,
    /// Positions checked: `winner_positions` + `loser_positions`.
    pub positions: u64,
    /// Positions where the winner moves (one move each).
    pub winner_positions: u64,
    /// Positions where the other side moves (every legal move answered).
    pub loser_positions: u64,
    /// The other side's moves, all told.
    pub loser_replies: u64,
    /// Moves to a position the proof reached before.
    pub transpositions: u64,
    /// Moves that end the game, won by the winner.
    pub finished_games: u64,
    /// Positions marked settled, each decided by the verifier's own search.
    pub settled: u64,
    /// The most plies that search may take for a mark.
    pub settle_plies: u32,
    /// The longest game the proof allows, in plies.
    pub height: u32,
    /// Positions by the ply at which the proof first reaches them.
    pub depth_histogram: Vec<u64>,
}

/// What `verify` checked of a campaign's certificate beyond its top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignCheck {
    /// Part files checked.
    pub parts: u64,
    /// Positions checked in all the parts.
    pub part_positions: u64,
    /// The largest part's positions.
    pub largest_part_positions: u64,
    /// Positions the top takes as proven by the parts.
    pub given: u64,
    /// Parts that take other parts' positions as proven.
    pub parts_taking_parts_as_given: u64,
}

impl VerifyResult {
    /// The result of a certificate that does not hold.
    pub fn rejected(error: String, bytes: Option<u64>) -> VerifyResult {
        VerifyResult {
            valid: false,
            error: Some(error),
            bytes,
            seconds: None,
            proof: None,
            parts: Vec::new(),
            length: None,
            campaign: None,
        }
    }

    /// Reads a result from its JSON.
    pub fn from_json(text: &str) -> Result<VerifyResult, serde_json::Error> {
        serde_json::from_str(text)
    }
}
