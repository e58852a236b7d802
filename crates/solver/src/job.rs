//! Jobs: a bounded df-pn search of one position over a table that outlives it, as a
//! campaign's workers run them (see the `breakthrough-campaign` crate).
//!
//! A job either settles its position, and then (if asked) writes the proof of it
//! while the table still holds the search, or runs out of its node budget and
//! reports its numbers and its children's, from which the campaign's master grows
//! its tree. The table is the worker's memory between jobs: a later job below this
//! one starts from what this one learned.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use dashmap::DashMap;

use breakthrough_engine::{Position, Step};

use crate::certificate::extract;
use crate::dfpn::Dfpn;
use crate::limits::Budget;
use crate::parallel::Team;
use crate::{
    Certificate, Claim, ExtractError, Key, Knowledge, Limits, Phase, Pn, Progress, Stop, Table,
};

/// How to run a job.
#[derive(Clone, Debug)]
pub struct JobOptions {
    /// The node budget.
    pub max_nodes: u64,
    /// The job runs at least this many nodes (unless it settles its position), past
    /// its thresholds if need be: a job costs the master a round trip, which a
    /// job of a few hundred nodes does not pay for.
    pub min_nodes: u64,
    /// The job ends early when its position's numbers (`phi`, `delta`) reach these,
    /// as df-pn leaves a child that stops being the most promising: the master
    /// computes them from the leaf's siblings (infinite: no such end).
    pub thresholds: (Pn, Pn),
    pub knowledge: Knowledge,
    /// `1/epsilon` of df-pn's 1+epsilon trick.
    pub inverse_epsilon: u32,
    /// Write the proof of a settled position.
    pub proof: bool,
    /// MiB of the extraction's memory (see [`crate::SolveOptions::proof_mb`]).
    pub proof_mb: usize,
    /// Stop the search as soon as this is set (the budget's nodes are then not all
    /// spent). A proof being written goes on: see `stop_proof`.
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop writing the proof as soon as this is set (the job then ends
    /// [`JobOutcome::Stopped`], its settled position's proof lost).
    pub stop_proof: Option<Arc<AtomicBool>>,
    /// Positions proven elsewhere (a campaign's store): the search takes them as
    /// settled, and the proof refers to them instead of proving them again (its
    /// claim is then [`Claim::WinsGiven`], and [`JobOutcome::Solved`] lists them).
    pub proven: Option<ProvenSlot>,
    /// The proof exports the positions below its root whose proofs in it expand at
    /// least this many positions (0: none), for other proofs to refer to once
    /// they are stored (see [`JobOutcome::Solved`]).
    pub export_min: u64,
    /// Deep df-pn's `D` for the job's searches, counted from the job's root (see
    /// [`crate::SolveOptions::depth_bias`]; `None`: the board's default, `Some(0)`:
    /// none).
    pub depth_bias: Option<u32>,
}

/// Positions proven elsewhere, as a map: key ([`Key::of`]) -> whether the side to
/// move wins (see [`ProvenSlot::extend`]).
pub type Proven = hashbrown::HashMap<Key, bool>;

/// Where jobs read the positions proven elsewhere: a set that only grows, shared by
/// the jobs of one table and read by all their threads at once. Since it only
/// grows, a proof's extraction knows every position its search took as settled
/// (and any that another job of the same table left so in the table).
#[derive(Clone, Default)]
pub struct ProvenSlot(Arc<ProvenSet>);

/// The map, behind a one-bit-per-slot filter of the keys' hashes. The search asks
/// about every new leaf, and nearly none is in the map; a map lookup hashes the key
/// again and takes a shard's read lock (two atomic writes on a line every thread
/// shares), which cost 13-15% of a 6x6 campaign's time on two threads. The filter
/// answers "not there" with one plain load.
struct ProvenSet {
    map: DashMap<Key, bool, hashbrown::DefaultHashBuilder>,
    /// Bit `hash % FILTER_BITS` is set once a key with that hash is in the map.
    filter: Box<[AtomicU64]>,
}

/// The filter's bits (256 KiB): small enough to stay in a core's cache while the
/// table's traffic streams through it (with 4 MiB, each lookup missed the cache and
/// cost more than the map's lock had); with 30,000 stored positions, 1.4% of the
/// lookups of other positions reach the map, with 300,000, 13%.
const FILTER_BITS: u64 = 1 << 21;

impl Default for ProvenSet {
    fn default() -> Self {
        ProvenSet {
            map: DashMap::default(),
            filter: (0..FILTER_BITS / 64).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl ProvenSet {
    /// The filter's word and bit for a key's hash ([`Key::hash`]).
    #[inline]
    fn slot(&self, hash: u64) -> (&AtomicU64, u64) {
        let bit = hash % FILTER_BITS;
        (&self.filter[(bit / 64) as usize], 1 << (bit % 64))
    }
}

impl ProvenSlot {
    /// Starts loading what [`ProvenSlot::wins`] will read for the key of this hash.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        crate::table::prefetch_line(self.0.slot(hash).0);
    }

    /// Whether the side to move wins a position proven elsewhere, if it is one.
    #[inline]
    pub fn wins(&self, key: &Key) -> Option<bool> {
        let (word, bit) = self.0.slot(key.hash());
        // Acquire: a set bit was set after its key entered the map.
        if word.load(Ordering::Acquire) & bit == 0 {
            return None;
        }
        self.0.map.get(key).map(|wins| *wins)
    }

    /// Adds positions.
    pub fn extend(&self, proven: &[(Key, bool)]) {
        for &(key, wins) in proven {
            self.0.map.insert(key, wins);
            let (word, bit) = self.0.slot(key.hash());
            word.fetch_or(bit, Ordering::Release);
        }
    }

    pub fn len(&self) -> usize {
        self.0.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.map.is_empty()
    }
}

impl std::fmt::Debug for ProvenSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProvenSlot({} positions)", self.len())
    }
}

/// What a job found.
#[derive(Clone, Debug)]
pub enum JobOutcome {
    /// The position is settled: whether the side to move wins, with which move, and
    /// the certificate that the winner wins (if asked for), with the positions it
    /// takes as proven elsewhere (each once; see [`JobOptions::proven`]) and those
    /// below its root it proves and exports (see [`JobOptions::export_min`]; the
    /// winner wins each).
    Solved {
        wins: bool,
        best: Option<Step>,
        proof: Option<Certificate>,
        given: Vec<Key>,
        exported: Vec<Position>,
    },
    /// The position is open: its numbers and, when the budget ran out (rather than
    /// the numbers reaching the thresholds), each legal move's child's numbers as
    /// the table holds them (`(1, 1)` for a child it does not hold).
    Open {
        numbers: (Pn, Pn),
        children: Option<Vec<(Step, Pn, Pn)>>,
    },
    /// A stop flag ended it (`stop` in the search, `stop_proof` in the proof).
    Stopped,
}

/// A finished job: its outcome and its cost.
#[derive(Clone, Debug)]
pub struct JobReport {
    pub outcome: JobOutcome,
    /// Nodes of the search, then of the proof's extraction.
    pub nodes: u64,
    pub proof_nodes: u64,
    /// Positions the search and the extraction found proven elsewhere.
    pub proven_hits: u64,
}

/// Runs a job on `position` over `table` on the calling thread; `observer` hears the
/// search's progress now and then (its root numbers: the job's partial results).
pub fn run_job(
    table: &Table,
    position: &Position,
    options: &JobOptions,
    observer: &mut dyn FnMut(&Progress),
) -> Result<JobReport, ExtractError> {
    let team = Team::new(1);
    let limits = Limits {
        max_nodes: Some(options.max_nodes),
        time_limit: None,
        stop: options.stop.clone(),
    };
    let key = Key::of(position);
    let mut search = job_search(table, &team, limits.clone(), options, observer);
    let proven = options.proven.as_ref();
    let mut outcome = search.search_root(position, key, options.thresholds);
    search.flush();
    let mut nodes = search.budget.nodes();
    if let Ok((phi, delta, _)) = outcome {
        if phi != Pn::ZERO && delta != Pn::ZERO && nodes < options.min_nodes {
            // Past the thresholds, up to the minimum: the numbers it ends with are
            // the job's, and the position stays a leaf of the master's.
            let limits = Limits {
                max_nodes: Some(options.min_nodes - nodes),
                ..limits.clone()
            };
            let mut rest = job_search(table, &team, limits, options, &mut *search.observer);
            // Until its root loop runs, the numbers are the first search's.
            rest.root_numbers = (phi, delta);
            outcome = match rest.search_root(position, key, (Pn::INF, Pn::INF)) {
                Err(Stop::NodeLimit) => Ok((rest.root_numbers.0, rest.root_numbers.1, None)),
                other => other,
            };
            rest.flush();
            nodes += rest.budget.nodes();
            search.proven_hits += rest.proven_hits;
        }
    }
    let mut proven_hits = search.proven_hits;
    let report = |outcome, proof_nodes, proven_hits| JobReport {
        outcome,
        nodes,
        proof_nodes,
        proven_hits,
    };
    let (wins, best) = match outcome {
        Ok((phi, _, best)) if phi == Pn::ZERO => (true, best),
        Ok((_, delta, _)) if delta == Pn::ZERO => (false, None),
        Ok((phi, delta, _)) => {
            let open = JobOutcome::Open {
                numbers: (phi, delta),
                children: None,
            };
            return Ok(report(open, 0, proven_hits));
        }
        Err(Stop::NodeLimit) => {
            let children = position
                .steps()
                .into_iter()
                .map(|step| {
                    let child = Key::of(&position.play_step(step));
                    let (phi, delta) = table
                        .probe(&child, child.hash())
                        .unwrap_or((Pn::ONE, Pn::ONE));
                    (step, phi, delta)
                })
                .collect();
            let open = JobOutcome::Open {
                numbers: search.root_numbers,
                children: Some(children),
            };
            return Ok(report(open, 0, proven_hits));
        }
        Err(_) => return Ok(report(JobOutcome::Stopped, 0, proven_hits)),
    };
    let mut proof_nodes = 0;
    let mut given = Vec::new();
    let mut exported = Vec::new();
    let proof = if options.proof {
        // The extraction re-proves what the table lost; only its stop flag limits it,
        // as a limit would throw away a settled position's proof.
        let limits = Limits {
            stop: options.stop_proof.clone(),
            ..Limits::default()
        };
        let mut quiet = |_: &Progress| {};
        let mut extraction = job_search(table, &team, limits, options, &mut quiet);
        extraction.phase = Phase::Proof;
        let winner = if wins {
            position.to_move()
        } else {
            position.to_move().opponent()
        };
        // With positions proven elsewhere, the proof may refer to them.
        let claim = match proven {
            Some(proven) if !proven.is_empty() => Claim::WinsGiven,
            _ => Claim::Wins,
        };
        // Only the certificate: a part's main line is of no use to the campaign.
        let memory = options.proof_mb << 20;
        let written = extract::write_proof(
            &mut extraction,
            position,
            winner,
            claim,
            memory,
            options.export_min,
        );
        proof_nodes = extraction.budget.nodes();
        proven_hits += extraction.proven_hits;
        match written {
            Ok(written) => {
                given = written.given;
                exported = written.exported;
                Some(written.certificate)
            }
            Err(ExtractError::Stopped(_)) => {
                return Ok(report(JobOutcome::Stopped, proof_nodes, proven_hits))
            }
            Err(err) => return Err(err),
        }
    } else {
        None
    };
    let solved = JobOutcome::Solved {
        wins,
        best,
        proof,
        given,
        exported,
    };
    Ok(report(solved, proof_nodes, proven_hits))
}

/// A search of the job's (its first, the rest up to its minimum, or its proof's
/// extraction), with the job's rules, positions proven elsewhere and depth bias.
fn job_search<'a>(
    table: &'a Table,
    team: &'a Team,
    limits: Limits,
    options: &'a JobOptions,
    observer: &'a mut dyn FnMut(&Progress),
) -> Dfpn<'a> {
    let mut search = Dfpn::new(
        table,
        team,
        Budget::new(limits),
        options.inverse_epsilon,
        options.knowledge,
        observer,
    );
    search.proven = options.proven.as_ref();
    search.depth_bias = options.depth_bias;
    search
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter never hides a stored position, and keeps out the ones not stored.
    #[test]
    fn proven_slot_finds_what_it_holds() {
        let key = |i: u64| Key {
            white: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            black: !i,
            black_to_move: i % 3 == 1,
            horizon: 0,
        };
        let slot = ProvenSlot::default();
        let stored: Vec<(Key, bool)> = (0..50_000).map(|i| (key(i), i % 2 == 1)).collect();
        slot.extend(&stored);
        assert_eq!(slot.len(), stored.len());
        for &(key, wins) in &stored {
            assert_eq!(slot.wins(&key), Some(wins));
        }
        assert!((50_000..100_000).all(|i| slot.wins(&key(i)).is_none()));
    }
}
