//! A campaign's settings, kept in `DIR/campaign.json`: the position and the rules
//! of the search. A campaign is continued only with the same position, race rules
//! on or off and epsilon; the longest race win and the nodes per job may change
//! between runs (each run's are in its record, [`crate::checkpoint::RunSettings`]),
//! and campaign.json holds the latest run's.

use std::path::Path;

use breakthrough_engine::Position;
use serde::{Deserialize, Serialize};

use crate::error::{write_durably, CampaignError};

/// The name of the settings file in a campaign's directory.
pub const SPEC_FILE: &str = "campaign.json";
const FORMAT: &str = "breakthrough-campaign";
const VERSION: u32 = 1;

/// Nodes per job unless the campaign says otherwise (`--job-nodes`; see
/// `docs/campaigns.md`).
pub const DEFAULT_JOB_NODES: u64 = 200_000;

/// What a campaign solves, and under which rules: the position, the race rules
/// on or off and epsilon fixed for its whole life, the rest the latest run's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    pub format: String,
    pub version: u32,
    pub board: String,
    /// The position, in the text format of docs/RULES.md.
    pub position: String,
    /// The race rules: on or off (fixed), and the longest race win looked for
    /// (may change between runs: race wins of any length are proofs).
    #[serde(alias = "patterns")]
    pub race_rules: bool,
    pub race_moves: u32,
    /// `1/epsilon` of df-pn's 1+epsilon trick.
    pub inverse_epsilon: u32,
    /// Each job's node budget (may change between runs).
    pub job_nodes: u64,
}

impl Spec {
    pub fn new(
        position: &Position,
        race_rules: bool,
        race_moves: u32,
        inverse_epsilon: u32,
        job_nodes: u64,
    ) -> Spec {
        Spec {
            format: FORMAT.to_string(),
            version: VERSION,
            board: position.board().to_string(),
            position: position.to_string(),
            race_rules,
            race_moves,
            inverse_epsilon,
            job_nodes,
        }
    }

    /// The position solved.
    pub fn position(&self) -> Result<Position, String> {
        self.position.parse().map_err(|err| format!("{err}"))
    }

    /// Reads `DIR/campaign.json`; `None` when the directory holds no campaign.
    pub fn read(dir: &Path) -> Result<Option<Spec>, CampaignError> {
        let path = dir.join(SPEC_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(CampaignError::io(&path)(err)),
        };
        Spec::from_json(&text)
            .map(Some)
            .map_err(|why| CampaignError::damaged(&path, why))
    }

    /// The settings in `text` (campaign.json's format), checked: the format, its
    /// version and the position.
    pub fn from_json(text: &str) -> Result<Spec, String> {
        let spec: Spec = serde_json::from_str(text).map_err(|err| err.to_string())?;
        if spec.format != FORMAT || spec.version != VERSION {
            return Err(format!(
                "format {} version {}; this program reads {FORMAT} version {VERSION}",
                spec.format, spec.version
            ));
        }
        spec.position().map_err(|why| format!("position: {why}"))?;
        Ok(spec)
    }

    /// campaign.json's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data")
    }

    pub fn write(&self, dir: &Path) -> Result<(), CampaignError> {
        write_durably(&dir.join(SPEC_FILE), self.to_json().as_bytes())
    }

    /// Why a campaign with settings `self` cannot be continued as `wanted`, if it
    /// cannot: another position, race rules or epsilon. A longer or shorter race
    /// win, or another job size, only changes how the search gets there.
    pub fn mismatch(&self, wanted: &Spec) -> Option<String> {
        let differ = |what: &str, have: &dyn std::fmt::Display, want: &dyn std::fmt::Display| {
            Some(format!(
                "this campaign solves with {what} {have}, not {want}; use another directory"
            ))
        };
        if self.position != wanted.position {
            return differ("position", &self.position, &wanted.position);
        }
        if self.race_rules != wanted.race_rules {
            return differ("race rules on:", &self.race_rules, &wanted.race_rules);
        }
        if self.inverse_epsilon != wanted.inverse_epsilon {
            return differ("1/epsilon", &self.inverse_epsilon, &wanted.inverse_epsilon);
        }
        None
    }
}
