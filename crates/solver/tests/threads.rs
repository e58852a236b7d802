//! Parallel df-pn: the answer must not depend on the thread count or on timing.
//! Every solve here is compared with the single-threaded reference solver, and its
//! certificate (checked by the rules alone) must prove the winner it claims.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use breakthrough_engine::{Board, Color, Position};
use breakthrough_solver::{solve, Limits, Solution, SolveOptions, Stop};

mod common;
use common::{check_best_move, check_certificate, random_game_position, reference};

const THREADS: [usize; 3] = [1, 2, 4];

fn options(threads: usize, table_mb: usize, max_nodes: Option<u64>) -> SolveOptions {
    SolveOptions {
        table_mb,
        threads,
        limits: Limits {
            max_nodes,
            ..Limits::default()
        },
        ..SolveOptions::default()
    }
}

/// The thread count and the per-thread nodes add up.
fn check_stats(solution: &Solution, threads: usize) {
    let stats = &solution.stats;
    assert_eq!(stats.threads, threads);
    assert_eq!(stats.thread_nodes.len(), threads);
    assert_eq!(stats.thread_nodes.iter().sum::<u64>(), stats.nodes);
}

/// The certificate verifies with the rules alone and proves the claimed winner, and
/// the best move, when the side to move wins, keeps the win.
fn check_proof(solution: &Solution) {
    check_certificate(solution);
    check_best_move(solution);
}

#[test]
fn start_positions_give_one_answer_on_any_thread_count() {
    let mut boards: Vec<Board> = ["3x4", "4x4", "5x4", "6x4", "3x5", "4x5", "2x6", "3x6"]
        .iter()
        .map(|size| size.parse().unwrap())
        .collect();
    boards.push("7x4".parse().unwrap());
    for board in boards {
        let start = Position::start(board);
        let truth = reference(&start, None).winner;
        assert!(truth.is_some(), "{board}");
        for threads in THREADS {
            // Repeated: which thread proves what first differs from run to run.
            for _ in 0..3 {
                let options = SolveOptions {
                    proof: true,
                    ..options(threads, 64, None)
                };
                let solution = solve(&start, &options, &mut |_| {});
                assert_eq!(solution.winner, truth, "{board} on {threads} threads");
                check_stats(&solution, threads);
                check_proof(&solution);
            }
        }
    }
}

#[test]
fn five_by_five_is_a_second_player_win_on_two_and_four_threads() {
    let start = Position::start("5x5".parse().unwrap());
    for threads in [2, 4] {
        let options = SolveOptions {
            proof: true,
            ..options(threads, 256, None)
        };
        let solution = solve(&start, &options, &mut |_| {});
        assert_eq!(solution.winner, Some(Color::Black), "{threads} threads");
        check_stats(&solution, threads);
        check_proof(&solution);
    }
}

/// Random positions of larger boards, with node budgets: wherever both the parallel
/// search and the reference finish, they agree, and every parallel proof verifies.
#[test]
fn random_positions_agree_with_the_reference_on_any_thread_count() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut compared = 0;
    for size in ["5x5", "6x4", "4x6", "6x5", "7x7"] {
        let board: Board = size.parse().unwrap();
        let mut here = 0;
        for _ in 0..40 {
            let position = random_game(board, &mut rng);
            let truth = reference(&position, Some(500_000)).winner;
            for threads in [2, 4] {
                let options = SolveOptions {
                    proof: true,
                    ..options(threads, 16, Some(200_000))
                };
                let solution = solve(&position, &options, &mut |_| {});
                check_stats(&solution, threads);
                if solution.is_solved() {
                    check_proof(&solution);
                }
                if let (Some(a), Some(b)) = (solution.winner, truth) {
                    assert_eq!(a, b, "{size} on {threads} threads: {position}");
                    here += 1;
                }
            }
        }
        assert!(here >= 50, "{size}: only {here} compared");

        compared += here;
    }
    assert!(compared >= 300, "{compared}");
}

/// A position after `squares/2 .. squares` random moves from the start, with the
/// game still on (random games that end sooner are played again).
fn random_game(board: Board, rng: &mut fastrand::Rng) -> Position {
    let plies = rng.u32(board.squares() / 2..board.squares());
    loop {
        if let Some(position) = random_game_position(board, plies, rng) {
            return position;
        }
    }
}

#[test]
fn a_tiny_shared_table_still_gives_right_answers() {
    // 1 MiB: entries are evicted all the time, while four threads store into it.
    // (3x5 needs too few entries to be sure of an eviction.)
    for (size, evicts) in [("3x5", false), ("3x6", true), ("4x5", true)] {
        let start = Position::start(size.parse().unwrap());
        let truth = reference(&start, None).winner;
        let options = SolveOptions {
            proof: true,
            ..options(4, 1, None)
        };
        let solution = solve(&start, &options, &mut |_| {});
        assert_eq!(solution.winner, truth, "{size}");
        assert!(!evicts || solution.stats.table.replacements > 0, "{size}");
        check_proof(&solution);
    }
}

#[test]
fn limits_stop_every_thread_with_no_answer() {
    let start = Position::start("6x5".parse().unwrap());
    let solution = solve(&start, &options(4, 16, Some(100_000)), &mut |_| {});
    assert_eq!(
        (solution.winner, solution.stopped),
        (None, Some(Stop::NodeLimit))
    );
    check_stats(&solution, 4);
    // Each thread shares its count every 16k nodes, so none runs far past the limit.
    assert!(
        solution.stats.nodes <= 100_000 + 4 * (1 << 14),
        "{}",
        solution.stats.nodes
    );

    let timed = SolveOptions {
        limits: Limits {
            time_limit: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
        ..options(4, 16, None)
    };
    let solution = solve(&start, &timed, &mut |_| {});
    assert_eq!(
        (solution.winner, solution.stopped),
        (None, Some(Stop::TimeLimit))
    );
    check_stats(&solution, 4);

    let interrupted = SolveOptions {
        limits: Limits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        },
        ..options(2, 16, None)
    };
    let solution = solve(&start, &interrupted, &mut |_| {});
    assert_eq!(
        (solution.winner, solution.stopped),
        (None, Some(Stop::Interrupted))
    );
}

#[test]
fn progress_comes_from_the_calling_thread_with_everyone_s_nodes() {
    // The calling thread reports every 16 k of its own nodes: 3x7 (about 2 M nodes)
    // gives it reports however the work is split. 4x5 (42 k nodes since deep df-pn)
    // left it none when the other thread took most of the work.
    let start = Position::start("3x7".parse().unwrap());
    let mut last = 0;
    let solution = solve(&start, &options(2, 64, None), &mut |p| {
        assert!(p.nodes >= last);
        last = p.nodes;
    });
    assert!(solution.is_solved());
    assert!(last > 0 && last <= solution.stats.nodes);
}
