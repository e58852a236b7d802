//! Checks shared by the integration tests.

use breakthrough_solver::Solution;

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
