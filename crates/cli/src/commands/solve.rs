//! `breakthrough solve`: prove who wins a position.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use breakthrough_cli::text::human;
use breakthrough_cli::write_atomically;
use breakthrough_engine::{Color, Position};
use breakthrough_result::{LengthSearch, Outcome, Side, SolveResult, PROOF_UNFINISHED};
use breakthrough_solver::estimate::DEFAULT_WEIGHT;
use breakthrough_solver::{check_earlier, Algorithm, Limits, Probe, Proof, Solution, SolveOptions};
use clap::{Args, ValueEnum};

use crate::args::PositionArgs;
use breakthrough_cli::solve_result::{outcome, solve_result, verdict, Sample, Written};
use breakthrough_cli::{search, system, InputError};

/// Prove who wins a position with best play (the start position by default).
///
/// Exit code 0 when solved, 3 when a limit or Ctrl-C stopped the search (the JSON is
/// still written, with the figures so far: status "unknown" if the winner was not
/// proven yet, else "solved" with `stopped_by` and what was left unfinished), 2 for
/// bad input.
///
/// A solve lives in one process and one table: stopped, its work is gone. For a
/// board that takes longer than one sitting, or whose proof outgrows the table, use
/// `breakthrough campaign run` instead (resumable, with a store of solved positions).
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub target: PositionArgs,

    /// Search algorithm: df-pn, or the plain exhaustive reference search.
    #[arg(long, value_enum, default_value_t = AlgoArg::Dfpn)]
    pub algo: AlgoArg,

    /// Threads for df-pn [default: all cores]. They share one table; see
    /// docs/design/parallel.md for the design. The reference search uses one.
    #[arg(long, short = 't', value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Turn the race rules off (win in one, threats, race wins): plain search that
    /// only knows when a game is over, for ablation.
    #[arg(long, alias = "no-patterns")]
    pub no_race_rules: bool,

    /// Longest race win the rules look for, in moves of the side to move [default:
    /// 4, 5 on boards of 36 squares or more]; df-pn looks for wins one move longer
    /// in the positions it returns to, on boards of 30 squares or more.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=6))]
    pub race_moves: Option<u32>,

    /// Deep df-pn's depth bias D: a new position d plies below the root starts with
    /// D - 1 - d added to both its proof and disproof numbers, so that the search
    /// finishes the lines it is in before opening new ones near the root [default:
    /// the board's number of squares]. 0 turns it off (plain df-pn with mobility),
    /// for ablation.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub depth_bias: Option<u32>,

    /// How far df-pn's new positions follow its learned estimate of who wins
    /// (docs/design/search.md): a position's proof and disproof numbers start at
    /// e^-s and its moves times e^s, for s the estimate's log-odds that the side to
    /// move wins times W. 0 turns it off (plain mobility), for ablation.
    #[arg(long, value_name = "W", default_value_t = DEFAULT_WEIGHT,
          value_parser = estimate_weight)]
    pub estimate_weight: f32,

    /// Transposition table size in MiB [default: 64 up to 20 squares, 256 up to 25
    /// (512 with --length), 2048 up to 30, else a quarter of the available memory,
    /// between 64 and 4096].
    /// Memory is taken as the search writes to it; a full table keeps the entries
    /// that cost most.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub tt_mb: Option<u64>,

    /// Give up after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,

    /// Give up after this many nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,

    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,

    /// Also write the JSON object to this file (atomically: written, then renamed).
    /// With --proof it is written first when the proof's extraction starts, with
    /// `stopped_by` "proof_unfinished", so that a process killed while writing the
    /// proof keeps what it found (the length's answers, for --length-resume).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Also write a proof certificate of the result to this file, for `breakthrough
    /// verify` (extracted after the solve; it records the winner's strategy in full).
    /// With --length, the certificate of the length: the winner's strategy that wins
    /// within it and the loser's that holds out one ply less. Format version 3.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,

    /// Memory in MiB for the proof's extraction to remember the positions it has
    /// written (about 41 bytes each), so that a transposition refers back instead of
    /// writing its proof again. A bigger proof is still written, in bounded memory,
    /// with some positions written more than once.
    #[arg(long, value_name = "MB", default_value_t = breakthrough_solver::DEFAULT_PROOF_MB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    pub proof_mb: usize,

    /// Leave short endings to the verifier: the certificate marks each position
    /// whose claim holds within this many plies "settled", in place of its proof,
    /// and `verify` decides it by its own exhaustive search over the rules. More
    /// plies make smaller certificates that take longer to verify; 0 writes every
    /// move out.
    #[arg(long, value_name = "PLIES", default_value_t = breakthrough_proof::DEFAULT_SETTLE_PLIES,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(breakthrough_proof::MAX_SETTLE_PLIES)))]
    pub settle_plies: u32,

    /// Also find the exact length of the game under perfect play, in plies: the
    /// winner wins as fast as it can, the loser holds out as long as it can (JSON
    /// `length`). The main line is then perfect play. See docs/RULES.md.
    #[arg(long)]
    pub length: bool,

    /// With --length: go on from an earlier --length run of the same position that a
    /// limit stopped. FILE is its JSON (as --out wrote it): its answers are taken as
    /// they are, the questions start after its last "no", and the JSON written now
    /// holds its answers too (`length_search.earlier`), so runs can follow one
    /// another (scripts/length.sh does). Its table is not kept: the question it cut
    /// short starts over
    #[arg(long, value_name = "FILE")]
    pub length_resume: Option<PathBuf>,

    /// With --length: ask first whether the winner wins within PLIES plies, then two
    /// plies fewer after each yes and two more after each no, until a yes has a no
    /// two plies below it. Without it the questions start at the shortest game; a
    /// good guess (an earlier run's length, say) leaves out the questions below it.
    /// The length found does not depend on the guess, only the time it takes. PLIES
    /// of the wrong parity for the winner count as one more
    #[arg(long, value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(breakthrough_solver::MAX_LENGTH_GUESS)))]
    pub length_guess: Option<u32>,

    /// Solve every legal move at the root, not only one winning move: each one's
    /// outcome and, with --length, its length (the plies to the end of the game after
    /// it, the move counted).
    #[arg(long)]
    pub all_moves: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AlgoArg {
    Dfpn,
    Reference,
}

impl From<AlgoArg> for Algorithm {
    fn from(algo: AlgoArg) -> Algorithm {
        match algo {
            AlgoArg::Dfpn => Algorithm::Dfpn,
            AlgoArg::Reference => Algorithm::Reference,
        }
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let (_, position) = args.target.resolve()?;
    let options = solve_options(&args, &position)?;
    let (solution, course) =
        search::with_progress(&position, &options, args.quiet, &mut |found, course| {
            save_before_proof(&args, found, &options, course)
        });
    warn_if_earlier_disagrees(&options, &solution);
    show_and_save(&args, &solution, &options, &course)?;
    if let Some(Err(err)) = &solution.proof {
        return Err(anyhow::anyhow!("no certificate written: {err}"));
    }
    Ok(if solution.stopped.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

/// Writes `--out` before the proof's extraction starts, marked `proof_unfinished`:
/// a process killed while writing the proof (a session's end, the memory killer)
/// then leaves the solve's answers, its length's among them, for `--length-resume`
/// and for scripts; the finished run writes the file again. A failed write only
/// warns: the search goes on to its proof and the final write.
fn save_before_proof(
    args: &SolveArgs,
    solution: &Solution,
    options: &SolveOptions,
    course: &[Sample],
) {
    let Some(path) = &args.out else {
        return;
    };
    let mut report = solve_result(solution, options, None, course, system::wall_seconds());
    report.stopped_by = Some(PROOF_UNFINISHED.to_string());
    let written = serde_json::to_string_pretty(&report)
        .map_err(anyhow::Error::from)
        .and_then(|mut text| {
            text.push('\n');
            write_atomically(path, text.as_bytes())
        });
    if let Err(err) = written {
        eprintln!(
            "warning: cannot write {} before the proof: {err:#}",
            path.display()
        );
    }
}

/// The search's options from the arguments, every one checked before the search
/// starts; Ctrl-C is then set to stop the search.
fn solve_options(args: &SolveArgs, position: &Position) -> anyhow::Result<SolveOptions> {
    let time_limit = time_limit(args.time_limit)?;
    check_table_fits(args.tt_mb)?;
    // A result can take hours: find out now, not after, that it cannot be saved.
    for (flag, path) in [("--out", &args.out), ("--proof", &args.proof)] {
        if let Some(path) = path {
            check_directory(flag, path)?;
        }
    }
    let length_earlier = length_earlier(args, position)?;
    check_needs_dfpn(args)?;
    let threads = threads(args)?;
    let stop = stop_on_ctrl_c()?;
    Ok(SolveOptions {
        algorithm: args.algo.into(),
        table_mb: args.tt_mb.map_or_else(
            || system::default_table_mb(position.board(), args.length),
            |mb| mb as usize,
        ),
        limits: Limits {
            max_nodes: args.max_nodes,
            time_limit,
            stop: Some(stop),
        },
        race_rules: !args.no_race_rules,
        race_moves: args.race_moves,
        proof: args.proof.is_some(),
        proof_mb: args.proof_mb,
        settle_plies: args.settle_plies,
        threads,
        length: args.length,
        length_earlier,
        length_guess: args.length_guess,
        all_moves: args.all_moves,
        depth_bias: args.depth_bias,
        estimate_weight: args.estimate_weight,
        ..SolveOptions::default()
    })
}

/// `--estimate-weight`: a number from 0 to 100.
fn estimate_weight(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=100.0).contains(&w) => Ok(w),
        _ => Err(format!("{text} is not a number from 0 to 100")),
    }
}

/// `--time-limit` as a duration; bad input unless a positive number of seconds.
fn time_limit(secs: Option<f64>) -> Result<Option<Duration>, InputError> {
    match secs {
        Some(secs) if !(secs.is_finite() && secs > 0.0) => Err(InputError(anyhow::anyhow!(
            "--time-limit must be a positive number of seconds, not {secs}"
        ))),
        Some(secs) => Duration::try_from_secs_f64(secs)
            .map(Some)
            .map_err(|_| InputError(anyhow::anyhow!("--time-limit {secs} is too large"))),
        None => Ok(None),
    }
}

/// Refuses a `--tt-mb` above the memory available now.
fn check_table_fits(tt_mb: Option<u64>) -> Result<(), InputError> {
    if let (Some(mb), Some(available)) = (tt_mb, system::available_memory_mb()) {
        if mb > available {
            return Err(InputError(anyhow::anyhow!(
                "--tt-mb {mb} is more than the memory available now ({available} MiB)"
            )));
        }
    }
    Ok(())
}

/// The earlier run's answers that `--length-resume` names, if it does.
fn length_earlier(
    args: &SolveArgs,
    position: &Position,
) -> Result<Option<(Color, Vec<Probe>)>, InputError> {
    let length_earlier = match (&args.length_resume, args.length) {
        (Some(_), false) => {
            return Err(InputError(anyhow::anyhow!(
                "--length-resume goes on with the length's questions: add --length"
            )))
        }
        (Some(path), true) => Some(earlier_answers(path, position)?),
        (None, _) => None,
    };
    if args.length_guess.is_some() && !args.length {
        return Err(InputError(anyhow::anyhow!(
            "--length-guess is where the length's questions start: add --length"
        )));
    }
    Ok(length_earlier)
}

/// Refuses --length and --all-moves with the reference search: they use df-pn.
fn check_needs_dfpn(args: &SolveArgs) -> Result<(), InputError> {
    if let (AlgoArg::Reference, true) = (args.algo, args.length || args.all_moves) {
        return Err(InputError(anyhow::anyhow!(
            "--length and --all-moves use df-pn; leave out --algo reference"
        )));
    }
    Ok(())
}

/// The search's threads: `--threads`, all cores by default, one for the reference.
fn threads(args: &SolveArgs) -> Result<usize, InputError> {
    match (args.algo, args.threads) {
        (AlgoArg::Reference, Some(n)) if n > 1 => Err(InputError(anyhow::anyhow!(
            "--threads {n}: the reference search runs on one thread"
        ))),
        (AlgoArg::Reference, _) => Ok(1),
        (AlgoArg::Dfpn, Some(n)) => Ok(n as usize),
        (AlgoArg::Dfpn, None) => Ok(system::cores()),
    }
}

/// The flag that Ctrl-C sets: the search then stops and reports what it has, as
/// for any limit.
fn stop_on_ctrl_c() -> anyhow::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}

/// Warns when the `--length-resume` run's winner is not the one proven now.
fn warn_if_earlier_disagrees(options: &SolveOptions, solution: &Solution) {
    if let (Some((about, _)), Some(winner)) = (&options.length_earlier, solution.winner) {
        if *about != winner {
            // Proven both ways cannot be: the file is not what it says.
            eprintln!(
                "warning: --length-resume: its run says {about} wins, this solve proved \
                 {winner} does: its answers were not used"
            );
        }
    }
}

/// Prints the result (JSON or the summary), then writes `--out` and `--proof`.
fn show_and_save(
    args: &SolveArgs,
    solution: &Solution,
    options: &SolveOptions,
    course: &[Sample],
) -> anyhow::Result<()> {
    // The certificate first: the JSON records its size.
    let proof_bytes = match &solution.proof {
        Some(Ok(proof)) => proof.to_bytes(),
        _ => Vec::new(),
    };
    let certificate = match (&args.proof, &solution.proof) {
        (Some(path), Some(Ok(proof))) => Some((path.as_path(), proof, proof_bytes.as_slice())),
        _ => None,
    };
    // Show the result before saving it, so that a failed write loses nothing.
    let report = solve_result(
        solution,
        options,
        certificate,
        course,
        system::wall_seconds(),
    );
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_summary(solution, options, certificate);
    }
    if let Some(path) = &args.out {
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        write_atomically(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some((path, _, _)) = certificate {
        write_atomically(path, &proof_bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The answers of the earlier, stopped length search of `position` in `path` (its
/// `solve --length --out` JSON), and the winner they are about; bad input otherwise.
fn earlier_answers(path: &Path, position: &Position) -> Result<(Color, Vec<Probe>), InputError> {
    let bad =
        |why: String| InputError(anyhow::anyhow!("--length-resume {}: {why}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let earlier =
        SolveResult::from_json(&text).map_err(|e| bad(format!("not a solve result ({e})")))?;
    if earlier.position != position.to_string() {
        return Err(bad(format!(
            "a result of {}, not of {position}",
            earlier.position
        )));
    }
    let winner = match earlier.winner {
        Some(Side::White) => Color::White,
        Some(Side::Black) => Color::Black,
        None => return Err(bad("no winner: its solve did not finish".to_string())),
    };
    let answers: Vec<Probe> = earlier
        .length_search
        .iter()
        .flat_map(LengthSearch::answers)
        .map(|p| Probe {
            plies: p.plies,
            wins: p.wins,
            nodes: p.nodes,
            seconds: p.seconds,
        })
        .collect();
    check_earlier(position, winner, &answers).map_err(bad)?;
    Ok((winner, answers))
}

fn outcome_name(wins: Option<bool>) -> &'static str {
    match outcome(wins) {
        Outcome::Win => "win",
        Outcome::Loss => "loss",
        Outcome::Unproven => "unproven",
    }
}

fn print_summary(solution: &Solution, options: &SolveOptions, certificate: Written) {
    let stats = &solution.stats;
    outln!("board      {}", solution.position.board());
    outln!("position   {}", solution.position);
    match (solution.winner, solution.stopped) {
        (None, Some(stop)) => outln!("result     unknown: {stop}"),
        (Some(_), Some(stop)) => {
            // The winner is proven; what was asked after it was not finished.
            outln!("result     {}", verdict(solution));
            outln!("stopped    {stop}, after the solve");
        }
        _ => outln!("result     {}", verdict(solution)),
    }
    if let Some(best) = solution.best_move {
        outln!("best move  {best}");
    }
    print_length(solution);
    if solution.root_moves.iter().any(|m| m.length.is_some()) || options.all_moves {
        print_root_moves(solution);
    }
    outln!(
        "nodes      {} in {:.2} s ({} nodes/s), {} on {} thread{}",
        stats.nodes,
        stats.seconds,
        human(stats.nodes as f64 / stats.seconds.max(1e-9)),
        options.algorithm.name(),
        stats.threads,
        if stats.threads == 1 { "" } else { "s" }
    );
    outln!(
        "table      {} MiB, {:.1}% full",
        options.table_mb,
        100.0 * stats.table.used as f64 / stats.table.capacity.max(1) as f64
    );
    if let Some((path, proof, bytes)) = certificate {
        print_certificate(path, proof, bytes);
    }
}

/// The summary's length line: found, or how far its search got.
fn print_length(solution: &Solution) {
    if let Some(length) = &solution.length {
        outln!(
            "length     {} plies under perfect play ({} questions, {} nodes, {:.2} s)",
            length.plies,
            length.probes.len(),
            length.nodes(),
            length.seconds()
        );
    }
    if let Some(partial) = &solution.partial_length {
        let answered = partial.probes.len();
        outln!(
            "length     at least {} plies: {answered} question{} answered{}, stopped on the one of {} plies ({} nodes, {:.2} s)",
            partial.at_least,
            if answered == 1 { "" } else { "s" },
            match partial.earlier.len() {
                0 => String::new(),
                n => format!(" after {n} of an earlier run"),
            },
            partial.unanswered.plies,
            partial.nodes(),
            partial.seconds()
        );
    }
}

/// The summary's line of root moves: each one's outcome, and its length if known.
fn print_root_moves(solution: &Solution) {
    let moves: Vec<String> = solution
        .root_moves
        .iter()
        .map(|m| match m.length {
            Some(plies) => format!("{} {} {plies}", m.mv, outcome_name(m.wins)),
            None => format!("{} {}", m.mv, outcome_name(m.wins)),
        })
        .collect();
    outln!("moves      {}", moves.join(", "));
}

/// The summary's lines of the certificate written: its main line, and its figures.
fn print_certificate(path: &Path, proof: &Proof, bytes: &[u8]) {
    let line: Vec<String> = proof
        .principal_variation
        .iter()
        .map(ToString::to_string)
        .collect();
    let kind = if proof.is_perfect_play() {
        "perfect play"
    } else {
        "the proof's line: a winning move, not the fastest"
    };
    outln!(
        "main line  {} ({} plies, {kind})",
        line.join(" "),
        line.len()
    );
    outln!(
        "proof      {}: {} positions, {} bytes, longest game {} plies; extracted in {:.2} s",
        path.display(),
        proof.positions(),
        bytes.len(),
        proof.height,
        proof.seconds
    );
}

/// Refuses a path whose directory does not exist.
fn check_directory(flag: &str, path: &Path) -> Result<(), InputError> {
    match breakthrough_cli::missing_directory(path) {
        None => Ok(()),
        Some(dir) => Err(InputError(anyhow::anyhow!(
            "{flag} {}: no such directory {}",
            path.display(),
            dir.display()
        ))),
    }
}
