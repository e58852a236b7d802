//! What a solve reports.

use breakthrough_engine::{Color, Move, Position};

use crate::certificate::extract::{ExtractError, Proof};
use crate::limits::Budget;
use crate::{GameLength, KnowledgeStats, PartialLength, Pn, Stop, Table, TableStats};

/// Figures from a search.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// Nodes searched (positions visited, expanded or decided by the knowledge), all
    /// threads together.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The root's proof number: effort to prove the side to move wins.
    pub root_proof: Pn,
    /// The root's disproof number: effort to prove the side to move loses.
    pub root_disproof: Pn,
    /// The transposition table at the end.
    pub table: TableStats,
    /// What the endgame knowledge decided.
    pub knowledge: KnowledgeStats,
    /// Threads that searched.
    pub threads: usize,
    /// Nodes of each thread (the calling thread first).
    pub thread_nodes: Vec<u64>,
}

/// What a running search is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Solving the position.
    Search,
    /// Writing out the proof, re-proving what the table has lost.
    Proof,
    /// Asking whether the winner wins within this many plies (see [`crate::length`]).
    Length(u32),
    /// Solving the root's moves one by one (`SolveOptions::all_moves`).
    RootMoves,
}

/// Progress of a running search, handed to an observer now and then.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub phase: Phase,
    /// Nodes of this phase, all threads together.
    pub nodes: u64,
    pub seconds: f64,
    pub root_proof: Pn,
    pub root_disproof: Pn,
    pub table: TableStats,
}

impl Progress {
    /// The figures of a search now, with the root's numbers as last seen.
    pub(crate) fn snapshot(
        budget: &Budget,
        root: (Pn, Pn),
        table: &Table,
        phase: Phase,
    ) -> Progress {
        Progress {
            phase,
            nodes: budget.total(),
            seconds: budget.elapsed().as_secs_f64(),
            root_proof: root.0,
            root_disproof: root.1,
            table: table.stats(),
        }
    }
}

impl SearchStats {
    /// The final figures of a single-threaded search: the last snapshot and what the
    /// knowledge decided.
    pub(crate) fn new(last: Progress, knowledge: KnowledgeStats) -> SearchStats {
        SearchStats {
            nodes: last.nodes,
            seconds: last.seconds,
            root_proof: last.root_proof,
            root_disproof: last.root_disproof,
            table: last.table,
            knowledge,
            threads: 1,
            thread_nodes: vec![last.nodes],
        }
    }
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The position solved.
    pub position: Position,
    /// Who wins with best play; `None` when a limit stopped the search first.
    pub winner: Option<Color>,
    /// A move of the side to move that keeps its win; `None` when it loses or unknown.
    pub best_move: Option<Move>,
    /// Why the search stopped early, if it did.
    pub stopped: Option<Stop>,
    pub stats: SearchStats,
    /// Each legal move at the root with its outcome for the side playing it, as far
    /// as the search proved it (a won root proves one winning move, not all).
    pub root_moves: Vec<RootMove>,
    /// The exact length under perfect play, when asked for and found.
    pub length: Option<GameLength>,
    /// How far the length's questions got when a limit stopped them.
    pub partial_length: Option<PartialLength>,
    /// The certificate, when asked for and the position was solved.
    pub proof: Option<Result<Proof, ExtractError>>,
}

/// A move at the root and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// Whether the side playing it wins; `None` when the search did not prove it.
    pub wins: Option<bool>,
    /// Plies from the position to the end of the game when this move is played and
    /// both sides then play perfectly, the move counted; when asked for.
    pub length: Option<u32>,
}

impl Solution {
    /// Whether the search proved the outcome.
    pub fn is_solved(&self) -> bool {
        self.winner.is_some()
    }
}
