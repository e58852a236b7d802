//! The store of solved positions: `DIR/store.redb`, an embedded ACID database
//! (redb). Each record is a position (up to the mirror) that a job proved or
//! disproved; its proof is the part file named after it (see [`part_path`]), or for
//! a position a part exported, that part (the table `inner`, below). A record is
//! committed (and synced) only after its part file is, so a record always has its
//! proof; a crash loses at most what was not yet committed.
//!
//! A part may take other stored positions as proven (the claim "wins given"): the
//! table `given` keeps, for such a position, the keys its part takes as given, so
//! that the campaign's certificate lists every part it needs without reading them.
//! Only committed positions are ever given (see `Transport::committed`), so every
//! record's givens are records too.
//!
//! A part also names positions below its root whose proofs in it are big (see
//! `JobOptions::export_min`): each such position is stored too, once, and the
//! table `inner` says which part proves it (and the position exactly as that part
//! expands it, not its mirror image), so that later parts may take it as given.
//!
//! Records are committed in batches ([`Batch`], group commit): a batch's parts are
//! written and synced side by side, their directory synced once, and their records
//! committed in one transaction, so that a master fed by many workers does not
//! spend a few syncs on every solved position one after another.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use breakthrough_engine::{Bitboard, Board, Color, Position};
use breakthrough_proof::part_file_of;
use breakthrough_solver::Key;
use hashbrown::HashMap;
use rayon::prelude::*;
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};

use crate::error::{sync_parent, write_synced, CampaignError};
use crate::storage::Fault;

pub const STORE_FILE: &str = "store.redb";
pub use breakthrough_proof::PARTS_DIR;

/// The bytes the store of `dir` and its certificate parts take on disk (0 for what
/// is missing).
pub fn disk_bytes(dir: &Path) -> u64 {
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let parts: u64 = std::fs::read_dir(dir.join(PARTS_DIR))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| size(&entry.path()))
        .sum();
    size(&dir.join(STORE_FILE)) + parts
}

/// The sizes in bytes of the certificate parts of `dir`, one a solved position
/// (empty when there are none), smallest first.
pub fn part_sizes(dir: &Path) -> Vec<u64> {
    let mut sizes: Vec<u64> = std::fs::read_dir(dir.join(PARTS_DIR))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len())
        .collect();
    sizes.sort_unstable();
    sizes
}

/// Key (white, black, black to move) -> (side to move wins).
const SOLVED: TableDefinition<&[u8], u8> = TableDefinition::new("solved");
/// Key -> the keys its part takes as given, 17 bytes each (only for parts that
/// take some).
const GIVEN: TableDefinition<&[u8], &[u8]> = TableDefinition::new("given");
/// Key of a position proven inside another's part -> that part's key, then the
/// position as the part expands it (both armies exactly, and the side to move): 34
/// bytes.
const INNER: TableDefinition<&[u8], &[u8]> = TableDefinition::new("inner");

/// A key's 17 bytes: both armies, little-endian, and the side to move.
fn key_bytes(key: &Key) -> [u8; 17] {
    let mut bytes = [0u8; 17];
    bytes[..8].copy_from_slice(&key.white.to_le_bytes());
    bytes[8..16].copy_from_slice(&key.black.to_le_bytes());
    bytes[16] = u8::from(key.black_to_move);
    bytes
}

fn key_from_bytes(bytes: &[u8]) -> Option<Key> {
    let bytes: &[u8; 17] = bytes.try_into().ok()?;
    Some(Key {
        white: u64::from_le_bytes(bytes[..8].try_into().ok()?),
        black: u64::from_le_bytes(bytes[8..16].try_into().ok()?),
        black_to_move: match bytes[16] {
            0 => false,
            1 => true,
            _ => return None,
        },
        horizon: 0,
    })
}

/// The 17 bytes of a position exactly (not up to the mirror): both armies and the
/// side to move, as [`key_bytes`] lays out a key.
fn exact_bytes(position: &Position) -> [u8; 17] {
    key_bytes(&Key {
        white: position.pieces(Color::White).0,
        black: position.pieces(Color::Black).0,
        black_to_move: position.to_move() == Color::Black,
        horizon: 0,
    })
}

/// Where a position proven inside another's part is: that part's key, and the
/// position exactly as the part expands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inner {
    pub part: Key,
    pub white: u64,
    pub black: u64,
    pub black_to_move: bool,
}

impl Inner {
    /// The position on `board`.
    pub fn position(&self, board: Board) -> Option<Position> {
        let to_move = if self.black_to_move {
            Color::Black
        } else {
            Color::White
        };
        Position::try_from_parts(board, Bitboard(self.white), Bitboard(self.black), to_move).ok()
    }
}

/// The part file that proves a stored position, relative to the campaign directory.
pub fn part_path(key: &Key) -> PathBuf {
    PathBuf::from(part_file_of(key.white, key.black, key.black_to_move))
}

/// A part waiting to be committed.
#[derive(Debug)]
struct Waiting {
    bytes: Vec<u8>,
    /// The keys it takes as given.
    given: Vec<Key>,
    /// The positions below its root it exports (won by its winner).
    exported: Vec<Position>,
}

/// Solved positions and their parts waiting to be committed to the store.
#[derive(Debug, Default)]
pub struct Batch {
    /// Key -> the side to move wins and the part.
    waiting: HashMap<Key, (bool, Waiting)>,
    bytes: usize,
    oldest: Option<Instant>,
}

impl Batch {
    /// Positions waiting before a batch is committed.
    pub const POSITIONS: usize = 64;
    /// Part bytes waiting before a batch is committed.
    pub const BYTES: usize = 64 << 20;
    /// How long the oldest may wait: what a crash can lose beyond the jobs in flight.
    pub const WAIT: Duration = Duration::from_millis(20);

    /// Adds a solved position, its part, the stored positions the part takes as
    /// given and those below its root it exports (a position not waiting already).
    pub fn push(
        &mut self,
        key: Key,
        wins: bool,
        part: Vec<u8>,
        given: Vec<Key>,
        exported: Vec<Position>,
    ) {
        self.bytes += part.len();
        self.oldest.get_or_insert_with(Instant::now);
        let waiting = Waiting {
            bytes: part,
            given,
            exported,
        };
        self.waiting.insert(key, (wins, waiting));
    }

    /// Whether the side to move wins a waiting position, if it is waiting.
    pub fn get(&self, key: &Key) -> Option<bool> {
        self.waiting.get(key).map(|&(wins, _)| wins)
    }

    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Whether it is time to commit: enough waiting, or waiting long enough.
    pub fn is_due(&self) -> bool {
        self.waiting.len() >= Self::POSITIONS
            || self.bytes >= Self::BYTES
            || self
                .oldest
                .is_some_and(|oldest| oldest.elapsed() >= Self::WAIT)
    }
}

/// What [`Store::commit`] stored.
#[derive(Clone, Debug, Default)]
pub struct Committed {
    /// Every position stored, with whether the side to move wins: the parts' roots
    /// and the exported positions.
    pub solved: Vec<(Key, bool)>,
    /// The exported positions stored (as the parts expand them), with whether the
    /// side to move wins.
    pub exported: Vec<(Position, bool)>,
}

/// The campaign's error for a failed redb call on the store at `path`, while
/// `opening` it or after.
fn store_error(path: &Path, err: impl Into<redb::Error>, opening: bool) -> CampaignError {
    match Fault::of(err, opening) {
        Fault::Io(source) => CampaignError::Io {
            path: path.to_path_buf(),
            source,
        },
        Fault::PreviousIo => CampaignError::Store {
            path: path.to_path_buf(),
            why: "an earlier read or write failed; run again".into(),
        },
        Fault::InUse => CampaignError::refused(
            path,
            "another process has this campaign open (is a run still going?)",
        ),
        Fault::Damaged(why) => CampaignError::damaged(path, why),
    }
}

/// The open store.
pub struct Store {
    db: Database,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.path.display())
    }
}

impl Store {
    /// Opens the store of the campaign in `dir`, creating it when `create`.
    pub fn open(dir: &Path, create: bool) -> Result<Store, CampaignError> {
        let path = dir.join(STORE_FILE);
        let db = if create {
            Database::create(&path)
        } else {
            if !path.exists() {
                return Err(CampaignError::damaged(&path, "missing"));
            }
            Database::open(&path)
        };
        let db = db.map_err(|err| store_error(&path, err, true))?;
        let failed = |err: redb::Error| store_error(&path, err, true);
        let tx = db.begin_write().map_err(|e| failed(e.into()))?;
        tx.open_table(SOLVED).map_err(|e| failed(e.into()))?;
        tx.open_table(GIVEN).map_err(|e| failed(e.into()))?;
        tx.open_table(INNER).map_err(|e| failed(e.into()))?;
        tx.commit().map_err(|e| failed(e.into()))?;
        let parts = dir.join(PARTS_DIR);
        std::fs::create_dir_all(&parts).map_err(CampaignError::io(&parts))?;
        Ok(Store { db, path })
    }

    fn failed(&self, err: impl Into<redb::Error>) -> CampaignError {
        store_error(&self.path, err, false)
    }

    /// Whether the side to move wins the stored position, if it is stored.
    pub fn get(&self, key: &Key) -> Result<Option<bool>, CampaignError> {
        let tx = self.db.begin_read().map_err(|e| self.failed(e))?;
        let table = tx.open_table(SOLVED).map_err(|e| self.failed(e))?;
        let found = table.get(&key_bytes(key)[..]).map_err(|e| self.failed(e))?;
        Ok(found.map(|value| value.value() != 0))
    }

    /// The keys the part of a stored position takes as given (none for a plain
    /// part, or a position not stored).
    pub fn given(&self, key: &Key) -> Result<Vec<Key>, CampaignError> {
        let tx = self.db.begin_read().map_err(|e| self.failed(e))?;
        let table = tx.open_table(GIVEN).map_err(|e| self.failed(e))?;
        let Some(found) = table.get(&key_bytes(key)[..]).map_err(|e| self.failed(e))? else {
            return Ok(Vec::new());
        };
        let bytes = found.value();
        let keys: Option<Vec<Key>> = bytes.chunks(17).map(key_from_bytes).collect();
        match keys {
            Some(keys) if bytes.len() % 17 == 0 => Ok(keys),
            _ => Err(CampaignError::damaged(
                &self.path,
                format!(
                    "a damaged list of given positions at {}",
                    part_path(key).display()
                ),
            )),
        }
    }

    /// For a position stored as proven inside another's part, where it is (`None`
    /// for a position stored with a part of its own, or not stored).
    pub fn inner(&self, key: &Key) -> Result<Option<Inner>, CampaignError> {
        let tx = self.db.begin_read().map_err(|e| self.failed(e))?;
        let table = tx.open_table(INNER).map_err(|e| self.failed(e))?;
        let Some(found) = table.get(&key_bytes(key)[..]).map_err(|e| self.failed(e))? else {
            return Ok(None);
        };
        let bytes = found.value();
        let decoded = (bytes.len() == 34)
            .then(|| Some((key_from_bytes(&bytes[..17])?, key_from_bytes(&bytes[17..])?)))
            .flatten();
        let Some((part, exact)) = decoded else {
            return Err(CampaignError::damaged(
                &self.path,
                "a damaged record of a position proven inside a part",
            ));
        };
        Ok(Some(Inner {
            part,
            white: exact.white,
            black: exact.black,
            black_to_move: exact.black_to_move,
        }))
    }

    /// Every stored position, with whether the side to move wins.
    pub fn all(&self) -> Result<Vec<(Key, bool)>, CampaignError> {
        let tx = self.db.begin_read().map_err(|e| self.failed(e))?;
        let table = tx.open_table(SOLVED).map_err(|e| self.failed(e))?;
        let mut all = Vec::new();
        for entry in table.iter().map_err(|e| self.failed(e))? {
            let (key, wins) = entry.map_err(|e| self.failed(e))?;
            let key = key_from_bytes(key.value())
                .ok_or_else(|| CampaignError::damaged(&self.path, "a record with a damaged key"))?;
            all.push((key, wins.value() != 0));
        }
        Ok(all)
    }

    /// Commits a batch, durably, and empties it: writes each part into `dir` (in
    /// parallel, each synced), syncs the parts' directory, then records every
    /// position in one transaction, so that a record always has its part; then the
    /// positions the parts export that were not stored yet. Returns the positions
    /// committed, with whether the side to move wins, and of those the exported
    /// ones as positions.
    pub fn commit(&self, dir: &Path, batch: &mut Batch) -> Result<Committed, CampaignError> {
        if batch.is_empty() {
            return Ok(Committed::default());
        }
        let parts: Vec<(PathBuf, &[u8])> = batch
            .waiting
            .iter()
            .map(|(key, (_, part))| (dir.join(part_path(key)), part.bytes.as_slice()))
            .collect();
        parts
            .par_iter()
            .try_for_each(|(path, part)| write_synced(path, part))?;
        sync_parent(&parts[0].0)?;
        let mut committed = Committed::default();
        let tx = self.db.begin_write().map_err(|e| self.failed(e))?;
        {
            let mut table = tx.open_table(SOLVED).map_err(|e| self.failed(e))?;
            let mut given_table = tx.open_table(GIVEN).map_err(|e| self.failed(e))?;
            let mut inner_table = tx.open_table(INNER).map_err(|e| self.failed(e))?;
            for (key, (wins, part)) in &batch.waiting {
                table
                    .insert(&key_bytes(key)[..], u8::from(*wins))
                    .map_err(|e| self.failed(e))?;
                if !part.given.is_empty() {
                    let bytes: Vec<u8> = part.given.iter().flat_map(key_bytes).collect();
                    given_table
                        .insert(&key_bytes(key)[..], &bytes[..])
                        .map_err(|e| self.failed(e))?;
                }
                committed.solved.push((*key, *wins));
            }
            // Then the exports: each position once, the first part that proves it.
            for (key, (wins, part)) in &batch.waiting {
                // The part's winner wins each: the side to move at the part's root if
                // that wins, else the other.
                let winner_black = key.black_to_move == *wins;
                for position in &part.exported {
                    let inner_key = Key::of(position);
                    let stored = table
                        .get(&key_bytes(&inner_key)[..])
                        .map_err(|e| self.failed(e))?
                        .is_some();
                    if stored {
                        continue;
                    }
                    let inner_wins = inner_key.black_to_move == winner_black;
                    table
                        .insert(&key_bytes(&inner_key)[..], u8::from(inner_wins))
                        .map_err(|e| self.failed(e))?;
                    let mut bytes = [0u8; 34];
                    bytes[..17].copy_from_slice(&key_bytes(key));
                    bytes[17..].copy_from_slice(&exact_bytes(position));
                    inner_table
                        .insert(&key_bytes(&inner_key)[..], &bytes[..])
                        .map_err(|e| self.failed(e))?;
                    committed.solved.push((inner_key, inner_wins));
                    committed.exported.push((*position, inner_wins));
                }
            }
        }
        tx.commit().map_err(|e| self.failed(e))?;
        *batch = Batch::default();
        Ok(committed)
    }

    /// Positions stored.
    pub fn len(&self) -> Result<u64, CampaignError> {
        let tx = self.db.begin_read().map_err(|e| self.failed(e))?;
        let table = tx.open_table(SOLVED).map_err(|e| self.failed(e))?;
        table.len().map_err(|e| self.failed(e))
    }

    pub fn is_empty(&self) -> Result<bool, CampaignError> {
        Ok(self.len()? == 0)
    }
}
