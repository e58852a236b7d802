//! Short endings settled by search: a version 3 certificate may mark a position
//! "settled" instead of writing its proof out, and the verifier then decides it by
//! a plain exhaustive search over the rules, bounded by a few plies.
//!
//! The search is minimax over legal moves and nothing else: no table, no race
//! rules. It tries the claim's side's moves that land nearest its goal first,
//! which changes its speed only, never its answer.

use breakthrough_engine::{Bitboard, Color, Position};

/// The most plies a certificate may leave to the verifier's search: the format's
/// limit, which keeps the work of one mark small (see the format).
pub const MAX_SETTLE_PLIES: u32 = 5;

/// The plies the provers of this program leave to the verifier by default.
pub const DEFAULT_SETTLE_PLIES: u32 = 4;

/// The fewest plies, at most `plies`, within which `side` forces a game won by it
/// from `position`; `None` if it cannot within `plies`.
pub fn wins_within(position: &Position, side: Color, plies: u32) -> Option<u32> {
    if let Some(winner) = position.winner() {
        return (winner == side).then_some(0);
    }
    // The side to move wins only on its own move, so only every other depth can
    // be the first to succeed.
    let first = if position.to_move() == side { 1 } else { 2 };
    (first..=plies)
        .step_by(2)
        .find(|&depth| forces(position, side, depth, false))
}

/// Whether `side` keeps every game from ending won by its opponent within `plies`
/// plies from `position` (a game may end won by `side`, or go on past them).
pub fn holds_out(position: &Position, side: Color, plies: u32) -> bool {
    forces(position, side, plies, true)
}

/// Whether `side` forces, within `plies` plies, a game won by it, or (with
/// `horizon`) one still going on after them.
fn forces(position: &Position, side: Color, plies: u32, horizon: bool) -> bool {
    if let Some(winner) = position.winner() {
        return winner == side;
    }
    if plies == 0 {
        return horizon;
    }
    let mover = position.to_move();
    // A piece one rank from its goal always has a move there: forward if that
    // square is empty, else diagonally (boards are at least two files wide, and no
    // piece of the mover stands on its goal while the game goes on). So the mover
    // wins on this move.
    if !(position.pieces(mover) & before_goal(position, mover)).is_empty() {
        return mover == side;
    }
    // A move never ends the game won by the side that did not make it.
    if !horizon && plies == 1 && mover != side {
        return false;
    }
    let mut steps = position.steps();
    if mover == side {
        // The goal lies toward higher bit indices for White, lower for Black.
        steps.sort_unstable_by_key(|step| step.to);
        if side == Color::White {
            steps.reverse();
        }
        steps
            .into_iter()
            .any(|step| forces(&position.play_step(step), side, plies - 1, horizon))
    } else {
        steps
            .into_iter()
            .all(|step| forces(&position.play_step(step), side, plies - 1, horizon))
    }
}

/// The rank one step before `colour`'s goal.
fn before_goal(position: &Position, colour: Color) -> Bitboard {
    let board = position.board();
    match colour {
        Color::White => board.rank(board.height() - 2),
        Color::Black => board.rank(1),
    }
}

/// Whether a mark settles `position`, `ply` plies below the root of a proof of the
/// claim's `side` (holding out `hold` plies, or winning within `win_bound` plies,
/// or neither: a win), where the format allows `settle` plies of search: returns the height the mark stands for (the plies to the end
/// of the longest game it allows, or to the bound of a hold-out), or `None`.
///
/// - For a win (bounded or not), `side` must win within `settle` plies and within
///   the plies left to the bound.
/// - For a hold-out with at most `settle` plies left, `side` must hold out the
///   plies left; with more left, it must win within `settle` plies.
pub fn settles(
    position: &Position,
    side: Color,
    hold: Option<u32>,
    win_bound: Option<u32>,
    ply: u32,
    settle: u32,
) -> Option<u32> {
    if let Some(bound) = hold {
        let left = bound.saturating_sub(ply);
        if left <= settle {
            return holds_out(position, side, left).then_some(left);
        }
    }
    let plies = win_bound.map_or(settle, |bound| settle.min(bound.saturating_sub(ply)));
    wins_within(position, side, plies)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use breakthrough_engine::Board;

    use crate::tests::forces_by_minimax;

    /// The fewest plies to a forced win for `side`, by plain exhaustive minimax, up
    /// to `limit` (`None` beyond).
    fn plain(position: &Position, side: Color, limit: u32) -> Option<u32> {
        (0..=limit).find(|&depth| forces_by_minimax(position, side, depth, false))
    }

    /// Random positions of a game between random players, at every ply.
    fn random_positions(board: Board, games: usize, seed: u64) -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut seen = HashMap::new();
        for _ in 0..games {
            let mut position = Position::start(board);
            while position.winner().is_none() {
                seen.insert(position, ());
                let steps = position.steps();
                position = position.play_step(steps[rng.usize(..steps.len())]);
            }
        }
        let mut positions: Vec<Position> = seen.into_keys().collect();
        positions.sort_by_key(|position| position.to_string());
        positions
    }

    #[test]
    fn the_search_agrees_with_plain_minimax() {
        let mut wins = 0;
        let mut checked = 0;
        for (board, seed) in [
            (Board::new(3, 5).unwrap(), 1),
            (Board::new(5, 5).unwrap(), 2),
        ] {
            for position in random_positions(board, 60, seed) {
                for side in [Color::White, Color::Black] {
                    let expected = plain(&position, side, MAX_SETTLE_PLIES);
                    assert_eq!(
                        wins_within(&position, side, MAX_SETTLE_PLIES),
                        expected,
                        "{position} for {side}"
                    );
                    wins += usize::from(expected.is_some_and(|d| d > 0));
                    for plies in 0..=3 {
                        assert_eq!(
                            holds_out(&position, side, plies),
                            forces_by_minimax(&position, side, plies, true),
                            "{position} holds {plies} for {side}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        // The test means something only if both answers occur often.
        assert!(wins > 50 && checked - wins > 50, "{wins} wins of {checked}");
    }

    #[test]
    fn a_win_in_one_and_none() {
        // White on b4 of 3x5 reaches the goal at once; Black, on a3, is two moves away.
        let position: Position = "3/1W1/B2/3/3 w".parse().unwrap();
        assert_eq!(wins_within(&position, Color::White, 5), Some(1));
        assert_eq!(wins_within(&position, Color::Black, 5), None);
        assert!(!holds_out(&position, Color::Black, 1));
        assert!(holds_out(&position, Color::Black, 0));
    }
}
