//! A campaign's certificate: a directory with a manifest, and its verifier.
//!
//! - `DIR/top.cert`: the master's proof, a certificate with the claim
//!   [`Claim::WinsGiven`]: the winner's strategy over the top of the game, down to
//!   positions that other files prove.
//! - `DIR/parts/*.cert`: each job's proof of its position: a plain certificate, or
//!   one that itself takes other positions as proven ("wins given", so that a part
//!   need not prove again what an earlier one proved).
//! - `DIR/certificate.json`: the [`Manifest`]: the position, the winner, the top's
//!   file and every part's file, and for a part some of whose inner positions other
//!   parts take as given (it exports them), those positions.
//!
//! [`verify_directory`] checks it with the rules alone: the top, then every part
//! (on several threads, one part per thread at a time, so memory is bounded by the
//! largest parts rather than the whole proof), that each part expands the positions
//! the manifest lists for it (so its winner wins there too, by the part's subtree),
//! and that each position the top or a part takes as given is the root of a part or
//! one of those (or a mirror image) proven for the same side. The parts cannot
//! prove one another in a circle: a part may not take its own root as given, and
//! every other position it reaches, and everything below a position it exports,
//! lies strictly later in the game (each move either captures, leaving fewer
//! pieces, or advances a piece a row without capturing, so no position, or mirror
//! image of one, can come back): whatever proves a given position rests only on
//! positions later than it.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use breakthrough_engine::{Color, Position};
use hashbrown::{HashMap, HashSet};
use serde::{Deserialize, Serialize};

use crate::certificate::Certificate;
use crate::claim::Claim;
use crate::identity::Identity;
use crate::verify::VerifyReport;

/// The manifest's file name in a campaign's directory.
pub const MANIFEST_FILE: &str = "certificate.json";
/// The top's file name in a campaign's directory.
pub const TOP_FILE: &str = "top.cert";
/// The folder of the parts' files in a campaign's directory.
pub const PARTS_DIR: &str = "parts";

/// The file, relative to a campaign's directory, of the part whose root is
/// `position` (or its mirror image): named by the position's [`Identity`], so that
/// a reader finds a given position's part without the manifest.
pub fn part_file(position: &Position) -> String {
    let (white, black, black_to_move) = Identity::of(position).armies();
    part_file_of(white, black, black_to_move)
}

/// [`part_file`] of the position (already of the two mirror images the one with the
/// smaller armies) with these armies and side to move.
pub fn part_file_of(white: u64, black: u64, black_to_move: bool) -> String {
    let side = if black_to_move { 'b' } else { 'w' };
    format!("{PARTS_DIR}/{white:016x}{black:016x}{side}.cert")
}
const FORMAT: &str = "breakthrough-campaign-certificate";
/// Version 2: parts may claim "wins given" (which version 1 readers refuse);
/// version 3: positions proven inside parts may be given.
const VERSION: u32 = 3;

/// A campaign certificate's manifest, `DIR/certificate.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub board: String,
    pub position: String,
    pub winner: String,
    /// The top's file, relative to the directory.
    pub top: String,
    /// The parts' files, relative to the directory.
    pub parts: Vec<String>,
    /// Part file -> positions below its root it proves that other parts take as
    /// given (version 3; none before).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub exports: BTreeMap<String, Vec<String>>,
}

impl Manifest {
    /// The manifest of a proof that `winner` wins `root`, with the top in
    /// [`TOP_FILE`], the parts' files and what they export (all relative paths).
    pub fn new(
        root: &Position,
        winner: Color,
        parts: Vec<String>,
        exports: BTreeMap<String, Vec<String>>,
    ) -> Manifest {
        Manifest {
            format: FORMAT.to_string(),
            version: VERSION,
            board: root.board().to_string(),
            position: root.to_string(),
            winner: winner.name().to_string(),
            top: TOP_FILE.to_string(),
            parts,
            exports,
        }
    }
}

/// A verified campaign certificate's figures.
#[derive(Clone, Debug)]
pub struct CampaignReport {
    pub root: Position,
    pub winner: Color,
    pub top: VerifyReport,
    pub parts: usize,
    /// Parts that take other parts' positions as proven.
    pub given_parts: usize,
    /// Positions checked in all parts.
    pub part_positions: u64,
    /// The largest part's positions.
    pub largest_part: u64,
    /// The top's and the parts' bytes.
    pub bytes: u64,
}

/// Why a campaign certificate does not hold (or cannot be read).
#[derive(Debug, thiserror::Error)]
#[error("{file}: {why}")]
pub struct Rejected {
    pub file: PathBuf,
    pub why: String,
}

fn reject(file: &Path, why: String) -> Rejected {
    Rejected {
        file: file.to_path_buf(),
        why,
    }
}

/// What the manifest claims, read and checked for sense.
struct Claimed<'m> {
    dir: &'m Path,
    manifest_path: PathBuf,
    manifest: Manifest,
    root: Position,
    winner: Color,
    /// The positions each part must expand beyond its root.
    exported: HashMap<String, Vec<Position>>,
}

/// What a checked part proves and takes as proven.
struct CheckedPart {
    /// Its root and the positions it exports.
    proves: Vec<Identity>,
    positions: u64,
    bytes: u64,
    given: Vec<Position>,
}

/// Checks the certificate in a campaign directory with the rules alone (see the
/// module docs), on the calling thread and one more per core.
pub fn verify_directory(dir: &Path) -> Result<CampaignReport, Rejected> {
    let claimed = read_manifest(dir)?;
    let (top, top_bytes) = claimed.verify_top()?;
    let parts = claimed.verify_parts()?;
    claimed.check_givens(&top, &parts)?;
    Ok(CampaignReport {
        root: claimed.root,
        winner: claimed.winner,
        parts: parts.len(),
        given_parts: parts.iter().filter(|p| !p.given.is_empty()).count(),
        part_positions: parts.iter().map(|p| p.positions).sum(),
        largest_part: parts.iter().map(|p| p.positions).max().unwrap_or(0),
        bytes: top_bytes + parts.iter().map(|p| p.bytes).sum::<u64>(),
        top,
    })
}

fn read_manifest(dir: &Path) -> Result<Claimed<'_>, Rejected> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&manifest_path).map_err(|err| {
        reject(
            &manifest_path,
            format!("{err} (a campaign has a certificate once it is solved)"),
        )
    })?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|err| reject(&manifest_path, err.to_string()))?;
    if manifest.format != FORMAT || !(1..=VERSION).contains(&manifest.version) {
        let why = format!("not a campaign certificate manifest of version 1 to {VERSION}");
        return Err(reject(&manifest_path, why));
    }
    let root: Position = manifest
        .position
        .parse()
        .map_err(|err| reject(&manifest_path, format!("position: {err}")))?;
    if manifest.board != root.board().to_string() {
        let why = format!(
            "board {} but a position of {}",
            manifest.board,
            root.board()
        );
        return Err(reject(&manifest_path, why));
    }
    let winner = match manifest.winner.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(reject(&manifest_path, format!("winner {other:?}"))),
    };
    let exported =
        exported_positions(&manifest, &root).map_err(|why| reject(&manifest_path, why))?;
    Ok(Claimed {
        dir,
        manifest_path,
        manifest,
        root,
        winner,
        exported,
    })
}

/// The positions the manifest says each part proves beyond its root.
fn exported_positions(
    manifest: &Manifest,
    root: &Position,
) -> Result<HashMap<String, Vec<Position>>, String> {
    let mut exported: HashMap<String, Vec<Position>> = HashMap::new();
    for (name, positions) in &manifest.exports {
        if !manifest.parts.contains(name) {
            return Err(format!(
                "it lists positions proven in {name}, which is not one of its parts"
            ));
        }
        for text in positions {
            let position: Position = text
                .parse()
                .map_err(|err| format!("a position proven in {name}: {err}"))?;
            if position.board() != root.board() {
                return Err(format!(
                    "{text}, proven in {name}, is not on the {} board",
                    root.board()
                ));
            }
            exported.entry(name.clone()).or_default().push(position);
        }
    }
    Ok(exported)
}

impl Claimed<'_> {
    /// Reads a file the manifest names: only files inside the directory, so that a
    /// manifest cannot point elsewhere.
    fn read(&self, name: &str) -> Result<(PathBuf, Vec<u8>), Rejected> {
        let relative = Path::new(name);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            let why = format!("{name}: not a path inside the directory");
            return Err(reject(&self.manifest_path, why));
        }
        let path = self.dir.join(relative);
        let bytes = std::fs::read(&path).map_err(|err| reject(&path, err.to_string()))?;
        Ok((path, bytes))
    }

    /// Checks the top: a proof of the manifest's claim, given its givens. Returns
    /// its report and its bytes.
    fn verify_top(&self) -> Result<(VerifyReport, u64), Rejected> {
        let (path, bytes) = self.read(&self.manifest.top)?;
        let top = Certificate::from_bytes(&bytes).map_err(|err| reject(&path, err.to_string()))?;
        if top.claim() != Claim::WinsGiven
            || top.root() != &self.root
            || top.winner() != self.winner
        {
            let why = format!(
                "it claims {:?} for {} at {}; the manifest says {} wins at {}",
                top.claim(),
                top.winner(),
                top.root(),
                self.winner,
                self.root
            );
            return Err(reject(&path, why));
        }
        let report = top.verify().map_err(|err| reject(&path, err.to_string()))?;
        Ok((report, bytes.len() as u64))
    }

    /// Checks every part, each on its own: read, verified, dropped.
    fn verify_parts(&self) -> Result<Vec<CheckedPart>, Rejected> {
        let names = &self.manifest.parts;
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .clamp(1, names.len().max(1));
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let work = || {
            let mut done = Vec::new();
            while !failed.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(name) = names.get(i) else { break };
                let checked = self.verify_part(name);
                failed.fetch_or(checked.is_err(), Ordering::Relaxed);
                done.push((i, checked));
            }
            done
        };
        let mut done: Vec<_> = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            let mut done = work();
            for helper in helpers {
                done.extend(helper.join().expect("a part's check does not panic"));
            }
            done
        });
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, checked)| checked).collect()
    }

    /// Checks one part: on the board, for the winner, a valid proof that expands
    /// what it exports and does not take its own root as given.
    fn verify_part(&self, name: &str) -> Result<CheckedPart, Rejected> {
        let (path, bytes) = self.read(name)?;
        let part = Certificate::from_bytes(&bytes).map_err(|err| reject(&path, err.to_string()))?;
        if part.root().board() != self.root.board() {
            let why = format!(
                "a proof on the {} board, not {}",
                part.root().board(),
                self.root.board()
            );
            return Err(reject(&path, why));
        }
        // Version 1 manifests had plain parts only; a "wins given" part is checked
        // the same way whatever the version.
        let claims = matches!(part.claim(), Claim::Wins | Claim::WinsGiven);
        if !claims || part.winner() != self.winner {
            let why = format!(
                "it claims {:?} for {}, not that {} wins",
                part.claim(),
                part.winner(),
                self.winner
            );
            return Err(reject(&path, why));
        }
        let inner = self.exported.get(name).map_or(&[][..], Vec::as_slice);
        let report = part
            .verify_expanding(inner)
            .map_err(|err| reject(&path, err.to_string()))?;
        let own = Identity::of(part.root());
        if report.given.iter().any(|given| Identity::of(given) == own) {
            let why = format!("it takes its own position {} as proven", part.root());
            return Err(reject(&path, why));
        }
        Ok(CheckedPart {
            proves: std::iter::once(own)
                .chain(inner.iter().map(Identity::of))
                .collect(),
            positions: report.positions,
            bytes: bytes.len() as u64,
            given: report.given,
        })
    }

    /// Checks that some part proves each position the top or a part takes as given.
    fn check_givens(&self, top: &VerifyReport, parts: &[CheckedPart]) -> Result<(), Rejected> {
        let proven: HashSet<Identity> = parts
            .iter()
            .flat_map(|p| p.proves.iter().copied())
            .collect();
        let unproven = |given: &[Position]| {
            given
                .iter()
                .find(|position| !proven.contains(&Identity::of(position)))
                .copied()
        };
        if let Some(position) = unproven(&top.given) {
            let why = format!("no part proves {position}, which the top takes as proven");
            return Err(reject(&self.manifest_path, why));
        }
        for (name, part) in self.manifest.parts.iter().zip(parts) {
            if let Some(position) = unproven(&part.given) {
                let why = format!(
                    "it takes {position} (or its mirror image) as proven, which no part of \
                     the manifest proves (as its root or a position it exports)"
                );
                return Err(reject(&self.dir.join(name), why));
            }
        }
        Ok(())
    }
}
