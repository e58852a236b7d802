//! The solver pool: a fixed number of threads that solve positions one at a time
//! each, fed by a bounded queue. A position asked for while it (or its mirror
//! image) is queued or being solved joins that solve instead of starting another,
//! and a request waits for a solve only as long as its own budget: the solve goes
//! on in the background up to its own limit, and its answers land in the store.
//!
//! The threads are shared fairly: a free thread takes the newest position that a
//! request still waits for (else the newest), and while positions wait for a
//! thread, a solve that has run its slice gives its thread up (first one that no
//! request waits for any more). A position whose solve gave up, at its slice or at
//! its limit, is remembered as hard and not queued again for a while, so that the
//! same hard positions cannot hold the threads again and again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use breakthrough_engine::Position;
use breakthrough_solver::{solve, Key, Limits, Solution, SolveOptions};
use tokio::sync::watch;

use crate::store::{Known, Store};

/// How a solve of the pool ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Solved, and its answers are in the store.
    Stored,
    /// Its limit stopped it, or it gave its thread up to newer requests: the
    /// position is remembered as hard.
    GivenUp,
    /// A newer position took its place in a full queue before a thread took it.
    Dropped,
    /// The server's shutdown stopped it, or the store refused its answers: nothing
    /// was stored.
    Unsettled,
}

/// A request's place in the pool.
#[derive(Debug)]
pub enum Queued {
    /// The position is (or joins) a solve; the receiver sees how it ended.
    Solving(watch::Receiver<Option<Ended>>),
    /// The server is stopping: nothing is solved for this request.
    Busy,
    /// A solve of the position gave up lately; it is not tried again for this long.
    Hard(Duration),
}

/// The settings of the pool's solves.
#[derive(Clone, Debug)]
pub struct PoolSettings {
    /// Solver threads (each solves one position at a time).
    pub threads: usize,
    /// Positions waiting for a thread, at most.
    pub queue: usize,
    /// Each solve's transposition table, in MiB.
    pub table_mb: usize,
    /// How long one solve may run in all, in the background included.
    pub solve_limit: Duration,
    /// How long a solve runs before it gives its thread up to positions waiting for
    /// one.
    pub slice: Duration,
    /// How long a position whose solve gave up is not queued again.
    pub retry_after: Duration,
}

/// The most positions remembered as hard; the oldest are forgotten first.
const MAX_HARD: usize = 4096;

/// How often the referee looks for a solve to stop in favour of waiting positions.
const REFEREE_PERIOD: Duration = Duration::from_millis(50);

/// A position's identity in the pool: its board (positions of different boards can
/// have equal armies) and its key (shared with its mirror image).
type JobKey = (u32, Key);

struct Job {
    position: Position,
    key: JobKey,
    ended: watch::Sender<Option<Ended>>,
}

struct Running {
    key: JobKey,
    ended: watch::Sender<Option<Ended>>,
    started: Instant,
    stop: Arc<AtomicBool>,
    /// Stopped to give its thread up.
    yielded: bool,
}

#[derive(Default)]
struct State {
    /// Positions waiting for a thread, oldest first.
    queue: Vec<Job>,
    running: Vec<Running>,
    /// Threads waiting for a position.
    idle: usize,
    /// Positions given up, with when they may be queued again.
    hard: HashMap<JobKey, Instant>,
    stopping: bool,
}

impl State {
    fn waiting(&self, key: JobKey) -> Option<&watch::Sender<Option<Ended>>> {
        let queued = self
            .queue
            .iter()
            .find(|job| job.key == key)
            .map(|j| &j.ended);
        queued.or_else(|| self.running.iter().find(|r| r.key == key).map(|r| &r.ended))
    }

    fn hard_for(&mut self, key: JobKey, now: Instant) -> Option<Duration> {
        let until = *self.hard.get(&key)?;
        if until <= now {
            self.hard.remove(&key);
            return None;
        }
        Some(until - now)
    }

    fn remember_hard(&mut self, key: JobKey, until: Instant) {
        if self.hard.len() >= MAX_HARD {
            let now = Instant::now();
            self.hard.retain(|_, until| *until > now);
        }
        while self.hard.len() >= MAX_HARD {
            let Some(oldest) = self.hard.iter().min_by_key(|(_, until)| **until) else {
                break;
            };
            let oldest = *oldest.0;
            self.hard.remove(&oldest);
        }
        self.hard.insert(key, until);
    }

    /// The job a free thread takes: the newest that a request waits for, else the
    /// newest.
    fn next_job(&mut self) -> Option<Job> {
        let index = self
            .queue
            .iter()
            .rposition(|job| job.ended.receiver_count() > 0)
            .or_else(|| self.queue.len().checked_sub(1))?;
        Some(self.queue.remove(index))
    }

    /// Stops one solve that has run its slice, when positions wait for a thread:
    /// one that no request waits for first, the longest running first. A solve
    /// that a request waits for gives way only to positions that requests wait for.
    fn referee(&mut self, slice: Duration) {
        if self.idle > 0 || self.queue.is_empty() {
            return;
        }
        let wanted = self.queue.iter().any(|job| job.ended.receiver_count() > 0);
        let now = Instant::now();
        let chosen = self
            .running
            .iter_mut()
            .filter(|r| !r.yielded && now - r.started >= slice)
            .filter(|r| wanted || r.ended.receiver_count() == 0)
            .max_by_key(|r| (r.ended.receiver_count() == 0, now - r.started));
        if let Some(running) = chosen {
            running.yielded = true;
            running.stop.store(true, Ordering::Relaxed);
        }
    }
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the threads waiting for a position.
    work: Condvar,
    settings: PoolSettings,
    store: Arc<Store>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data here (lists, maps).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The running pool.
pub struct Pool {
    shared: Arc<Shared>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").finish_non_exhaustive()
    }
}

impl Pool {
    /// Starts the pool's threads.
    pub fn start(settings: PoolSettings, store: Arc<Store>) -> std::io::Result<Pool> {
        let shared = Arc::new(Shared {
            state: Mutex::default(),
            work: Condvar::new(),
            settings,
            store,
        });
        let mut threads = (0..shared.settings.threads.max(1))
            .map(|index| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("solver-{index}"))
                    .spawn(move || work(&shared))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        let referee = Arc::clone(&shared);
        threads.push(
            std::thread::Builder::new()
                .name("referee".into())
                .spawn(move || loop {
                    std::thread::sleep(REFEREE_PERIOD);
                    let mut state = referee.lock();
                    if state.stopping {
                        return;
                    }
                    state.referee(referee.settings.slice);
                })?,
        );
        Ok(Pool {
            shared,
            threads: Mutex::new(threads),
        })
    }

    /// Queues a solve of `position` unless it (or its mirror image) is queued or
    /// being solved already, or was given up lately. A full queue makes room by
    /// dropping its oldest position that no request waits for any more, else its
    /// oldest: a new request is never refused for old ones.
    pub fn request(&self, position: &Position) -> Queued {
        let key = job_key(position);
        let mut state = self.shared.lock();
        if state.stopping {
            return Queued::Busy;
        }
        if let Some(ended) = state.waiting(key) {
            return Queued::Solving(ended.subscribe());
        }
        if let Some(left) = state.hard_for(key, Instant::now()) {
            return Queued::Hard(left);
        }
        if state.queue.len() >= self.shared.settings.queue.max(1) {
            let index = state
                .queue
                .iter()
                .position(|job| job.ended.receiver_count() == 0)
                .unwrap_or(0);
            let dropped = state.queue.remove(index);
            dropped.ended.send_replace(Some(Ended::Dropped));
        }
        let (ended, receiver) = watch::channel(None);
        state.queue.push(Job {
            position: *position,
            key,
            ended,
        });
        self.shared.work.notify_one();
        Queued::Solving(receiver)
    }

    /// Whether `position` (or its mirror image) is queued or being solved.
    pub fn is_solving(&self, position: &Position) -> bool {
        self.shared.lock().waiting(job_key(position)).is_some()
    }

    /// How long `position` (or its mirror image) stays remembered as hard.
    pub fn hard_for(&self, position: &Position) -> Option<Duration> {
        self.shared
            .lock()
            .hard_for(job_key(position), Instant::now())
    }

    /// Stops every solve, without waiting: queued positions are dropped, and
    /// everyone waiting for a solve hears that it ended unsettled.
    pub fn stop(&self) {
        let mut state = self.shared.lock();
        state.stopping = true;
        for job in state.queue.drain(..) {
            job.ended.send_replace(Some(Ended::Unsettled));
        }
        for running in &state.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.shared.work.notify_all();
    }

    /// Stops every solve and waits for the threads to end.
    pub fn shutdown(&self) {
        self.stop();
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for thread in threads {
            let _ = thread.join();
        }
    }
}

fn job_key(position: &Position) -> JobKey {
    let board = position.board();
    (board.width() << 8 | board.height(), Key::of(position))
}

/// A solver thread: takes positions until the pool stops.
fn work(shared: &Shared) {
    loop {
        let (position, key, stop) = {
            let mut state = shared.lock();
            loop {
                if state.stopping {
                    return;
                }
                if let Some(job) = state.next_job() {
                    let stop = Arc::new(AtomicBool::new(false));
                    state.running.push(Running {
                        key: job.key,
                        ended: job.ended,
                        started: Instant::now(),
                        stop: Arc::clone(&stop),
                        yielded: false,
                    });
                    break (job.position, job.key, stop);
                }
                state.idle += 1;
                state = shared.work.wait(state).unwrap_or_else(|e| e.into_inner());
                state.idle -= 1;
            }
        };
        let solved = solve_one(shared, &position, stop);
        let mut state = shared.lock();
        let ended = match solved {
            Some(ended) => ended,
            None if state.stopping => Ended::Unsettled,
            None => {
                let until = Instant::now() + shared.settings.retry_after;
                state.remember_hard(key, until);
                Ended::GivenUp
            }
        };
        if let Some(index) = state.running.iter().position(|r| r.key == key) {
            let running = state.running.swap_remove(index);
            running.ended.send_replace(Some(ended));
        }
    }
}

/// Solves `position` and stores its answers: `None` when `stop` or the limit
/// ended the solve first.
fn solve_one(shared: &Shared, position: &Position, stop: Arc<AtomicBool>) -> Option<Ended> {
    let options = SolveOptions {
        table_mb: shared.settings.table_mb,
        threads: 1,
        length: true,
        all_moves: true,
        limits: Limits {
            time_limit: Some(shared.settings.solve_limit),
            stop: Some(stop),
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    let solution = solve(position, &options, &mut |_| {});
    let answers = answers_of(&solution);
    if answers.is_empty() {
        return None;
    }
    Some(match shared.store.put_all(&answers) {
        Ok(()) => Ended::Stored,
        Err(err) => {
            eprintln!("breakthrough serve: {err}");
            Ended::Unsettled
        }
    })
}

/// What a finished solve with `length` and `all_moves` proves: the position's
/// winner and length, and those of the position after each move. Nothing when a
/// limit stopped it before the lengths were all known.
pub fn answers_of(solution: &Solution) -> Vec<(Position, Known)> {
    let (Some(winner), Some(length), None) = (solution.winner, &solution.length, solution.stopped)
    else {
        return Vec::new();
    };
    let position = solution.position;
    let mover = position.to_move();
    let mut answers = vec![(
        position,
        Known {
            winner,
            length: length.plies,
        },
    )];
    for root_move in &solution.root_moves {
        let (Some(wins), Some(plies)) = (root_move.wins, root_move.length) else {
            return Vec::new();
        };
        let child = position.play(root_move.mv);
        let winner = if wins { mover } else { mover.opponent() };
        answers.push((
            child,
            Known {
                winner,
                length: plies - 1,
            },
        ));
    }
    answers
}
