//! Arguments that several commands share: which board and which position.

use anyhow::Context;
use breakthrough_engine::{Board, Position};
use clap::Args;

use breakthrough_cli::InputError;

/// A board and a position on it.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Board size WxH (columns x rows), for example 5x5 or 6x5; W >= 2, H >= 4, W*H <= 64.
    pub board: String,

    /// Start from this position instead of the start position (the text format of docs/RULES.md),
    /// for example "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".
    #[arg(long, short = 'p', value_name = "TEXT")]
    pub position: Option<String>,

    /// Then play these moves, separated by spaces or commas, for example "a2-a3 b4xa3".
    #[arg(long, short = 'm', value_name = "MOVES")]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The board and the position, or an input error that says what is wrong.
    pub fn resolve(&self) -> Result<(Board, Position), InputError> {
        let board: Board = self.board.parse().context("bad board size")?;
        let mut position = match &self.position {
            Some(text) => Position::parse_on(board, text).context("bad --position")?,
            None => Position::start(board),
        };
        let moves = self.moves.as_deref().unwrap_or("");
        for (ply, text) in moves
            .split([' ', ','])
            .filter(|t| !t.is_empty())
            .enumerate()
        {
            let mv = position
                .parse_move(text)
                .with_context(|| format!("bad --moves, move {}", ply + 1))?;
            position = position.play(mv);
        }
        Ok((board, position))
    }
}
