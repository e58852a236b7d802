//! `breakthrough-lab report`: the results table and pictures, generated from the
//! result files, so that nothing in them is typed by hand.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use breakthrough_cli::results::{read_published, read_results, Published, Solved};
use breakthrough_cli::text::thousands;
use breakthrough_cli::InputError;
use breakthrough_result::{ProofSummary, SolveResult};
use clap::Args;

use crate::lengths::{length_not_computed, length_of, length_run};
use crate::published::{
    beside_published, cert_kept, decimal, published_before, published_list, winning_first_moves,
};

/// Write RESULTS/README.md (the table of every solved board, with the published
/// results beside ours) and RESULTS/<board>.svg (the main line as diagrams and the
/// solve's course: root proof and disproof numbers against time), from the
/// RESULTS/<board>.json files that `solve --out` wrote and RESULTS/published.json.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The results directory.
    #[arg(default_value = "results")]
    pub results: PathBuf,

    /// Also put a short table (one row a board) into this file, between the lines
    /// `<!-- results:begin -->` and `<!-- results:end -->` (the main README).
    #[arg(long, value_name = "FILE")]
    pub readme: Option<PathBuf>,

    /// Also put the table of every certificate (its claim, bytes, parts and
    /// positions) into this file, between the lines `<!-- certificates:begin -->`
    /// and `<!-- certificates:end -->` (docs/certificates.md).
    #[arg(long, value_name = "FILE")]
    pub certificates: Option<PathBuf>,
}

/// Replaces the text of `path` between the lines `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` with `table`.
fn splice(path: &Path, name: &str, table: &str) -> anyhow::Result<()> {
    let (begin_marker, end_marker) = (
        format!("<!-- {name}:begin -->"),
        format!("<!-- {name}:end -->"),
    );
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (Some(begin), Some(end)) = (text.find(&begin_marker), text.find(&end_marker)) else {
        return Err(InputError(anyhow::anyhow!(
            "{} has no {begin_marker} ... {end_marker} section",
            path.display()
        ))
        .into());
    };
    let mut spliced = text[..begin + begin_marker.len()].to_string();
    spliced.push('\n');
    spliced.push_str(table);
    spliced.push_str(&text[end..]);
    std::fs::write(path, spliced).with_context(|| format!("cannot write {}", path.display()))
}

/// "first"/"second" for a start position's winner.
fn order(result: &SolveResult) -> &'static str {
    result.winner.map_or("unknown", |side| side.order())
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
    write_header(&mut text)?;
    results_table(dir, &results, &separate_runs, &published, &mut text)?;
    length_not_computed(&results, &separate_runs, &mut text)?;
    winning_first_moves(dir, &results, &mut text)?;
    not_kept(dir, &results, &mut text)?;
    writeln!(text)?;
    let campaigns = crate::files::campaigns(dir)?;
    beside_published(dir, &results, &published, &campaigns, &mut text)?;
    writeln!(text, "\n## Pictures\n")?;
    for result in &results {
        writeln!(text, "### {}\n\n![{0}]({0}.svg)\n", result.board)?;
    }
    crate::growth::section(dir, &results, &campaigns, &mut text)?;
    crate::progress::section(dir, &campaigns, &mut text)?;
    crate::scaling::scaling_section(dir, &mut text)?;
    published_list(&published, &mut text)?;
    let path = dir.join("README.md");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    if let Some(readme) = &args.readme {
        let table =
            crate::headline::headline_table(dir, &results, &separate_runs, &published, &campaigns)?;
        splice(readme, "results", &table)?;
    }
    if let Some(file) = &args.certificates {
        splice(file, "certificates", &certificates_table(dir, &results)?)?;
    }
    outln!("wrote {} and {} pictures", path.display(), results.len());
    Ok(ExitCode::SUCCESS)
}

/// One row a board's certificate: what it claims, its bytes, parts and positions,
/// and whether the file is kept in the results directory.
fn certificates_table(dir: &Path, results: &[Solved]) -> anyhow::Result<String> {
    let mut text = String::new();
    writeln!(
        text,
        "| board | claim | format | bytes | parts | positions | kept in results/ |\n\
         | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for solved in results {
        let result = &solved.result;
        let Some(proof) = &result.proof else {
            continue;
        };
        let winner = result.winner.map_or("-", |side| side.name());
        let claim = match result.length {
            Some(plies) => format!("{winner} wins in exactly {plies} plies"),
            None => format!("{winner} wins"),
        };
        let (format, parts, positions) = match proof {
            ProofSummary::Certificate(file) => (
                format!("file, version {}", file.format_version),
                file.parts.len() as u64,
                file.positions,
            ),
            ProofSummary::Campaign(campaign) => (
                "campaign directory".to_string(),
                campaign.parts,
                campaign.positions,
            ),
        };
        let kept = match proof {
            ProofSummary::Certificate(_) if cert_kept(dir, solved) => "yes".to_string(),
            _ if dir
                .join(format!("{}-certificate.sha256", solved.board))
                .exists() =>
            {
                format!("SHA-256 only ({}-certificate.sha256)", solved.board)
            }
            _ => "no".to_string(),
        };
        writeln!(
            text,
            "| {} | {claim} | {format} | {} | {} | {} | {kept} |",
            solved.board,
            thousands(proof.bytes()),
            thousands(parts),
            thousands(positions),
        )?;
    }
    writeln!(
        text,
        "\nA file's parts are its claims (two for a length certificate); a campaign's, \
         its part files beside the top, whose positions are counted here (the parts' \
         are not in its result)."
    )?;
    Ok(text)
}

fn write_header(text: &mut String) -> anyhow::Result<()> {
    writeln!(
        text,
        "# Results\n\n\
         Generated by `scripts/results-readme.sh` (`breakthrough-lab report`) from the\n\
         `<board>.json` files here, which `scripts/solve-results.sh` wrote; do not edit by\n\
         hand. Each board's certificate `<board>.cert` checks with `breakthrough verify`.\n\
         \"Plies under perfect play\" is the exact length of the game (`solve --length`:\n\
         the winner as fast as it can, the loser as slow), proven by the certificate;\n\
         \"-\" where it was not computed; \"(separate run)\" where a `solve --length` of its\n\
         own found it (`<board>-length.json`, not proven by this certificate, but by\n\
         `<board>-length.cert` where that run's certificate is kept).\n\
         \"Main line\" is the plies of the line shown in\n\
         the picture: perfect play where the length is known (from the separate run\n\
         where there is one), else the winner's moves of the proof and the loser's\n\
         longest resistance against them, else the best first move alone (a campaign\n\
         keeps no main line). \"Nodes\" and\n\
         \"seconds\" are the search for the winner; \"wall seconds\" is the whole run\n\
         (with the exact length, every first move where asked, and the certificate).\n\
         A certificate over 50 MiB is not kept here (\"not kept\"): `solve-results.sh`\n\
         with that board writes it again (a certificate is not byte-for-byte the same\n\
         from run to run: threads find different proofs). \"Published\": who settled the\n\
         board before us; **new** where we know of no published solution\n\
         (`published.json` lists what we know).\n"
    )?;
    Ok(())
}

/// The table of every solved board, and each board's picture.
fn results_table(
    dir: &Path,
    results: &[Solved],
    separate_runs: &[Option<SolveResult>],
    published: &[Published],
    text: &mut String,
) -> anyhow::Result<()> {
    writeln!(
        text,
        "| board | winner | best first move | plies under perfect play | main line | nodes | seconds | wall seconds | threads | certificate bytes | published | machine |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for (solved, separate) in results.iter().zip(separate_runs) {
        let result = &solved.result;
        let stats = &result.stats;
        let winner = result.winner.map_or("unknown", |side| side.name());
        let shown = crate::picture::shown_line(solved, separate.as_ref());
        let line = shown.moves.len();
        let published_here = published_before(published, &solved.board, "");
        writeln!(
            text,
            "| [{board}]({board}.svg) | {} player ({winner}) | {} | {} | {line} | {} | {} | {} | {} | {}{} | {published_here} | {} |",
            order(result),
            result.best_move.as_deref().unwrap_or(""),
            length_of(solved, separate.as_ref()).unwrap_or("-".to_string()),
            thousands(stats.nodes),
            decimal(Some(stats.seconds), 2),
            decimal(Some(stats.wall_seconds), 1),
            stats.threads,
            result.proof.as_ref().map_or("-".to_string(), |p| thousands(p.bytes())),
            if cert_kept(dir, solved) { "" } else { " (not kept)" },
            result.machine,
            board = solved.board,
        )?;
        let svg = crate::picture::picture(solved, &shown)
            .with_context(|| format!("{}: bad result", solved.board))?;
        let path = dir.join(format!("{}.svg", solved.board));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The certificates written and verified, but left out of git for their size.
fn not_kept(dir: &Path, results: &[Solved], text: &mut String) -> anyhow::Result<()> {
    let not_kept: Vec<&Solved> = results
        .iter()
        .filter(|r| r.result.proof.is_some() && !cert_kept(dir, r))
        .collect();
    if not_kept.is_empty() {
        return Ok(());
    }
    writeln!(
        text,
        "\nCertificates not kept (written and verified by the run, then left out of\n\
         git for their size; `scripts/frontier.sh BOARD` or `scripts/solve-results.sh\n\
         BOARD` writes and verifies one again, not byte for byte the same):\n"
    )?;
    for r in not_kept {
        let Some(proof) = &r.result.proof else {
            continue;
        };
        let bytes = thousands(proof.bytes());
        match proof {
            ProofSummary::Campaign(campaign) => {
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
                    thousands(campaign.parts),
                )?;
            }
            ProofSummary::Certificate(certificate) => writeln!(
                text,
                "- {}: {bytes} bytes, SHA-256 {}",
                r.board,
                certificate
                    .sha256
                    .as_deref()
                    .unwrap_or("not recorded (an older run)")
            )?,
        }
    }
    Ok(())
}
