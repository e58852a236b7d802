//! `breakthrough bench solve`: the default solver against a baseline on a fixed
//! suite: the reference solver, or df-pn without race rules.
//!
//! Each solve runs as a child process (this same program's `solve --json`), so that
//! its peak memory is its own.

use std::process::{Command, ExitCode};

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use super::bench::median;
use crate::InputError;
use breakthrough_engine::Board;

/// Solve each board of the suite with df-pn and with a baseline (--compare), --repeat
/// times each; print median seconds, nodes, nodes/s, peak memory, and the ratios of
/// the baseline's time and nodes to df-pn's.
#[derive(Debug, Args)]
pub struct SolveBenchArgs {
    /// The baseline: the plain exhaustive reference solver, or df-pn without race
    /// rules (--no-patterns, the ablation of the race rules).
    #[arg(long, value_enum, default_value_t = Compare::Reference)]
    pub compare: Compare,

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

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Compare {
    /// df-pn against the reference solver.
    Reference,
    /// df-pn with race rules against df-pn without them.
    Patterns,
}

impl Compare {
    /// Both contestants: a name and the `solve` flags that select it.
    fn variants(self) -> [(&'static str, &'static [&'static str]); 2] {
        match self {
            Compare::Reference => [
                ("dfpn", &["--algo", "dfpn"]),
                ("reference", &["--algo", "reference"]),
            ],
            Compare::Patterns => [
                ("dfpn", &["--algo", "dfpn"]),
                ("no-patterns", &["--algo", "dfpn", "--no-patterns"]),
            ],
        }
    }
}

/// One solve in a child process; its JSON report.
fn solve_once(board: &str, flags: &[&str], args: &SolveBenchArgs) -> anyhow::Result<Value> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let output = Command::new(exe)
        .args(["solve", board, "--json", "--quiet"])
        .args(flags)
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
            "solve {board} {} failed: {}",
            flags.join(" "),
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
            "{:<6} {:<12} {:<7} {:>12} {:>10} {:>10} {:>9} {:>8} {:>8}",
            "board",
            "solver",
            "winner",
            "nodes",
            "median s",
            "nodes/s",
            "peak MiB",
            "x time",
            "x nodes"
        );
    }
    let mut rows = Vec::new();
    for board in &args.boards {
        // The first variant's median time and nodes: what the ratios divide by.
        let mut first = (f64::NAN, 0u64);
        for (i, (name, flags)) in args.compare.variants().into_iter().enumerate() {
            let mut times = Vec::new();
            let mut last = Value::Null;
            for _ in 0..args.repeat {
                last = solve_once(board, flags, &args)?;
                times.push(last["stats"]["seconds"].as_f64().unwrap_or(f64::NAN));
            }
            let seconds = median(&mut times);
            let solved = last["status"] == "solved";
            let seconds_if_solved = if solved { seconds } else { f64::NAN };
            let nodes = last["stats"]["nodes"].as_u64().unwrap_or(0);
            if i == 0 {
                first = (seconds_if_solved, nodes);
            }
            let peak = last["stats"]["peak_memory_mb"].as_f64();
            let winner = last["winner"].as_str().unwrap_or("unknown").to_string();
            let ratios = (i > 0).then(|| {
                (
                    seconds_if_solved / first.0,
                    solved.then(|| nodes as f64 / first.1.max(1) as f64),
                )
            });
            let show = |r: Option<f64>| match r {
                Some(r) if r.is_finite() => format!("{r:.1}x"),
                Some(_) => "?".to_string(),
                None => String::new(),
            };
            if !args.json {
                outln!(
                    "{:<6} {:<12} {:<7} {:>12} {:>10.2} {:>9.0}k {:>9.0} {:>8} {:>8}",
                    board,
                    name,
                    winner,
                    nodes,
                    seconds,
                    nodes as f64 / seconds / 1e3,
                    peak.unwrap_or(f64::NAN),
                    show(ratios.map(|r| r.0)),
                    show(ratios.and_then(|r| r.1.or(Some(f64::NAN)))),
                );
            }
            rows.push(json!({
                "board": board, "solver": name, "flags": flags, "winner": winner,
                "status": last["status"], "nodes": nodes, "median_seconds": seconds,
                "runs": times, "peak_memory_mb": peak,
                "time_ratio": ratios.map(|r| r.0).filter(|r| r.is_finite()),
                "node_ratio": ratios.and_then(|r| r.1),
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
