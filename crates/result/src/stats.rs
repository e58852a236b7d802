//! A result's figures: nodes, time, table, race rules, and the course of the search.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::numbers::ProofNumber;

/// What the search cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Stats {
    pub nodes: u64,
    /// The search's seconds.
    pub seconds: f64,
    /// The whole process until the result was ready: start-up, the table, the search
    /// and the proof's extraction.
    pub wall_seconds: f64,
    pub nodes_per_second: f64,
    pub threads: u64,
    /// A solve's own figures (a campaign's result has none).
    #[serde(flatten)]
    pub search: Option<SearchStats>,
    pub root_proof: ProofNumber,
    pub root_disproof: ProofNumber,
    /// Peak resident memory of the process, where the system tells it.
    pub peak_memory_mb: Option<f64>,
    /// Root numbers against time, at most about 120 samples.
    #[serde(default)]
    pub course: Vec<Sample>,
}

/// The figures of one solve that a campaign does not have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchStats {
    /// Nodes of each thread, the calling thread first.
    pub thread_nodes: Vec<u64>,
    /// Total nodes over one thread's; known only on one thread (1.0).
    pub search_overhead: Option<f64>,
    pub table: TableStats,
    pub race_rules: RaceRuleCounts,
}

/// The transposition table at the end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableStats {
    pub megabytes: u64,
    pub bytes: u64,
    pub capacity: u64,
    pub used: u64,
    /// `used` over `capacity`.
    pub fill: f64,
    pub replacements: u64,
}

/// Positions each race rule closed (or, for must_capture, narrowed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RaceRuleCounts {
    pub closed: u64,
    pub win_in_one: u64,
    pub double_threat: u64,
    pub unstoppable_threat: u64,
    pub must_capture_narrowed: u64,
    pub game_over: u64,
    /// `race_win_in_<moves>`, for the lengths that closed any.
    #[serde(flatten)]
    pub race_wins: BTreeMap<String, u64>,
}

/// One observation of the search's course.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sample {
    pub seconds: f64,
    pub nodes: u64,
    pub root_proof: ProofNumber,
    pub root_disproof: ProofNumber,
}
