//! What a result says of its certificate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::terms::Side;

/// The certificate written with a result: one file (`solve --proof`), or a
/// campaign's directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ProofSummary {
    Certificate(CertificateSummary),
    Campaign(CampaignProof),
}

impl ProofSummary {
    /// The certificate's size in bytes.
    pub fn bytes(&self) -> u64 {
        match self {
            ProofSummary::Certificate(c) => c.bytes,
            ProofSummary::Campaign(c) => c.bytes,
        }
    }

    /// Positions it holds (a campaign's: those of its top).
    pub fn positions(&self) -> u64 {
        match self {
            ProofSummary::Certificate(c) => c.positions,
            ProofSummary::Campaign(c) => c.positions,
        }
    }

    /// The file's name.
    pub fn file(&self) -> Option<&str> {
        match self {
            ProofSummary::Certificate(c) => c.file.as_deref(),
            ProofSummary::Campaign(c) => Some(&c.file),
        }
    }
}

/// A certificate file of `solve --proof`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CertificateSummary {
    /// The file's name, kept beside the result.
    pub file: Option<String>,
    pub format_version: u32,
    pub bytes: u64,
    /// SHA-256 of the file, in hexadecimal (not in older results).
    #[serde(default)]
    pub sha256: Option<String>,
    pub positions: u64,
    pub parts: Vec<PartSummary>,
    /// The longest game in it, in plies.
    pub height: u32,
    /// Nodes and seconds the extraction took.
    pub extraction_nodes: u64,
    pub extraction_seconds: f64,
}

/// One part of a certificate: whose strategy, and what it claims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PartSummary {
    pub side: Side,
    pub claim: Claim,
    pub positions: u64,
}

/// What a part of a certificate proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Claim {
    Wins,
    WinsWithin { plies: u32 },
    HoldsOut { plies: u32 },
    WinsGiven,
}

/// A campaign's certificate: a directory of a top and parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignProof {
    /// The manifest's name in the campaign's directory.
    pub file: String,
    /// Always "campaign".
    pub format: String,
    /// All its files together.
    pub bytes: u64,
    /// Positions of its top.
    pub positions: u64,
    /// Number of parts.
    pub parts: u64,
}
