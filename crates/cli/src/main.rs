//! `breakthrough`: solve, count and show Breakthrough positions on any `W`x`H` board.
//!
//! Machine output (JSON) goes to stdout; progress and logs go to stderr. Exit codes:
//! 0 success, 1 failure, 2 bad input, 3 stopped by a limit or Ctrl-C (solve, campaign run), 4 a
//! certificate that does not hold (verify).

#[macro_use]
extern crate breakthrough_cli;

mod args;
mod commands;

use std::process::ExitCode;

use breakthrough_cli::system;
use clap::{Parser, Subcommand};

/// Breakthrough on small boards: solving with proof certificates, verifying,
/// perft, diagrams and benchmarks.
///
/// Boards are written WxH, columns x rows, as in the literature: 6x5 is 6 columns by
/// 5 rows. Positions use the text format of docs/RULES.md, for example
/// "BBBBB/BBBBB/5/WWWWW/WWWWW w" (ranks from the top, W/B pieces, numbers of empty
/// squares, side to move).
#[derive(Debug, Parser)]
#[command(name = "breakthrough", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Solve(commands::solve::SolveArgs),
    #[command(subcommand)]
    Campaign(commands::campaign::CampaignCommand),
    Verify(commands::verify::VerifyArgs),
    Inspect(commands::inspect::InspectArgs),
    Reproduce(commands::reproduce::ReproduceArgs),
    Perft(commands::perft::PerftArgs),
    Show(commands::show::ShowArgs),
    Bench(commands::bench::BenchArgs),
    Schema(commands::schema::SchemaArgs),
    Serve(commands::serve::ServeArgs),
}

fn main() -> ExitCode {
    system::mark_start();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Campaign(command) => commands::campaign::run(command),
        Command::Verify(args) => commands::verify::run(args),
        Command::Inspect(args) => commands::inspect::run(args),
        Command::Reproduce(args) => commands::reproduce::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Schema(args) => commands::schema::run(args),
        Command::Serve(args) => commands::serve::run(args),
    };
    breakthrough_cli::exit_code(result)
}
