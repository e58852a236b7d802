//! A results directory: `<board>.json` solve results and `published.json`.

use std::path::Path;

use crate::{CampaignStatus, SolveResult};
use anyhow::Context;
use serde::Deserialize;

/// A solve result file of the results directory.
#[derive(Debug)]
pub struct Solved {
    pub board: String,
    pub result: SolveResult,
}

/// Every `<board>.json` solve result in `dir`, smallest board first.
pub fn read_results(dir: &Path) -> anyhow::Result<Vec<Solved>> {
    let mut results = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".json") || name == "published.json" || name.ends_with("-campaign.json")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        // Only `<board>.json`: other files here are other kinds of JSON.
        let Some(board) = json["board"]
            .as_str()
            .filter(|board| name == format!("{board}.json"))
            .map(str::to_string)
        else {
            continue;
        };
        let result = SolveResult::from_json(&text)
            .with_context(|| format!("{} is not a solve result", path.display()))?;
        results.push(Solved { board, result });
    }
    // Smallest board first; anything unparsable last.
    results.sort_by_key(|r| board_size(&r.board).map_or((u32::MAX, 0, 0), |(w, h)| (w * h, h, w)));
    Ok(results)
}

/// A published solution of a board (`published.json`).
#[derive(Debug, Deserialize)]
pub struct Published {
    pub board: String,
    /// "first" or "second" (player).
    pub winner: String,
    pub authors: String,
    /// None where the year is not known (6x6's thesis).
    #[serde(default)]
    pub year: Option<u32>,
    pub venue: String,
    pub method: String,
    /// What the authors report of their solve's cost.
    pub seconds: Option<f64>,
    pub cores: Option<u64>,
    #[serde(default)]
    pub memory_gb: Option<f64>,
    pub note: Option<String>,
    /// The game's length under perfect play, where published.
    #[serde(default)]
    pub plies: Option<u32>,
    /// Their opening moves under perfect play.
    #[serde(default)]
    pub opening: Option<String>,
}

impl Published {
    /// Who published it, and when where known: "Saffidine, Jouandeau, Cazenave 2011".
    pub fn citation(&self) -> String {
        match self.year {
            Some(year) => format!("{} {year}", self.authors),
            None => self.authors.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct PublishedFile {
    results: Vec<Published>,
}

/// The published results (`published.json`), by board.
pub fn read_published(dir: &Path) -> anyhow::Result<Vec<Published>> {
    let path = dir.join("published.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let file: PublishedFile = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a list of published results", path.display()))?;
    Ok(file.results)
}

/// A campaign's status file, `<board>-campaign.json`.
pub fn read_campaign(path: &Path) -> anyhow::Result<CampaignStatus> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a campaign's status", path.display()))
}

/// The columns and rows of a board's name `WxH`, if it is one.
fn board_size(name: &str) -> Option<(u32, u32)> {
    let (width, height) = name.split_once('x')?;
    Some((width.parse().ok()?, height.parse().ok()?))
}
