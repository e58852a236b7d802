//! Solvers for Breakthrough positions: who wins with best play, and how.
//!
//! - [`Algorithm::Dfpn`]: depth-first proof-number search with the 1+epsilon trick
//!   and the race rules (see [`race_rules`]), the default. It runs on
//!   [`SolveOptions::threads`] threads that share one table and are steered apart by
//!   virtual proof numbers; the design, why it was chosen and what it costs are in
//!   the [`search::parallel`] module.
//! - [`Algorithm::Reference`]: plain exhaustive depth-first search with the same
//!   race rules; the baseline, and the check on df-pn's search.
//!
//! The race rules ([`RaceRules`]) close positions before the game ends: a win in one,
//! the defence against a piece one step from its goal, and race wins found by an
//! exact bounded search (the side to move reaches its goal within `k` of its moves
//! against every reply, before the opponent can). They are checked against searches
//! that know only the rules, in the tests; [`RaceRules::NONE`] turns them off.
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
pub mod estimate;
pub mod length;
mod limits;
mod options;
mod progress;
pub mod race_rules;
pub mod search;
mod solution;
mod solve;
mod table;

pub use breakthrough_proof::{Certificate, Claim};
pub use certificate::extract::{ExtractError, Proof, ProofWriting};
pub use length::{check_earlier, GameLength, PartialLength, Probe, Unanswered, MAX_LENGTH_GUESS};
pub use limits::{Limits, Stop};
pub use options::{Algorithm, SolveOptions, DEFAULT_PROOF_MB};
pub use progress::{Phase, Progress, SearchStats};
pub use race_rules::{RaceRuleStats, RaceRules};
pub use search::bounded::{BoundedSearch, Searched, WrittenProof};
pub use search::dfpn::DfpnConfig;
pub use search::proven::ProvenElsewhere;
pub use solution::{RootMove, Solution};
pub use solve::{solve, solve_saving};
pub use table::key::Key;
pub use table::pn::Pn;
pub use table::{prefetch_line, SavedEntry, Table, TableStats};
