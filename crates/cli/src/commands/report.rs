//! `breakthrough report`: the results table and pictures, generated from the result
//! files, so that nothing in them is typed by hand.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use breakthrough_engine::{Color, Position};
use clap::Args;
use serde_json::Value;

use crate::InputError;

/// Write RESULTS/README.md (the table of every solved board, with the published
/// results beside ours) and RESULTS/<board>.svg (the main line as diagrams and the
/// solve's course: root proof and disproof numbers against time), from the
/// RESULTS/<board>.json files that `solve --out` wrote and RESULTS/published.json.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The results directory.
    #[arg(default_value = "results")]
    pub results: PathBuf,

    /// Also put the table into this file, between the lines `<!-- results:begin -->`
    /// and `<!-- results:end -->` (the main README).
    #[arg(long, value_name = "FILE")]
    pub readme: Option<PathBuf>,
}

const BEGIN: &str = "<!-- results:begin -->";
const END: &str = "<!-- results:end -->";

/// Replaces the text between the markers of `path` with `table`.
fn splice(path: &Path, table: &str) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        return Err(InputError(anyhow::anyhow!(
            "{} has no {BEGIN} ... {END} section",
            path.display()
        ))
        .into());
    };
    let mut spliced = text[..begin + BEGIN.len()].to_string();
    spliced.push('\n');
    spliced.push_str(table);
    spliced.push_str(&text[end..]);
    std::fs::write(path, spliced).with_context(|| format!("cannot write {}", path.display()))
}

/// A solve result file, with the few things the report needs read out of it.
pub struct Solved {
    pub board: String,
    pub json: Value,
}

/// Every `<board>.json` solve result in `dir`, smallest board first.
pub fn read_results(dir: &Path) -> anyhow::Result<Vec<Solved>> {
    let mut results = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".json") || name == "published.json" || name.ends_with("-campaign.json")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let json: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        // Only `<board>.json` (not a campaign's status, `<board>-campaign.json`).
        let Some(board) = json["board"]
            .as_str()
            .filter(|board| name == format!("{board}.json"))
            .map(str::to_string)
        else {
            continue;
        };
        results.push(Solved { board, json });
    }
    // Smallest board first; anything unparsable last.
    results.sort_by_key(|r| {
        r.board
            .parse::<breakthrough_engine::Board>()
            .map_or((u32::MAX, 0, 0), |b| (b.squares(), b.height(), b.width()))
    });
    Ok(results)
}

/// Whether a result's certificate is kept beside it, `<board>.cert`.
fn cert_kept(dir: &Path, result: &Solved) -> bool {
    dir.join(format!("{}.cert", result.board)).exists()
}

/// The published results (`published.json`), by board.
pub fn read_published(dir: &Path) -> anyhow::Result<Vec<Value>> {
    let path = dir.join("published.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let json: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    json["results"]
        .as_array()
        .cloned()
        .with_context(|| format!("{} has no \"results\" list", path.display()))
}

/// "first"/"second" for a start position's winner.
pub fn order(winner: &str) -> &'static str {
    match winner {
        "white" => "first",
        "black" => "second",
        _ => "unknown",
    }
}

/// A number with `digits` decimals, or "-" where the file has none.
pub fn decimal(value: &Value, digits: usize) -> String {
    value
        .as_f64()
        .filter(|x| x.is_finite())
        .map_or("-".to_string(), |x| format!("{x:.digits$}"))
}

/// A plain JSON value as text ("-" for none), without a string's quotes.
pub fn plain(value: &Value) -> String {
    match value {
        Value::Null => "-".to_string(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Says which boards have no exact length, and what one would cost: the length
/// search's nodes against the plain search's on the boards that have one (those of
/// at least a million nodes, where the ratio settles), applied to theirs.
fn length_not_computed(
    results: &[Solved],
    separate: &[Option<Value>],
    text: &mut String,
) -> anyhow::Result<()> {
    let missing: Vec<(&Solved, Option<&Value>)> = results
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
        .filter(|r| r.json["length"].is_u64())
        .filter_map(|r| {
            let plain = r.json["stats"]["nodes"].as_f64()?;
            let length = r.json["length_search"]["nodes"].as_f64()?;
            (plain >= 1e6).then_some(length / plain)
        })
        .collect();
    let (low, high) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| {
        (lo.min(r), hi.max(r))
    });
    writeln!(text, "\nExact length not computed (\"-\" above):\n")?;
    for (r, run) in missing {
        if let Some(tried) = run {
            writeln!(text, "- {}: {}", r.board, length_try(&r.board, tried))?;
            continue;
        }
        let nodes = r.json["stats"]["nodes"].as_f64().unwrap_or(0.0);
        let seconds = r.json["stats"]["seconds"].as_f64().unwrap_or(0.0);
        if ratios.is_empty() || nodes == 0.0 || seconds == 0.0 {
            writeln!(text, "- {}: not measured.", r.board)?;
            continue;
        }
        // At the board's own search speed.
        let hours = |ratio: f64| nodes * ratio / (nodes / seconds) / 3600.0;
        // A session of the development machine lasts 3 hours.
        let reach = if hours(high) > 3.0 {
            "more than a session of this machine can give"
        } else {
            "within a session of this machine, not run yet"
        };
        writeln!(
            text,
            "- {}: on the {} boards of at least a million nodes that have one, the length's \
             questions took {low:.1} to {high:.1} times the plain search's nodes; for {} \
             ({} nodes) that is {} to {} nodes, about {:.1} to {:.1} hours at its search's \
             speed here ({:.0}k nodes/s): {reach}.",
            r.board,
            ratios.len(),
            r.board,
            super::solve::human(nodes),
            super::solve::human(nodes * low),
            super::solve::human(nodes * high),
            hours(low),
            hours(high),
            nodes / seconds / 1e3,
        )?;
    }
    Ok(())
}

/// The file of a separate length search of the board, `<board>-length.json`
/// (`solve BOARD --length --out` it), if there is one.
fn length_run(dir: &Path, board: &str) -> anyhow::Result<Option<Value>> {
    let path = dir.join(format!("{board}-length.json"));
    if !path.exists() {
        return Ok(None);
    }
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
        .with_context(|| format!("{} is not JSON", path.display()))?;
    if json["board"] != board {
        anyhow::bail!("{} is not a result of {board}", path.display());
    }
    Ok(Some(json))
}

/// A result's exact length: its own, or that of its separate length search
/// (`length_run`), marked so.
fn length_of(result: &Solved, separate: Option<&Value>) -> Option<String> {
    match (result.json["length"].as_u64(), separate) {
        (Some(plies), _) => Some(plies.to_string()),
        (None, Some(run)) => run["length"]
            .as_u64()
            .map(|plies| format!("{plies} (separate run)")),
        (None, None) => None,
    }
}

/// What a separate length search that did not find the length got: the least length
/// the questions it answered (and those of the runs it went on from) allow, and the
/// command, hours and nodes.
fn length_try(board: &str, json: &Value) -> String {
    let search = &json["length_search"];
    let solver = &json["solver"];
    let command = format!(
        "`solve {board} --length{} --threads {} --tt-mb {}{}{}`",
        if solver["length_resumed"] == true {
            format!(" --length-resume {board}-length.json")
        } else {
            String::new()
        },
        plain(&solver["threads"]),
        plain(&solver["table_mb"]),
        solver["time_limit"]
            .as_f64()
            .map_or(String::new(), |s| format!(" --time-limit {s}")),
        solver["max_nodes"]
            .as_u64()
            .map_or(String::new(), |n| format!(" --max-nodes {n}")),
    );
    let hours = json["stats"]["wall_seconds"].as_f64().unwrap_or(0.0) / 3600.0;
    let stopped = plain(&json["stopped_by"]).replace('_', " ");
    let answers: Vec<&Value> = ["earlier", "probes"]
        .iter()
        .filter_map(|list| search[list].as_array())
        .flatten()
        .collect();
    let earlier_runs = if search["earlier"].as_array().is_some_and(|e| !e.is_empty()) {
        " (with the runs before it)"
    } else {
        ""
    };
    let found = match (search["at_least"].as_u64(), json["winner"].is_null()) {
        (Some(least), _) => format!(
            "at least {least} plies: a separate run answered {}{earlier_runs} and was stopped \
             ({stopped}) on the question of {least} plies, after {} nodes on it",
            answers
                .iter()
                .filter(|probe| probe["wins"] == false)
                .filter_map(|probe| probe["plies"].as_u64())
                .max()
                .map_or("no question".to_string(), |plies| format!(
                    "\"no\" up to {plies} plies"
                )),
            super::solve::human(search["unanswered"]["nodes"].as_f64().unwrap_or(0.0)),
        ),
        (None, true) => {
            format!("not found: a separate run was stopped ({stopped}) before its solve ended")
        }
        (None, false) => "not found: a separate run asked no length question".to_string(),
    };
    let nodes: f64 = answers
        .iter()
        .filter_map(|probe| probe["nodes"].as_f64())
        .sum::<f64>()
        + search["unanswered"]["nodes"].as_f64().unwrap_or(0.0);
    format!(
        "{found} ({command}, {hours:.1} hours in its last run, {} nodes of length questions \
         in all; [{board}-length.json]({board}-length.json)).",
        super::solve::human(nodes)
    )
}

/// The first moves that win, for each first-player win: from the solve's own root
/// moves, or from `<board>-first-moves.json` (`scripts/first-moves.sh`, which settles
/// those a campaign left unproven) where there is one.
fn winning_first_moves(dir: &Path, results: &[Solved], text: &mut String) -> anyhow::Result<()> {
    let firsts: Vec<&Solved> = results
        .iter()
        .filter(|r| order(r.json["winner"].as_str().unwrap_or("")) == "first")
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
        let (moves, source): (Vec<Value>, String) = if path.exists() {
            let json: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
                .with_context(|| format!("{} is not JSON", path.display()))?;
            let moves = json["moves"].as_array().cloned().unwrap_or_default();
            (moves, format!(" (a campaign for each: [{name}]({name}))"))
        } else {
            let moves = r.json["root_moves"].as_array().cloned().unwrap_or_default();
            (moves, String::new())
        };
        let with = |outcome: &str| -> Vec<&str> {
            moves
                .iter()
                .filter(|m| m["outcome"] == outcome)
                .filter_map(|m| m["move"].as_str())
                .collect()
        };
        let (wins, losses) = (with("win"), with("loss"));
        let open = moves.len() - wins.len() - losses.len();
        let settled = if moves.is_empty() {
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
        };
        writeln!(text, "- {}: {settled}{source}", r.board)?;
    }
    Ok(())
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let dir = &args.results;
    if !dir.is_dir() {
        return Err(InputError(anyhow::anyhow!("no such directory {}", dir.display())).into());
    }
    let results = read_results(dir)?;
    let published = read_published(dir)?;
    // Each board's separate length search, read once for the table and the list.
    let separate_runs = results
        .iter()
        .map(|r| length_run(dir, &r.board))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut text = String::new();
    writeln!(
        text,
        "# Results\n\n\
         Generated by `scripts/results-readme.sh` (`breakthrough report`) from the\n\
         `<board>.json` files here, which `scripts/solve-results.sh` wrote; do not edit by\n\
         hand. Each board's certificate `<board>.cert` checks with `breakthrough verify`.\n\
         \"Plies under perfect play\" is the exact length of the game (`solve --length`:\n\
         the winner as fast as it can, the loser as slow), proven by the certificate;\n\
         \"-\" where it was not computed; \"(separate run)\" where a `solve --length` of its\n\
         own found it (`<board>-length.json`, not proven by this certificate).\n\
         \"Main line\" is the plies of the line shown in\n\
         the picture: perfect play where the length is known, else the winner's moves of\n\
         the proof and the loser's longest resistance against them. \"Nodes\" and\n\
         \"seconds\" are the search for the winner; \"wall seconds\" is the whole run\n\
         (with the exact length, every first move where asked, and the certificate).\n\
         A certificate over 50 MiB is not kept here (\"not kept\"): `solve-results.sh`\n\
         with that board writes it again (a certificate is not byte-for-byte the same\n\
         from run to run: threads find different proofs). \"Published\": who settled the\n\
         board before us; **new** where we know of no published solution\n\
         (`published.json` lists what we know).\n"
    )?;
    let table_start = text.len();
    writeln!(
        text,
        "| board | winner | best first move | plies under perfect play | main line | nodes | seconds | wall seconds | threads | certificate bytes | published | machine |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for (result, separate) in results.iter().zip(&separate_runs) {
        let json = &result.json;
        let stats = &json["stats"];
        let winner = json["winner"].as_str().unwrap_or("unknown");
        let line = json["principal_variation"].as_array().map_or(0, Vec::len);
        let published_here = published
            .iter()
            .find(|p| p["board"] == result.board.as_str())
            .map_or("**new**".to_string(), |p| {
                format!(
                    "{} ({} {})",
                    p["winner"].as_str().unwrap_or("?"),
                    p["authors"].as_str().unwrap_or("?"),
                    p["year"]
                )
            });
        writeln!(
            text,
            "| [{board}]({board}.svg) | {} player ({winner}) | {} | {} | {line} | {} | {} | {} | {} | {}{} | {published_here} | {} |",
            order(winner),
            json["best_move"].as_str().unwrap_or(""),
            length_of(result, separate.as_ref()).unwrap_or("-".to_string()),
            thousands(stats["nodes"].as_u64().unwrap_or(0)),
            decimal(&stats["seconds"], 2),
            decimal(&stats["wall_seconds"], 1),
            plain(&stats["threads"]),
            json["proof"]["bytes"].as_u64().map_or("-".to_string(), thousands),
            if cert_kept(dir, result) { "" } else { " (not kept)" },
            json["machine"].as_str().unwrap_or("-"),
            board = result.board,
        )?;
        let svg = picture(result).with_context(|| format!("{}: bad result", result.board))?;
        let path = dir.join(format!("{}.svg", result.board));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    length_not_computed(&results, &separate_runs, &mut text)?;
    winning_first_moves(dir, &results, &mut text)?;
    let not_kept: Vec<&Solved> = results
        .iter()
        .filter(|r| r.json["proof"]["bytes"].is_u64() && !cert_kept(dir, r))
        .collect();
    if !not_kept.is_empty() {
        writeln!(
            text,
            "\nCertificates not kept (written and verified by the run, then left out of\n\
             git for their size; `scripts/frontier.sh BOARD` or `scripts/solve-results.sh\n\
             BOARD` writes and verifies one again, not byte for byte the same):\n"
        )?;
        for r in not_kept {
            let bytes = thousands(r.json["proof"]["bytes"].as_u64().unwrap_or(0));
            if r.json["proof"]["format"] == "campaign" {
                // A directory: each file's digest, in a checksum file beside the result.
                let sums = format!("{}-certificate.sha256", r.board);
                let digests = if dir.join(&sums).exists() {
                    format!("SHA-256 of each file in [{sums}]({sums}) (`sha256sum -c` in the directory)")
                } else {
                    "SHA-256 not recorded".to_string()
                };
                writeln!(
                    text,
                    "- {}: a campaign's certificate (a directory: the top, {} parts and the manifest), {bytes} bytes, {digests}; `scripts/campaign.sh {0}` solves it again",
                    r.board,
                    thousands(r.json["proof"]["parts"].as_u64().unwrap_or(0)),
                )?;
                continue;
            }
            writeln!(
                text,
                "- {}: {bytes} bytes, SHA-256 {}",
                r.board,
                r.json["proof"]["sha256"]
                    .as_str()
                    .unwrap_or("not recorded (an older run)")
            )?;
        }
    }
    // Beside the table here and in the main README.
    writeln!(text)?;
    let campaigns = super::growth::campaigns(dir)?;
    beside_published(dir, &results, &published, &campaigns, &mut text)?;
    let table = text[table_start..].to_string();
    writeln!(text, "\n## Pictures\n")?;
    for result in &results {
        writeln!(text, "### {}\n\n![{0}]({0}.svg)\n", result.board)?;
    }
    super::growth::section(dir, &results, &campaigns, &mut text)?;
    scaling_section(dir, &mut text)?;
    writeln!(text, "## Published results\n")?;
    for p in &published {
        writeln!(
            text,
            "- {}: {} player wins. {}, {}: {}. Method: {}.{}{}",
            p["board"].as_str().unwrap_or("?"),
            p["winner"].as_str().unwrap_or("?"),
            p["authors"].as_str().unwrap_or("?"),
            p["year"],
            p["venue"].as_str().unwrap_or("?"),
            p["method"].as_str().unwrap_or("?"),
            match (p["seconds"].as_f64(), p["cores"].as_u64()) {
                (Some(s), Some(c)) => format!(
                    " Reported: {s} s on {c} cores{}.",
                    p["memory_gb"]
                        .as_f64()
                        .map_or(String::new(), |gb| format!(", {gb} GB of memory"))
                ),
                _ => String::new(),
            },
            p["note"]
                .as_str()
                .map_or(String::new(), |n| format!(" ({n})")),
        )?;
    }
    let path = dir.join("README.md");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    if let Some(readme) = &args.readme {
        // Links there are relative to the results directory.
        let relinked = table.replace("](", &format!("]({}/", dir.display()));
        splice(readme, &relinked)?;
    }
    outln!("wrote {} and {} pictures", path.display(), results.len());
    Ok(ExitCode::SUCCESS)
}

/// Every published solve with its cost beside ours: time, cores, memory, proof.
fn beside_published(
    dir: &Path,
    results: &[Solved],
    published: &[Value],
    campaigns: &[(String, Value)],
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
        let board = p["board"].as_str().unwrap_or("?");
        let theirs = format!(
            "| {board} | {} | {} {} | {} | {} | {} |",
            plain(&p["winner"]),
            plain(&p["authors"]),
            plain(&p["year"]),
            plain(&p["seconds"]),
            plain(&p["cores"]),
            p["memory_gb"]
                .as_f64()
                .map_or("-".to_string(), |gb| format!("{gb} GB")),
        );
        let ours = if let Some(result) = results.iter().find(|r| r.board == board) {
            let stats = &result.json["stats"];
            let gigabytes = stats["peak_memory_mb"].as_f64().map(|mb| mb / 1024.0);
            format!(
                " {} | {} | {} GB | {} |",
                decimal(&stats["wall_seconds"], 1),
                plain(&stats["threads"]),
                decimal(&Value::from(gigabytes), 2),
                match result.json["proof"]["bytes"].as_u64() {
                    None => "-".to_string(),
                    Some(n) if cert_kept(dir, result) =>
                        format!("certificate, {} bytes", thousands(n)),
                    Some(n) => format!("certificate, {} bytes (not kept)", thousands(n)),
                },
            )
        } else if let Some((_, json)) = campaigns.iter().find(|(b, _)| b == board) {
            let threads = json["runs"]
                .as_array()
                .and_then(|runs| runs.iter().filter_map(|r| r["threads"].as_u64()).max())
                .map_or("-".to_string(), |t| t.to_string());
            format!(
                " {} so far, not solved yet (campaign) | {threads} | - | {} positions stored so far |",
                decimal(&json["seconds"], 0),
                plain(&json["stored"]),
            )
        } else {
            " - | - | - | - |".to_string()
        };
        writeln!(text, "{theirs}{ours}")?;
    }
    writeln!(text)?;
    Ok(())
}

/// The parallel scaling measured by `bench solve --compare threads --out
/// RESULTS/scaling-<machine>.json`, one table per file.
fn scaling_section(dir: &Path, text: &mut String) -> anyhow::Result<()> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("scaling-") && n.ends_with(".json"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Ok(());
    }
    writeln!(text, "## Parallel scaling\n")?;
    writeln!(
        text,
        "`breakthrough bench solve --compare threads` (median seconds and nodes of the\n\
         runs: the whole process's wall time where the file has it, else the search's;\n\
         speed-up is one thread's median time over this one's, overhead this one's\n\
         nodes over one thread's). Rows of `n copies of 1` (`--copies`) are n one-thread\n\
         solves run at once: their speed-up, n times one solve's time over theirs, is\n\
         what the machine gave n busy cores during the benchmark.\n"
    )?;
    for path in files {
        let json: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        // A file assembled from several benchmark runs can have rows of different
        // repeats: say the range, read off the rows.
        let repeats: Vec<usize> = json["solve"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|row| row["runs"].as_array().map(Vec::len))
            .collect();
        let runs = match (repeats.iter().min(), repeats.iter().max()) {
            (Some(least), Some(most)) if least != most => format!("{least} to {most}"),
            _ => json["repeat"].to_string(),
        };
        writeln!(
            text,
            "### [{name}]({name})\n\n{}, {runs} runs each, table {}.\n",
            json["machine"].as_str().unwrap_or("unknown machine"),
            json["tt_mb"]
                .as_u64()
                .map_or("as solve's default".to_string(), |mb| format!("{mb} MiB")),
        )?;
        if let Some(note) = json["note"].as_str() {
            writeln!(text, "{note}\n")?;
        }
        writeln!(
            text,
            "| board | threads | winner | nodes | median s | speed-up | overhead |\n\
             | --- | --- | --- | --- | --- | --- | --- |"
        )?;
        for row in json["solve"].as_array().into_iter().flatten() {
            let ratio = |key: &str| {
                row[key]
                    .as_f64()
                    .map_or("-".to_string(), |r| format!("{r:.2}x"))
            };
            // The machine's check (`--copies`): n one-thread solves at once.
            let threads = match row["copies"].as_u64() {
                Some(copies) if copies > 1 => format!("{copies} copies of 1"),
                _ => row["threads"].to_string(),
            };
            writeln!(
                text,
                "| {} | {} | {} | {} | {:.2} | {} | {} |",
                row["board"].as_str().unwrap_or("?"),
                threads,
                row["winner"].as_str().unwrap_or("?"),
                thousands(row["nodes"].as_f64().unwrap_or(0.0) as u64),
                row["median_wall_seconds"]
                    .as_f64()
                    .or_else(|| row["median_seconds"].as_f64())
                    .unwrap_or(f64::NAN),
                ratio("speed_up"),
                ratio("overhead"),
            )?;
        }
        writeln!(text)?;
    }
    Ok(())
}

/// Diagram geometry: pixels per square, and the gap around each diagram.
const CELL: f64 = 12.0;
const GAP: f64 = 14.0;

/// The SVG of one result: its main line as diagrams, and the course of the solve.
fn picture(result: &Solved) -> anyhow::Result<String> {
    let json = &result.json;
    let board: breakthrough_engine::Board = result.board.parse()?;
    let mut position = Position::parse_on(board, json["position"].as_str().unwrap_or(""))?;
    let mut panels = vec![("start".to_string(), position)];
    for (ply, mv) in json["principal_variation"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let mv = position.parse_move(mv.as_str().unwrap_or(""))?;
        position = position.play(mv);
        panels.push((format!("{}. {mv}", ply + 1), position));
    }
    let (w, h) = (f64::from(board.width()), f64::from(board.height()));
    let panel_w = (w * CELL).max(60.0) + GAP;
    let panel_h = h * CELL + GAP + 12.0;
    let per_row = ((760.0 / panel_w).floor() as usize).max(1);
    let rows = panels.len().div_ceil(per_row);
    let plot_top = 40.0 + rows as f64 * panel_h + 20.0;
    let plot_h = 180.0;
    let width = 800.0;
    let height = plot_top + plot_h + 60.0;
    let mut svg = svg_start(width, height)?;
    writeln!(
        svg,
        r#"<text x="20" y="24" font-size="15">{}: {} ({} plies of {})</text>"#,
        result.board,
        json["verdict"].as_str().unwrap_or(""),
        panels.len() - 1,
        if json["principal_variation_kind"] == "perfect_play" {
            "perfect play"
        } else {
            "the proof's main line, not the fastest win"
        }
    )?;
    for (i, (title, position)) in panels.iter().enumerate() {
        let x0 = 20.0 + (i % per_row) as f64 * panel_w;
        let y0 = 40.0 + (i / per_row) as f64 * panel_h;
        writeln!(svg, r#"<text x="{x0}" y="{}">{title}</text>"#, y0 + 9.0)?;
        for rank in 0..board.height() {
            for file in 0..board.width() {
                let x = x0 + f64::from(file) * CELL;
                let y = y0 + 12.0 + f64::from(board.height() - 1 - rank) * CELL;
                let shade = if (rank + file) % 2 == 0 {
                    "#d9c9a3"
                } else {
                    "#f2e8cf"
                };
                writeln!(
                    svg,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{shade}"/>"#
                )?;
                let index = rank * board.width() + file;
                for (colour, fill) in [(Color::White, "white"), (Color::Black, "black")] {
                    if position.pieces(colour).has(index) {
                        writeln!(
                            svg,
                            r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#333" stroke-width="0.8"/>"##,
                            x + CELL / 2.0,
                            y + CELL / 2.0,
                            CELL * 0.36
                        )?;
                    }
                }
            }
        }
    }
    let title =
        "The solve: root proof number (red) and disproof number (blue) against seconds, log scale";
    plot(
        &mut svg,
        &json["stats"]["course"],
        title,
        plot_top,
        plot_h,
        width,
    )?;
    writeln!(svg, "</svg>")?;
    Ok(svg)
}

/// An SVG picture's opening: its size, the font, a white background.
pub fn svg_start(width: f64, height: f64) -> anyhow::Result<String> {
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">"#
    )?;
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#)?;
    Ok(svg)
}

/// Root proof and disproof numbers against time, on a log scale: `course` is an
/// array of objects with `seconds`, `root_proof` and `root_disproof`.
pub fn plot(
    svg: &mut String,
    course: &Value,
    title: &str,
    top: f64,
    h: f64,
    width: f64,
) -> anyhow::Result<()> {
    let samples = course.as_array().cloned().unwrap_or_default();
    let (left, right) = (60.0, width - 20.0);
    let last = samples
        .last()
        .and_then(|s| s["seconds"].as_f64())
        .unwrap_or(0.0)
        .max(1e-3);
    let finite = |v: &Value| v.as_f64().filter(|x| x.is_finite());
    let top_value = samples
        .iter()
        .flat_map(|s| [finite(&s["root_proof"]), finite(&s["root_disproof"])])
        .flatten()
        .fold(1.0f64, f64::max);
    let decades = (top_value + 1.0).log10().ceil().max(1.0);
    let x_of = |t: f64| left + (right - left) * t / last;
    let y_of = |v: f64| top + h - h * (v + 1.0).log10() / decades;
    writeln!(
        svg,
        r#"<text x="{left}" y="{}" font-size="12">{title}</text>"#,
        top - 6.0
    )?;
    writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{}" height="{h}" fill="none" stroke="#999"/>"##,
        right - left
    )?;
    for d in 0..=decades as u32 {
        let y = y_of(10f64.powi(d as i32) - 1.0);
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">1e{d}</text>"#,
            left - 4.0,
            y + 3.0
        )?;
    }
    for i in 0..=4 {
        let t = last * f64::from(i) / 4.0;
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{t:.1} s</text>"#,
            x_of(t),
            top + h + 14.0
        )?;
    }
    for (field, colour) in [("root_proof", "#c0392b"), ("root_disproof", "#2e6fb7")] {
        let points: Vec<String> = samples
            .iter()
            .filter_map(|s| {
                Some(format!(
                    "{:.1},{:.1}",
                    x_of(s["seconds"].as_f64()?),
                    y_of(finite(&s[field])?)
                ))
            })
            .collect();
        writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            points.join(" ")
        )?;
    }
    Ok(())
}
