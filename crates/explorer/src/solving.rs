//! The solver pool: a fixed number of threads that solve positions one at a time
//! each, fed by a bounded queue. A position asked for while it (or its mirror
//! image) is queued or being solved joins that solve instead of starting another,
//! and a request waits for a solve only as long as its own budget: the solve goes
//! on in the background up to its own limit, and its answers land in the store.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use breakthrough_engine::Position;
use breakthrough_solver::{solve, Key, Limits, Solution, SolveOptions};

use crate::store::{Known, Store};

/// How a solve of the pool ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Solved, and its answers are in the store.
    Stored,
    /// Its limit (or the server's shutdown) stopped it, or the store refused its
    /// answers: nothing was stored.
    Unsettled,
}

/// A request's place in the pool.
#[derive(Debug)]
pub enum Queued {
    /// The position is (or joins) a solve; the receiver sees how it ended.
    Solving(tokio::sync::watch::Receiver<Option<Ended>>),
    /// The queue is full: nothing is solved for this request.
    Busy,
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
}

struct Job {
    position: Position,
    key: (u32, Key),
}

type InFlight = Mutex<HashMap<(u32, Key), tokio::sync::watch::Sender<Option<Ended>>>>;

/// The running pool.
pub struct Pool {
    queue: SyncSender<Job>,
    in_flight: Arc<InFlight>,
    stop: Arc<AtomicBool>,
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
        let (queue, jobs) = sync_channel::<Job>(settings.queue);
        let jobs = Arc::new(Mutex::new(jobs));
        let in_flight: Arc<InFlight> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..settings.threads.max(1))
            .map(|index| {
                let worker = Worker {
                    jobs: Arc::clone(&jobs),
                    in_flight: Arc::clone(&in_flight),
                    stop: Arc::clone(&stop),
                    store: Arc::clone(&store),
                    settings: settings.clone(),
                };
                std::thread::Builder::new()
                    .name(format!("solver-{index}"))
                    .spawn(move || worker.run())
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Pool {
            queue,
            in_flight,
            stop,
            threads: Mutex::new(threads),
        })
    }

    /// Queues a solve of `position` unless it (or its mirror image) is queued or
    /// being solved already.
    pub fn request(&self, position: &Position) -> Queued {
        let key = (board_code(position), Key::of(position));
        let mut in_flight = lock(&self.in_flight);
        if let Some(sender) = in_flight.get(&key) {
            return Queued::Solving(sender.subscribe());
        }
        let (sender, receiver) = tokio::sync::watch::channel(None);
        match self.queue.try_send(Job {
            position: *position,
            key,
        }) {
            Ok(()) => {
                in_flight.insert(key, sender);
                Queued::Solving(receiver)
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Queued::Busy,
        }
    }

    /// Whether `position` (or its mirror image) is queued or being solved.
    pub fn is_solving(&self, position: &Position) -> bool {
        let key = (board_code(position), Key::of(position));
        lock(&self.in_flight).contains_key(&key)
    }

    /// Stops every solve and waits for the threads to end.
    pub fn shutdown(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let threads = std::mem::take(&mut *lock(&self.threads));
        // Each thread ends at its next look at the flag: a running solve stops at
        // once, and queued positions are left unsolved.
        for thread in threads {
            let _ = thread.join();
        }
        for (_, sender) in lock(&self.in_flight).drain() {
            sender.send_replace(Some(Ended::Unsettled));
        }
    }
}

/// The board in a key: positions of different boards can have equal armies.
fn board_code(position: &Position) -> u32 {
    position.board().width() << 8 | position.board().height()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock leaves consistent data here (a map or a list).
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct Worker {
    jobs: Arc<Mutex<Receiver<Job>>>,
    in_flight: Arc<InFlight>,
    stop: Arc<AtomicBool>,
    store: Arc<Store>,
    settings: PoolSettings,
}

impl Worker {
    fn run(self) {
        loop {
            // Waits a little at a time, to see the stop flag.
            let job = lock(&self.jobs).recv_timeout(Duration::from_millis(100));
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let job = match job {
                Ok(job) => job,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
            };
            let ended = self.solve(&job.position);
            if let Some(sender) = lock(&self.in_flight).remove(&job.key) {
                sender.send_replace(Some(ended));
            }
        }
    }

    fn solve(&self, position: &Position) -> Ended {
        let options = SolveOptions {
            table_mb: self.settings.table_mb,
            threads: 1,
            length: true,
            all_moves: true,
            limits: Limits {
                time_limit: Some(self.settings.solve_limit),
                stop: Some(Arc::clone(&self.stop)),
                ..Limits::default()
            },
            ..SolveOptions::default()
        };
        let solution = solve(position, &options, &mut |_| {});
        let answers = answers_of(&solution);
        if answers.is_empty() {
            return Ended::Unsettled;
        }
        match self.store.put_all(&answers) {
            Ok(()) => Ended::Stored,
            Err(err) => {
                eprintln!("breakthrough serve: {err}");
                Ended::Unsettled
            }
        }
    }
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
