//! `breakthrough bench solve`: the default solver against a baseline on a fixed
//! suite: the reference solver, df-pn without race rules, or df-pn on fewer threads.
//!
//! Each solve runs as a child process (this same program's `solve --json`), so that
//! its peak memory is its own.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use super::bench::median;
use crate::InputError;
use breakthrough_engine::Board;

/// Solve each board of the suite with each contestant (--compare), --repeat times
/// each; print median seconds, nodes, nodes/s and peak memory, and the ratios to the
/// first contestant: with --compare threads, the speed-up and the search overhead
/// (time and nodes against the first thread count's, one thread by default).
#[derive(Debug, Args)]
pub struct SolveBenchArgs {
    /// The contestants: df-pn against the plain exhaustive reference solver, df-pn
    /// against df-pn without race rules (the ablation of the race rules), or df-pn on
    /// each thread count of --threads (scaling). The first two run on one thread.
    #[arg(long, value_enum, default_value_t = Compare::Reference)]
    pub compare: Compare,

    /// Boards to solve from the start position [default: 4x5,5x5,4x6; with --compare
    /// threads: 5x5,4x6,6x5].
    #[arg(long, value_delimiter = ',')]
    pub boards: Vec<String>,

    /// Thread counts for --compare threads; the first is what the others are
    /// compared with.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2],
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Vec<u32>,

    /// Runs per board and contestant; the median time (and nodes) are reported.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,

    /// Table size in MiB, the same for every solve [default: solve's default].
    #[arg(long, value_name = "MB")]
    pub tt_mb: Option<u64>,

    /// Give up on a solve after this many seconds (it is then shown as unknown).
    #[arg(long, default_value_t = 1800.0)]
    pub time_limit: f64,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Also write the JSON object to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Compare {
    /// df-pn against the reference solver.
    Reference,
    /// df-pn with race rules against df-pn without them.
    Patterns,
    /// df-pn on each thread count of --threads.
    Threads,
}

/// A contestant: its name, its thread count, and the `solve` flags that select it.
struct Contestant {
    name: String,
    threads: u32,
    flags: Vec<String>,
}

impl Contestant {
    fn new(name: &str, threads: u32, flags: &[&str]) -> Contestant {
        let mut flags: Vec<String> = flags.iter().map(ToString::to_string).collect();
        flags.extend(["--threads".to_string(), threads.to_string()]);
        Contestant {
            name: name.to_string(),
            threads,
            flags,
        }
    }
}

impl Compare {
    fn contestants(self, threads: &[u32]) -> Vec<Contestant> {
        match self {
            Compare::Reference => vec![
                Contestant::new("dfpn", 1, &["--algo", "dfpn"]),
                Contestant::new("reference", 1, &["--algo", "reference"]),
            ],
            Compare::Patterns => vec![
                Contestant::new("dfpn", 1, &["--algo", "dfpn"]),
                Contestant::new("no-patterns", 1, &["--algo", "dfpn", "--no-patterns"]),
            ],
            Compare::Threads => threads
                .iter()
                .map(|&n| Contestant::new("dfpn", n, &["--algo", "dfpn"]))
                .collect(),
        }
    }

    fn default_boards(self) -> Vec<String> {
        let boards: &[&str] = match self {
            Compare::Threads => &["5x5", "4x6", "6x5"],
            _ => &["4x5", "5x5", "4x6"],
        };
        boards.iter().map(ToString::to_string).collect()
    }
}

/// One solve in a child process; its JSON report.
fn solve_once(board: &str, flags: &[String], args: &SolveBenchArgs) -> anyhow::Result<Value> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let mut command = Command::new(exe);
    command
        .args(["solve", board, "--json", "--quiet"])
        .args(flags)
        .args(["--time-limit", &args.time_limit.to_string()]);
    if let Some(mb) = args.tt_mb {
        command.args(["--tt-mb", &mb.to_string()]);
    }
    let output = command.output().context("cannot run a solve")?;
    if !matches!(output.status.code(), Some(0 | 3)) {
        bail!(
            "solve {board} {} failed: {}",
            flags.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

pub fn run(mut args: SolveBenchArgs) -> anyhow::Result<ExitCode> {
    if args.boards.is_empty() {
        args.boards = args.compare.default_boards();
    }
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
    let scaling = args.compare == Compare::Threads;
    // Ratios to the first contestant: how much slower and bigger the baselines are,
    // or how much faster and bigger the search on more threads is.
    let (time_label, nodes_label) = if scaling {
        ("speed-up", "overhead")
    } else {
        ("x time", "x nodes")
    };
    if !args.json {
        outln!(
            "{:<6} {:<12} {:>7} {:<7} {:>12} {:>10} {:>10} {:>9} {:>8} {:>8}",
            "board",
            "solver",
            "threads",
            "winner",
            "nodes",
            "median s",
            "nodes/s",
            "peak MiB",
            time_label,
            nodes_label
        );
    }
    let mut rows = Vec::new();
    for board in &args.boards {
        // The first contestant's median time and nodes: what the ratios compare with.
        let mut first = (f64::NAN, f64::NAN);
        for (i, contestant) in args.compare.contestants(&args.threads).iter().enumerate() {
            let mut times = Vec::new();
            let mut node_counts = Vec::new();
            let mut last = Value::Null;
            let mut all_solved = true;
            for _ in 0..args.repeat {
                last = solve_once(board, &contestant.flags, &args)?;
                all_solved &= last["status"] == "solved";
                times.push(last["stats"]["seconds"].as_f64().unwrap_or(f64::NAN));
                node_counts.push(last["stats"]["nodes"].as_u64().unwrap_or(0) as f64);
            }
            let seconds = median(&mut times.clone());
            // Parallel runs differ in nodes from run to run; one thread's never do.
            let nodes = median(&mut node_counts.clone());
            let (seconds_if_solved, nodes_if_solved) = if all_solved {
                (seconds, nodes)
            } else {
                (f64::NAN, f64::NAN)
            };
            if i == 0 {
                first = (seconds_if_solved, nodes_if_solved);
            }
            let peak = last["stats"]["peak_memory_mb"].as_f64();
            let winner = last["winner"].as_str().unwrap_or("unknown").to_string();
            let ratios = (i > 0 || scaling).then(|| {
                let time = if scaling {
                    first.0 / seconds_if_solved
                } else {
                    seconds_if_solved / first.0
                };
                (time, nodes_if_solved / first.1)
            });
            let show = |r: Option<f64>| match r {
                Some(r) if r.is_finite() => format!("{r:.2}x"),
                Some(_) => "?".to_string(),
                None => String::new(),
            };
            if !args.json {
                outln!(
                    "{:<6} {:<12} {:>7} {:<7} {:>12.0} {:>10.2} {:>9.0}k {:>9.0} {:>8} {:>8}",
                    board,
                    contestant.name,
                    contestant.threads,
                    winner,
                    nodes,
                    seconds,
                    nodes / seconds / 1e3,
                    peak.unwrap_or(f64::NAN),
                    show(ratios.map(|r| r.0)),
                    show(ratios.map(|r| r.1)),
                );
            }
            let finite = |r: f64| r.is_finite().then_some(r);
            rows.push(json!({
                "board": board, "solver": contestant.name, "threads": contestant.threads,
                "flags": contestant.flags, "winner": winner, "status": last["status"],
                "nodes": nodes, "median_seconds": seconds,
                "runs": times, "run_nodes": node_counts, "peak_memory_mb": peak,
                "thread_nodes": last["stats"]["thread_nodes"],
                time_label.replace([' ', '-'], "_"): ratios.and_then(|r| finite(r.0)),
                nodes_label.replace(' ', "_"): ratios.and_then(|r| finite(r.1)),
            }));
        }
    }
    let report = json!({
        "compare": format!("{:?}", args.compare).to_lowercase(),
        "repeat": args.repeat,
        "tt_mb": args.tt_mb,
        "machine": crate::system::machine(),
        "solve": rows,
    });
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    }
    if let Some(path) = &args.out {
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
