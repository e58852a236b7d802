//! `breakthrough campaign`: long solves that survive interruption (run, status,
//! snapshot, restore).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use breakthrough_campaign::snapshot::{restore, Snapshot};
use breakthrough_campaign::{
    Campaign, CampaignError, Checkpoint, Figures, RunOptions, RunOutcome, Settled, Spec,
    DEFAULT_EXPORT_MIN, DEFAULT_JOB_NODES,
};
use breakthrough_cli::svg::{plot, svg_start, Frame};
use breakthrough_cli::text::human;
use breakthrough_engine::Position;
use breakthrough_result::{
    CampaignProof, CampaignSettings, CampaignStatus, DagCounts, ProofNumber, ProofSummary,
    RestoreRecord, RootMove, Run, Sample, SolveResult, Solver, Stats, Status,
};
use breakthrough_solver::race_rules::DEFAULT_RACE_MOVES;
use clap::{Args, Subcommand};

use super::campaign_progress;
use crate::args::PositionArgs;
use breakthrough_cli::progress;
use breakthrough_cli::solve_result::{outcome, proof_number, side, verdict_text};
use breakthrough_cli::{campaign_error, system, InputError};

/// Long solves kept in a directory: stop them (Ctrl-C, SIGTERM, --time-limit, even
/// kill -9) and the same command continues them. For boards whose solve takes longer
/// than one sitting or needs more than one table's memory; `solve` is simpler and a
/// little faster for the rest.
#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    Run(RunArgs),
    Status(StatusArgs),
    Snapshot(SnapshotArgs),
    Restore(RestoreArgs),
}

/// Start a campaign in DIR, or continue the one there.
///
/// A master proof-number DAG over the top of the game hands its most-proving leaves
/// to worker threads as jobs (a df-pn search with a node budget, over one shared
/// table); every position a job settles is stored with its proof in DIR, and the
/// master's DAG is checkpointed every --checkpoint-every seconds and when the run
/// stops. When the root is solved, DIR holds result.json and the certificate
/// (`breakthrough verify DIR`).
///
/// Threads, table size and time limit may change between runs; the position, the
/// rules and the job size may not (a DIR of another campaign is refused, exit 2).
///
/// Exit code 0 when solved, 3 when stopped (run the same command to continue), 2 for
/// bad input or a damaged campaign file, 1 for other failures.
///
/// On a cluster: built with `--features mpi` (scripts/install-mpi.sh) and started
/// by `mpirun -n N` or `srun`, rank 0 is the master and every other rank a worker
/// with --threads threads and a --tt-mb table of its own; the same command continues
/// with any number of ranks, or without MPI (docs/campaigns.md).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The campaign's directory (created if missing).
    pub dir: PathBuf,

    #[command(flatten)]
    pub target: PositionArgs,

    /// Worker threads [default: all cores]. Over MPI: per worker rank.
    #[arg(long, short = 't', value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Threads per job: the threads run a job each by default; with --team T, they
    /// run threads/T jobs at a time, each searched by T threads that share the
    /// table and steer apart near the job's root as `solve`'s threads do (fewer
    /// jobs at once, each on more threads). Must divide --threads. Not over MPI.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub team: u32,

    /// Table size in MiB, shared by the workers [default: as for `solve`]. Over MPI:
    /// per worker rank (give it when several ranks share a machine).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub tt_mb: Option<u64>,

    /// End this run after this many seconds (exit 3; the same command continues).
    /// Jobs writing the parts of positions they settled get up to 30 s more.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,

    /// Write the master's checkpoint this often, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 300.0)]
    pub checkpoint_every: f64,

    /// Nodes per job [default: the campaign's latest run's; 200000 for a new
    /// campaign]. May change between runs, and stays for the runs after.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(100..))]
    pub job_nodes: Option<u64>,

    /// A job's proof (its part) also proves, on the way, the positions below its
    /// root; those whose proofs in it expand at least N positions are stored too,
    /// so that later parts refer to them instead of proving them again (0: none).
    /// May change between runs.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXPORT_MIN)]
    pub export_min: u64,

    /// Settle positions without writing their proofs, for a run whose directory
    /// will not outlive it (a machine lent for one session, whose parts a snapshot
    /// does not keep): such a leaf stays solved but unproven, as a restore keeps
    /// them, and once the root is solved the run proves those its proof takes as
    /// given, writing proofs from then on. Jobs spend no time writing proofs, but
    /// store nothing for later jobs to meet. May change between runs; ignored once
    /// the root has been solved.
    #[arg(long)]
    pub defer_proofs: bool,

    /// Turn the race rules off (fixed when the campaign starts).
    #[arg(long, alias = "no-patterns")]
    pub no_race_rules: bool,

    /// Longest race win the rules look for [default: the campaign's latest run's;
    /// 4 for a new campaign, on every board, as solve's longer default from 36
    /// squares up was measured on single solves, not on jobs budgeted in nodes,
    /// each about 3 times dearer with it]. May change between runs (a race win of
    /// any length is a proof), and stays for the runs after; give --job-nodes with
    /// it to keep the jobs' length in time.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=6))]
    pub race_moves: Option<u32>,

    /// Print the result (result.json's object) on stdout instead of a summary.
    #[arg(long)]
    pub json: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Benchmark of the master: the workers answer every job at once with made-up
    /// open numbers (never a result), so that the run measures how many jobs per
    /// second the master hands out and takes in. Only for a DIR that does not exist.
    #[arg(long, hide = true)]
    pub echo_jobs: bool,
}

/// Show a campaign: its position, runs, totals and the root's numbers; also writes
/// DIR/numbers.svg, the root's numbers over time across all runs. Reads only the
/// last checkpoint, so it works while a run is going on.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The campaign's directory.
    pub dir: PathBuf,

    /// Print one JSON object on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// Keep a campaign in one small file: its settings and the master's DAG, compressed
/// (a few MiB where the directory holds gigabytes of proofs), so that it outlives
/// its machine; `campaign restore` makes a campaign directory from it. Reads only
/// the last checkpoint, so it works while a run is going on.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// The campaign's directory.
    pub dir: PathBuf,

    /// The snapshot to write (replaced if it exists).
    pub file: PathBuf,
}

/// Make a new campaign directory from a snapshot (`campaign snapshot`), to go on
/// where the snapshot's campaign was.
///
/// The snapshot keeps the master's DAG, not the store or the proofs (the parts), so
/// the DAG's solved leaves stay solved but unproven: the runs go on where the
/// snapshot's campaign was, and once the root is solved they prove again the
/// unproven leaves its proof takes as given (the certificate needs their proofs).
/// Continue with `campaign run DIR` and the campaign's position and settings
/// (`campaign status DIR` shows them). Exit code 2 when DIR exists and is not
/// empty, or the snapshot is damaged.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The snapshot.
    pub file: PathBuf,

    /// The new campaign's directory: missing or empty.
    pub dir: PathBuf,
}

pub fn run(command: CampaignCommand) -> anyhow::Result<ExitCode> {
    match command {
        CampaignCommand::Run(args) => run_campaign(args),
        CampaignCommand::Status(args) => status(args),
        CampaignCommand::Snapshot(args) => snapshot(args),
        CampaignCommand::Restore(args) => restore_campaign(args),
    }
}

fn seconds_arg(flag: &str, secs: f64) -> Result<Duration, InputError> {
    if !(secs.is_finite() && secs > 0.0) {
        return Err(InputError(anyhow::anyhow!(
            "{flag} must be a positive number of seconds, not {secs}"
        )));
    }
    Duration::try_from_secs_f64(secs)
        .map_err(|_| InputError(anyhow::anyhow!("{flag} {secs} is too large")))
}

fn run_campaign(args: RunArgs) -> anyhow::Result<ExitCode> {
    let (_, position) = args.target.resolve()?;
    let time_limit = args
        .time_limit
        .map(|s| seconds_arg("--time-limit", s))
        .transpose()?;
    let checkpoint_every = seconds_arg("--checkpoint-every", args.checkpoint_every)?;
    if position.winner().is_some() {
        return Err(InputError(anyhow::anyhow!("the game is already over at {position}")).into());
    }
    // The settings that may change between runs default to the campaign's own; a
    // campaign.json that cannot be read is reported when the campaign is opened.
    let existing = Spec::read(&args.dir).ok().flatten();
    let spec = Spec::new(
        &position,
        !args.no_race_rules,
        args.race_moves
            .or(existing.as_ref().map(|spec| spec.race_moves))
            .unwrap_or(DEFAULT_RACE_MOVES),
        4,
        args.job_nodes
            .or(existing.as_ref().map(|spec| spec.job_nodes))
            .unwrap_or(DEFAULT_JOB_NODES),
    );
    let table_mb = args.tt_mb.map_or_else(
        || system::default_table_mb(position.board(), false),
        |mb| mb as usize,
    );
    if let (Some(mb), Some(available)) = (args.tt_mb, system::available_memory_mb()) {
        if mb > available {
            return Err(InputError(anyhow::anyhow!(
                "--tt-mb {mb} is more than the memory available now ({available} MiB)"
            ))
            .into());
        }
    }
    let threads = args.threads.map_or_else(system::cores, |n| n as usize);
    let team = args.team as usize;
    if !threads.is_multiple_of(team) {
        return Err(InputError(anyhow::anyhow!(
            "--team {team} does not divide the {threads} threads: give --threads a multiple of it"
        ))
        .into());
    }
    let options = RunOptions {
        threads,
        team,
        table_mb,
        time_limit,
        checkpoint_every,
        stop: Arc::new(AtomicBool::new(false)),
        hurry: Arc::new(AtomicBool::new(false)),
        echo_jobs: args.echo_jobs,
        export_min: args.export_min,
        defer_proofs: args.defer_proofs,
    };
    if args.echo_jobs && args.dir.exists() {
        return Err(InputError(anyhow::anyhow!(
            "--echo-jobs fills a campaign with made-up numbers: give a DIR that does not exist, not {}",
            args.dir.display()
        ))
        .into());
    }
    match breakthrough_campaign::launcher_ranks() {
        Some(ranks) if ranks > 1 && team > 1 => Err(InputError(anyhow::anyhow!(
            "--team is for a run in one process: over MPI ({ranks} ranks), each rank runs one \
             job per thread"
        ))
        .into()),
        #[cfg(feature = "mpi")]
        Some(ranks) => super::campaign_mpi::run(
            &args.dir,
            &spec,
            options,
            ranks,
            |campaign, options, runner| drive(&args, &position, campaign, options, runner),
        ),
        #[cfg(not(feature = "mpi"))]
        Some(ranks) if ranks != 1 => Err(InputError(anyhow::anyhow!(
            "started by an MPI launcher ({ranks} ranks), but this binary was built without MPI: \
             build it with scripts/install-mpi.sh (cargo build --release --features mpi)"
        ))
        .into()),
        _ => {
            let campaign = Campaign::open(&args.dir, &spec).map_err(campaign_error)?;
            drive(
                &args,
                &position,
                campaign,
                options,
                |campaign, options, observer| campaign.run(options, observer),
            )
        }
    }
}

/// The master's side of a run, local or over MPI: a solved campaign's answer, or
/// the run (`runner`) with its progress and its result written.
fn drive(
    args: &RunArgs,
    position: &Position,
    mut campaign: Campaign,
    options: RunOptions,
    runner: impl FnOnce(
        &mut Campaign,
        &RunOptions,
        &mut dyn FnMut(&Figures),
    ) -> Result<RunOutcome, CampaignError>,
) -> anyhow::Result<ExitCode> {
    let position = *position;
    let result_path = args.dir.join("result.json");
    if campaign.checkpoint().dag.root().is_solved() && result_path.exists() {
        // Nothing left to do: the result stands as its runs left it.
        print_solved_already(args, &campaign, &result_path)?;
        return Ok(ExitCode::SUCCESS);
    }
    if options.defer_proofs && campaign.root_was_solved() {
        eprintln!(
            "--defer-proofs ignored: the root has been solved, and its proof needs the \
             proofs of the leaves it takes as given"
        );
    }
    stop_on_ctrl_c(&options)?;
    let bar = progress::spinner(args.quiet);
    let mut last = None;
    let outcome = runner(&mut campaign, &options, &mut |f: &Figures| {
        last = Some(f.clone());
        bar.set_message(progress_message(f));
    })
    .map_err(campaign_error)?;
    bar.finish_and_clear();
    if let Some(f) = &last {
        print_run_figures(f, &campaign);
    }
    if let Some(err) = &campaign.warm_error {
        eprintln!("warning: the table was not kept for the next run: {err}");
    }
    match outcome {
        RunOutcome::Solved(settled) => {
            report_solved(args, &campaign, &position, &settled, &options)?;
            Ok(ExitCode::SUCCESS)
        }
        RunOutcome::Stopped(_) | RunOutcome::Crashed => {
            report_stopped(args, &campaign)?;
            Ok(ExitCode::from(3))
        }
    }
}

/// Prints the result a solved campaign's runs left at `result_path`.
fn print_solved_already(
    args: &RunArgs,
    campaign: &Campaign,
    result_path: &Path,
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(result_path)
        .with_context(|| format!("cannot read {}", result_path.display()))?;
    if args.json {
        outln!("{}", text.trim_end());
    } else {
        let result = SolveResult::from_json(&text)
            .with_context(|| format!("{} is damaged", result_path.display()))?;
        outln!(
            "result     {} (solved already; see {})",
            result.verdict,
            result_path.display()
        );
        print_totals(campaign.checkpoint());
    }
    Ok(())
}

/// Makes Ctrl-C and SIGTERM end the run cleanly: searches stopped, parts being
/// written finished (within PROOF_GRACE), checkpoint written. A second one gives up
/// the parts being written.
fn stop_on_ctrl_c(options: &RunOptions) -> anyhow::Result<()> {
    let (stop, hurry) = (Arc::clone(&options.stop), Arc::clone(&options.hurry));
    ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::Relaxed) {
            hurry.store(true, Ordering::Relaxed);
            eprintln!("stopping at once: the parts being written are given up");
        } else {
            eprintln!("stopping: jobs that settled their position write its part (up to {} s; Ctrl-C again to give them up)", breakthrough_campaign::PROOF_GRACE.as_secs());
        }
    })
    .context("cannot install the Ctrl-C handler")
}

/// The progress bar's line: the campaign's nodes, jobs, store, DAG and root.
fn progress_message(f: &Figures) -> String {
    format!(
        "{} nodes, {} jobs ({} in flight), {} stored, DAG {} nodes, root pn {} dn {}",
        human(f.nodes as f64),
        f.jobs,
        f.in_flight,
        f.stored,
        f.dag_nodes,
        f.root.0,
        f.root.1
    )
}

/// Of the unproven leaves, those the solved root's proof takes as given (`None`
/// while the root is open or none is unproven, or where the DAG cannot say).
fn unproven_given(checkpoint: &Checkpoint) -> Option<u64> {
    if checkpoint.unproven.is_empty() {
        return None;
    }
    breakthrough_campaign::certificate::unproven_given(checkpoint)
        .ok()
        .flatten()
}

/// The figures of the run that ended, on stderr.
fn print_run_figures(f: &Figures, campaign: &Campaign) {
    let deferred = if f.run_deferred > 0 {
        format!(", {} leaves settled without their proofs", f.run_deferred)
    } else {
        String::new()
    };
    let unproven = if f.unproven > 0 || f.run_queued > 0 || f.run_reopened > 0 {
        format!(
            "{deferred}, {} unproven leaves queued to be proven for the root's proof, {} of them opened again (another winner, or too hard for one job), {} unproven left",
            f.run_queued, f.run_reopened, f.unproven
        )
    } else {
        deferred
    };
    eprintln!(
        "this run: {:.1} s, {} nodes ({} writing proofs), {} jobs, {} positions from the store, {} stored positions met by jobs and {} referred to by their proofs, {} positions proven inside parts stored ({} DAG leaves settled so), {} table entries from the last stop{unproven}",
        f.run_seconds, f.run_nodes, f.run_proof_nodes, f.run_jobs, f.store_hits, f.run_proven_hits, f.run_given, f.run_exported, f.run_exported_leaves, campaign.warm_entries
    );
}

/// Writes the solved campaign's result.json, and prints it or a summary.
fn report_solved(
    args: &RunArgs,
    campaign: &Campaign,
    position: &Position,
    settled: &Settled,
    options: &RunOptions,
) -> anyhow::Result<()> {
    let result = result_json(campaign, position, settled, options);
    let text = serde_json::to_string_pretty(&result)?;
    breakthrough_cli::write_atomically(&args.dir.join("result.json"), text.as_bytes())?;
    if args.json {
        outln!("{text}");
    } else {
        outln!("result     {}", verdict_text(position, settled.winner));
        print_totals(campaign.checkpoint());
        outln!(
            "certificate {}: top of {} positions and {} parts, {} bytes (breakthrough verify {})",
            args.dir.join("certificate.json").display(),
            settled.top_positions,
            settled.parts,
            settled.certificate_bytes,
            args.dir.display()
        );
    }
    Ok(())
}

/// Says the run stopped with its checkpoint written, and prints the status or the
/// totals.
fn report_stopped(args: &RunArgs, campaign: &Campaign) -> anyhow::Result<()> {
    let checkpoint = campaign.checkpoint();
    eprintln!(
        "stopped ({}); the checkpoint is written: run the same command to continue",
        checkpoint.runs.last().map_or("stopped", |r| r.end.name())
    );
    if args.json {
        let status = status_json(campaign.spec(), checkpoint);
        outln!("{}", serde_json::to_string_pretty(&status)?);
    } else {
        print_totals(checkpoint);
    }
    Ok(())
}

fn print_totals(checkpoint: &Checkpoint) {
    let (seconds, nodes, jobs) = checkpoint.totals();
    let root = checkpoint.dag.root();
    let (leaves, in_flight, expanded, solved) = checkpoint.dag.counts();
    outln!(
        "runs       {}: {:.1} s, {} nodes ({} nodes/s), {jobs} jobs",
        checkpoint.runs.len(),
        seconds,
        nodes,
        human(nodes as f64 / seconds.max(1e-9))
    );
    outln!(
        "master     {} DAG nodes ({expanded} expanded, {leaves} leaves, {solved} solved; {:.1} MiB), {} in flight at the checkpoint",
        checkpoint.dag.len(),
        checkpoint.dag.memory_bytes() as f64 / (1 << 20) as f64,
        in_flight.max(checkpoint.in_flight as usize)
    );
    outln!("store      {} solved positions", checkpoint.stored);
    if !checkpoint.unproven.is_empty() {
        outln!(
            "unproven   {} solved leaves without their proofs (kept by a restore or settled by a run that deferred them; proven again where the root's proof needs them)",
            checkpoint.unproven.len()
        );
    }
    if let Some(given) = unproven_given(checkpoint) {
        outln!(
            "to prove   {given} of them: the unproven leaves the root's proof takes as given, each proven by a job of its own before the certificate"
        );
    }
    outln!(
        "root       proof number {}, disproof number {}",
        root.phi,
        root.delta
    );
}

fn runs(checkpoint: &Checkpoint) -> Vec<Run> {
    checkpoint
        .runs
        .iter()
        .map(|r| Run {
            started_unix: r.started_unix,
            seconds: r.seconds,
            nodes: r.nodes,
            jobs: r.jobs,
            threads: u64::from(r.threads),
            table_mb: r.table_mb,
            end: r.end.name().to_string(),
            team: r.team.map(u64::from),
            race_moves: r.settings.map(|s| u64::from(s.race_moves)),
            job_nodes: r.settings.map(|s| s.job_nodes),
            defer_proofs: r.settings.map(|s| s.defer_proofs),
        })
        .collect()
}

fn course(checkpoint: &Checkpoint) -> Vec<Sample> {
    checkpoint
        .history
        .iter()
        .map(|s| Sample {
            seconds: s.seconds,
            nodes: s.nodes,
            root_proof: proof_number(s.phi),
            root_disproof: proof_number(s.delta),
        })
        .collect()
}

/// The campaign's figures (what `campaign status --json` prints).
fn status_json(spec: &Spec, checkpoint: &Checkpoint) -> CampaignStatus {
    let (seconds, nodes, jobs) = checkpoint.totals();
    let root = checkpoint.dag.root();
    let (leaves, in_flight, expanded, solved) = checkpoint.dag.counts();
    let to_prove = unproven_given(checkpoint);
    CampaignStatus {
        board: spec.board.clone(),
        position: spec.position.clone(),
        // A root whose proof still takes unproven leaves as given has no proof yet.
        status: match root.wins() {
            Some(_) if to_prove.is_none_or(|n| n == 0) => Status::Solved,
            _ => Status::Unknown,
        },
        runs: runs(checkpoint),
        restores: checkpoint
            .restores
            .iter()
            .map(|r| RestoreRecord {
                after_runs: u64::from(r.after_runs),
                reopened: r.reopened,
                kept: r.kept,
            })
            .collect(),
        seconds,
        nodes,
        jobs,
        jobs_in_flight: in_flight.max(checkpoint.in_flight as usize) as u64,
        stored: checkpoint.stored,
        dag: DagCounts {
            nodes: checkpoint.dag.len() as u64,
            expanded: expanded as u64,
            leaves: leaves as u64,
            solved: solved as u64,
            unproven: checkpoint.unproven.len() as u64,
            unproven_given: to_prove,
            bytes: checkpoint.dag.memory_bytes() as u64,
        },
        root_proof: proof_number(root.phi),
        root_disproof: proof_number(root.delta),
        settings: CampaignSettings {
            race_rules: spec.race_rules,
            race_moves: spec.race_moves,
            epsilon: 1.0 / f64::from(spec.inverse_epsilon),
            job_nodes: spec.job_nodes,
        },
        course: course(checkpoint),
        progress: Some(campaign_progress::progress(checkpoint, None)),
        svg: None,
        store_bytes: None,
    }
}

/// result.json: a solve's result, with the campaign's figures.
fn result_json(
    campaign: &Campaign,
    position: &Position,
    settled: &Settled,
    options: &RunOptions,
) -> SolveResult {
    let checkpoint = campaign.checkpoint();
    let spec = campaign.spec();
    let (seconds, nodes, _) = checkpoint.totals();
    let root_moves = settled
        .root_moves
        .iter()
        .map(|&(step, wins)| RootMove {
            mv: position.to_move_text(step).to_string(),
            outcome: outcome(wins),
            length: None,
        })
        .collect();
    SolveResult {
        board: spec.board.clone(),
        position: spec.position.clone(),
        to_move: side(position.to_move()),
        winner: Some(side(settled.winner)),
        best_move: settled
            .best_move
            .map(|step| position.to_move_text(step).to_string()),
        status: Status::Solved,
        stopped_by: None,
        verdict: verdict_text(position, settled.winner),
        root_moves,
        principal_variation: None,
        principal_variation_kind: None,
        length: None,
        length_search: None,
        proof: Some(ProofSummary::Campaign(CampaignProof {
            file: "certificate.json".to_string(),
            format: "campaign".to_string(),
            bytes: settled.certificate_bytes,
            positions: settled.top_positions,
            parts: settled.parts as u64,
        })),
        stats: Stats {
            nodes,
            seconds,
            wall_seconds: seconds,
            nodes_per_second: nodes as f64 / seconds.max(1e-9),
            threads: options.threads as u64,
            search: None,
            root_proof: ProofNumber::Finite(0),
            root_disproof: ProofNumber::INFINITE,
            peak_memory_mb: system::peak_memory_mb(),
            course: course(checkpoint),
        },
        solver: Solver {
            algorithm: "campaign".to_string(),
            race_rules: spec.race_rules,
            race_moves: spec.race_rules.then_some(spec.race_moves),
            epsilon: 1.0 / f64::from(spec.inverse_epsilon),
            search: None,
            table_mb: options.table_mb as u64,
            threads: options.threads as u64,
            job_nodes: Some(spec.job_nodes),
            version: env!("CARGO_PKG_VERSION").to_string(),
        },
        campaign: Some(status_json(spec, checkpoint)),
        machine: system::machine(),
    }
}

fn status(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let spec = Spec::read(&args.dir)
        .map_err(campaign_error)?
        .ok_or_else(|| {
            InputError(anyhow::anyhow!(
                "{}: no campaign here (no campaign.json)",
                args.dir.display()
            ))
        })?;
    let position = spec
        .position()
        .map_err(|why| InputError(anyhow::anyhow!(why)))?;
    let checkpoint = Checkpoint::read(&args.dir, position.board())
        .map_err(campaign_error)?
        .ok_or_else(|| {
            InputError(anyhow::anyhow!(
                "{}: the campaign has no checkpoint yet",
                args.dir.display()
            ))
        })?;
    let svg_path = args.dir.join("numbers.svg");
    std::fs::write(&svg_path, numbers_svg(&spec, &checkpoint)?)
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    let stored_bytes = breakthrough_campaign::store::disk_bytes(&args.dir);
    if args.json {
        let mut object = status_json(&spec, &checkpoint);
        object.svg = Some("numbers.svg".to_string());
        object.store_bytes = Some(stored_bytes);
        if let Some(progress) = object.progress.as_mut() {
            progress.parts = Some(campaign_progress::parts(&args.dir));
        }
        outln!("{}", serde_json::to_string_pretty(&object)?);
    } else {
        outln!("board      {}", spec.board);
        outln!("position   {}", spec.position);
        for (i, run) in checkpoint.runs.iter().enumerate() {
            print_restores(&checkpoint, i);
            let teams = match run.team {
                Some(team) if team > 1 => format!(" in teams of {team}"),
                _ => String::new(),
            };
            let settings = run.settings.map_or_else(String::new, |s| {
                let deferred = if s.defer_proofs {
                    ", proofs deferred"
                } else {
                    ""
                };
                let races = match s.race_moves {
                    0 => "no race rules".to_string(),
                    k => format!("{k}-move races"),
                };
                format!(" ({races}, {}-node jobs{deferred})", s.job_nodes)
            });
            outln!(
                "run {:<6} {:.1} s, {} nodes, {} jobs, {} threads{teams}, {} MiB table{settings}: {}",
                i + 1,
                run.seconds,
                run.nodes,
                run.jobs,
                run.threads,
                run.table_mb,
                run.end.name()
            );
        }
        print_restores(&checkpoint, checkpoint.runs.len());
        print_totals(&checkpoint);
        campaign_progress::print(&campaign_progress::progress(&checkpoint, Some(&args.dir)));
        outln!(
            "on disk    {:.1} MiB (the store and the certificate parts)",
            stored_bytes as f64 / (1 << 20) as f64
        );
        outln!("plot       {}", svg_path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The restores made after `runs` runs, one line each.
fn print_restores(checkpoint: &Checkpoint, runs: usize) {
    for restore in checkpoint
        .restores
        .iter()
        .filter(|r| r.after_runs as usize == runs)
    {
        if restore.kept > 0 || restore.reopened == 0 {
            outln!(
                "restored   from a snapshot: {} solved leaves kept without their proofs, proven again where the root's proof needs them",
                restore.kept
            );
        } else {
            outln!(
                "restored   from a snapshot: {} solved leaves opened again, to be proven again",
                restore.reopened
            );
        }
    }
}

fn snapshot(args: SnapshotArgs) -> anyhow::Result<ExitCode> {
    let snapshot = Snapshot::of(&args.dir).map_err(campaign_error)?;
    // A snapshot kept in the campaign's own directory could replace one of its
    // files, and goes wherever the directory goes.
    let folder = match args.file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if let (Ok(folder), Ok(dir)) = (folder.canonicalize(), args.dir.canonicalize()) {
        if folder.starts_with(&dir) {
            return Err(InputError(anyhow::anyhow!(
                "{} is inside the campaign's directory: write the snapshot elsewhere",
                args.file.display()
            ))
            .into());
        }
    }
    let bytes = snapshot.write(&args.file).map_err(campaign_error)?;
    let checkpoint = &snapshot.checkpoint;
    let (seconds, nodes, _) = checkpoint.totals();
    let (_, _, _, solved) = checkpoint.dag.counts();
    outln!(
        "snapshot   {}: {} bytes, DAG of {} nodes ({solved} solved), {} runs ({:.1} s, {} nodes)",
        args.file.display(),
        bytes,
        checkpoint.dag.len(),
        checkpoint.runs.len(),
        seconds,
        nodes
    );
    Ok(ExitCode::SUCCESS)
}

fn restore_campaign(args: RestoreArgs) -> anyhow::Result<ExitCode> {
    let snapshot = Snapshot::read(&args.file).map_err(campaign_error)?;
    let spec = snapshot.spec.clone();
    let checkpoint = restore(snapshot, &args.dir).map_err(campaign_error)?;
    let kept = checkpoint.restores.last().map_or(0, |r| r.kept);
    outln!(
        "restored   {} from {}: {} runs, DAG of {} nodes, {kept} solved leaves kept without their proofs",
        args.dir.display(),
        args.file.display(),
        checkpoint.runs.len(),
        checkpoint.dag.len()
    );
    outln!("position   {}", spec.position);
    outln!(
        "continue   breakthrough campaign run {} {}{}",
        args.dir.display(),
        spec.board,
        run_flags(&spec)
    );
    Ok(ExitCode::SUCCESS)
}

/// The `campaign run` flags that give a campaign's position and fixed settings,
/// where they are not the defaults (the others default to campaign.json's).
fn run_flags(spec: &Spec) -> String {
    let mut flags = String::new();
    let start = spec
        .position()
        .map(|p| Position::start(p.board()).to_string());
    if start.as_deref() != Ok(spec.position.as_str()) {
        flags.push_str(&format!(" --position '{}'", spec.position));
    }
    if !spec.race_rules {
        flags.push_str(" --no-race-rules");
    }
    flags
}

/// The root's numbers over the campaign's time, all runs.
fn numbers_svg(spec: &Spec, checkpoint: &Checkpoint) -> anyhow::Result<String> {
    let (width, height) = (800.0, 300.0);
    let mut svg = svg_start(width, height)?;
    writeln!(
        svg,
        r#"<text x="20" y="24" font-size="15">Campaign {} ({} runs)</text>"#,
        spec.board,
        checkpoint.runs.len()
    )?;
    let title =
        "Root proof number (red) and disproof number (blue) against campaign seconds, log scale";
    let frame = Frame {
        title,
        top: 60.0,
        height: 180.0,
        width,
    };
    plot(&mut svg, &course(checkpoint), frame)?;
    writeln!(svg, "</svg>")?;
    Ok(svg)
}
