//! `breakthrough bench solve`: df-pn against the reference solver on a fixed suite.
//!
//! Each solve runs as a child process (this same program's `solve --json`), so that
//! its peak memory is its own.

use std::process::{Command, ExitCode};

use anyhow::{bail, Context};
use clap::Args;
use serde_json::{json, Value};

use super::bench::median;
use crate::InputError;
use breakthrough_engine::Board;

/// Solve each board of the suite with df-pn and with the reference solver, --repeat
/// times each; print median seconds, nodes, nodes/s, peak memory and the time ratio.
#[derive(Debug, Args)]
pub struct SolveBenchArgs {
    /// Boards to solve from the start position.
    #[arg(long, value_delimiter = ',', default_values_t = ["4x5".to_string(), "5x5".to_string(), "4x6".to_string()])]
    pub boards: Vec<String>,

    /// Runs per board and algorithm; the median time is reported.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,

    /// Table size in MiB, the same for both solvers.
    #[arg(long, default_value_t = 1024)]
    pub tt_mb: u64,

    /// Give up on a solve after this many seconds (it is then shown as unknown).
    #[arg(long, default_value_t = 1800.0)]
    pub time_limit: f64,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One solve in a child process; its JSON report.
fn solve_once(board: &str, algo: &str, args: &SolveBenchArgs) -> anyhow::Result<Value> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let output = Command::new(exe)
        .args(["solve", board, "--algo", algo, "--json", "--quiet"])
        .args([
            "--tt-mb",
            &args.tt_mb.to_string(),
            "--time-limit",
            &args.time_limit.to_string(),
        ])
        .output()
        .context("cannot run a solve")?;
    if !matches!(output.status.code(), Some(0 | 3)) {
        bail!(
            "solve {board} --algo {algo} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

pub fn run(args: SolveBenchArgs) -> anyhow::Result<ExitCode> {
    // Refuse bad input before starting any solve.
    for board in &args.boards {
        board
            .parse::<Board>()
            .context("bad board size in --boards")
            .map_err(InputError)?;
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        return Err(InputError(anyhow::anyhow!(
            "--time-limit must be a positive number of seconds"
        ))
        .into());
    }
    if !args.json {
        outln!(
            "{:<6} {:<10} {:<7} {:>12} {:>10} {:>10} {:>9} {:>9}",
            "board",
            "algorithm",
            "winner",
            "nodes",
            "median s",
            "nodes/s",
            "peak MiB",
            "speed-up"
        );
    }
    let mut rows = Vec::new();
    for board in &args.boards {
        let mut medians = Vec::new();
        for algo in ["dfpn", "reference"] {
            let mut times = Vec::new();
            let mut last = Value::Null;
            for _ in 0..args.repeat {
                last = solve_once(board, algo, &args)?;
                times.push(last["stats"]["seconds"].as_f64().unwrap_or(f64::NAN));
            }
            let seconds = median(&mut times);
            let solved = last["status"] == "solved";
            medians.push(if solved { seconds } else { f64::NAN });
            let nodes = last["stats"]["nodes"].as_u64().unwrap_or(0);
            let peak = last["stats"]["peak_memory_mb"].as_f64();
            let winner = last["winner"].as_str().unwrap_or("unknown").to_string();
            let ratio = (algo == "reference").then(|| medians[1] / medians[0]);
            if !args.json {
                outln!(
                    "{:<6} {:<10} {:<7} {:>12} {:>10.2} {:>9.0}k {:>9.0} {:>9}",
                    board,
                    algo,
                    winner,
                    nodes,
                    seconds,
                    nodes as f64 / seconds / 1e3,
                    peak.unwrap_or(f64::NAN),
                    ratio.map_or(String::new(), |r| if r.is_nan() {
                        "?".into()
                    } else {
                        format!("{r:.1}x")
                    })
                );
            }
            rows.push(json!({
                "board": board, "algorithm": algo, "winner": winner, "status": last["status"],
                "nodes": nodes, "median_seconds": seconds, "runs": times, "peak_memory_mb": peak,
                "reference_over_dfpn": ratio,
            }));
        }
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({ "solve": rows }))?
        );
    }
    Ok(ExitCode::SUCCESS)
}
