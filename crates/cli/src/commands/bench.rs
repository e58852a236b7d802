//! `breakthrough bench`: fixed workloads that print speed figures.
//!
//! Every case checks its answer before its time counts, so a fast wrong engine never
//! shows up as a good figure.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::ensure;
use breakthrough_engine::{perft, Board, Position};
use clap::{Args, Subcommand};
use serde::Serialize;

/// Measure speed on fixed workloads: perft (default) or solving.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: Option<BenchKind>,

    #[command(flatten)]
    pub perft: PerftBenchArgs,
}

#[derive(Debug, Subcommand)]
pub enum BenchKind {
    /// Perft leaves per second on one core (the default).
    Perft(PerftBenchArgs),
    /// Solve a fixed suite with df-pn and a baseline (the reference solver, df-pn
    /// without race rules, df-pn on other thread counts, or another build of this
    /// program), taking turns; print the ratios of wall time and nodes.
    Solve(super::bench_solve::SolveBenchArgs),
}

/// Perft speed on fixed cases (leaves per second, one core).
///
/// Each case runs --repeat times and the median time is reported; each run's count
/// is checked against the known answer before its time counts.
#[derive(Debug, Args)]
pub struct PerftBenchArgs {
    /// How many times to run each case; the median time is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,

    /// Small cases only (seconds, for a smoke test): 8x8 depth 5 and 5x5 depth 6.
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

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.kind {
        None => run_perft(args.perft),
        Some(BenchKind::Perft(perft)) => run_perft(perft),
        Some(BenchKind::Solve(solve)) => super::bench_solve::run(solve),
    }
}

fn run_perft(args: PerftBenchArgs) -> anyhow::Result<ExitCode> {
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
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "perft": reports }))?
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
