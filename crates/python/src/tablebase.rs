//! `breakthrough.Tablebase`: perfect play from the explorer's store, with its solver
//! pool for what the store lacks (the code `serve` runs, not a copy of it).

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use breakthrough_explorer::answers::Answers;
use breakthrough_explorer::api::{MoveOutcome, PositionAnswer};
use breakthrough_explorer::solving::{Pool, PoolSettings};
use breakthrough_explorer::store::{Store, StoreError};
use pyo3::prelude::*;

use crate::errors::{error, Kind};
use crate::position::{from_arg, side_name};
use crate::solving::{seconds, table_mb, threads};

/// A store opened with its solver pool and the runtime its waits run on.
#[derive(Debug)]
struct Open {
    answers: Answers,
    runtime: tokio::runtime::Runtime,
}

impl Drop for Open {
    fn drop(&mut self) {
        self.answers.shutdown();
    }
}

/// Perfect play for any position: from the store in `store` (a directory, created
/// when missing; the same store `breakthrough serve --store` keeps), and for what it
/// lacks, solved on `threads` solver threads within `move_time` seconds a call.
#[pyclass(frozen, module = "breakthrough")]
#[derive(Debug)]
pub struct Tablebase {
    open: RwLock<Option<Open>>,
    path: PathBuf,
}

fn store_error(err: StoreError) -> PyErr {
    error(Kind::Store, err.to_string())
}

/// The longest time setting of a tablebase: a day, as `serve` allows.
const MOST_SECONDS: Option<f64> = Some(86_400.0);

fn outcome_name(outcome: MoveOutcome) -> &'static str {
    match outcome {
        MoveOutcome::Win => "win",
        MoveOutcome::Loss => "loss",
        MoveOutcome::Unknown => "unknown",
    }
}

impl Tablebase {
    /// Runs `ask` on the open store, the GIL released.
    fn with_open<T: Send>(
        &self,
        py: Python<'_>,
        ask: impl FnOnce(&Open) -> Result<T, StoreError> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let open = self.open.read().unwrap_or_else(|e| e.into_inner());
            match open.as_ref() {
                Some(open) => ask(open).map_err(Some),
                None => Err(None),
            }
        })
        .map_err(|err| match err {
            Some(err) => store_error(err),
            None => error(
                Kind::Store,
                format!("the tablebase {} is closed", self.path.display()),
            ),
        })
    }

    /// `position`'s answer, solved within the budget when not stored.
    fn answer(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<PositionAnswer> {
        let position = from_arg(position)?;
        self.with_open(py, |open| {
            let deadline = open.answers.deadline();
            open.runtime
                .block_on(open.answers.position(&position, deadline))
        })
    }
}

#[pymethods]
impl Tablebase {
    #[new]
    #[pyo3(signature = (store, *, threads=None, tt_mb=256, move_time=5.0, solve_limit=600.0))]
    fn new(
        py: Python<'_>,
        store: PathBuf,
        threads: Option<usize>,
        tt_mb: u64,
        move_time: f64,
        solve_limit: f64,
    ) -> PyResult<Tablebase> {
        let settings = PoolSettings {
            threads: self::threads(threads)?,
            queue: 64,
            table_mb: table_mb(Some(tt_mb), 0)?,
            solve_limit: seconds("solve_limit", solve_limit, MOST_SECONDS)?,
            slice: Duration::from_secs(1),
            retry_after: Duration::from_secs(600),
        };
        let move_time = seconds("move_time", move_time, MOST_SECONDS)?;
        let path = store.clone();
        let open = py
            .detach(move || -> Result<Open, PyErrKind> {
                let store = Arc::new(Store::open(&store).map_err(PyErrKind::Store)?);
                let pool = Pool::start(settings, store.clone()).map_err(PyErrKind::Io)?;
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .enable_time()
                    .build()
                    .map_err(PyErrKind::Io)?;
                Ok(Open {
                    answers: Answers::new(store, pool, move_time),
                    runtime,
                })
            })
            .map_err(|err| match err {
                PyErrKind::Store(err) => store_error(err),
                PyErrKind::Io(err) => pyo3::exceptions::PyOSError::new_err(format!(
                    "cannot start the tablebase's threads: {err}"
                )),
            })?;
        Ok(Tablebase {
            open: RwLock::new(Some(open)),
            path,
        })
    }

    /// `(winner, length)`: who wins `position` with perfect play (`"white"`,
    /// `"black"`, or None while unknown) and in how many plies (None while unknown).
    fn probe(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<(Option<&'static str>, Option<u32>)> {
        let parsed = from_arg(position)?;
        if let Some(winner) = parsed.winner() {
            return Ok((Some(side_name(winner)), Some(0)));
        }
        if let Some(known) = self.with_open(py, |open| open.answers.stored_value(&parsed))? {
            return Ok((Some(side_name(known.winner)), Some(known.length)));
        }
        let answer = self.answer(py, position)?;
        Ok((answer.winner.map(|side| side.name()), answer.length))
    }

    /// Every legal move as `(move, outcome, length)`, best first: the outcome for
    /// the side playing it (`"win"`, `"loss"` or `"unknown"`) and the plies to the
    /// end of the game, the move counted.
    fn moves(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(String, &'static str, Option<u32>)>> {
        let answer = self.answer(py, position)?;
        Ok(answer
            .moves
            .into_iter()
            .map(|m| (m.mv, outcome_name(m.outcome), m.length))
            .collect())
    }

    /// The move of perfect play (the fastest win, else the longest resistance), or
    /// None when the game is over or not every move is known within the budget.
    fn best_move(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let answer = self.answer(py, position)?;
        let all_known = answer.moves.iter().all(|m| m.length.is_some());
        Ok(answer
            .moves
            .into_iter()
            .next()
            .filter(|_| all_known)
            .map(|m| m.mv))
    }

    /// Positions in the store.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.with_open(py, |open| open.answers.stored_count())
            .map(|n| n as usize)
    }

    /// The store's directory.
    #[getter]
    fn store(&self) -> PathBuf {
        self.path.clone()
    }

    /// Stops the solves and closes the store (what was solved stays stored); later
    /// calls raise StoreError. Closing twice is harmless.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let open = self.open.write().unwrap_or_else(|e| e.into_inner()).take();
            drop(open);
        });
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("Tablebase(store={:?})", self.path.display().to_string())
    }
}

/// What can fail while a tablebase opens, without the GIL.
enum PyErrKind {
    Store(StoreError),
    Io(std::io::Error),
}
