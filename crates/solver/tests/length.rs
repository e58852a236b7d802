//! The exact game length, every root move's value and the length certificate,
//! against a plain minimax search that knows only the rules.

use std::collections::HashMap;

use breakthrough_engine::{Board, Color, Position};
use breakthrough_proof::verify_length;
use breakthrough_solver::{check_earlier, solve, Claim, Limits, Solution, SolveOptions};

#[allow(dead_code)]
mod common;
use common::random_game_position;

/// The game's value under perfect play by search over the rules alone: whether the
/// side to move wins, and the plies to the end (the winner as fast as it can, the
/// loser as slow). The winner comes from an exhaustive win/loss search, the length
/// from exhaustive bounded searches "does the winner win within n plies?" for n = 1
/// or 2, 3 or 4, ... (a full minimax of 5x4 would visit tens of millions of
/// positions; these visit few). `None` past `budget` memoised positions.
struct Minimax {
    wins: HashMap<Position, bool>,
    within: HashMap<(Position, Color, u32), bool>,
    budget: usize,
}

impl Minimax {
    fn new(budget: usize) -> Minimax {
        Minimax {
            wins: HashMap::new(),
            within: HashMap::new(),
            budget,
        }
    }

    fn full(&self) -> bool {
        self.wins.len() + self.within.len() >= self.budget
    }

    fn wins(&mut self, position: &Position) -> Option<bool> {
        if position.winner().is_some() {
            return Some(false);
        }
        if let Some(&known) = self.wins.get(position) {
            return Some(known);
        }
        if self.full() {
            return None;
        }
        let mut wins = false;
        for step in position.steps() {
            if !self.wins(&position.play_step(step))? {
                wins = true;
                break;
            }
        }
        self.wins.insert(*position, wins);
        Some(wins)
    }

    /// Whether `winner` wins within `plies` plies.
    fn wins_within(&mut self, position: &Position, winner: Color, plies: u32) -> Option<bool> {
        if let Some(won_by) = position.winner() {
            return Some(won_by == winner);
        }
        if plies == 0 {
            return Some(false);
        }
        let key = (*position, winner, plies);
        if let Some(&known) = self.within.get(&key) {
            return Some(known);
        }
        if self.full() {
            return None;
        }
        let ours = position.to_move() == winner;
        let mut result = !ours;
        for step in position.steps() {
            if self.wins_within(&position.play_step(step), winner, plies - 1)? == ours {
                result = ours;
                break;
            }
        }
        self.within.insert(key, result);
        Some(result)
    }

    fn value(&mut self, position: &Position) -> Option<(bool, u32)> {
        let mover_wins = self.wins(position)?;
        let winner = if mover_wins {
            position.to_move()
        } else {
            position.to_move().opponent()
        };
        let mut plies = 0;
        while !self.wins_within(position, winner, plies)? {
            plies += 1;
        }
        Some((mover_wins, plies))
    }
}

fn length_options(proof: bool, all_moves: bool) -> SolveOptions {
    SolveOptions {
        table_mb: 16,
        length: true,
        proof,
        all_moves,
        ..SolveOptions::default()
    }
}

fn solve_length(position: &Position, proof: bool, all_moves: bool) -> Solution {
    solve(position, &length_options(proof, all_moves), &mut |_| {})
}

/// Checks a solve with `length` against minimax's value of the position.
fn check_length(position: &Position, solution: &Solution, value: (bool, u32)) {
    let (mover_wins, plies) = value;
    let winner = if mover_wins {
        position.to_move()
    } else {
        position.to_move().opponent()
    };
    assert_eq!(solution.winner, Some(winner), "{position}");
    let found = solution.length.as_ref().expect("a length");
    assert_eq!(found.plies, plies, "{position}");
    // Its answers, with those of a run it went on from, include a "yes" at the
    // length and a "no" two plies below it (unless a game cannot be shorter).
    let asked = |plies: u32, wins: bool| {
        (found.earlier.iter())
            .chain(&found.probes)
            .any(|p| p.plies == plies && p.wins == wins)
    };
    assert!(plies == 0 || asked(plies, true), "{position}");
    let least = if mover_wins { 1 } else { 2 };
    assert!(plies <= least || asked(plies - 2, false), "{position}");
}

#[test]
fn start_positions_have_the_minimax_length() {
    for size in ["2x4", "3x4", "4x4", "5x4", "2x5", "3x5", "2x6"] {
        let position = Position::start(size.parse::<Board>().unwrap());
        let value = Minimax::new(usize::MAX).value(&position).unwrap();
        let solution = solve_length(&position, true, false);
        check_length(&position, &solution, value);
        check_length_certificate(&solution);
    }
}

#[test]
fn random_positions_have_the_minimax_length() {
    let mut rng = fastrand::Rng::with_seed(13);
    let mut checked = HashMap::new();
    let mut resumes = 0;
    let mut guesses = 0;
    for size in ["4x5", "5x5", "6x4", "4x6"] {
        let board: Board = size.parse().unwrap();
        let mut count = 0;
        let mut tries = 0;
        while count < 100 && tries < 5_000 {
            tries += 1;
            let plies = rng.u32(6..24);
            let Some(position) = random_game_position(board, plies, &mut rng) else {
                continue;
            };
            let Some(value) = Minimax::new(200_000).value(&position) else {
                continue;
            };
            let mut options = length_options(count % 10 == 0, false);
            if count % 3 == 1 {
                // A guess anywhere from the shortest game to past the length: the
                // same length, from questions going down as well as up.
                options.length_guess = Some(rng.u32(0..value.1 + 10));
                guesses += 1;
            }
            let mut solution = solve(&position, &options, &mut |_| {});
            let length_nodes = solution.length.as_ref().map_or(0, |l| l.nodes());
            if length_nodes > 2 {
                // Stopped after a random share of the length's nodes (the solve on
                // one thread takes the same nodes again), then gone on from its
                // answers: the same length.
                let nodes = solution.stats.nodes + rng.u64(1..length_nodes);
                let stopped = solve(
                    &position,
                    &SolveOptions {
                        limits: Limits {
                            max_nodes: Some(nodes),
                            ..Limits::default()
                        },
                        ..options.clone()
                    },
                    &mut |_| {},
                );
                if let (Some(winner), Some(partial)) = (stopped.winner, stopped.partial_length) {
                    let earlier = partial.answers();
                    check_earlier(&position, winner, &earlier).unwrap();
                    let resumed = SolveOptions {
                        length_earlier: Some((winner, earlier)),
                        ..options.clone()
                    };
                    solution = solve(&position, &resumed, &mut |_| {});
                    resumes += 1;
                }
            }
            check_length(&position, &solution, value);
            if count % 10 == 0 {
                check_length_certificate(&solution);
            }
            count += 1;
        }
        checked.insert(size, count);
    }
    for (size, count) in checked {
        assert!(count >= 100, "{size}: only {count} positions checked");
    }
    assert!(
        resumes >= 25,
        "only {resumes} length searches gone on from a stopped one"
    );
    assert!(
        guesses >= 100,
        "only {guesses} length searches from a guess"
    );
}

#[test]
fn every_root_move_has_its_minimax_value() {
    let mut rng = fastrand::Rng::with_seed(29);
    let mut count = 0;
    let mut wins_seen = 0;
    for size in ["4x4", "3x5", "4x5", "5x5", "6x4"] {
        let board: Board = size.parse().unwrap();
        let mut done = 0;
        for _ in 0..2_000 {
            if done == 12 {
                break;
            }
            let plies = rng.u32(4..20);
            let Some(position) = random_game_position(board, plies, &mut rng) else {
                continue;
            };
            let mut minimax = Minimax::new(400_000);
            let Some(value) = minimax.value(&position) else {
                continue;
            };
            let children: Option<Vec<(bool, u32)>> = position
                .steps()
                .into_iter()
                .map(|step| minimax.value(&position.play_step(step)))
                .collect();
            let Some(children) = children else {
                continue;
            };
            let solution = solve_length(&position, false, true);
            check_length(&position, &solution, value);
            assert_eq!(solution.root_moves.len(), children.len());
            for (root_move, &(child_wins, plies)) in solution.root_moves.iter().zip(&children) {
                assert_eq!(
                    root_move.wins,
                    Some(!child_wins),
                    "{position} {}",
                    root_move.mv
                );
                assert_eq!(
                    root_move.length,
                    Some(plies + 1),
                    "{position} {}",
                    root_move.mv
                );
                wins_seen += usize::from(!child_wins);
            }
            done += 1;
            count += 1;
        }
    }
    assert!(count >= 50, "only {count} positions checked");
    assert!(wins_seen >= 20, "only {wins_seen} winning moves seen");
}

/// The length certificate of a solve: both parts verify with the rules alone and
/// prove the solve's length; the main line is perfect play that ends the game at
/// exactly that ply; bounds one ply too tight fail.
fn check_length_certificate(solution: &Solution) {
    let position = &solution.position;
    let length = solution.length.as_ref().unwrap().plies;
    let proof = solution.proof.as_ref().unwrap().as_ref().unwrap();
    assert!(proof.is_perfect_play());
    let parts = proof.parts();
    let reports: Vec<_> = parts
        .iter()
        .map(|part| part.verify().unwrap_or_else(|e| panic!("{position}: {e}")))
        .collect();
    assert_eq!(verify_length(&reports), Ok(length), "{position}");
    assert_eq!(reports[0].winner, solution.winner.unwrap());
    assert_eq!(reports[0].height, length, "the win takes the whole length");
    // Round trip through the file format.
    let read = breakthrough_proof::read_parts(&proof.to_bytes()).unwrap();
    assert_eq!(read, parts);

    let mut end = *position;
    for mv in &proof.principal_variation {
        end = end.try_play(*mv).expect("main line is legal");
    }
    assert_eq!(end.winner(), solution.winner, "{position}");
    assert_eq!(proof.principal_variation.len() as u32, length, "{position}");

    if length >= 2 {
        let tighter = parts[0].with_claim(Claim::WinsWithin(length - 2));
        assert!(
            tighter.verify().is_err(),
            "{position}: a win in {}",
            length - 2
        );
        let longer = parts[1].with_claim(Claim::HoldsOut(length));
        let failed = longer.verify().map_or(true, |report| {
            verify_length(&[reports[0].clone(), report]).is_err()
        });
        assert!(failed, "{position}: holding out {length} plies");
    }
    let swapped = [reports[1].clone(), reports[0].clone()];
    assert!(verify_length(&swapped).is_err());
}
