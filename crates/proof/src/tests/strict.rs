//! The readers' strict rules, each with a crafted certificate that is refused: a
//! number in a longer form than it needs, bytes after a compressed stream, and a
//! bound on a claim that has none.

use super::{start, Prover, Tamper};
use crate::verify::Problem;
use crate::{verify_file, Certificate, Claim, FileError, FormatError, VerifyError};

fn proof() -> Certificate {
    Prover::prove(&start("3x4"), Tamper::None).0
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
    let bytes = proof().to_bytes();
    let mut crafted = bytes.clone();
    crafted.insert(bytes.len() - 4, 0);
    let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
    assert!(
        matches!(&err, FormatError::Damaged(why) if why.contains("after its end")),
        "{err}"
    );
    // Version 2: the part's compressed length counts one byte more than the stream.
    let honest = proof().with_claim(Claim::HoldsOut(1));
    let bytes = honest.to_bytes();
    let mut crafted = bytes.clone();
    crafted.insert(bytes.len() - 4, 0);
    let length = u64::from_le_bytes(crafted[50..58].try_into().unwrap()) + 1;
    crafted[50..58].copy_from_slice(&length.to_le_bytes());
    let err = Certificate::from_bytes(&resealed(crafted)).unwrap_err();
    assert!(
        matches!(&err, FormatError::Damaged(why) if why.contains("after its end")),
        "{err}"
    );
    // A second stream after the first is no exception.
    let mut twice = bytes[..bytes.len() - 4].to_vec();
    let stream = twice[58..].to_vec();
    twice.extend_from_slice(&stream);
    let doubled = u64::from_le_bytes(twice[50..58].try_into().unwrap()) * 2;
    twice[50..58].copy_from_slice(&doubled.to_le_bytes());
    twice.extend_from_slice(&[0; 4]);
    assert!(Certificate::from_bytes(&resealed(twice)).is_err());
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
