//! One module per subcommand.

pub mod bench;
pub mod perft;
pub mod show;
