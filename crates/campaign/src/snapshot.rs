//! A campaign's snapshot: its settings and the master's DAG in one compressed file,
//! so that a campaign outlives its directory. The store and the parts of a long
//! campaign take gigabytes, its DAG a few megabytes: the snapshot is what a campaign
//! keeps in git, and [`restore`] makes a new directory from it on another machine.
//! The proofs stay behind: the restored DAG's solved leaves stay solved, marked
//! unproven, and once the root is solved the runs prove again, each by a job of
//! its own, those the root's proof takes as given (the certificate needs their
//! proofs), not the others; the root stays solved meanwhile. The campaign goes on
//! where it was.
//!
//! Format: an xz stream of `"BTSNAP\0\0"`, version (u16 = 2, little-endian), the
//! settings (u32 length, then campaign.json's text), the checkpoint (master.ckpt's
//! format) before its nodes section (u32 length, then the bytes), that section in
//! columns (see [`columns`]), and the checkpoint's CRC-32, which covers the
//! checkpoint as its rows spell it. Version 1, a gzip stream of the magic, version
//! (1), the settings and the whole checkpoint, is read too.

use std::io::{Read, Write};
use std::path::Path;

use breakthrough_proof::XZ_MEMORY_LIMIT_KB;
use breakthrough_solver::Key;
use flate2::read::GzDecoder;
use lzma_rust2::{CheckType, XzOptions, XzReader, XzWriter};

use crate::checkpoint::{Checkpoint, Restore};
use crate::dag::State;
use crate::error::{write_durably, CampaignError};
use crate::run::{read_checkpoint, settle_from_store};
use crate::spec::{Spec, SPEC_FILE};
use crate::store::Store;

mod columns;

const MAGIC: &[u8; 8] = b"BTSNAP\0\0";
const VERSION: u16 = 2;

/// The xz preset: a larger one packs the 6x6 campaign's snapshot no smaller.
const PRESET: u32 = 6;
const XZ_MAGIC: &[u8; 6] = b"\xfd7zXZ\0";
const GZIP_MAGIC: &[u8; 2] = b"\x1f\x8b";

/// Inflated bytes a snapshot may hold: about 60 M DAG nodes, far above the DAGs
/// of the campaigns so far (6x6: 679 k nodes after 20 runs), so that a damaged or
/// hostile file cannot take the machine's memory.
const MAX_BYTES: u64 = 2 << 30;

/// The files a restore writes: what a restore cut short may have left in its
/// staging directory.
const RESTORE_FILES: [&str; 5] = [
    SPEC_FILE,
    crate::store::STORE_FILE,
    crate::store::PARTS_DIR,
    crate::checkpoint::CHECKPOINT_FILE,
    "master.ckpt.tmp",
];

/// What a snapshot holds.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub spec: Spec,
    pub checkpoint: Checkpoint,
}

impl Snapshot {
    /// The snapshot of the campaign in `dir`, from its settings and last checkpoint;
    /// works while a run is going on.
    pub fn of(dir: &Path) -> Result<Snapshot, CampaignError> {
        let spec = Spec::read(dir)?.ok_or_else(|| {
            CampaignError::refused(dir, format!("no campaign here (no {SPEC_FILE})"))
        })?;
        let position = spec
            .position()
            .map_err(|why| CampaignError::damaged(&dir.join(SPEC_FILE), why))?;
        let checkpoint = read_checkpoint(dir, &position)?.ok_or_else(|| {
            CampaignError::refused(dir, "the campaign has no checkpoint yet: nothing to keep")
        })?;
        Ok(Snapshot { spec, checkpoint })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let spec = self.spec.to_json();
        let (checkpoint, nodes_at) = self.checkpoint.to_bytes_and_nodes_at();
        let (head, rest) = checkpoint.split_at(nodes_at);
        let (nodes, checksum) = rest.split_at(rest.len() - 4);
        let mut plain = Vec::new();
        plain.extend_from_slice(MAGIC);
        plain.extend_from_slice(&VERSION.to_le_bytes());
        plain.extend_from_slice(&(spec.len() as u32).to_le_bytes());
        plain.extend_from_slice(spec.as_bytes());
        plain.extend_from_slice(&(head.len() as u32).to_le_bytes());
        plain.extend_from_slice(head);
        columns::columns_of(nodes, &mut plain).expect("the checkpoint's own rows");
        plain.extend_from_slice(checksum);
        let mut options = XzOptions::with_preset(PRESET);
        options.set_check_sum_type(CheckType::Crc32);
        let mut writer = XzWriter::new(Vec::new(), options).expect("a Vec takes any bytes");
        writer.write_all(&plain).expect("a Vec takes any bytes");
        writer.finish().expect("a Vec takes any bytes")
    }

    /// Reads a snapshot; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, String> {
        Snapshot::from_plain(&inflate(bytes)?)
    }

    /// Reads a snapshot's uncompressed bytes.
    fn from_plain(plain: &[u8]) -> Result<Snapshot, String> {
        let rest = plain
            .strip_prefix(MAGIC)
            .ok_or("not a campaign snapshot (compressed, but not one)")?;
        let (version, rest) = rest.split_first_chunk::<2>().ok_or("cut short")?;
        let version = u16::from_le_bytes(*version);
        let (spec, rest) = sized(rest).ok_or("cut short in the settings")?;
        let spec = std::str::from_utf8(spec).map_err(|_| "the settings are not UTF-8")?;
        let spec = Spec::from_json(spec).map_err(|why| format!("the settings: {why}"))?;
        let checkpoint = match version {
            1 => rest.to_vec(),
            2 => {
                let (head, rest) = sized(rest).ok_or("cut short in the checkpoint")?;
                let (columns, checksum) = rest
                    .split_last_chunk::<4>()
                    .ok_or("cut short in the checkpoint")?;
                let mut checkpoint = head.to_vec();
                columns::rows_of(columns, &mut checkpoint)
                    .map_err(|why| format!("the checkpoint's nodes: {why}"))?;
                checkpoint.extend_from_slice(checksum);
                checkpoint
            }
            _ => return Err(format!("version {version}; this program reads 1 and 2")),
        };
        let root = spec.position()?;
        let checkpoint = Checkpoint::from_bytes(&checkpoint, root.board())
            .map_err(|why| format!("the checkpoint: {why}"))?;
        let have = checkpoint.dag.root().position;
        if Key::of(&have) != Key::of(&root) {
            return Err(format!(
                "the checkpoint's root is {have}, the settings' position is {root}"
            ));
        }
        Ok(Snapshot { spec, checkpoint })
    }

    /// Reads the snapshot at `path`.
    pub fn read(path: &Path) -> Result<Snapshot, CampaignError> {
        let bytes = std::fs::read(path).map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound => CampaignError::refused(path, "no such file"),
            _ => CampaignError::io(path)(err),
        })?;
        Snapshot::from_bytes(&bytes).map_err(|why| CampaignError::damaged(path, why))
    }

    /// Writes it to `path` crash-safely; the bytes written.
    pub fn write(&self, path: &Path) -> Result<u64, CampaignError> {
        let bytes = self.to_bytes();
        write_durably(path, &bytes)?;
        Ok(bytes.len() as u64)
    }
}

/// The bytes of an xz stream (version 2) or a gzip stream (version 1), at most
/// [`MAX_BYTES`] of them.
fn inflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let damaged = |err: std::io::Error| format!("a damaged compressed stream: {err}");
    let mut plain = Vec::new();
    if bytes.starts_with(XZ_MAGIC) {
        let mut reader = XzReader::new_mem_limit(bytes, false, XZ_MEMORY_LIMIT_KB);
        (&mut reader)
            .take(MAX_BYTES + 1)
            .read_to_end(&mut plain)
            .map_err(damaged)?;
        let after = reader.into_inner().len();
        if after > 0 && plain.len() as u64 <= MAX_BYTES {
            return Err(format!("{after} bytes after the xz stream"));
        }
    } else if bytes.starts_with(GZIP_MAGIC) {
        GzDecoder::new(bytes)
            .take(MAX_BYTES + 1)
            .read_to_end(&mut plain)
            .map_err(damaged)?;
    } else {
        return Err("not a campaign snapshot (neither an xz nor a gzip stream)".into());
    }
    if plain.len() as u64 > MAX_BYTES {
        return Err(format!("more than {MAX_BYTES} bytes inflated"));
    }
    Ok(plain)
}

/// A field of `bytes` that a u32 length precedes, and the bytes after it.
fn sized(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (length, rest) = bytes.split_first_chunk::<4>()?;
    rest.split_at_checked(u32::from_le_bytes(*length) as usize)
}

/// Makes a new campaign in `dir` (missing, or an empty directory) from `snapshot`:
/// its settings, an empty store, and the DAG with its solved leaves unproven, the
/// restore recorded. Returns the checkpoint written.
///
/// The campaign is made in `DIR.restoring` beside `dir` and renamed into place, so
/// a restore cut short leaves `dir` as it was; the next restore clears what it left.
pub fn restore(snapshot: Snapshot, dir: &Path) -> Result<Checkpoint, CampaignError> {
    let names = |path: &Path| -> Result<Vec<String>, CampaignError> {
        std::fs::read_dir(path)
            .map_err(CampaignError::io(path))?
            .map(|entry| {
                entry
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .map_err(CampaignError::io(path))
            })
            .collect()
    };
    if dir.exists() && !(dir.is_dir() && names(dir)?.is_empty()) {
        return Err(CampaignError::refused(
            dir,
            "exists and is not an empty directory: a restore makes a new campaign",
        ));
    }
    let Some(name) = dir.file_name() else {
        return Err(CampaignError::refused(dir, "give the directory a name"));
    };
    let mut staging_name = name.to_owned();
    staging_name.push(".restoring");
    let staging = dir.with_file_name(staging_name);
    if staging.exists() {
        let ours = staging.is_dir()
            && names(&staging)?
                .iter()
                .all(|n| RESTORE_FILES.contains(&n.as_str()));
        if !ours {
            return Err(CampaignError::refused(
                &staging,
                "is in the way of the restore and holds files a restore does not write",
            ));
        }
        std::fs::remove_dir_all(&staging).map_err(CampaignError::io(&staging))?;
    }
    std::fs::create_dir_all(&staging).map_err(CampaignError::io(&staging))?;
    let checkpoint = build(snapshot, &staging)?;
    if dir.exists() {
        std::fs::remove_dir(dir).map_err(CampaignError::io(dir))?;
    }
    std::fs::rename(&staging, dir).map_err(CampaignError::io(dir))?;
    crate::error::sync_parent(dir)?;
    Ok(checkpoint)
}

/// The restored campaign, written into the empty directory `dir`.
fn build(snapshot: Snapshot, dir: &Path) -> Result<Checkpoint, CampaignError> {
    let Snapshot {
        spec,
        mut checkpoint,
    } = snapshot;
    // The proofs of the solved leaves are not in the snapshot: with an empty store,
    // every solved leaf is unproven.
    checkpoint.dag.release_all();
    checkpoint.unproven = (0..checkpoint.dag.len() as u32)
        .filter(|&id| {
            let node = &checkpoint.dag.nodes[id as usize];
            node.state == State::Leaf && node.is_solved()
        })
        .collect();
    let store = Store::open(dir, true)?;
    settle_from_store(&mut checkpoint, &store)?;
    checkpoint.restores.push(Restore {
        after_runs: checkpoint.runs.len() as u32,
        reopened: 0,
        kept: checkpoint.unproven.len() as u64,
    });
    (checkpoint.stored, checkpoint.in_flight) = (0, 0);
    checkpoint.write(dir)?;
    drop(store);
    spec.write(dir)?;
    Ok(checkpoint)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::write::GzEncoder;

    use super::*;
    use crate::checkpoint::tests::expanded_checkpoint;

    fn snapshot() -> Snapshot {
        let checkpoint = expanded_checkpoint();
        let spec = Spec::new(&checkpoint.dag.root().position, true, 4, 4, 10_000);
        Snapshot { spec, checkpoint }
    }

    /// The bytes version 1 wrote: a gzip stream of the whole checkpoint.
    fn version_1(snapshot: &Snapshot) -> Vec<u8> {
        let spec = snapshot.spec.to_json();
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(MAGIC).unwrap();
        encoder.write_all(&1u16.to_le_bytes()).unwrap();
        encoder
            .write_all(&(spec.len() as u32).to_le_bytes())
            .unwrap();
        encoder.write_all(spec.as_bytes()).unwrap();
        encoder.write_all(&snapshot.checkpoint.to_bytes()).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn both_versions_read_back() {
        let written = snapshot();
        assert!(written.checkpoint.dag.len() > 500);
        let bytes = written.to_bytes();
        assert!(bytes.starts_with(XZ_MAGIC));
        let old = version_1(&written);
        for bytes in [&bytes, &old] {
            let read = Snapshot::from_bytes(bytes).expect("reads back");
            assert_eq!(read.spec, written.spec);
            assert_eq!(read.checkpoint.to_bytes(), written.checkpoint.to_bytes());
        }
        assert!(
            bytes.len() < old.len() * 2 / 3,
            "{} bytes against {}",
            bytes.len(),
            old.len()
        );
    }

    /// A change anywhere in the checkpoint's part of a snapshot is refused: the
    /// columns are checked against the checkpoint's CRC-32, as its rows spell it.
    #[test]
    fn damaged_snapshots_are_refused() {
        let written = snapshot();
        let plain = inflate(&written.to_bytes()).unwrap();
        assert!(Snapshot::from_plain(&plain).is_ok());
        let spec = written.spec.to_json();
        let checkpoint_at = MAGIC.len() + 2 + 4 + spec.len();
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..300 {
            let mut damaged = plain.clone();
            let at = rng.usize(checkpoint_at..damaged.len());
            damaged[at] ^= 1 << rng.u8(..8);
            assert!(Snapshot::from_plain(&damaged).is_err(), "a flip at {at}");
        }
        for cut in [1, 4, plain.len() / 2, plain.len() - 1] {
            assert!(Snapshot::from_plain(&plain[..cut]).is_err(), "cut at {cut}");
        }
        let mut version = plain.clone();
        version[MAGIC.len()] = 3;
        let err = Snapshot::from_plain(&version).unwrap_err();
        assert!(err.contains("version 3"), "{err}");
        for bytes in [&b"BTSNAP\0\0"[..], b"", &written.to_bytes()[..20]] {
            assert!(Snapshot::from_bytes(bytes).is_err());
        }
        let mut longer = written.to_bytes();
        longer.push(0);
        let err = Snapshot::from_bytes(&longer).unwrap_err();
        assert!(err.contains("after the xz stream"), "{err}");
    }
}
