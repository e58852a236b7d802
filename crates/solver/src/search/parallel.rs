//! Parallel df-pn: every thread runs df-pn from the root over one shared table, and
//! virtual proof numbers steer the threads into different subtrees.
//!
//! # The design, and why
//!
//! The field has measured two families (the papers are cited in
//! `docs/design/parallel.md`):
//!
//! - **Shared-table df-pn** (Kaneko 2010; SPDFPN, Pawlewicz & Hayward 2013, 11.8x on
//!   16 threads): threads search the same tree through one transposition table, so
//!   whatever one thread proves, every other thread sees at its next probe.
//! - **Job-level search** (PPN2, the 2011 Breakthrough solve; Cizek et al. 2025, 16.2x
//!   on 16 cores): a master tree hands leaves to workers with their own tables. It
//!   is built for clusters, where memory is not shared.
//!
//! On one machine the table is the search's memory: 6x5 needs gigabytes, and job-level
//! workers would each need a table of their own, or re-prove what another worker's
//! table holds. So we take the shared table:
//!
//! - Each thread runs the same df-pn as the single-threaded search, from the root,
//!   with its own child lists and counters; the [`Table`] is shared through a
//!   sequence lock per bucket (readers take no lock).
//! - **Virtual proof numbers.** A thread entering a position marks it busy (a small
//!   array of counters indexed by hash). When a thread picks the child to descend
//!   into, a busy child looks `1 + busy` times harder to prove than its numbers say
//!   (`Team::virtual_delta`), so the next thread takes the next most promising
//!   child, as a best-first search with that many leaves open at once would. The
//!   thresholds come from the same virtual numbers, so the thread comes back when
//!   its child stops being the most promising one. Only the first [`STEER_DEPTH`]
//!   plies are marked and steered: deeper down steering costs more than it saves.
//! - A virtual number only steers: the numbers stored and compared with the
//!   thresholds are real ones. When the child the virtual numbers pick is already
//!   over the node's threshold, the thread follows the real best child instead (into
//!   the busy subtree, where it diverges lower down), so every descent makes
//!   progress and no thread spins.
//! - A proven position is final in the table; the first thread to prove the root
//!   stops the others.
//! - A thread reads a position's children from the table when it enters the
//!   position, and keeps their numbers while it stays there (see `Dfpn::mid`): what
//!   another thread learns about a sibling meanwhile reaches it at its next visit.
//!   That costs next to no search and saves a probe per child and iteration.
//!
//! # What it costs
//!
//! - **Search overhead**: threads expand positions a single thread would never have
//!   reached. They almost never prove the same subtree twice at the same time;
//!   rather, two threads find another proof than one thread does, usually a larger
//!   one, and the overhead follows which proof each search happens to find.
//! - **Memory traffic**: one more load per probe (the bucket's version), one atomic
//!   write per store, and two per expansion on the busy counters, above
//!   [`STEER_DEPTH`] only. With one thread the busy counters are not touched and the
//!   search visits exactly the nodes it did before there were threads.
//! - **Non-determinism**: which thread proves what first depends on timing, so node
//!   counts vary between runs and the proven best move may differ; the winner cannot
//!   (every proof is sound, whoever found it), and tests check it against the
//!   reference solver at 1, 2 and 4 threads.
//!
//! The measurements, and the steering variants tried and not kept, are in
//! `docs/performance.md`; the design at more length in `docs/design/parallel.md`.

use std::sync::Mutex;

use breakthrough_engine::Position;

use crate::limits::Stop;
use crate::options::SolveOptions;
use crate::progress::{Progress, SearchStats};
use crate::race_rules::RaceRuleStats;
use crate::search::dfpn::Dfpn;
use crate::search::team::{Outcome, Team};
// The module's documentation links to it.
#[cfg(doc)]
use crate::search::team::STEER_DEPTH;
use crate::table::pn::Pn;
use crate::table::Table;

/// What one thread did.
#[derive(Clone, Copy, Debug, Default)]
struct ThreadReport {
    nodes: u64,
    race_rules: RaceRuleStats,
    root_numbers: (Pn, Pn),
}

/// Runs df-pn on `options.threads` threads (the calling thread and a rayon pool);
/// the calling thread alone reports progress to `observer`.
pub(crate) fn search(
    root: &Position,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> (Outcome, SearchStats) {
    let started = std::time::Instant::now();
    let mut threads = options.threads.max(1);
    let pool = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .thread_name(|i| format!("dfpn-{}", i + 1))
            // The search recurses once per ply, and a helper thread's default stack
            // is smaller than the main thread's 8 MiB.
            .stack_size(32 << 20)
            .build()
            .ok()
    } else {
        None
    };
    if pool.is_none() {
        // One thread, or the system would not give us more: the search is the same.
        threads = 1;
    }
    let team = Team::new(threads);
    let reports = Mutex::new(vec![ThreadReport::default(); threads]);
    let run = |index: usize, observer: &mut dyn FnMut(&Progress)| {
        let config = options.dfpn_config(root.board());
        let mut search = Dfpn::new(table, &team, options.limits.clone(), config, observer);
        let key = options.root_key(root);
        let outcome = search.search_root(root, key, (Pn::INF, Pn::INF));
        // A thread stopped by another's finish reports nothing of its own.
        if !(outcome.is_err() && team.halted()) {
            team.finish(outcome);
        }
        search.flush();
        reports.lock().unwrap_or_else(|e| e.into_inner())[index] = ThreadReport {
            nodes: search.nodes(),
            race_rules: search.race_rules(),
            root_numbers: search.root_numbers(),
        };
    };
    match &pool {
        Some(pool) => pool.in_place_scope(|scope| {
            for index in 1..threads {
                let run = &run;
                scope.spawn(move |_| run(index, &mut |_| {}));
            }
            run(0, observer);
        }),
        None => run(0, observer),
    }
    let reports = reports.into_inner().unwrap_or_else(|e| e.into_inner());
    // The calling thread either finished the team or was halted by a thread that did.
    let outcome: Outcome = team
        .outcome()
        .unwrap_or(Err(Stop::Interrupted))
        .map(|(phi, _, best)| (phi == Pn::ZERO, best));
    let mut race_rules = RaceRuleStats::default();
    for report in &reports {
        race_rules.add(&report.race_rules);
    }
    let root_numbers = match outcome {
        Ok((true, _)) => (Pn::ZERO, Pn::INF),
        Ok((false, _)) => (Pn::INF, Pn::ZERO),
        Err(_) => reports[0].root_numbers,
    };
    let stats = SearchStats {
        nodes: reports.iter().map(|r| r.nodes).sum(),
        seconds: started.elapsed().as_secs_f64(),
        root_proof: root_numbers.0,
        root_disproof: root_numbers.1,
        table: table.stats(),
        race_rules,
        threads,
        thread_nodes: reports.iter().map(|r| r.nodes).collect(),
    };
    (outcome, stats)
}
