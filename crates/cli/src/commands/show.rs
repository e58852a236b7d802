//! `breakthrough show`: a position as a diagram, with its legal moves.

use std::process::ExitCode;

use clap::Args;

use crate::args::PositionArgs;

/// Show a position as a diagram, with its legal moves.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub target: PositionArgs,
}

pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let (board, position) = args.target.resolve()?;
    out!("{}", position.diagram());
    outln!();
    outln!("board     {board}");
    outln!("position  {position}");
    match position.winner() {
        Some(winner) => outln!("game over: {winner} has won"),
        None => {
            let moves = position.legal_moves();
            outln!("to move   {}", position.to_move());
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            outln!("moves     {} ({})", list.join(" "), list.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}
