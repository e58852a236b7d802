//! One module per subcommand.

pub mod bench;
pub mod campaign;
#[cfg(feature = "mpi")]
pub mod campaign_mpi;
pub mod campaign_progress;
pub mod inspect;
pub mod perft;
pub mod reproduce;
pub mod schema;
pub mod serve;
pub mod show;
pub mod solve;
pub mod verify;
