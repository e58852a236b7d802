//! `breakthrough perft`: count move sequences of an exact length.

use std::process::ExitCode;
use std::time::Instant;

use breakthrough_engine::{perft, Position};
use clap::Args;
use serde::Serialize;

use crate::args::PositionArgs;
use breakthrough_cli::progress;

/// Count the move sequences of exactly D plies (perft).
///
/// Perft is the standard check of a move generator. A position where the game is
/// over has no moves, so it ends every sequence that reaches it.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub target: PositionArgs,

    /// Number of plies.
    #[arg(long, short = 'd', value_name = "D")]
    pub depth: u32,

    /// Also give the count below each legal move of the position.
    #[arg(long)]
    pub divide: bool,

    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Serialize)]
struct PerftReport {
    board: String,
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
}

#[derive(Debug, Serialize)]
struct DivideEntry {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let (board, position) = args.target.resolve()?;
    let started = Instant::now();
    let (nodes, divide) = count(&position, args.depth, args.quiet);
    let seconds = started.elapsed().as_secs_f64();
    let report = PerftReport {
        board: board.to_string(),
        position: position.to_string(),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        divide: args.divide.then_some(divide),
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!("board     {}", report.board);
        outln!("position  {}", report.position);
        outln!("depth     {}", report.depth);
        if let Some(divide) = &report.divide {
            for entry in divide {
                outln!("  {:<8} {}", entry.mv, entry.nodes);
            }
        }
        outln!("nodes     {}", report.nodes);
        outln!("seconds   {:.3}", report.seconds);
        outln!("nodes/s   {:.0}", report.nodes_per_second);
    }
    Ok(ExitCode::SUCCESS)
}

/// The perft count, and the count below each root move, with a bar over root moves.
fn count(position: &Position, depth: u32, quiet: bool) -> (u64, Vec<DivideEntry>) {
    if depth == 0 {
        return (1, Vec::new());
    }
    // No game lasts longer than 2W(2H-5)+1 plies (docs/RULES.md): deeper counts are 0,
    // and walking the whole game tree to find that out could take forever.
    let board = position.board();
    if u64::from(depth) > 2 * u64::from(board.width()) * u64::from(2 * board.height() - 5) + 1 {
        return (0, Vec::new());
    }
    let steps = position.steps();
    let bar = progress::bar(
        steps.len() as u64,
        quiet || depth < 6,
        "{spinner} perft [{elapsed_precise}] {bar:30} {pos}/{len} root moves",
    );
    let mut total = 0;
    let mut divide = Vec::with_capacity(steps.len());
    for step in steps {
        let nodes = perft(&position.play_step(step), depth - 1);
        total += nodes;
        divide.push(DivideEntry {
            mv: position.to_move_text(step).to_string(),
            nodes,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    (total, divide)
}
