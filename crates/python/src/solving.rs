//! `solve`, `verify` and `perft`: the CLI's library does the work, with the GIL
//! released, and Ctrl-C in Python stops a solve.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use breakthrough_cli::solve_result::{solve_result, Written};
use breakthrough_cli::verification::verify_path;
use breakthrough_cli::{search, system, write_atomically};
use breakthrough_solver::{Limits, SolveOptions};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::{error, Kind};
use crate::position::from_arg;

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_PERIOD: Duration = Duration::from_millis(100);

/// Runs `work` on a thread of its own while this one, the GIL released, looks for
/// Python's signals every [`SIGNAL_PERIOD`]. A KeyboardInterrupt (or any error a
/// signal handler raises) sets `stop` and is raised at once: the thread stops on
/// its own (a search looks at `stop` every few thousand nodes, but setting up a
/// large table can take seconds first) and drops what it made.
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("breakthrough".to_string())
        .spawn(move || {
            let _ = sender.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    // Waiting needs the receiver shared with the GIL-free closure.
    let receiver = std::sync::Mutex::new(receiver);
    loop {
        let waited = py.detach(|| {
            receiver
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .recv_timeout(SIGNAL_PERIOD)
        });
        match waited {
            Ok(done) => return Ok(done),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(signal);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the solver's thread failed"))
            }
        }
    }
}

/// A number of seconds above 0 (and at most `most`, when given) as a duration, or
/// the option's error: the one check of every time setting of the package.
pub fn seconds(name: &str, value: f64, most: Option<f64>) -> PyResult<Duration> {
    let bound = most.map_or(String::new(), |most| format!(", at most {most}"));
    if !(value > 0.0 && most.is_none_or(|most| value <= most)) {
        return Err(error(
            Kind::Option,
            format!("{name}={value}: give a number of seconds above 0{bound}"),
        ));
    }
    Duration::try_from_secs_f64(value)
        .map_err(|_| error(Kind::Option, format!("{name}={value} is too large")))
}

/// A table size that fits the memory available now.
pub fn table_mb(tt_mb: Option<u64>, default: usize) -> PyResult<usize> {
    match (tt_mb, system::available_memory_mb()) {
        (Some(0), _) => Err(error(Kind::Option, "tt_mb must be at least 1")),
        (Some(mb), Some(available)) if mb > available => Err(error(
            Kind::Option,
            format!("tt_mb={mb} is more than the memory available now ({available} MiB)"),
        )),
        (Some(mb), _) => Ok(mb as usize),
        (None, _) => Ok(default),
    }
}

/// A thread count, all cores by default.
pub fn threads(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(error(Kind::Option, "threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(system::cores()),
    }
}

/// Solves `position` (a Position, its text, or a board's name for its start) and
/// returns the result's JSON text, byte for byte what `solve --json` prints (the
/// package wraps it in `SolveResult`).
#[pyfunction]
#[pyo3(signature = (position, *, length=false, all_moves=false, proof=None, threads=None, tt_mb=None, time_limit=None, node_limit=None, progress=false))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    length: bool,
    all_moves: bool,
    proof: Option<PathBuf>,
    threads: Option<usize>,
    tt_mb: Option<u64>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    progress: bool,
) -> PyResult<String> {
    let started = Instant::now();
    let position = from_arg(position)?;
    if let Some(path) = &proof {
        check_directory(path)?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        table_mb: table_mb(tt_mb, system::default_table_mb(position.board(), length))?,
        limits: Limits {
            max_nodes: node_limit,
            time_limit: time_limit
                .map(|s| seconds("time_limit", s, None))
                .transpose()?,
            stop: Some(Arc::clone(&stop)),
        },
        proof: proof.is_some(),
        threads: self::threads(threads)?,
        length,
        all_moves,
        ..SolveOptions::default()
    };
    let (solution, course, options) = interruptible(py, stop, move || {
        let (solution, course) =
            search::with_progress(&position, &options, !progress, &mut |_, _| {});
        (solution, course, options)
    })?;
    let proof_bytes = match &solution.proof {
        Some(Ok(proof)) => proof.to_bytes(),
        Some(Err(err)) => return Err(error(Kind::Proof, format!("no certificate written: {err}"))),
        None => Vec::new(),
    };
    let written: Written = match (&proof, &solution.proof) {
        (Some(path), Some(Ok(certificate))) => {
            Some((path.as_path(), certificate, proof_bytes.as_slice()))
        }
        _ => None,
    };
    if let Some((path, _, bytes)) = written {
        write_atomically(path, bytes).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot write {}: {e:#}", path.display()))
        })?;
    }
    let wall = started.elapsed().as_secs_f64();
    let result = solve_result(&solution, &options, written, &course, wall);
    serde_json::to_string_pretty(&result).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Refuses a certificate path whose directory does not exist, before the solve.
fn check_directory(path: &Path) -> PyResult<()> {
    match breakthrough_cli::missing_directory(path) {
        None => Ok(()),
        Some(dir) => Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
            "proof={}: no such directory {}",
            path.display(),
            dir.display()
        ))),
    }
}

/// Checks the certificate file or campaign directory at `path` with the rules
/// alone; returns `verify --json`'s result as JSON text and whether it holds.
#[pyfunction]
pub fn verify(py: Python<'_>, path: PathBuf) -> PyResult<(bool, String)> {
    if !path.exists() {
        return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let verification = interruptible(py, stop, move || verify_path(&path))?
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{e:#}")))?;
    let result = verification.result();
    let json = serde_json::to_string_pretty(&result)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok((result.valid, json))
}

/// The leaves of the move tree `depth` plies deep from `position`, as
/// `breakthrough perft` counts them (../shared/data/perft.tsv has the start
/// positions').
#[pyfunction]
pub fn perft(py: Python<'_>, position: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
    let position = from_arg(position)?;
    // The count cannot stop early: Ctrl-C raises at once and leaves it running.
    let stop = Arc::new(AtomicBool::new(false));
    interruptible(py, stop, move || {
        breakthrough_engine::perft(&position, depth)
    })
}
