//! A campaign's figures, as `campaign status --json` prints them and its result
//! and the results directory's `<board>-campaign.json` hold them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::numbers::ProofNumber;
use crate::stats::Sample;
use crate::terms::{Outcome, Status};

/// Where a campaign stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignStatus {
    pub board: String,
    pub position: String,
    pub status: Status,
    pub runs: Vec<Run>,
    /// Restores from a snapshot (`campaign restore`), which lose the proofs of the
    /// DAG's solved leaves.
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
    /// What the DAG has settled: measures of progress that grow as the campaign
    /// closes in, where the root's numbers rise as the search learns how hard the
    /// position is (absent in files written before it was reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<CampaignProgress>,
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
    /// The longest race win its jobs looked for (0: race rules off); absent for
    /// runs before each run's settings were recorded (the campaign's, then fixed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race_moves: Option<u64>,
    /// Each job's node budget; absent as `race_moves` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_nodes: Option<u64>,
    /// Whether its jobs settled leaves without writing their proofs; absent as
    /// `race_moves` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defer_proofs: Option<bool>,
}

/// A campaign made again from its snapshot: the DAG kept, its solved leaves without
/// their proofs. Restores before `kept` was recorded opened them all again, to be
/// proven again; since, they stay solved (unproven), and those the root's proof
/// takes as given are proven again once the root is solved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RestoreRecord {
    /// Runs before the restore.
    pub after_runs: u64,
    /// Solved leaves of the DAG opened again.
    pub reopened: u64,
    /// Solved leaves of the DAG kept solved, unproven.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kept: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a campaign's DAG has settled, from the root down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CampaignProgress {
    /// The root's moves, in the DAG's order, each with its outcome for the side
    /// playing it.
    pub first_moves: Vec<FirstMove>,
    /// The DAG by depth (plies from the root; a position reached by lines of several
    /// lengths counts at the shortest): its positions and how many are solved, from
    /// depth 0 (the root) to the deepest.
    pub depths: Vec<DepthCount>,
    /// The proofs of the positions solved so far (the certificate's parts, on disk;
    /// `campaign status` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<PartSizes>,
    /// The same over the campaign's time, a sample every 20 s (thinned to every
    /// other past 2,000), from the first run that recorded it (version 3 of the
    /// checkpoint) on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub course: Vec<ProgressSample>,
}

/// What a campaign's DAG had settled at a moment (time and nodes over all runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProgressSample {
    pub seconds: f64,
    pub nodes: u64,
    /// Positions in the store.
    pub stored: u64,
    /// The root's moves proven to win, and to lose, for the side playing them.
    pub first_won: u64,
    pub first_lost: u64,
    /// The DAG's positions at each depth from the root (index 0, the root), at
    /// most 8 plies down, and how many of them are solved.
    pub positions: Vec<u64>,
    pub solved: Vec<u64>,
}

/// One of the root's moves and where it stands, seen from the side playing it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FirstMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub outcome: Outcome,
    /// The effort left to prove the move wins (0 when it does).
    pub proof: ProofNumber,
    /// The effort left to prove it loses (0 when it does).
    pub disproof: ProofNumber,
}

/// The DAG's positions at one depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DepthCount {
    pub depth: u32,
    pub positions: u64,
    pub solved: u64,
}

/// The sizes of the certificate parts written so far, one a solved position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PartSizes {
    pub count: u64,
    pub bytes: u64,
    pub median_bytes: u64,
    /// The 99th percentile.
    pub p99_bytes: u64,
    pub max_bytes: u64,
}

/// The master's DAG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DagCounts {
    pub nodes: u64,
    pub expanded: u64,
    pub leaves: u64,
    pub solved: u64,
    /// Of the solved leaves, those kept by a restore without their proofs (proven
    /// again if the root's proof takes them as given).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unproven: u64,
    /// Of those, the ones the root's proof takes as given, once the root is
    /// solved: what is left to prove before the certificate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unproven_given: Option<u64>,
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
