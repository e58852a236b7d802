//! The explorer: perfect play and its lengths for any position, served as a page
//! and a JSON API (`breakthrough serve`).
//!
//! - [`store`]: the answers kept between runs (redb), every one from a completed
//!   solve.
//! - [`solving`]: the fixed pool of solver threads behind a bounded queue, one solve
//!   per position however many ask.
//! - [`answers`]: a position's answer (its value and every move's, best first) and
//!   the main line, from the store or solved within a request's budget.
//! - [`http`]: the routes, the query checks and the embedded page; [`api`]: the
//!   answers' JSON types (documented in `docs/api.md`).
//! - [`proofs`]: the proof browser over a certificate file or a campaign's directory.
//! - [`prepare`]: fills the store with a board's perfect-play line ahead of time.

#![forbid(unsafe_code)]

pub mod answers;
pub mod api;
pub mod http;
pub mod proofs;
pub mod solving;
pub mod store;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use breakthrough_engine::{Board, Position};
use breakthrough_solver::{solve, Limits, SolveOptions};

use crate::answers::Answers;
use crate::api::{BoardResult, ResultsAnswer};
use crate::http::{AllowedHosts, Explorer, Finished};
use crate::proofs::Proofs;
use crate::solving::{answers_of, Pool, PoolSettings};
use crate::store::Store;

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    /// The store's directory.
    pub store: PathBuf,
    pub pool: PoolSettings,
    /// How long a request waits for a solve before it answers `unknown`.
    pub move_time: Duration,
    /// The results directory for `/api/v1/results` (none: an empty list).
    pub results: Option<PathBuf>,
    /// The certificate of the proof browser (`/api/v1/proof`): a file, verified at
    /// start-up, or a campaign's directory.
    pub proof: Option<PathBuf>,
    /// Host names a request may be addressed to besides `localhost`, the loopback
    /// addresses and `addr`'s (`*`: any).
    pub allow_hosts: Vec<String>,
    /// How long a connection may take to send a request's head, and may stay idle
    /// between requests.
    pub head_timeout: Duration,
}

/// How long the server waits, once told to stop, for the requests in flight to be
/// answered; then it closes every connection.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// The explorer's state for `config`: the store opened (or refused) and the pool
/// started.
pub fn explorer(config: &ServeConfig) -> anyhow::Result<Arc<Explorer>> {
    // What can be refused is read before the store's directory is created.
    let results = match &config.results {
        Some(dir) => read_results(dir)?,
        None => ResultsAnswer {
            results: Vec::new(),
        },
    };
    let proofs = config.proof.as_deref().map(Proofs::load).transpose()?;
    let store = Arc::new(Store::open(&config.store)?);
    let pool = Pool::start(config.pool.clone(), Arc::clone(&store))
        .context("cannot start the solver threads")?;
    Ok(Arc::new(Explorer {
        answers: Answers::new(store, pool, config.move_time),
        results,
        proofs,
        finished: Finished::default(),
        hosts: AllowedHosts::new(config.addr.ip(), &config.allow_hosts),
    }))
}

/// Serves until Ctrl-C or SIGTERM, then stops the solves and returns with the store
/// intact, within [`SHUTDOWN_GRACE`] and a little more whatever the connections
/// are doing; `ready` hears the address once the server listens.
pub fn serve(config: &ServeConfig, ready: impl FnOnce(SocketAddr)) -> anyhow::Result<()> {
    let explorer = explorer(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let served = runtime.block_on(listen(config, &explorer, ready));
    explorer.answers.shutdown();
    // A proof part still being read is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(500));
    served
}

/// Accepts connections until Ctrl-C or SIGTERM, each with a time limit on reading
/// a request's head (and on staying idle), then closes them all.
async fn listen(
    config: &ServeConfig,
    explorer: &Arc<Explorer>,
    ready: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    // Listened for before the server says it is ready: a signal right after
    // would otherwise end the process at once, without the clean stop.
    let signal = stop_signal()?;
    ready(listener.local_addr()?);
    // Every request ends: the answer's own budget, and a margin for the rest.
    let app = http::router(Arc::clone(explorer)).layer(
        tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            config.move_time * 2 + Duration::from_secs(10),
        ),
    );
    let service = hyper_util::service::TowerToHyperService::new(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(config.head_timeout);
    let (stopping, stop) = tokio::sync::watch::channel(());
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(signal);
    loop {
        tokio::select! {
            () = &mut signal => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of file descriptors, say: wait a little, neither spin nor stop.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let connection = http.serve_connection(
                    hyper_util::rt::TokioIo::new(stream),
                    service.clone(),
                );
                let mut stop = stop.clone();
                connections.spawn(async move {
                    tokio::pin!(connection);
                    tokio::select! {
                        _ = connection.as_mut() => {}
                        _ = stop.changed() => {
                            connection.as_mut().graceful_shutdown();
                            let _ = connection.await;
                        }
                    }
                });
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    // Requests waiting for a solve hear at once that it stopped.
    explorer.answers.stop();
    stopping.send_replace(());
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    connections.abort_all();
    Ok(())
}

/// Ctrl-C or SIGTERM: the handlers are in place when this returns (on Unix),
/// so a signal from then on ends in the clean stop.
#[cfg(unix)]
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt()).context("cannot catch Ctrl-C")?;
    let mut terminate = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Ctrl-C.
#[cfg(not(unix))]
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// The boards of a results directory, smallest first.
pub fn read_results(dir: &Path) -> anyhow::Result<ResultsAnswer> {
    let solved = breakthrough_result::directory::read_results(dir)?;
    let results = solved
        .into_iter()
        .map(|solved| {
            let result = solved.result;
            BoardResult {
                board: solved.board,
                position: result.position,
                winner: result.winner,
                winner_order: result.winner.map(|side| side.order().to_string()),
                length: result.length,
                nodes: result.stats.nodes,
                seconds: result.stats.seconds,
                campaign: result.campaign.is_some(),
            }
        })
        .collect();
    Ok(ResultsAnswer { results })
}

/// One position of [`prepare`]'s line.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub position: Position,
    /// Whether it was solved now (false: the store had it).
    pub solved: bool,
    pub seconds: f64,
}

/// Fills the store in `store_dir` with `board`'s perfect-play line from the start:
/// each of its positions with every move's value and length. Each solve runs on
/// `threads` threads; `stop` ends it early (what is stored stays).
pub fn prepare(
    store_dir: &Path,
    board: Board,
    threads: usize,
    table_mb: usize,
    stop: Arc<AtomicBool>,
    progress: &mut dyn FnMut(&Prepared),
) -> anyhow::Result<Vec<Prepared>> {
    let store = Store::open(store_dir)?;
    let mut position = Position::start(board);
    let mut line = Vec::new();
    while position.winner().is_none() {
        let started = std::time::Instant::now();
        let mut found = answers::lookup(&store, &position)?;
        let solved = !found.is_complete();
        if solved {
            let options = SolveOptions {
                table_mb,
                threads,
                length: true,
                all_moves: true,
                limits: Limits {
                    stop: Some(Arc::clone(&stop)),
                    ..Limits::default()
                },
                ..SolveOptions::default()
            };
            let solution = solve(&position, &options, &mut |_| {});
            let answers = answers_of(&solution);
            if answers.is_empty() {
                anyhow::bail!("interrupted at {position}; what was solved before is stored");
            }
            store.put_all(&answers)?;
            found = answers::lookup(&store, &position)?;
        }
        let step = Prepared {
            position,
            solved,
            seconds: started.elapsed().as_secs_f64(),
        };
        progress(&step);
        line.push(step);
        let best = found
            .best(position.to_move())
            .context("a solved position without its moves' answers")?;
        position = position.play(best);
    }
    Ok(line)
}
