//! The result of one solve (or of a campaign, which writes the same).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::campaign::CampaignStatus;
use crate::proof::ProofSummary;
use crate::stats::Stats;
use crate::terms::{LineKind, Outcome, Side, Status};

/// `stopped_by` of a solve's `--out` file written before the proof's extraction
/// and left by a process that did not finish it.
pub const PROOF_UNFINISHED: &str = "proof_unfinished";

/// One solve's result: the position, who wins, how it was found and at what cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SolveResult {
    /// Board size, `WxH` (columns x rows).
    pub board: String,
    /// The solved position in the text format of docs/RULES.md.
    pub position: String,
    pub to_move: Side,
    /// Who wins with best play; null when the solve stopped before knowing.
    pub winner: Option<Side>,
    /// A move that keeps the win, when the side to move wins.
    pub best_move: Option<String>,
    pub status: Status,
    /// What stopped the solve: `node_limit`, `time_limit` or `interrupted`; or
    /// `proof_unfinished` ([`PROOF_UNFINISHED`]) in a file written before the
    /// proof's extraction, which the finished run writes again: the process ended
    /// while writing the proof.
    pub stopped_by: Option<String>,
    /// The result in words, for example "second player (black) wins".
    pub verdict: String,
    /// Each root move's outcome, where the solve settled them.
    #[serde(default)]
    pub root_moves: Vec<RootMove>,
    /// The main line, from the certificate; null without one.
    pub principal_variation: Option<Vec<String>>,
    pub principal_variation_kind: Option<LineKind>,
    /// The exact length of the game under perfect play, in plies (`--length`).
    pub length: Option<u32>,
    pub length_search: Option<LengthSearch>,
    /// The certificate written with the result.
    pub proof: Option<ProofSummary>,
    pub stats: Stats,
    pub solver: Solver,
    /// A campaign's figures (`campaign status --json`), in a campaign's result only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignStatus>,
    /// The machine in words: CPU model, logical CPUs and memory.
    pub machine: String,
}

impl SolveResult {
    /// Reads a result from JSON. Where a solve's own blocks would be (a result that
    /// is not a campaign's), they must be whole: a flattened group with a field
    /// renamed or missing would otherwise read as absent.
    pub fn from_json(text: &str) -> Result<SolveResult, serde_json::Error> {
        let result: SolveResult = serde_json::from_str(text)?;
        if result.campaign.is_none() {
            if result.stats.search.is_none() {
                return Err(serde::de::Error::custom(
                    "stats: a solve's thread_nodes, table or race_rules is missing",
                ));
            }
            if result.solver.search.is_none() {
                return Err(serde::de::Error::custom(
                    "solver: a solve's max_nodes, time_limit or length_resumed is missing",
                ));
            }
        }
        Ok(result)
    }
}

/// A root move and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RootMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub outcome: Outcome,
    /// Plies to the end of the game after it, the move counted (`--length`).
    pub length: Option<u32>,
}

/// The questions of the exact length's search ("a win within n plies?").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LengthSearch {
    /// A limit stopped it: the least length its answers allow.
    Partial(PartialLengthSearch),
    /// It found the length.
    Found(FoundLengthSearch),
}

impl LengthSearch {
    /// The answers of earlier runs (`--length-resume`) and of this one, in order.
    pub fn answers(&self) -> impl Iterator<Item = &Probe> {
        let (earlier, probes) = match self {
            LengthSearch::Partial(p) => (&p.earlier, &p.probes),
            LengthSearch::Found(f) => (&f.earlier, &f.probes),
        };
        earlier.iter().chain(probes)
    }

    /// Nodes of this run's questions.
    pub fn nodes(&self) -> u64 {
        match self {
            LengthSearch::Partial(p) => p.nodes,
            LengthSearch::Found(f) => f.nodes,
        }
    }
}

/// A finished length search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FoundLengthSearch {
    pub nodes: u64,
    pub seconds: f64,
    pub probes: Vec<Probe>,
    #[serde(default)]
    pub earlier: Vec<Probe>,
}

/// A length search that a limit stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PartialLengthSearch {
    /// The least length the answers allow.
    pub at_least: u32,
    pub nodes: u64,
    pub seconds: f64,
    pub probes: Vec<Probe>,
    #[serde(default)]
    pub earlier: Vec<Probe>,
    /// The question it was stopped on.
    pub unanswered: Unanswered,
}

/// One answered question: does the winner win within `plies`?
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Probe {
    pub plies: u32,
    pub wins: bool,
    pub nodes: u64,
    pub seconds: f64,
}

/// The question a limit cut short, and what it had spent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Unanswered {
    pub plies: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// The settings the result was found with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Solver {
    /// `dfpn`, `reference` or `campaign`.
    pub algorithm: String,
    /// Whether the race rules were on (`patterns` in older files).
    #[serde(alias = "patterns")]
    pub race_rules: bool,
    /// Longest race win the rules look for; null with the race rules off.
    pub race_moves: Option<u32>,
    pub epsilon: f64,
    /// A solve's own settings (a campaign's result has none).
    #[serde(flatten)]
    pub search: Option<SearchSettings>,
    pub table_mb: u64,
    pub threads: u64,
    /// Nodes per job, in a campaign's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_nodes: Option<u64>,
    /// The program's version.
    pub version: String,
}

/// The settings of one solve that a campaign does not have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchSettings {
    /// Deep df-pn's depth bias; null for the reference search.
    pub depth_bias: Option<u32>,
    /// The weight of df-pn's learned estimate (`solve --estimate-weight`); null for
    /// the reference search, and absent from results made before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_weight: Option<f32>,
    pub max_nodes: Option<u64>,
    pub time_limit: Option<f64>,
    /// Whether the length search went on from an earlier run.
    pub length_resumed: bool,
    /// Where the length's questions started (`solve --length-guess`); absent when
    /// they started at the shortest game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_guess: Option<u32>,
}
