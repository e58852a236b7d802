//! A campaign's snapshot: its settings and the master's DAG in one compressed file,
//! so that a campaign outlives its directory. The store and the parts of a long
//! campaign take gigabytes, its DAG a few megabytes: the snapshot is what a campaign
//! keeps in git, and [`restore`] makes a new directory from it on another machine.
//! The proofs stay behind: the restored DAG's solved leaves stay solved, marked
//! unproven, and once the root is solved the runs prove again those the root's
//! proof takes as given (the certificate needs their proofs), not the others. The
//! campaign goes on where it was.
//!
//! Format: a gzip stream of `"BTSNAP\0\0"`, version (u16 = 1, little-endian), the
//! settings (u32 length, then campaign.json's text) and the checkpoint (the rest:
//! master.ckpt's format, with its own CRC-32).

use std::io::{Read, Write};
use std::path::Path;

use breakthrough_solver::Key;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::checkpoint::{Checkpoint, Restore};
use crate::dag::State;
use crate::error::{write_durably, CampaignError};
use crate::run::{read_checkpoint, settle_from_store};
use crate::spec::{Spec, SPEC_FILE};
use crate::store::Store;

const MAGIC: &[u8; 8] = b"BTSNAP\0\0";
const VERSION: u16 = 1;

/// Inflated bytes a snapshot may hold: about 60 M DAG nodes, far above the DAGs of
/// the campaigns so far (6x6: 165 k nodes in 3 hours), so that a damaged or hostile
/// file cannot take the machine's memory.
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
        let mut plain = Vec::new();
        plain.extend_from_slice(MAGIC);
        plain.extend_from_slice(&VERSION.to_le_bytes());
        plain.extend_from_slice(&(spec.len() as u32).to_le_bytes());
        plain.extend_from_slice(spec.as_bytes());
        plain.extend_from_slice(&self.checkpoint.to_bytes());
        // The DAG is written once per run and read rarely: the best compression.
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(&plain).expect("Vec never fails");
        encoder.finish().expect("Vec never fails")
    }

    /// Reads a snapshot; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, String> {
        let mut plain = Vec::new();
        GzDecoder::new(bytes)
            .take(MAX_BYTES + 1)
            .read_to_end(&mut plain)
            .map_err(|err| format!("not a gzip stream, or a damaged one: {err}"))?;
        if plain.len() as u64 > MAX_BYTES {
            return Err(format!("more than {MAX_BYTES} bytes inflated"));
        }
        let rest = plain
            .strip_prefix(MAGIC)
            .ok_or("not a campaign snapshot (gzip, but not of one)")?;
        let (version, rest) = rest.split_at_checked(2).ok_or("cut short")?;
        let version = u16::from_le_bytes(version.try_into().expect("2 bytes"));
        if version != VERSION {
            return Err(format!("version {version}; this program reads {VERSION}"));
        }
        let (length, rest) = rest.split_at_checked(4).ok_or("cut short")?;
        let length = u32::from_le_bytes(length.try_into().expect("4 bytes")) as usize;
        let (spec, checkpoint) = rest
            .split_at_checked(length)
            .ok_or("cut short in the settings")?;
        let spec = std::str::from_utf8(spec).map_err(|_| "the settings are not UTF-8")?;
        let spec = Spec::from_json(spec).map_err(|why| format!("the settings: {why}"))?;
        let root = spec.position()?;
        let checkpoint = Checkpoint::from_bytes(checkpoint, root.board())
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
