//! The warm table, `DIR/table.warm`: the costliest entries of the workers' table,
//! saved when a run stops cleanly and loaded by the next run, so that a stop does not
//! throw away the search below the master's leaves. Only a cache: a missing or
//! damaged file costs time, not correctness (the master believes only the store,
//! and a part is written down to finished games, so a wrong entry cannot become a
//! proof). All integers little-endian:
//!
//! ```text
//! "BTWARM\0\0", version (u16 = 1), count (u64), then per entry: white (u64),
//! black (u64), black to move (u8), horizon (u8), phi (u32), delta (u32), work (u32);
//! then a CRC-32 of all before it.
//! ```

use std::path::Path;

use breakthrough_solver::{Key, Pn, SavedEntry};

use crate::error::{write_durably, CampaignError};

pub const WARM_FILE: &str = "table.warm";
const MAGIC: &[u8; 8] = b"BTWARM\0\0";
const VERSION: u16 = 1;
const ENTRY: usize = 30;

/// Entries below this work are cheap to find again: not saved. With this threshold
/// and the proof grace of `campaign::PROOF_GRACE`, a campaign stopped and continued
/// takes about the nodes of one run (`scripts/campaign-interrupt.sh`; figures in
/// `docs/performance.md`, "Campaigns").
pub const MIN_WORK: u32 = 2;
/// At most this many entries are saved (those of the most work): 480 MB on disk.
/// Saving or loading them holds both the entries (40 bytes each in memory) and the
/// file's bytes, so a stop or a start needs up to about 1.1 GB beyond the table.
pub const MAX_ENTRIES: usize = 16 << 20;

pub fn save(dir: &Path, entries: &[SavedEntry]) -> Result<(), CampaignError> {
    let mut out = Vec::with_capacity(18 + entries.len() * ENTRY + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        out.extend_from_slice(&e.key.white.to_le_bytes());
        out.extend_from_slice(&e.key.black.to_le_bytes());
        out.push(u8::from(e.key.black_to_move));
        out.push(e.key.horizon);
        out.extend_from_slice(&e.phi.get().to_le_bytes());
        out.extend_from_slice(&e.delta.get().to_le_bytes());
        out.extend_from_slice(&e.work.to_le_bytes());
    }
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    write_durably(&dir.join(WARM_FILE), &out)
}

/// The saved entries, or `None` when there are none or the file is damaged (then it
/// is ignored: it is only a cache).
pub fn load(dir: &Path) -> Option<Vec<SavedEntry>> {
    let bytes = std::fs::read(dir.join(WARM_FILE)).ok()?;
    if bytes.len() < 22 || &bytes[..8] != MAGIC {
        return None;
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body) != u32::from_le_bytes(checksum.try_into().ok()?) {
        return None;
    }
    if u16::from_le_bytes([body[8], body[9]]) != VERSION {
        return None;
    }
    let count = u64::from_le_bytes(body[10..18].try_into().ok()?) as usize;
    let records = &body[18..];
    if records.len() != count.checked_mul(ENTRY)? {
        return None;
    }
    let u32_at = |r: &[u8], at: usize| u32::from_le_bytes(r[at..at + 4].try_into().expect("4"));
    let u64_at = |r: &[u8], at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8"));
    Some(
        records
            .chunks_exact(ENTRY)
            .map(|r| SavedEntry {
                key: Key {
                    white: u64_at(r, 0),
                    black: u64_at(r, 8),
                    black_to_move: r[16] != 0,
                    horizon: r[17],
                },
                phi: Pn::from_raw(u32_at(r, 18)),
                delta: Pn::from_raw(u32_at(r, 22)),
                work: u32_at(r, 26),
            })
            .collect(),
    )
}

/// Removes the file (a solved campaign needs it no more).
pub fn remove(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(WARM_FILE));
}
