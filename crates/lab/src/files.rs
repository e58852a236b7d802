//! The other kinds of JSON in a results directory that the lab reads: the
//! campaigns' status files, the first moves' settlements and the benchmarks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use breakthrough_result::{CampaignStatus, Outcome, Status};
use serde::{Deserialize, Serialize};

/// The campaigns' status files, `<board>-campaign.json`, in `dir`, by board.
pub fn campaigns(dir: &Path) -> anyhow::Result<Vec<(String, CampaignStatus)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(board) = name.strip_suffix("-campaign.json") else {
            continue;
        };
        let status = breakthrough_cli::results::read_campaign(&path)?;
        found.push((board.to_string(), status));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// `<board>-first-moves.json` (`scripts/first-moves.sh`): each first move settled.
#[derive(Debug, Deserialize)]
pub struct FirstMoves {
    pub moves: Vec<FirstMove>,
}

/// One first move and its outcome: "win", "loss", or anything else while open.
#[derive(Debug, Deserialize)]
pub struct FirstMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub outcome: String,
}

impl FirstMove {
    pub fn outcome(&self) -> Outcome {
        match self.outcome.as_str() {
            "win" => Outcome::Win,
            "loss" => Outcome::Loss,
            _ => Outcome::Unproven,
        }
    }
}

/// `path` read as JSON of type `T`, or an error that names the file.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not {what}", path.display()))
}

/// What `breakthrough-lab bench` writes (`--out`, `results/scaling-*.json`).
#[derive(Debug, Serialize, Deserialize)]
pub struct BenchFile {
    /// The contestants: reference, race-rules, threads or baseline.
    pub compare: String,
    pub repeat: u32,
    pub tt_mb: Option<u64>,
    /// The other build, for a comparison of builds.
    pub baseline: Option<PathBuf>,
    pub machine: String,
    /// A note added by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub solve: Vec<BenchRow>,
}

/// One contestant's runs on one board.
#[derive(Debug, Serialize, Deserialize)]
pub struct BenchRow {
    pub board: String,
    pub solver: String,
    pub threads: u32,
    /// One-thread solves run at once (`--copies`); 1 for a plain contestant.
    #[serde(default = "one")]
    pub copies: u32,
    pub program: PathBuf,
    pub flags: Vec<String>,
    pub winner: String,
    pub status: Status,
    /// Median nodes.
    pub nodes: f64,
    pub median_seconds: f64,
    pub median_wall_seconds: Option<f64>,
    pub runs: Vec<f64>,
    #[serde(default)]
    pub wall_runs: Vec<f64>,
    #[serde(default)]
    pub run_nodes: Vec<f64>,
    pub peak_memory_mb: Option<f64>,
    pub table_mb: Option<u64>,
    pub thread_nodes: Option<Vec<u64>>,
    /// With `--proof`: each run's seconds of the certificate's extraction, and their
    /// median (in the suite's total row: one figure, the sum of the cases'
    /// medians).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proof_runs: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_proof_seconds: Option<f64>,
    /// The ratios to the reference contestant, by the comparison's names
    /// (`speed_up` and `overhead`, or `x_time` and `x_nodes`); null where unsolved.
    #[serde(flatten)]
    pub ratios: BTreeMap<String, Option<f64>>,
}

fn one() -> u32 {
    1
}
