//! How the master and its workers talk: jobs out, reports back. The master sees only
//! [`Transport`]; [`Local`] runs the workers as threads of this process that share
//! one table (a worker's table is its memory between jobs); `crate::mpi` (the `mpi`
//! feature) carries the same messages to worker processes ([`crate::wire`] encodes
//! them).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{
    channel, sync_channel, Receiver, RecvTimeoutError, SendError, Sender, SyncSender,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use breakthrough_engine::{Board, Position};
use breakthrough_proof::Compression;
use breakthrough_solver::{ExtractError, Key, Pn, Progress, RaceRules, Table};

use crate::job::{prove_job, run_job, JobOptions, JobOutcome, JobReport};
use crate::proven::ProvenSlot;

/// MiB of each worker thread's memory of the positions its part has written (see
/// `SolveOptions::proof_mb`): all of a part of up to about 7 M positions (a 6 MB part
/// file), and bounded memory for bigger ones.
const PART_PROOF_MB: usize = 512;

/// A job: search `position` for at most `max_nodes` nodes.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: u64,
    pub position: Position,
    pub max_nodes: u64,
    /// The job ends when its position's numbers reach these (see the DAG's select).
    pub thresholds: (Pn, Pn),
    /// The worker that last searched this subtree (its table may still hold it),
    /// as [`Report::Done`]'s `place` named it; a transport with one table ignores it.
    pub home: Option<u32>,
    /// Whether a job that settles its position writes its proof (its part);
    /// without, the outcome comes back without one (see `RunOptions::defer_proofs`).
    pub prove: bool,
}

/// What a job found, as the master takes it in: a settled position's proof is
/// the part's file bytes (compressed by the worker, not the master), or none for a
/// job that was not to prove ([`Job::prove`]). The stored positions that proof
/// takes as proven are [`Transport::committed`]'s; the positions below its root it
/// exports, [`WorkerSettings::export_min`]'s.
pub type Outcome = JobOutcome<Option<Vec<u8>>>;

/// A finished job.
#[derive(Clone, Debug)]
pub struct Done {
    pub job: u64,
    /// The worker that ran it (a rank, or 0 for threads that share one table).
    pub place: u32,
    pub outcome: Outcome,
    /// Nodes of the search, then of the proof's extraction.
    pub nodes: u64,
    pub proof_nodes: u64,
    /// Stored positions the job met (and so did not search again).
    pub proven_hits: u64,
}

/// What a worker tells the master.
#[derive(Clone, Debug)]
pub enum Report {
    /// A job's partial result: its root's numbers so far.
    Progress { job: u64, numbers: (Pn, Pn) },
    /// A job's end.
    Done(Done),
    /// A job that failed (a bug: its proof could not be written, or it panicked), or
    /// (`job` = `u64::MAX`) workers that are gone.
    Failed { job: u64, error: String },
}

/// The master's side of the conversation.
pub trait Transport {
    /// Jobs the master keeps out at once (running, or queued for a worker).
    fn workers(&self) -> usize;
    /// Hands a job to a free worker (its home if that one is free).
    fn send(&mut self, job: Job);
    /// The next report, waiting at most `timeout`.
    fn receive(&mut self, timeout: Duration) -> Option<Report>;
    /// Ends the searches in flight soon, and with `proofs` the proofs being
    /// written too (without, a job that settled its position writes its part); each
    /// job still reports (`Stopped`, or its result).
    fn halt(&mut self, proofs: bool);
    /// Positions now committed to the store, with whether the side to move wins:
    /// later jobs may take them as settled, and their proofs refer to them (only
    /// committed ones: a part never points at a proof that a crash could lose).
    fn committed(&mut self, solved: &[(Key, bool)]);
}

/// The settings every job of a run shares.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// The campaign's board: a worker's table is laid out for it.
    pub board: Board,
    pub race_rules: RaceRules,
    pub inverse_epsilon: u32,
    /// Set to end the jobs in flight (the end of a run).
    pub halt: Halt,
    /// A benchmark of the master: answer every job at once ([`echo`]).
    pub echo: bool,
    /// A part exports the positions below its root whose proofs in it expand at
    /// least this many positions (see `JobOptions::export_min`; 0: none).
    pub export_min: u64,
    /// Threads per job (see `JobOptions::threads`). Not in the master's settings
    /// message: a worker process sets its own (`crate::mpi`).
    pub team: usize,
}

/// The flags that end the jobs in flight: first their searches, then (if they
/// take too long) the proofs being written.
#[derive(Clone, Debug, Default)]
pub struct Halt {
    pub searches: Arc<AtomicBool>,
    pub proofs: Arc<AtomicBool>,
}

impl Halt {
    /// Ends the searches, and with `proofs` the proofs being written.
    pub fn set(&self, proofs: bool) {
        self.searches.store(true, Ordering::Relaxed);
        if proofs {
            self.proofs.store(true, Ordering::Relaxed);
        }
    }
}

/// The default of [`WorkerSettings::export_min`]: a lower bound saves parts more of
/// the positions they would prove again, and costs more exports, each a record in
/// the store and in each worker's memory (figures in `docs/performance-log.md`,
/// "Campaigns" and "Writing proofs faster").
pub const DEFAULT_EXPORT_MIN: u64 = 2_000;

/// The answer of a worker that does not search, for measuring what a master can
/// hand out and take in: the job's position open, every child open at `(1, 1)`.
/// Never a result, so it cannot make a campaign wrong, only steer it badly.
pub fn echo(job: &Job) -> Done {
    let children = job
        .position
        .steps()
        .into_iter()
        .map(|step| (step, Pn::ONE, Pn::ONE))
        .collect();
    Done {
        job: job.id,
        place: 0,
        outcome: Outcome::Open {
            numbers: (Pn::ONE, Pn::ONE),
            children: Some(children),
        },
        nodes: 0,
        proof_nodes: 0,
        proven_hits: 0,
    }
}

/// Workers as threads of this process over one shared table.
pub struct Local {
    workers: usize,
    /// Proofs that teams' writers are writing now: their jobs are still out, and
    /// their teams free for more (see [`Transport::workers`]).
    writing: Arc<AtomicUsize>,
    jobs: Option<Sender<Job>>,
    reports: Receiver<Report>,
    halt: Halt,
    /// The committed positions as the workers' jobs see them.
    proven: ProvenSlot,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Local({} workers)", self.workers)
    }
}

impl Local {
    /// Starts `workers` threads in `scope`, searching over `table`.
    pub fn start<'scope, 'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        workers: usize,
        table: &'env Table,
        settings: &'env WorkerSettings,
    ) -> Local {
        let (job_sender, job_receiver) = channel::<Job>();
        let proven = ProvenSlot::default();
        let (report_sender, reports) = channel();
        let job_receiver = Arc::new(Mutex::new(job_receiver));
        let writing = Arc::new(AtomicUsize::new(0));
        for index in 0..workers.max(1) {
            let jobs = Arc::clone(&job_receiver);
            let reports = report_sender.clone();
            let proven = proven.clone();
            let writing = Arc::clone(&writing);
            std::thread::Builder::new()
                .name(format!("worker-{index}"))
                // The search recurses once per ply.
                .stack_size(32 << 20)
                .spawn_scoped(scope, move || {
                    worker(&jobs, &reports, table, settings, &proven, &writing)
                })
                .expect("cannot start a worker thread");
        }
        Local {
            workers: workers.max(1),
            writing,
            jobs: Some(job_sender),
            reports,
            halt: settings.halt.clone(),
            proven,
        }
    }

    /// Adds committed positions to what the jobs see, now. (A worker process that
    /// puts positions in its table as settled publishes them first, so that a
    /// proof never meets a settled position it may not refer to.)
    pub fn publish(&mut self, solved: &[(Key, bool)]) {
        self.proven.extend(solved);
    }

    /// No more jobs: the workers end after their current one.
    pub fn close(&mut self) {
        self.jobs = None;
    }
}

/// A worker: takes jobs until the master closes the queue. With one thread per
/// job it writes each settled position's proof itself. With a team, a writer
/// thread of its own writes them while the team takes another job (counted in
/// `writing`, so that the master sends one): a proof is written on one thread,
/// and the team's others would wait for it.
fn worker(
    jobs: &Mutex<Receiver<Job>>,
    reports: &Sender<Report>,
    table: &Table,
    settings: &WorkerSettings,
    proven: &ProvenSlot,
    writing: &AtomicUsize,
) {
    std::thread::scope(|scope| {
        let writer = if settings.team > 1 && !settings.echo {
            start_writer(scope, reports, table, writing)
        } else {
            None
        };
        loop {
            let job = match jobs.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                Ok(job) => job,
                Err(_) => return, // The master closed the queue.
            };
            if settings.echo {
                if reports.send(Report::Done(echo(&job))).is_err() {
                    return;
                }
                continue;
            }
            let options = JobOptions {
                proof: job.prove && writer.is_none(),
                ..job_options(&job, settings, proven)
            };
            let mut observer = |p: &Progress| {
                let _ = reports.send(Report::Progress {
                    job: job.id,
                    numbers: (p.root_proof, p.root_disproof),
                });
            };
            // A panic in a job (a bug) is reported, so that the master does not wait
            // for an answer that never comes.
            let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
                run_job(table, &job.position, &options, &mut observer)
            }));
            let report = match (&writer, ran) {
                (Some(writer), Ok(Ok(searched)))
                    if job.prove && matches!(searched.outcome, JobOutcome::Solved { .. }) =>
                {
                    match writer.send((job, options, searched)) {
                        Ok(()) => continue,
                        // A writer that is gone (a bug) leaves the job to fail here.
                        Err(SendError((job, ..))) => failed(&job, "the proof writer is gone"),
                    }
                }
                (_, ran) => done(&job, ran),
            };
            if reports.send(report).is_err() {
                return;
            }
        }
    });
}

/// Starts a team's proof writer in `scope`: it writes the proofs of the
/// positions sent to it, with their jobs' options, and reports the jobs. The channel holds none: a team
/// that settles a position while the one before is still being written waits,
/// so a worker is at most one thread more than its team.
fn start_writer<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    reports: &'env Sender<Report>,
    table: &'env Table,
    writing: &'env AtomicUsize,
) -> Option<SyncSender<(Job, JobOptions, JobReport)>> {
    let (proofs, to_write) = sync_channel::<(Job, JobOptions, JobReport)>(0);
    std::thread::Builder::new()
        .name("proof-writer".into())
        // The extraction recurses once per ply.
        .stack_size(32 << 20)
        .spawn_scoped(scope, move || {
            for (job, options, searched) in to_write {
                // Its team is free for another job meanwhile.
                writing.fetch_add(1, Ordering::Relaxed);
                let written = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let proved = prove_job(table, &job.position, searched, &options);
                    done(&job, Ok(proved))
                }));
                let report = written.unwrap_or_else(|_| failed(&job, "the proof writer panicked"));
                // Counted off before the report: the master, once it has the
                // report, must not see the team still free for one job more.
                writing.fetch_sub(1, Ordering::Relaxed);
                if reports.send(report).is_err() {
                    return;
                }
            }
        })
        // Without a writer the worker writes its proofs itself.
        .ok()
        .map(|_| proofs)
}

/// The options of a worker's job (with its proof, if it is to prove).
fn job_options(job: &Job, settings: &WorkerSettings, proven: &ProvenSlot) -> JobOptions {
    JobOptions {
        max_nodes: job.max_nodes,
        thresholds: job.thresholds,
        min_nodes: job.max_nodes / 10,
        race_rules: settings.race_rules,
        inverse_epsilon: settings.inverse_epsilon,
        proof: job.prove,
        proof_mb: PART_PROOF_MB,
        stop: Some(Arc::clone(&settings.halt.searches)),
        stop_proof: Some(Arc::clone(&settings.halt.proofs)),
        proven: Some(proven.clone()),
        export_min: settings.export_min,
        threads: settings.team,
        // Plain df-pn+ in jobs: deep df-pn's numbers, counted from each job's
        // root, are on another scale than the rest of the master's, and took as
        // many nodes in more time (`docs/performance-log.md`, "Campaigns").
        depth_bias: Some(0),
    }
}

/// The report of a job that failed (a bug).
fn failed(job: &Job, why: &str) -> Report {
    Report::Failed {
        job: job.id,
        error: format!("at {}: {why}", job.position),
    }
}

/// The report of a job that ran (or panicked) to its end, its proof written.
fn done(job: &Job, ran: std::thread::Result<Result<JobReport, ExtractError>>) -> Report {
    let report = match ran {
        Ok(Ok(report)) => report,
        Ok(Err(err)) => return failed(job, &err.to_string()),
        Err(_) => return failed(job, "the worker panicked"),
    };
    let outcome = report.outcome.try_map_proof(|proof| match proof {
        Some(proof) => Ok(Some(proof.to_bytes_with(Compression::Fast))),
        None if job.prove => Err("solved without its proof"),
        None => Ok(None),
    });
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(why) => return failed(job, why),
    };
    Report::Done(Done {
        job: job.id,
        place: 0,
        outcome,
        nodes: report.nodes,
        proof_nodes: report.proof_nodes,
        proven_hits: report.proven_hits,
    })
}

impl Transport for Local {
    /// One job per worker, and one more for each proof a team's writer is
    /// writing (see `worker`).
    fn workers(&self) -> usize {
        self.workers + self.writing.load(Ordering::Relaxed)
    }

    fn send(&mut self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // Workers live as long as the queue is open.
            let _ = jobs.send(job);
        }
    }

    fn receive(&mut self, timeout: Duration) -> Option<Report> {
        match self.reports.recv_timeout(timeout) {
            Ok(report) => Some(report),
            Err(RecvTimeoutError::Timeout) => None,
            // Every worker is gone (a worker that panicked reports it, see `worker`).
            Err(RecvTimeoutError::Disconnected) => Some(Report::Failed {
                job: u64::MAX,
                error: "the worker threads are gone".into(),
            }),
        }
    }

    fn halt(&mut self, proofs: bool) {
        self.halt.set(proofs);
    }

    fn committed(&mut self, solved: &[(Key, bool)]) {
        self.publish(solved);
    }
}
