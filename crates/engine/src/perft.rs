//! Perft: the number of move sequences of an exact length, the standard check of a
//! move generator.

use crate::Position;

/// The number of move sequences of exactly `depth` plies from `position`. A position
/// where the game is over has no moves, so it ends every sequence through it.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the last ply is a count, not a walk.
        1 => u64::from(position.move_count()),
        _ => {
            let mut nodes = 0;
            position.for_each_step(|step| nodes += perft(&position.play_step(step), depth - 1));
            nodes
        }
    }
}
