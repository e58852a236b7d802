//! Limits on a search (node budget, deadline, stop flag), checked in one place.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a search must give up; all optional.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// Stop as soon as this is set (for example by Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// What is left of these limits for a later search, after `elapsed` time and
    /// `nodes` nodes of the earlier ones; the stop that applies when nothing is.
    pub fn after(&self, elapsed: Duration, nodes: u64) -> Result<Limits, Stop> {
        if self
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        let time_limit = match self.time_limit {
            Some(limit) if limit <= elapsed => return Err(Stop::TimeLimit),
            limit => limit.map(|limit| limit - elapsed),
        };
        let max_nodes = match self.max_nodes {
            Some(max) if max <= nodes => return Err(Stop::NodeLimit),
            max => max.map(|max| max - nodes),
        };
        Ok(Limits {
            max_nodes,
            time_limit,
            stop: self.stop.clone(),
        })
    }
}

/// Why a search stopped before it proved anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stop {
    #[error("node limit reached")]
    NodeLimit,
    #[error("time limit reached")]
    TimeLimit,
    #[error("interrupted")]
    Interrupted,
}

impl Stop {
    /// A short name for machine output.
    pub fn name(self) -> &'static str {
        match self {
            Stop::NodeLimit => "node_limit",
            Stop::TimeLimit => "time_limit",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// Nodes between two looks at the clock, the stop flag and the progress observer.
const CHECK_EVERY: u64 = 1 << 14;

/// Counts nodes and enforces [`Limits`]; the one place every search loop checks them.
pub(crate) struct Budget {
    limits: Limits,
    started: Instant,
    /// This thread's nodes.
    nodes: u64,
    /// Other threads' nodes, as last seen (see [`Budget::set_others`]).
    others: u64,
    next_check: u64,
}

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            started: Instant::now(),
            nodes: 0,
            others: 0,
            next_check: CHECK_EVERY,
        }
    }

    /// This thread's nodes.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// All threads' nodes, as far as this thread knows them.
    pub fn total(&self) -> u64 {
        self.nodes + self.others
    }

    /// Tells the budget what the other threads of the search have counted, so that
    /// a node limit applies to them all (to within a check interval per thread).
    pub fn set_others(&mut self, others: u64) {
        self.others = others;
    }

    /// Whether the stop flag is set: for work that counts no nodes.
    pub fn stop_requested(&self) -> bool {
        self.limits
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Counts one node. Returns `Ok(true)` when it is time to report progress (and,
    /// in a parallel search, to share the counts).
    #[inline]
    pub fn tick(&mut self) -> Result<bool, Stop> {
        self.nodes += 1;
        if self.limits.max_nodes.is_some_and(|max| self.total() > max) {
            return Err(Stop::NodeLimit);
        }
        if self.nodes < self.next_check {
            return Ok(false);
        }
        self.next_check = self.nodes + CHECK_EVERY;
        if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        if self
            .limits
            .time_limit
            .is_some_and(|limit| self.started.elapsed() >= limit)
        {
            return Err(Stop::TimeLimit);
        }
        Ok(true)
    }
}
