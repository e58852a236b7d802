//! The exact length of the game where it is missing: a separate run's bound, or
//! what computing it would cost.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use breakthrough_cli::results::Solved;
use breakthrough_cli::text::human;
use breakthrough_result::{LengthSearch, SolveResult};

/// The file of a separate length search of the board, `<board>-length.json`
/// (`solve BOARD --length --out` it), if there is one.
pub fn length_run(dir: &Path, board: &str) -> anyhow::Result<Option<SolveResult>> {
    let path = dir.join(format!("{board}-length.json"));
    if !path.exists() {
        return Ok(None);
    }
    let result = SolveResult::from_json(&std::fs::read_to_string(&path)?)
        .with_context(|| format!("{} is not a solve result", path.display()))?;
    if result.board != board {
        anyhow::bail!("{} is not a result of {board}", path.display());
    }
    Ok(Some(result))
}

/// A result's exact length: its own, or that of its separate length search
/// (`length_run`), marked so.
pub fn length_of(result: &Solved, separate: Option<&SolveResult>) -> Option<String> {
    match (result.result.length, separate) {
        (Some(plies), _) => Some(plies.to_string()),
        (None, Some(run)) => run.length.map(|plies| format!("{plies} (separate run)")),
        (None, None) => None,
    }
}

/// Says which boards have no exact length, and what one would cost: the length
/// search's nodes against the plain search's on the boards that have one (those of
/// at least a million nodes, where the ratio settles), applied to theirs.
pub fn length_not_computed(
    results: &[Solved],
    separate: &[Option<SolveResult>],
    text: &mut String,
) -> anyhow::Result<()> {
    let missing: Vec<(&Solved, Option<&SolveResult>)> = results
        .iter()
        .zip(separate)
        .map(|(r, run)| (r, run.as_ref()))
        .filter(|&(r, run)| length_of(r, run).is_none())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let ratios: Vec<f64> = results
        .iter()
        .filter(|r| r.result.length.is_some())
        .filter_map(|r| {
            let plain = r.result.stats.nodes as f64;
            let length = r.result.length_search.as_ref()?.nodes() as f64;
            (plain >= 1e6).then_some(length / plain)
        })
        .collect();
    writeln!(text, "\nExact length not computed (\"-\" above):\n")?;
    for (r, run) in missing {
        match run {
            Some(tried) => writeln!(text, "- {}: {}", r.board, length_try(&r.board, tried))?,
            None => writeln!(text, "- {}: {}", r.board, length_cost(r, &ratios))?,
        }
    }
    Ok(())
}

/// What the length of `r` would cost, from the `ratios` of the other boards.
fn length_cost(r: &Solved, ratios: &[f64]) -> String {
    let nodes = r.result.stats.nodes as f64;
    let seconds = r.result.stats.seconds;
    if ratios.is_empty() || nodes == 0.0 || seconds == 0.0 {
        return "not measured.".to_string();
    }
    let (low, high) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| {
        (lo.min(r), hi.max(r))
    });
    // At the board's own search speed.
    let hours = |ratio: f64| nodes * ratio / (nodes / seconds) / 3600.0;
    format!(
        "on the {} boards of at least a million nodes that have one, the length's \
         questions took {low:.1} to {high:.1} times the plain search's nodes; for {} \
         ({} nodes) that is {} to {} nodes, about {:.1} to {:.1} hours at the speed of \
         its search ({:.0}k nodes/s).",
        ratios.len(),
        r.board,
        human(nodes),
        human(nodes * low),
        human(nodes * high),
        hours(low),
        hours(high),
        nodes / seconds / 1e3,
    )
}

/// The command a separate length search ran.
fn length_command(board: &str, result: &SolveResult) -> String {
    let solver = &result.solver;
    let search = solver.search.as_ref();
    format!(
        "`solve {board} --length{}{} --threads {} --tt-mb {}{}{}`",
        if search.is_some_and(|s| s.length_resumed) {
            format!(" --length-resume {board}-length.json")
        } else {
            String::new()
        },
        match search.and_then(|s| s.length_guess) {
            Some(guess) => format!(" --length-guess {guess}"),
            None => String::new(),
        },
        solver.threads,
        solver.table_mb,
        search
            .and_then(|s| s.time_limit)
            .map_or(String::new(), |s| format!(" --time-limit {s}")),
        search
            .and_then(|s| s.max_nodes)
            .map_or(String::new(), |n| format!(" --max-nodes {n}")),
    )
}

/// What a separate length search that did not find the length got: the least length
/// the questions it answered (and those of the runs it went on from) allow, and the
/// command, hours and nodes.
fn length_try(board: &str, result: &SolveResult) -> String {
    let command = length_command(board, result);
    let hours = result.stats.wall_seconds / 3600.0;
    let stopped = result
        .stopped_by
        .as_deref()
        .unwrap_or("-")
        .replace('_', " ");
    let search = result.length_search.as_ref();
    let answers: Vec<_> = search.into_iter().flat_map(LengthSearch::answers).collect();
    let partial = match search {
        Some(LengthSearch::Partial(partial)) => Some(partial),
        _ => None,
    };
    let unanswered_nodes = partial.map_or(0, |p| p.unanswered.nodes);
    let earlier_runs = match search {
        Some(LengthSearch::Partial(p)) if !p.earlier.is_empty() => " (with the runs before it)",
        Some(LengthSearch::Found(f)) if !f.earlier.is_empty() => " (with the runs before it)",
        _ => "",
    };
    let found = match (partial, result.winner.is_none()) {
        (Some(partial), _) => format!(
            "at least {} plies: a separate run answered {}{earlier_runs} and was stopped \
             ({stopped}) on the question of {} plies, after {} nodes on it",
            partial.at_least,
            answers
                .iter()
                .filter(|probe| !probe.wins)
                .map(|probe| probe.plies)
                .max()
                .map_or("no question".to_string(), |plies| format!(
                    "\"no\" up to {plies} plies"
                )),
            partial.at_least,
            human(unanswered_nodes as f64),
        ),
        (None, true) => {
            format!("not found: a separate run was stopped ({stopped}) before its solve ended")
        }
        (None, false) => "not found: a separate run asked no length question".to_string(),
    };
    let nodes: u64 = answers.iter().map(|probe| probe.nodes).sum::<u64>() + unanswered_nodes;
    format!(
        "{found} ({command}, {hours:.1} hours in its last run, {} nodes of length questions \
         in all; [{board}-length.json]({board}-length.json)).",
        human(nodes as f64)
    )
}
