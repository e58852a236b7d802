//! One module per subcommand.

pub mod bench;
pub mod bench_solve;
pub mod perft;
pub mod show;
pub mod solve;
