//! Campaigns over MPI (built with `--features mpi`; needs `mpirun`, see
//! scripts/install-mpi.sh): 3 and 4 ranks on this machine, oversubscribed. Every
//! answer against the reference solver, every certificate verified; a worker rank
//! killed mid-way, and every rank sent SIGTERM, each campaign then continued to the
//! right end.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use breakthrough_engine::{Board, Color, Position};
use breakthrough_solver::{solve, Algorithm, Limits, SolveOptions};

const BIN: &str = env!("CARGO_BIN_EXE_breakthrough");

fn scratch(name: &str) -> PathBuf {
    breakthrough_testing::scratch("mpi", name)
}

/// `mpirun -n RANKS breakthrough ARGS`, as root if need be, on shared memory only.
fn mpirun(ranks: usize) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "-n", &ranks.to_string(), BIN])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    command
}

fn campaign(ranks: usize, dir: &Path, board: &str, position: &str, job_nodes: u64) -> Output {
    campaign_with(ranks, dir, board, position, job_nodes, &[])
}

fn campaign_with(
    ranks: usize,
    dir: &Path,
    board: &str,
    position: &str,
    job_nodes: u64,
    options: &[&str],
) -> Output {
    mpirun(ranks)
        .args(["campaign", "run"])
        .arg(dir)
        .args([
            board,
            "--position",
            position,
            "--threads",
            "1",
            "--tt-mb",
            "64",
        ])
        .args(["--job-nodes", &job_nodes.to_string(), "--json", "--quiet"])
        .args(options)
        .output()
        .expect("mpirun runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The winner that result.json names, after the certificate is verified.
fn verified_winner(output: &Output, dir: &Path) -> Color {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    let verify = Command::new(BIN).arg("verify").arg(dir).output().unwrap();
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}: {}",
        dir.display(),
        text(&verify.stderr)
    );
    match result["winner"].as_str() {
        Some("white") => Color::White,
        Some("black") => Color::Black,
        other => panic!("winner {other:?}"),
    }
}

fn reference(position: &Position, max_nodes: u64) -> Option<Color> {
    let options = SolveOptions {
        algorithm: Algorithm::Reference,
        table_mb: 16,
        limits: Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    solve(position, &options, &mut |_| {}).winner
}

#[test]
fn campaigns_over_mpi_agree_with_the_reference() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("5x5");
    // Small exports: many stored positions, told to the ranks in many messages.
    let output = campaign_with(
        4,
        &dir,
        "5x5",
        &start.to_string(),
        20_000,
        &["--export-min", "3"],
    );
    assert_eq!(verified_winner(&output, &dir), Color::Black);
    let stderr = text(&output.stderr);
    assert!(stderr.contains("MPI: 3 worker ranks"), "{stderr}");
    let told: u64 = stderr
        .split(" solved positions told")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no news count: {stderr}"));
    // Before, at most 100 rode with each job: the ranks fell behind.
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    let jobs = result["campaign"]["jobs"].as_u64().unwrap();
    assert!(
        told > 100 * jobs,
        "{told} solved positions told in {jobs} jobs: {stderr}"
    );

    let mut rng = fastrand::Rng::with_seed(15);
    for (board, plies, wanted) in [("4x6", 12, 6), ("6x5", 14, 6)] {
        let parsed: Board = board.parse().unwrap();
        let mut found = 0;
        let mut tries = 0;
        while found < wanted && tries < 50 * wanted {
            tries += 1;
            let Some(position) =
                Position::after_moves(parsed, plies + rng.u32(0..10), |n| rng.usize(..n))
            else {
                continue;
            };
            let Some(expected) = reference(&position, 300_000) else {
                continue;
            };
            found += 1;
            let dir = scratch(&format!("{board}-{found}"));
            let ranks = 3 + found % 2;
            let output = campaign(
                ranks,
                &dir,
                board,
                &position.to_string(),
                [300, 3000][found % 2],
            );
            assert_eq!(verified_winner(&output, &dir), expected, "{position}");
        }
        assert_eq!(found, wanted, "{board}");
        eprintln!("{board}: {found} random positions agree over MPI");
    }
}

/// The ranks of `dir`'s campaign (not mpirun) as (rank, pid), from /proc.
fn rank_pids(dir: &Path) -> Vec<(u32, u32)> {
    let wanted = dir.to_string_lossy().into_owned();
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if !(args.first().is_some_and(|a| a.ends_with("breakthrough")) && args.contains(&wanted)) {
            continue;
        }
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let rank = environ
            .split(|&b| b == 0)
            .filter_map(|v| v.strip_prefix(b"OMPI_COMM_WORLD_RANK="))
            .find_map(|v| String::from_utf8_lossy(v).parse::<u32>().ok());
        if let Some(rank) = rank {
            pids.push((rank, pid));
        }
    }
    pids.sort_unstable();
    pids
}

/// Jobs done as the campaign's last checkpoint says (0 before the first).
fn jobs_done(dir: &Path) -> u64 {
    if !dir.join("master.ckpt").exists() {
        return 0;
    }
    let status = Command::new(BIN)
        .args(["campaign", "status", "--json"])
        .arg(dir)
        .output()
        .unwrap();
    serde_json::from_slice::<serde_json::Value>(&status.stdout)
        .ok()
        .and_then(|status| status["jobs"].as_u64())
        .unwrap_or(0)
}

/// Starts a 5x5 campaign in `dir` on 3 ranks and returns once its checkpoint has a
/// few jobs done, the run still going.
fn start_5x5_on_3_ranks(dir: &Path) -> std::process::Child {
    let mut run = mpirun(3)
        .args(["campaign", "run"])
        .arg(dir)
        .args([
            "5x5",
            "--threads",
            "1",
            "--tt-mb",
            "64",
            "--job-nodes",
            "3000",
        ])
        .args(["--checkpoint-every", "0.5", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while jobs_done(dir) < 5 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        assert!(run.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(200));
    }
    run
}

#[test]
fn a_killed_worker_rank_ends_the_run_and_the_campaign_continues_right() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("killed");
    // Once a checkpoint has a few jobs done, kill worker rank 2.
    let mut first = start_5x5_on_3_ranks(&dir);
    let pids = rank_pids(&dir);
    assert_eq!(
        pids.iter().map(|&(rank, _)| rank).collect::<Vec<_>>(),
        [0, 1, 2],
        "the ranks: {pids:?}"
    );
    let killed = Command::new("kill")
        .args(["-9", &pids[2].1.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let ended = first.wait().unwrap();
    assert!(!ended.success(), "the run goes on without a rank");
    assert!(jobs_done(&dir) >= 5);
    assert!(!dir.join("result.json").exists());

    // The same command, with another number of ranks, continues to the end.
    let output = campaign(4, &dir, "5x5", &start.to_string(), 3000);
    assert_eq!(verified_winner(&output, &dir), Color::Black);
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        result["campaign"]["runs"].as_array().map(Vec::len),
        Some(2),
        "{result}"
    );
}

#[test]
fn sigterm_to_every_rank_stops_the_run_cleanly_and_it_continues() {
    // As Slurm's scancel does: the workers wait for the master's word, the master
    // stops the jobs, takes in what they finished and writes its checkpoint.
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("sigterm");
    let mut first = start_5x5_on_3_ranks(&dir);
    let pids = rank_pids(&dir);
    assert_eq!(pids.len(), 3, "the ranks: {pids:?}");
    for (_, pid) in &pids {
        assert!(Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap()
            .success());
    }
    let ended = first.wait().unwrap();
    assert_eq!(ended.code(), Some(3), "a clean stop");
    let status = Command::new(BIN)
        .args(["campaign", "status", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["runs"][0]["end"], "interrupted", "{status}");
    assert_eq!(status["jobs_in_flight"], 0, "every job taken in: {status}");

    let output = campaign(3, &dir, "5x5", &start.to_string(), 3000);
    assert_eq!(verified_winner(&output, &dir), Color::Black);
}
