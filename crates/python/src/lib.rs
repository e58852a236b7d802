//! The native module of the `breakthrough` Python package (`breakthrough._native`):
//! the workspace's engine, solver, verifier and explorer store behind Python
//! classes and functions. The package's Python side (`python/breakthrough`) adds
//! the typed results, the exceptions and OpenSpiel; no rule or search is written
//! again there.

mod errors;
mod openspiel;
mod position;
mod solving;
mod tablebase;

use pyo3::prelude::*;

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<position::Position>()?;
    module.add_class::<tablebase::Tablebase>()?;
    module.add_function(wrap_pyfunction!(solving::solve, module)?)?;
    module.add_function(wrap_pyfunction!(solving::verify, module)?)?;
    module.add_function(wrap_pyfunction!(solving::perft, module)?)?;
    module.add_function(wrap_pyfunction!(openspiel::openspiel_position, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
