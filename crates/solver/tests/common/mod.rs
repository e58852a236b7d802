//! Checks shared by the integration tests.

use breakthrough_engine::{Board, Position};
use breakthrough_solver::{solve, Algorithm, Limits, Solution, SolveOptions};

/// The reference solver on a 16 MiB table, within a node budget.
pub fn reference(position: &Position, max_nodes: Option<u64>) -> Solution {
    let options = SolveOptions {
        algorithm: Algorithm::Reference,
        table_mb: 16,
        limits: Limits {
            max_nodes,
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    solve(position, &options, &mut |_| {})
}

/// The best move must keep the win: after it, the opponent (to move) loses. Returns
/// whether the re-solve (by the reference solver, within a budget) checked it.
pub fn check_best_move(solution: &Solution) -> bool {
    let position = &solution.position;
    match (solution.winner, solution.best_move) {
        (Some(winner), Some(best)) => {
            assert_eq!(winner, position.to_move(), "{position:?}");
            let after = position.try_play(best).expect("best move is legal");
            let again = reference(&after, Some(5_000_000));
            if let Some(again) = again.winner {
                assert_eq!(again, winner, "{best} throws the win in {position:?}");
            }
            again.is_solved()
        }
        (Some(winner), None) => {
            assert_ne!(
                winner,
                position.to_move(),
                "no move given for a win in {position:?}"
            );
            false
        }
        (None, best) => {
            assert_eq!(best, None);
            false
        }
    }
}

/// A random position reached by `plies` random moves from the start, if still going on.
pub fn random_game_position(board: Board, plies: u32, rng: &mut fastrand::Rng) -> Option<Position> {
    Position::after_moves(board, plies, |n| rng.usize(..n))
}

/// Checks a solve's certificate: it verifies with the rules alone, claims
/// the solver's winner for the position solved, and its main line is a legal game
/// that the winner wins, as long as the proof's longest game.
pub fn check_certificate(solution: &Solution) {
    let position = &solution.position;
    let proof = solution
        .proof
        .as_ref()
        .expect("asked for")
        .as_ref()
        .unwrap_or_else(|e| panic!("{position}: {e}"));
    let report = proof
        .certificate
        .verify()
        .unwrap_or_else(|e| panic!("{position}: {e}"));
    assert_eq!(report.root, *position);
    assert_eq!(Some(report.winner), solution.winner, "{position}");
    assert_eq!(report.height, proof.height, "{position}");
    assert_eq!(proof.principal_variation.len() as u32, proof.height);
    let mut end = *position;
    for mv in &proof.principal_variation {
        end = end.try_play(*mv).expect("main line is legal");
    }
    assert_eq!(end.winner(), solution.winner, "{position}");
}
