//! `breakthrough reproduce`: solve every published board again, verify each proof,
//! and set our results beside the published ones.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use anyhow::{bail, Context};
use clap::Args;
use serde_json::Value;

use super::report::{order, read_published, read_results};

/// Solve every board of RESULTS/published.json from the start with the default
/// settings, verify each certificate with the rules alone, and print a table of
/// published and our results. Exit code 1 on any mismatch or failed proof.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Skip boards whose solve in RESULTS/<board>.json took more than a minute.
    #[arg(long)]
    pub quick: bool,

    /// The results directory (published.json, and our earlier results for --quick).
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
}

/// Runs this program with `args`; its exit code and stdout as JSON.
fn child(args: &[&str]) -> anyhow::Result<(Option<i32>, Value)> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let output = Command::new(exe)
        .args(args)
        .output()
        .context("cannot run a child process")?;
    let json = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    Ok((output.status.code(), json))
}

pub fn run(args: ReproduceArgs) -> anyhow::Result<ExitCode> {
    let published = read_published(&args.results)?;
    let ours_before = read_results(&args.results).unwrap_or_default();
    let scratch =
        std::env::temp_dir().join(format!("breakthrough-reproduce-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    outln!(
        "{:<6} {:<10} {:<10} {:<9} {:>10} {:>8} {:>13} {:>12} {:>6}",
        "board",
        "published",
        "ours",
        "proof",
        "seconds",
        "threads",
        "nodes",
        "published s",
        "cores"
    );
    let mut failures = 0;
    for entry in &published {
        let board = entry["board"]
            .as_str()
            .context("a published result without a board")?;
        let expected = entry["winner"].as_str().unwrap_or("?");
        let before = ours_before
            .iter()
            .find(|r| r.board == board)
            .and_then(|r| r.json["stats"]["seconds"].as_f64());
        let published_seconds = entry["seconds"]
            .as_f64()
            .map_or("-".to_string(), |s| format!("{s:.0}"));
        let cores = entry["cores"]
            .as_u64()
            .map_or("-".to_string(), |c| c.to_string());
        if args.quick && !matches!(before, Some(s) if s <= 60.0) {
            outln!(
                "{board:<6} {expected:<10} {:<10} {:<9} {:>10} {:>8} {:>13} {published_seconds:>12} {cores:>6}",
                "skipped", "", "", "", ""
            );
            continue;
        }
        let proof = scratch.join(format!("{board}.cert"));
        let proof_path = proof.to_str().context("temporary path is not UTF-8")?;
        let (code, ours) = child(&["solve", board, "--quiet", "--json", "--proof", proof_path])?;
        if code != Some(0) {
            bail!("solve {board} failed (exit {code:?})");
        }
        let (code, verified) = child(&["verify", proof_path, "--json"])?;
        let holds = code == Some(0) && verified["valid"] == true;
        let winner = order(ours["winner"].as_str().unwrap_or(""));
        let agrees = winner == expected && holds && verified["winner"] == ours["winner"];
        if !agrees {
            failures += 1;
        }
        let stats = &ours["stats"];
        outln!(
            "{board:<6} {expected:<10} {:<10} {:<9} {:>10.2} {:>8} {:>13} {published_seconds:>12} {cores:>6}",
            if winner == expected { winner.to_string() } else { format!("{winner} (!)") },
            if holds { "verified" } else { "FAILED" },
            stats["seconds"].as_f64().unwrap_or(f64::NAN),
            stats["threads"].to_string(),
            stats["nodes"].to_string(),
        );
    }
    std::fs::remove_dir_all(&scratch).ok();
    if failures > 0 {
        eprintln!(
            "error: {failures} board(s) disagree with the published result or failed to verify"
        );
        return Ok(ExitCode::from(1));
    }
    outln!("all published results reproduced, every proof verified");
    Ok(ExitCode::SUCCESS)
}
