//! The certificate file formats, versions 1 to 3. All integers little-endian.
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
//! order a later engine generates moves in. Readers are strict, so that a proof has
//! one spelling: a LEB128 number must be in its shortest form, and a compressed
//! stream must end exactly where its bytes end.
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
//!           1    claim: 0 wins, 1 wins within the bound, 2 holds out the bound,
//!                3 wins given positions proven elsewhere
//!           1    the claim's side (0 White, 1 Black)
//!           2    the bound in plies (0 for claims 0 and 3)
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
//!
//! # Version 3: smaller streams, short endings left to the verifier
//!
//! Laid out as version 2, with one more byte in each part's header, after the
//! bound: the most plies a mark may leave to the verifier's search (at most
//! [`MAX_SETTLE_PLIES`]). The part's header is then 29 bytes, and its node stream
//! is compressed as one xz stream (LZMA2, no check of its own: the file's CRC-32
//! covers it) in place of zlib. The node stream differs from version 2's in two
//! ways:
//! - the winner's move is a LEB128 number, its index among the legal moves in the
//!   format's order (by from- and to-square bit index);
//! - tag `1` marks a position **settled**: it takes no more bytes, and the verifier
//!   decides it by exhaustive search over the rules (see
//!   [`settle`](mod@crate::settle)). With `s` plies allowed, for a win (bounded or
//!   not) the claim's side must win within `s` plies and within the plies left to
//!   the bound; for "holds out `n`", with at most `s` plies left to `n`, it must
//!   hold out those plies, and with more, win within `s`. Tag `2` is then "proven
//!   elsewhere" (claim 3 only), and references back are written `k + 1` (`k + 2`
//!   for claim 3).

use breakthrough_engine::{Bitboard, Board, Color, Position};

use crate::certificate::Certificate;
use crate::claim::Claim;
use crate::encoding::Encoding;
use crate::settle::MAX_SETTLE_PLIES;
use crate::xz::{self, Compression};
use crate::zlib::{deflate, inflate};

const MAGIC: &[u8; 8] = b"BTPROOF\0";
const VERSION: u16 = 1;
/// The version with bounded claims, in parts.
const PARTS_VERSION: u16 = 2;
/// The version with moves as indices and settled positions.
const INDEXED_VERSION: u16 = 3;
const HEADER: usize = 46;
const PARTS_HEADER: usize = 30;
const PART_HEADER: usize = 28;
const INDEXED_PART_HEADER: usize = 29;
const CHECKSUM: usize = 4;

/// Why bytes are not a certificate this program can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("not a proof certificate (no BTPROOF header)")]
    NotACertificate,
    #[error("the file is truncated ({0} bytes)")]
    Truncated(usize),
    #[error(
        "certificate format version {0} is not supported (this program reads versions {VERSION} to {INDEXED_VERSION})"
    )]
    Version(u16),
    #[error("the file holds {0} proofs; one was expected (read it with `read_parts`)")]
    Parts(usize),
    #[error("the file is damaged: checksum mismatch")]
    Checksum,
    #[error("the file is damaged: {0}")]
    Damaged(String),
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
    match (kind, plies) {
        (0, 0) => Ok(Claim::Wins),
        (1, _) => Ok(Claim::WinsWithin(plies.into())),
        (2, _) => Ok(Claim::HoldsOut(plies.into())),
        (3, 0) => Ok(Claim::WinsGiven),
        (0 | 3, _) => Err(FormatError::Damaged(format!(
            "an unbounded claim with a bound of {plies} plies"
        ))),
        (other, _) => Err(FormatError::Damaged(format!("claim byte {other}"))),
    }
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

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn root_of(body: &[u8], side_at: usize, armies_at: usize) -> Result<Position, FormatError> {
    let board = Board::new(u32::from(body[10]), u32::from(body[11]))
        .map_err(|err| FormatError::Damaged(err.to_string()))?;
    Position::try_from_parts(
        board,
        Bitboard(u64_at(body, armies_at)),
        Bitboard(u64_at(body, armies_at + 8)),
        colour_of(body[side_at])?,
    )
    .map_err(|err| FormatError::Damaged(format!("root position: {err}")))
}

fn write_root(out: &mut Vec<u8>, root: &Position) {
    // Boards have at most 64 squares, so both sides fit a byte.
    out.push(root.board().width() as u8);
    out.push(root.board().height() as u8);
    out.push(colour_byte(root.to_move()));
}

fn write_armies(out: &mut Vec<u8>, root: &Position) {
    out.extend_from_slice(&root.pieces(Color::White).0.to_le_bytes());
    out.extend_from_slice(&root.pieces(Color::Black).0.to_le_bytes());
}

fn with_checksum(mut out: Vec<u8>) -> Vec<u8> {
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// The bytes of a file holding `parts`, proofs about one root position: version 3
/// for parts spelled as version 3, else version 2. All parts must share the root
/// and the spelling.
pub fn write_parts(parts: &[Certificate]) -> Vec<u8> {
    write_parts_with(parts, Compression::Small)
}

/// As [`write_parts`], version 3's streams compressed as `compression` says.
pub fn write_parts_with(parts: &[Certificate], compression: Compression) -> Vec<u8> {
    let indexed = parts
        .first()
        .is_some_and(|part| part.encoding != Encoding::Squares);
    debug_assert!(parts
        .iter()
        .all(|part| (part.encoding != Encoding::Squares) == indexed));
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    let version = if indexed {
        INDEXED_VERSION
    } else {
        PARTS_VERSION
    };
    out.extend_from_slice(&version.to_le_bytes());
    if let Some(first) = parts.first() {
        debug_assert!(parts.iter().all(|part| part.root == first.root));
        write_root(&mut out, &first.root);
        write_armies(&mut out, &first.root);
    }
    out.push(u8::try_from(parts.len()).expect("a few parts"));
    for part in parts {
        let (kind, plies) = claim_bytes(part.claim);
        out.push(kind);
        out.push(colour_byte(part.winner));
        out.extend_from_slice(&plies.to_le_bytes());
        if let Encoding::Indexed { settle_plies } = part.encoding {
            out.push(settle_plies);
        }
        out.extend_from_slice(&part.positions.to_le_bytes());
        out.extend_from_slice(&(part.stream.len() as u64).to_le_bytes());
        let compressed = if indexed {
            xz::compress(&part.stream, compression)
        } else {
            deflate(&part.stream, Vec::new())
        };
        out.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
        out.extend_from_slice(&compressed);
    }
    with_checksum(out)
}

/// Reads a certificate file of either version: its proofs, one for version 1.
pub fn read_parts(bytes: &[u8]) -> Result<Vec<Certificate>, FormatError> {
    match version(bytes)? {
        VERSION => Ok(vec![read_version_1(bytes)?]),
        PARTS_VERSION | INDEXED_VERSION => read_in_parts(bytes),
        version => Err(FormatError::Version(version)),
    }
}

/// The version of a file that starts like a certificate.
fn version(bytes: &[u8]) -> Result<u16, FormatError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(FormatError::NotACertificate);
    }
    if bytes.len() < 10 {
        return Err(FormatError::Truncated(bytes.len()));
    }
    Ok(u16::from_le_bytes([bytes[8], bytes[9]]))
}

fn read_version_1(bytes: &[u8]) -> Result<Certificate, FormatError> {
    if bytes.len() < HEADER + CHECKSUM {
        return Err(FormatError::Truncated(bytes.len()));
    }
    let body = checked_body(bytes)?;
    Ok(Certificate {
        root: root_of(body, 12, 14)?,
        winner: colour_of(body[13])?,
        claim: Claim::Wins,
        encoding: Encoding::Squares,
        positions: u64_at(body, 30),
        stream: inflate(&body[HEADER..], u64_at(body, 38)).map_err(FormatError::Damaged)?,
    })
}

/// Reads a file of version 2 or 3: its parts.
fn read_in_parts(bytes: &[u8]) -> Result<Vec<Certificate>, FormatError> {
    if bytes.len() < PARTS_HEADER + CHECKSUM {
        return Err(FormatError::Truncated(bytes.len()));
    }
    let body = checked_body(bytes)?;
    let root = root_of(body, 12, 13)?;
    let indexed = version(bytes)? == INDEXED_VERSION;
    let mut at = PARTS_HEADER;
    let mut parts = Vec::new();
    for _ in 0..body[29] {
        let (part, end) = read_part(body, at, root, indexed)?;
        parts.push(part);
        at = end;
    }
    if at != body.len() {
        return Err(FormatError::Damaged(format!(
            "{} bytes after the last part",
            body.len() - at
        )));
    }
    Ok(parts)
}

/// Reads the part that starts at `at` (of version 3 if `indexed`, else 2): the
/// part, and where the next one starts.
fn read_part(
    body: &[u8],
    at: usize,
    root: Position,
    indexed: bool,
) -> Result<(Certificate, usize), FormatError> {
    let size = if indexed {
        INDEXED_PART_HEADER
    } else {
        PART_HEADER
    };
    let header = body
        .get(at..at + size)
        .ok_or(FormatError::Damaged("a part's header is cut short".into()))?;
    let claim = claim_of(header[0], u16::from_le_bytes([header[2], header[3]]))?;
    let winner = colour_of(header[1])?;
    let (encoding, header) = if indexed {
        let settle_plies = header[4];
        if u32::from(settle_plies) > MAX_SETTLE_PLIES {
            return Err(FormatError::Damaged(format!(
                "{settle_plies} plies left to the verifier's search, more than the {MAX_SETTLE_PLIES} the format allows"
            )));
        }
        // The rest of the header is laid out as version 2's, one byte later.
        (Encoding::Indexed { settle_plies }, &header[1..])
    } else {
        (Encoding::Squares, header)
    };
    let start = at + size;
    let end = usize::try_from(u64_at(header, 20))
        .ok()
        .and_then(|n| start.checked_add(n))
        .filter(|&end| end <= body.len())
        .ok_or(FormatError::Damaged("a part's stream is cut short".into()))?;
    let part = Certificate {
        root,
        winner,
        claim,
        encoding,
        positions: u64_at(header, 4),
        stream: unpack(encoding, &body[start..end], u64_at(header, 12))
            .map_err(FormatError::Damaged)?,
    };
    Ok((part, end))
}

/// Unpacks a part's node stream of `length` bytes, compressed as its version does.
fn unpack(encoding: Encoding, compressed: &[u8], length: u64) -> Result<Vec<u8>, String> {
    match encoding {
        Encoding::Squares => inflate(compressed, length),
        Encoding::Indexed { .. } => xz::decompress(compressed, length),
    }
}

impl Certificate {
    /// The file's bytes: version 1 for a plain win spelled as versions 1 and 2, else
    /// a file of one part (see [`write_parts`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_with(Compression::Small)
    }

    /// As [`Certificate::to_bytes`], version 3's stream compressed as
    /// `compression` says.
    pub fn to_bytes_with(&self, compression: Compression) -> Vec<u8> {
        if self.claim != Claim::Wins || self.encoding != Encoding::Squares {
            return write_parts_with(std::slice::from_ref(self), compression);
        }
        let mut out = Vec::with_capacity(HEADER + self.stream.len() / 4 + CHECKSUM);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        write_root(&mut out, &self.root);
        out.push(colour_byte(self.winner));
        write_armies(&mut out, &self.root);
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&(self.stream.len() as u64).to_le_bytes());
        with_checksum(deflate(&self.stream, out))
    }

    /// Reads a certificate's bytes: the header, checksum and compression are checked
    /// here; whether the proof holds is [`Certificate::verify`]'s business. A file of
    /// version 2 or 3 must hold exactly one part (see [`read_parts`] for more).
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, FormatError> {
        match version(bytes)? {
            VERSION => read_version_1(bytes),
            PARTS_VERSION | INDEXED_VERSION => {
                let mut parts = read_in_parts(bytes)?;
                match parts.len() {
                    1 => Ok(parts.remove(0)),
                    n => Err(FormatError::Parts(n)),
                }
            }
            version => Err(FormatError::Version(version)),
        }
    }
}
