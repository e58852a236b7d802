//! Campaigns: long solves of one position that survive interruption and outgrow one
//! table.
//!
//! A campaign lives in a directory ([`Campaign::open`]):
//!
//! - `campaign.json`: the position and the search's rules, fixed for its life;
//! - `master.ckpt`: the master's proof-number DAG over the top of the game, with the
//!   runs so far and the root's numbers over time ([`checkpoint`]), written
//!   crash-safely every few minutes and when a run stops;
//! - `store.redb`: every position a job proved or disproved ([`store`]), committed
//!   as it comes in, so that no run ever solves it again;
//! - `parts/`: each stored position's proof, written by its job while the table
//!   still held the search;
//! - `table.warm`: the costliest entries of the workers' table, saved at a clean
//!   stop for the next run ([`warm`]; only a cache);
//! - once solved, `top.cert` and `certificate.json`: the certificate ([`certificate`]).
//!
//! A snapshot ([`snapshot`]) keeps the settings and the DAG in one small file, from
//! which a campaign whose directory is lost starts again where it was, proving its
//! solved leaves again.
//!
//! **Job-level search.** The master keeps the DAG ([`dag`]) and hands its
//! most-proving free leaves to workers as jobs: a df-pn search of the leaf with a
//! node budget ([`job::run_job`]). A job that settles its leaf writes
//! the leaf's proof; one that runs out of budget reports the leaf's numbers and its
//! children's, and the master expands the leaf. Workers on one machine are threads
//! that share one table, kept between jobs ([`transport`]). Stored positions, once
//! committed, go to the workers too: a job takes them as settled, and its proof
//! refers to them ("wins given") instead of proving them again.
//!
//! **Crashes.** `kill -9` at any moment loses the jobs in flight and the master's
//! work since the last checkpoint; the store keeps every solved position, and the
//! next run starts from the checkpoint, taking from the store what it already holds.
//! The master takes a position for solved only from the store, whose every record
//! was committed after its job's proof (its part) was written in full; the final
//! word is the certificate, which `verify DIR` checks with the rules alone.

pub mod certificate;
pub mod checkpoint;
pub mod dag;
mod error;
pub mod job;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod proven;
pub mod run;
pub mod snapshot;
pub mod spec;
pub mod storage;
pub mod store;
pub mod top;
pub mod transport;
pub mod warm;
pub mod wire;

pub use checkpoint::{Checkpoint, Progress, Restore, RunEnd, RunRecord, RunSettings, Sample};
pub use error::CampaignError;
pub use job::{run_job, JobOptions, JobOutcome, JobReport};
pub use proven::{Proven, ProvenSlot};
pub use run::{Campaign, Figures, RunOptions, RunOutcome, Settled, PROOF_GRACE};
pub use spec::{Spec, DEFAULT_JOB_NODES};
pub use transport::DEFAULT_EXPORT_MIN;

/// The number of ranks when this process was started by an MPI launcher (`mpirun`,
/// `mpiexec`, Slurm's `srun`), read from the variables they set; `Some(0)` when the
/// launcher does not say how many. `None` when started on its own. A Slurm step of
/// several tasks counts even without MPI's variables (`srun --mpi=none`), so that
/// its tasks never run as several masters of one directory.
pub fn launcher_ranks() -> Option<usize> {
    for variable in ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"] {
        if let Ok(value) = std::env::var(variable) {
            return Some(value.trim().parse().unwrap_or(0));
        }
    }
    if std::env::var_os("PMIX_RANK").is_some() {
        return Some(0);
    }
    std::env::var("SLURM_STEP_NUM_TASKS")
        .ok()
        .and_then(|value| value.trim().parse().ok())
        .filter(|&tasks| tasks > 1)
}
