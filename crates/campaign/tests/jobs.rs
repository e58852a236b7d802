//! Jobs that take positions as proven elsewhere (a campaign's store): their answers
//! against the reference solver, and their proofs, which mark those positions
//! "given" instead of proving them again.

use breakthrough_campaign::{run_job, JobOptions, JobOutcome, Proven, ProvenSlot};
use breakthrough_engine::{Board, Color, Position};
use breakthrough_solver::{solve, Claim, Key, Limits, Pn, RaceRules, SolveOptions, Table};

// The solver's test helpers: positions of random games and the reference solver.
#[allow(dead_code)] // Not every test file uses every check.
#[path = "../../solver/tests/common/mod.rs"]
mod common;
use common::{random_game_position, reference};

fn options(proven: Option<&Proven>) -> JobOptions {
    let proven = proven.map(|proven| {
        let slot = ProvenSlot::default();
        slot.extend(&proven.iter().map(|(&k, &w)| (k, w)).collect::<Vec<_>>());
        slot
    });
    JobOptions {
        max_nodes: 50_000_000,
        min_nodes: 0,
        thresholds: (Pn::INF, Pn::INF),
        race_rules: RaceRules::default(),
        inverse_epsilon: 4,
        proof: true,
        proof_mb: 16,
        stop: None,
        stop_proof: None,
        proven,
        export_min: 0,
        depth_bias: None,
        threads: 1,
    }
}

/// Every position two plies below `root` that df-pn settles within a small budget,
/// with whether its side to move wins.
fn proven_below(root: &Position) -> Proven {
    let options = SolveOptions {
        table_mb: 16,
        threads: 1,
        limits: Limits {
            max_nodes: Some(200_000),
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    let mut proven = Proven::new();
    for step in root.steps() {
        let child = root.play_step(step);
        if child.winner().is_some() {
            continue;
        }
        for reply in child.steps() {
            let grandchild = child.play_step(reply);
            if grandchild.winner().is_some() {
                continue;
            }
            if let Some(winner) = solve(&grandchild, &options, &mut |_| {}).winner {
                proven.insert(Key::of(&grandchild), winner == grandchild.to_move());
            }
        }
    }
    proven
}

#[test]
fn jobs_refer_to_positions_proven_elsewhere() {
    let mut rng = fastrand::Rng::with_seed(0x91e7);
    let mut checked = 0;
    let mut given_total = 0;
    let mut hits_total = 0;
    while checked < 40 {
        let board: Board = ["4x5", "5x5", "4x6"][checked % 3].parse().unwrap();
        let plies = rng.u32(6..16);
        let Some(position) = random_game_position(board, plies, &mut rng) else {
            continue;
        };
        let expected = reference(&position, Some(5_000_000));
        let Some(winner) = expected.winner else {
            continue;
        };
        let proven = proven_below(&position);
        let table = Table::with_megabytes(16);
        // Both the campaign's jobs (no depth bias) and the default's.
        let options = JobOptions {
            depth_bias: [Some(0), None][checked % 2],
            ..options(Some(&proven))
        };
        let report =
            run_job(&table, &position, &options, &mut |_| {}).expect("a job on a settled position");
        let JobOutcome::Solved {
            wins,
            proof: Some(proof),
            given,
            ..
        } = report.outcome
        else {
            panic!("{position}: not solved: {:?}", report.outcome);
        };
        assert_eq!(wins, winner == position.to_move(), "{position}");
        let claim = if proven.is_empty() {
            Claim::Wins
        } else {
            Claim::WinsGiven
        };
        assert_eq!(proof.claim(), claim, "{position}");
        let verified = proof.verify().unwrap_or_else(|e| panic!("{position}: {e}"));
        assert_eq!(verified.winner, winner);
        // What the proof takes as given is what the job says it took: positions
        // below the root proven won by the winner, each listed once.
        let mut listed: Vec<Key> = verified.given.iter().map(Key::of).collect();
        listed.sort_unstable_by_key(|k| (k.white, k.black, k.black_to_move));
        listed.dedup();
        let mut said = given.clone();
        said.sort_unstable_by_key(|k| (k.white, k.black, k.black_to_move));
        assert_eq!(listed, said, "{position}");
        assert_eq!(said.len(), given.len(), "{position}: listed twice");
        for position_given in &verified.given {
            assert_ne!(Key::of(position_given), Key::of(&position));
            let wins = proven[&Key::of(position_given)];
            let mover_is_winner = position_given.to_move() == winner;
            assert_eq!(
                wins, mover_is_winner,
                "{position_given} given for the loser"
            );
        }
        given_total += given.len();
        hits_total += report.proven_hits;
        checked += 1;
    }
    // The positions proven elsewhere were used, not only allowed.
    assert!(given_total > 40, "only {given_total} positions given");
    assert!(hits_total > 40, "the search met only {hits_total}");
}

#[test]
fn jobs_without_proven_positions_write_plain_proofs() {
    let position = Position::start("4x5".parse().unwrap());
    for proven in [None, Some(&Proven::new())] {
        let table = Table::with_megabytes(16);
        let report = run_job(&table, &position, &options(proven), &mut |_| {}).unwrap();
        let JobOutcome::Solved {
            proof: Some(proof),
            given,
            ..
        } = report.outcome
        else {
            panic!("4x5 not solved");
        };
        assert_eq!(proof.claim(), Claim::Wins);
        assert!(given.is_empty());
        assert_eq!(proof.verify().unwrap().winner, Color::Black);
    }
}

/// A stop ends a job's search, but a job that has settled its position writes its
/// proof unless the proof's own stop flag is set too: here the table knows the
/// position settled (an earlier job's), so only the proof is left to write.
#[test]
fn a_stop_lets_a_settled_position_write_its_proof() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let position = Position::start("4x5".parse().unwrap());
    let table = Table::with_megabytes(16);
    let first = run_job(&table, &position, &options(None), &mut |_| {}).unwrap();
    assert!(matches!(first.outcome, JobOutcome::Solved { .. }));
    let set = || Some(Arc::new(AtomicBool::new(true)));
    let stopped = JobOptions {
        stop: set(),
        ..options(None)
    };
    let report = run_job(&table, &position, &stopped, &mut |_| {}).unwrap();
    let JobOutcome::Solved {
        proof: Some(proof), ..
    } = report.outcome
    else {
        panic!("the settled position's proof was not written");
    };
    assert_eq!(proof.verify().unwrap().winner, Color::Black);
    let both = JobOptions {
        stop_proof: set(),
        ..stopped
    };
    let report = run_job(&table, &position, &both, &mut |_| {}).unwrap();
    assert!(matches!(report.outcome, JobOutcome::Stopped));
}

/// A proof's exported positions: each expanded in it with a proof of at least the
/// size asked for, won by the winner (as the reference solver says), and checked by
/// `verify_expanding`, which refuses a position the proof does not expand.
#[test]
fn proofs_export_the_positions_of_big_subproofs() {
    let mut rng = fastrand::Rng::with_seed(0xe4);
    let mut checked = 0;
    let mut exported_total = 0;
    while checked < 12 {
        let board: Board = ["5x5", "4x6"][checked % 2].parse().unwrap();
        let Some(position) = random_game_position(board, rng.u32(4..10), &mut rng) else {
            continue;
        };
        let Some(winner) = reference(&position, Some(5_000_000)).winner else {
            continue;
        };
        let table = Table::with_megabytes(16);
        let options = JobOptions {
            export_min: 100,
            ..options(None)
        };
        let report = run_job(&table, &position, &options, &mut |_| {}).unwrap();
        let JobOutcome::Solved {
            proof: Some(proof),
            exported,
            ..
        } = report.outcome
        else {
            panic!("{position}: not solved");
        };
        let verified = proof
            .verify_expanding(&exported)
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        assert_eq!(verified.winner, winner);
        // Only a proof that big exports anything.
        assert!(
            exported.is_empty() || verified.positions > 100,
            "{position}"
        );
        for inner in exported.iter().take(5) {
            assert_ne!(inner, &position, "the root is not exported");
            let expected = reference(inner, Some(5_000_000)).winner;
            assert!(expected.is_none_or(|w| w == winner), "{inner}");
        }
        // The root itself is never expanded below itself; the other side's
        // start position is nowhere in the proof.
        let stranger = Position::start(board);
        if stranger != position {
            let err = proof.verify_expanding(&[stranger]).unwrap_err();
            assert!(err.to_string().contains("does not prove"), "{err}");
        }
        exported_total += exported.len();
        checked += 1;
    }
    assert!(
        exported_total > 20,
        "only {exported_total} positions exported"
    );
}

/// Jobs searched by teams of two and three threads: a settled position gets the
/// reference solver's answer and a proof that holds; a job ends at its node budget
/// (give or take a check interval per thread) with its children's numbers, and at
/// its thresholds with numbers past them.
#[test]
fn jobs_on_several_threads_end_as_one_thread_does() {
    let mut rng = fastrand::Rng::with_seed(0x7ea3);
    let mut solved = 0;
    while solved < 12 {
        let board: Board = ["5x5", "4x6"][solved % 2].parse().unwrap();
        let Some(position) = random_game_position(board, rng.u32(4..12), &mut rng) else {
            continue;
        };
        let Some(winner) = reference(&position, Some(5_000_000)).winner else {
            continue;
        };
        let table = Table::with_megabytes(16);
        let options = JobOptions {
            threads: 2 + solved % 2,
            ..options(None)
        };
        let report = run_job(&table, &position, &options, &mut |_| {}).unwrap();
        let JobOutcome::Solved {
            wins,
            proof: Some(proof),
            ..
        } = report.outcome
        else {
            panic!("{position}: not solved: {:?}", report.outcome);
        };
        assert_eq!(wins, winner == position.to_move(), "{position}");
        assert_eq!(proof.verify().unwrap().winner, winner, "{position}");
        solved += 1;
    }
    // 6x5's start takes millions of nodes: a job of 100,000 ends open.
    let position = Position::start("6x5".parse().unwrap());
    for threads in [2, 3] {
        let table = Table::with_megabytes(64);
        let budget = JobOptions {
            max_nodes: 100_000,
            threads,
            ..options(None)
        };
        let report = run_job(&table, &position, &budget, &mut |_| {}).unwrap();
        let JobOutcome::Open {
            children: Some(children),
            ..
        } = report.outcome
        else {
            panic!("{threads} threads: {:?}", report.outcome);
        };
        assert_eq!(children.len(), position.steps().len());
        // Each thread counts its nodes and reads the others' every 16,384 of its own.
        let slack = threads as u64 * (1 << 14);
        assert!(
            (100_000..=100_000 + slack).contains(&report.nodes),
            "{threads} threads searched {} nodes",
            report.nodes
        );
        let thresholds = (Pn::new(40), Pn::new(40));
        let bounded = JobOptions {
            thresholds,
            ..budget
        };
        let report = run_job(&table, &position, &bounded, &mut |_| {}).unwrap();
        let JobOutcome::Open { numbers, .. } = report.outcome else {
            panic!("{threads} threads: {:?}", report.outcome);
        };
        assert!(
            numbers.0 >= thresholds.0 || numbers.1 >= thresholds.1,
            "{threads} threads ended at {numbers:?}"
        );
    }
    // Past its thresholds a job goes on to its minimum of nodes, all its steps
    // together: the second step's budget is what the first one left.
    for threads in [1, 2, 3] {
        let table = Table::with_megabytes(64);
        let minimum = JobOptions {
            max_nodes: 1_000_000,
            min_nodes: 100_000,
            thresholds: (Pn::new(40), Pn::new(40)),
            threads,
            ..options(None)
        };
        let report = run_job(&table, &position, &minimum, &mut |_| {}).unwrap();
        assert!(matches!(report.outcome, JobOutcome::Open { .. }));
        let slack = threads as u64 * (1 << 14);
        assert!(
            (100_000..=100_000 + slack).contains(&report.nodes),
            "{threads} threads searched {} nodes",
            report.nodes
        );
    }
}
