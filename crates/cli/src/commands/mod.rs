//! One module per subcommand.

pub mod bench;
pub mod bench_solve;
pub mod campaign;
#[cfg(feature = "mpi")]
pub mod campaign_mpi;
pub mod growth;
pub mod inspect;
pub mod perft;
pub mod report;
pub mod reproduce;
pub mod show;
pub mod solve;
pub mod verify;
