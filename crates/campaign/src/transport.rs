//! How the master and its workers talk: jobs out, reports back. The master sees only
//! [`Transport`]; [`Local`] runs the workers as threads of this process that share
//! one table (a worker's table is its memory between jobs). Another transport (over
//! MPI, say) carries the same messages between processes.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use breakthrough_engine::Position;
use breakthrough_solver::{run_job, JobOptions, JobReport, Pn, Progress, Table};

/// A job: search `position` for at most `max_nodes` nodes.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: u64,
    pub position: Position,
    pub max_nodes: u64,
    /// The job ends when its position's numbers reach these (see the DAG's select).
    pub thresholds: (Pn, Pn),
}

/// What a worker tells the master.
#[derive(Debug)]
pub enum Report {
    /// A job's partial result: its root's numbers so far.
    Progress { job: u64, numbers: (Pn, Pn) },
    /// A job's end.
    Done { job: u64, report: JobReport },
    /// A job that failed (a bug: its proof could not be written, or it panicked), or
    /// (`job` = `u64::MAX`) workers that are gone.
    Failed { job: u64, error: String },
}

/// The master's side of the conversation.
pub trait Transport {
    /// Jobs that can run at once.
    fn workers(&self) -> usize;
    /// Hands a job to the next free worker.
    fn send(&mut self, job: Job);
    /// The next report, waiting at most `timeout`.
    fn receive(&mut self, timeout: Duration) -> Option<Report>;
}

/// Workers as threads of this process over one shared table.
pub struct Local {
    workers: usize,
    jobs: Option<Sender<Job>>,
    reports: Receiver<Report>,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Local({} workers)", self.workers)
    }
}

/// The settings every job of a run shares.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    pub knowledge: breakthrough_solver::Knowledge,
    pub inverse_epsilon: u32,
    /// Set to end the jobs in flight (the end of a run).
    pub halt: Arc<AtomicBool>,
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
        let (report_sender, reports) = channel();
        let job_receiver = Arc::new(Mutex::new(job_receiver));
        for index in 0..workers.max(1) {
            let jobs = Arc::clone(&job_receiver);
            let reports = report_sender.clone();
            std::thread::Builder::new()
                .name(format!("worker-{index}"))
                // The search recurses once per ply.
                .stack_size(32 << 20)
                .spawn_scoped(scope, move || worker(&jobs, &reports, table, settings))
                .expect("cannot start a worker thread");
        }
        Local {
            workers: workers.max(1),
            jobs: Some(job_sender),
            reports,
        }
    }

    /// No more jobs: the workers end after their current one.
    pub fn close(&mut self) {
        self.jobs = None;
    }
}

fn worker(
    jobs: &Mutex<Receiver<Job>>,
    reports: &Sender<Report>,
    table: &Table,
    settings: &WorkerSettings,
) {
    loop {
        let job = match jobs.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return, // The master closed the queue.
        };
        let options = JobOptions {
            max_nodes: job.max_nodes,
            thresholds: job.thresholds,
            min_nodes: job.max_nodes / 10,
            knowledge: settings.knowledge,
            inverse_epsilon: settings.inverse_epsilon,
            proof: true,
            stop: Some(Arc::clone(&settings.halt)),
        };
        let mut observer = |p: &Progress| {
            let _ = reports.send(Report::Progress {
                job: job.id,
                numbers: (p.root_proof, p.root_disproof),
            });
        };
        // A panic in a job (a bug) is reported, so that the master does not wait for
        // an answer that never comes.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_job(table, &job.position, &options, &mut observer)
        }));
        let report = match ran {
            Ok(Ok(report)) => Report::Done {
                job: job.id,
                report,
            },
            Ok(Err(err)) => Report::Failed {
                job: job.id,
                error: format!("at {}: {err}", job.position),
            },
            Err(_) => Report::Failed {
                job: job.id,
                error: format!("at {}: the worker panicked", job.position),
            },
        };
        if reports.send(report).is_err() {
            return;
        }
    }
}

impl Transport for Local {
    fn workers(&self) -> usize {
        self.workers
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
}
