//! The verifier's bounded search (`crate::settle`) against plain minimax with no
//! ordering and no shortcut, on positions of random games.

use std::collections::HashMap;

use breakthrough_engine::{Bitboard, Board, Color, Position};

use super::forces_by_minimax;
use crate::settle::{holds_out, wins_within, MAX_SETTLE_PLIES};

/// The fewest plies to a forced win for `side`, by plain exhaustive minimax, up
/// to `limit` (`None` beyond).
fn plain(position: &Position, side: Color, limit: u32) -> Option<u32> {
    (0..=limit).find(|&depth| forces_by_minimax(position, side, depth, false))
}

/// Random positions of a game between random players, at every ply, and each
/// also thinned to a few pieces a side (where wins by capturing every piece
/// come within the search's plies).
fn random_positions(board: Board, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut seen = HashMap::new();
    for _ in 0..games {
        let mut position = Position::start(board);
        while position.winner().is_none() {
            seen.insert(position, ());
            let [white, black] = [Color::White, Color::Black].map(|colour| {
                let mut pieces: Vec<u32> = position.pieces(colour).into_iter().collect();
                rng.shuffle(&mut pieces);
                pieces.truncate(rng.usize(1..=3));
                pieces.into_iter().fold(Bitboard::EMPTY, |set, index| {
                    set | Bitboard::from_index(index)
                })
            });
            if let Ok(thin) = Position::try_from_parts(board, white, black, position.to_move()) {
                seen.insert(thin, ());
            }
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
    let mut captures = 0;
    for (board, seed) in [
        (Board::new(3, 5).unwrap(), 1),
        (Board::new(5, 5).unwrap(), 2),
        (Board::new(4, 6).unwrap(), 3),
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
                // A win with no piece near enough to reach the goal in the moves
                // it takes is won by capturing every piece: the cut-off's other
                // bound.
                if let Some(plies @ 1..) = expected {
                    let moves = if position.to_move() == side {
                        plies.div_ceil(2)
                    } else {
                        plies / 2
                    };
                    captures += usize::from(ranks_to_goal(&position, side) > moves);
                }
                for plies in 0..=MAX_SETTLE_PLIES {
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
    // The test means something only if both answers occur often, and wins by
    // capture too.
    assert!(wins > 50 && checked - wins > 50, "{wins} wins of {checked}");
    assert!(captures > 100, "{captures} wins by capture");
}

/// The fewest ranks between a piece of `side` and its goal.
fn ranks_to_goal(position: &Position, side: Color) -> u32 {
    let board = position.board();
    position
        .pieces(side)
        .into_iter()
        .map(|index| {
            let rank = index / board.width();
            match side {
                Color::White => board.height() - 1 - rank,
                Color::Black => rank,
            }
        })
        .min()
        .unwrap_or(u32::MAX)
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
