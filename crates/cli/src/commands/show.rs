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
    print!("{}", position.diagram());
    println!();
    println!("board     {board}");
    println!("position  {position}");
    match position.winner() {
        Some(winner) => println!("game over: {winner} has won"),
        None => {
            let moves = position.legal_moves();
            println!("to move   {}", position.to_move());
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            println!("moves     {} ({})", list.join(" "), list.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}
