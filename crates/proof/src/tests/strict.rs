//! The readers' strict rules, each with a crafted certificate that is refused: a
//! number in a longer form than it needs, bytes after a compressed stream, and a
//! bound on a claim that has none.

use super::{start, Prover, Tamper, MARKS};
use crate::verify::Problem;
use crate::{verify_file, Certificate, Claim, Encoding, FileError, FormatError, VerifyError};

fn proof() -> Certificate {
    Prover::prove(&start("3x4"), Tamper::None).0
}

/// A proof spelled as versions 1 and 2.
fn old_proof() -> Certificate {
    Prover::prove_with(&start("3x4"), Tamper::None, Encoding::Squares).0
}

/// The body's checksum written afresh, so that only the rule under test can refuse.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let checksum = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    bytes
}

#[test]
fn a_number_in_a_longer_form_is_refused() {
    let honest = proof();
    assert_eq!(honest.stream[0], 0, "the root is expanded");
    let mut crafted = honest.clone();
    // Tag 0 written in two bytes: the same number, a second spelling.
    crafted.stream.splice(0..1, [0x80, 0x00]);
    let err = crafted.verify().unwrap_err();
    assert!(
        matches!(
            &err,
            VerifyError::Invalid {
                problem: Problem::OverlongNumber,
                ..
            }
        ),
        "{err}"
    );
    let bytes = crafted.to_bytes();
    assert!(matches!(verify_file(&bytes), Err(FileError::Part { .. })));
}

#[test]
fn bytes_after_a_compressed_stream_are_refused() {
    // Version 1: the stream runs to the checksum; one byte more before it.
    let bytes = old_proof().to_bytes();
    assert_eq!(bytes[8], 1);
    let mut crafted = bytes.clone();
    crafted.insert(bytes.len() - 4, 0);
    let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
    assert!(
        matches!(&err, FormatError::Damaged(why) if why.contains("after its end")),
        "{err}"
    );
    // Versions 2 and 3: the part's compressed length (8 bytes at `at`) counts one
    // byte more than the stream.
    for (honest, version, at) in [
        (old_proof().with_claim(Claim::HoldsOut(1)), 2, 50),
        (proof(), 3, 51),
    ] {
        let bytes = honest.to_bytes();
        assert_eq!(bytes[8], version);
        let mut crafted = bytes.clone();
        crafted.insert(bytes.len() - 4, 0);
        let length = u64::from_le_bytes(crafted[at..at + 8].try_into().unwrap()) + 1;
        crafted[at..at + 8].copy_from_slice(&length.to_le_bytes());
        let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
        assert!(
            matches!(&err, FormatError::Damaged(why) if why.contains("after its end")),
            "{err}"
        );
        // A second stream after the first is no exception.
        let mut twice = bytes[..bytes.len() - 4].to_vec();
        let stream = twice[at + 8..].to_vec();
        twice.extend_from_slice(&stream);
        let doubled = u64::from_le_bytes(twice[at..at + 8].try_into().unwrap()) * 2;
        twice[at..at + 8].copy_from_slice(&doubled.to_le_bytes());
        twice.extend_from_slice(&[0; 4]);
        assert!(Certificate::from_bytes(&resealed(twice)).is_err());
    }
}

#[test]
fn more_plies_to_settle_than_the_format_allows_are_refused() {
    let bytes = Prover::prove_marking(&start("4x4"), Tamper::None)
        .0
        .to_bytes();
    assert!(Certificate::from_bytes(&bytes).is_ok());
    let Encoding::Indexed { settle_plies } = MARKS else {
        unreachable!()
    };
    // The part's header starts at offset 30; its fifth byte is the plies to settle.
    assert_eq!(bytes[34], settle_plies);
    for plies in [crate::MAX_SETTLE_PLIES as u8 + 1, 255] {
        let mut crafted = bytes.clone();
        crafted[34] = plies;
        let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
        assert!(
            matches!(&err, FormatError::Damaged(why) if why.contains("the format allows")),
            "{err}"
        );
    }
    // Fewer plies than the marks need: the file reads, and the proof fails.
    let mut crafted = bytes.clone();
    crafted[34] = 1;
    let read = Certificate::from_bytes(&resealed(crafted)).unwrap();
    assert!(matches!(
        read.verify(),
        Err(VerifyError::Invalid {
            problem: Problem::NotSettled(1),
            ..
        })
    ));
}

#[test]
fn a_bound_on_an_unbounded_claim_is_refused() {
    for claim in [Claim::Wins, Claim::WinsGiven] {
        let bytes = crate::write_parts(&[proof().with_claim(claim)]);
        assert!(Certificate::from_bytes(&bytes).is_ok(), "{claim:?}");
        let mut crafted = bytes.clone();
        // The first part's bound, two bytes at offset 2 of its header.
        crafted[32] = 5;
        let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
        assert!(
            matches!(&err, FormatError::Damaged(why) if why.contains("bound")),
            "{claim:?}: {err}"
        );
    }
}
