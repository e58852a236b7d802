//! The short results table of the main README: one row a board, generated from the
//! result files like the full table of `results/README.md`.

use std::fmt::Write as _;
use std::path::Path;

use breakthrough_cli::results::{Published, Solved};
use breakthrough_cli::text::{human, thousands};
use breakthrough_result::{CampaignStatus, ProofSummary, SolveResult, Status};

use crate::lengths::length_of;
use crate::published::{cert_kept, decimal, published_before};

/// The table: winner, exact length, the search's nodes and seconds, the certificate,
/// and who settled the board before; then the campaigns still under way.
pub fn headline_table(
    dir: &Path,
    results: &[Solved],
    separate_runs: &[Option<SolveResult>],
    published: &[Published],
    campaigns: &[(String, CampaignStatus)],
) -> anyhow::Result<String> {
    let mut text = String::new();
    writeln!(
        text,
        "| board | winner | length | nodes | seconds | certificate | published before |\n\
         | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for (solved, separate) in results.iter().zip(separate_runs) {
        let result = &solved.result;
        let new = !published.iter().any(|p| p.board == solved.board);
        let board = if new {
            format!("**{}**", solved.board)
        } else {
            solved.board.clone()
        };
        writeln!(
            text,
            "| {board} | {} | {} | {} | {} | {} | {} |",
            result.winner.map_or("unknown", |side| side.order()),
            length_of(solved, separate.as_ref()).unwrap_or("-".to_string()),
            human(result.stats.nodes as f64),
            decimal(Some(result.stats.seconds), 2),
            certificate(dir, solved),
            published_before(published, &solved.board, " player"),
        )?;
    }
    for (board, status) in campaigns {
        let solved = results.iter().any(|r| &r.board == board);
        if solved || status.status != Status::Unknown {
            continue;
        }
        writeln!(
            text,
            "| {board} | open: a campaign under way | | {} so far | {} so far | | |",
            human(status.nodes as f64),
            decimal(Some(status.seconds), 0),
        )?;
    }
    Ok(text)
}

/// "kept" for a certificate in the results directory, else its size and parts.
fn certificate(dir: &Path, solved: &Solved) -> String {
    if cert_kept(dir, solved) {
        return "kept".to_string();
    }
    match &solved.result.proof {
        Some(ProofSummary::Campaign(campaign)) => format!(
            "{}B, {} part{} (SHA-256 only)",
            human(campaign.bytes as f64),
            thousands(campaign.parts),
            if campaign.parts == 1 { "" } else { "s" }
        ),
        Some(proof) => format!("{}B (SHA-256 only)", human(proof.bytes() as f64)),
        None => "-".to_string(),
    }
}
