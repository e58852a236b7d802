//! A bounded df-pn search of one position over a table that outlives it, in steps
//! that a caller strings together: search until the position is settled, its
//! numbers reach thresholds or a limit stops it; go on to a minimum of nodes; and
//! write the proof of a settled position while the table still holds its search.
//! A campaign's jobs are made of these steps.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use breakthrough_engine::{Color, Position, Step};

use crate::certificate::extract::{self, ExtractError, ProofWriting};
use crate::certificate::{Certificate, Claim};
use crate::limits::{Limits, Stop};
use crate::progress::{Phase, Progress};
use crate::search::dfpn::{Dfpn, DfpnConfig};
use crate::search::team::Team;
use crate::table::key::Key;
use crate::table::pn::Pn;
use crate::table::Table;

/// One position's search over a table, in steps: the searches on the calling
/// thread and, with more threads, helpers that share the table and steer apart as
/// [`crate::search::parallel`] does; the proof on the calling thread.
pub struct BoundedSearch<'a> {
    table: &'a Table,
    position: Position,
    key: Key,
    config: DfpnConfig<'a>,
    threads: usize,
    proven_hits: u64,
}

impl std::fmt::Debug for BoundedSearch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundedSearch")
            .field("position", &self.position)
            .field("config", &self.config)
            .field("threads", &self.threads)
            .field("proven_hits", &self.proven_hits)
            .finish_non_exhaustive()
    }
}

/// What a step of the search came to.
#[derive(Clone, Copy, Debug)]
pub struct Searched {
    /// The root's numbers (`phi`, `delta`) and, when it is won, the winning move;
    /// or the limit that stopped the step.
    pub outcome: Result<(Pn, Pn, Option<Step>), Stop>,
    /// Nodes of the step, all its threads together.
    pub nodes: u64,
    /// The root's numbers as the step last saw them.
    pub root_numbers: (Pn, Pn),
}

/// The proof of a settled position, as [`BoundedSearch::prove`] writes it.
#[derive(Clone, Debug)]
pub struct WrittenProof {
    pub certificate: Certificate,
    /// The positions it takes as proven elsewhere ([`DfpnConfig::proven`]), each
    /// once.
    pub given: Vec<Key>,
    /// The positions below its root that it proves (the winner wins each) with
    /// proofs of at least `export_min` positions.
    pub exported: Vec<Position>,
}

impl<'a> BoundedSearch<'a> {
    /// A search of `position` over `table` with `config` (its phase is the
    /// searches'; the proof's is [`Phase::Proof`]), on the calling thread alone.
    pub fn new(table: &'a Table, position: &Position, config: DfpnConfig<'a>) -> Self {
        BoundedSearch::with_threads(table, position, config, 1)
    }

    /// The same, each search step on `threads` threads (the calling one and
    /// helpers started for the step).
    pub fn with_threads(
        table: &'a Table,
        position: &Position,
        config: DfpnConfig<'a>,
        threads: usize,
    ) -> Self {
        BoundedSearch {
            table,
            position: *position,
            key: Key::of(position),
            config,
            threads: threads.max(1),
            proven_hits: 0,
        }
    }

    /// How often the steps so far met a position proven elsewhere.
    pub fn proven_hits(&self) -> u64 {
        self.proven_hits
    }

    /// Searches until the position is settled, its numbers reach `thresholds`
    /// (`phi`, `delta`) or `limits` stop it; `observer` hears its progress.
    pub fn search(
        &mut self,
        limits: Limits,
        thresholds: (Pn, Pn),
        observer: &mut dyn FnMut(&Progress),
    ) -> Searched {
        self.step(limits, thresholds, None, observer)
    }

    /// Goes on from a search that ended with the root's numbers `from`, with no
    /// thresholds, until the position is settled or `limits` stop it. Stopped by
    /// its node limit, it gives the numbers it ends with as its outcome.
    pub fn go_on(
        &mut self,
        limits: Limits,
        from: (Pn, Pn),
        observer: &mut dyn FnMut(&Progress),
    ) -> Searched {
        let mut searched = self.step(limits, (Pn::INF, Pn::INF), Some(from), observer);
        if let Err(Stop::NodeLimit) = searched.outcome {
            let (phi, delta) = searched.root_numbers;
            searched.outcome = Ok((phi, delta, None));
        }
        searched
    }

    /// One step: the root searched up to `thresholds` or `limits` by a team of
    /// the search's threads, whose first to end ends it for all; `from`, the
    /// numbers to report until the step computes its own. Only the calling thread
    /// tells `observer`. With several threads, the root's numbers are those the
    /// thread whose outcome is the step's computed when it last left the root;
    /// other threads may have searched its children further since (the table
    /// holds that, and a job reads its children's numbers from it).
    fn step(
        &mut self,
        limits: Limits,
        thresholds: (Pn, Pn),
        from: Option<(Pn, Pn)>,
        observer: &mut dyn FnMut(&Progress),
    ) -> Searched {
        let team = Team::new(self.threads);
        let (table, config, position, key) = (self.table, self.config, self.position, self.key);
        let run = |observer: &mut dyn FnMut(&Progress)| {
            let _halt = HaltOnPanic(&team);
            let mut search = Dfpn::new(table, &team, limits.clone(), config, observer);
            if let Some(from) = from {
                search.assume_root_numbers(from);
            }
            let outcome = search.search_root(&position, key, thresholds);
            // A thread halted by another's end has no outcome of its own.
            let took = !(outcome.is_err() && team.halted()) && team.finish(outcome);
            search.flush();
            ThreadStep {
                nodes: search.nodes(),
                proven_hits: search.proven_hits(),
                root_numbers: search.root_numbers(),
                took,
            }
        };
        let mut steps = Vec::with_capacity(self.threads);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .filter_map(|index| {
                    let run = &run;
                    std::thread::Builder::new()
                        .name(format!("job-helper-{index}"))
                        // The search recurses once per ply.
                        .stack_size(32 << 20)
                        .spawn_scoped(scope, move || run(&mut |_| {}))
                        // Without a helper the others search on, only slower.
                        .ok()
                })
                .collect();
            steps.push(run(observer));
            for helper in helpers {
                // A helper that panicked takes its figures with it; the panic is
                // passed on, as on the calling thread.
                match helper.join() {
                    Ok(step) => steps.push(step),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        let outcome = team.outcome().unwrap_or(Err(Stop::Interrupted));
        self.proven_hits += steps.iter().map(|step| step.proven_hits).sum::<u64>();
        // Numbers are the root's; a limit keeps the numbers its thread saw last
        // (only the first limit is taken, and no numbers came after it).
        let root_numbers = match outcome {
            Ok((phi, delta, _)) => (phi, delta),
            Err(_) => {
                let ender = steps.iter().find(|step| step.took);
                ender.unwrap_or(&steps[0]).root_numbers
            }
        };
        Searched {
            outcome,
            nodes: steps.iter().map(|step| step.nodes).sum(),
            root_numbers,
        }
    }

    /// Writes the proof that `winner` wins the settled position with `claim`,
    /// searching again what the table has lost, until done or `stop` is set;
    /// written as `writing` says. Returns
    /// the proof and the nodes its searches took.
    pub fn prove(
        &mut self,
        stop: Option<Arc<AtomicBool>>,
        winner: Color,
        claim: Claim,
        writing: ProofWriting,
        export_min: u64,
    ) -> (Result<WrittenProof, ExtractError>, u64) {
        let limits = Limits {
            stop,
            ..Limits::default()
        };
        let config = DfpnConfig {
            phase: Phase::Proof,
            ..self.config
        };
        let mut quiet = |_: &Progress| {};
        let team = Team::new(1);
        let mut extraction = Dfpn::new(self.table, &team, limits, config, &mut quiet);
        let written = extract::write_proof(
            &mut extraction,
            &self.position,
            winner,
            claim,
            writing,
            export_min,
        );
        self.proven_hits += extraction.proven_hits();
        let proof = written.map(|written| WrittenProof {
            certificate: written.certificate,
            given: written.given,
            exported: written.exported,
        });
        (proof, extraction.nodes())
    }
}

/// What one thread of a step did.
struct ThreadStep {
    nodes: u64,
    proven_hits: u64,
    root_numbers: (Pn, Pn),
    /// Whether its outcome became the step's when it ended.
    took: bool,
}

/// Ends a team's step when the thread holding it panics, so that the other
/// threads stop at once instead of at their limits, and the panic reaches the
/// caller.
struct HaltOnPanic<'t>(&'t Team);

impl Drop for HaltOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.finish(Err(Stop::Interrupted));
        }
    }
}
