//! What a running search reports: its phase, its progress now and then, and its
//! figures at the end.

use crate::limits::Budget;
use crate::race_rules::RaceRuleStats;
use crate::table::pn::Pn;
use crate::table::{Table, TableStats};

/// Figures from a search.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// Nodes searched (positions visited, expanded or decided by the race rules), all
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
    /// What the race rules decided.
    pub race_rules: RaceRuleStats,
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
    /// Solving the root's moves one by one (`crate::SolveOptions::all_moves`).
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
    /// race rules decided.
    pub(crate) fn new(last: Progress, race_rules: RaceRuleStats) -> SearchStats {
        SearchStats {
            nodes: last.nodes,
            seconds: last.seconds,
            root_proof: last.root_proof,
            root_disproof: last.root_disproof,
            table: last.table,
            race_rules,
            threads: 1,
            thread_nodes: vec![last.nodes],
        }
    }
}
