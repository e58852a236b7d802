//! `breakthrough verify`: check a proof certificate with the rules alone.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use breakthrough_solver::{Certificate, VerifyReport};
use clap::Args;
use serde_json::json;

/// Check a proof certificate (from `solve --proof`) using only the rules of the game.
///
/// Every move of the winner must be legal, every legal move of the loser must be
/// answered, every game in the proof must end won by the claimed side, and the root
/// must be the claimed position. No search, endgame knowledge or table is used.
///
/// Exit code 0 when the proof holds, 4 when the file is damaged or the proof fails,
/// 1 when the file cannot be read.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The certificate file.
    pub file: PathBuf,

    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,
}

/// Exit code of a rejected certificate.
const REJECTED: u8 = 4;

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let started = Instant::now();
    let checked = Certificate::from_bytes(&bytes)
        .map_err(anyhow::Error::from)
        .and_then(|certificate| certificate.verify().map_err(anyhow::Error::from));
    let seconds = started.elapsed().as_secs_f64();
    match checked {
        Ok(report) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&report_json(&report, bytes.len(), seconds))?
                );
            } else {
                print_report(&report, bytes.len());
                outln!("result     the proof holds ({seconds:.2} s)");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&json!({
                        "valid": false,
                        "error": format!("{err:#}"),
                        "bytes": bytes.len(),
                    }))?
                );
            }
            eprintln!("error: {}: {err:#}", args.file.display());
            Ok(ExitCode::from(REJECTED))
        }
    }
}

fn report_json(report: &VerifyReport, bytes: usize, seconds: f64) -> serde_json::Value {
    json!({
        "valid": true,
        "board": report.root.board().to_string(),
        "position": report.root.to_string(),
        "winner": report.winner.name(),
        "bytes": bytes,
        "positions": report.positions,
        "winner_positions": report.winner_positions,
        "loser_positions": report.loser_positions,
        "loser_replies": report.loser_replies,
        "transpositions": report.transpositions,
        "finished_games": report.finished_games,
        "height": report.height,
        "depth_histogram": report.depth_histogram,
        "seconds": seconds,
    })
}

/// The certificate's figures, as `verify` and `inspect` print them.
pub fn print_report(report: &VerifyReport, bytes: usize) {
    outln!("board      {}", report.root.board());
    outln!("position   {}", report.root);
    outln!(
        "claim      {} wins ({} to move)",
        report.winner,
        report.root.to_move()
    );
    outln!("size       {bytes} bytes");
    outln!(
        "positions  {} checked: {} where the winner moves, {} where the loser moves",
        report.positions,
        report.winner_positions,
        report.loser_positions
    );
    outln!(
        "moves      {} loser replies ({:.2} per position), {} transpositions, {} games won",
        report.loser_replies,
        report.loser_branching(),
        report.transpositions,
        report.finished_games
    );
    outln!(
        "depth      {} plies (the longest game the proof allows)",
        report.height
    );
}
