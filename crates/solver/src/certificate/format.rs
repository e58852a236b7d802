//! The certificate file format, version 1. All integers little-endian.
//!
//! ```text
//! offset size  field
//!      0    8  magic "BTPROOF\0"
//!      8    2  format version (1)
//!     10    1  board width W
//!     11    1  board height H
//!     12    1  side to move at the root (0 White, 1 Black)
//!     13    1  claimed winner (0 White, 1 Black)
//!     14    8  White's pieces at the root (bit rank*W + file)
//!     22    8  Black's pieces at the root
//!     30    8  positions expanded in the stream
//!     38    8  length of the node stream, uncompressed
//!     46    n  the node stream, zlib-compressed
//!  46+n     4  CRC-32 of every byte before it
//! ```
//!
//! The node stream describes the root, then recursively each node, depth first. A
//! position where the game is over takes no bytes. Any other position starts with a
//! LEB128 tag: `k > 0` refers back to the position expanded `k` expansions ago (a
//! transposition, checked equal by the verifier); `0` expands it here, numbering it
//! in order of expansion:
//! - winner to move: two bytes, the bit indices of the move's from- and to-square,
//!   then the node after that move;
//! - loser to move: a LEB128 count of its legal moves, then the node after each of
//!   them, moves ordered by (from-square, to-square) bit index.
//!
//! The order of replies is the format's own, so a certificate stays valid whatever
//! order a later engine generates moves in.

use std::io::{Read, Write};

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

use super::Certificate;

const MAGIC: &[u8; 8] = b"BTPROOF\0";
const VERSION: u16 = 1;
const HEADER: usize = 46;
const CHECKSUM: usize = 4;

/// Why bytes are not a certificate this program can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("not a proof certificate (no BTPROOF header)")]
    NotACertificate,
    #[error("the file is truncated ({0} bytes)")]
    Truncated(usize),
    #[error(
        "certificate format version {0} is not supported (this program reads version {VERSION})"
    )]
    Version(u16),
    #[error("the file is damaged: checksum mismatch")]
    Checksum,
    #[error("the file is damaged: {0}")]
    Damaged(String),
}

/// Writes the node stream (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct NodeWriter {
    pub bytes: Vec<u8>,
    /// Positions expanded so far.
    pub expanded: u64,
}

impl NodeWriter {
    /// Expands a new position here; returns its number.
    pub fn expand(&mut self) -> u64 {
        self.bytes.push(0);
        self.expanded += 1;
        self.expanded - 1
    }

    /// Refers to the position numbered `id`, expanded before.
    pub fn refer(&mut self, id: u64) {
        debug_assert!(id < self.expanded);
        leb128::write::unsigned(&mut self.bytes, self.expanded - id).expect("Vec never fails");
    }

    /// The winner's move at the position just expanded.
    pub fn winning_move(&mut self, step: Step) {
        self.bytes.extend([step.from, step.to]);
    }

    /// The number of replies of the loser at the position just expanded.
    pub fn replies(&mut self, count: usize) {
        leb128::write::unsigned(&mut self.bytes, count as u64).expect("Vec never fails");
    }
}

/// The loser's moves in the format's order.
pub(crate) fn replies_in_order(position: &Position) -> Vec<Step> {
    let mut steps = position.steps();
    steps.sort_unstable_by_key(|step| (step.from, step.to));
    steps
}

fn colour_byte(colour: Color) -> u8 {
    match colour {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn colour_of(byte: u8) -> Result<Color, FormatError> {
    match byte {
        0 => Ok(Color::White),
        1 => Ok(Color::Black),
        other => Err(FormatError::Damaged(format!("side byte {other}"))),
    }
}

impl Certificate {
    pub(crate) fn new(root: Position, winner: Color, stream: NodeWriter) -> Certificate {
        Certificate {
            root,
            winner,
            positions: stream.expanded,
            stream: stream.bytes,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let board = self.root.board();
        let mut out = Vec::with_capacity(HEADER + self.stream.len() / 4 + CHECKSUM);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        // Boards have at most 64 squares, so both sides fit a byte.
        out.push(board.width() as u8);
        out.push(board.height() as u8);
        out.push(colour_byte(self.root.to_move()));
        out.push(colour_byte(self.winner));
        out.extend_from_slice(&self.root.pieces(Color::White).0.to_le_bytes());
        out.extend_from_slice(&self.root.pieces(Color::Black).0.to_le_bytes());
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&(self.stream.len() as u64).to_le_bytes());
        let mut encoder = ZlibEncoder::new(out, Compression::best());
        encoder.write_all(&self.stream).expect("Vec never fails");
        let mut out = encoder.finish().expect("Vec never fails");
        let checksum = crc32fast::hash(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a certificate's bytes: the header, checksum and compression are checked
    /// here; whether the proof holds is [`Certificate::verify`]'s business.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, FormatError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FormatError::NotACertificate);
        }
        if bytes.len() < HEADER + CHECKSUM {
            return Err(FormatError::Truncated(bytes.len()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let (body, checksum) = bytes.split_at(bytes.len() - CHECKSUM);
        let checksum = u32::from_le_bytes(checksum.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != checksum {
            return Err(FormatError::Checksum);
        }
        let u64_at = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
        let board = Board::new(u32::from(body[10]), u32::from(body[11]))
            .map_err(|err| FormatError::Damaged(err.to_string()))?;
        let root = Position::try_from_parts(
            board,
            Bitboard(u64_at(14)),
            Bitboard(u64_at(22)),
            colour_of(body[12])?,
        )
        .map_err(|err| FormatError::Damaged(format!("root position: {err}")))?;
        let winner = colour_of(body[13])?;
        let positions = u64_at(30);
        let length = u64_at(38);
        let mut stream = Vec::new();
        // Read one byte past the declared length to notice a stream that is longer.
        ZlibDecoder::new(&body[HEADER..])
            .take(length.saturating_add(1))
            .read_to_end(&mut stream)
            .map_err(|err| FormatError::Damaged(format!("compressed stream: {err}")))?;
        if stream.len() as u64 != length {
            return Err(FormatError::Damaged(format!(
                "the node stream has {} bytes, the header says {length}",
                stream.len()
            )));
        }
        Ok(Certificate {
            root,
            winner,
            positions,
            stream,
        })
    }
}
