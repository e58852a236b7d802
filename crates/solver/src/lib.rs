//! Solvers for Breakthrough positions: who wins with best play, and how.
//!
//! - [`Algorithm::Dfpn`]: depth-first proof-number search with the 1+epsilon trick
//!   and the race rules (see [`knowledge`]), the default. It runs on
//!   [`SolveOptions::threads`] threads that share one table and are steered apart by
//!   virtual proof numbers; the design, why it was chosen and what it costs are in
//!   the [`parallel`] module.
//! - [`Algorithm::Reference`]: plain exhaustive depth-first search with the same
//!   race rules; the baseline, and the check on df-pn's search.
//!
//! The race rules ([`Knowledge`]) close positions before the game ends: a win in one,
//! the defence against a piece one step from its goal, and race wins found by an
//! exact bounded search (the side to move reaches its goal within `k` of its moves
//! against every reply, before the opponent can). They are checked against searches
//! that know only the rules, in the tests; [`Knowledge::NONE`] turns them off.
//!
//! With [`SolveOptions::proof`], a solved position also gets a [`Certificate`]: the
//! winner's strategy written out in full, which [`Certificate::verify`] checks with
//! the rules alone (see [`certificate`]).
//!
//! Both keep a bounded [`Table`] whose entries verify their whole key, so a hash
//! collision can never turn into a wrong proof; a position and its mirror image share
//! an entry. Limits ([`Limits`]) give an unknown result, never a wrong one.
//!
//! ```
//! use breakthrough_engine::{Board, Color, Position};
//! use breakthrough_solver::{solve, SolveOptions};
//!
//! let start = Position::start("4x4".parse::<Board>()?);
//! let solution = solve(&start, &SolveOptions::default(), &mut |_| {});
//! assert_eq!(solution.winner, Some(Color::Black));
//! assert_eq!(solution.best_move, None); // White, to move, loses
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod certificate;
mod dfpn;
pub mod job;
mod key;
pub mod knowledge;
pub mod length;
mod limits;
pub mod parallel;
mod pn;
mod race;
mod reference;
mod solution;
mod table;

use breakthrough_engine::{Board, Color, Position};

pub use breakthrough_proof::{Certificate, Claim};
pub use certificate::extract::{ExtractError, Proof};
pub use job::{run_job, JobOptions, JobOutcome, JobReport, Proven, ProvenSlot};
pub use key::Key;
pub use knowledge::{Knowledge, KnowledgeStats};
pub use length::{check_earlier, GameLength, PartialLength, Probe, Unanswered};
pub use limits::{Limits, Stop};
pub use pn::Pn;
pub use solution::{Phase, Progress, RootMove, SearchStats, Solution};
pub use table::{SavedEntry, Table, TableStats};

use limits::Budget;

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Depth-first proof-number search with the 1+epsilon trick.
    #[default]
    Dfpn,
    /// Plain exhaustive depth-first search with a table.
    Reference,
}

impl Algorithm {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dfpn => "dfpn",
            Algorithm::Reference => "reference",
        }
    }
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub algorithm: Algorithm,
    /// Transposition table size in MiB.
    pub table_mb: usize,
    pub limits: Limits,
    /// `1/epsilon` for df-pn's 1+epsilon trick (4 means epsilon = 1/4).
    pub inverse_epsilon: u32,
    /// The race rules to apply (all, by default).
    pub knowledge: Knowledge,
    /// Extract a certificate after a successful solve (see [`certificate`]).
    pub proof: bool,
    /// MiB of the extraction's memory of the positions it has written, to refer
    /// back to (a proof bigger than that is written with some positions twice).
    pub proof_mb: usize,
    /// Threads for df-pn (the reference search uses one); see [`parallel`].
    pub threads: usize,
    /// Ask instead whether this side wins within this many plies (df-pn only; see
    /// [`Key::within`] and the [`length`] module, which asks it).
    pub within: Option<(Color, u32)>,
    /// After the solve, find the exact length of the game under perfect play (see
    /// [`length`]); the proof, if asked for, is then the length's certificate.
    pub length: bool,
    /// Answers of an earlier length search of the root that a limit stopped, to go
    /// on from (see [`length::exact_length`]), with the winner they are about: used
    /// only if the solve proves the same winner (check them with
    /// [`length::check_earlier`] first).
    pub length_earlier: Option<(Color, Vec<Probe>)>,
    /// Solve every move at the root (and, with `length`, find each one's length).
    pub all_moves: bool,
    /// Deep df-pn's `D`, how much more a leaf near the root is taken to cost (0:
    /// plain df-pn+); `None`, the default: the board's number of squares (see
    /// [`SolveOptions::depth_bias_of`]).
    pub depth_bias: Option<u32>,
}

impl SolveOptions {
    /// The depth bias a search of `board` uses: [`SolveOptions::depth_bias`] or, by
    /// default, the board's number of squares.
    pub fn depth_bias_of(&self, board: Board) -> u32 {
        dfpn::bias_for(self.depth_bias, board)
    }

    /// The root's table key: the question the search answers.
    pub(crate) fn root_key(&self, root: &Position) -> Key {
        match self.within {
            Some((winner, plies)) => Key::within(root, winner, plies),
            None => Key::of(root),
        }
    }
}

/// The default of [`SolveOptions::proof_mb`]: every position of a proof of up to
/// about 29 M positions (6x5's has about 25 M), 41 bytes each in a map that may
/// grow by half again.
pub const DEFAULT_PROOF_MB: usize = 2048;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Dfpn,
            table_mb: 64,
            limits: Limits::default(),
            inverse_epsilon: 4,
            knowledge: Knowledge::default(),
            proof: false,
            proof_mb: DEFAULT_PROOF_MB,
            threads: 1,
            within: None,
            length: false,
            length_earlier: None,
            all_moves: false,
            depth_bias: None,
        }
    }
}

/// Solves `position`, calling `observer` with progress now and then.
pub fn solve(
    position: &Position,
    options: &SolveOptions,
    observer: &mut dyn FnMut(&Progress),
) -> Solution {
    let started = std::time::Instant::now();
    let table = Table::for_board(position.board(), options.table_mb);
    let (outcome, stats) = match options.algorithm {
        Algorithm::Dfpn => parallel::search(position, options, &table, observer),
        Algorithm::Reference => {
            let budget = Budget::new(options.limits.clone());
            let mut search = reference::Reference::new(&table, budget, options.knowledge, observer);
            let outcome = search.solve_root(position);
            let root = match outcome {
                Ok((true, _)) => (Pn::ZERO, Pn::INF),
                Ok((false, _)) => (Pn::INF, Pn::ZERO),
                Err(_) => (Pn::ONE, Pn::ONE),
            };
            let stats = SearchStats::new(search.progress(root), search.knowledge);
            (outcome, stats)
        }
    };
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
        let found = match rest(nodes) {
            Ok(limits) => {
                let options = SolveOptions {
                    limits,
                    ..options.clone()
                };
                let earlier = match &options.length_earlier {
                    Some((about, answers)) if *about == winner => &answers[..],
                    _ => &[],
                };
                length::exact_length(position, winner, earlier, &options, &table, observer)
                    .map_err(|(stop, partial)| (stop, Some(partial)))
            }
            Err(stop) => Err((stop, None)),
        };
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
        // Only a stop flag applies: the extraction is short next to the solve, and a
        // limit would throw away a finished solve's proof.
        let limits = Limits {
            stop: options.limits.stop.clone(),
            ..Limits::default()
        };
        let team = parallel::Team::new(1);
        let mut search = dfpn::Dfpn::new(
            &table,
            &team,
            Budget::new(limits),
            options.inverse_epsilon,
            options.knowledge,
            observer,
        );
        search.phase = Phase::Proof;
        search.depth_bias = options.depth_bias;
        let memory = options.proof_mb << 20;
        solution.proof = Some(match &solution.length {
            Some(found) => {
                length::extract_proof(&mut search, position, winner, found.plies, memory)
            }
            None => certificate::extract::extract(&mut search, position, winner, memory),
        });
    }
    solution
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
            let found =
                length::exact_length(&child, child_winner, &[], &options, table, &mut report)
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
    outcome: Option<(bool, Option<breakthrough_engine::Step>)>,
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
                _ => knowledge::classify(&child)
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
