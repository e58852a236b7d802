//! What the workspace's tests share (the `testing` feature; the crate's own tests
//! have it too): the plainest search there is, to check solvers and certificates
//! against, and random endgames.

use std::collections::HashMap;

use breakthrough_engine::{Bitboard, Board, Color, Position};

/// Whether the side to move wins, by exhaustive search over the rules alone: exact
/// positions memoised in `memo`, no race rules, no bounded table, so that nothing a
/// solver or a certificate relies on is used to check it.
pub fn rules_only_wins(position: &Position, memo: &mut HashMap<Position, bool>) -> bool {
    if position.winner().is_some() {
        return false;
    }
    if let Some(&known) = memo.get(position) {
        return known;
    }
    let wins = position
        .steps()
        .into_iter()
        .any(|step| !rules_only_wins(&position.play_step(step), memo));
    memo.insert(*position, wins);
    wins
}

/// A random endgame: 1 to `most` pieces a side anywhere legal (a square drawn for
/// both sides is White's), either side to move; `None` if the set-up is not a legal
/// position (a piece on its goal row, say).
pub fn random_endgame(board: Board, most: u32, rng: &mut fastrand::Rng) -> Option<Position> {
    let mut armies = [0u64; 2];
    for army in &mut armies {
        for _ in 0..rng.u32(1..=most) {
            *army |= 1 << rng.u32(0..board.squares());
        }
    }
    let to_move = if rng.bool() {
        Color::White
    } else {
        Color::Black
    };
    let [white, black] = armies;
    Position::try_from_parts(board, Bitboard(white), Bitboard(black & !white), to_move).ok()
}
