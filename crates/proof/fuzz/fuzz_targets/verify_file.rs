//! Any bytes: the file verifier refuses them with an error or reports a proof,
//! and never panics; a proof it accepts reads back the same once written again.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(report) = breakthrough_proof::verify_file(bytes) {
        let parts = breakthrough_proof::read_parts(bytes).expect("read once already");
        let again = breakthrough_proof::write_parts(&parts);
        let second = breakthrough_proof::verify_file(&again).expect("the same proof");
        assert_eq!(second.reports, report.reports);
    }
});
