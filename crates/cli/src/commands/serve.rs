//! `breakthrough serve`: the explorer's page and JSON API (crate
//! breakthrough-explorer), or `--prepare` to fill its store ahead of time.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use breakthrough_cli::{system, InputError};
use breakthrough_engine::Board;
use breakthrough_explorer::solving::PoolSettings;
use breakthrough_explorer::{prepare, serve, ServeConfig};
use clap::Args;

/// Serve the explorer: a page and a JSON API of every move's value and length.
///
/// Open the address it prints in a browser: the board, every legal move best first
/// with its outcome and length (plies to the end under perfect play, the move
/// counted), the main line and the results table. The API is documented in
/// docs/api.md (GET /api/v1/position?board=5x5&position=...).
///
/// Answers come from a store kept between runs (--store), every one from a
/// completed solve; a position not stored is solved on demand by a pool of solver
/// threads, and a request waits for it at most --move-time seconds: an answer not
/// ready by then comes back "unknown" and goes on solving in the background (up to
/// --solve-limit), so asking again later finds it. While positions wait for a
/// solver thread, a solve that has run --slice seconds gives its thread up to them
/// (first one no request waits for any more); a position whose solve gave up is
/// answered "hard" and not solved again for --retry-after seconds. Requests must be
/// addressed to this machine (Host: localhost, 127.0.0.1, [::1] or the --addr
/// address; --allow-host adds names). Ctrl-C or SIGTERM stops the server within a
/// few seconds, whatever the connections are doing; the store stays intact.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on; only this machine can connect unless you give
    /// another interface.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub addr: SocketAddr,

    /// The store's directory (created when missing).
    #[arg(long, default_value = "explorer-store", value_name = "DIR")]
    pub store: PathBuf,

    /// Solver threads; each solves one position at a time (default: the logical CPUs).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Each solve's transposition table, in MiB.
    #[arg(long, default_value_t = 256, value_name = "MB")]
    pub tt_mb: usize,

    /// How long a request waits for a solve, in seconds.
    #[arg(long, default_value_t = 5.0, value_name = "S")]
    pub move_time: f64,

    /// How long one solve may run in all, the background included, in seconds.
    #[arg(long, default_value_t = 600.0, value_name = "S")]
    pub solve_limit: f64,

    /// Positions that may wait for a solver thread; beyond, the oldest (one that
    /// no request waits for any more, if there is one) makes room, and its request
    /// answers "unknown" with `busy`.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub queue: usize,

    /// How long a solve runs before it gives its thread up to positions waiting
    /// for one, in seconds.
    #[arg(long, default_value_t = 1.0, value_name = "S")]
    pub slice: f64,

    /// How long a position whose solve gave up (at --slice or --solve-limit) is
    /// answered "hard" instead of being solved again, in seconds.
    #[arg(long, default_value_t = 600.0, value_name = "S")]
    pub retry_after: f64,

    /// How long a connection may take to send a request's head, and may stay idle
    /// between requests, in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub head_timeout: f64,

    /// Another host name that requests may be addressed to (the Host header), for
    /// a server reached by a name or another address; `*` accepts any (only on a
    /// network you trust). May be given more than once.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,

    /// The results directory behind /api/v1/results and the page's table.
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub results: PathBuf,

    /// A certificate to browse in the page's proof browser and at /api/v1/proof:
    /// a file (verified at start-up) or a campaign's directory (its parts read as
    /// they are browsed, not verified: `breakthrough verify DIR` checks it).
    #[arg(long, value_name = "FILE|DIR")]
    pub proof: Option<PathBuf>,

    /// Instead of serving, fill the store with BOARD's perfect-play line from the
    /// start (each position's every move with its value and length), solving on
    /// --threads threads, then exit.
    #[arg(long, value_name = "BOARD")]
    pub prepare: Option<Board>,
}

/// The longest budget accepted, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;

fn seconds(name: &str, value: f64) -> Result<Duration, InputError> {
    if !(value > 0.0 && value <= MAX_SECONDS) {
        return Err(InputError(anyhow::anyhow!(
            "{name} {value}: give a number of seconds above 0, at most {MAX_SECONDS}"
        )));
    }
    Ok(Duration::from_secs_f64(value))
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(system::cores);
    if threads == 0 || args.tt_mb == 0 || args.queue == 0 {
        return Err(InputError(anyhow::anyhow!(
            "--threads, --tt-mb and --queue must be at least 1"
        ))
        .into());
    }
    let move_time = seconds("--move-time", args.move_time)?;
    let solve_limit = seconds("--solve-limit", args.solve_limit)?;
    let slice = seconds("--slice", args.slice)?;
    let retry_after = seconds("--retry-after", args.retry_after)?;
    let head_timeout = seconds("--head-timeout", args.head_timeout)?;
    if let Some(board) = args.prepare {
        return run_prepare(&args, board, threads);
    }
    let results = if args.results.is_dir() {
        Some(args.results.clone())
    } else {
        eprintln!(
            "note: no results directory {}: the results table is empty",
            args.results.display()
        );
        None
    };
    let config = ServeConfig {
        addr: args.addr,
        store: args.store.clone(),
        pool: PoolSettings {
            threads,
            queue: args.queue,
            table_mb: args.tt_mb,
            solve_limit,
            slice,
            retry_after,
        },
        move_time,
        results,
        proof: args.proof.clone(),
        allow_hosts: args.allow_hosts.clone(),
        head_timeout,
    };
    serve(&config, |addr| {
        eprintln!(
            "serving http://{addr}/ ({threads} solver threads, store {}); Ctrl-C stops",
            args.store.display()
        );
    })?;
    eprintln!("stopped; the store is intact");
    Ok(ExitCode::SUCCESS)
}

fn run_prepare(args: &ServeArgs, board: Board, threads: usize) -> anyhow::Result<ExitCode> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot catch Ctrl-C")?;
    let started = Instant::now();
    let mut ply = 0;
    let line = prepare(&args.store, board, threads, args.tt_mb, stop, &mut |step| {
        eprintln!(
            "ply {ply:>3}  {}  {}  {:.2} s",
            step.position,
            if step.solved { "solved" } else { "stored" },
            step.seconds
        );
        ply += 1;
    })?;
    let solved = line.iter().filter(|step| step.solved).count();
    let store = args.store.join(breakthrough_explorer::store::STORE_FILE);
    let bytes = std::fs::metadata(&store).map(|m| m.len()).unwrap_or(0);
    outln!(
        "prepared {board}: {} positions on the line ({solved} solved now) in {:.1} s; store {} ({bytes} bytes)",
        line.len(),
        started.elapsed().as_secs_f64(),
        store.display()
    );
    Ok(ExitCode::SUCCESS)
}
