//! `breakthrough-lab`: the maintainers' tools, kept out of the `breakthrough`
//! product: the results README and its pictures, the growth of the cost with the
//! board and its projections, A/B benchmarks of builds, thread counts and
//! settings, and the census of where a certificate's bytes go.
//!
//! It is a workspace member outside the default members: `cargo build --release
//! -p breakthrough-lab` builds it beside `target/release/breakthrough`, the program
//! it measures.

#[macro_use]
extern crate breakthrough_cli;

mod bench_solve;
mod census;
mod files;
mod growth;
mod headline;
mod lengths;
mod load;
mod picture;
mod progress;
mod published;
mod report;
mod scaling;
mod suite;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Maintainers' tools for the Breakthrough solver: the results README, growth
/// tables and projections, pictures, and A/B benchmarks.
#[derive(Debug, Parser)]
#[command(name = "breakthrough-lab", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Report(report::ReportArgs),
    Bench(bench_solve::SolveBenchArgs),
    Census(census::CensusArgs),
    Load(load::LoadArgs),
    Suite(suite::SuiteArgs),
    Train(train::TrainArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Report(args) => report::run(args),
        Command::Bench(args) => bench_solve::run(args),
        Command::Census(args) => census::run(args),
        Command::Load(args) => load::run(args),
        Command::Suite(args) => suite::run(args),
        Command::Train(args) => train::run(args),
    };
    breakthrough_cli::exit_code(result)
}
