//! `breakthrough bench`: fixed workloads that print speed figures, and a signature.
//!
//! Every case checks its answer before its time counts, so a fast wrong engine never
//! shows up as a good figure. The solve suite runs on one thread, whose node counts
//! never vary from run to run: their total is a signature that changes only when the
//! search does.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::ensure;
use breakthrough_engine::{perft, Board, Color, Position};
use breakthrough_solver::{solve, SolveOptions};
use clap::{Args, Subcommand};
use serde::Serialize;

/// Measure speed on fixed workloads: perft and a suite of small solves (both by
/// default), printing the solves' total node count as a signature.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: Option<BenchKind>,

    #[command(flatten)]
    pub cases: CaseArgs,
}

#[derive(Debug, Subcommand)]
pub enum BenchKind {
    /// Perft leaves per second on one core.
    Perft(CaseArgs),
    /// Solve a fixed suite on one thread; print nodes, time and nodes/s of each,
    /// and the total nodes as the signature.
    Solve(CaseArgs),
}

/// The fixed cases, and how to run them.
///
/// Each perft case runs --repeat times and the median time is reported; each run's
/// count is checked against the known answer before its time counts. Each solve
/// runs once (its nodes are the same every time) and its winner is checked.
#[derive(Debug, Args)]
pub struct CaseArgs {
    /// How many times to run each perft case; the median time is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,

    /// Small cases only (seconds, for a smoke test): perft 8x8 depth 5 and 5x5
    /// depth 6; solves of 4x4, 4x5 and 3x6.
    #[arg(long)]
    pub quick: bool,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// A perft case and its count. The quick counts are from
/// `crates/engine/tests/data/perft.tsv` (independent implementations agree); the full ones are this engine's own counts,
/// checked against the naive rules of the test suite (see the ignored test
/// `deep_perft_matches_naive`), kept here as regression signatures.
const FULL: &[(&str, u32, u64)] = &[("8x8", 7, 3_751_915_714), ("6x5", 8, 2_897_694_108)];
const QUICK: &[(&str, u32, u64)] = &[("8x8", 5, 6_182_818), ("5x5", 6, 3_538_840)];

#[derive(Debug, Serialize)]
struct CaseReport {
    board: String,
    depth: u32,
    leaves: u64,
    median_seconds: f64,
    leaves_per_second: f64,
    runs: Vec<f64>,
}

/// A solve of the suite: the board, its winner, and its table in MiB (fixed, so
/// that the node count is too).
const SOLVES: &[(&str, Color, usize)] = &[
    ("4x5", Color::Black, 64),
    ("3x6", Color::White, 64),
    ("3x7", Color::Black, 64),
    ("5x5", Color::Black, 256),
];
const QUICK_SOLVES: &[(&str, Color, usize)] = &[
    ("4x4", Color::Black, 16),
    ("4x5", Color::Black, 16),
    ("3x6", Color::White, 16),
];

#[derive(Debug, Serialize)]
struct SolveCase {
    board: String,
    winner: &'static str,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

#[derive(Debug, Default, Serialize)]
struct Report {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    perft: Vec<CaseReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    solve: Vec<SolveCase>,
    /// Total nodes of the solve suite.
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<u64>,
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let (args, perft, solves) = match args.kind {
        None => (args.cases, true, true),
        Some(BenchKind::Perft(perft)) => (perft, true, false),
        Some(BenchKind::Solve(solve)) => (solve, false, true),
    };
    let mut report = Report::default();
    if perft {
        report.perft = run_perft(&args)?;
    }
    if solves {
        report.solve = run_solves(&args)?;
        let signature = report.solve.iter().map(|case| case.nodes).sum();
        report.signature = Some(signature);
        if !args.json {
            outln!("signature  {signature} nodes");
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// The solve suite, each solve's winner checked.
fn run_solves(args: &CaseArgs) -> anyhow::Result<Vec<SolveCase>> {
    let cases = if args.quick { QUICK_SOLVES } else { SOLVES };
    if !args.json {
        outln!(
            "{:<6} {:<7} {:>12} {:>10} {:>12}",
            "board",
            "winner",
            "nodes",
            "seconds",
            "nodes/s"
        );
    }
    let mut reports = Vec::new();
    for &(size, winner, table_mb) in cases {
        let board: Board = size.parse()?;
        let options = SolveOptions {
            table_mb,
            threads: 1,
            ..SolveOptions::default()
        };
        let solution = solve(&Position::start(board), &options, &mut |_| {});
        ensure!(
            solution.winner == Some(winner),
            "solve {size}: {:?} wins, expected {winner}: the solver is wrong",
            solution.winner
        );
        let stats = &solution.stats;
        let case = SolveCase {
            board: size.to_string(),
            winner: winner.name(),
            nodes: stats.nodes,
            seconds: stats.seconds,
            nodes_per_second: stats.nodes as f64 / stats.seconds.max(1e-9),
        };
        if !args.json {
            outln!(
                "{:<6} {:<7} {:>12} {:>10.3} {:>10.1} M",
                case.board,
                case.winner,
                case.nodes,
                case.seconds,
                case.nodes_per_second / 1e6
            );
        }
        reports.push(case);
    }
    Ok(reports)
}

fn run_perft(args: &CaseArgs) -> anyhow::Result<Vec<CaseReport>> {
    let cases = if args.quick { QUICK } else { FULL };
    if !args.json {
        outln!(
            "{:<6} {:>5} {:>14} {:>10} {:>14}",
            "board",
            "depth",
            "leaves",
            "median s",
            "leaves/s"
        );
    }
    let mut reports = Vec::new();
    for &(size, depth, expected) in cases {
        let board: Board = size.parse()?;
        let start = Position::start(board);
        let mut runs = Vec::new();
        let mut leaves = 0;
        for _ in 0..args.repeat {
            let started = Instant::now();
            leaves = perft(&start, depth);
            runs.push(started.elapsed().as_secs_f64());
            ensure!(
                leaves == expected,
                "perft({size}, {depth}) = {leaves}, expected {expected}: the engine is wrong"
            );
        }
        let median = median(&mut runs.clone());
        let report = CaseReport {
            board: size.to_string(),
            depth,
            leaves,
            median_seconds: median,
            leaves_per_second: leaves as f64 / median,
            runs,
        };
        if !args.json {
            outln!(
                "{:<6} {:>5} {:>14} {:>10.3} {:>12.1} M",
                report.board,
                report.depth,
                report.leaves,
                report.median_seconds,
                report.leaves_per_second / 1e6
            );
        }
        reports.push(report);
    }
    Ok(reports)
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
