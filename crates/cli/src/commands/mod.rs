//! One module per subcommand.

pub mod bench;
pub mod bench_solve;
pub mod campaign;
pub mod growth;
pub mod inspect;
pub mod perft;
pub mod report;
pub mod reproduce;
pub mod show;
pub mod solve;
pub mod verify;
