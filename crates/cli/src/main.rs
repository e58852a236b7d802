//! `breakthrough`: solve, count and show Breakthrough positions on any `W`x`H` board.
//!
//! Machine output (JSON) goes to stdout; progress and logs go to stderr. Exit codes:
//! 0 success, 1 failure, 2 bad input, 3 stopped by a limit or Ctrl-C (solve, campaign run), 4 a
//! certificate that does not hold (verify).

/// `println!` for results: a closed stdout (as in `| head`) ends the program quietly
/// instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for results; see [`outln`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

mod args;
mod commands;
mod output;
mod progress;
mod system;

use std::process::ExitCode;

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
    Report(commands::report::ReportArgs),
    Reproduce(commands::reproduce::ReproduceArgs),
    Perft(commands::perft::PerftArgs),
    Show(commands::show::ShowArgs),
    Bench(commands::bench::BenchArgs),
}

/// An error in what the user gave (exit code 2), as opposed to a failure (exit 1).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct InputError(#[from] anyhow::Error);

fn main() -> ExitCode {
    system::mark_start();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Campaign(command) => commands::campaign::run(command),
        Command::Verify(args) => commands::verify::run(args),
        Command::Inspect(args) => commands::inspect::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Reproduce(args) => commands::reproduce::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Bench(args) => commands::bench::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // One line: the chain of causes joined, never a panic or a backtrace.
            eprintln!("error: {err:#}");
            if err.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
