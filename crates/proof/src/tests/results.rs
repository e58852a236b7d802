//! The project's published certificates (`results/*.cert`) still verify.

use std::path::PathBuf;

use crate::verify_file;

/// The results' certificates.
fn certificates() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the results directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cert"))
        .collect();
    files.sort();
    files
}

fn verifies(path: &PathBuf) {
    let started = std::time::Instant::now();
    let bytes = std::fs::read(path).expect("readable");
    if let Err(err) = verify_file(&bytes) {
        panic!("{}: {err}", path.display());
    }
    eprintln!(
        "{}: {:.2} s",
        path.display(),
        started.elapsed().as_secs_f64()
    );
}

/// Every certificate here, 7x5's and its length's included: about 100 s in all
/// on the 2-core machine.
#[test]
fn the_published_certificates_verify() {
    let files = certificates();
    assert!(files.len() >= 14, "{files:?}");
    files.iter().for_each(verifies);
}

/// Certificates written by this program before version 3 (a plain win in version
/// 1, a length in version 2) still verify, with the figures they verified with
/// then, and a tampered copy of each still fails.
#[test]
fn certificates_of_the_older_versions_still_verify() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/tests/legacy");
    for (name, version, length, positions) in [
        ("3x5-v1.cert", 1, None, vec![7_883]),
        ("5x4-length-v2.cert", 2, Some(16), vec![4_737, 219]),
    ] {
        let bytes = std::fs::read(dir.join(name)).expect("readable");
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), version, "{name}");
        let report = verify_file(&bytes).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(report.length, length, "{name}");
        let counts: Vec<u64> = report.reports.iter().map(|r| r.positions).collect();
        assert_eq!(counts, positions, "{name}");
        let parts = crate::read_parts(&bytes).unwrap();
        let claimed = parts[0].with_claimed_winner(parts[0].winner().opponent());
        assert!(claimed.verify().is_err(), "{name}");
    }
}
