//! Every solver against a plain search that knows only the rules, and df-pn against
//! the reference solver, on start positions and on many random positions.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use breakthrough_engine::{Board, Color, Position, Step};
use breakthrough_proof::testing::{random_endgame, rules_only_wins};
use breakthrough_solver::race_rules::{classify, RaceRules, Verdict, REENTRY_MIN_SQUARES};
use breakthrough_solver::{solve, Algorithm, Limits, Solution, SolveOptions, Stop};

mod common;
use common::{check_best_move, check_certificate, random_game_position};

fn options(algorithm: Algorithm, max_nodes: Option<u64>) -> SolveOptions {
    SolveOptions {
        algorithm,
        table_mb: 16,
        limits: Limits {
            max_nodes,
            ..Limits::default()
        },
        ..SolveOptions::default()
    }
}

fn run(position: &Position, algorithm: Algorithm, max_nodes: Option<u64>) -> Solution {
    solve(position, &options(algorithm, max_nodes), &mut |_| {})
}

#[test]
fn start_positions_agree_with_the_rules_only_search() {
    for size in ["3x4", "4x4", "5x4", "2x6", "3x5", "3x6"] {
        let start = Position::start(size.parse().unwrap());
        let truth = rules_only_wins(&start, &mut HashMap::new());
        for algorithm in [Algorithm::Dfpn, Algorithm::Reference] {
            let solution = run(&start, algorithm, None);
            let wins = solution.winner.map(|w| w == Color::White);
            assert_eq!(wins, Some(truth), "{size} {algorithm:?}");
            // And without any race rules (the ablation's plain search).
            let plain = SolveOptions {
                race_rules: false,
                ..options(algorithm, None)
            };
            let solution = solve(&start, &plain, &mut |_| {});
            let wins = solution.winner.map(|w| w == Color::White);
            assert_eq!(wins, Some(truth), "{size} {algorithm:?} without race rules");
            assert_eq!(solution.stats.race_rules.closed(), 0);
            assert!(
                solution.best_move.is_none() || check_best_move(&solution),
                "{size}"
            );
        }
    }
}

/// Every supported board of at most `squares` squares.
fn boards_up_to(squares: u32) -> Vec<Board> {
    let mut boards = Vec::new();
    for width in 2..=squares / 4 {
        for height in 4..=squares / width {
            boards.push(Board::new(width, height).unwrap());
        }
    }
    boards
}

#[test]
fn dfpn_agrees_with_reference_on_start_positions() {
    // Every start position up to 5x4 and 4x5, and a few more.
    let mut boards = boards_up_to(20);
    boards.extend(["6x4", "3x6"].map(|size| size.parse::<Board>().unwrap()));
    assert_eq!(boards.len(), 15);
    for board in boards {
        let size = board.to_string();
        let start = Position::start(board);
        let dfpn = run(&start, Algorithm::Dfpn, None);
        let reference = run(&start, Algorithm::Reference, None);
        assert!(dfpn.is_solved() && reference.is_solved(), "{size}");
        assert_eq!(dfpn.winner, reference.winner, "{size}");
        assert!(dfpn.best_move.is_none() || check_best_move(&dfpn), "{size}");
    }
}

/// Even attempts: a random game of `squares/2 .. max_plies` plies; odd: an endgame.
fn random_position(
    board: Board,
    attempt: u32,
    max_plies: u32,
    rng: &mut fastrand::Rng,
) -> Option<Position> {
    if attempt.is_multiple_of(2) {
        random_game_position(board, rng.u32(board.squares() / 2..max_plies), rng)
    } else {
        random_endgame(board, 4, rng)
    }
}

/// Random positions of `board` (one of [`random_position`]'s for each of `attempts`)
/// that the reference solver settles within 500,000 nodes, each with its winner.
fn settled_positions(
    board: Board,
    attempts: u32,
    rng: &mut fastrand::Rng,
) -> Vec<(Position, Color)> {
    (0..attempts)
        .filter_map(|attempt| {
            let position = random_position(board, attempt, board.squares(), rng)?;
            let truth = run(&position, Algorithm::Reference, Some(500_000)).winner?;
            Some((position, truth))
        })
        .collect()
}

/// df-pn and the reference on random positions of larger boards; both with a node
/// budget, compared wherever both finish (and limits never give a wrong answer).
#[test]
fn dfpn_agrees_with_reference_on_random_positions() {
    let mut rng = fastrand::Rng::with_seed(2026);
    let mut compared = 0;
    // 4x8: among the largest boards of narrow table entries (32 squares, an army in
    // one word); 7x7 and 8x8 have wide ones.
    for size in ["5x5", "6x4", "4x6", "6x5", "4x8", "7x7", "8x8"] {
        let board: Board = size.parse().unwrap();
        let mut here = 0;
        let mut best_moves = 0;
        for attempt in 0..300 {
            let position = random_position(board, attempt, 3 * board.squares() / 2, &mut rng);
            let Some(position) = position else { continue };
            let dfpn = run(&position, Algorithm::Dfpn, Some(50_000));
            let reference = run(&position, Algorithm::Reference, Some(500_000));
            if let (Some(a), Some(b)) = (dfpn.winner, reference.winner) {
                assert_eq!(a, b, "{size}: {position}");
                best_moves += usize::from(check_best_move(&dfpn));
                here += 1;
            }
        }
        assert!(here >= 80, "{size}: only {here} positions solved by both");
        assert!(
            best_moves >= 20,
            "{size}: only {best_moves} best moves checked"
        );
        compared += here;
    }
    assert!(compared >= 600, "{compared}");
}

/// Deep df-pn's depth bias only orders the search: off, small, the default or large,
/// the answers are the reference's and the certificates verify.
#[test]
fn the_depth_bias_never_changes_an_answer() {
    let mut rng = fastrand::Rng::with_seed(31);
    let mut compared = 0;
    for size in ["4x4", "3x5", "5x5", "4x6", "6x5"] {
        let board: Board = size.parse().unwrap();
        for (position, truth) in settled_positions(board, 40, &mut rng) {
            for depth_bias in [Some(0), Some(3), None, Some(100)] {
                let options = SolveOptions {
                    proof: true,
                    depth_bias,
                    ..options(Algorithm::Dfpn, Some(200_000))
                };
                let solution = solve(&position, &options, &mut |_| {});
                if solution.is_solved() {
                    assert_eq!(solution.winner, Some(truth), "{position} {depth_bias:?}");
                    check_certificate(&solution);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 300, "{compared}");
}

/// A random position of a game: `plies` random moves from the start, then random
/// moves that avoid letting either side win at once, so that races are common.
fn random_race_position(board: Board, rng: &mut fastrand::Rng) -> Option<Position> {
    let mut position = Position::start(board);
    for _ in 0..rng.u32(board.squares() / 2..2 * board.squares()) {
        let steps = position.steps();
        if steps.is_empty() {
            return None;
        }
        let step = steps[rng.usize(..steps.len())];
        let next = position.play_step(step);
        if next.winner().is_some() || classify(&next) == Verdict::WinInOne {
            break;
        }
        position = next;
    }
    position.winner().is_none().then_some(position)
}

/// Whether the side to move can force a win within `plies` plies, by plain
/// depth-bounded search over the rules alone (the winner's move first, if given).
fn wins_within(position: &Position, plies: u32, first: Option<Step>) -> bool {
    if position.winner().is_some() || plies == 0 {
        return false;
    }
    let mut steps = position.steps();
    if let Some(first) = first {
        steps.sort_by_key(|&s| s != first);
    }
    steps.into_iter().any(|step| {
        let next = position.play_step(step);
        next.winner() == Some(position.to_move()) || loses_within(&next, plies - 1)
    })
}

/// Whether the side to move loses within `plies` plies whatever it does.
fn loses_within(position: &Position, plies: u32) -> bool {
    if position.winner().is_some() {
        return position.winner() != Some(position.to_move());
    }
    plies > 0
        && position.steps().into_iter().all(|step| {
            let next = position.play_step(step);
            next.winner().is_none() && wins_within(&next, plies - 1, None)
        })
}

/// Every verdict of the race rules against searches that know only the rules: each
/// rule that decides a position must be right, within the number of moves it claims,
/// with the first move it names; narrowing must drop only losing moves. Endgames are
/// also solved in full.
#[test]
fn race_rules_agree_with_the_rules_only_search() {
    let mut rng = fastrand::Rng::with_seed(99);
    let rules = RaceRules {
        enabled: true,
        race_moves: 5,
    };
    let mut decided = HashMap::new();
    let mut narrowed = 0;
    let mut positions = 0;
    for size in [
        "3x4", "4x4", "3x5", "4x5", "5x4", "2x8", "3x6", "5x5", "6x4", "4x6", "6x5", "7x6",
    ] {
        let board: Board = size.parse().unwrap();
        for attempt in 0..10_000 {
            let endgame = attempt % 2 != 0;
            let position = if endgame {
                random_endgame(board, 4, &mut rng)
            } else {
                random_race_position(board, &mut rng)
            };
            let Some(position) = position else { continue };
            positions += 1;
            let verdict = rules.classify(&position);
            let mut memo = HashMap::new();
            if endgame {
                let truth = rules_only_wins(&position, &mut memo);
                if let Some(wins) = verdict.side_to_move_wins() {
                    assert_eq!(wins, truth, "{verdict:?} in {position}");
                }
            }
            let (kind, holds) = match verdict {
                Verdict::GameOver => ("game_over", position.winner().is_some()),
                Verdict::WinInOne => ("win_in_one", wins_within(&position, 1, None)),
                Verdict::DoubleThreat | Verdict::UnstoppableThreat => {
                    ("threat", loses_within(&position, 2))
                }
                Verdict::RaceWin { moves, step } => {
                    let plies = 2 * u32::from(moves) - 1;
                    let after = position.play_step(step);
                    let step_wins = after.winner() == Some(position.to_move())
                        || loses_within(&after, plies - 1);
                    (
                        [
                            "",
                            "",
                            "race_win_in_2",
                            "race_win_in_3",
                            "race_win_in_4",
                            "race_win_in_5",
                        ][usize::from(moves)],
                        step_wins && wins_within(&position, plies, Some(step)),
                    )
                }
                Verdict::MustCapture { captures, .. } => {
                    let allowed = position
                        .steps()
                        .into_iter()
                        .filter(|&s| verdict.allows(s))
                        .count();
                    assert_eq!(allowed as u32, captures, "{position}");
                    // Every other move lets the threat through at once.
                    let others_lose = position.steps().into_iter().all(|step| {
                        verdict.allows(step) || wins_within(&position.play_step(step), 1, None)
                    });
                    narrowed += 1;
                    ("must_capture", others_lose)
                }
                Verdict::Open => ("open", true),
                // Only a bounded question runs out of plies; classify never says so.
                Verdict::OutOfPlies => ("out_of_plies", false),
            };
            assert!(holds, "{verdict:?} is wrong in {size} {position}");
            *decided.entry(kind).or_insert(0) += 1;
        }
    }
    eprintln!("{positions} positions: {decided:?}");
    assert!(
        positions > 90_000 && narrowed > 1000,
        "{positions} {narrowed}"
    );
    for kind in [
        "race_win_in_2",
        "race_win_in_3",
        "race_win_in_4",
        "race_win_in_5",
        "win_in_one",
        "threat",
    ] {
        let count = decided.get(kind).copied().unwrap_or(0);
        assert!(count >= 100, "{kind}: only {count} decided: {decided:?}");
    }
}

#[test]
fn solutions_do_not_depend_on_the_mirror_image() {
    let mut rng = fastrand::Rng::with_seed(5);
    let board: Board = "5x5".parse().unwrap();
    for _ in 0..200 {
        let Some(position) = random_game_position(board, 14, &mut rng) else {
            continue;
        };
        let a = run(&position, Algorithm::Dfpn, Some(300_000));
        let b = run(&position.mirror(), Algorithm::Dfpn, Some(300_000));
        if a.is_solved() && b.is_solved() {
            assert_eq!(a.winner, b.winner, "{position}");
        }
    }
}

#[test]
fn limits_give_unknown_never_a_wrong_answer() {
    let start = Position::start("5x5".parse().unwrap());
    for algorithm in [Algorithm::Dfpn, Algorithm::Reference] {
        let solution = run(&start, algorithm, Some(1000));
        assert_eq!(solution.winner, None);
        assert_eq!(solution.best_move, None);
        assert_eq!(solution.stopped, Some(Stop::NodeLimit));
        assert!(solution.stats.nodes <= 1001);
    }
    let stopped = Arc::new(AtomicBool::new(true));
    let options = SolveOptions {
        limits: Limits {
            stop: Some(stopped),
            ..Limits::default()
        },
        ..options(Algorithm::Dfpn, None)
    };
    assert_eq!(
        solve(&start, &options, &mut |_| {}).stopped,
        Some(Stop::Interrupted)
    );
    let options = SolveOptions {
        limits: Limits {
            time_limit: Some(Duration::from_millis(1)),
            ..Limits::default()
        },
        ..options
    };
    let solution = solve(&start, &options, &mut |_| {});
    assert_eq!(
        (solution.stopped, solution.winner),
        (Some(Stop::TimeLimit), None)
    );
}

#[test]
fn a_small_table_still_gives_right_answers() {
    // 1 MiB holds 32k entries; these proofs touch far more, so entries are evicted
    // all the time.
    for size in ["4x5", "5x4", "3x6"] {
        let start = Position::start(size.parse().unwrap());
        let options = SolveOptions {
            table_mb: 1,
            ..options(Algorithm::Dfpn, None)
        };
        let small = solve(&start, &options, &mut |_| {});
        assert!(
            small.stats.table.replacements > 0 || size == "5x4",
            "{size}"
        );
        // The reference search (checked against the rules-only search above):
        // 4x5 is too large for that one here.
        let truth = run(&start, Algorithm::Reference, None).winner;
        assert!(truth.is_some(), "{size}");
        assert_eq!(small.winner, truth, "{size}");
    }
}

#[test]
fn progress_is_reported_on_long_searches() {
    let start = Position::start("3x7".parse().unwrap());
    let mut reports = 0;
    let solution = solve(&start, &options(Algorithm::Dfpn, None), &mut |p| {
        assert!(p.nodes > 0);
        reports += 1;
    });
    assert!(solution.is_solved());
    assert!(reports > 3, "{reports}");
}

#[test]
fn certificates_verify_on_random_positions() {
    let mut rng = fastrand::Rng::with_seed(77);
    let mut checked = 0;
    // 8x4 and 4x8: the largest boards of narrow table entries (32 squares, an army
    // in one word); 7x7 and 8x8 have wide ones.
    for size in ["5x5", "6x4", "4x6", "6x5", "8x4", "4x8", "7x7", "8x8"] {
        let board: Board = size.parse().unwrap();
        for attempt in 0..60 {
            let position = random_position(board, attempt, board.squares(), &mut rng);
            let Some(position) = position else { continue };
            let options = SolveOptions {
                proof: true,
                ..options(Algorithm::Dfpn, Some(50_000))
            };
            let solution = solve(&position, &options, &mut |_| {});
            if solution.is_solved() {
                check_certificate(&solution);
                checked += 1;
            } else {
                assert!(solution.proof.is_none());
            }
        }
    }
    assert!(checked >= 150, "{checked}");
}

/// The race wins one move longer than `race_moves`, looked for where df-pn enters a
/// position again on boards of at least `REENTRY_MIN_SQUARES`, close positions of
/// real solves; the answers are the rules-only search's and the certificates
/// verify, for each race length. Smaller boards never look for them.
#[test]
fn longer_races_where_the_search_returns_are_right() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut longer = [0; 2];
    let mut compared = 0;
    for (race_moves, longer) in [3, 4].into_iter().zip(&mut longer) {
        let proving = |max_nodes| SolveOptions {
            proof: true,
            race_moves: Some(race_moves),
            ..options(Algorithm::Dfpn, max_nodes)
        };
        for size in ["6x5", "5x6", "7x5"] {
            let board: Board = size.parse().unwrap();
            assert!(board.squares() >= REENTRY_MIN_SQUARES);
            for (position, truth) in settled_positions(board, 40, &mut rng) {
                let solution = solve(&position, &proving(Some(200_000)), &mut |_| {});
                if solution.is_solved() {
                    assert_eq!(solution.winner, Some(truth), "{position} {race_moves}");
                    check_certificate(&solution);
                    *longer += solution.stats.race_rules.race_win[race_moves as usize + 1];
                    compared += 1;
                }
            }
        }
        // Positions a few moves into a game, whose searches return to positions far
        // more often; the certificate, checked by the rules alone, is the answer's
        // check.
        for size in ["6x5", "5x6"] {
            let board: Board = size.parse().unwrap();
            for _ in 0..12 {
                let plies = rng.u32(8..16);
                let Some(position) = random_game_position(board, plies, &mut rng) else {
                    continue;
                };
                let solution = solve(&position, &proving(Some(400_000)), &mut |_| {});
                if solution.is_solved() {
                    check_certificate(&solution);
                    *longer += solution.stats.race_rules.race_win[race_moves as usize + 1];
                }
            }
        }
        // The smaller boards, where the longer races cost more than they save.
        for size in ["4x5", "3x6", "5x5"] {
            let board: Board = size.parse().unwrap();
            assert!(board.squares() < REENTRY_MIN_SQUARES);
            let solution = solve(&Position::start(board), &proving(None), &mut |_| {});
            check_certificate(&solution);
            let wins = solution.stats.race_rules.race_win[race_moves as usize + 1];
            assert_eq!(wins, 0, "{size} looked for longer races");
        }
    }
    eprintln!("{compared} positions, longer race wins (4, 5 moves): {longer:?}");
    assert!(compared >= 100, "{compared}");
    assert!(longer.iter().all(|&wins| wins >= 1000), "{longer:?}");
}

#[test]
fn certificates_survive_a_tiny_table_and_come_from_either_algorithm() {
    // With 1 MiB, most of the proof is evicted and must be proven again.
    for (size, algorithm, table_mb) in [
        ("3x6", Algorithm::Dfpn, 1),
        ("3x5", Algorithm::Dfpn, 1),
        ("4x5", Algorithm::Reference, 16),
        ("3x6", Algorithm::Reference, 1),
    ] {
        let start = Position::start(size.parse().unwrap());
        let options = SolveOptions {
            table_mb,
            proof: true,
            ..options(algorithm, None)
        };
        let solution = solve(&start, &options, &mut |_| {});
        check_certificate(&solution);
    }
}

#[test]
fn root_moves_are_proven_where_claimed() {
    let mut memo = HashMap::new();
    for size in ["3x5", "3x6", "4x4"] {
        let start = Position::start(size.parse().unwrap());
        let solution = run(&start, Algorithm::Dfpn, None);
        assert_eq!(solution.root_moves.len(), start.steps().len());
        for root_move in &solution.root_moves {
            let after = start.play(root_move.mv);
            if let Some(wins) = root_move.wins {
                assert_eq!(
                    wins,
                    !rules_only_wins(&after, &mut memo),
                    "{size} {}",
                    root_move.mv
                );
            }
        }
        let winning = solution.root_moves.iter().filter(|m| m.wins == Some(true));
        assert_eq!(
            winning.count() > 0,
            solution.winner == Some(Color::White),
            "{size}"
        );
    }
}
