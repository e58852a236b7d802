//! `breakthrough reproduce`: solve every published board again, verify each proof,
//! and set our results beside the published ones.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{bail, Context};
use breakthrough_cli::results::{read_campaign, read_published, read_results, Published, Solved};
use breakthrough_proof::verify_file;
use breakthrough_result::{Side, SolveResult, Status};
use clap::Args;

/// Solve every board of RESULTS/published.json from the start with the default
/// settings, verify each certificate with the rules alone, and print a table of
/// published and our results. Where a published result gives the game's length
/// under perfect play (`plies`), the solve finds it too (`--length`), and its
/// certificate proves it; the published opening is printed beside ours. Exit code
/// 1 on any mismatch or failed proof. A published board with a campaign
/// (RESULTS/<board>-campaign.json, as 5x6) is listed with where its campaign stands,
/// not solved again (`breakthrough verify` checks a solved campaign's certificate).
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Skip boards whose solve in RESULTS/<board>.json took more than a minute.
    #[arg(long)]
    pub quick: bool,

    /// The results directory (published.json, and our earlier results for --quick).
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
}

/// Runs this program with `args`; its exit code and stdout.
fn child(args: &[&str]) -> anyhow::Result<(Option<i32>, Vec<u8>)> {
    let exe = std::env::current_exe().context("cannot find this program")?;
    let output = Command::new(exe)
        .args(args)
        .output()
        .context("cannot run a child process")?;
    Ok((output.status.code(), output.stdout))
}

/// "first"/"second" for a start position's winner.
fn order(result: &SolveResult) -> &'static str {
    result.winner.map_or("unknown", |side| side.order())
}

pub fn run(args: ReproduceArgs) -> anyhow::Result<ExitCode> {
    let published = read_published(&args.results)?;
    let ours_before = read_results(&args.results).unwrap_or_default();
    let scratch =
        std::env::temp_dir().join(format!("breakthrough-reproduce-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    print_header();
    let mut failures = 0u32;
    let mut openings = Vec::new();
    for entry in &published {
        let (board, expected) = (entry.board.as_str(), entry.winner.as_str());
        if let Some(why) = not_solved_here(entry, &ours_before, &args, &mut failures) {
            outln!("{board:<6} {expected:<10} {why}");
            continue;
        }
        let reproduced = reproduce(entry, &scratch)?;
        if !reproduced.agrees(expected) {
            failures += 1;
        }
        if let Some(theirs) = entry.opening.as_deref() {
            let ours = reproduced.opening(theirs);
            openings.push((board.to_string(), theirs.to_string(), ours));
        }
        print_row(entry, &reproduced);
    }
    std::fs::remove_dir_all(&scratch).ok();
    for (board, theirs, ours) in &openings {
        outln!("{board} opening: published {theirs}; ours (perfect play) {ours}");
    }
    if failures > 0 {
        eprintln!(
            "error: {failures} board(s) disagree with the published result or failed to verify"
        );
        return Ok(ExitCode::from(1));
    }
    outln!("all published results reproduced, every proof verified");
    Ok(ExitCode::SUCCESS)
}

fn print_header() {
    outln!(
        "{:<6} {:<10} {:<10} {:<11} {:<9} {:>10} {:>8} {:>13} {:>12} {:>6}",
        "board",
        "published",
        "ours",
        "plies",
        "proof",
        "seconds",
        "threads",
        "nodes",
        "published s",
        "cores"
    );
}

/// The published solve's seconds and cores, as the table prints them.
fn published_cost(entry: &Published) -> (String, String) {
    let seconds = entry.seconds.map_or("-".to_string(), |s| format!("{s:.0}"));
    let cores = entry.cores.map_or("-".to_string(), |c| c.to_string());
    (seconds, cores)
}

/// The rest of the table's line for a board not solved here, or `None` to solve
/// it: one with a campaign, or with --quick one whose earlier solve took over a
/// minute. A campaign's failure is counted in `failures`.
fn not_solved_here(
    entry: &Published,
    ours_before: &[Solved],
    args: &ReproduceArgs,
    failures: &mut u32,
) -> Option<String> {
    let board = entry.board.as_str();
    let before = ours_before
        .iter()
        .find(|r| r.board == board)
        .map(|r| r.result.stats.seconds);
    let (published_seconds, cores) = published_cost(entry);
    // A board with a campaign (5x6) is beyond one solve: say where it stands.
    let campaign = args.results.join(format!("{board}-campaign.json"));
    if campaign.exists() {
        Some(campaign_line(entry, &campaign, ours_before, failures))
    } else if args.quick && !matches!(before, Some(s) if s <= 60.0) {
        Some(format!(
            "{:<10} {:<11} {:<9} {:>10} {:>8} {:>13} {published_seconds:>12} {cores:>6}",
            "skipped", "", "", "", "", ""
        ))
    } else {
        None
    }
}

/// Where the campaign of a board stands, as the table says it; a solved campaign
/// whose winner is not the published one, or a damaged status, counts as a failure.
fn campaign_line(
    entry: &Published,
    campaign: &Path,
    ours_before: &[Solved],
    failures: &mut u32,
) -> String {
    let (board, expected) = (entry.board.as_str(), entry.winner.as_str());
    match read_campaign(campaign).ok() {
        Some(status) if status.status == Status::Solved => {
            // Its result.json, copied here by scripts/campaign.sh.
            let winner = ours_before
                .iter()
                .find(|r| r.board == board)
                .map_or("unknown", |r| order(&r.result));
            if winner != expected {
                *failures += 1;
            }
            format!(
                "{}{} by a campaign ({}; too big for one solve)",
                winner,
                if winner == expected { "" } else { " (!)" },
                campaign.display()
            )
        }
        Some(_) => format!("not solved here yet: a campaign, {}", campaign.display()),
        None => {
            *failures += 1;
            format!("{} is not a campaign's status", campaign.display())
        }
    }
}

/// A board solved again here and its certificate verified.
struct Reproduced {
    ours: SolveResult,
    /// Whether the certificate verified.
    holds: bool,
    /// Whether the length, where one is published, is ours and the certificate's.
    length_agrees: bool,
    /// Whether the certificate's winner is ours.
    same_winner: bool,
}

impl Reproduced {
    /// Whether it agrees with the published winner `expected` and its proof holds.
    fn agrees(&self, expected: &str) -> bool {
        order(&self.ours) == expected && self.holds && self.length_agrees && self.same_winner
    }

    /// Our main line, as many moves as the published opening `theirs` has.
    fn opening(&self, theirs: &str) -> String {
        // Moves only, not the alternatives in brackets: "a2-a3 (or e2-e3) b4xa3".
        let moves = theirs
            .split_whitespace()
            .filter(|w| w.contains(['-', 'x']) && !w.ends_with(')'))
            .count();
        let line: Vec<&str> = self
            .ours
            .principal_variation
            .iter()
            .flatten()
            .map(String::as_str)
            .take(moves)
            .collect();
        line.join(" ")
    }
}

/// Solves the board of `entry` in a child process (with --length where a length is
/// published), its certificate written in `scratch`, and verifies the certificate
/// with the proof crate's rules-only verifier, as `breakthrough verify` does.
fn reproduce(entry: &Published, scratch: &Path) -> anyhow::Result<Reproduced> {
    let board = entry.board.as_str();
    let proof = scratch.join(format!("{board}.cert"));
    let proof_path = proof.to_str().context("temporary path is not UTF-8")?;
    let plies = entry.plies;
    let mut solve_args = vec!["solve", board, "--quiet", "--json", "--proof", proof_path];
    if plies.is_some() {
        solve_args.push("--length");
    }
    let (code, stdout) = child(&solve_args)?;
    if code != Some(0) {
        bail!("solve {board} failed (exit {code:?})");
    }
    let ours = SolveResult::from_json(&String::from_utf8_lossy(&stdout))
        .with_context(|| format!("solve {board} printed no result"))?;
    let bytes =
        std::fs::read(&proof).with_context(|| format!("cannot read {}", proof.display()))?;
    let verified = verify_file(&bytes);
    if let Err(err) = &verified {
        eprintln!("error: {board}: {err}");
    }
    let verified = verified.ok();
    let holds = verified.is_some();
    let proven_length = verified.as_ref().and_then(|v| v.length);
    let length_agrees = match plies {
        Some(plies) => ours.length == Some(plies) && proven_length == Some(plies),
        None => true,
    };
    let proven_winner = verified
        .as_ref()
        .and_then(|v| v.reports.first())
        .map(|report| report.winner.name());
    let same_winner = proven_winner == ours.winner.map(Side::name);
    Ok(Reproduced {
        ours,
        holds,
        length_agrees,
        same_winner,
    })
}

/// The table's line of a board solved again here.
fn print_row(entry: &Published, reproduced: &Reproduced) {
    let (board, expected) = (entry.board.as_str(), entry.winner.as_str());
    let (published_seconds, cores) = published_cost(entry);
    let ours = &reproduced.ours;
    let winner = order(ours);
    let stats = &ours.stats;
    let plies_text = match entry.plies {
        Some(plies) => format!(
            "{plies}/{}{}",
            ours.length.map_or("null".to_string(), |l| l.to_string()),
            if reproduced.length_agrees { "" } else { " (!)" }
        ),
        None => "-".to_string(),
    };
    outln!(
        "{board:<6} {expected:<10} {:<10} {plies_text:<11} {:<9} {:>10.2} {:>8} {:>13} {published_seconds:>12} {cores:>6}",
        if winner == expected { winner.to_string() } else { format!("{winner} (!)") },
        if reproduced.holds { "verified" } else { "FAILED" },
        stats.seconds,
        stats.threads,
        stats.nodes,
    );
}
