//! `breakthrough inspect`: a researcher's view of a solve result (and its certificate).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use breakthrough_engine::Position;
use breakthrough_result::{LineKind, Outcome, ProofSummary, SolveResult};
use clap::Args;

use crate::commands::verify::{check, print_parts};
use breakthrough_cli::InputError;

/// Show a result written by `solve --out`: the verdict, every root move with its
/// outcome, the main line as diagrams, and the search's figures.
///
/// With --proof, the certificate is also verified (rules only) and described: its
/// size, positions by depth, and branching. Exit code 4 when that proof fails.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A result JSON file from `solve --out`.
    pub result: PathBuf,

    /// The certificate written with it (`solve --proof`), to verify and describe.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,

    /// Diagrams side by side up to this many columns of text.
    #[arg(long, default_value_t = 100, value_name = "COLS")]
    pub width: usize,
}

pub fn run(args: InspectArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.result)
        .with_context(|| format!("cannot read {}", args.result.display()))?;
    let result = SolveResult::from_json(&text)
        .with_context(|| format!("{} is not a solve result", args.result.display()))
        .map_err(InputError)?;
    let board = result
        .board
        .parse()
        .with_context(|| format!("{}: bad board", args.result.display()))
        .map_err(InputError)?;
    let root = Position::parse_on(board, &result.position)
        .with_context(|| format!("{}: bad position", args.result.display()))
        .map_err(InputError)?;

    outln!("board      {board}");
    outln!("position   {root}");
    outln!("result     {}", result.verdict);
    if let Some(best) = &result.best_move {
        outln!("best move  {best}");
    }
    if let Some(plies) = result.length {
        outln!("length     {plies} plies under perfect play");
    }
    if !result.root_moves.is_empty() {
        let moves: Vec<String> = result
            .root_moves
            .iter()
            .map(|m| {
                let outcome = match m.outcome {
                    Outcome::Win => "win",
                    Outcome::Loss => "loss",
                    Outcome::Unproven => "unproven",
                };
                match m.length {
                    Some(plies) => format!("{} {outcome} in {plies}", m.mv),
                    None => format!("{} {outcome}", m.mv),
                }
            })
            .collect();
        outln!("root moves {}", moves.join(", "));
    }
    print_stats(&result);

    match &result.principal_variation {
        Some(line) => print_line(&root, line, line_kind(&result), args.width)
            .with_context(|| format!("{}: bad principal_variation", args.result.display()))
            .map_err(InputError)?,
        None => outln!("\n(no main line: the result was solved without --proof)"),
    }

    let Some(path) = &args.proof else {
        return Ok(ExitCode::SUCCESS);
    };
    outln!("\ncertificate {}", path.display());
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (reports, length) = match check(&bytes) {
        Ok(checked) => checked,
        Err(err) => {
            eprintln!("error: {}: {err:#}", path.display());
            return Ok(ExitCode::from(4));
        }
    };
    let report = &reports[0];
    if report.root != root {
        eprintln!(
            "error: {} proves {}, not the result's position",
            path.display(),
            report.root
        );
        return Ok(ExitCode::from(4));
    }
    print_parts(&reports, bytes.len(), length);
    outln!("verified   the proof holds");
    if reports.len() > 1 {
        outln!("positions by ply (first reached) of part 1, the winner's:");
    } else {
        outln!("positions by ply (first reached):");
    }
    let widest = report
        .depth_histogram
        .iter()
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    for (ply, &count) in report.depth_histogram.iter().enumerate() {
        let bar = "#".repeat(((count as f64 / widest as f64) * 50.0).ceil() as usize);
        outln!("  {ply:>3} {count:>10} {bar}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The search's figures, in a few lines.
fn print_stats(result: &SolveResult) {
    let stats = &result.stats;
    let solver = &result.solver;
    let rules = match solver.race_moves {
        Some(moves) if solver.race_rules => format!("race wins up to {moves} moves"),
        _ => "no race rules".to_string(),
    };
    outln!(
        "search     {} nodes in {:.2} s ({:.2} M nodes/s), {} thread(s), {}, {rules}",
        stats.nodes,
        stats.seconds,
        stats.nodes_per_second / 1e6,
        stats.threads,
        solver.algorithm,
    );
    let search = stats.search.as_ref();
    if let Some(per_thread) = search.map(|s| &s.thread_nodes).filter(|t| t.len() > 1) {
        let per_thread: Vec<String> = per_thread.iter().map(u64::to_string).collect();
        outln!("threads    nodes per thread: {}", per_thread.join(", "));
    }
    outln!(
        "root       proof {} / disproof {}; peak memory {} MiB",
        stats.root_proof,
        stats.root_disproof,
        stats
            .peak_memory_mb
            .map_or("-".to_string(), |mb| format!("{mb:.1}")),
    );
    if let Some(search) = search {
        let table = &search.table;
        outln!(
            "table      {} MiB, {} of {} entries used ({:.1}%), {} replacements",
            table.megabytes,
            table.used,
            table.capacity,
            100.0 * table.fill,
            table.replacements,
        );
        print_race_rules(search);
    }
    if let Some(ProofSummary::Certificate(proof)) = &result.proof {
        outln!(
            "proof      {}: {} bytes, {} positions, longest game {} plies",
            proof.file.as_deref().unwrap_or("-"),
            proof.bytes,
            proof.positions,
            proof.height,
        );
    }
}

/// Positions each race rule closed, by kind, in the order of their names.
fn print_race_rules(search: &breakthrough_result::SearchStats) {
    let rules = &search.race_rules;
    let mut counts: Vec<(String, u64)> = vec![
        ("closed".into(), rules.closed),
        ("double_threat".into(), rules.double_threat),
        ("game_over".into(), rules.game_over),
        ("must_capture_narrowed".into(), rules.must_capture_narrowed),
        ("unstoppable_threat".into(), rules.unstoppable_threat),
        ("win_in_one".into(), rules.win_in_one),
    ];
    counts.extend(rules.race_wins.iter().map(|(k, &v)| (k.clone(), v)));
    counts.sort();
    let parts: Vec<String> = counts
        .iter()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect();
    outln!("race rules {}", parts.join(", "));
}

/// What kind of line the result's main line is, in words.
fn line_kind(result: &SolveResult) -> &'static str {
    match result.principal_variation_kind {
        Some(LineKind::PerfectPlay) => "perfect play: the fastest win against the longest defence",
        _ => "the proof's line: a winning strategy's moves, not always the fastest",
    }
}

/// The main line replayed from the root, as diagrams side by side.
fn print_line(root: &Position, line: &[String], kind: &str, width: usize) -> anyhow::Result<()> {
    outln!("\nmain line ({} plies, {kind}):", line.len());
    let mut panels = vec![("start".to_string(), root.diagram())];
    let mut position = *root;
    for (ply, text) in line.iter().enumerate() {
        let mv = position
            .parse_move(text)
            .with_context(|| format!("move {}", ply + 1))?;
        position = position.play(mv);
        panels.push((format!("{}. {mv}", ply + 1), position.diagram()));
    }
    let panel_width = panels
        .iter()
        .flat_map(|(title, diagram)| {
            std::iter::once(title.len()).chain(diagram.lines().map(str::len))
        })
        .max()
        .unwrap_or(0)
        + 3;
    let per_row = (width / panel_width).max(1);
    for row in panels.chunks(per_row) {
        outln!();
        let mut lines = vec![String::new()];
        for (title, _) in row {
            lines[0].push_str(&format!("{title:<panel_width$}"));
        }
        for (i, (_, diagram)) in row.iter().enumerate() {
            for (j, text) in diagram.lines().enumerate() {
                if lines.len() <= j + 1 {
                    lines.push(" ".repeat(i * panel_width));
                }
                lines[j + 1].push_str(&format!("{text:<panel_width$}"));
            }
        }
        for text in lines {
            outln!("{}", text.trim_end());
        }
    }
    if let Some(winner) = position.winner() {
        outln!("\n{winner} has won.");
    }
    Ok(())
}
