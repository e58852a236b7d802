//! The result of a solve: what `breakthrough solve --json` prints and a campaign's
//! `result.json` holds, as serde types with a JSON Schema.
//!
//! Every writer and reader of a result goes through [`SolveResult`], so that a
//! renamed field is a compile error rather than a silent gap. Older result files
//! lack some newer fields: those are `Option` or defaulted.
//!
//! ```
//! use breakthrough_result::SolveResult;
//!
//! let text = std::fs::read_to_string(concat!(
//!     env!("CARGO_MANIFEST_DIR"),
//!     "/../../results/4x4.json"
//! ))
//! .unwrap();
//! let result = SolveResult::from_json(&text).unwrap();
//! assert_eq!(result.board, "4x4");
//! assert!(result.solver.race_rules);
//! ```

#![forbid(unsafe_code)]

mod campaign;
pub mod directory;
mod numbers;
mod proof;
mod solve;
mod stats;
mod terms;
mod verify;

pub use campaign::{
    CampaignProgress, CampaignSettings, CampaignStatus, DagCounts, DepthCount, FirstMove,
    PartSizes, ProgressSample, RestoreRecord, Run,
};
pub use numbers::{Infinity, ProofNumber};
pub use proof::{CampaignProof, CertificateSummary, Claim, PartSummary, ProofSummary};
pub use solve::{
    FoundLengthSearch, LengthSearch, PartialLengthSearch, Probe, RootMove, SearchSettings,
    SolveResult, Solver, Unanswered, PROOF_UNFINISHED,
};
pub use stats::{RaceRuleCounts, Sample, SearchStats, Stats, TableStats};
pub use terms::{LineKind, Outcome, Side, Status};
pub use verify::{CampaignCheck, VerifiedPart, VerifyResult};

/// The JSON Schema of [`SolveResult`], as `breakthrough schema` prints it.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(SolveResult)
}

/// The JSON Schema of [`VerifyResult`], as `breakthrough schema --verify` prints it.
pub fn verify_schema() -> schemars::Schema {
    schemars::schema_for!(VerifyResult)
}
