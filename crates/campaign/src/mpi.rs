//! Worker processes over MPI (the `mpi` feature): under `mpirun -n N`, rank 0 is the
//! master (the DAG, the store, the checkpoints and the certificate's parts, as in a
//! local run) and every other rank is a worker with its own threads and its own
//! table, kept between jobs ([`serve`]). The master's [`MpiMaster`] is a
//! [`Transport`]: a job goes to the rank that last searched its subtree when that
//! rank has a free thread. Every rank is told the positions committed to the store
//! (news, in messages of at most [`NEWS_PER_MESSAGE`]: up to
//! [`NEWS_MESSAGES_BEFORE_JOB`] of them right before each of its jobs, the rest
//! while the master waits for reports), which it puts in its table as settled and
//! lets its jobs' proofs take as proven ([`Transport::committed`]). A worker sends
//! back its proofs as the parts' bytes; only rank 0 writes to the campaign's
//! directory.
//!
//! Faults: MPI ends the whole job when a rank dies. The master writes its
//! checkpoint as soon as a run stops (before it waits for the jobs in flight), so
//! the SIGTERM that `mpirun` sends on a rank's death leaves a fresh one; the same
//! command then continues, with any number of ranks or without MPI.

use std::time::{Duration, Instant};

use breakthrough_solver::{Key, Pn, SavedEntry, Table};
use hashbrown::HashMap;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::Process;
use mpi::Threading;

use crate::error::CampaignError;
use crate::transport::{Local, Report, Transport, WorkerSettings};
use crate::wire::{ToMaster, ToWorker};

/// Every message goes on this tag; MPI keeps the order between two ranks.
const TAG: i32 = 11;

/// Table work recorded for a position solved elsewhere: high, so that it stays.
const SETTLED_WORK: u64 = 1 << 24;

/// At most this many solved positions go in one message of news (about 20 bytes
/// each; a rank behind by more gets several messages before its job). It keeps
/// every message from the master small enough for MPI to send at once (eagerly,
/// buffered at the receiver): the master never waits in a send for a worker that
/// is itself blocked sending it a large report. News goes in messages of its own,
/// not with the jobs: with exports, a campaign stores hundreds of positions a
/// second, more than the jobs could carry.
pub const NEWS_PER_MESSAGE: usize = 100;

/// At most this many messages of news go right before a job; a rank further behind
/// gets the rest while the master waits for reports, a message per rank at a time.
/// (A new run's first jobs would otherwise each be preceded by the whole store,
/// thousands of messages in a row, which some fabrics would stop accepting while
/// that rank is itself sending the master a report.)
pub const NEWS_MESSAGES_BEFORE_JOB: usize = 10;

pub use mpi::environment::Universe;
pub use mpi::topology::{Communicator, SimpleCommunicator};

/// Starts MPI for this process (only the calling thread will use it).
pub fn initialize() -> Result<Universe, CampaignError> {
    match mpi::initialize_with_threading(Threading::Funneled) {
        Some((universe, _)) => Ok(universe),
        None => Err(CampaignError::Internal("MPI was started already".into())),
    }
}

/// Messages and bytes each way, for the master's throughput figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Traffic {
    pub sent: u64,
    pub sent_bytes: u64,
    /// Solved positions told to the worker ranks, all ranks counted.
    pub news: u64,
    pub received: u64,
    pub received_bytes: u64,
}

#[derive(Debug)]
struct Rank {
    threads: usize,
    table_mb: u64,
    busy: usize,
    /// How many of the master's solved positions this rank has been sent.
    told: usize,
}

/// The master's end: a [`Transport`] to the worker ranks.
pub struct MpiMaster<'w> {
    world: &'w SimpleCommunicator,
    /// Index: rank (rank 0, the master, runs no jobs).
    ranks: Vec<Rank>,
    /// Job id -> the rank running it.
    jobs: HashMap<u64, usize>,
    /// Positions committed to the store, in order, for every rank (see [`Rank`]'s
    /// `told`).
    solved: Vec<(Key, bool)>,
    pub traffic: Traffic,
    quit: bool,
}

impl std::fmt::Debug for MpiMaster<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MpiMaster({} worker ranks)", self.ranks.len() - 1)
    }
}

fn wire_error(err: crate::wire::WireError) -> CampaignError {
    CampaignError::Internal(format!("MPI: {err}"))
}

impl<'w> MpiMaster<'w> {
    /// Waits for every worker rank's hello. Fails when there is no worker rank.
    /// Dropped before [`MpiMaster::begin`], it tells the workers to end.
    pub fn connect(world: &'w SimpleCommunicator) -> Result<MpiMaster<'w>, CampaignError> {
        let mut master = MpiMaster {
            world,
            ranks: vec![Rank {
                threads: 0,
                table_mb: 0,
                busy: 0,
                told: 0,
            }],
            jobs: HashMap::new(),
            solved: Vec::new(),
            traffic: Traffic::default(),
            quit: false,
        };
        if world.size() < 2 {
            return Err(CampaignError::Internal(
                "MPI: no worker rank; run at least 2 ranks (mpirun -n 2 or more)".into(),
            ));
        }
        for rank in 1..world.size() {
            let (bytes, _) = world.process_at_rank(rank).receive_vec_with_tag::<u8>(TAG);
            master.count_in(&bytes);
            match ToMaster::decode(&bytes).map_err(wire_error)? {
                ToMaster::Hello { threads, table_mb } => master.ranks.push(Rank {
                    threads: threads.max(1) as usize,
                    table_mb,
                    busy: 0,
                    told: 0,
                }),
                other => {
                    return Err(CampaignError::Internal(format!(
                        "MPI: rank {rank} sent {other:?} before its hello"
                    )))
                }
            }
        }
        Ok(master)
    }

    /// Sends every worker rank the run's settings: jobs may follow.
    pub fn begin(&mut self, settings: &WorkerSettings) {
        let start = ToWorker::Start(settings.clone()).encode();
        for rank in 1..self.ranks.len() {
            self.send_to(rank, &start);
        }
    }

    /// Worker ranks, their threads and their tables' MiB, all told.
    pub fn size(&self) -> (usize, usize, u64) {
        let workers = &self.ranks[1..];
        (
            workers.len(),
            workers.iter().map(|r| r.threads).sum(),
            workers.iter().map(|r| r.table_mb).sum(),
        )
    }

    /// Tells every worker rank to end (also done when the master is dropped).
    pub fn quit(&mut self) {
        if !self.quit {
            self.quit = true;
            let quit = ToWorker::Quit.encode();
            for rank in 1..self.ranks.len() {
                self.send_to(rank, &quit);
            }
        }
    }

    fn send_to(&mut self, rank: usize, bytes: &[u8]) {
        self.traffic.sent += 1;
        self.traffic.sent_bytes += bytes.len() as u64;
        self.world
            .process_at_rank(rank as i32)
            .send_with_tag(bytes, TAG);
    }

    /// Sends `rank` up to `messages` messages of the news it has not had yet;
    /// whether there was any.
    fn send_news(&mut self, rank: usize, messages: usize) -> bool {
        let told = self.ranks[rank].told;
        let end = (told + messages * NEWS_PER_MESSAGE).min(self.solved.len());
        for start in (told..end).step_by(NEWS_PER_MESSAGE) {
            let solved = self.solved[start..(start + NEWS_PER_MESSAGE).min(end)].to_vec();
            self.send_to(rank, &ToWorker::News { solved }.encode());
        }
        self.traffic.news += (end - told) as u64;
        self.ranks[rank].told = end;
        end > told
    }

    fn count_in(&mut self, bytes: &[u8]) {
        self.traffic.received += 1;
        self.traffic.received_bytes += bytes.len() as u64;
    }

    /// The rank for a job: its home when that has a free thread, else the one with
    /// the most free threads.
    fn rank_for(&self, home: Option<u32>) -> usize {
        let free = |rank: usize| {
            self.ranks[rank]
                .threads
                .saturating_sub(self.ranks[rank].busy)
        };
        if let Some(home) = home.map(|h| h as usize) {
            if home >= 1 && home < self.ranks.len() && free(home) > 0 {
                return home;
            }
        }
        (1..self.ranks.len())
            .max_by_key(|&rank| (free(rank), std::cmp::Reverse(self.ranks[rank].busy)))
            .unwrap_or(1)
    }

    /// Notes a report: the rank is free again.
    fn note(&mut self, report: &Report) {
        let job = match report {
            Report::Done(done) => done.job,
            Report::Failed { job, .. } => *job,
            Report::Progress { .. } => return,
        };
        if let Some(rank) = self.jobs.remove(&job) {
            self.ranks[rank].busy = self.ranks[rank].busy.saturating_sub(1);
        }
    }
}

impl Drop for MpiMaster<'_> {
    fn drop(&mut self) {
        self.quit();
    }
}

impl Transport for MpiMaster<'_> {
    fn workers(&self) -> usize {
        self.ranks.iter().map(|r| r.threads).sum()
    }

    fn send(&mut self, job: crate::transport::Job) {
        let rank = self.rank_for(job.home);
        // The news first: MPI keeps the order of two ranks' messages.
        self.send_news(rank, NEWS_MESSAGES_BEFORE_JOB);
        self.ranks[rank].busy += 1;
        self.jobs.insert(job.id, rank);
        let bytes = ToWorker::Job { job }.encode();
        self.send_to(rank, &bytes);
    }

    fn receive(&mut self, timeout: Duration) -> Option<Report> {
        let deadline = Instant::now() + timeout;
        // Polls, at first often (a reply is often on its way), then less, to leave
        // the core to workers that share the machine.
        let mut pause = Duration::from_micros(20);
        loop {
            if let Some(probed) = self
                .world
                .any_process()
                .immediate_matched_probe_with_tag(TAG)
            {
                let (bytes, status) = probed.matched_receive_vec::<u8>();
                self.count_in(&bytes);
                let report = match ToMaster::decode(&bytes) {
                    Ok(ToMaster::Report(report)) => report,
                    Ok(ToMaster::Hello { .. }) => Report::Failed {
                        job: u64::MAX,
                        error: format!("MPI: rank {} said hello twice", status.source_rank()),
                    },
                    Err(err) => Report::Failed {
                        job: u64::MAX,
                        error: format!("MPI: from rank {}: {err}", status.source_rank()),
                    },
                };
                self.note(&report);
                return Some(report);
            }
            if Instant::now() >= deadline {
                return None;
            }
            // The time between reports tells the ranks that are behind their news.
            let mut told = false;
            for rank in 1..self.ranks.len() {
                told |= self.send_news(rank, 1);
            }
            if !told {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(1));
            }
        }
    }

    fn halt(&mut self, proofs: bool) {
        let halt = ToWorker::Halt { proofs }.encode();
        for rank in 1..self.ranks.len() {
            self.send_to(rank, &halt);
        }
    }

    /// News for every rank, sent before its next job.
    fn committed(&mut self, solved: &[(Key, bool)]) {
        self.solved.extend_from_slice(solved);
    }
}

/// A worker rank's life: hello, the settings, then jobs until the master says quit.
/// Runs `threads` jobs at once over one table of `table_mb` MiB, kept between jobs.
pub fn serve(
    world: &SimpleCommunicator,
    threads: usize,
    table_mb: usize,
) -> Result<(), CampaignError> {
    let master = world.process_at_rank(0);
    let place = world.rank() as u32;
    let Some(settings) = settings_from_master(&master, threads, table_mb)? else {
        // The master could not start the run (it says why).
        return Ok(());
    };
    let table = Table::for_board(settings.board, table_mb);
    std::thread::scope(|scope| {
        let mut local = Local::start(scope, threads, &table, &settings);
        let mut news = News::default();
        let result = loop {
            news.take_in(&mut local, &table, false);
            if take_messages(&master, &mut local, &table, &mut news, place) {
                break Ok(());
            }
            // Short: a job that comes in meanwhile waits this long.
            if let Some(mut report) = local.receive(Duration::from_micros(200)) {
                if let Report::Done(done) = &mut report {
                    done.place = place;
                }
                master.send_with_tag(&ToMaster::Report(report).encode()[..], TAG);
            }
        };
        local.halt(true);
        local.close();
        result
    })
}

/// Says hello to the master and waits for the run's settings; `None` when the
/// master quits instead.
fn settings_from_master(
    master: &Process<'_>,
    threads: usize,
    table_mb: usize,
) -> Result<Option<WorkerSettings>, CampaignError> {
    let hello = ToMaster::Hello {
        threads: threads as u32,
        table_mb: table_mb as u64,
    };
    master.send_with_tag(&hello.encode()[..], TAG);
    let (bytes, _) = master.receive_vec_with_tag::<u8>(TAG);
    match ToWorker::decode(&bytes).map_err(wire_error)? {
        // A rank's jobs run on one thread each: the master counts a rank's threads
        // as its jobs at once.
        ToWorker::Start(settings) => Ok(Some(WorkerSettings {
            team: 1,
            ..settings
        })),
        ToWorker::Quit => Ok(None),
        other => Err(CampaignError::Internal(format!(
            "MPI: the master sent {other:?} before the settings"
        ))),
    }
}

/// Takes in the master's messages waiting now; whether to quit (told to, or a
/// message that could not be read, which the master is told of).
fn take_messages(
    master: &Process<'_>,
    local: &mut Local,
    table: &Table,
    news: &mut News,
    place: u32,
) -> bool {
    while let Some(probed) = master.immediate_matched_probe_with_tag(TAG) {
        let (bytes, _) = probed.matched_receive_vec::<u8>();
        match ToWorker::decode(&bytes).map_err(wire_error) {
            Ok(ToWorker::News { solved }) => news.pending.extend(solved),
            Ok(ToWorker::Job { job }) => {
                news.take_in(local, table, true);
                local.send(job);
            }
            Ok(ToWorker::Halt { proofs }) => local.halt(proofs),
            Ok(ToWorker::Quit) => return true,
            Ok(ToWorker::Start(_)) => {}
            Err(err) => {
                local.halt(true);
                let report = Report::Failed {
                    job: u64::MAX,
                    error: format!("rank {place}: {err}"),
                };
                master.send_with_tag(&ToMaster::Report(report).encode()[..], TAG);
                return true;
            }
        }
    }
    false
}

/// News of committed positions, taken in batches at most once a second: first
/// published to the jobs, then put in the table as settled, so that a proof never
/// meets a settled position it may not refer to.
#[derive(Default)]
struct News {
    pending: Vec<(Key, bool)>,
    taken_in: Option<Instant>,
}

impl News {
    /// Takes in the news pending, unless there is none or (not `now`) the last
    /// was taken in under a second ago. (A job takes in all the news before it, at
    /// once.)
    fn take_in(&mut self, local: &mut Local, table: &Table, now: bool) {
        if self.pending.is_empty()
            || !now
                && self
                    .taken_in
                    .is_some_and(|at| at.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        local.publish(&self.pending);
        let entries: Vec<SavedEntry> = self
            .pending
            .drain(..)
            .map(|(key, wins)| SavedEntry {
                key,
                phi: if wins { Pn::ZERO } else { Pn::INF },
                delta: if wins { Pn::INF } else { Pn::ZERO },
                work: SETTLED_WORK as u32,
            })
            .collect();
        table.restore(&entries);
        self.taken_in = Some(Instant::now());
    }
}
