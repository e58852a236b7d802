//! Proof certificates out of a finished search: the winner's strategy as a file that
//! anyone can check with the rules alone.
//!
//! The file formats and the rules-only verifier are the `breakthrough_proof`
//! crate's; this module holds what needs the search:
//! - `extract` builds a certificate after a solve, in a pass of its
//!   own: a df-pn table is not a proof (entries are evicted, positions transpose),
//!   so the pass walks the strategy and re-proves whatever the table has lost, and
//!   writes it through [`breakthrough_proof::NodeWriter`].
//! - `written` is the extraction's bounded memory of the positions it has written.

pub(crate) mod extract;
#[cfg(test)]
mod tests;
mod written;

pub use breakthrough_proof::{Certificate, Claim};
