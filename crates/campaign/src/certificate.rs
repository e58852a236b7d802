//! A campaign's certificate: a directory with a manifest.
//!
//! - `DIR/top.cert`: the master's proof, a certificate with the claim "wins given"
//!   (see `breakthrough_solver::certificate::top`): the winner's strategy over the
//!   top of the game, down to positions that jobs proved.
//! - `DIR/parts/*.cert`: each job's proof of its position: a plain certificate, or
//!   one that itself takes other stored positions as proven ("wins given", written
//!   once the store held them, so that a part need not prove again what an earlier
//!   job proved).
//! - `DIR/certificate.json`: the manifest: the position, the winner, the top's file
//!   and every part's file (the top's givens, their parts' givens, and so on), and
//!   for a part some of whose positions other parts take as given (it exported
//!   them, see `crate::store`), those positions.
//!
//! [`verify_certificate`] checks it with the rules alone: the top, then every part
//! (in parallel, one part per thread at a time, so memory is bounded by the largest
//! parts rather than the whole proof), that each part expands the positions the
//! manifest lists for it (so its winner wins there too, by the part's subtree), and
//! that each position the top or a part takes as given is the root of a part or
//! one of those (or a mirror image) proven for the same side. The parts cannot
//! prove one another in a circle: a part may not take its own root as given, and
//! every other position it reaches, and everything below a position it exports,
//! lies strictly later in the game (each move either captures, leaving fewer
//! pieces, or advances a piece a row without capturing, so no position, or mirror
//! image of one, can come back): whatever proves a given position rests only on
//! positions later than it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use breakthrough_engine::{Color, Position};
use breakthrough_solver::{write_top, Certificate, Claim, Key, TopNode, VerifyReport};
use hashbrown::{HashMap, HashSet};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::dag::Dag;
use crate::error::{write_durably, CampaignError};
use crate::store::{part_path, Store};

pub const MANIFEST_FILE: &str = "certificate.json";
pub const TOP_FILE: &str = "top.cert";
const FORMAT: &str = "breakthrough-campaign-certificate";

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

/// What [`write_certificate`] wrote.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    pub top_positions: u64,
    pub parts: usize,
    /// The top's and the parts' bytes.
    pub bytes: u64,
}

/// Writes the top of a solved campaign's DAG and the manifest naming its parts: the
/// top's givens and, from the store, what their parts take as given in turn.
pub fn write_certificate(
    dir: &Path,
    root: &Position,
    winner: Color,
    dag: &Dag,
    store: &Store,
) -> Result<Written, CampaignError> {
    let mut given = Vec::new();
    let mut seen = HashSet::new();
    let mut missing = None;
    let top = write_top(
        root,
        winner,
        &mut |position| match dag.top_node(position, winner) {
            Some(TopNode::Given) => {
                let key = Key::of(position);
                if seen.insert(key) {
                    given.push(key);
                }
                TopNode::Given
            }
            Some(node) => node,
            None => {
                missing.get_or_insert_with(|| position.to_string());
                // Anything, to end the walk here; the error below reports it.
                TopNode::Given
            }
        },
    )
    .map_err(|err| CampaignError::Internal(format!("writing the top proof: {err}")))?;
    if let Some(position) = missing {
        return Err(CampaignError::Internal(format!(
            "the top proof reaches {position}, which the DAG does not prove"
        )));
    }
    // The closure: each given position is stored, the root of a part or proven
    // inside one, and each part's givens are given positions in turn.
    let mut parts: Vec<Key> = Vec::new();
    let mut in_parts = HashSet::new();
    let mut exports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut next = 0;
    while next < given.len() {
        let key = given[next];
        next += 1;
        let part = match store.inner(&key)? {
            Some(inner) => {
                let position = inner.position(root.board()).ok_or_else(|| {
                    CampaignError::damaged(
                        &dir.join(crate::store::STORE_FILE),
                        format!(
                            "the position proven inside {} is not one",
                            part_path(&inner.part).display()
                        ),
                    )
                })?;
                let file = part_path(&inner.part).to_string_lossy().into_owned();
                exports.entry(file).or_default().push(position.to_string());
                inner.part
            }
            None => key,
        };
        if in_parts.insert(part) {
            parts.push(part);
            for key in store.given(&part)? {
                if seen.insert(key) {
                    given.push(key);
                }
            }
        }
    }
    let mut names = Vec::with_capacity(parts.len());
    let mut bytes = 0;
    for key in &parts {
        let file = part_path(key);
        let size = std::fs::metadata(dir.join(&file))
            .map_err(CampaignError::io(&dir.join(&file)))?
            .len();
        bytes += size;
        names.push(file.to_string_lossy().into_owned());
    }
    let top_bytes = top.to_bytes();
    bytes += top_bytes.len() as u64;
    write_durably(&dir.join(TOP_FILE), &top_bytes)?;
    let manifest = Manifest {
        format: FORMAT.to_string(),
        // Version 2: parts may claim "wins given" (which version 1 readers refuse);
        // version 3: positions proven inside parts may be given.
        version: 3,
        board: root.board().to_string(),
        position: root.to_string(),
        winner: winner.name().to_string(),
        top: TOP_FILE.to_string(),
        parts: names,
        exports,
    };
    let text = serde_json::to_string_pretty(&manifest).expect("plain data");
    write_durably(&dir.join(MANIFEST_FILE), text.as_bytes())?;
    Ok(Written {
        top_positions: top.positions(),
        parts: parts.len(),
        bytes,
    })
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

/// Checks the certificate in a campaign directory with the rules alone (see the
/// module docs), on the calling thread and rayon's pool.
pub fn verify_certificate(dir: &Path) -> Result<CampaignReport, Rejected> {
    let reject = |file: &Path, why: String| Rejected {
        file: file.to_path_buf(),
        why,
    };
    let manifest_path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&manifest_path).map_err(|err| {
        reject(
            &manifest_path,
            format!("{err} (a campaign has a certificate once it is solved)"),
        )
    })?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|err| reject(&manifest_path, err.to_string()))?;
    if manifest.format != FORMAT || !(1..=3).contains(&manifest.version) {
        return Err(reject(
            &manifest_path,
            "not a campaign certificate manifest of version 1 to 3".into(),
        ));
    }
    let root: Position = manifest
        .position
        .parse()
        .map_err(|err| reject(&manifest_path, format!("position: {err}")))?;
    let winner = match manifest.winner.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(reject(&manifest_path, format!("winner {other:?}"))),
    };
    if let Some(name) = manifest
        .exports
        .keys()
        .find(|name| !manifest.parts.contains(name))
    {
        return Err(reject(
            &manifest_path,
            format!("it lists positions proven in {name}, which is not one of its parts"),
        ));
    }
    // The positions each part must expand beyond its root.
    let mut exported: HashMap<&str, Vec<Position>> = HashMap::new();
    for (name, positions) in &manifest.exports {
        for text in positions {
            let position: Position = text.parse().map_err(|err| {
                reject(
                    &manifest_path,
                    format!("a position proven in {name}: {err}"),
                )
            })?;
            if position.board() != root.board() {
                return Err(reject(
                    &manifest_path,
                    format!(
                        "{text}, proven in {name}, is not on the {} board",
                        root.board()
                    ),
                ));
            }
            exported.entry(name.as_str()).or_default().push(position);
        }
    }
    let read = |name: &str| -> Result<(PathBuf, Vec<u8>), Rejected> {
        // Only files inside the directory: a manifest cannot point elsewhere.
        let relative = Path::new(name);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(reject(
                &manifest_path,
                format!("{name}: not a path inside the directory"),
            ));
        }
        let path = dir.join(relative);
        let bytes = std::fs::read(&path).map_err(|err| reject(&path, err.to_string()))?;
        Ok((path, bytes))
    };
    let (top_path, top_bytes) = read(&manifest.top)?;
    let top =
        Certificate::from_bytes(&top_bytes).map_err(|err| reject(&top_path, err.to_string()))?;
    if top.claim() != Claim::WinsGiven || top.root() != &root || top.winner() != winner {
        return Err(reject(
            &top_path,
            format!(
                "it claims {:?} for {} at {}; the manifest says {} wins at {}",
                top.claim(),
                top.winner(),
                top.root(),
                winner,
                root
            ),
        ));
    }
    let top_report = top
        .verify()
        .map_err(|err| reject(&top_path, err.to_string()))?;
    drop(top);
    // Each part: read, checked, dropped; the keys of its root and of the positions
    // it exports, and its givens', kept.
    let checked: Vec<(Vec<Key>, u64, u64, Vec<Key>)> = manifest
        .parts
        .par_iter()
        .map(|name| {
            let (path, bytes) = read(name)?;
            let part =
                Certificate::from_bytes(&bytes).map_err(|err| reject(&path, err.to_string()))?;
            if part.root().board() != root.board() {
                return Err(reject(
                    &path,
                    format!(
                        "a proof on the {} board, not {}",
                        part.root().board(),
                        root.board()
                    ),
                ));
            }
            // (Version 1 manifests had plain parts only; a "wins given" part is
            // checked the same way whatever the version.)
            let claims = matches!(part.claim(), Claim::Wins | Claim::WinsGiven);
            if !claims || part.winner() != winner {
                return Err(reject(
                    &path,
                    format!(
                        "it claims {:?} for {}, not that {winner} wins",
                        part.claim(),
                        part.winner()
                    ),
                ));
            }
            let inner = exported.get(name.as_str()).map_or(&[][..], Vec::as_slice);
            let report = part
                .verify_expanding(inner)
                .map_err(|err| reject(&path, err.to_string()))?;
            let key = Key::of(part.root());
            let given: Vec<Key> = report.given.iter().map(Key::of).collect();
            if given.contains(&key) {
                return Err(reject(
                    &path,
                    format!("it takes its own position {} as proven", part.root()),
                ));
            }
            let proves = std::iter::once(key)
                .chain(inner.iter().map(Key::of))
                .collect();
            Ok((proves, report.positions, bytes.len() as u64, given))
        })
        .collect::<Result<_, Rejected>>()?;
    let proven: HashSet<Key> = checked.iter().flat_map(|c| c.0.iter().copied()).collect();
    if let Some(unproven) = top_report
        .given
        .iter()
        .find(|position| !proven.contains(&Key::of(position)))
    {
        return Err(reject(
            &manifest_path,
            format!("no part proves {unproven}, which the top takes as proven"),
        ));
    }
    for (name, (_, _, _, given)) in manifest.parts.iter().zip(&checked) {
        if let Some(unproven) = given.iter().find(|&key| !proven.contains(key)) {
            return Err(reject(
                &dir.join(name),
                format!(
                    "it takes the position of {} (that part's root, or a position a part exports) as proven, which no part of the manifest proves",
                    part_path(unproven).display()
                ),
            ));
        }
    }
    Ok(CampaignReport {
        root,
        winner,
        parts: checked.len(),
        given_parts: checked.iter().filter(|c| !c.3.is_empty()).count(),
        part_positions: checked.iter().map(|c| c.1).sum(),
        largest_part: checked.iter().map(|c| c.1).max().unwrap_or(0),
        bytes: top_bytes.len() as u64 + checked.iter().map(|c| c.2).sum::<u64>(),
        top: top_report,
    })
}
