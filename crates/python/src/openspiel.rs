//! OpenSpiel's board text read as a position here (`breakthrough.openspiel` does the
//! rest in Python). OpenSpiel's Black is player 0, moves first and moves down the
//! board; here White moves first and moves up. So OpenSpiel's Black is White here,
//! its White is Black, and its rank `r` of `H` is rank `H + 1 - r` here; files keep
//! their letters.

use breakthrough_engine as engine;
use breakthrough_engine::{Bitboard, Board, Color};
use pyo3::prelude::*;

use crate::errors::{error, Kind};
use crate::position::Position;

/// The position of an OpenSpiel `breakthrough` state from `str(state)` (rank lines
/// such as `6bbbbb`, then the file letters) and whether its first player (Black
/// there) is to move.
#[pyfunction]
pub fn openspiel_position(text: &str, first_player_to_move: bool) -> PyResult<Position> {
    let bad = |why: String| error(Kind::Position, format!("OpenSpiel state {text:?}: {why}"));
    let ranks: Vec<(u32, &str)> = text
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| {
            let cells = line.trim_start_matches(|c: char| c.is_ascii_digit());
            let label = line[..line.len() - cells.len()].parse().unwrap_or(0);
            (label, cells.trim_end())
        })
        .collect();
    let height = ranks.len() as u32;
    let width = ranks.first().map_or(0, |(_, cells)| cells.len() as u32);
    let board = Board::new(width, height).map_err(|e| bad(e.to_string()))?;
    let (mut white, mut black) = (0u64, 0u64);
    for (label, cells) in &ranks {
        if *label == 0 || *label > height || cells.len() as u32 != width {
            return Err(bad(format!(
                "rank line {label}{cells} does not fit a {board} board"
            )));
        }
        let rank = height - label;
        for (file, cell) in cells.chars().enumerate() {
            let bit = 1u64 << (rank * width + file as u32);
            match cell {
                'b' => white |= bit,
                'w' => black |= bit,
                '.' => {}
                other => return Err(bad(format!("unknown square {other:?}"))),
            }
        }
    }
    let to_move = if first_player_to_move {
        Color::White
    } else {
        Color::Black
    };
    engine::Position::try_from_parts(board, Bitboard(white), Bitboard(black), to_move)
        .map(Position)
        .map_err(|e| bad(e.to_string()))
}
