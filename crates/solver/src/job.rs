//! Jobs: a bounded df-pn search of one position over a table that outlives it, as a
//! campaign's workers run them (see the `breakthrough-campaign` crate).
//!
//! A job either settles its position, and then (if asked) writes the proof of it
//! while the table still holds the search, or runs out of its node budget and
//! reports its numbers and its children's, from which the campaign's master grows
//! its tree. The table is the worker's memory between jobs: a later job below this
//! one starts from what this one learned.

use std::sync::atomic::AtomicBool;
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
}

/// Positions proven elsewhere, as a map: key ([`Key::of`]) -> whether the side to
/// move wins (see [`ProvenSlot::extend`]).
pub type Proven = hashbrown::HashMap<Key, bool>;

/// Where jobs read the positions proven elsewhere: a set that only grows, shared by
/// the jobs of one table and read by all their threads at once. Since it only
/// grows, a proof's extraction knows every position its search took as settled
/// (and any that another job of the same table left so in the table).
#[derive(Clone, Default)]
pub struct ProvenSlot(Arc<DashMap<Key, bool, hashbrown::DefaultHashBuilder>>);

impl ProvenSlot {
    /// Whether the side to move wins a position proven elsewhere, if it is one.
    #[inline]
    pub fn wins(&self, key: &Key) -> Option<bool> {
        self.0.get(key).map(|wins| *wins)
    }

    /// Adds positions.
    pub fn extend(&self, proven: &[(Key, bool)]) {
        for &(key, wins) in proven {
            self.0.insert(key, wins);
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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
    let mut search = Dfpn::new(
        table,
        &team,
        Budget::new(limits.clone()),
        options.inverse_epsilon,
        options.knowledge,
        observer,
    );
    let proven = options.proven.as_ref();
    search.proven = proven;
    let mut outcome = search.search_root(position, key, options.thresholds);
    search.flush();
    let mut nodes = search.budget.nodes();
    if let Ok((phi, delta, _)) = outcome {
        if phi != Pn::ZERO && delta != Pn::ZERO && nodes < options.min_nodes {
            // Past the thresholds, up to the minimum: the numbers it ends with are
            // the job's, and the position stays a leaf of the master's.
            let mut rest = Dfpn::new(
                table,
                &team,
                Budget::new(Limits {
                    max_nodes: Some(options.min_nodes - nodes),
                    ..limits.clone()
                }),
                options.inverse_epsilon,
                options.knowledge,
                &mut *search.observer,
            );
            rest.proven = proven;
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
        let mut extraction = Dfpn::new(
            table,
            &team,
            Budget::new(limits),
            options.inverse_epsilon,
            options.knowledge,
            &mut quiet,
        );
        extraction.phase = Phase::Proof;
        extraction.proven = proven;
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
