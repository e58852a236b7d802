//! The certificate file formats, versions 1 and 2. All integers little-endian.
//!
//! # Version 1: one proof that a side wins
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
//!
//! # Version 2: proofs with a bound, in parts
//!
//! An exact game length needs two proofs of one position: that the winner wins
//! within `L` plies, and that the loser holds out `L - 1` plies. Version 2 holds
//! one or more such parts, each a claim about one side:
//!
//! ```text
//! offset size  field
//!      0    8  magic "BTPROOF\0"
//!      8    2  format version (2)
//!     10    1  board width W
//!     11    1  board height H
//!     12    1  side to move at the root (0 White, 1 Black)
//!     13    8  White's pieces at the root
//!     21    8  Black's pieces at the root
//!     29    1  number of parts
//!     30       the parts, one after another:
//!           1    claim: 0 wins, 1 wins within the bound, 2 holds out the bound
//!           1    the claim's side (0 White, 1 Black)
//!           2    the bound in plies (0 for claim 0)
//!           8    positions expanded in the stream
//!           8    length of the node stream, uncompressed
//!           8    length of the node stream, compressed
//!           n    the node stream, zlib-compressed
//!    end    4  CRC-32 of every byte before it
//! ```
//!
//! A part's node stream is written as in version 1, the claim's side in the role of
//! the winner (one move at each of its positions) and its opponent in the role of
//! the loser (every legal move). For "holds out `n` plies", a position reached at
//! ply `n` takes no bytes, and a reference back to a position is allowed only from
//! a ply no earlier than the one where that position was expanded (its proof holds
//! out to ply `n` from there, so it covers every later arrival).
//!
//! Claim 3, "wins given", is the top of a proof in several files (a campaign's): its
//! stream has one more tag, `1`, for a position proven elsewhere (by another
//! certificate, about that position or its mirror image, which the checker of the
//! whole must find and check); references back are then written `k + 1`.

use std::io::{Read, Write};

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

use super::{Certificate, Claim};

const MAGIC: &[u8; 8] = b"BTPROOF\0";
const VERSION: u16 = 1;
/// The version with bounded claims, in parts.
const PARTS_VERSION: u16 = 2;
const HEADER: usize = 46;
const PARTS_HEADER: usize = 30;
const PART_HEADER: usize = 28;
const CHECKSUM: usize = 4;

/// Why bytes are not a certificate this program can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("not a proof certificate (no BTPROOF header)")]
    NotACertificate,
    #[error("the file is truncated ({0} bytes)")]
    Truncated(usize),
    #[error(
        "certificate format version {0} is not supported (this program reads versions {VERSION} and {PARTS_VERSION})"
    )]
    Version(u16),
    #[error("the file holds {0} proofs; one was expected (read it with `read_parts`)")]
    Parts(usize),
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
    /// Whether tag 1 means "proven elsewhere" ([`Claim::WinsGiven`]).
    pub given_tag: bool,
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
        let tag = self.expanded - id + u64::from(self.given_tag);
        leb128::write::unsigned(&mut self.bytes, tag).expect("Vec never fails");
    }

    /// A position proven elsewhere (only for [`Claim::WinsGiven`]).
    pub fn given(&mut self) {
        debug_assert!(self.given_tag);
        self.bytes.push(1);
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

fn claim_bytes(claim: Claim) -> (u8, u16) {
    let plies = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
    match claim {
        Claim::Wins => (0, 0),
        Claim::WinsWithin(n) => (1, plies(n)),
        Claim::HoldsOut(n) => (2, plies(n)),
        Claim::WinsGiven => (3, 0),
    }
}

fn claim_of(kind: u8, plies: u16) -> Result<Claim, FormatError> {
    match kind {
        0 => Ok(Claim::Wins),
        1 => Ok(Claim::WinsWithin(plies.into())),
        2 => Ok(Claim::HoldsOut(plies.into())),
        3 => Ok(Claim::WinsGiven),
        other => Err(FormatError::Damaged(format!("claim byte {other}"))),
    }
}

/// Inflates a node stream of `length` bytes.
fn inflate(compressed: &[u8], length: u64) -> Result<Vec<u8>, FormatError> {
    let mut stream = Vec::new();
    // Read one byte past the declared length to notice a stream that is longer.
    ZlibDecoder::new(compressed)
        .take(length.saturating_add(1))
        .read_to_end(&mut stream)
        .map_err(|err| FormatError::Damaged(format!("compressed stream: {err}")))?;
    if stream.len() as u64 != length {
        return Err(FormatError::Damaged(format!(
            "the node stream has {} bytes, the header says {length}",
            stream.len()
        )));
    }
    Ok(stream)
}

fn deflate(stream: &[u8], out: Vec<u8>) -> Vec<u8> {
    // Level 3: on a 61 MB stream of a 4x7 campaign's part, 1.04x the bytes of level
    // 9 in a sixth of the time (level 9 made writing proofs a campaign's main cost).
    let mut encoder = ZlibEncoder::new(out, Compression::new(3));
    encoder.write_all(stream).expect("Vec never fails");
    encoder.finish().expect("Vec never fails")
}

/// Splits off the checksum and checks it.
fn checked_body(bytes: &[u8]) -> Result<&[u8], FormatError> {
    let (body, checksum) = bytes.split_at(bytes.len() - CHECKSUM);
    let checksum = u32::from_le_bytes(checksum.try_into().expect("4 bytes"));
    if crc32fast::hash(body) != checksum {
        return Err(FormatError::Checksum);
    }
    Ok(body)
}

fn root_of(body: &[u8], side_at: usize, armies_at: usize) -> Result<Position, FormatError> {
    let u64_at = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
    let board = Board::new(u32::from(body[10]), u32::from(body[11]))
        .map_err(|err| FormatError::Damaged(err.to_string()))?;
    Position::try_from_parts(
        board,
        Bitboard(u64_at(armies_at)),
        Bitboard(u64_at(armies_at + 8)),
        colour_of(body[side_at])?,
    )
    .map_err(|err| FormatError::Damaged(format!("root position: {err}")))
}

/// The bytes of a version 2 file holding `parts`, proofs about one root position.
pub fn write_parts(parts: &[Certificate]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&PARTS_VERSION.to_le_bytes());
    if let Some(first) = parts.first() {
        let root = first.root;
        debug_assert!(parts.iter().all(|part| part.root == root));
        out.push(root.board().width() as u8);
        out.push(root.board().height() as u8);
        out.push(colour_byte(root.to_move()));
        out.extend_from_slice(&root.pieces(Color::White).0.to_le_bytes());
        out.extend_from_slice(&root.pieces(Color::Black).0.to_le_bytes());
    }
    out.push(u8::try_from(parts.len()).expect("a few parts"));
    for part in parts {
        let (kind, plies) = claim_bytes(part.claim);
        out.push(kind);
        out.push(colour_byte(part.winner));
        out.extend_from_slice(&plies.to_le_bytes());
        out.extend_from_slice(&part.positions.to_le_bytes());
        out.extend_from_slice(&(part.stream.len() as u64).to_le_bytes());
        let compressed = deflate(&part.stream, Vec::new());
        out.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
        out.extend_from_slice(&compressed);
    }
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// Reads a certificate file of either version: its proofs, one for version 1.
pub fn read_parts(bytes: &[u8]) -> Result<Vec<Certificate>, FormatError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(FormatError::NotACertificate);
    }
    if bytes.len() < 10 {
        return Err(FormatError::Truncated(bytes.len()));
    }
    match u16::from_le_bytes([bytes[8], bytes[9]]) {
        VERSION => Ok(vec![Certificate::from_bytes(bytes)?]),
        PARTS_VERSION => read_version_2(bytes),
        version => Err(FormatError::Version(version)),
    }
}

fn read_version_2(bytes: &[u8]) -> Result<Vec<Certificate>, FormatError> {
    if bytes.len() < PARTS_HEADER + CHECKSUM {
        return Err(FormatError::Truncated(bytes.len()));
    }
    let body = checked_body(bytes)?;
    let root = root_of(body, 12, 13)?;
    let count = body[29];
    let mut at = PARTS_HEADER;
    let mut parts = Vec::new();
    for _ in 0..count {
        let header = body
            .get(at..at + PART_HEADER)
            .ok_or(FormatError::Damaged("a part's header is cut short".into()))?;
        let u64_at = |i: usize| u64::from_le_bytes(header[i..i + 8].try_into().expect("8 bytes"));
        let claim = claim_of(header[0], u16::from_le_bytes([header[2], header[3]]))?;
        let winner = colour_of(header[1])?;
        let (positions, length, compressed) = (u64_at(4), u64_at(12), u64_at(20));
        at += PART_HEADER;
        let end = usize::try_from(compressed)
            .ok()
            .and_then(|n| at.checked_add(n))
            .filter(|&end| end <= body.len())
            .ok_or(FormatError::Damaged("a part's stream is cut short".into()))?;
        let stream = inflate(&body[at..end], length)?;
        at = end;
        parts.push(Certificate {
            root,
            winner,
            claim,
            positions,
            stream,
        });
    }
    if at != body.len() {
        return Err(FormatError::Damaged(format!(
            "{} bytes after the last part",
            body.len() - at
        )));
    }
    Ok(parts)
}

impl Certificate {
    pub(crate) fn new(
        root: Position,
        winner: Color,
        claim: Claim,
        stream: NodeWriter,
    ) -> Certificate {
        Certificate {
            root,
            winner,
            claim,
            positions: stream.expanded,
            stream: stream.bytes,
        }
    }

    /// The file's bytes: version 1 for a plain win, else a version 2 file of one
    /// part (see [`write_parts`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.claim != Claim::Wins {
            return write_parts(std::slice::from_ref(self));
        }
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
        let mut out = deflate(&self.stream, out);
        let checksum = crc32fast::hash(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a certificate's bytes: the header, checksum and compression are checked
    /// here; whether the proof holds is [`Certificate::verify`]'s business. A version
    /// 2 file must hold exactly one part (see [`read_parts`] for more).
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, FormatError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FormatError::NotACertificate);
        }
        if bytes.len() < HEADER + CHECKSUM {
            return Err(FormatError::Truncated(bytes.len()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version == PARTS_VERSION {
            let mut parts = read_version_2(bytes)?;
            return match parts.len() {
                1 => Ok(parts.remove(0)),
                n => Err(FormatError::Parts(n)),
            };
        }
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let body = checked_body(bytes)?;
        let u64_at = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
        let root = root_of(body, 12, 14)?;
        let winner = colour_of(body[13])?;
        let positions = u64_at(30);
        let stream = inflate(&body[HEADER..], u64_at(38))?;
        Ok(Certificate {
            root,
            winner,
            claim: Claim::Wins,
            positions,
            stream,
        })
    }
}
