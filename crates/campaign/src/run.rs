//! A campaign on disk, and its runs: the master loop over a [`Transport`].

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use breakthrough_engine::{Color, Position, Step};
use breakthrough_solver::{Key, Pn, RaceRules, Table};
use hashbrown::{HashMap, HashSet};

use crate::certificate::{top_of, write_certificate};
use crate::checkpoint::{
    Checkpoint, Progress, RunEnd, RunRecord, RunSettings, Sample, PROGRESS_DEPTHS,
};
use crate::dag::{Dag, State, LOST, WON};
use crate::error::CampaignError;
use crate::spec::{Spec, SPEC_FILE};
use crate::store::{Batch, Store};
use crate::transport::{
    Done, Halt, Job, Local, Outcome, Report, Transport, WorkerSettings, DEFAULT_EXPORT_MIN,
};

/// Campaign seconds between two progress samples: the DAG's depths take a walk
/// over every node.
const PROGRESS_PERIOD: f64 = 20.0;

/// How to run (these may change from one run to the next).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (they share the table).
    pub threads: usize,
    /// Threads per job: the threads run `threads / team` jobs at a time, each
    /// searched by `team` threads that steer apart as `solve`'s threads do.
    pub team: usize,
    pub table_mb: usize,
    /// End the run after this long (the campaign goes on at the next run).
    pub time_limit: Option<Duration>,
    /// Write the checkpoint this often.
    pub checkpoint_every: Duration,
    /// Set from outside (Ctrl-C, SIGTERM) to end the run cleanly.
    pub stop: Arc<AtomicBool>,
    /// Set from outside (a second Ctrl-C) to end a stopping run at once: the parts
    /// still being written are given up (their positions are searched again).
    pub hurry: Arc<AtomicBool>,
    /// End the run after this many jobs as `kill -9` would, without a last
    /// checkpoint.
    #[cfg(test)]
    pub(crate) crash_after_jobs: Option<u64>,
    /// With `crash_after_jobs`: crash only once this run has stored a position it
    /// solved (one not stored before), and commit it first, so that the runs after
    /// it have a stored position that their checkpoint does not know.
    #[cfg(test)]
    pub(crate) crash_after_storing: bool,
    /// End the run cleanly after this many jobs, as a stop request would (a
    /// moment that does not depend on the machine's speed).
    #[cfg(test)]
    pub(crate) stop_after_jobs: Option<u64>,
    /// The node budget of a job that proves a leaf of known value, in place of
    /// `PROVING_BUDGET` jobs' worth.
    #[cfg(test)]
    pub(crate) proving_nodes: Option<u64>,
    /// A benchmark of the master: the workers answer every job at once, without a
    /// search (see [`crate::transport::echo`]).
    pub echo_jobs: bool,
    /// A job's proof exports the positions below its root whose proofs in it
    /// expand at least this many positions, for later proofs to refer to (0: none;
    /// see [`crate::transport::WorkerSettings::export_min`]).
    pub export_min: u64,
    /// Jobs settle their positions without writing their proofs: the master keeps
    /// each such leaf solved but unproven, as a restore keeps the leaves of a
    /// snapshot, and proves those the root's proof takes as given once the root is
    /// solved (the run's jobs then write their proofs). For a run whose parts
    /// would not outlive it (a machine lent for one session): writing proofs takes
    /// a large share of a run's time, and a snapshot keeps none of them.
    pub defer_proofs: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            team: 1,
            table_mb: 64,
            time_limit: None,
            checkpoint_every: Duration::from_secs(300),
            stop: Arc::new(AtomicBool::new(false)),
            hurry: Arc::new(AtomicBool::new(false)),
            #[cfg(test)]
            crash_after_jobs: None,
            #[cfg(test)]
            crash_after_storing: false,
            #[cfg(test)]
            stop_after_jobs: None,
            #[cfg(test)]
            proving_nodes: None,
            echo_jobs: false,
            export_min: DEFAULT_EXPORT_MIN,
            defer_proofs: false,
        }
    }
}

impl RunOptions {
    /// Threads per job: `team`, at least one and at most `threads`.
    pub fn team(&self) -> usize {
        self.team.clamp(1, self.threads.max(1))
    }

    /// Jobs at a time: a team's worth of threads each (at least one).
    pub fn workers(&self) -> usize {
        (self.threads / self.team()).max(1)
    }

    /// The jobs after which a test ends the run cleanly.
    #[cfg(test)]
    fn stop_after_jobs(&self) -> Option<u64> {
        self.stop_after_jobs
    }

    /// Whether a test's crash is due now.
    #[cfg(test)]
    fn crash_due(&self, run: &RunState) -> bool {
        self.crash_after_jobs.is_some_and(|jobs| run.jobs >= jobs)
            && (!self.crash_after_storing || run.stored > 0)
    }

    /// The node budget of a job that proves a leaf of known value.
    #[cfg(test)]
    fn proving_nodes(&self, job_nodes: u64) -> u64 {
        self.proving_nodes
            .unwrap_or(job_nodes.saturating_mul(PROVING_BUDGET))
    }

    #[cfg(not(test))]
    fn stop_after_jobs(&self) -> Option<u64> {
        None
    }

    #[cfg(not(test))]
    fn proving_nodes(&self, job_nodes: u64) -> u64 {
        job_nodes.saturating_mul(PROVING_BUDGET)
    }

    #[cfg(not(test))]
    fn crash_due(&self, _run: &RunState) -> bool {
        false
    }
}

/// The figures of a campaign now, for progress and status.
#[derive(Clone, Debug)]
pub struct Figures {
    /// Over all runs so far, this one included.
    pub seconds: f64,
    pub nodes: u64,
    pub jobs: u64,
    /// This run's.
    pub run_seconds: f64,
    pub run_nodes: u64,
    pub run_jobs: u64,
    /// Of this run's nodes, those the jobs spent writing their proofs.
    pub run_proof_nodes: u64,
    /// Stored positions this run's jobs met as new leaves of their searches and
    /// extractions (and so took as settled instead of searching them), and their
    /// proofs' references to stored positions instead of proofs of them.
    pub run_proven_hits: u64,
    pub run_given: u64,
    /// Positions this run's parts proved on the way and exported, stored (counted
    /// in `stored`), and of those, leaves of the DAG that were settled so.
    pub run_exported: u64,
    pub run_exported_leaves: u64,
    pub in_flight: usize,
    pub stored: u64,
    /// Positions of this run taken from the store instead of searched (leaves about
    /// to be handed out, new children), and jobs that solved a position already
    /// stored (none: a stored position is never handed out).
    pub store_hits: u64,
    pub solved_again: u64,
    /// Unproven leaves (kept by a restore, or settled by a run that deferred its
    /// proofs) that this run queued to prove them for the root's proof, each by a
    /// job of its own; of those, the ones whose jobs found the other winner or
    /// came back open (too hard for one job), which the DAG then searches again;
    /// the unproven leaves left; and the leaves this run settled without their
    /// proofs.
    pub run_queued: u64,
    pub run_reopened: u64,
    pub run_deferred: u64,
    pub unproven: usize,
    pub dag_nodes: usize,
    pub root: (Pn, Pn),
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum RunOutcome {
    /// The root is solved; the certificate is in the directory.
    Solved(Box<Settled>),
    /// A time limit or a stop request ended the run; the same command continues.
    Stopped(RunEnd),
    /// Ended as a crash would: only the crate's tests end a run so.
    Crashed,
}

/// A solved campaign's answer.
#[derive(Clone, Debug)]
pub struct Settled {
    pub winner: Color,
    /// A winning move of the side to move, when it wins and the move is known.
    pub best_move: Option<Step>,
    /// Every root move's outcome for the side to move, where the DAG knows it.
    pub root_moves: Vec<(Step, Option<bool>)>,
    /// The certificate's figures.
    pub top_positions: u64,
    pub parts: usize,
    pub certificate_bytes: u64,
}

/// An open campaign directory.
#[derive(Debug)]
pub struct Campaign {
    dir: PathBuf,
    spec: Spec,
    root: Position,
    store: Store,
    /// Solved positions not yet committed to the store (group commit).
    batch: Batch,
    checkpoint: Checkpoint,
    /// The root's winning move, when a job on the root found it.
    root_best: Option<Step>,
    /// Positions in the store when the campaign was opened.
    stored_base: u64,
    /// Positions committed to the store that the workers have not been told of.
    news: Vec<(Key, bool)>,
    /// Table entries loaded from the last clean stop (see [`crate::warm`]).
    pub warm_entries: u64,
    /// Why the warm table could not be saved at the last stop, if it could not.
    pub warm_error: Option<String>,
    /// Leaves of the checkpoint that the store had solved since (the work of a run
    /// that ended without its last checkpoint).
    loaded_from_store: u64,
    /// This run's exported positions stored, and DAG leaves they settled.
    exported: u64,
    exported_leaves: u64,
}

impl Campaign {
    /// Opens the campaign in `dir` to continue it, or starts one there as `wanted`
    /// says (creating `dir`). A directory holding another campaign, or files that are
    /// no campaign's, is refused without a change; so is a damaged checkpoint. The
    /// settings that may change between runs (the longest race win, the nodes per
    /// job) are `wanted`'s from now on: campaign.json records them for the next run.
    pub fn open(dir: &Path, wanted: &Spec) -> Result<Campaign, CampaignError> {
        let root = wanted
            .position()
            .map_err(|why| CampaignError::refused(dir, why))?;
        let existing = existing_spec(dir)?;
        if let Some(spec) = &existing {
            if let Some(why) = spec.mismatch(wanted) {
                return Err(CampaignError::refused(dir, why));
            }
        }
        let checkpoint = match &existing {
            Some(_) => read_checkpoint(dir, &root)?,
            None => None,
        };
        if existing.is_none() {
            std::fs::create_dir_all(dir).map_err(CampaignError::io(dir))?;
        }
        if existing.as_ref() != Some(wanted) {
            wanted.write(dir)?;
        }
        // Without a checkpoint no run has started (a run writes one before its first
        // job), so a store that is missing was never made: make it now.
        let store = Store::open(dir, checkpoint.is_none())?;
        let mut checkpoint = checkpoint.unwrap_or_else(|| Checkpoint::new(Dag::new(root)));
        let loaded_from_store = settle_from_store(&mut checkpoint, &store)?;
        let stored_base = store.len()?;
        Ok(Campaign {
            warm_entries: 0,
            warm_error: None,
            stored_base,
            news: Vec::new(),
            loaded_from_store,
            exported: 0,
            exported_leaves: 0,
            dir: dir.to_path_buf(),
            spec: wanted.clone(),
            root,
            store,
            batch: Batch::default(),
            checkpoint,
            root_best: None,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// The settings every job of a run of this campaign runs with.
    pub fn worker_settings(&self, options: &RunOptions) -> WorkerSettings {
        WorkerSettings {
            board: self.root.board(),
            race_rules: if self.spec.race_rules {
                RaceRules {
                    enabled: true,
                    race_moves: self.spec.race_moves,
                }
            } else {
                RaceRules::NONE
            },
            inverse_epsilon: self.spec.inverse_epsilon,
            halt: Halt::default(),
            echo: options.echo_jobs,
            export_min: options.export_min,
            team: options.team(),
        }
    }

    /// Runs the campaign on worker threads of this process until the root is
    /// solved, the time limit, or a stop request; calls `observer` about twice a
    /// second.
    pub fn run(
        &mut self,
        options: &RunOptions,
        observer: &mut dyn FnMut(&Figures),
    ) -> Result<RunOutcome, CampaignError> {
        let table = Table::for_board(self.root.board(), options.table_mb);
        // The last clean stop's costliest entries: what the search below the leaves
        // had learned.
        if let Some(entries) = crate::warm::load(&self.dir) {
            table.restore(&entries);
            self.warm_entries = entries.len() as u64;
        }
        let settings = self.worker_settings(options);
        let result = std::thread::scope(|scope| {
            let mut transport = Local::start(scope, options.workers(), &table, &settings);
            let result = self.master(&mut transport, options, observer);
            // Whatever happened, the workers must end for the scope to.
            transport.halt(true);
            transport.close();
            result
        });
        let end = result?;
        match end {
            RunEnd::Running | RunEnd::Solved => {}
            _ => {
                let entries = table.entries(crate::warm::MIN_WORK, crate::warm::MAX_ENTRIES);
                // Only a cache: a failure to save it is told, not fatal.
                self.warm_error = crate::warm::save(&self.dir, &entries)
                    .err()
                    .map(|err| err.to_string());
            }
        }
        if end == RunEnd::Solved {
            crate::warm::remove(&self.dir);
        }
        self.outcome(end)
    }

    /// Runs the campaign over another transport (worker processes, say), as
    /// [`Campaign::run`] does over threads; `options.threads` and `table_mb` are then
    /// only recorded (the workers' own). The caller ends the workers afterwards.
    pub fn run_over(
        &mut self,
        transport: &mut dyn Transport,
        options: &RunOptions,
        observer: &mut dyn FnMut(&Figures),
    ) -> Result<RunOutcome, CampaignError> {
        let end = self.master(transport, options, observer)?;
        self.outcome(end)
    }

    fn outcome(&mut self, end: RunEnd) -> Result<RunOutcome, CampaignError> {
        match end {
            RunEnd::Running => Ok(RunOutcome::Crashed),
            RunEnd::Solved => Ok(RunOutcome::Solved(Box::new(self.settle()?))),
            end => Ok(RunOutcome::Stopped(end)),
        }
    }

    /// The master loop: hands out jobs, takes in reports, checkpoints. Returns how
    /// the run ended (`Running` for a simulated crash).
    fn master(
        &mut self,
        transport: &mut dyn Transport,
        options: &RunOptions,
        observer: &mut dyn FnMut(&Figures),
    ) -> Result<RunEnd, CampaignError> {
        let started = Instant::now();
        let before = self.checkpoint.totals();
        let mut run = self.begin_run(options)?;
        let mut clock = Clock {
            started,
            before,
            last_checkpoint: Instant::now(),
            last_report: Instant::now(),
        };
        let end = self.work_until_end(transport, options, observer, &mut run, &mut clock)?;
        if end == RunEnd::Running {
            return Ok(end);
        }
        // A checkpoint first, in case the workers never answer (a worker process
        // that died takes the whole run down with it); then end the jobs in flight
        // and take in what they finished.
        self.update_run(&run, started, end);
        self.write_checkpoint(&run)?;
        self.wind_down(transport, options, observer, &mut run, &mut clock)?;
        // The last parts' exports may settle the root.
        self.commit()?;
        let end = if self.root_proven(&mut run)? {
            RunEnd::Solved
        } else {
            end
        };
        self.sample(&run, started, &before);
        self.update_run(&run, started, end);
        self.write_checkpoint(&run)?;
        observer(&self.figures(&run, started, &before));
        Ok(end)
    }

    /// Records a new run and writes the checkpoint before its first job; every
    /// stored position is then news to the workers.
    fn begin_run(&mut self, options: &RunOptions) -> Result<RunState, CampaignError> {
        let defer = options.defer_proofs && !self.root_was_solved();
        self.checkpoint.runs.push(RunRecord {
            started_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            seconds: 0.0,
            nodes: 0,
            jobs: 0,
            threads: options.threads as u32,
            table_mb: options.table_mb as u64,
            end: RunEnd::Running,
            team: Some(options.team() as u32),
            settings: Some(RunSettings {
                race_moves: if self.spec.race_rules {
                    self.spec.race_moves
                } else {
                    0
                },
                job_nodes: self.spec.job_nodes,
                defer_proofs: defer,
            }),
        });
        let run = RunState {
            store_hits: std::mem::take(&mut self.loaded_from_store),
            defer,
            proving_nodes: options.proving_nodes(self.spec.job_nodes),
            ..RunState::default()
        };
        (self.exported, self.exported_leaves) = (0, 0);
        self.write_checkpoint(&run)?;
        self.news = self.store.all()?;
        Ok(run)
    }

    /// Hands out jobs and takes in reports until the root is solved, a stop request
    /// or the time limit; how the run ends (`Running` for a simulated crash).
    fn work_until_end(
        &mut self,
        transport: &mut dyn Transport,
        options: &RunOptions,
        observer: &mut dyn FnMut(&Figures),
        run: &mut RunState,
        clock: &mut Clock,
    ) -> Result<RunEnd, CampaignError> {
        let stop_after_jobs = options.stop_after_jobs();
        loop {
            if self.checkpoint.dag.root().is_solved() && self.root_proven(run)? {
                return Ok(RunEnd::Solved);
            }
            if options.stop.load(Ordering::Relaxed)
                || stop_after_jobs.is_some_and(|jobs| run.jobs >= jobs)
            {
                return Ok(RunEnd::Interrupted);
            }
            if options
                .time_limit
                .is_some_and(|limit| clock.started.elapsed() >= limit)
            {
                return Ok(RunEnd::TimeLimit);
            }
            if options.crash_due(run) {
                #[cfg(test)]
                if options.crash_after_storing {
                    self.commit()?;
                }
                observer(&self.figures(run, clock.started, &clock.before));
                return Ok(RunEnd::Running);
            }
            if !self.news.is_empty() {
                transport.committed(&std::mem::take(&mut self.news));
            }
            self.hand_out_jobs(transport, run)?;
            if run.in_flight.is_empty() {
                if self.checkpoint.dag.root().is_solved() {
                    continue;
                }
                return Err(CampaignError::Internal(
                    "no job in flight and no leaf to hand out, the root unsolved".into(),
                ));
            }
            let wait = if self.batch.is_empty() {
                Duration::from_millis(100)
            } else {
                Batch::WAIT
            };
            if let Some(report) = transport.receive(wait) {
                self.take(report, run)?;
            }
            if self.batch.is_due() {
                self.commit()?;
            }
            self.sample(run, clock.started, &clock.before);
            self.checkpoint_if_due(options, run, clock)?;
            self.tell_if_due(observer, run, clock);
        }
    }

    /// Whether the root is solved and every position its proof takes as given is
    /// stored, with its proof. Unproven leaves (kept by a restore, or settled by a
    /// run that deferred its proofs) that the proof takes as given are queued
    /// instead, each for a job of its own that proves it, and keep their values
    /// meanwhile, so that a checkpoint (and a snapshot) keeps the root solved. A
    /// queued job that finds the other winner or runs out of nodes corrects or
    /// opens its leaf, and the root's proof may then take another way. Unproven
    /// leaves that a part has proven since take the store's word. While queued
    /// leaves are left to hand out or in flight, it answers `false` at once.
    fn root_proven(&mut self, run: &mut RunState) -> Result<bool, CampaignError> {
        let dag = &self.checkpoint.dag;
        let Some(wins) = dag.root().wins() else {
            return Ok(false);
        };
        if self.checkpoint.unproven.is_empty() {
            return Ok(true);
        }
        if !run.to_prove.is_empty() || !run.proving.is_empty() {
            return Ok(false);
        }
        let mover = self.root.to_move();
        let winner = if wins { mover } else { mover.opponent() };
        let unproven = &self.checkpoint.unproven;
        let given: HashSet<Key> = top_of(&self.root, winner, dag, unproven)?
            .1
            .into_iter()
            .collect();
        let (mut changes, mut settled, mut to_prove) = (Vec::new(), Vec::new(), Vec::new());
        for &id in &self.checkpoint.unproven {
            let node = &dag.nodes[id as usize];
            let key = Key::of(&node.position);
            if let Some(wins) = self.stored(&key)? {
                // A part exported it since.
                settled.push(id);
                if node.wins() != Some(wins) {
                    changes.push((id, if wins { WON } else { LOST }));
                }
            } else if given.contains(&key) {
                to_prove.push(id);
            }
        }
        self.checkpoint
            .unproven
            .retain(|id| settled.binary_search(id).is_err());
        if !changes.is_empty() {
            // The root's proof may change: it is looked at again.
            self.checkpoint.dag.set_leaves(&changes);
            return Ok(false);
        }
        if to_prove.is_empty() {
            return Ok(true);
        }
        run.queued += to_prove.len() as u64;
        // Handed out from the end: in the order of the DAG.
        to_prove.reverse();
        run.to_prove = to_prove;
        // What is left to do is proving: deferred, it would never end.
        run.defer = false;
        Ok(false)
    }

    /// Writes the checkpoint, the run recorded as still running, every
    /// `options.checkpoint_every`.
    fn checkpoint_if_due(
        &mut self,
        options: &RunOptions,
        run: &RunState,
        clock: &mut Clock,
    ) -> Result<(), CampaignError> {
        if clock.last_checkpoint.elapsed() >= options.checkpoint_every {
            self.update_run(run, clock.started, RunEnd::Running);
            self.write_checkpoint(run)?;
            clock.last_checkpoint = Instant::now();
        }
        Ok(())
    }

    /// Hands out the leaves queued to be proven (see [`Campaign::root_proven`]),
    /// then the most-proving free leaves, one to each idle worker.
    fn hand_out_jobs(
        &mut self,
        transport: &mut dyn Transport,
        run: &mut RunState,
    ) -> Result<(), CampaignError> {
        while run.in_flight.len() < transport.workers() {
            let (leaf, thresholds, max_nodes, proving) = match run.to_prove.pop() {
                Some(leaf) => {
                    let node = &self.checkpoint.dag.nodes[leaf as usize];
                    if node.state != State::Leaf
                        || !node.is_solved()
                        || self.stored(&Key::of(&node.position))?.is_some()
                    {
                        continue;
                    }
                    // Its value is known: the job goes on until it has proven it,
                    // within a budget that only a leaf far harder than a job's
                    // reaches (it then comes back open).
                    (leaf, (Pn::INF, Pn::INF), run.proving_nodes, true)
                }
                None => {
                    let Some((leaf, thresholds)) =
                        self.checkpoint.dag.select(self.spec.inverse_epsilon)
                    else {
                        break;
                    };
                    (leaf, thresholds, self.spec.job_nodes, false)
                }
            };
            // No need to look in the store for the most-proving leaf: every leaf
            // was looked up when it was made, loaded or given back by a job, a
            // commit settles the leaves its exports match, and only this master
            // writes the store.
            let position = self.checkpoint.dag.nodes[leaf as usize].position;
            self.checkpoint.dag.nodes[leaf as usize].state = State::InFlight;
            run.in_flight.insert(run.next_job, leaf);
            if proving {
                run.proving.insert(run.next_job);
            }
            transport.send(Job {
                id: run.next_job,
                position,
                max_nodes,
                thresholds,
                home: run.homes.get(&leaf).copied(),
                prove: proving || !run.defer,
            });
            run.next_job += 1;
        }
        Ok(())
    }

    /// Ends the jobs in flight and takes in what they finished. A job that settled
    /// its position may finish its part (all its work is lost otherwise) within
    /// PROOF_GRACE, unless the root is solved with no unproven leaves (nothing is
    /// left to prove) or a second stop request hurries the end.
    fn wind_down(
        &mut self,
        transport: &mut dyn Transport,
        options: &RunOptions,
        observer: &mut dyn FnMut(&Figures),
        run: &mut RunState,
        clock: &mut Clock,
    ) -> Result<(), CampaignError> {
        transport.halt(false);
        let halted = Instant::now();
        let mut proofs_halted: Option<Instant> = None;
        while !run.in_flight.is_empty() {
            if proofs_halted.is_none()
                && (halted.elapsed() >= PROOF_GRACE
                    || (self.checkpoint.dag.root().is_solved()
                        && self.checkpoint.unproven.is_empty())
                    || options.hurry.load(Ordering::Relaxed))
            {
                transport.halt(true);
                proofs_halted = Some(Instant::now());
            }
            if proofs_halted.is_some_and(|at| at.elapsed() >= Duration::from_secs(60)) {
                return Err(CampaignError::Internal(
                    "a worker did not answer within a minute of the stop".into(),
                ));
            }
            if let Some(report) = transport.receive(Duration::from_millis(100)) {
                self.take(report, run)?;
            }
            // Parts finished in the grace are kept at once, not after it: a kill
            // during the grace then loses at most a batch.
            if self.batch.is_due() {
                self.commit()?;
            }
            self.tell_if_due(observer, run, clock);
        }
        Ok(())
    }

    /// Tells `observer` the figures, at most about twice a second.
    fn tell_if_due(&self, observer: &mut dyn FnMut(&Figures), run: &RunState, clock: &mut Clock) {
        if clock.last_report.elapsed() >= Duration::from_millis(500) {
            observer(&self.figures(run, clock.started, &clock.before));
            clock.last_report = Instant::now();
        }
    }

    /// Takes in a worker's report.
    fn take(&mut self, report: Report, run: &mut RunState) -> Result<(), CampaignError> {
        match report {
            Report::Progress { job, numbers } => {
                if let Some(&leaf) = run.in_flight.get(&job) {
                    // Partial numbers only steer: never take them for a result.
                    self.checkpoint.dag.set_numbers(leaf, open_numbers(numbers));
                }
                Ok(())
            }
            Report::Failed { job, error } => Err(CampaignError::Internal(format!(
                "job {job} failed: {error}"
            ))),
            Report::Done(done) => self.take_done(done, run),
        }
    }

    /// Takes in a finished job: its figures, and what it found of its leaf.
    fn take_done(&mut self, done: Done, run: &mut RunState) -> Result<(), CampaignError> {
        let Some(leaf) = run.in_flight.remove(&done.job) else {
            return Ok(());
        };
        let proving = run.proving.remove(&done.job);
        run.jobs += 1;
        run.nodes += done.nodes + done.proof_nodes;
        run.proof_nodes += done.proof_nodes;
        run.proven_hits += done.proven_hits;
        run.homes.insert(leaf, done.place);
        let dag = &mut self.checkpoint.dag;
        dag.nodes[leaf as usize].state = State::Leaf;
        let position = dag.nodes[leaf as usize].position;
        if !matches!(done.outcome, Outcome::Solved { .. })
            && self.settle_if_exported(leaf, &position)?
        {
            return Ok(());
        }
        let dag = &mut self.checkpoint.dag;
        match done.outcome {
            Outcome::Stopped => {}
            Outcome::Solved {
                wins,
                best,
                proof: part,
                given,
                exported,
            } => {
                let key = Key::of(&position);
                let proven = self.is_stored(&key, &position, wins, run)?
                    || match part {
                        Some(part) => {
                            run.given += given.len() as u64;
                            self.batch.push(key, wins, part, given, exported);
                            run.stored += 1;
                            true
                        }
                        None => {
                            // Proven again only if the root's proof needs it.
                            let unproven = &mut self.checkpoint.unproven;
                            if let Err(at) = unproven.binary_search(&leaf) {
                                unproven.insert(at, leaf);
                            }
                            run.deferred += 1;
                            false
                        }
                    };
                if proven {
                    // A checkpoint commits the batch first.
                    self.drop_unproven(leaf);
                }
                if leaf == 0 {
                    self.root_best = best;
                }
                let numbers = if wins { WON } else { LOST };
                let dag = &mut self.checkpoint.dag;
                if proving && dag.nodes[leaf as usize].wins() != Some(wins) {
                    // The unproven value was wrong: the proven one replaces it.
                    dag.set_leaves(&[(leaf, numbers)]);
                    run.reopened += 1;
                } else {
                    dag.set_numbers(leaf, numbers);
                }
            }
            Outcome::Open { numbers, children } => {
                if proving {
                    // Too hard for one job: its value is unknown again, and the
                    // DAG searches it as any other leaf.
                    self.drop_unproven(leaf);
                    let dag = &mut self.checkpoint.dag;
                    dag.set_leaves(&[(leaf, open_numbers(numbers))]);
                    run.reopened += 1;
                } else {
                    dag.set_numbers(leaf, open_numbers(numbers));
                }
                if let Some(children) = children {
                    self.take_children(leaf, children, done.place, run)?;
                }
            }
        }
        Ok(())
    }

    /// Takes `leaf` off the unproven leaves, if it is one.
    fn drop_unproven(&mut self, leaf: u32) {
        let unproven = &mut self.checkpoint.unproven;
        if let Ok(at) = unproven.binary_search(&leaf) {
            unproven.remove(at);
        }
    }

    /// Whether a position a job solved is stored already (counted as solved again
    /// unless another part exported it meanwhile); an error if the store says the
    /// other winner.
    fn is_stored(
        &self,
        key: &Key,
        position: &Position,
        wins: bool,
        run: &mut RunState,
    ) -> Result<bool, CampaignError> {
        let Some(stored) = self.stored(key)? else {
            return Ok(false);
        };
        // (A position exported by another part while this job ran is no position
        // handed out once stored.)
        if self.store.inner(key)?.is_none() {
            run.solved_again += 1;
        }
        if stored != wins {
            return Err(CampaignError::Internal(format!(
                "a job found {position} {} for the side to move, the store {}",
                if wins { "won" } else { "lost" },
                if stored { "won" } else { "lost" }
            )));
        }
        Ok(true)
    }

    /// Expands a leaf whose job ran out of budget, with the children's numbers it
    /// reported; their subtrees start in the table that searched their parent
    /// (`place`).
    fn take_children(
        &mut self,
        leaf: u32,
        children: Vec<(Step, Pn, Pn)>,
        place: u32,
        run: &mut RunState,
    ) -> Result<(), CampaignError> {
        let reported: HashMap<Step, (Pn, Pn)> = children
            .into_iter()
            .map(|(step, phi, delta)| (step, (phi, delta)))
            .collect();
        self.expand_leaf(leaf, &reported, run)?;
        for edge in &self.checkpoint.dag.nodes[leaf as usize].edges {
            if let Some(child) = edge.child {
                run.homes.entry(child).or_insert(place);
            }
        }
        Ok(())
    }

    /// Expands a leaf: each new child's numbers come from the store when it holds
    /// the child, else from `reported` (a job's view of the table), else `(1, 1)`.
    fn expand_leaf(
        &mut self,
        leaf: u32,
        reported: &HashMap<Step, (Pn, Pn)>,
        run: &mut RunState,
    ) -> Result<(), CampaignError> {
        let (store, batch) = (&self.store, &self.batch);
        let mut failure = None;
        let mut hits = 0;
        self.checkpoint.dag.expand(leaf, |child, step| {
            match stored(store, batch, &Key::of(child)) {
                Ok(Some(wins)) => {
                    hits += 1;
                    if wins {
                        WON
                    } else {
                        LOST
                    }
                }
                Ok(None) => {
                    let numbers = reported.get(&step).copied().unwrap_or((Pn::ONE, Pn::ONE));
                    // The table's word on a child is not a proof here: only the store's
                    // is. A proven child is searched again, briefly.
                    if numbers.0 == Pn::ZERO || numbers.1 == Pn::ZERO {
                        (Pn::ONE, Pn::ONE)
                    } else {
                        numbers
                    }
                }
                Err(err) => {
                    failure.get_or_insert(err);
                    (Pn::ONE, Pn::ONE)
                }
            }
        });
        run.store_hits += hits;
        failure.map_or(Ok(()), Err)
    }

    fn figures(&self, run: &RunState, started: Instant, before: &(f64, u64, u64)) -> Figures {
        let run_seconds = started.elapsed().as_secs_f64();
        let root = self.checkpoint.dag.root();
        Figures {
            seconds: before.0 + run_seconds,
            nodes: before.1 + run.nodes,
            jobs: before.2 + run.jobs,
            run_seconds,
            run_nodes: run.nodes,
            run_jobs: run.jobs,
            run_proof_nodes: run.proof_nodes,
            run_proven_hits: run.proven_hits,
            run_given: run.given,
            run_exported: self.exported,
            run_exported_leaves: self.exported_leaves,
            in_flight: run.in_flight.len(),
            stored: self.stored_base + run.stored + self.exported,
            store_hits: run.store_hits,
            solved_again: run.solved_again,
            run_queued: run.queued,
            run_reopened: run.reopened,
            run_deferred: run.deferred,
            unproven: self.checkpoint.unproven.len(),
            dag_nodes: self.checkpoint.dag.len(),
            root: (root.phi, root.delta),
        }
    }

    /// Whether the root has been solved before: its proof then takes the unproven
    /// leaves it needs as given, queued to be proven, and what is left to do is
    /// proving; deferring proofs (`--defer-proofs`) would only leave more of it.
    pub fn root_was_solved(&self) -> bool {
        self.checkpoint.history.iter().any(Sample::is_solved)
    }

    /// Notes the root's numbers, about once a second.
    fn sample(&mut self, run: &RunState, started: Instant, before: &(f64, u64, u64)) {
        let seconds = before.0 + started.elapsed().as_secs_f64();
        let history = &mut self.checkpoint.history;
        if history
            .last()
            .is_some_and(|last| seconds - last.seconds < 1.0)
            && !self.checkpoint.dag.root().is_solved()
        {
            return;
        }
        let root = self.checkpoint.dag.root();
        let nodes = before.1 + run.nodes;
        let still = |sample: &Sample| (sample.phi, sample.delta) == (root.phi, root.delta);
        let at = history.len().saturating_sub(2);
        if root.is_solved() && history.len() >= 2 && history[at..].iter().all(still) {
            // A solved root's numbers hold still while its givens are proven (hours
            // of samples): the first and the latest of them say it all.
            let last = history.last_mut().expect("two samples");
            (last.seconds, last.nodes) = (seconds, nodes);
        } else {
            history.push(Sample {
                seconds,
                nodes,
                phi: root.phi,
                delta: root.delta,
            });
        }
        // A long campaign keeps every other sample once there are many, and every
        // sample of a solved root (see `root_was_solved`) but those in the middle
        // of a stretch of the same numbers, which histories written before the
        // rule above still hold.
        if history.len() > 4000 {
            drop_still_solved(history);
        }
        thin(history, 4000, Sample::is_solved);
        // The root's solve is noted at once; after it, as before it, a sample every
        // PROGRESS_PERIOD. A sample at every call while the givens are proven
        // (thousands a run) would thin the course before the solve to nothing.
        let progress = &self.checkpoint.progress;
        let just_solved = root.is_solved() && !progress.last().is_some_and(Progress::root_solved);
        if just_solved
            || progress
                .last()
                .is_none_or(|last| seconds - last.seconds >= PROGRESS_PERIOD)
        {
            self.sample_progress(seconds, nodes, run);
        }
    }

    /// Notes what the DAG has settled: the first moves, the share of each depth.
    fn sample_progress(&mut self, seconds: f64, nodes: u64, run: &RunState) {
        let dag = &self.checkpoint.dag;
        let first = dag.first_moves();
        let count = |wins: bool| first.iter().filter(|&&w| w == Some(wins)).count() as u8;
        let mut depths = dag.depth_counts();
        depths.truncate(PROGRESS_DEPTHS);
        let progress = Progress {
            seconds,
            nodes,
            stored: self.stored_base + run.stored + self.exported,
            first_won: count(true),
            first_lost: count(false),
            depths,
        };
        self.checkpoint.progress.push(progress);
        thin(&mut self.checkpoint.progress, 2000, |_| false);
    }

    fn update_run(&mut self, run: &RunState, started: Instant, end: RunEnd) {
        if let Some(record) = self.checkpoint.runs.last_mut() {
            record.seconds = started.elapsed().as_secs_f64();
            record.nodes = run.nodes;
            record.jobs = run.jobs;
            record.end = end;
        }
    }

    /// Whether the side to move wins a solved position, stored or waiting to be.
    fn stored(&self, key: &Key) -> Result<Option<bool>, CampaignError> {
        stored(&self.store, &self.batch, key)
    }

    /// Commits the solved positions waiting, which become news for the workers; a
    /// leaf of the DAG that a part proved on the way is settled.
    fn commit(&mut self) -> Result<(), CampaignError> {
        let committed = self.store.commit(&self.dir, &mut self.batch)?;
        self.news.extend(committed.solved);
        self.exported += committed.exported.len() as u64;
        let dag = &mut self.checkpoint.dag;
        for (position, wins) in committed.exported {
            if let Some(id) = dag.find(&position) {
                // A leaf in flight is settled when its job reports; a part's own
                // root is settled already.
                if dag.nodes[id as usize].state == State::Leaf
                    && !dag.nodes[id as usize].is_solved()
                {
                    dag.set_numbers(id, if wins { WON } else { LOST });
                    self.exported_leaves += 1;
                }
            }
        }
        Ok(())
    }

    /// Settles a leaf whose job ended open when another part exported its position
    /// while the job ran (searched again, it would be proven again); whether it was.
    fn settle_if_exported(
        &mut self,
        leaf: u32,
        position: &Position,
    ) -> Result<bool, CampaignError> {
        let Some(wins) = self.stored(&Key::of(position))? else {
            return Ok(false);
        };
        self.checkpoint
            .dag
            .set_numbers(leaf, if wins { WON } else { LOST });
        self.exported_leaves += 1;
        Ok(true)
    }

    fn write_checkpoint(&mut self, run: &RunState) -> Result<(), CampaignError> {
        // The checkpoint's solved leaves are in the store first.
        self.commit()?;
        self.checkpoint.stored = self.store.len()?;
        self.checkpoint.in_flight = run.in_flight.len() as u32;
        self.checkpoint.write(&self.dir)
    }

    /// The solved campaign's answer, and its certificate written.
    fn settle(&mut self) -> Result<Settled, CampaignError> {
        let dag = &self.checkpoint.dag;
        let root = dag.root();
        let wins = root
            .wins()
            .ok_or_else(|| CampaignError::Internal("settling an unsolved root".into()))?;
        let mover = self.root.to_move();
        let winner = if wins { mover } else { mover.opponent() };
        let unproven = &self.checkpoint.unproven;
        let written = write_certificate(&self.dir, &self.root, winner, dag, unproven, &self.store)?;
        let root_moves: Vec<(Step, Option<bool>)> = self
            .root
            .steps()
            .into_iter()
            .map(|step| {
                let next = self.root.play_step(step);
                let outcome = match next.winner() {
                    Some(side) => Some(side == mover),
                    None if !wins => Some(false),
                    None => dag
                        .find(&next)
                        .and_then(|child| dag.nodes[child as usize].wins())
                        .map(|child_wins| !child_wins),
                };
                (step, outcome)
            })
            .collect();
        let best_move = if !wins {
            None
        } else {
            root_moves
                .iter()
                .find(|(_, outcome)| *outcome == Some(true))
                .map(|&(step, _)| step)
                .or(self.root_best)
        };
        Ok(Settled {
            winner,
            best_move,
            root_moves,
            top_positions: written.top_positions,
            parts: written.parts,
            certificate_bytes: written.bytes,
        })
    }
}

/// How long a stop waits for the jobs writing their parts (their positions settled)
/// before it ends them too.
pub const PROOF_GRACE: Duration = Duration::from_secs(30);

/// A job that proves a leaf of known value (see [`Campaign::root_proven`]) may
/// search this many times a job's nodes.
const PROVING_BUDGET: u64 = 50;

/// Keeps every other sample of `samples` that `keep` does not protect, once those
/// number more than `most`. Counting only the unprotected ones matters: many
/// protected samples would otherwise halve the rest again at every call, until
/// only the first of them is left.
fn thin<T>(samples: &mut Vec<T>, most: usize, keep: impl Fn(&T) -> bool) {
    // The length first: the count is a pass over every sample, and the master
    // calls this at each of its turns.
    if samples.len() > most && samples.iter().filter(|sample| !keep(sample)).count() > most {
        let mut open = 0;
        samples.retain(|sample| {
            if keep(sample) {
                return true;
            }
            open += 1;
            open % 2 == 1
        });
    }
}

/// Drops the solved root's samples whose neighbours both have its numbers.
fn drop_still_solved(history: &mut Vec<Sample>) {
    let same = |a: &Sample, b: &Sample| (a.phi, a.delta) == (b.phi, b.delta);
    let keep: Vec<bool> = (0..history.len())
        .map(|i| {
            let sample = &history[i];
            let inside = i > 0
                && i + 1 < history.len()
                && same(&history[i - 1], sample)
                && same(sample, &history[i + 1]);
            !(sample.is_solved() && inside)
        })
        .collect();
    let mut keep = keep.into_iter();
    history.retain(|_| keep.next().unwrap_or(true));
}

/// A job's numbers for an open position: never a zero, which would read as solved.
fn open_numbers((phi, delta): (Pn, Pn)) -> (Pn, Pn) {
    (phi.max(Pn::ONE), delta.max(Pn::ONE))
}

/// What the master keeps of the run in progress.
#[derive(Default)]
struct RunState {
    /// Job id -> its leaf.
    in_flight: HashMap<u64, u32>,
    /// DAG node -> the worker whose table last searched it or its parent.
    homes: HashMap<u32, u32>,
    jobs: u64,
    nodes: u64,
    proof_nodes: u64,
    proven_hits: u64,
    given: u64,
    stored: u64,
    /// Unproven leaves the root's proof takes as given, queued to be proven by
    /// jobs of their own (see [`Campaign::root_proven`]): those left to hand out
    /// (taken from the end), the jobs in flight on them, how many were queued, and
    /// those whose jobs found the other winner or came back open.
    to_prove: Vec<u32>,
    proving: HashSet<u64>,
    queued: u64,
    reopened: u64,
    /// The node budget of a job on a queued leaf.
    proving_nodes: u64,
    /// Leaves settled by jobs that wrote no proof, and whether the jobs handed
    /// out now are to write none (see [`RunOptions::defer_proofs`]).
    deferred: u64,
    defer: bool,
    store_hits: u64,
    solved_again: u64,
    /// The id of the next job handed out.
    next_job: u64,
}

/// The run's times: its start, the totals of the runs before it, and the last
/// checkpoint and report to the observer.
struct Clock {
    started: Instant,
    before: (f64, u64, u64),
    last_checkpoint: Instant,
    last_report: Instant,
}

/// Whether the side to move wins a solved position, in `store` or waiting in `batch`.
fn stored(store: &Store, batch: &Batch, key: &Key) -> Result<Option<bool>, CampaignError> {
    match batch.get(key) {
        Some(wins) => Ok(Some(wins)),
        None => store.get(key),
    }
}

/// The spec of the campaign in `dir`, `None` when there is none yet; a path that is
/// no directory, or a directory that holds files but no spec, is refused.
fn existing_spec(dir: &Path) -> Result<Option<Spec>, CampaignError> {
    if !dir.exists() {
        return Ok(None);
    }
    if !dir.is_dir() {
        return Err(CampaignError::refused(dir, "not a directory"));
    }
    let spec = Spec::read(dir)?;
    // Temporary files of an interrupted first start do not count.
    let has_files = std::fs::read_dir(dir)
        .map_err(CampaignError::io(dir))?
        .filter_map(Result::ok)
        .any(|entry| !entry.file_name().to_string_lossy().ends_with(".tmp"));
    if spec.is_none() && has_files {
        return Err(CampaignError::refused(
            dir,
            format!(
                "holds files but no {SPEC_FILE}: not a campaign; use an empty or new directory"
            ),
        ));
    }
    Ok(spec)
}

/// The checkpoint in `dir`, if any; one whose root is not `root` is damaged.
pub(crate) fn read_checkpoint(
    dir: &Path,
    root: &Position,
) -> Result<Option<Checkpoint>, CampaignError> {
    let checkpoint = Checkpoint::read(dir, root.board())?;
    if let Some(checkpoint) = &checkpoint {
        let have = checkpoint.dag.root().position;
        if Key::of(&have) != Key::of(root) {
            return Err(CampaignError::damaged(
                &dir.join(crate::checkpoint::CHECKPOINT_FILE),
                format!("its root is {have}, the campaign's is {root}"),
            ));
        }
    }
    Ok(checkpoint)
}

/// Settles the leaves of the checkpoint's DAG that `store` holds, and recomputes
/// the rest from the leaves; the leaves it settled that the checkpoint had open.
pub(crate) fn settle_from_store(
    checkpoint: &mut Checkpoint,
    store: &Store,
) -> Result<u64, CampaignError> {
    // What the checkpoint says is solved must be in the store (a leaf's proof is
    // its part, or the part that exported it) or unproven (kept by a restore); the
    // rest is recomputed from the leaves.
    let Checkpoint { dag, unproven, .. } = checkpoint;
    dag.release_all();
    let mut loaded_from_store = 0;
    let mut proven_since = Vec::new();
    for id in 0..dag.len() {
        let node = &dag.nodes[id];
        if node.state == State::Leaf {
            let stored = store.get(&Key::of(&node.position))?;
            let is_unproven = unproven.binary_search(&(id as u32)).is_ok();
            let numbers = match stored {
                Some(true) => WON,
                Some(false) => LOST,
                None if is_unproven => continue,
                None if node.is_solved() => (Pn::ONE, Pn::ONE),
                None => continue,
            };
            if is_unproven {
                proven_since.push(id as u32);
            }
            loaded_from_store += u64::from(!node.is_solved());
            let node = &mut dag.nodes[id];
            (node.phi, node.delta) = numbers;
        }
    }
    unproven.retain(|id| proven_since.binary_search(id).is_err());
    dag.recompute_all();
    Ok(loaded_from_store)
}

#[cfg(test)]
mod tests;
