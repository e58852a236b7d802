//! A certificate checked (a file, or a campaign's directory) and its result as
//! `verify --json` prints it: what the command and the Python package both report.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use breakthrough_proof::{verify_directory, verify_file, CampaignReport, FileReport, VerifyReport};
use breakthrough_result::{CampaignCheck, VerifiedPart, VerifyResult};

use crate::solve_result::{claim, side};

/// What a certificate that holds proves.
#[derive(Debug)]
pub enum Verified {
    /// A certificate file: its parts, and the length they prove together if they do.
    File {
        reports: Vec<VerifyReport>,
        length: Option<u32>,
    },
    /// A campaign's directory: its top and parts.
    Campaign(Box<CampaignReport>),
}

/// A certificate checked.
#[derive(Debug)]
pub struct Verification {
    /// What it proves, or why it does not hold (for a directory, also a file of it
    /// that cannot be read).
    pub outcome: Result<Verified, String>,
    /// The certificate's bytes, where known.
    pub bytes: Option<u64>,
    pub seconds: f64,
}

/// Checks the certificate file or campaign directory at `path` with the rules
/// alone; an error only when the file cannot be read.
pub fn verify_path(path: &Path) -> anyhow::Result<Verification> {
    if path.is_dir() {
        let started = Instant::now();
        let checked = verify_directory(path);
        return Ok(Verification {
            bytes: checked.as_ref().ok().map(|report| report.bytes),
            outcome: checked
                .map(|report| Verified::Campaign(Box::new(report)))
                .map_err(|e| e.to_string()),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let started = Instant::now();
    let checked = verify_file(&bytes);
    Ok(Verification {
        outcome: checked
            .map(|FileReport { reports, length }| Verified::File { reports, length })
            .map_err(|e| format!("{:#}", anyhow::Error::from(e))),
        bytes: Some(bytes.len() as u64),
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl Verification {
    /// The result as `verify --json` prints it.
    pub fn result(&self) -> VerifyResult {
        match &self.outcome {
            Err(error) => VerifyResult::rejected(error.clone(), self.bytes),
            Ok(Verified::File { reports, length }) => {
                let parts: Vec<VerifiedPart> = reports.iter().map(verified_part).collect();
                VerifyResult {
                    valid: true,
                    error: None,
                    bytes: self.bytes,
                    seconds: Some(self.seconds),
                    proof: (parts.len() == 1).then(|| parts[0].clone()),
                    parts,
                    length: *length,
                    campaign: None,
                }
            }
            Ok(Verified::Campaign(report)) => VerifyResult {
                valid: true,
                error: None,
                bytes: Some(report.bytes),
                seconds: Some(self.seconds),
                proof: Some(verified_part(&report.top)),
                parts: Vec::new(),
                length: None,
                campaign: Some(CampaignCheck {
                    parts: report.parts as u64,
                    part_positions: report.part_positions,
                    largest_part_positions: report.largest_part,
                    given: report.top.given.len() as u64,
                    parts_taking_parts_as_given: report.given_parts as u64,
                }),
            },
        }
    }
}

/// A checked proof's figures, as `verify --json` prints them.
pub fn verified_part(report: &VerifyReport) -> VerifiedPart {
    VerifiedPart {
        board: report.root.board().to_string(),
        position: report.root.to_string(),
        winner: side(report.winner),
        claim: claim(report.claim),
        given: report.given.len() as u64,
        positions: report.positions,
        winner_positions: report.winner_positions,
        loser_positions: report.loser_positions,
        loser_replies: report.loser_replies,
        transpositions: report.transpositions,
        finished_games: report.finished_games,
        settled: report.settled,
        settle_plies: report.settle_plies,
        height: report.height,
        depth_histogram: report.depth_histogram.clone(),
    }
}
