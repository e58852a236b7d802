//! `breakthrough-lab bench`: the default solver against a baseline on a fixed
//! suite: the reference solver, df-pn without race rules, df-pn on fewer threads, or
//! another build of the `breakthrough` program.
//!
//! Each solve runs as a child process (`solve --json` of the program or of the
//! baseline build), so that its peak memory and its wall time are its own; the
//! contestants take turns run by run, so that a machine that slows down for a while
//! slows them alike.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use std::collections::BTreeMap;

use anyhow::{bail, Context};
use breakthrough_cli::InputError;
use breakthrough_engine::{Board, Color};
use breakthrough_result::{ProofSummary, SolveResult, Status};
use clap::{Args, ValueEnum};

use crate::files::{BenchFile, BenchRow};
use crate::suite::{read_suite, SuiteEntry, TOTAL};

/// Solve each board of the suite with each contestant (--compare), --repeat times
/// each, the contestants taking turns; print the median search seconds, whole-process
/// wall seconds, nodes, nodes/s and peak memory, and the ratios to the first
/// contestant, by wall time: with --compare threads, the speed-up and the search
/// overhead (against the first thread count's, one thread by default); with
/// --compare baseline, this build's speed-up and nodes against the --baseline build's.
/// With --copies, each turn also runs n one-thread solves at once for each thread
/// count n above the first, to show what the machine itself gives n busy cores.
#[derive(Debug, Args)]
pub struct SolveBenchArgs {
    /// The `breakthrough` program to measure [default: the one beside this program,
    /// as `cargo build --release` and `cargo build --release -p breakthrough-lab`
    /// leave them].
    #[arg(long, value_name = "PATH")]
    pub program: Option<PathBuf>,

    /// The contestants: df-pn against the plain exhaustive reference solver, df-pn
    /// against df-pn without race rules (the ablation of the race rules) or without
    /// its learned estimate (the ablation of the estimate), or df-pn on
    /// each thread count of --threads (scaling), or this build against another
    /// (--baseline) with solve's default settings on each thread count of --threads.
    /// The first two run on one thread.
    #[arg(long, value_enum, default_value_t = Compare::Reference)]
    pub compare: Compare,

    /// The other build for --compare baseline: a `breakthrough` program, for example
    /// one built from the main branch before a change.
    #[arg(long, value_name = "PATH")]
    pub baseline: Option<PathBuf>,

    /// Boards to solve from the start position [default: 4x5,5x5,4x6; with --compare
    /// threads or baseline: 5x5,4x6,6x5].
    #[arg(long, value_delimiter = ',', conflicts_with = "suite")]
    pub boards: Vec<String>,

    /// Solve the positions of this suite (`breakthrough-lab suite`, for example
    /// results/frontier-suite.tsv) instead of --boards: each answer is checked against
    /// the suite's, and a last row per contestant gives the totals (the sums of the
    /// median nodes and median wall seconds) and their ratios.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,

    /// Thread counts for --compare threads (the first is what the others are
    /// compared with) and --compare baseline.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2],
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Vec<u32>,

    /// Runs per board and contestant; the median time (and nodes) are reported.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,

    /// Table size in MiB, the same for every solve [default: solve's default].
    #[arg(long, value_name = "MB")]
    pub tt_mb: Option<u64>,

    /// Give up on a solve after this many seconds (it is then shown as unknown).
    #[arg(long, default_value_t = 1800.0)]
    pub time_limit: f64,

    /// With --compare threads: each turn, also run n one-thread solves of the board
    /// at once (separate processes, each with its own table) for each thread count n
    /// above the first, and give their speed-up: n times one solve's median time
    /// over the median time the n take together. That is what the machine gives n
    /// busy cores at the moment (on a shared machine, often well under n), a yardstick
    /// for how much of a parallel search's shortfall is the machine's; not a strict
    /// bound, since the copies have a table each where threads share one. Takes n
    /// times one solve's memory.
    #[arg(long)]
    pub copies: bool,

    /// Each solve also writes its certificate (`solve --proof`, to a temporary file
    /// removed afterwards), so that the wall time includes the proof's extraction
    /// and writing: the search seconds stay the search's alone.
    #[arg(long, conflicts_with = "copies")]
    pub proof: bool,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Also write the JSON object to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Compare {
    /// df-pn against the reference solver.
    Reference,
    /// df-pn with race rules against df-pn without them.
    #[value(alias = "patterns")]
    RaceRules,
    /// df-pn with its learned estimate against df-pn without it (plain mobility).
    Estimate,
    /// df-pn on each thread count of --threads.
    Threads,
    /// this build against the --baseline build, on each thread count of --threads.
    Baseline,
}

/// A contestant: its name, the program, its thread count, and the `solve` flags that
/// select it; and how many such solves run at once (the machine's check, `--copies`).
struct Contestant {
    name: String,
    program: PathBuf,
    threads: u32,
    flags: Vec<String>,
    copies: u32,
}

impl Contestant {
    fn new(name: &str, threads: u32, flags: &[&str]) -> Contestant {
        let mut flags: Vec<String> = flags.iter().map(ToString::to_string).collect();
        flags.extend(["--threads".to_string(), threads.to_string()]);
        Contestant {
            name: name.to_string(),
            program: PathBuf::new(),
            threads,
            flags,
            copies: 1,
        }
    }

    /// `n` one-thread solves at once, shown under `n` threads.
    fn copies(n: u32) -> Contestant {
        Contestant {
            threads: n,
            copies: n,
            ..Contestant::new("copies", 1, &["--algo", "dfpn"])
        }
    }

    fn run_by(self, program: &Path) -> Contestant {
        Contestant {
            program: program.to_path_buf(),
            ..self
        }
    }
}

/// What one solve is of: a board's start position, or a suite's position with its
/// answer.
struct Case {
    /// The board, or the suite's name of the position.
    label: String,
    board: String,
    position: Option<String>,
    winner: Option<Color>,
}

impl Case {
    fn start(board: &str) -> Case {
        Case {
            label: board.to_string(),
            board: board.to_string(),
            position: None,
            winner: None,
        }
    }

    fn of(entry: &SuiteEntry) -> Case {
        Case {
            label: entry.name.clone(),
            board: entry.board.to_string(),
            position: Some(entry.position.to_string()),
            winner: Some(entry.winner),
        }
    }
}

impl Compare {
    fn contestants(
        self,
        threads: &[u32],
        copies: bool,
        this: &Path,
        baseline: &Path,
    ) -> Vec<Contestant> {
        let of_this = match self {
            Compare::Reference => vec![
                Contestant::new("dfpn", 1, &["--algo", "dfpn"]),
                Contestant::new("reference", 1, &["--algo", "reference"]),
            ],
            Compare::RaceRules => vec![
                Contestant::new("dfpn", 1, &["--algo", "dfpn"]),
                Contestant::new("no-race-rules", 1, &["--algo", "dfpn", "--no-race-rules"]),
            ],
            Compare::Estimate => vec![
                Contestant::new("dfpn", 1, &["--algo", "dfpn"]),
                Contestant::new(
                    "no-estimate",
                    1,
                    &["--algo", "dfpn", "--estimate-weight", "0"],
                ),
            ],
            Compare::Threads => {
                let mut all: Vec<Contestant> = threads
                    .iter()
                    .map(|&n| Contestant::new("dfpn", n, &["--algo", "dfpn"]))
                    .collect();
                if copies {
                    let first = threads.first().copied().unwrap_or(1);
                    all.extend(
                        threads
                            .iter()
                            .filter(|&&n| n > first)
                            .map(|&n| Contestant::copies(n)),
                    );
                }
                all
            }
            // Each thread count: the baseline first; the ratios are this build's.
            Compare::Baseline => {
                return threads
                    .iter()
                    .flat_map(|&n| {
                        [
                            Contestant::new("baseline", n, &[]).run_by(baseline),
                            Contestant::new("this", n, &[]).run_by(this),
                        ]
                    })
                    .collect()
            }
        };
        of_this.into_iter().map(|c| c.run_by(this)).collect()
    }

    fn default_boards(self) -> Vec<String> {
        let boards: &[&str] = match self {
            Compare::Threads | Compare::Baseline => &["5x5", "4x6", "6x5"],
            _ => &["4x5", "5x5", "4x6"],
        };
        boards.iter().map(ToString::to_string).collect()
    }
}

/// One solve in a child process (or the contestant's copies, all at once): the JSON
/// report (the first copy's), and the whole process's wall time in seconds (start-up,
/// table, search and exit, as a user waits for it; until the last copy ends).
fn solve_once(
    case: &Case,
    contestant: &Contestant,
    args: &SolveBenchArgs,
) -> anyhow::Result<(SolveResult, f64)> {
    let flags = &contestant.flags;
    let board = &case.label;
    let started = Instant::now();
    let mut command = Command::new(&contestant.program);
    command.args(["solve", &case.board, "--json", "--quiet"]);
    if let Some(position) = &case.position {
        command.args(["--position", position]);
    }
    command
        .args(flags)
        .args(["--time-limit", &args.time_limit.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(mb) = args.tt_mb {
        command.args(["--tt-mb", &mb.to_string()]);
    }
    let certificate = args.proof.then(|| {
        std::env::temp_dir().join(format!("breakthrough-bench-{}.cert", std::process::id()))
    });
    if let Some(path) = &certificate {
        command.arg("--proof").arg(path);
    }
    let mut children = Vec::new();
    for _ in 0..contestant.copies {
        match command.spawn() {
            Ok(child) => children.push(child),
            Err(error) => {
                // No copy is left running on its own.
                for child in &mut children {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return Err(error)
                    .with_context(|| format!("cannot run {}", contestant.program.display()));
            }
        }
    }
    // Read one copy after another: a copy whose report outgrows its pipe waits for
    // its turn after its search, and the turn ends with the last copy either way.
    let outputs = children
        .into_iter()
        .map(std::process::Child::wait_with_output)
        .collect::<std::io::Result<Vec<_>>>();
    let wall = started.elapsed().as_secs_f64();
    if let Some(path) = &certificate {
        let _ = std::fs::remove_file(path);
    }
    let outputs =
        outputs.with_context(|| format!("cannot run {}", contestant.program.display()))?;
    let mut reports = Vec::with_capacity(outputs.len());
    for output in outputs {
        if !matches!(output.status.code(), Some(0 | 3)) {
            bail!(
                "solve {board} {} by {} failed: {}",
                flags.join(" "),
                contestant.program.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        let report = SolveResult::from_json(&String::from_utf8_lossy(&output.stdout))
            .with_context(|| {
                format!(
                    "{} solve --json printed no JSON",
                    contestant.program.display()
                )
            })?;
        reports.push(report);
    }
    // A wrong answer ends the benchmark: its time would measure a bug.
    if let Some(expected) = case.winner {
        for report in &reports {
            let winner = report.winner.map(|side| side.name());
            if report.status == Status::Solved && winner != Some(expected.name()) {
                bail!(
                    "{} says {} wins {board}, the suite says {}",
                    contestant.program.display(),
                    report.winner.map_or("nobody", |side| side.name()),
                    expected.name()
                );
            }
        }
    }
    // Copies that did not all finish make the turn unsolved.
    let mut first = reports.swap_remove(0);
    if reports.iter().any(|r| r.status != first.status) {
        first.status = Status::Unknown;
    }
    Ok((first, wall))
}

/// What one contestant's runs on one board gave.
#[derive(Default)]
struct Runs {
    seconds: Vec<f64>,
    walls: Vec<f64>,
    nodes: Vec<f64>,
    /// Seconds of the certificate's extraction (with `--proof`).
    proofs: Vec<f64>,
    all_solved: bool,
    last: Option<SolveResult>,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The `breakthrough` program beside this one.
fn program_beside() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let name = format!("breakthrough{}", std::env::consts::EXE_SUFFIX);
    Ok(exe.with_file_name(name))
}

/// The medians of one contestant's runs on one board.
struct Medians {
    nodes: f64,
    seconds: f64,
    wall: f64,
}

impl Medians {
    fn of(runs: &Runs) -> Medians {
        Medians {
            seconds: median(&mut runs.seconds.clone()),
            wall: median(&mut runs.walls.clone()),
            // Parallel runs differ in nodes from run to run; one thread's never do.
            nodes: median(&mut runs.nodes.clone()),
        }
    }
}

/// One contestant's row of the JSON.
fn bench_row(
    board: &str,
    contestant: &Contestant,
    runs: &Runs,
    last: &SolveResult,
    medians: Medians,
    ratios: BTreeMap<String, Option<f64>>,
) -> BenchRow {
    let search = last.stats.search.as_ref();
    BenchRow {
        board: board.to_string(),
        solver: contestant.name.clone(),
        threads: contestant.threads,
        copies: contestant.copies,
        program: contestant.program.clone(),
        flags: contestant.flags.clone(),
        winner: last
            .winner
            .map_or("unknown", |side| side.name())
            .to_string(),
        status: last.status,
        nodes: medians.nodes,
        median_seconds: medians.seconds,
        median_wall_seconds: Some(medians.wall),
        runs: runs.seconds.clone(),
        wall_runs: runs.walls.clone(),
        run_nodes: runs.nodes.clone(),
        peak_memory_mb: last.stats.peak_memory_mb,
        table_mb: search.map(|s| s.table.megabytes),
        thread_nodes: search.map(|s| s.thread_nodes.clone()),
        median_proof_seconds: (!runs.proofs.is_empty()).then(|| median(&mut runs.proofs.clone())),
        proof_runs: runs.proofs.clone(),
        ratios,
    }
}

/// Checks the arguments before any solve starts (the default boards filled in);
/// the program measured and the baseline program.
fn checked(args: &mut SolveBenchArgs) -> anyhow::Result<(PathBuf, PathBuf, Vec<Case>)> {
    if args.boards.is_empty() && args.suite.is_none() {
        args.boards = args.compare.default_boards();
    }
    // Refuse bad input before starting any solve.
    for board in &args.boards {
        board
            .parse::<Board>()
            .context("bad board size in --boards")
            .map_err(InputError)?;
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        return Err(InputError(anyhow::anyhow!(
            "--time-limit must be a positive number of seconds"
        ))
        .into());
    }
    let this = match &args.program {
        Some(path) => path.clone(),
        None => program_beside()?,
    };
    if !this.is_file() {
        return Err(InputError(anyhow::anyhow!(
            "{}: no such program (build it: cargo build --release, or give --program)",
            this.display()
        ))
        .into());
    }
    let baseline = match (&args.baseline, args.compare) {
        (Some(path), Compare::Baseline) => {
            if !path.is_file() {
                return Err(InputError(anyhow::anyhow!(
                    "--baseline {}: no such program",
                    path.display()
                ))
                .into());
            }
            path.clone()
        }
        (None, Compare::Baseline) => {
            return Err(InputError(anyhow::anyhow!(
                "--compare baseline needs --baseline PATH, the other build's program"
            ))
            .into())
        }
        (Some(_), _) => {
            return Err(InputError(anyhow::anyhow!("--baseline is for --compare baseline")).into())
        }
        (None, _) => PathBuf::new(),
    };
    if args.copies && args.compare != Compare::Threads {
        return Err(InputError(anyhow::anyhow!("--copies is for --compare threads")).into());
    }
    let cases = match &args.suite {
        Some(path) => read_suite(path)
            .map_err(InputError)?
            .iter()
            .map(Case::of)
            .collect(),
        None => args.boards.iter().map(|b| Case::start(b)).collect(),
    };
    Ok((this, baseline, cases))
}

pub fn run(mut args: SolveBenchArgs) -> anyhow::Result<ExitCode> {
    let (this, baseline, cases) = checked(&mut args)?;
    let contestants = args
        .compare
        .contestants(&args.threads, args.copies, &this, &baseline);
    let labels = Labels::of(args.compare);
    if !args.json {
        print_header(&labels, args.proof);
    }
    let mut rows = Vec::new();
    let mut all_runs = Vec::new();
    for case in &cases {
        let runs = take_turns(case, &contestants, &args)?;
        rows.extend(board_rows(&case.label, &contestants, &runs, &args, &labels));
        all_runs.push(runs);
    }
    if args.suite.is_some() {
        let totals = total_runs(&contestants, &all_runs);
        rows.extend(board_rows("total", &contestants, &totals, &args, &labels));
    }
    write_report(&args, rows)?;
    Ok(ExitCode::SUCCESS)
}

/// What the two ratios of a comparison are called, and whether the time ratio is a
/// speed-up (the reference's time over the contestant's) or the other way round.
struct Labels {
    time: &'static str,
    nodes: &'static str,
    speed_up: bool,
}

impl Labels {
    /// Ratios by wall time: how much slower and bigger the baselines are, or how much
    /// faster (and bigger) the search on more threads, or this build, is.
    fn of(compare: Compare) -> Labels {
        let (time, nodes) = match compare {
            Compare::Threads => ("speed-up", "overhead"),
            Compare::Baseline => ("speed-up", "x nodes"),
            _ => ("x time", "x nodes"),
        };
        Labels {
            time,
            nodes,
            speed_up: matches!(compare, Compare::Threads | Compare::Baseline),
        }
    }

    /// The ratios as the JSON names them; a ratio that is not a number is null.
    fn ratios(&self, ratios: Option<(f64, f64)>) -> BTreeMap<String, Option<f64>> {
        let finite = |r: f64| r.is_finite().then_some(r);
        BTreeMap::from([
            (
                self.time.replace([' ', '-'], "_"),
                ratios.and_then(|r| finite(r.0)),
            ),
            (
                self.nodes.replace(' ', "_"),
                ratios.and_then(|r| finite(r.1)),
            ),
        ])
    }
}

fn print_header(labels: &Labels, proof: bool) {
    outln!(
        "{:<8} {:<12} {:>7} {:<7} {:>12} {:>9} {:>9} {:>10} {:>9} {:>8} {:>8}{}",
        "board",
        "solver",
        "threads",
        "winner",
        "nodes",
        "median s",
        "wall s",
        "nodes/s",
        "peak MiB",
        labels.time,
        labels.nodes,
        if proof { "  proof s" } else { "" }
    );
}

/// Every contestant's runs on `board`, taking turns: every contestant once, then
/// again, --repeat times.
fn take_turns(
    case: &Case,
    contestants: &[Contestant],
    args: &SolveBenchArgs,
) -> anyhow::Result<Vec<Runs>> {
    let mut runs: Vec<Runs> = contestants
        .iter()
        .map(|_| Runs {
            all_solved: true,
            ..Runs::default()
        })
        .collect();
    for _ in 0..args.repeat {
        for (contestant, runs) in contestants.iter().zip(&mut runs) {
            let (report, wall) = solve_once(case, contestant, args)?;
            runs.all_solved &= report.status == Status::Solved;
            runs.seconds.push(report.stats.seconds);
            runs.walls.push(wall);
            runs.nodes.push(report.stats.nodes as f64);
            if let Some(ProofSummary::Certificate(proof)) = &report.proof {
                runs.proofs.push(proof.extraction_seconds);
            }
            runs.last = Some(report);
        }
    }
    Ok(runs)
}

/// Each contestant's totals over the cases, as one run: the sums of its median
/// seconds, wall seconds and nodes, solved if every case was.
fn total_runs(contestants: &[Contestant], all_runs: &[Vec<Runs>]) -> Vec<Runs> {
    (0..contestants.len())
        .map(|i| {
            let mut total = Runs {
                all_solved: true,
                ..Runs::default()
            };
            let (mut seconds, mut wall, mut nodes, mut proofs) = (0.0, 0.0, 0.0, None);
            let mut peak: Option<f64> = None;
            for runs in all_runs {
                let medians = Medians::of(&runs[i]);
                seconds += medians.seconds;
                wall += medians.wall;
                nodes += medians.nodes;
                if !runs[i].proofs.is_empty() {
                    let proof = median(&mut runs[i].proofs.clone());
                    proofs = Some(proofs.unwrap_or(0.0) + proof);
                }
                total.all_solved &= runs[i].all_solved;
                if let Some(last) = &runs[i].last {
                    let mine = last.stats.peak_memory_mb;
                    peak = match (peak, mine) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        (a, b) => a.or(b),
                    };
                    // The total's winner is no one's; its peak memory the largest.
                    let mut last = last.clone();
                    last.winner = None;
                    last.stats.peak_memory_mb = peak;
                    total.last = Some(last);
                }
            }
            total.seconds.push(seconds);
            total.walls.push(wall);
            total.nodes.push(nodes);
            total.proofs.extend(proofs);
            total
        })
        .collect()
}

/// The contestants' rows on `board` (printed too, without --json), with their
/// ratios to the reference.
fn board_rows(
    board: &str,
    contestants: &[Contestant],
    runs: &[Runs],
    args: &SolveBenchArgs,
    labels: &Labels,
) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    // What the ratios compare with: the first contestant's, or in a baseline
    // comparison the baseline's on the same thread count (the row before).
    let mut reference = (f64::NAN, f64::NAN);
    for (i, (contestant, runs)) in contestants.iter().zip(runs).enumerate() {
        let medians = Medians::of(runs);
        let (wall_if_solved, nodes_if_solved) = if runs.all_solved {
            (medians.wall, medians.nodes)
        } else {
            (f64::NAN, f64::NAN)
        };
        let is_reference = match args.compare {
            Compare::Baseline => contestant.name == "baseline",
            _ => i == 0,
        };
        if is_reference {
            reference = (wall_if_solved, nodes_if_solved);
        }
        let ratios = (!is_reference || args.compare == Compare::Threads).then(|| {
            let time = if labels.speed_up {
                // n copies did n times one solve's work.
                f64::from(contestant.copies) * reference.0 / wall_if_solved
            } else {
                wall_if_solved / reference.0
            };
            (time, nodes_if_solved / reference.1)
        });
        let Some(last) = &runs.last else {
            continue;
        };
        if !args.json {
            let proof = (!runs.proofs.is_empty()).then(|| median(&mut runs.proofs.clone()));
            print_row(board, contestant, last, &medians, ratios, proof);
        }
        let ratios = labels.ratios(ratios);
        rows.push(bench_row(board, contestant, runs, last, medians, ratios));
    }
    rows
}

/// One contestant's line of the table on one board.
fn print_row(
    board: &str,
    contestant: &Contestant,
    last: &SolveResult,
    medians: &Medians,
    ratios: Option<(f64, f64)>,
    proof_seconds: Option<f64>,
) {
    let peak = last.stats.peak_memory_mb;
    let winner = match last.winner {
        Some(side) => side.name(),
        None if board == TOTAL => "",
        None => "unknown",
    };
    let show = |r: Option<f64>| match r {
        Some(r) if r.is_finite() => format!("{r:.2}x"),
        Some(_) => "?".to_string(),
        None => String::new(),
    };
    outln!(
        "{:<8} {:<12} {:>7} {:<7} {:>12.0} {:>9.2} {:>9.2} {:>9.0}k {:>9.0} {:>8} {:>8}{}",
        board,
        contestant.name,
        contestant.threads,
        winner,
        medians.nodes,
        medians.seconds,
        medians.wall,
        medians.nodes / medians.seconds / 1e3,
        peak.unwrap_or(f64::NAN),
        show(ratios.map(|r| r.0)),
        show(ratios.map(|r| r.1)),
        proof_seconds.map_or(String::new(), |s| format!(" {s:>8.2}")),
    );
}

/// Prints the JSON with --json, and writes it to --out if given.
fn write_report(args: &SolveBenchArgs, rows: Vec<BenchRow>) -> anyhow::Result<()> {
    let report = BenchFile {
        compare: args
            .compare
            .to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string()),
        repeat: args.repeat,
        tt_mb: args.tt_mb,
        baseline: args.baseline.clone(),
        machine: breakthrough_cli::system::machine(),
        note: None,
        solve: rows,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    }
    if let Some(path) = &args.out {
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
