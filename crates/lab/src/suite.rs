//! The frontier suite: positions a few plies into the open and the newly settled
//! boards, each of which one thread solves in a bounded number of nodes, with their
//! answers, for `breakthrough-lab bench --suite` to measure builds on.
//!
//! `breakthrough-lab suite` makes one: seeded random games of a few plies, each
//! solved on one thread with a node budget, kept when its solve lands between the
//! bounds, until each board has its share of wins for each side. The file is tab
//! separated text, so that a reader can check a line with `breakthrough solve`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use breakthrough_cli::InputError;
use breakthrough_engine::{Board, Color, Position};
use breakthrough_solver::{solve, Key, Limits, SolveOptions};
use clap::Args;

/// Make a suite of positions for `bench --suite`: seeded random games of
/// --min-plies to --max-plies plies on each board, each solved on one thread with at
/// most --max-nodes nodes, kept when the solve took at least --min-nodes, until each
/// board has --per-side positions won by White and --per-side won by Black (or
/// --tries games were tried). Prints a line per game tried on stderr.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// The boards.
    #[arg(long, value_delimiter = ',', default_values_t = ["5x6".to_string(), "6x6".to_string(), "4x7".to_string()])]
    pub boards: Vec<String>,

    /// Positions each board keeps won by each side.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_side: u32,

    /// Fewest plies of a random game.
    #[arg(long, default_value_t = 4)]
    pub min_plies: u32,

    /// Most plies of a random game.
    #[arg(long, default_value_t = 12)]
    pub max_plies: u32,

    /// A position is kept only if its solve took at least this many nodes.
    #[arg(long, default_value_t = 1_000_000)]
    pub min_nodes: u64,

    /// Each solve's node budget: a position it does not settle is left out.
    #[arg(long, default_value_t = 30_000_000)]
    pub max_nodes: u64,

    /// Random games tried per board at most.
    #[arg(long, default_value_t = 200)]
    pub tries: u32,

    /// Table size in MiB of each solve.
    #[arg(long, default_value_t = 1024)]
    pub tt_mb: usize,

    /// The random games' seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Write the suite to this file (tab separated; see `bench --suite`).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// One position of a suite and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteEntry {
    pub name: String,
    pub board: Board,
    pub position: Position,
    pub winner: Color,
    /// One thread's nodes when the suite was made.
    pub nodes: u64,
}

/// The name of the benchmark's row of totals, which no position may take.
pub const TOTAL: &str = "total";

/// The column names of a suite file's header line.
const COLUMNS: &str = "name\tboard\tposition\twinner\tnodes";

/// Reads a suite file: comment lines (`#`), the header line, then one position a
/// line; an error names the file and line.
pub fn read_suite(path: &Path) -> anyhow::Result<Vec<SuiteEntry>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the suite {}", path.display()))?;
    let mut entries = Vec::new();
    let mut names = HashSet::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') || line == COLUMNS {
            continue;
        }
        let entry =
            parse_line(line).with_context(|| format!("{} line {}", path.display(), number + 1))?;
        if entry.name == TOTAL || !names.insert(entry.name.clone()) {
            bail!(
                "{} line {}: the name {} is taken",
                path.display(),
                number + 1,
                entry.name
            );
        }
        entries.push(entry);
    }
    if entries.is_empty() {
        bail!("{} holds no positions", path.display());
    }
    Ok(entries)
}

fn parse_line(line: &str) -> anyhow::Result<SuiteEntry> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [name, board, position, winner, nodes] = fields[..] else {
        bail!(
            "expected 5 tab-separated fields ({COLUMNS}), found {}",
            fields.len()
        );
    };
    let board: Board = board.parse().context("bad board")?;
    let position = Position::parse_on(board, position).context("bad position")?;
    if position.winner().is_some() {
        bail!("the game is over in {position}");
    }
    let winner = match winner {
        "white" => Color::White,
        "black" => Color::Black,
        other => bail!("the winner is white or black, not {other:?}"),
    };
    let nodes = nodes.parse().context("bad node count")?;
    Ok(SuiteEntry {
        name: name.to_string(),
        board,
        position,
        winner,
        nodes,
    })
}

/// The suite as its file holds it, after `comment` (one `#` line each).
pub fn suite_text(comment: &[String], entries: &[SuiteEntry]) -> String {
    let mut text = String::new();
    for line in comment {
        let _ = writeln!(text, "# {line}");
    }
    let _ = writeln!(text, "{COLUMNS}");
    for e in entries {
        let _ = writeln!(
            text,
            "{}\t{}\t{}\t{}\t{}",
            e.name,
            e.board,
            e.position,
            e.winner.name(),
            e.nodes
        );
    }
    text
}

pub fn run(args: SuiteArgs) -> anyhow::Result<std::process::ExitCode> {
    let boards = args
        .boards
        .iter()
        .map(|b| b.parse::<Board>())
        .collect::<Result<Vec<_>, _>>()
        .context("bad board size in --boards")
        .map_err(InputError)?;
    if args.min_plies > args.max_plies || args.min_nodes > args.max_nodes {
        return Err(InputError(anyhow::anyhow!(
            "--min-plies and --min-nodes must not exceed --max-plies and --max-nodes"
        ))
        .into());
    }
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut entries = Vec::new();
    for board in boards {
        entries.extend(board_entries(board, &args, &mut rng));
    }
    let comment = vec![
        "The frontier suite for `breakthrough-lab bench --suite` (see docs/lab.md).".to_string(),
        format!(
            "Made by: breakthrough-lab suite --boards {} --per-side {} --min-plies {} \
             --max-plies {} --min-nodes {} --max-nodes {} --tries {} --tt-mb {} --seed {}",
            args.boards.join(","),
            args.per_side,
            args.min_plies,
            args.max_plies,
            args.min_nodes,
            args.max_nodes,
            args.tries,
            args.tt_mb,
            args.seed
        ),
        "nodes: one thread's, when the suite was made; the winner is checked by every run."
            .to_string(),
    ];
    let text = suite_text(&comment, &entries);
    std::fs::write(&args.out, text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{} positions written to {}",
        entries.len(),
        args.out.display()
    );
    Ok(std::process::ExitCode::SUCCESS)
}

/// One board's share of the suite.
fn board_entries(board: Board, args: &SuiteArgs, rng: &mut fastrand::Rng) -> Vec<SuiteEntry> {
    let mut kept: Vec<SuiteEntry> = Vec::new();
    let mut seen = HashSet::new();
    let wanted = |kept: &[SuiteEntry], side: Color| {
        kept.iter().filter(|e| e.winner == side).count() < args.per_side as usize
    };
    for _ in 0..args.tries {
        if !wanted(&kept, Color::White) && !wanted(&kept, Color::Black) {
            break;
        }
        let plies = rng.u32(args.min_plies..=args.max_plies);
        let Some(position) = Position::after_moves(board, plies, |n| rng.usize(..n)) else {
            continue;
        };
        // A position and its mirror image are one.
        if !seen.insert(Key::of(&position)) {
            continue;
        }
        let options = SolveOptions {
            table_mb: args.tt_mb,
            limits: Limits {
                max_nodes: Some(args.max_nodes),
                ..Limits::default()
            },
            ..SolveOptions::default()
        };
        let started = Instant::now();
        let solution = solve(&position, &options, &mut |_| {});
        let nodes = solution.stats.nodes;
        let verdict = match solution.winner {
            None => "not settled".to_string(),
            Some(_) if nodes < args.min_nodes => "too easy".to_string(),
            Some(side) if !wanted(&kept, side) => format!("{} wins, enough of those", side.name()),
            Some(side) => {
                kept.push(SuiteEntry {
                    name: format!("{board}-{}", kept.len() + 1),
                    board,
                    position,
                    winner: side,
                    nodes,
                });
                format!("{} wins: kept", side.name())
            }
        };
        eprintln!(
            "{board} {plies:>2} plies  {position}  {nodes:>11} nodes {:>7.1} s  {verdict}",
            started.elapsed().as_secs_f64()
        );
    }
    kept.sort_by_key(|e| e.nodes);
    for (i, e) in kept.iter_mut().enumerate() {
        e.name = format!("{board}-{}", i + 1);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_reads_back_as_written() {
        let board: Board = "5x6".parse().unwrap();
        let position = Position::start(board).play(Position::start(board).legal_moves()[3]);
        let entries = vec![SuiteEntry {
            name: "5x6-1".into(),
            board,
            position,
            winner: Color::Black,
            nodes: 1234,
        }];
        let dir = std::env::temp_dir().join(format!("suite-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("suite.tsv");
        std::fs::write(&path, suite_text(&["made by a test".into()], &entries)).unwrap();
        assert_eq!(read_suite(&path).unwrap(), entries);

        // Bad lines are refused with their line number.
        std::fs::write(&path, format!("{COLUMNS}\na\t5x6\tnonsense\twhite\t1\n")).unwrap();
        let err = format!("{:#}", read_suite(&path).unwrap_err());
        assert!(
            err.contains("line 2") && err.contains("bad position"),
            "{err}"
        );
        std::fs::write(&path, "a\t5x6\n").unwrap();
        assert!(format!("{:#}", read_suite(&path).unwrap_err()).contains("5 tab-separated"));
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(read_suite(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
