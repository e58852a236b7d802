//! Proof certificates for Breakthrough, and the verifier that a reader must trust:
//! the file formats and a checker that knows nothing but the rules of the game.
//!
//! A certificate is the winner's strategy as a graph of positions. Where the winner
//! moves, it names one move; where the loser moves, it answers every legal move.
//! Every path ends in a finished game won by the claimed side. Nothing of a search
//! survives in it, so [`Certificate::verify`] needs only the engine's move
//! generation; this crate depends on the engine and on small format crates alone.
//!
//! - [`format`](mod@format): the file formats, versions 1 to 3 (versioned, compressed,
//!   checksummed), read strictly so that a proof has one spelling.
//! - [`settle`](mod@settle): the bounded search that decides the short endings a
//!   version 3 certificate leaves to the verifier.
//! - [`NodeWriter`]: what provers write a proof's node stream with.
//! - [`Certificate::verify`]: the rules-only check of one proof ([`Claim`]: wins,
//!   wins within a bound, holds out a bound, wins given positions proven elsewhere).
//! - [`verify_file`]: what a file proves: each part, an exact length's pair
//!   ([`verify_length`]), and that the top of a campaign's proof is no proof alone.
//! - [`verify_directory`]: a campaign's proof in many files, tied together by a
//!   [`Manifest`]; positions match up to the mirror ([`Identity`]).
//!
//! ```
//! use breakthrough_engine::{Color, Position};
//! use breakthrough_proof::{replies_in_order, verify_file, Certificate, Claim, NodeWriter};
//!
//! // Black, to move on 3x4, has one move (a4-b3), after which White's a3-a4 wins.
//! let root: Position = "B2/W2/3/3 b".parse()?;
//! let replies = replies_in_order(&root);
//! let mut nodes = NodeWriter::new(Claim::Wins);
//! nodes.expand();
//! nodes.replies(replies.len());
//! for step in replies {
//!     let after = root.play_step(step);
//!     let win = after.steps().into_iter().find(|&s| after.play_step(s).winner().is_some());
//!     nodes.expand();
//!     nodes.winning_move(&after, win.expect("a winning move"));
//! }
//! let certificate = Certificate::new(root, Color::White, Claim::Wins, nodes);
//! let report = verify_file(&certificate.to_bytes())?;
//! assert_eq!(report.reports[0].height, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod certificate;
mod claim;
mod directory;
mod encoding;
mod file;
pub mod format;
mod identity;
mod nodes;
pub mod outline;
pub mod settle;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod varint;
mod verify;
mod xz;
mod zlib;

#[cfg(test)]
mod tests;

pub use certificate::Certificate;
pub use claim::Claim;
pub use directory::{
    part_file, part_file_of, verify_directory, CampaignReport, Manifest, Rejected, MANIFEST_FILE,
    PARTS_DIR, TOP_FILE,
};
pub use encoding::Encoding;
pub use file::{verify_file, verify_length, FileError, FileReport};
pub use format::{read_parts, write_parts, write_parts_with, FormatError};
pub use identity::Identity;
pub use nodes::{replies_in_order, NodeWriter};
pub use settle::{holds_out, settles, wins_within, DEFAULT_SETTLE_PLIES, MAX_SETTLE_PLIES};
pub use verify::{Problem, VerifyError, VerifyReport};
pub use xz::{Compression, XZ_MEMORY_LIMIT_KB};
