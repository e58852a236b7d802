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

/// One position's search over a table, on the calling thread, in steps.
pub struct BoundedSearch<'a> {
    table: &'a Table,
    position: Position,
    key: Key,
    config: DfpnConfig<'a>,
    /// Every step's search belongs to this one-thread team, whose node count the
    /// steps share.
    team: Team,
    proven_hits: u64,
}

impl std::fmt::Debug for BoundedSearch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundedSearch")
            .field("position", &self.position)
            .field("config", &self.config)
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
    /// Nodes of the step.
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
    /// searches'; the proof's is [`Phase::Proof`]).
    pub fn new(table: &'a Table, position: &Position, config: DfpnConfig<'a>) -> Self {
        BoundedSearch {
            table,
            position: *position,
            key: Key::of(position),
            config,
            team: Team::new(1),
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
        let mut search = Dfpn::new(self.table, &self.team, limits, self.config, observer);
        let outcome = search.search_root(&self.position, self.key, thresholds);
        finish(search, outcome, &mut self.proven_hits)
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
        let mut search = Dfpn::new(self.table, &self.team, limits, self.config, observer);
        search.assume_root_numbers(from);
        let outcome = match search.search_root(&self.position, self.key, (Pn::INF, Pn::INF)) {
            Err(Stop::NodeLimit) => {
                let (phi, delta) = search.root_numbers();
                Ok((phi, delta, None))
            }
            other => other,
        };
        finish(search, outcome, &mut self.proven_hits)
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
        let mut extraction = Dfpn::new(self.table, &self.team, limits, config, &mut quiet);
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

/// The step's figures, once its search has shared its counts; adds its meetings
/// with positions proven elsewhere to `proven_hits`.
fn finish(
    mut search: Dfpn<'_>,
    outcome: Result<(Pn, Pn, Option<Step>), Stop>,
    proven_hits: &mut u64,
) -> Searched {
    search.flush();
    *proven_hits += search.proven_hits();
    Searched {
        outcome,
        nodes: search.nodes(),
        root_numbers: search.root_numbers(),
    }
}
