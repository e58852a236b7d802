//! `mpirun -n N breakthrough campaign run ...` (the `mpi` feature): rank 0 is the
//! campaign's master, every other rank a worker (see `breakthrough_campaign::mpi`).

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;

use breakthrough_campaign::mpi::{
    initialize, serve, Communicator as _, MpiMaster, SimpleCommunicator,
};
use breakthrough_campaign::{Campaign, CampaignError, Figures, RunOptions, RunOutcome, Spec};
use breakthrough_cli::{campaign_error as reported, InputError};

/// How a run goes: over MPI, or in this process.
pub type Runner<'a> = Box<
    dyn FnOnce(
            &mut Campaign,
            &RunOptions,
            &mut dyn FnMut(&Figures),
        ) -> Result<RunOutcome, CampaignError>
        + 'a,
>;

/// Runs the campaign in `dir` on this rank: a worker's part, or the master's, which
/// `drive` carries out (the command line's progress and results) with a runner.
pub fn run(
    dir: &Path,
    spec: &Spec,
    mut options: RunOptions,
    launched_ranks: usize,
    drive: impl FnOnce(Campaign, RunOptions, Runner<'_>) -> anyhow::Result<ExitCode>,
) -> anyhow::Result<ExitCode> {
    let universe = initialize().map_err(reported)?;
    let world = universe.world();
    if world.rank() != 0 {
        // A worker: its threads and table are its own; only rank 0 prints. It ends
        // when the master says so: a SIGTERM to every task (Slurm's scancel, or its
        // signal before the wall time) reaches the master too, which then stops the
        // jobs, takes in what they finished and writes its checkpoint.
        ctrlc::set_handler(|| {}).context("cannot install the SIGTERM handler")?;
        serve(&world, options.threads, options.table_mb).map_err(reported)?;
        return Ok(ExitCode::SUCCESS);
    }
    // (The launcher's count is read before MPI starts, which may set its own.)
    if launched_ranks > 1 && world.size() == 1 {
        return Err(InputError(anyhow::anyhow!(
            "launched as {launched_ranks} tasks, but MPI sees one: each would be its own \
             master; with srun, give --mpi=pmix (or your cluster's MPI plugin)"
        ))
        .into());
    }
    if world.size() == 1 {
        // One rank: the master and its worker threads in this process, as without MPI.
        let campaign = Campaign::open(dir, spec).map_err(reported)?;
        return drive(
            campaign,
            options,
            Box::new(|campaign, options, observer| campaign.run(options, observer)),
        );
    }
    let mut master = match MpiMaster::connect(&world) {
        Ok(master) => master,
        // Some ranks may not have said hello: only an abort ends them all.
        Err(err) => abort(&world, reported(err)),
    };
    // Dropped on an error before the first job, the master tells the workers to end.
    let campaign = Campaign::open(dir, spec).map_err(reported)?;
    let (ranks, threads, table_mb) = master.size();
    options.threads = threads;
    options.table_mb = table_mb as usize;
    eprintln!(
        "MPI: {ranks} worker ranks, {threads} worker threads, {table_mb} MiB of tables in all"
    );
    let started = std::time::Instant::now();
    let result = drive(
        campaign,
        options,
        Box::new(|campaign, options, observer| {
            master.begin(&campaign.worker_settings(options));
            campaign.run_over(&mut master, options, observer)
        }),
    );
    master.quit();
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let traffic = master.traffic;
    eprintln!(
        "MPI: the master sent {} messages ({} bytes; {} solved positions told to the worker ranks) and took in {} ({} bytes): {:.0} messages/s",
        traffic.sent,
        traffic.sent_bytes,
        traffic.news,
        traffic.received,
        traffic.received_bytes,
        (traffic.sent + traffic.received) as f64 / seconds
    );
    match result {
        Ok(code) => Ok(code),
        // Jobs may be in flight, their workers blocked sending large reports that
        // the master will not take: only an abort ends them all.
        Err(err) => abort(&world, err),
    }
}

/// Reports `err` as `main` would, then ends every rank of the job.
fn abort(world: &SimpleCommunicator, err: anyhow::Error) -> ! {
    eprintln!("error: {err:#}");
    let code = if err.downcast_ref::<InputError>().is_some() {
        2
    } else {
        1
    };
    world.abort(code)
}
