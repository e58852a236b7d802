//! Property tests of the readers: valid certificates, mutated at random with fixed
//! seeds, are refused with an error or still prove something true, never panic and
//! never run long. Mutations go over the raw bytes (refused by the checksum), over
//! the bytes with the checksum made right again (reaching the headers and the
//! decompressors), and over the node streams re-compressed (reaching the verifier
//! behind them).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use breakthrough_engine::{Color, Position};

use super::{exact_length, start, wins, BoundedProver, BoundedTamper, Prover, Tamper, MARKS};
use crate::{
    read_parts, verify_directory, verify_file, write_parts, Certificate, Claim, Encoding,
    FileError, FileReport, Manifest, NodeWriter, VerifyReport, MANIFEST_FILE, TOP_FILE,
};

/// No single check may take longer: a mutation must not make the verifier loop.
const SLOW: Duration = Duration::from_secs(2);

/// One random change to `bytes`.
fn mutate(rng: &mut fastrand::Rng, bytes: &mut Vec<u8>) {
    if bytes.is_empty() {
        bytes.push(rng.u8(..));
        return;
    }
    let at = rng.usize(..bytes.len());
    match rng.u8(..6) {
        0 => bytes[at] ^= 1 << rng.u8(..8),
        1 => bytes[at] = rng.u8(..),
        2 => bytes.truncate(at),
        3 => bytes.insert(at, rng.u8(..)),
        4 => {
            let end = (at + rng.usize(1..9)).min(bytes.len());
            bytes.drain(at..end);
        }
        _ => {
            let end = (at + rng.usize(1..9)).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            let to = rng.usize(..=bytes.len());
            bytes.splice(to..to, copy);
        }
    }
}

/// One to three random changes.
fn mutated(rng: &mut fastrand::Rng, bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for _ in 0..rng.usize(1..4) {
        mutate(rng, &mut bytes);
    }
    bytes
}

/// The checksum made right again over whatever the body now is.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= 4 {
        let body = bytes.len() - 4;
        let checksum = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    }
    bytes
}

/// The truth about small boards, by exhaustive search over the rules.
struct Oracle {
    wins: HashMap<Position, bool>,
    bounded: BoundedProver,
}

impl Oracle {
    fn new() -> Oracle {
        Oracle {
            wins: HashMap::new(),
            bounded: BoundedProver::new(Color::White, Claim::Wins, BoundedTamper::None),
        }
    }

    /// Whether `winner` wins `root`.
    fn wins(&mut self, root: &Position, winner: Color) -> bool {
        match root.winner() {
            Some(won_by) => won_by == winner,
            None => wins(root, &mut self.wins) == (root.to_move() == winner),
        }
    }

    /// Whether what a report says is true.
    fn holds(&mut self, report: &VerifyReport) -> bool {
        let (root, winner) = (&report.root, report.winner);
        match report.claim {
            Claim::Wins => self.wins(root, winner),
            Claim::WinsWithin(plies) => self.bounded.within(root, winner, plies),
            Claim::HoldsOut(plies) => !self.bounded.within(root, winner.opponent(), plies),
            // True only with its givens, which the file alone does not prove.
            Claim::WinsGiven => true,
        }
    }
}

/// Checks one mutated file: refused, or every part true. Returns the verdict.
fn check_file(oracle: &mut Oracle, bytes: &[u8], what: &str) -> Verdict {
    let started = Instant::now();
    let checked = verify_file(bytes);
    assert!(started.elapsed() < SLOW, "{what}: {:?}", started.elapsed());
    if let Ok(FileReport { reports, .. }) = &checked {
        for report in reports {
            assert!(
                oracle.holds(report),
                "{what}: a false proof accepted: {report:?}"
            );
        }
    }
    // Each part on its own: refused, or true.
    if let Ok(parts) = read_parts(bytes) {
        for part in parts {
            if let Ok(report) = part.verify() {
                assert!(oracle.holds(&report), "{what}: a false part accepted");
            }
        }
    }
    match checked {
        Ok(_) => Verdict::Accepted,
        Err(FileError::Format(_)) => Verdict::Unread,
        Err(_) => Verdict::Refused,
    }
}

/// What became of a mutated file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Verdict {
    /// Refused by the reader (header, checksum, compression).
    Unread,
    /// Read, and refused by the verifier.
    Refused,
    /// Still a true proof.
    Accepted,
}

/// The node streams mutated and written again, checksum and compression right.
fn stream_mutated(rng: &mut fastrand::Rng, parts: &[Certificate]) -> Vec<u8> {
    let mut parts = parts.to_vec();
    let i = rng.usize(..parts.len());
    parts[i].stream = mutated(rng, &parts[i].stream);
    if rng.bool() {
        parts[i].positions = parts[i]
            .positions
            .wrapping_add(rng.u64(..3))
            .wrapping_sub(1);
    }
    if parts.len() == 1 && parts[0].claim == Claim::Wins {
        parts[0].to_bytes()
    } else {
        write_parts(&parts)
    }
}

fn fuzz_file(oracle: &mut Oracle, seed: u64, name: &str, bytes: &[u8], rounds: usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    check_file(oracle, bytes, name);
    let parts = read_parts(bytes).unwrap_or_else(|err| panic!("{name}: {err}"));
    let mut verdicts = HashMap::new();
    for round in 0..rounds {
        let what = format!("{name}, seed {seed}, round {round}");
        for bytes in [
            mutated(&mut rng, bytes),
            resealed(mutated(&mut rng, bytes)),
            stream_mutated(&mut rng, &parts),
        ] {
            *verdicts
                .entry(check_file(oracle, &bytes, &what))
                .or_insert(0) += 1;
        }
    }
    // The mutations reach the verifier, not the checksum alone.
    let refused = verdicts.get(&Verdict::Refused).copied().unwrap_or(0);
    assert!(refused >= rounds / 2, "{name}: {verdicts:?}");
    eprintln!("{name}: {verdicts:?}");
}

/// Valid certificates of small boards: every version, every claim of a file, with
/// positions marked settled and without.
fn certificates() -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for size in ["3x4", "4x4", "3x5", "5x4"] {
        let old = Prover::prove_with(&start(size), Tamper::None, Encoding::Squares).0;
        all.push((format!("{size} wins (v1)"), old.to_bytes()));
        all.push((format!("{size} wins (v2)"), write_parts(&[old])));
        let marked = Prover::prove_marking(&start(size), Tamper::None).0;
        all.push((format!("{size} wins (v3, marks)"), marked.to_bytes()));
    }
    for size in ["3x4", "4x4"] {
        let root = start(size);
        let (winner, length) = exact_length(&root);
        for (version, encoding) in [("v2", Encoding::Squares), ("v3, marks", MARKS)] {
            let prove = |side, claim| {
                BoundedProver::prove_with(&root, side, claim, BoundedTamper::None, encoding).0
            };
            let win = prove(winner, Claim::WinsWithin(length));
            let hold = prove(winner.opponent(), Claim::HoldsOut(length - 1));
            all.push((
                format!("{size} length pair ({version})"),
                write_parts(&[win.clone(), hold]),
            ));
            all.push((format!("{size} wins within ({version})"), win.to_bytes()));
        }
    }
    let files = ["results/3x4.cert", "results/4x4.cert", "results/5x4.cert"]
        .into_iter()
        .chain([
            "src/tests/legacy/3x5-v1.cert",
            "src/tests/legacy/5x4-length-v2.cert",
        ]);
    for file in files {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(if file.starts_with("results") {
            format!("../../{file}")
        } else {
            file.to_string()
        });
        let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        all.push((file.to_string(), bytes));
    }
    all
}

#[test]
fn mutated_certificates_are_refused_or_still_true() {
    let started = Instant::now();
    let mut oracle = Oracle::new();
    for (seed, (name, bytes)) in certificates().into_iter().enumerate() {
        fuzz_file(&mut oracle, seed as u64, &name, &bytes, 300);
    }
    eprintln!("files fuzzed in {:.1} s", started.elapsed().as_secs_f64());
}

/// A campaign's proof in files: a top down to `depth` plies, each position there
/// given, and a part per given position (up to the mirror), one of which exports a
/// position it expands.
fn campaign(dir: &Path, root: &Position, depth: u32) -> Color {
    let mut memo = HashMap::new();
    let winner = if wins(root, &mut memo) {
        root.to_move()
    } else {
        root.to_move().opponent()
    };
    let mut top = Top {
        winner,
        depth,
        memo,
        nodes: NodeWriter::new(Claim::WinsGiven),
        given: Vec::new(),
    };
    top.node(root, 0);
    let given = std::mem::take(&mut top.given);
    let certificate = Certificate::new(*root, winner, Claim::WinsGiven, top.nodes);
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    std::fs::write(dir.join(TOP_FILE), certificate.to_bytes()).unwrap();
    let mut names = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for position in given {
        if !seen.insert(crate::Identity::of(&position)) {
            continue;
        }
        let part = Prover::prove(&position, Tamper::None).0;
        let name = format!("parts/{}.cert", names.len());
        std::fs::write(dir.join(&name), part.to_bytes()).unwrap();
        names.push(name);
    }
    let first = read_parts(&std::fs::read(dir.join(&names[0])).unwrap())
        .unwrap()
        .remove(0);
    let mut exports = BTreeMap::new();
    if first.root.to_move() == winner {
        // The winner's first move leads to a position the part expands next.
        // Version 3: the move is its index among the legal moves, one byte here.
        let step = crate::replies_in_order(&first.root)[usize::from(first.stream[1])];
        let next = first.root.play_step(step);
        if next.winner().is_none() {
            exports.insert(names[0].clone(), vec![next.to_string()]);
        }
    }
    let manifest = Manifest::new(root, winner, names, exports);
    std::fs::write(
        dir.join(MANIFEST_FILE),
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();
    winner
}

/// A test-local writer of a "wins given" top, by exhaustive search.
struct Top {
    winner: Color,
    depth: u32,
    memo: HashMap<Position, bool>,
    nodes: NodeWriter,
    given: Vec<Position>,
}

impl Top {
    fn node(&mut self, position: &Position, ply: u32) {
        if position.winner().is_some() {
            return;
        }
        if ply == self.depth {
            self.nodes.given();
            self.given.push(*position);
            return;
        }
        self.nodes.expand();
        if position.to_move() == self.winner {
            let step = position
                .steps()
                .into_iter()
                .find(|&step| !wins(&position.play_step(step), &mut self.memo))
                .expect("a winning move");
            self.nodes.winning_move(position, step);
            self.node(&position.play_step(step), ply + 1);
        } else {
            let replies = crate::replies_in_order(position);
            self.nodes.replies(replies.len());
            for step in replies {
                self.node(&position.play_step(step), ply + 1);
            }
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("breakthrough-proof-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn mutated_campaign_directories_are_refused_or_still_true() {
    let root = start("4x4");
    let dir = scratch("campaign");
    let winner = campaign(&dir, &root, 3);
    let report = verify_directory(&dir).unwrap_or_else(|err| panic!("{err}"));
    assert!(
        report.parts >= 2 && report.top.given.len() >= report.parts,
        "{report:?}"
    );
    let manifest = std::fs::read(dir.join(MANIFEST_FILE)).unwrap();
    let parsed: Manifest = serde_json::from_slice(&manifest).unwrap();
    assert_eq!(parsed.exports.len(), 1, "a part exports a position");
    let files = [TOP_FILE, "parts/0.cert", "parts/1.cert"];
    let mut rng = fastrand::Rng::with_seed(41);
    let mut oracle = Oracle::new();
    for round in 0..200 {
        let file = if round % 4 == 0 {
            MANIFEST_FILE
        } else {
            files[rng.usize(..files.len())]
        };
        let kept = std::fs::read(dir.join(file)).unwrap();
        let changed = if file == MANIFEST_FILE {
            mutated(&mut rng, &manifest)
        } else if rng.bool() {
            resealed(mutated(&mut rng, &kept))
        } else {
            stream_mutated(&mut rng, &read_parts(&kept).unwrap())
        };
        std::fs::write(dir.join(file), changed).unwrap();
        let started = Instant::now();
        if let Ok(report) = verify_directory(&dir) {
            // A claim that still holds must be true (and the top's root is 4x4's).
            assert!(oracle.wins(&report.root, report.winner), "round {round}");
            assert_eq!(
                (report.root, report.winner),
                (root, winner),
                "round {round}"
            );
        }
        assert!(started.elapsed() < SLOW, "round {round}");
        std::fs::write(dir.join(file), kept).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
