//! `breakthrough-lab load`: the explorer's latency under many clients. It asks a
//! running `breakthrough serve` for positions its store holds (the perfect-play
//! line of a prepared board), from many concurrent clients on loopback, and
//! prints the latency's percentiles; with `--busy`, other clients keep the solver
//! threads busy with positions not stored meanwhile.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use breakthrough_engine::{Board, Position};
use clap::Args;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// Latency of a running explorer's stored answers under concurrent clients.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// The server, as `breakthrough serve` printed it.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,

    /// The board whose perfect-play line the store holds (`serve --prepare BOARD`).
    #[arg(long, default_value = "5x5")]
    pub board: Board,

    /// Concurrent clients.
    #[arg(long, default_value_t = 200)]
    pub clients: usize,

    /// Requests in all.
    #[arg(long, default_value_t = 20_000)]
    pub requests: usize,

    /// Meanwhile keep the solver threads busy: this many more clients ask for
    /// random positions not stored (a few plies from the start).
    #[arg(long, default_value_t = 0)]
    pub busy: usize,
}

/// The one field of an answer that the load checks (the rest is skipped unread).
#[derive(Debug, serde::Deserialize)]
struct Source {
    source: String,
}

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>;

async fn get_json<T: serde::de::DeserializeOwned>(
    client: &HttpClient,
    uri: &str,
) -> anyhow::Result<(u16, T)> {
    let response = client
        .get(uri.parse().context("a bad URI")?)
        .await
        .with_context(|| format!("GET {uri}"))?;
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&bytes)?))
}

fn query(board: Board, position: &str) -> String {
    let encoded: String = position
        .chars()
        .map(|c| match c {
            '/' => "%2F".to_string(),
            ' ' => "+".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("board={board}&position={encoded}")
}

pub fn run(args: LoadArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(load(args))
}

async fn load(args: LoadArgs) -> anyhow::Result<ExitCode> {
    let client: HttpClient = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(args.clients + args.busy)
        .build_http();
    let server = args.server.trim_end_matches('/').to_string();
    // The stored positions: the main line's (each with every move's answer).
    let (_, line): (_, serde_json::Value) = get_json(
        &client,
        &format!("{server}/api/v1/mainline?board={}", args.board),
    )
    .await?;
    anyhow::ensure!(
        line["complete"] == true,
        "the store lacks {}'s main line: run `breakthrough serve --prepare {}` first",
        args.board,
        args.board
    );
    let mut position = Position::start(args.board);
    let mut uris = Vec::new();
    for mv in line["moves"].as_array().context("moves")? {
        uris.push(format!(
            "{server}/api/v1/position?{}",
            query(args.board, &position.to_string())
        ));
        position = position.play(position.parse_move(mv.as_str().context("a move")?)?);
    }
    let uris = Arc::new(uris);

    let stop_busy = Arc::new(AtomicBool::new(false));
    let mut busy = Vec::new();
    for seed in 0..args.busy {
        let (client, server, stop) = (client.clone(), server.clone(), Arc::clone(&stop_busy));
        let board = args.board;
        busy.push(tokio::spawn(async move {
            let mut rng = fastrand::Rng::with_seed(seed as u64);
            while !stop.load(Ordering::Relaxed) {
                let Some(position) =
                    Position::after_moves(board, rng.u32(4..9), |n| rng.usize(..n))
                else {
                    continue;
                };
                let uri = format!(
                    "{server}/api/v1/position?{}",
                    query(board, &position.to_string())
                );
                let _ = get_json::<serde_json::Value>(&client, &uri).await;
            }
        }));
    }
    if args.busy > 0 {
        // Time for the solver threads to be taken.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }

    let next = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..args.clients {
        let (client, uris, next, errors) = (
            client.clone(),
            Arc::clone(&uris),
            Arc::clone(&next),
            Arc::clone(&errors),
        );
        let requests = args.requests;
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= requests {
                    return latencies;
                }
                let uri = &uris[index % uris.len()];
                let asked = Instant::now();
                let answer = get_json(&client, uri).await;
                latencies.push(asked.elapsed());
                let stored = matches!(answer, Ok((200, Source { source }))  if source == "stored");
                if !stored {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await?);
    }
    let seconds = started.elapsed().as_secs_f64();
    stop_busy.store(true, Ordering::Relaxed);
    for task in busy {
        task.abort();
    }
    latencies.sort();
    let percentile = |p: f64| {
        let index = ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
        latencies[index].as_secs_f64() * 1e3
    };
    outln!(
        "{} requests of {} stored positions from {} clients{}: {:.0} requests/s",
        latencies.len(),
        uris.len(),
        args.clients,
        if args.busy > 0 {
            format!(", {} more keeping the solvers busy", args.busy)
        } else {
            String::new()
        },
        latencies.len() as f64 / seconds
    );
    outln!(
        "latency    p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(0.5),
        percentile(0.9),
        percentile(0.99),
        percentile(1.0)
    );
    let errors = errors.load(Ordering::Relaxed);
    outln!("errors     {errors} (an error, or an answer not from the store)");
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
