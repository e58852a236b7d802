//! `breakthrough verify`: check a proof certificate with the rules alone.

use std::path::PathBuf;
use std::process::ExitCode;

use breakthrough_cli::verification::{verify_path, Verified};
use breakthrough_proof::{verify_file, Claim, FileReport, VerifyReport};
use clap::Args;

/// Check a proof certificate (from `solve --proof`) using only the rules of the game.
///
/// A length certificate (from `solve --length --proof`) has two parts, both checked:
/// the winner wins within L plies (no game of its strategy is longer), and the loser
/// holds out L - 1 plies (no game of its strategy ends won by the winner sooner);
/// together they prove that the game lasts exactly L plies under perfect play.
///
/// Every move of the winner must be legal, every legal move of the loser must be
/// answered, every game in the proof must end won by the claimed side, and the root
/// must be the claimed position. A position the proof marks settled is decided by
/// exhaustive minimax over the rules, a few plies deep (at most 5), cut off only
/// where a side has too few moves left to reach its goal or take every piece; no
/// df-pn, race rules or table is used.
///
/// Exit code 0 when the proof holds, 4 when the file is damaged or the proof fails
/// (for a campaign's directory also when a file of it cannot be read), 1 when the
/// file cannot be read.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The certificate file, or a solved campaign's directory (its certificate is
    /// the top proof and the parts named in DIR/certificate.json).
    pub file: PathBuf,

    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,
}

/// Exit code of a rejected certificate.
const REJECTED: u8 = 4;

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let verification = verify_path(&args.file)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&verification.result())?);
    }
    let seconds = verification.seconds;
    match &verification.outcome {
        Err(error) if args.file.is_dir() => rejected(error),
        Err(error) => rejected(&format!("{}: {error}", args.file.display())),
        Ok(_) if args.json => Ok(ExitCode::SUCCESS),
        Ok(Verified::File { reports, length }) => {
            let bytes = verification.bytes.unwrap_or(0) as usize;
            print_parts(reports, bytes, *length);
            outln!("result     the proof holds ({seconds:.2} s)");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Verified::Campaign(report)) => {
            outln!("campaign   {}", args.file.display());
            print_report(&report.top, report.bytes as usize);
            outln!(
                "parts      {} checked: {} positions in all, the largest {}; {} of them take other parts as given; each position the top or a part takes as given is proven",
                report.parts,
                report.part_positions,
                report.largest_part,
                report.given_parts
            );
            outln!(
                "result     the proof holds: {} wins ({seconds:.2} s)",
                report.winner
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Reads and verifies every part of a certificate file; for a length certificate,
/// also the length its parts prove together (see [`verify_file`]).
pub fn check(bytes: &[u8]) -> anyhow::Result<(Vec<VerifyReport>, Option<u32>)> {
    let FileReport { reports, length } = verify_file(bytes)?;
    Ok((reports, length))
}

/// A rejected certificate: the error on stderr (the JSON, with `--json`, is
/// printed already), exit code 4.
fn rejected(error: &str) -> anyhow::Result<ExitCode> {
    eprintln!("error: {error}");
    Ok(ExitCode::from(REJECTED))
}

/// Every part's figures, and the length they prove together if they do.
pub fn print_parts(reports: &[VerifyReport], bytes: usize, length: Option<u32>) {
    for (i, report) in reports.iter().enumerate() {
        if reports.len() > 1 {
            outln!("part {} of {}", i + 1, reports.len());
        }
        print_report(report, bytes);
    }
    if let Some(length) = length {
        outln!("length     {length} plies under perfect play, proven from both sides");
    }
}

/// The certificate's figures, as `verify` and `inspect` print them.
pub fn print_report(report: &VerifyReport, bytes: usize) {
    outln!("board      {}", report.root.board());
    outln!("position   {}", report.root);
    let to_move = report.root.to_move();
    match report.claim {
        Claim::Wins => outln!("claim      {} wins ({to_move} to move)", report.winner),
        Claim::WinsWithin(plies) => outln!(
            "claim      {} wins within {plies} plies ({to_move} to move)",
            report.winner
        ),
        Claim::HoldsOut(plies) => outln!(
            "claim      {} holds out {plies} plies: {} cannot win sooner ({to_move} to move)",
            report.winner,
            report.winner.opponent()
        ),
        Claim::WinsGiven => outln!(
            "claim      {} wins ({to_move} to move), given {} positions proven by the parts",
            report.winner,
            report.given.len()
        ),
    }
    outln!("size       {bytes} bytes");
    let (side, other) = (report.winner, report.winner.opponent());
    outln!(
        "positions  {} checked: {} where {side} moves (one move), {} where {other} moves (every move)",
        report.positions,
        report.winner_positions,
        report.loser_positions
    );
    outln!(
        "moves      {} {other} moves ({:.2} per position), {} transpositions, {} games won by {side}",
        report.loser_replies,
        report.loser_branching(),
        report.transpositions,
        report.finished_games
    );
    if report.settled > 0 {
        outln!(
            "settled    {} positions, each decided by the verifier's own search of at most {} plies",
            report.settled,
            report.settle_plies
        );
    }
    match report.claim {
        Claim::HoldsOut(plies) => outln!(
            "depth      {} plies (the proof's games stop at ply {plies}, the game going on)",
            report.height
        ),
        _ => outln!(
            "depth      {} plies (the longest game the proof allows)",
            report.height
        ),
    }
}
