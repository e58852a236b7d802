//! The parts of the results README that set our results beside the published ones,
//! and the winning first moves.

use std::fmt::Write as _;
use std::path::Path;

use breakthrough_cli::results::{Published, Solved};
use breakthrough_cli::text::thousands;
use breakthrough_result::{CampaignStatus, Outcome, Side};

use crate::files::{read_json, FirstMoves};

/// Whether a result's certificate is kept beside it, `<board>.cert`.
pub fn cert_kept(dir: &Path, result: &Solved) -> bool {
    dir.join(format!("{}.cert", result.board)).exists()
}

/// A number with `digits` decimals, or "-" where there is none.
pub fn decimal(value: Option<f64>, digits: usize) -> String {
    value
        .filter(|x| x.is_finite())
        .map_or("-".to_string(), |x| format!("{x:.digits$}"))
}

/// A value, or "-" where there is none.
fn or_dash<T: ToString>(value: Option<T>) -> String {
    value.map_or("-".to_string(), |v| v.to_string())
}

/// Who published `board`'s solution before us, "{winner}{after_winner} (citation)",
/// or **new** where we know of none.
pub fn published_before(published: &[Published], board: &str, after_winner: &str) -> String {
    published
        .iter()
        .find(|p| p.board == board)
        .map_or("**new**".to_string(), |p| {
            format!("{}{after_winner} ({})", p.winner, p.citation())
        })
}

/// Every published solve with its cost beside ours: time, cores, memory, proof.
pub fn beside_published(
    dir: &Path,
    results: &[Solved],
    published: &[Published],
    campaigns: &[(String, CampaignStatus)],
    text: &mut String,
) -> anyhow::Result<()> {
    writeln!(
        text,
        "### Beside the published solves\n\n\
         Their figures as published (`published.json`); ours from the table above (the\n\
         whole run's wall time, peak memory of the process), or from the campaign still\n\
         under way.\n\n\
         | board | winner | published by | their seconds | their cores | their memory | our seconds | our threads | our peak memory | our proof |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for p in published {
        let board = p.board.as_str();
        let theirs = format!(
            "| {board} | {} | {} | {} | {} | {} |",
            p.winner,
            p.citation(),
            or_dash(p.seconds),
            or_dash(p.cores),
            p.memory_gb.map_or("-".to_string(), |gb| format!("{gb} GB")),
        );
        let ours = if let Some(result) = results.iter().find(|r| r.board == board) {
            ours(dir, result)
        } else if let Some((_, status)) = campaigns.iter().find(|(b, _)| b == board) {
            let threads = or_dash(status.runs.iter().map(|r| r.threads).max());
            format!(
                " {} so far, not solved yet (campaign) | {threads} | - | {} positions stored so far |",
                decimal(Some(status.seconds), 0),
                status.stored,
            )
        } else {
            " - | - | - | - |".to_string()
        };
        writeln!(text, "{theirs}{ours}")?;
    }
    writeln!(text)?;
    Ok(())
}

/// Our solve's cost, as cells of the table beside the published ones.
fn ours(dir: &Path, solved: &Solved) -> String {
    let stats = &solved.result.stats;
    let gigabytes = stats.peak_memory_mb.map(|mb| mb / 1024.0);
    format!(
        " {} | {} | {} GB | {} |",
        decimal(Some(stats.wall_seconds), 1),
        stats.threads,
        decimal(gigabytes, 2),
        match solved.result.proof.as_ref().map(|p| p.bytes()) {
            None => "-".to_string(),
            Some(n) if cert_kept(dir, solved) => format!("certificate, {} bytes", thousands(n)),
            Some(n) => format!("certificate, {} bytes (not kept)", thousands(n)),
        },
    )
}

/// The published results, one line each.
pub fn published_list(published: &[Published], text: &mut String) -> anyhow::Result<()> {
    writeln!(text, "## Published results\n")?;
    for p in published {
        writeln!(
            text,
            "- {}: {} player wins. {}: {}. Method: {}.{}{}",
            p.board,
            p.winner,
            p.citation(),
            p.venue,
            p.method,
            match (p.seconds, p.cores) {
                (Some(s), Some(c)) => format!(
                    " Reported: {s} s on {c} cores{}.",
                    p.memory_gb
                        .map_or(String::new(), |gb| format!(", {gb} GB of memory"))
                ),
                _ => String::new(),
            },
            p.note
                .as_deref()
                .map_or(String::new(), |n| format!(" ({n})")),
        )?;
    }
    Ok(())
}

/// The first moves that win, for each first-player win: from the solve's own root
/// moves, or from `<board>-first-moves.json` (`scripts/first-moves.sh`, which settles
/// those a campaign left unproven) where there is one.
pub fn winning_first_moves(
    dir: &Path,
    results: &[Solved],
    text: &mut String,
) -> anyhow::Result<()> {
    let firsts: Vec<&Solved> = results
        .iter()
        .filter(|r| r.result.winner == Some(Side::White))
        .collect();
    if firsts.is_empty() {
        return Ok(());
    }
    writeln!(
        text,
        "\nWinning first moves (boards the first player wins):\n"
    )?;
    for r in firsts {
        let name = format!("{}-first-moves.json", r.board);
        let path = dir.join(&name);
        let (moves, source): (Vec<(String, Outcome)>, String) = if path.exists() {
            let file: FirstMoves = read_json(&path, "a list of first moves")?;
            let moves = file.moves.iter().map(|m| (m.mv.clone(), m.outcome()));
            let moves = moves.collect();
            // The certificates stay in the campaigns; their digests sit beside the list.
            let sums = format!("{}-first-moves.sha256", r.board);
            let digests = if dir.join(&sums).exists() {
                format!("; SHA-256 of each certificate's files: [{sums}]({sums})")
            } else {
                String::new()
            };
            (
                moves,
                format!(" (a campaign for each: [{name}]({name}){digests})"),
            )
        } else {
            let moves = r.result.root_moves.iter();
            (
                moves.map(|m| (m.mv.clone(), m.outcome)).collect(),
                String::new(),
            )
        };
        writeln!(text, "- {}: {}{source}", r.board, settled(&moves))?;
    }
    Ok(())
}

/// How the first moves are settled, in words.
fn settled(moves: &[(String, Outcome)]) -> String {
    let with = |outcome: Outcome| -> Vec<&str> {
        moves
            .iter()
            .filter(|m| m.1 == outcome)
            .map(|m| m.0.as_str())
            .collect()
    };
    let (wins, losses) = (with(Outcome::Win), with(Outcome::Loss));
    let open = moves.len() - wins.len() - losses.len();
    if moves.is_empty() {
        "not recorded".to_string()
    } else if open == 0 && losses.is_empty() {
        format!("every first move wins ({} of {})", wins.len(), moves.len())
    } else {
        format!(
            "{} of {} win ({}), {} lose{}",
            wins.len(),
            moves.len(),
            wins.join(", "),
            losses.len(),
            if open > 0 {
                format!(", {open} not settled")
            } else {
                String::new()
            }
        )
    }
}
