//! `breakthrough-lab census CERT`: where a certificate's bytes go, by kind of node,
//! by ply, by plies to the end of the game, and under positions the race rules
//! close; the measurement that making proofs smaller starts from (issue 43).
//!
//! It walks each part's node stream as the verifier does, but checks only what it
//! needs to walk: [`Certificate::verify`] is what says whether a proof holds.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use breakthrough_cli::text::thousands;
use breakthrough_cli::InputError;
use breakthrough_engine::{Color, Position, Step};
use breakthrough_proof::{read_parts, replies_in_order, settles, Certificate, Claim, Encoding};
use breakthrough_solver::race_rules::{RaceRules, Verdict};
use clap::Args;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use serde::Serialize;

/// Where a certificate's bytes go: for each part (labelled by its claim), the bytes
/// of its uncompressed node stream by kind of node, by ply, by plies to the end of
/// the game, and under positions the race rules close; each kind also compressed
/// alone, as an estimate of its share of the file.
#[derive(Debug, Args)]
pub struct CensusArgs {
    /// The certificate file (format version 1, 2 or 3).
    pub certificate: PathBuf,

    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// The format's compression level (`crates/proof/src/zlib.rs`), so that a kind's
/// size alone compares with the file's.
const LEVEL: u32 = 3;

/// The census of a certificate file.
#[derive(Debug, Serialize)]
pub struct Census {
    pub file: String,
    pub file_bytes: u64,
    pub parts: Vec<PartCensus>,
}

/// The census of one part's node stream.
#[derive(Debug, Default, Serialize)]
pub struct PartCensus {
    /// The claim, in words ("White wins within 33 plies").
    pub claim: String,
    /// Positions expanded in the stream.
    pub positions: u64,
    /// The node stream's length, uncompressed.
    pub stream_bytes: u64,
    /// The node stream's length, compressed, as in the file.
    pub compressed_bytes: u64,
    pub winner_nodes: Kind,
    pub loser_nodes: Kind,
    pub references: Kind,
    /// Positions proven elsewhere (claim "wins given" only).
    pub given: Kind,
    /// Positions marked settled, for the verifier's own search (version 3).
    pub settled: Kind,
    pub race_closed: RaceClosed,
    /// Bytes by the ply of the node they belong to (the root is ply 0).
    pub bytes_by_ply: Vec<u64>,
    /// Bytes by the plies to the end of the game below their node (the verifier's
    /// height: 1 where the move or every reply here ends the game or reaches a hold-out's
    /// bound, 0 for a given position); a reference counts its position's height.
    pub bytes_by_plies_left: Vec<u64>,
}

/// One kind of node: how many, their bytes, and those bytes compressed alone.
#[derive(Debug, Default, Serialize)]
pub struct Kind {
    pub count: u64,
    pub bytes: u64,
    /// This kind's bytes alone, in stream order, zlib-compressed at the format's
    /// level: an estimate of its cost; the kinds' sizes do not add up to the file's.
    pub compressed_alone: u64,
}

/// The subtrees under positions that the race rules (`RaceRules::default()`)
/// decide where the walk first reaches them, outside any such subtree.
#[derive(Debug, Default, Serialize)]
pub struct RaceClosed {
    pub subtrees: u64,
    /// Positions expanded in them.
    pub positions: u64,
    pub bytes: u64,
    /// Their bytes alone, in stream order, compressed at the format's level.
    pub compressed_alone: u64,
    /// By the rule that decides the subtree's top.
    pub by_rule: Vec<RuleClosed>,
}

/// The subtrees one race rule closes.
#[derive(Debug, Serialize)]
pub struct RuleClosed {
    pub rule: String,
    pub subtrees: u64,
    pub positions: u64,
    pub bytes: u64,
}

pub fn run(args: CensusArgs) -> anyhow::Result<ExitCode> {
    let path = &args.certificate;
    let bytes = std::fs::read(path)
        .map_err(|err| InputError(anyhow::anyhow!("cannot read {}: {err}", path.display())))?;
    let started = Instant::now();
    let census = census(&path.display().to_string(), bytes)
        .map_err(|err| InputError(err.context(format!("{}", path.display()))))?;
    eprintln!(
        "census of {} in {:.1} s",
        path.display(),
        started.elapsed().as_secs_f64()
    );
    if args.json {
        println!("{}", serde_json::to_string_pretty(&census)?);
    } else {
        print!("{}", table(&census)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// The census of a certificate file's `bytes`, named `file`.
pub fn census(file: &str, bytes: Vec<u8>) -> anyhow::Result<Census> {
    let parts = read_parts(&bytes).context("not a certificate this program reads")?;
    let compressed = compressed_lengths(&bytes);
    let file_bytes = bytes.len() as u64;
    // Only the streams are walked: 7x5's file is 145 MB beside its 400 MB stream.
    drop(bytes);
    let parts = parts
        .into_iter()
        .zip(compressed)
        .enumerate()
        .map(|(i, (part, compressed))| {
            let mut census = part_census(&part).with_context(|| format!("part {}", i + 1))?;
            census.compressed_bytes = compressed;
            Ok(census)
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Census {
        file: file.to_string(),
        file_bytes,
        parts,
    })
}

/// Each part's compressed stream length, from the headers of a file that
/// [`read_parts`] has read (see the offsets in `breakthrough_proof::format`).
fn compressed_lengths(bytes: &[u8]) -> Vec<u64> {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if bytes[8..10] == 1u16.to_le_bytes() {
        // The header, then the stream, then the checksum.
        return vec![bytes.len() as u64 - 46 - 4];
    }
    // Version 3's part header has one byte more, before the lengths.
    let extra = usize::from(bytes[8..10] == 3u16.to_le_bytes());
    let mut at = 30;
    (0..bytes[29])
        .map(|_| {
            let length = u64_at(at + 20 + extra);
            at += 28 + extra + length as usize;
            length
        })
        .collect()
}

/// Counts compressed bytes without keeping them.
#[derive(Debug, Default)]
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One kind's bytes, compressed as they come; buffered because most writes are a
/// byte or three.
struct Packer(BufWriter<ZlibEncoder<Counter>>);

impl Packer {
    fn new() -> Packer {
        let encoder = ZlibEncoder::new(Counter::default(), Compression::new(LEVEL));
        Packer(BufWriter::with_capacity(1 << 16, encoder))
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.write_all(bytes).expect("counting never fails");
    }

    /// The compressed length of everything written.
    fn finish(self) -> u64 {
        let encoder = self.0.into_inner().expect("counting never fails");
        encoder.finish().expect("counting never fails").0
    }
}

#[derive(Clone, Copy)]
enum NodeKind {
    Winner,
    Loser,
    Reference,
    Given,
    Settled,
}

/// The walk of one part's stream.
struct Walk<'a> {
    stream: &'a [u8],
    at: usize,
    winner: Color,
    /// The plies to hold out, for [`Claim::HoldsOut`].
    hold: Option<u32>,
    /// The plies to win within, for [`Claim::WinsWithin`].
    win_bound: Option<u32>,
    encoding: Encoding,
    /// The smallest tag of a reference back; the tag below it is "proven elsewhere"
    /// where the claim has one, and tag 1 "settled" in version 3.
    first_reference: u64,
    rules: RaceRules,
    /// The height of each expanded position, in order of expansion: what a
    /// reference needs (one byte each; games are far shorter than 255 plies).
    heights: Vec<u8>,
    census: PartCensus,
    /// The kinds' bytes, compressed alone, in [`NodeKind`] order.
    packers: [Packer; 5],
    race_packer: Packer,
}

fn part_census(part: &Certificate) -> anyhow::Result<PartCensus> {
    let stream = part.stream();
    let mut walk = Walk {
        stream,
        at: 0,
        winner: part.winner(),
        hold: match part.claim() {
            Claim::HoldsOut(plies) => Some(plies),
            _ => None,
        },
        win_bound: match part.claim() {
            Claim::WinsWithin(plies) => Some(plies),
            _ => None,
        },
        encoding: part.encoding(),
        first_reference: 1
            + u64::from(part.claim() == Claim::WinsGiven)
            + u64::from(part.encoding() != Encoding::Squares),
        rules: RaceRules::default(),
        heights: Vec::new(),
        census: PartCensus {
            claim: part.claim().describe(part.winner()),
            stream_bytes: stream.len() as u64,
            ..PartCensus::default()
        },
        packers: [(); 5].map(|()| Packer::new()),
        race_packer: Packer::new(),
    };
    let root = part.root();
    if root.winner().is_none() {
        walk.node(root, 0, false)?;
    }
    if walk.at != stream.len() {
        bail!("{} bytes follow the proof", stream.len() - walk.at);
    }
    let Walk {
        mut census,
        packers,
        race_packer,
        heights,
        ..
    } = walk;
    census.positions = heights.len() as u64;
    census
        .race_closed
        .by_rule
        .sort_by(|a, b| rule_rank(&a.rule).cmp(&rule_rank(&b.rule)));
    let [winner, loser, reference, given, settled] = packers.map(Packer::finish);
    census.winner_nodes.compressed_alone = winner;
    census.loser_nodes.compressed_alone = loser;
    census.references.compressed_alone = reference;
    census.given.compressed_alone = given;
    census.settled.compressed_alone = settled;
    census.race_closed.compressed_alone = race_packer.finish();
    Ok(census)
}

/// The name of the race rule that decides a position, if one does.
fn decided_by(verdict: Verdict) -> Option<String> {
    verdict.side_to_move_wins()?;
    Some(match verdict {
        Verdict::RaceWin { moves, .. } => format!("race win in {moves} moves"),
        Verdict::WinInOne => "win in one".into(),
        Verdict::DoubleThreat => "double threat".into(),
        Verdict::UnstoppableThreat => "unstoppable threat".into(),
        other => format!("{other:?}"),
    })
}

/// The rules in the order the race rules try them, the shorter races first.
fn rule_rank(rule: &str) -> (usize, &str) {
    let rank = ["win in one", "double threat", "unstoppable threat"]
        .iter()
        .position(|&name| name == rule)
        .unwrap_or(3);
    (rank, rule)
}

fn add_at(counts: &mut Vec<u64>, index: usize, bytes: u64) {
    if counts.len() <= index {
        counts.resize(index + 1, 0);
    }
    counts[index] += bytes;
}

impl Walk<'_> {
    fn byte(&mut self) -> anyhow::Result<u8> {
        let byte = *self.stream.get(self.at).context("the stream ends early")?;
        self.at += 1;
        Ok(byte)
    }

    /// A LEB128 number (the verifier also insists on its shortest form).
    fn number(&mut self) -> anyhow::Result<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        bail!("a number longer than 64 bits at byte {}", self.at)
    }

    /// Counts the bytes from `start` to here as a node of `kind` at `ply`.
    fn count(&mut self, kind: NodeKind, start: usize, ply: u32) {
        let bytes = &self.stream[start..self.at];
        let length = bytes.len() as u64;
        let census = &mut self.census;
        let counted = match kind {
            NodeKind::Winner => &mut census.winner_nodes,
            NodeKind::Loser => &mut census.loser_nodes,
            NodeKind::Reference => &mut census.references,
            NodeKind::Given => &mut census.given,
            NodeKind::Settled => &mut census.settled,
        };
        counted.count += 1;
        counted.bytes += length;
        add_at(&mut census.bytes_by_ply, ply as usize, length);
        self.packers[kind as usize].write(bytes);
    }

    /// Walks the node of an unfinished position reached at `ply`, inside a
    /// race-closed subtree or not; returns its height.
    fn node(&mut self, position: &Position, ply: u32, race_closed: bool) -> anyhow::Result<u8> {
        if self.hold.is_some_and(|bound| ply >= bound) {
            return Ok(0);
        }
        let start = self.at;
        let tag = self.number()?;
        if tag == 1 && self.encoding != Encoding::Squares {
            let plies = self.encoding.settle_plies();
            let height = settles(position, self.winner, self.hold, self.win_bound, ply, plies)
                .with_context(|| format!("a false mark at byte {start}"))?;
            let height = u8::try_from(height).unwrap_or(u8::MAX);
            self.count(NodeKind::Settled, start, ply);
            add_at(&mut self.census.bytes_by_plies_left, height.into(), 1);
            return Ok(height);
        }
        if tag > 0 && tag < self.first_reference {
            self.count(NodeKind::Given, start, ply);
            add_at(&mut self.census.bytes_by_plies_left, 0, 1);
            return Ok(0);
        }
        if tag > 0 {
            let tag = tag - self.first_reference + 1;
            let id = (self.heights.len() as u64)
                .checked_sub(tag)
                .with_context(|| format!("a reference too far back at byte {start}"))?;
            let height = self.heights[id as usize];
            self.count(NodeKind::Reference, start, ply);
            let length = (self.at - start) as u64;
            add_at(&mut self.census.bytes_by_plies_left, height.into(), length);
            return Ok(height);
        }
        let id = self.heights.len();
        self.heights.push(0);
        let rule = if race_closed {
            None
        } else {
            decided_by(self.rules.classify(position))
        };
        let inside = race_closed || rule.is_some();
        let (height, own) = if position.to_move() == self.winner {
            let step = match self.encoding {
                Encoding::Squares => Step {
                    from: self.byte()?,
                    to: self.byte()?,
                },
                Encoding::Indexed { .. } => {
                    let index = self.number()?;
                    let legal = replies_in_order(position);
                    *usize::try_from(index)
                        .ok()
                        .and_then(|i| legal.get(i))
                        .with_context(|| format!("a move out of range at byte {start}"))?
                }
            };
            if !position.steps().contains(&step) {
                bail!("an illegal move at byte {start}");
            }
            self.count(NodeKind::Winner, start, ply);
            let own = self.at - start;
            let next = position.play_step(step);
            let below = match next.winner() {
                Some(_) => 0,
                None => self.node(&next, ply + 1, inside)?,
            };
            (below.saturating_add(1), own)
        } else {
            let claimed = self.number()?;
            let replies = replies_in_order(position);
            if claimed != replies.len() as u64 {
                bail!("a wrong number of replies at byte {start}");
            }
            self.count(NodeKind::Loser, start, ply);
            let own = self.at - start;
            let mut height = 0u8;
            for step in replies {
                let next = position.play_step(step);
                let below = match next.winner() {
                    Some(_) => 0,
                    None => self.node(&next, ply + 1, inside)?,
                };
                height = height.max(below.saturating_add(1));
            }
            (height, own)
        };
        self.heights[id] = height;
        add_at(
            &mut self.census.bytes_by_plies_left,
            height.into(),
            own as u64,
        );
        if let Some(rule) = rule {
            let (positions, bytes) = ((self.heights.len() - id) as u64, (self.at - start) as u64);
            self.race_packer.write(&self.stream[start..self.at]);
            let closed = &mut self.census.race_closed;
            closed.subtrees += 1;
            closed.positions += positions;
            closed.bytes += bytes;
            let by_rule = match closed.by_rule.iter().position(|r| r.rule == rule) {
                Some(i) => &mut closed.by_rule[i],
                None => {
                    closed.by_rule.push(RuleClosed {
                        rule,
                        subtrees: 0,
                        positions: 0,
                        bytes: 0,
                    });
                    closed.by_rule.last_mut().expect("just pushed")
                }
            };
            by_rule.subtrees += 1;
            by_rule.positions += positions;
            by_rule.bytes += bytes;
        }
        Ok(height)
    }
}

/// `part` of `whole`, in percent.
fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The census as tables for people.
fn table(census: &Census) -> anyhow::Result<String> {
    let mut text = String::new();
    writeln!(
        text,
        "{}: {} bytes, {} part{}",
        census.file,
        thousands(census.file_bytes),
        census.parts.len(),
        if census.parts.len() == 1 { "" } else { "s" }
    )?;
    for (i, part) in census.parts.iter().enumerate() {
        part_table(&mut text, i + 1, part)?;
    }
    writeln!(
        text,
        "\n\"Alone\": only those bytes, in stream order, zlib-compressed at the format's \
         level {LEVEL}:\nan estimate of each share's cost; the shares do not add up to the \
         compressed stream."
    )?;
    Ok(text)
}

fn part_table(text: &mut String, number: usize, part: &PartCensus) -> anyhow::Result<()> {
    let total = part.stream_bytes;
    writeln!(text, "\nPart {number}: {}", part.claim)?;
    writeln!(
        text,
        "  {} positions; node stream {} bytes, compressed {} ({:.2} bytes a position, \
         {:.2} compressed)",
        thousands(part.positions),
        thousands(total),
        thousands(part.compressed_bytes),
        total as f64 / part.positions.max(1) as f64,
        part.compressed_bytes as f64 / part.positions.max(1) as f64,
    )?;
    writeln!(
        text,
        "\n  {:<34} {:>13} {:>15} {:>6} {:>13}",
        "kind of node", "count", "bytes", "%", "alone"
    )?;
    let mut kinds = vec![
        ("winner's moves (tag, move)", &part.winner_nodes),
        ("loser's replies (tag, count)", &part.loser_nodes),
        ("back-references (tag)", &part.references),
        ("settled positions (tag)", &part.settled),
    ];
    if part.given.count > 0 {
        kinds.push(("given positions (tag)", &part.given));
    }
    for (name, kind) in kinds {
        writeln!(
            text,
            "  {name:<34} {:>13} {:>15} {:>6.1} {:>13}",
            thousands(kind.count),
            thousands(kind.bytes),
            percent(kind.bytes, total),
            thousands(kind.compressed_alone),
        )?;
    }
    let closed = &part.race_closed;
    writeln!(
        text,
        "\n  {:<34} {:>13} {:>15} {:>6} {:>13}",
        "race-closed subtrees", "subtrees", "bytes", "%", "positions"
    )?;
    for rule in &closed.by_rule {
        writeln!(
            text,
            "  {:<34} {:>13} {:>15} {:>6.1} {:>13}",
            rule.rule,
            thousands(rule.subtrees),
            thousands(rule.bytes),
            percent(rule.bytes, total),
            thousands(rule.positions),
        )?;
    }
    writeln!(
        text,
        "  {:<34} {:>13} {:>15} {:>6.1} {:>13}   alone {}",
        "all",
        thousands(closed.subtrees),
        thousands(closed.bytes),
        percent(closed.bytes, total),
        thousands(closed.positions),
        thousands(closed.compressed_alone),
    )?;
    writeln!(
        text,
        "\n  {:<34} {:>15} {:>6} {:>12}",
        "plies to the end of the game", "bytes", "%", "cumulative"
    )?;
    let left = &part.bytes_by_plies_left;
    let mut cumulative = 0;
    for plies in 0..=5 {
        let bytes = if plies < 5 {
            left.get(plies).copied().unwrap_or(0)
        } else {
            left.iter().skip(5).sum()
        };
        if plies == 0 && bytes == 0 {
            continue;
        }
        cumulative += bytes;
        let name = match plies {
            0 => "0 (given positions)".to_string(),
            1 => "1 (the move here ends it)".to_string(),
            5 => "5 or more".to_string(),
            n => n.to_string(),
        };
        writeln!(
            text,
            "  {name:<34} {:>15} {:>6.1} {:>11.1}%",
            thousands(bytes),
            percent(bytes, total),
            percent(cumulative, total),
        )?;
    }
    writeln!(
        text,
        "\n  {:<34} {:>15} {:>6} {:>12}",
        "ply", "bytes", "%", "cumulative"
    )?;
    let mut cumulative = 0;
    for (ply, &bytes) in part.bytes_by_ply.iter().enumerate() {
        cumulative += bytes;
        writeln!(
            text,
            "  {ply:<34} {:>15} {:>6.1} {:>11.1}%",
            thousands(bytes),
            percent(bytes, total),
            percent(cumulative, total),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn results(name: &str) -> Vec<u8> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../results")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    }

    /// Every byte is attributed once in each view, and the walk meets the nodes
    /// the verifier counts.
    #[test]
    fn the_census_accounts_for_every_byte_and_position() {
        for name in ["3x4.cert", "4x4.cert", "5x4.cert"] {
            let bytes = results(name);
            let census = census(name, bytes.clone()).expect("a certificate");
            let parts = read_parts(&bytes).expect("a certificate");
            assert_eq!(census.parts.len(), parts.len(), "{name}");
            for (part, certificate) in census.parts.iter().zip(&parts) {
                let report = certificate.verify().expect("a valid proof");
                let total = certificate.stream().len() as u64;
                assert_eq!(part.stream_bytes, total, "{name}");
                let kinds = [
                    &part.winner_nodes,
                    &part.loser_nodes,
                    &part.references,
                    &part.given,
                    &part.settled,
                ];
                assert_eq!(kinds.iter().map(|k| k.bytes).sum::<u64>(), total, "{name}");
                assert_eq!(part.bytes_by_ply.iter().sum::<u64>(), total, "{name}");
                assert_eq!(
                    part.bytes_by_plies_left.iter().sum::<u64>(),
                    total,
                    "{name}"
                );
                assert_eq!(part.positions, certificate.positions(), "{name}");
                assert_eq!(part.positions, report.positions, "{name}");
                assert_eq!(part.winner_nodes.count, report.winner_positions, "{name}");
                assert_eq!(part.loser_nodes.count, report.loser_positions, "{name}");
                assert_eq!(part.references.count, report.transpositions, "{name}");
                assert_eq!(part.given.count, 0, "{name}");
                // The longest game ends the deepest node's subtree: the root's height.
                assert_eq!(
                    part.bytes_by_plies_left.len() as u32 - 1,
                    report.height,
                    "{name}"
                );
                let closed = &part.race_closed;
                assert!(closed.bytes <= total && closed.positions <= part.positions);
                assert_eq!(
                    closed.by_rule.iter().map(|r| r.bytes).sum::<u64>(),
                    closed.bytes
                );
                assert!(part.given.compressed_alone < 16, "{name}: an empty stream");
            }
        }
    }

    /// A damaged stream is an error, not a panic or a count.
    #[test]
    fn a_damaged_stream_is_refused() {
        let bytes = results("4x4.cert");
        let parts = read_parts(&bytes).expect("a certificate");
        let part = &parts[0];
        let mut cut = breakthrough_proof::NodeWriter::new(part.claim());
        // A stream of a lone expansion tag: it ends before the node does.
        cut.expand();
        let short = Certificate::new(*part.root(), part.winner(), part.claim(), cut);
        assert!(part_census(&short).is_err());
    }
}
