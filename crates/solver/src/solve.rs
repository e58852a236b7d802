//! Solving a position: the search, then the length, the root's moves and the
//! proof, as the options ask.

use breakthrough_engine::{Color, Position, Step};

use crate::certificate;
use crate::certificate::extract::{ExtractError, Proof, ProofWriting};
use crate::length::{self, GameLength, PartialLength};
use crate::limits::{Budget, Limits, Stop};
use crate::options::{Algorithm, SolveOptions};
use crate::progress::{Phase, Progress, SearchStats};
use crate::race_rules;
use crate::search::dfpn::{Dfpn, DfpnConfig};
use crate::search::parallel;
use crate::search::reference;
use crate::search::team::{Outcome, Team};
use crate::solution::{RootMove, Solution};
use crate::table::key::Key;
use crate::table::pn::Pn;
use crate::table::Table;

/// Solves `position`, calling `observer` with progress now and then.
pub fn solve(
    position: &Position,
    options: &SolveOptions,
    observer: &mut dyn FnMut(&Progress),
) -> Solution {
    solve_saving(position, options, observer, &mut |_| {})
}

/// [`solve`], calling `before_proof` with the solution (length and root moves
/// included) once it is found and before the proof is extracted, when the options
/// ask for a proof: the extraction can take minutes after hours of search, and a
/// caller that saves the solution there keeps it if the process is killed.
pub fn solve_saving(
    position: &Position,
    options: &SolveOptions,
    observer: &mut dyn FnMut(&Progress),
    before_proof: &mut dyn FnMut(&Solution),
) -> Solution {
    let started = std::time::Instant::now();
    let table = Table::for_board(position.board(), options.table_mb);
    let (outcome, stats) = search(position, options, &table, observer);
    let to_move = position.to_move();
    let (wins, best) = match outcome {
        Ok(result) => result,
        Err(stop) => {
            return Solution {
                position: *position,
                winner: None,
                best_move: None,
                stopped: Some(stop),
                stats,
                root_moves: root_moves(position, &table, None),
                length: None,
                partial_length: None,
                proof: None,
            }
        }
    };
    let winner = if wins { to_move } else { to_move.opponent() };
    let mut solution = Solution {
        position: *position,
        winner: Some(winner),
        best_move: best.map(|step| position.to_move_text(step)),
        stopped: None,
        root_moves: root_moves(position, &table, Some((wins, best))),
        length: None,
        partial_length: None,
        proof: None,
        stats,
    };
    // What is left of the limits for each further step.
    let rest = |nodes: u64| options.limits.after(started.elapsed(), nodes);
    let mut nodes = solution.stats.nodes;
    if options.length {
        let found = rest(nodes)
            .map_err(|stop| (stop, None))
            .and_then(|limits| find_length(position, winner, limits, options, &table, observer));
        match found {
            Ok(found) => {
                nodes += found.nodes();
                solution.length = Some(found);
            }
            Err((stop, partial)) => {
                solution.stopped = Some(stop);
                solution.partial_length = partial;
                return solution;
            }
        }
    }
    if options.all_moves {
        let solved = rest(nodes).and_then(|limits| {
            let options = SolveOptions {
                limits,
                ..options.clone()
            };
            solve_root_moves(
                position,
                &mut solution.root_moves,
                &options,
                &table,
                observer,
            )
        });
        if let Err(stop) = solved {
            solution.stopped = Some(stop);
            return solution;
        }
    }
    if options.proof {
        before_proof(&solution);
        let plies = solution.length.as_ref().map(|found| found.plies);
        solution.proof = Some(prove(position, winner, plies, options, &table, observer));
    }
    solution
}

/// The search of the root that the options ask for: whether the side to move wins,
/// and with which move.
fn search(
    position: &Position,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> (Outcome, SearchStats) {
    match options.algorithm {
        Algorithm::Dfpn => parallel::search(position, options, table, observer),
        Algorithm::Reference => {
            let budget = Budget::new(options.limits.clone());
            let mut search = reference::Reference::new(
                table,
                budget,
                options.race_rules_of(position.board()),
                observer,
            );
            let outcome = search.solve_root(position);
            let root = match outcome {
                Ok((true, _)) => (Pn::ZERO, Pn::INF),
                Ok((false, _)) => (Pn::INF, Pn::ZERO),
                Err(_) => (Pn::ONE, Pn::ONE),
            };
            let stats = SearchStats::new(search.progress(root), search.race_rules);
            (outcome, stats)
        }
    }
}

/// The exact length of the game that `winner` wins, within `limits`, going on from
/// the earlier answers of the options that are about the same winner.
fn find_length(
    position: &Position,
    winner: Color,
    limits: Limits,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> Result<GameLength, (Stop, Option<PartialLength>)> {
    let options = SolveOptions {
        limits,
        ..options.clone()
    };
    let earlier = match &options.length_earlier {
        Some((about, answers)) if *about == winner => &answers[..],
        _ => &[],
    };
    length::exact_length(
        position,
        winner,
        earlier,
        options.length_guess,
        &options,
        table,
        observer,
    )
    .map_err(|(stop, partial)| (stop, Some(partial)))
}

/// The certificate that `winner` wins (of the length `plies`, when found), written
/// from the solve's table.
fn prove(
    position: &Position,
    winner: Color,
    plies: Option<u32>,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> Result<Proof, ExtractError> {
    // Only a stop flag applies: the extraction is short next to the solve, and a
    // limit would throw away a finished solve's proof.
    let limits = Limits {
        stop: options.limits.stop.clone(),
        ..Limits::default()
    };
    let team = Team::new(1);
    let config = DfpnConfig {
        phase: Phase::Proof,
        ..options.dfpn_config(position.board())
    };
    let mut search = Dfpn::new(table, &team, limits, config, observer);
    let writing = ProofWriting {
        memory: options.proof_mb << 20,
        settle_plies: options.settle_plies,
    };
    match plies {
        Some(plies) => length::extract_proof(&mut search, position, winner, plies, writing),
        None => certificate::extract::extract(&mut search, position, winner, writing),
    }
}

/// Solves each of the root's moves that the search left unproven (and, with
/// `options.length`, finds every move's length), one at a time over `table`; a
/// move and its mirror image are solved once. `options.limits` apply to them all.
fn solve_root_moves(
    position: &Position,
    moves: &mut [RootMove],
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> Result<(), Stop> {
    let started = std::time::Instant::now();
    let mut nodes = 0;
    let mut known: hashbrown::HashMap<Key, (bool, Option<u32>)> = hashbrown::HashMap::new();
    let mover = position.to_move();
    for root_move in moves.iter_mut() {
        let child = position.play(root_move.mv);
        let key = Key::of(&child);
        if let Some(&(wins, length)) = known.get(&key) {
            root_move.wins = Some(wins);
            root_move.length = length;
            continue;
        }
        let options = SolveOptions {
            limits: options.limits.after(started.elapsed(), nodes)?,
            ..options.clone()
        };
        let mut report = |p: &Progress| {
            observer(&Progress {
                phase: match p.phase {
                    Phase::Search => Phase::RootMoves,
                    other => other,
                },
                ..*p
            })
        };
        let wins = match (root_move.wins, child.winner()) {
            (Some(wins), _) => wins,
            (None, Some(winner)) => winner == mover,
            (None, None) => {
                let (outcome, stats) = parallel::search(&child, &options, table, &mut report);
                nodes += stats.nodes;
                !outcome?.0
            }
        };
        root_move.wins = Some(wins);
        if options.length {
            let child_winner = if wins { mover } else { mover.opponent() };
            let options = SolveOptions {
                limits: options.limits.after(started.elapsed(), nodes)?,
                ..options.clone()
            };
            let found = length::exact_length(
                &child,
                child_winner,
                &[],
                None,
                &options,
                table,
                &mut report,
            )
            .map_err(|(stop, _)| stop)?;
            nodes += found.nodes();
            root_move.length = Some(1 + found.plies);
        }
        known.insert(key, (wins, root_move.length));
    }
    Ok(())
}

/// The root's moves with the outcomes the search proved: all of them lose when the
/// root is lost; otherwise the best move wins, and the table may know others.
fn root_moves(
    position: &Position,
    table: &Table,
    outcome: Option<(bool, Option<Step>)>,
) -> Vec<RootMove> {
    let mover = position.to_move();
    position
        .steps()
        .into_iter()
        .map(|step| {
            let child = position.play_step(step);
            let key = Key::of(&child);
            let wins = match (outcome, child.winner()) {
                (_, Some(winner)) => Some(winner == mover),
                (Some((false, _)), _) => Some(false),
                (Some((true, Some(best))), _) if best == step => Some(true),
                _ => race_rules::classify(&child)
                    .side_to_move_wins()
                    .or_else(|| match table.probe(&key, key.hash()) {
                        Some((phi, _)) if phi == Pn::ZERO => Some(true),
                        Some((_, delta)) if delta == Pn::ZERO => Some(false),
                        _ => None,
                    })
                    .map(|child_wins| !child_wins),
            };
            RootMove {
                mv: position.to_move_text(step),
                wins,
                length: None,
            }
        })
        .collect()
}
