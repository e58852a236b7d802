//! What the threads of one df-pn search share besides the table: the busy marks
//! that steer them apart near the root, the count of their nodes, and the first
//! outcome (see [`crate::search::parallel`]).

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::Mutex;

use breakthrough_engine::Step;

use crate::limits::Stop;
use crate::table::pn::Pn;

/// Busy counters: enough that the few hundred positions being searched at a time
/// rarely share one (a shared counter only misleads the steering, never a result).
const BUSY_COUNTERS: usize = 1 << 16;

/// Threads steer one another apart only in the first plies below the root: positions
/// this deep or deeper are not marked busy, and a thread choosing among their
/// children follows the real numbers. Deeper down, two threads rarely meet (they
/// parted above), and steering there only sends a thread to a second-best child
/// near the frontier, speculation a single thread would not make; and every mark is
/// two atomic writes, and every steered choice a load per child, on counters the
/// other threads write too. Twelve plies took the fewest nodes and seconds of the
/// depths measured (`docs/performance-log.md`, "Parallel df-pn").
pub(crate) const STEER_DEPTH: usize = 12;

/// What the threads of one search share besides the table.
pub(crate) struct Team {
    threads: usize,
    /// Threads inside each position, by hash; empty with one thread.
    busy: Box<[AtomicU16]>,
    /// Set when the search is over for everyone.
    halt: AtomicBool,
    /// The first thread to finish says how: the root's numbers (settled, or past
    /// the thresholds) and its winning move, or the limit it hit.
    outcome: Mutex<Option<Numbers>>,
    /// Nodes the threads have reported so far.
    nodes: AtomicU64,
}

/// Whether the side to move wins at the root, and with which move.
pub(crate) type Outcome = Result<(bool, Option<Step>), Stop>;

/// How a thread's search of the root ended: the root's numbers (`phi`, `delta`)
/// and, when it is won, the winning move; or the limit that stopped it.
pub(crate) type Numbers = Result<(Pn, Pn, Option<Step>), Stop>;

impl Team {
    pub fn new(threads: usize) -> Team {
        let threads = threads.max(1);
        let busy = if threads > 1 {
            (0..BUSY_COUNTERS).map(|_| AtomicU16::new(0)).collect()
        } else {
            Box::default()
        };
        Team {
            threads,
            busy,
            halt: AtomicBool::new(false),
            outcome: Mutex::new(None),
            nodes: AtomicU64::new(0),
        }
    }

    pub fn is_parallel(&self) -> bool {
        self.threads > 1
    }

    /// Whether positions `depth` plies below the root are marked busy and steered
    /// away from (see [`STEER_DEPTH`]).
    #[inline]
    pub fn steers_at(&self, depth: usize) -> bool {
        self.is_parallel() && depth < STEER_DEPTH
    }

    #[inline]
    fn counter(&self, hash: u64) -> Option<&AtomicU16> {
        // The top bits: the table's bucket comes from the same hash, but a
        // coincidence between the two costs nothing.
        self.busy.get((hash >> 48) as usize % BUSY_COUNTERS)
    }

    /// A thread starts searching below the position.
    #[inline]
    pub fn enter(&self, hash: u64) {
        if let Some(counter) = self.counter(hash) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A thread is done with the position.
    #[inline]
    pub fn leave(&self, hash: u64) {
        if let Some(counter) = self.counter(hash) {
            counter.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The child's `delta` as a thread choosing where to descend sees it: `1 + busy`
    /// times the real number while `busy` other threads search below it.
    #[inline]
    pub fn virtual_delta(&self, hash: u64, delta: Pn) -> Pn {
        let busy = self
            .counter(hash)
            .map_or(0, |counter| counter.load(Ordering::Relaxed));
        if busy == 0 || delta.is_inf() {
            return delta;
        }
        // The simplest factor: the others measured were no better
        // (`docs/performance-log.md`, "Parallel df-pn").
        let scaled = u64::from(delta.get()) * (1 + u64::from(busy));
        Pn::new(u32::try_from(scaled).unwrap_or(u32::MAX))
    }

    /// Whether another thread has ended the search.
    #[inline]
    pub fn halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// Ends the search for everyone with `outcome`, unless another thread did
    /// first; returns whether `outcome` is now the search's. A thread that comes
    /// back with the root's numbers after another one hit a limit replaces the
    /// limit: its numbers (a settled root, say) are worth more.
    pub fn finish(&self, outcome: Numbers) -> bool {
        let mut first = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
        let taken = match *first {
            None => true,
            Some(Err(_)) => outcome.is_ok(),
            Some(Ok(_)) => false,
        };
        if taken {
            *first = Some(outcome);
        }
        self.halt.store(true, Ordering::Relaxed);
        taken
    }

    /// How the search ended, once a thread has finished it.
    pub fn outcome(&self) -> Option<Numbers> {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a thread's new nodes; returns the other threads' total.
    pub fn add_nodes(&self, new: u64, own_total: u64) -> u64 {
        let all = self.nodes.fetch_add(new, Ordering::Relaxed) + new;
        all.saturating_sub(own_total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_steer_only_near_the_root() {
        let one = Team::new(1);
        assert!(!one.steers_at(0), "one thread has no one to steer from");
        let two = Team::new(2);
        assert!(two.steers_at(0) && two.steers_at(STEER_DEPTH - 1));
        assert!(!two.steers_at(STEER_DEPTH));
    }

    #[test]
    fn a_busy_child_looks_harder_until_left() {
        let team = Team::new(2);
        let (hash, delta) = (0x1234_5678_9abc_def0, Pn::new(10));
        assert_eq!(team.virtual_delta(hash, delta), delta);
        team.enter(hash);
        assert_eq!(team.virtual_delta(hash, delta), Pn::new(20));
        assert_eq!(team.virtual_delta(hash, Pn::INF), Pn::INF);
        team.leave(hash);
        assert_eq!(team.virtual_delta(hash, delta), delta);
    }
}
