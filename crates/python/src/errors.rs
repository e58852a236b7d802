//! The package's exceptions are Python classes (`breakthrough/errors.py`), so that
//! each can be a `ValueError` as well as a `BreakthroughError`; this raises them.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The exception classes of `breakthrough.errors`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Board,
    Position,
    Move,
    Option,
    Proof,
    Store,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Board => "BoardError",
            Kind::Position => "PositionError",
            Kind::Move => "MoveError",
            Kind::Option => "OptionError",
            Kind::Proof => "ProofError",
            Kind::Store => "StoreError",
        }
    }
}

/// The exception `kind` with `message`.
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let made = py
            .import("breakthrough.errors")
            .and_then(|errors| errors.getattr(kind.class_name()))
            .and_then(|class| class.call1((message.clone(),)));
        match made {
            Ok(instance) => PyErr::from_value(instance),
            // The package's Python half is missing: still a clear error.
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}
