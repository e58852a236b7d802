//! Jobs: a bounded df-pn search of one position over a table that outlives it, as a
//! campaign's workers run them.
//!
//! A job either settles its position, and then (if asked) writes the proof of it
//! while the table still holds the search, or runs out of its node budget and
//! reports its numbers and its children's, from which the campaign's master grows
//! its tree. The table is the worker's memory between jobs: a later job below this
//! one starts from what this one learned.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use breakthrough_engine::{Position, Step};
use breakthrough_solver::{
    BoundedSearch, Certificate, Claim, DfpnConfig, ExtractError, Key, Limits, Phase, Pn, Progress,
    ProofWriting, ProvenElsewhere, RaceRules, Searched, Stop, Table, WrittenProof,
};

use crate::proven::ProvenSlot;

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
    pub race_rules: RaceRules,
    /// `1/epsilon` of df-pn's 1+epsilon trick.
    pub inverse_epsilon: u32,
    /// Write the proof of a settled position.
    pub proof: bool,
    /// MiB of the extraction's memory (see [`breakthrough_solver::SolveOptions::proof_mb`]).
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
    /// [`breakthrough_solver::SolveOptions::depth_bias`]; `None`: the board's default, `Some(0)`:
    /// none).
    pub depth_bias: Option<u32>,
    /// Threads of the job's searches (its proof is written on one): the calling
    /// thread and helpers, which share the table and steer apart near the job's
    /// root as `solve`'s threads do.
    pub threads: usize,
}

/// What a job found, with its proof as `Proof`: the certificate as the job
/// writes it, or a part's file bytes as the master takes it in
/// ([`crate::transport::Outcome`]).
#[derive(Clone, Debug)]
pub enum JobOutcome<Proof = Option<Certificate>> {
    /// The position is settled: whether the side to move wins, with which move, and
    /// the proof that the winner wins (if asked for), with the positions it
    /// takes as proven elsewhere (each once; see [`JobOptions::proven`]) and those
    /// below its root it proves and exports (see [`JobOptions::export_min`]; the
    /// winner wins each).
    Solved {
        wins: bool,
        best: Option<Step>,
        proof: Proof,
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

impl<Proof> JobOutcome<Proof> {
    /// The same outcome with its proof turned by `f`, or `f`'s error.
    pub fn try_map_proof<Other, E>(
        self,
        f: impl FnOnce(Proof) -> Result<Other, E>,
    ) -> Result<JobOutcome<Other>, E> {
        Ok(match self {
            JobOutcome::Solved {
                wins,
                best,
                proof,
                given,
                exported,
            } => JobOutcome::Solved {
                wins,
                best,
                proof: f(proof)?,
                given,
                exported,
            },
            JobOutcome::Open { numbers, children } => JobOutcome::Open { numbers, children },
            JobOutcome::Stopped => JobOutcome::Stopped,
        })
    }
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

/// Runs a job on `position` over `table`: its searches on `options.threads`
/// threads (the calling one and helpers), its proof on the calling thread;
/// `observer` hears the search's progress now and then (its root numbers: the
/// job's partial results).
pub fn run_job(
    table: &Table,
    position: &Position,
    options: &JobOptions,
    observer: &mut dyn FnMut(&Progress),
) -> Result<JobReport, ExtractError> {
    let config = dfpn_config(options);
    let mut search = BoundedSearch::with_threads(table, position, config, options.threads);
    let Searched {
        outcome,
        nodes,
        root_numbers: first_numbers,
    } = search_job(&mut search, options, observer);
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
            return Ok(report(open, 0, search.proven_hits()));
        }
        Err(Stop::NodeLimit) => {
            let open = JobOutcome::Open {
                numbers: first_numbers,
                children: Some(children(table, position)),
            };
            return Ok(report(open, 0, search.proven_hits()));
        }
        Err(_) => return Ok(report(JobOutcome::Stopped, 0, search.proven_hits())),
    };
    let solved = JobOutcome::Solved {
        wins,
        best,
        proof: None,
        given: Vec::new(),
        exported: Vec::new(),
    };
    let searched = report(solved, 0, search.proven_hits());
    if !options.proof {
        return Ok(searched);
    }
    prove_job(table, position, searched, options)
}

/// Writes the proof of a position that a job (run without `options.proof`)
/// settled, while the table still holds its search, on the calling thread:
/// `searched` is that job's report, which comes back with the proof and its cost
/// added (or [`JobOutcome::Stopped`] if `stop_proof` ended it). Any other report
/// comes back as it is.
pub fn prove_job(
    table: &Table,
    position: &Position,
    searched: JobReport,
    options: &JobOptions,
) -> Result<JobReport, ExtractError> {
    let JobOutcome::Solved { wins, best, .. } = searched.outcome else {
        return Ok(searched);
    };
    let mut search = BoundedSearch::new(table, position, dfpn_config(options));
    let (written, proof_nodes) = prove(&mut search, position, wins, options);
    let outcome = match written {
        Ok(written) => JobOutcome::Solved {
            wins,
            best,
            proof: Some(written.certificate),
            given: written.given,
            exported: written.exported,
        },
        Err(ExtractError::Stopped(_)) => JobOutcome::Stopped,
        Err(err) => return Err(err),
    };
    Ok(JobReport {
        outcome,
        proof_nodes,
        proven_hits: searched.proven_hits + search.proven_hits(),
        ..searched
    })
}

/// The searches' settings of a job.
fn dfpn_config(options: &JobOptions) -> DfpnConfig<'_> {
    DfpnConfig {
        inverse_epsilon: options.inverse_epsilon,
        race_rules: options.race_rules,
        depth_bias: options.depth_bias,
        phase: Phase::Search,
        proven: options
            .proven
            .as_ref()
            .map(|proven| proven as &dyn ProvenElsewhere),
        ..DfpnConfig::default()
    }
}

/// The job's search: up to its thresholds, then on to its minimum of nodes. Its
/// outcome and nodes are the two searches', its root numbers the first one's.
fn search_job(
    search: &mut BoundedSearch<'_>,
    options: &JobOptions,
    observer: &mut dyn FnMut(&Progress),
) -> Searched {
    let limits = Limits {
        max_nodes: Some(options.max_nodes),
        time_limit: None,
        stop: options.stop.clone(),
    };
    let first = search.search(limits.clone(), options.thresholds, observer);
    let (mut outcome, mut nodes) = (first.outcome, first.nodes);
    if let Ok((phi, delta, _)) = outcome {
        if phi != Pn::ZERO && delta != Pn::ZERO && nodes < options.min_nodes {
            // Past the thresholds, up to the minimum: the numbers it ends with are
            // the job's, and the position stays a leaf of the master's.
            let limits = Limits {
                max_nodes: Some(options.min_nodes - nodes),
                ..limits
            };
            let rest = search.go_on(limits, (phi, delta), observer);
            outcome = rest.outcome;
            nodes += rest.nodes;
        }
    }
    Searched {
        outcome,
        nodes,
        root_numbers: first.root_numbers,
    }
}

/// Each legal move's child's numbers as the table holds them (`(1, 1)` for a child
/// it does not hold).
fn children(table: &Table, position: &Position) -> Vec<(Step, Pn, Pn)> {
    position
        .steps()
        .into_iter()
        .map(|step| {
            let child = Key::of(&position.play_step(step));
            let (phi, delta) = table
                .probe(&child, child.hash())
                .unwrap_or((Pn::ONE, Pn::ONE));
            (step, phi, delta)
        })
        .collect()
}

/// Writes the proof of the settled position; the extraction re-proves what the
/// table lost, and only its stop flag limits it, as a limit would throw away a
/// settled position's proof.
fn prove(
    search: &mut BoundedSearch<'_>,
    position: &Position,
    wins: bool,
    options: &JobOptions,
) -> (Result<WrittenProof, ExtractError>, u64) {
    let winner = if wins {
        position.to_move()
    } else {
        position.to_move().opponent()
    };
    // With positions proven elsewhere, the proof may refer to them.
    let claim = match &options.proven {
        Some(proven) if !proven.is_empty() => Claim::WinsGiven,
        _ => Claim::Wins,
    };
    // Only the certificate: a part's main line is of no use to the campaign.
    let writing = ProofWriting::with_memory(options.proof_mb << 20);
    search.prove(
        options.stop_proof.clone(),
        winner,
        claim,
        writing,
        options.export_min,
    )
}
