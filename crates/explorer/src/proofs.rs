//! The proof browser: a certificate given at start-up, a file or a campaign's
//! directory, indexed part by part ([`Outline`]) so that each position of its
//! proof lists the moves the proof takes there, each with the size and height of
//! what proves it. A file is verified at start-up; a campaign's directory is too
//! large for that (`breakthrough verify DIR` checks it), so its parts are read as
//! they are browsed, one kept at a time, and answers say they are not verified.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use breakthrough_engine::Position;
use breakthrough_proof::outline::{Below, Outline};
use breakthrough_proof::{part_file, read_parts, verify_file, Manifest, MANIFEST_FILE};
use breakthrough_solver::Key;
use serde::{Deserialize, Serialize};

use crate::answers::side;
use breakthrough_result::Side;

/// The largest file of a campaign's directory the browser reads, in bytes (a 6x6
/// campaign's largest part is under 3 MB).
pub const MAX_PART_BYTES: u64 = 256 << 20;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The bytes of `file` (relative, each component a plain name) inside `dir`: only
/// a regular file reached without a symbolic link, of at most [`MAX_PART_BYTES`].
/// Errors name the file relative to `dir`.
fn read_inside(dir: &Path, file: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let refuse = |why: &str| format!("{file}: {why}");
    let mut path = dir.to_path_buf();
    for component in Path::new(file).components() {
        let std::path::Component::Normal(name) = component else {
            return Err(refuse("not a file inside the directory"));
        };
        path.push(name);
        let meta = std::fs::symlink_metadata(&path).map_err(|err| refuse(&err.to_string()))?;
        if meta.file_type().is_symlink() {
            return Err(refuse("a symbolic link is not followed"));
        }
    }
    let before = std::fs::symlink_metadata(&path).map_err(|err| refuse(&err.to_string()))?;
    if !before.is_file() {
        return Err(refuse("not a regular file"));
    }
    if before.len() > MAX_PART_BYTES {
        return Err(refuse(&format!(
            "{} bytes; the browser reads at most {MAX_PART_BYTES}",
            before.len()
        )));
    }
    let opened = std::fs::File::open(&path).map_err(|err| refuse(&err.to_string()))?;
    // The file opened is the one looked at (not swapped for another meanwhile).
    let now = opened.metadata().map_err(|err| refuse(&err.to_string()))?;
    if !now.is_file() || !same_file(&before, &now) {
        return Err(refuse("changed while it was opened"));
    }
    let mut bytes = Vec::new();
    opened
        .take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| refuse(&err.to_string()))?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(refuse("grew past the bound while it was read"));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// A loaded certificate.
#[derive(Debug)]
pub struct Proofs {
    name: String,
    verified: bool,
    entries: Vec<PartEntry>,
    parts: Parts,
}

#[derive(Debug)]
enum Parts {
    /// A file's parts, all indexed at start-up.
    File(Vec<Arc<Outline>>),
    /// A campaign's directory: the top, then the parts, read when browsed.
    Directory {
        dir: PathBuf,
        /// The part last browsed.
        loaded: Mutex<Option<(usize, Arc<Outline>)>>,
        /// Which part proves a position the others take as given (its root, or a
        /// position it exports), by the position's key.
        provers: HashMap<Key, usize>,
    },
}

/// A part of the certificate: one of a file's (a length's certificate has two),
/// or a file of a campaign's directory (the top first).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PartEntry {
    /// Its file, relative to the directory (the file itself for a file's parts).
    file: String,
}

/// What one part proves, and its shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartAnswer {
    pub index: usize,
    /// What it proves, in words: "black wins", "white wins within 26 plies", ...
    pub claim: String,
    /// The claim's side.
    pub side: Side,
    pub board: String,
    pub root: String,
    /// Positions the proof expands.
    pub positions: u64,
    /// Plies to the end of its longest game.
    pub height: u32,
    /// Positions expanded at each ply from the root.
    pub by_ply: Vec<u64>,
}
/// What the proof does at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// Expanded here.
    Expanded,
    /// Proven where the proof expands the same position earlier.
    Transposition,
    /// Left to the verifier's own search of a few plies.
    Settled,
    /// Proven by another certificate (another file of a campaign).
    Given,
    /// The game is over, won by the claim's side.
    Finished,
    /// A hold-out's bound is reached with the game going on.
    HeldOut,
}

/// A position of the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeAnswer {
    pub kind: NodeKind,
    /// The expanded position's number in the stream (a transposition's: the one
    /// it refers to).
    pub id: Option<usize>,
    /// Positions expanded below it, itself included (0 when it expands none here).
    pub size: u64,
    /// Plies to the end of the longest game below it.
    pub height: u32,
    /// For a position given as proven elsewhere: the part that proves it, when
    /// found.
    pub proven_by: Option<usize>,
}

/// A move the proof takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub position: String,
    pub node: NodeAnswer,
}

/// `GET /api/v1/proof`: a position of the proof and the moves it takes there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofAnswer {
    /// The certificate's file or directory name.
    pub file: String,
    /// Whether the server verified the certificate (a file) or not (a directory).
    pub verified: bool,
    /// How many parts there are (numbered from 0).
    pub parts: usize,
    pub part: usize,
    /// The part's file, relative to the directory (the file itself for a file's
    /// parts).
    pub part_file: String,
    /// What the part proves.
    pub summary: PartAnswer,
    /// The moves from the part's root.
    pub path: Vec<String>,
    pub position: String,
    pub ply: u32,
    pub to_move: Side,
    pub node: NodeAnswer,
    /// The winner's one move, or every reply of the loser; the largest subtree first.
    pub moves: Vec<ProofMove>,
}

impl Proofs {
    /// Reads the certificate at `path`: a file (verified, then each part
    /// indexed) or a campaign's directory (its manifest; parts are read later).
    pub fn load(path: &Path) -> anyhow::Result<Proofs> {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        if path.is_dir() {
            return Self::load_directory(path, name);
        }
        if !path.is_file() {
            anyhow::bail!(
                "{} is neither a certificate file nor a campaign's directory",
                path.display()
            );
        }
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        verify_file(&bytes)
            .with_context(|| format!("{} does not verify; it is not shown", path.display()))?;
        let parts = read_parts(&bytes).with_context(|| format!("{}", path.display()))?;
        let parts: Vec<Arc<Outline>> = parts
            .iter()
            .map(|part| Outline::new(part).map(Arc::new))
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}", path.display()))?;
        let entries = (0..parts.len())
            .map(|_| PartEntry { file: name.clone() })
            .collect();
        Ok(Proofs {
            name,
            verified: true,
            entries,
            parts: Parts::File(parts),
        })
    }

    fn load_directory(dir: &Path, name: String) -> anyhow::Result<Proofs> {
        let path = dir.join(MANIFEST_FILE);
        let text = read_inside(dir, MANIFEST_FILE)
            .map_err(|why| anyhow::anyhow!("{why} (a campaign's certificate)"))?;
        let text =
            String::from_utf8(text).with_context(|| format!("{} is not text", path.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a campaign's manifest", path.display()))?;
        let files: Vec<String> = std::iter::once(manifest.top.clone())
            .chain(manifest.parts.iter().cloned())
            .collect();
        // Files stay inside the directory: the manifest names them, not the user.
        if let Some(bad) = files.iter().find(|file| {
            Path::new(file)
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        }) {
            anyhow::bail!(
                "{}: the file `{bad}` is not inside the directory",
                path.display()
            );
        }
        let index: HashMap<&str, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.as_str(), i))
            .collect();
        let mut provers = HashMap::new();
        for (file, exported) in &manifest.exports {
            let Some(&part) = index.get(file.as_str()) else {
                continue;
            };
            for text in exported {
                let position: Position = text
                    .parse()
                    .with_context(|| format!("{}: an export `{text}`", path.display()))?;
                provers.insert(Key::of(&position), part);
            }
        }
        let entries = files.into_iter().map(|file| PartEntry { file }).collect();
        Ok(Proofs {
            name,
            verified: false,
            entries,
            parts: Parts::Directory {
                dir: dir.to_path_buf(),
                loaded: Mutex::new(None),
                provers,
            },
        })
    }

    /// Part `part`'s outline, read and indexed if it is not the one kept.
    fn outline(&self, part: usize) -> Result<Arc<Outline>, String> {
        let last = self.entries.len().saturating_sub(1);
        let entry = self
            .entries
            .get(part)
            .ok_or_else(|| format!("part {part}: the certificate has parts 0 to {last}"))?;
        match &self.parts {
            Parts::File(parts) => Ok(Arc::clone(&parts[part])),
            Parts::Directory { dir, loaded, .. } => {
                if let Some((index, outline)) = &*lock(loaded) {
                    if *index == part {
                        return Ok(Arc::clone(outline));
                    }
                }
                // Read without the lock: a slow part holds up no other request.
                let bytes = read_inside(dir, &entry.file)?;
                let certificates =
                    read_parts(&bytes).map_err(|err| format!("{}: {err}", entry.file))?;
                let [certificate] = &certificates[..] else {
                    return Err(format!("{}: not one certificate", entry.file));
                };
                let outline = Arc::new(
                    Outline::new(certificate).map_err(|err| format!("{}: {err}", entry.file))?,
                );
                *lock(loaded) = Some((part, Arc::clone(&outline)));
                Ok(outline)
            }
        }
    }

    /// The part that proves `position`, given as proven elsewhere.
    fn prover(&self, position: &Position) -> Option<usize> {
        let Parts::Directory { provers, .. } = &self.parts else {
            return None;
        };
        let key = Key::of(position);
        let file = part_file(position);
        self.entries
            .iter()
            .position(|entry| entry.file == file)
            .or_else(|| provers.get(&key).copied())
    }

    fn summary(index: usize, outline: &Outline) -> PartAnswer {
        let certificate = outline.certificate();
        let winner = certificate.winner();
        PartAnswer {
            index,
            claim: certificate.claim().describe(winner),
            side: side(winner),
            board: certificate.root().board().to_string(),
            root: certificate.root().to_string(),
            positions: certificate.positions(),
            height: outline.nodes().first().map_or(0, |node| node.height),
            by_ply: outline.by_ply().to_vec(),
        }
    }

    fn node(&self, outline: &Outline, below: Below, position: &Position) -> NodeAnswer {
        let expanded = |kind, id: usize| {
            let node = outline.nodes()[id];
            NodeAnswer {
                kind,
                id: Some(id),
                size: node.size,
                height: node.height,
                proven_by: None,
            }
        };
        let leaf = |kind, height| NodeAnswer {
            kind,
            id: None,
            size: 0,
            height,
            proven_by: None,
        };
        match below {
            Below::Expanded(id) => expanded(NodeKind::Expanded, id),
            Below::Transposition(id) => expanded(NodeKind::Transposition, id),
            Below::Settled(plies) => leaf(NodeKind::Settled, plies),
            Below::Given => NodeAnswer {
                proven_by: self.prover(position),
                ..leaf(NodeKind::Given, 0)
            },
            Below::Finished => leaf(NodeKind::Finished, 0),
            Below::HeldOut => leaf(NodeKind::HeldOut, 0),
        }
    }

    /// The position `path` (move names) leads to from part `part`'s root.
    pub fn browse(&self, part: usize, path: &[String]) -> Result<ProofAnswer, String> {
        let outline = self.outline(part)?;
        let mut position: Position = *outline.certificate().root();
        let mut below = if position.winner().is_some() {
            Below::Finished
        } else {
            Below::Expanded(0)
        };
        let mut moves = self.moves(&outline, below, &position)?;
        for (ply, name) in path.iter().enumerate() {
            let found = moves.iter().find(|m| m.0 == *name).ok_or_else(|| {
                let taken: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
                format!(
                    "move {} `{name}`: the proof takes {} there",
                    ply + 1,
                    if taken.is_empty() {
                        "no move".to_string()
                    } else {
                        taken.join(", ")
                    }
                )
            })?;
            position = found.1;
            below = found.2;
            moves = self.moves(&outline, below, &position)?;
        }
        let mut answers: Vec<ProofMove> = moves
            .into_iter()
            .map(|(mv, after, below)| ProofMove {
                mv,
                position: after.to_string(),
                node: self.node(&outline, below, &after),
            })
            .collect();
        answers.sort_by_key(|m| std::cmp::Reverse(m.node.size));
        Ok(ProofAnswer {
            file: self.name.clone(),
            verified: self.verified,
            parts: self.entries.len(),
            part,
            part_file: self.entries[part].file.clone(),
            summary: Self::summary(part, &outline),
            path: path.to_vec(),
            position: position.to_string(),
            ply: path.len() as u32,
            to_move: side(position.to_move()),
            node: self.node(&outline, below, &position),
            moves: answers,
        })
    }

    /// The moves the proof takes at a position it reaches with `below`.
    fn moves(
        &self,
        outline: &Outline,
        below: Below,
        position: &Position,
    ) -> Result<Vec<(String, Position, Below)>, String> {
        let id = match below {
            Below::Expanded(id) | Below::Transposition(id) => id,
            _ => return Ok(Vec::new()),
        };
        let moves = outline
            .moves(id, position)
            .map_err(|err| format!("{}: {err}", self.name))?;
        Ok(moves
            .into_iter()
            .map(|m| (position.to_move_text(m.step).to_string(), m.after, m.below))
            .collect())
    }
}
