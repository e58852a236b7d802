//! Parallel df-pn: every thread runs df-pn from the root over one shared table, and
//! virtual proof numbers steer the threads into different subtrees.
//!
//! # The design, and why
//!
//! The field has measured two families (see `LITERATURE.md`):
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
//!   That costs a little search (on 5x5, two threads took 4.2 M nodes either way
//!   before the race search changed) and saves a probe per child and iteration.
//!
//! # What it costs
//!
//! - **Search overhead**: threads expand positions a single thread would never have
//!   reached, and could prove the same subtree twice at the same time (they almost
//!   never do, see below). The benchmark
//!   (`breakthrough bench solve --compare threads`, results/scaling-2core.json) prints
//!   total nodes against the single thread's: on two cores 1.16x on 5x5 and 1.10x on
//!   6x5, for speed-ups of 1.63x and 1.81x in wall time (each thread searches about
//!   as fast as one alone). Before deep df-pn (`dfpn::depth_bias`), which took
//!   fewer nodes on either thread count, the same benchmark measured 0.91x and
//!   1.18x, for 1.97x and 1.67x: the ratio follows which proof each search happens
//!   to find. The measurements below are from before deep df-pn (6x5 two threads
//!   then expanded 14% more distinct positions than one, and entered them again 15%
//!   more often). With more threads than cores (so only
//!   the nodes mean anything) an earlier version of the search measured 5x5 1.3-1.5x
//!   on 4 and 8 threads, 1.6-1.75x on 16; 4x6 1.18x on 8; 6x5 1.65x on 16.
//! - **Steering tried and not kept** (6x5 on two threads, alternating runs, medians
//!   of 7; two-thread node counts vary by +-10% from run to run): SPDFPN's virtual
//!   outcome (Pawlewicz & Hayward 2013) instead of the factor, that is a busy child
//!   that leans proven left to its thread and one that leans disproven followed
//!   (18.6 M nodes and 16.5 s against 18.8 M and 16.2 s); re-reading the siblings
//!   from the table at every iteration; steering only where the position leans
//!   lost; factors 1.5, 3, 16 and 64; epsilon 1/2 and 1/8; Kaneko's cut-off of a
//!   thread whose path another thread settled. None was better beyond the noise.
//!   Nor a leader that is not steered (the single thread's search, with a helper
//!   steered around it): median of five 18.09 M nodes against 18.11 M. A helper
//!   that kept its unproven numbers in a table of its own (1 GiB) and shared only
//!   its proofs took 19.6-24.4 M nodes and 22-27 s (six runs, with and without the
//!   leader, against about 15 s): what the threads learn short of a proof is worth
//!   sharing. With deep df-pn, on 5x5 (two threads, alternating runs, medians of
//!   12): Kaneko's cut-off again (a thread re-reads its position's entry at every
//!   iteration and leaves once another thread has settled it), 1.10 M nodes
//!   against 1.05 M; the factor applied only to the part of a child's `delta`
//!   above its depth bias, 1.10 M against 1.11 M. Nor another `D` for two threads
//!   (medians of six): 0, 15, 25 and 35 took 1.40, 1.28, 1.13 and 1.03 M nodes in
//!   1.02, 0.93, 0.90 and 0.91 s; fewer nodes at a larger `D`, each dearer.
//!   Nor a busy child's `delta` raised by a constant instead of doubled (so that
//!   threads part only where siblings are nearly level, deep in the tree): 5x5,
//!   two threads, medians of ten alternating runs, `+2`, `+8` and `+32` per busy
//!   thread took 1.12, 1.11 and 1.07 M nodes in 1.54, 1.35 and 1.44 s, against
//!   1.03 M in 1.47 s doubled (a slower machine than the figures above).
//!   With steering only near the root, 6x5 on two threads, five alternating runs
//!   each: re-reading the children from the table at every iteration in the first
//!   4 or 12 plies (where the threads meet), medians 15.46 M and 15.36 M nodes
//!   against 14.91 M (on sixteen 6x5 positions after two random plies, three
//!   rounds, 19.01 M and 18.63 M against 18.22 M); `D` 40 and 22 instead of 30,
//!   15.43 M and 20.18 M against 15.43 M.
//! - **Where the extra nodes come from** (6x5, two threads, measured with a build
//!   that logged every first expansion): one thread expands 9.15 M distinct
//!   positions (15.8 M nodes); two threads 11.6 M (20.3 M nodes), and 10.7 M
//!   (18.6 M nodes) with root moves kept apart as below, yet only 2,043 and 1,155
//!   positions were expanded afresh by both threads. So the overhead is not the
//!   same work done twice: two threads build a different, larger proof, about half
//!   of whose positions one thread never expands. The table is not the cause
//!   either: with 8 GiB (a quarter full, few replacements) one thread took
//!   16.3 M nodes, two 17.5-19.4 M. Nor the
//!   steering at the root: keeping each thread out of root moves another thread is
//!   in gave 18.5-19.2 M (four runs). Not steering at the depths where the side to
//!   move wins 6x5 (where the steered thread speculates on moves the proof does
//!   not need) gave about 3% fewer nodes (median of four 17.9 M against 18.4 M),
//!   but the search would have to know the winner beforehand: the root's numbers
//!   do not tell (its `phi` stays below its `delta` on 6x5, a second-player win,
//!   as on 4x6, a first-player win). Nor proving the root's moves one at a time:
//!   both threads kept in the same root move (no steering at the root) gave a
//!   median of 19.7 M, and with no steering at depth 1 either (so that they split
//!   at depth 2, below one root move and one reply) 17.7 M (five runs each,
//!   against 18.5 M), about the 3% above. The rest, over 10%, is not explained: the
//!   work on one root move varies up to fourfold from run to run (move 3 of 6x5:
//!   0.99 M nodes on one thread, 4.37 M and 1.00 M in two runs on two threads), so
//!   the proof two threads find is another one, on 6x5 usually a larger one.
//!   Nor is the excess at any one depth or kind of node: on sixteen 6x5 positions
//!   after two random plies (steering near the root only, two runs of two threads
//!   against one of one), two threads expanded 1.22x the positions afresh, 1.09x
//!   in plies 0-5, 1.25x in 6-11, 1.23x in 12-17, 1.17x in 18-23, and 1.24x where
//!   the side that wins in the end is to move against 1.21x where it is not.
//!   Nor do the threads spoil each other's numbers: of the stores over a searched,
//!   unproven entry, 10-13% replace numbers the other thread wrote (6x5 and 5x5,
//!   two runs each, a build that tagged each entry with its last writer), and
//!   those lower its `phi` or `delta` less often than a thread's stores over its
//!   own (33% against 43% on 6x5, 35-36% against 46% on 5x5; one thread 42-44%).
//! - **Memory traffic**: one more load per probe (the bucket's version), one atomic
//!   write per store, and two per expansion near the root on the busy counters
//!   (none deeper than [`STEER_DEPTH`]; the figures below predate it). With one
//!   thread the busy counters are not touched and the search visits exactly the
//!   nodes it did before there were threads. The counters cost about 2% of a
//!   node: kept on with one thread (where they steer next to nothing, 959,898
//!   nodes against 961,750), 5x5 took 1.53 s against 1.50 s (medians of 7). Two
//!   threads search 1.83-1.91x as many nodes a second as one, 1.5-1.6x on short
//!   solves when the machine is noisy.
//! - **Non-determinism**: which thread proves what first depends on timing, so node
//!   counts vary between runs and the proven best move may differ; the winner cannot
//!   (every proof is sound, whoever found it), and tests check it against the
//!   reference solver at 1, 2 and 4 threads.

use std::sync::Mutex;

use breakthrough_engine::Position;

use crate::knowledge::KnowledgeStats;
use crate::limits::Stop;
use crate::options::SolveOptions;
use crate::progress::{Progress, SearchStats};
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
    knowledge: KnowledgeStats,
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
        let config = options.dfpn_config();
        let mut search = Dfpn::new(table, &team, options.limits.clone(), config, observer);
        let outcome = search.solve_root(root, options.root_key(root));
        // A thread stopped by another's finish reports nothing of its own.
        if !(outcome.is_err() && team.halted()) {
            team.finish(outcome);
        }
        search.flush();
        reports.lock().unwrap_or_else(|e| e.into_inner())[index] = ThreadReport {
            nodes: search.nodes(),
            knowledge: search.knowledge(),
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
    let outcome = team.outcome().unwrap_or(Err(Stop::Interrupted));
    let mut knowledge = KnowledgeStats::default();
    for report in &reports {
        knowledge.add(&report.knowledge);
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
        knowledge,
        threads,
        thread_nodes: reports.iter().map(|r| r.nodes).collect(),
    };
    (outcome, stats)
}
