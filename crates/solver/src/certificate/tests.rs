//! The solver's certificates, through the file format and the rules-only verifier
//! (the verifier's own tests, against an independent prover, are the proof
//! crate's; length certificates are checked in `tests/length.rs`).

use std::collections::HashMap;

use breakthrough_engine::{Color, Position};
use breakthrough_proof::testing::rules_only_wins;
use breakthrough_proof::{verify_length, Certificate};

use crate::{solve, SolveOptions};

fn start(size: &str) -> Position {
    Position::start(size.parse().unwrap())
}

fn extracted(position: &Position) -> Certificate {
    let options = SolveOptions {
        table_mb: 16,
        proof: true,
        ..SolveOptions::default()
    };
    let solution = solve(position, &options, &mut |_| {});
    solution
        .proof
        .expect("asked for")
        .expect("extracted")
        .certificate
}

#[test]
fn extracted_proofs_verify_and_false_claims_fail() {
    for size in ["3x4", "4x4", "5x4", "2x6", "3x5"] {
        let root = start(size);
        let winner = if rules_only_wins(&root, &mut HashMap::new()) {
            Color::White
        } else {
            Color::Black
        };
        let mine = extracted(&root);
        assert_eq!(mine.winner(), winner, "{size}");
        let read = Certificate::from_bytes(&mine.to_bytes()).unwrap();
        assert_eq!(read, mine);
        let report = read.verify().unwrap_or_else(|e| panic!("{size}: {e}"));
        assert_eq!(report.positions, mine.positions());
        let other = winner.opponent();
        assert!(read.with_claimed_winner(other).verify().is_err(), "{size}");
    }
}

#[test]
fn finished_roots_need_no_stream() {
    // White has reached rank 4: the game is over, Black to move has lost.
    let root: Position = "W2/3/BB1/3 b".parse().unwrap();
    let certificate = extracted(&root);
    assert_eq!(certificate.positions(), 0);
    assert!(certificate.verify().is_ok());
    assert!(certificate
        .with_claimed_winner(Color::Black)
        .verify()
        .is_err());
}

#[test]
fn proofs_written_in_little_memory_still_verify() {
    // 1 MiB remembers about 14k positions: these proofs have tens of thousands.
    for (size, length) in [("4x5", false), ("3x6", false), ("4x5", true)] {
        let root = start(size);
        let proof_with = |proof_mb| {
            let options = SolveOptions {
                table_mb: 16,
                proof: true,
                proof_mb,
                length,
                // Every ending written out: proofs big enough to overflow 1 MiB.
                settle_plies: 0,
                ..SolveOptions::default()
            };
            solve(&root, &options, &mut |_| {}).proof.unwrap().unwrap()
        };
        let (roomy, tight) = (proof_with(256), proof_with(1));
        assert!(
            roomy.positions() > 20_000 && tight.positions() > roomy.positions(),
            "{size}: {} positions in 256 MiB, {} in 1 MiB: nothing was forgotten",
            roomy.positions(),
            tight.positions()
        );
        let reports: Vec<_> = tight.parts().iter().map(|p| p.verify().unwrap()).collect();
        if length {
            let plies = verify_length(&reports).unwrap();
            assert_eq!(tight.principal_variation.len() as u32, plies, "{size}");
        } else {
            assert_eq!(reports[0].height, tight.height, "{size}");
        }
    }
}
