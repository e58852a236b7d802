//! A campaign's figures, as `campaign status --json` prints them and its result
//! and the results directory's `<board>-campaign.json` hold them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::numbers::ProofNumber;
use crate::stats::Sample;
use crate::terms::Status;

/// Where a campaign stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignStatus {
    pub board: String,
    pub position: String,
    pub status: Status,
    pub runs: Vec<Run>,
    /// Restores from a snapshot (`campaign restore`), after which the DAG's solved
    /// leaves are proven again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restores: Vec<RestoreRecord>,
    /// All runs together.
    pub seconds: f64,
    pub nodes: u64,
    pub jobs: u64,
    pub jobs_in_flight: u64,
    /// Solved positions in the store.
    pub stored: u64,
    pub dag: DagCounts,
    pub root_proof: ProofNumber,
    pub root_disproof: ProofNumber,
    pub settings: CampaignSettings,
    /// The root's numbers over the campaign's time.
    pub course: Vec<Sample>,
    /// The picture `campaign status` writes beside the campaign.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// Bytes on disk (`campaign status` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_bytes: Option<u64>,
}

/// One run of a campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Run {
    pub started_unix: u64,
    pub seconds: f64,
    pub nodes: u64,
    pub jobs: u64,
    pub threads: u64,
    pub table_mb: u64,
    /// How it ended.
    pub end: String,
    /// Threads per job (`--team`); absent for runs before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<u64>,
}

/// A campaign made again from its snapshot: the DAG kept, its solved leaves opened
/// again to be proven again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RestoreRecord {
    /// Runs before the restore.
    pub after_runs: u64,
    /// Solved leaves of the DAG opened again.
    pub reopened: u64,
}

/// The master's DAG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DagCounts {
    pub nodes: u64,
    pub expanded: u64,
    pub leaves: u64,
    pub solved: u64,
    pub bytes: u64,
}

/// What is fixed when a campaign starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignSettings {
    /// Whether the race rules are on (`patterns` in older files).
    #[serde(alias = "patterns")]
    pub race_rules: bool,
    pub race_moves: u32,
    pub epsilon: f64,
    pub job_nodes: u64,
}
