//! Any node stream behind a well-formed header, of version 1 or version 3 (with up
//! to 5 plies left to the verifier's search): the file verifier refuses it or
//! reports a proof, never panics, and never accepts a false claim. The roots are
//! start positions whose winner is known (the second player on each), so a proof
//! that the first player wins is a false proof accepted.

#![no_main]

use std::io::Write;

use breakthrough_engine::{Board, Color, Position};
use flate2::write::ZlibEncoder;
use flate2::Compression;
use libfuzzer_sys::fuzz_target;

/// Boards whose start position the second player wins.
const BOARDS: [(u32, u32); 5] = [(3, 4), (4, 4), (5, 4), (3, 5), (4, 5)];

/// A version 1 file: `root`, `winner`, `positions`, and `stream` compressed, with
/// its checksum, so that every byte of the stream reaches the verifier.
fn file(root: &Position, winner: Color, positions: u64, stream: &[u8]) -> Vec<u8> {
    let side = |color: Color| u8::from(color == Color::Black);
    let mut out = b"BTPROOF\0".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    out.push(root.board().width() as u8);
    out.push(root.board().height() as u8);
    out.push(side(root.to_move()));
    out.push(side(winner));
    out.extend_from_slice(&root.pieces(Color::White).0.to_le_bytes());
    out.extend_from_slice(&root.pieces(Color::Black).0.to_le_bytes());
    out.extend_from_slice(&positions.to_le_bytes());
    out.extend_from_slice(&(stream.len() as u64).to_le_bytes());
    let mut encoder = ZlibEncoder::new(out, Compression::fast());
    encoder.write_all(stream).expect("Vec never fails");
    let mut out = encoder.finish().expect("Vec never fails");
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// A version 3 file of one part claiming that `winner` wins, with `settle` plies
/// left to the verifier's search.
fn file_v3(root: &Position, winner: Color, settle: u8, positions: u64, stream: &[u8]) -> Vec<u8> {
    let side = |color: Color| u8::from(color == Color::Black);
    let mut out = b"BTPROOF\0".to_vec();
    out.extend_from_slice(&3u16.to_le_bytes());
    out.push(root.board().width() as u8);
    out.push(root.board().height() as u8);
    out.push(side(root.to_move()));
    out.extend_from_slice(&root.pieces(Color::White).0.to_le_bytes());
    out.extend_from_slice(&root.pieces(Color::Black).0.to_le_bytes());
    out.push(1);
    out.extend_from_slice(&[0, side(winner), 0, 0, settle]);
    out.extend_from_slice(&positions.to_le_bytes());
    out.extend_from_slice(&(stream.len() as u64).to_le_bytes());
    let mut options = lzma_rust2::XzOptions::with_preset(0);
    options.set_check_sum_type(lzma_rust2::CheckType::None);
    let mut writer = lzma_rust2::XzWriter::new(Vec::new(), options).expect("a Vec");
    writer.write_all(stream).expect("Vec never fails");
    let compressed = writer.finish().expect("Vec never fails");
    out.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
    out.extend_from_slice(&compressed);
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

fuzz_target!(|bytes: &[u8]| {
    let [selector, low, high, stream @ ..] = bytes else {
        return;
    };
    let (width, height) = BOARDS[usize::from(*selector) % BOARDS.len()];
    let root = Position::start(Board::new(width, height).expect("a board"));
    let winner = if selector / 5 % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let positions = u64::from(u16::from_le_bytes([*low, *high]));
    let bytes = match selector / 10 % 7 {
        0 => file(&root, winner, positions, stream),
        settle => file_v3(&root, winner, settle - 1, positions, stream),
    };
    if let Ok(report) = breakthrough_proof::verify_file(&bytes) {
        assert_eq!(report.reports[0].winner, Color::Black, "a false proof held");
    }
});
