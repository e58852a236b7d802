//! The store of answers: `DIR/explorer.redb`, an embedded ACID database (redb) of
//! positions with their winner and their length under perfect play. Every entry
//! comes from a completed solve, so an answer read from it is never a guess; a
//! position and its mirror image share an entry.

use std::path::{Path, PathBuf};

use breakthrough_engine::{Color, Position};
use breakthrough_solver::Key;
use redb::{Database, ReadableDatabase, ReadableTableMetadata, TableDefinition};

/// The store's file in its directory.
pub const STORE_FILE: &str = "explorer.redb";

/// Position (board, armies, side to move) -> winner and length.
const ANSWERS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("answers-v1");

/// What the store knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    pub winner: Color,
    /// Plies to the end of the game under perfect play.
    pub length: u32,
}

/// Why the store failed, with its file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the store {path} cannot be used: {why}")]
    Unusable { path: PathBuf, why: String },
    #[error("the store {path} is damaged ({why}); move it away to start an empty one")]
    Damaged { path: PathBuf, why: String },
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
    /// Opens the store in `dir`, creating the directory and an empty store when
    /// there is none; a file redb cannot read is refused as damaged.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let path = dir.join(STORE_FILE);
        let unusable = |why: String| StoreError::Unusable {
            path: path.clone(),
            why,
        };
        std::fs::create_dir_all(dir).map_err(|err| unusable(err.to_string()))?;
        let db = match Database::create(&path) {
            Ok(db) => db,
            Err(redb::DatabaseError::DatabaseAlreadyOpen) => {
                return Err(unusable(
                    "another process has it open (is another server running?)".into(),
                ))
            }
            Err(redb::DatabaseError::Storage(redb::StorageError::Io(err))) => {
                return Err(unusable(err.to_string()))
            }
            Err(err) => {
                return Err(StoreError::Damaged {
                    path,
                    why: err.to_string(),
                })
            }
        };
        let store = Store { db, path };
        let tx = store.db.begin_write().map_err(|e| store.damaged(&e))?;
        tx.open_table(ANSWERS).map_err(|e| store.damaged(&e))?;
        tx.commit().map_err(|e| store.damaged(&e))?;
        // Read every entry once: a damaged value is refused now, not mid-request.
        store.check()?;
        Ok(store)
    }

    fn damaged(&self, why: &dyn std::fmt::Display) -> StoreError {
        StoreError::Damaged {
            path: self.path.clone(),
            why: why.to_string(),
        }
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses a store whose entries do not all decode.
    fn check(&self) -> Result<(), StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.damaged(&e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.damaged(&e))?;
        for entry in redb::ReadableTable::iter(&table).map_err(|e| self.damaged(&e))? {
            let (key, value) = entry.map_err(|e| self.damaged(&e))?;
            if key.value().len() != KEY_BYTES || decode(value.value()).is_none() {
                return Err(self.damaged(&"an entry that is not a position's answer"));
            }
        }
        Ok(())
    }

    /// The number of positions stored.
    pub fn len(&self) -> Result<u64, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.damaged(&e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.damaged(&e))?;
        table.len().map_err(|e| self.damaged(&e))
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }

    /// What the store knows of each position, in one read.
    pub fn get_all(&self, positions: &[Position]) -> Result<Vec<Option<Known>>, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.damaged(&e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.damaged(&e))?;
        positions
            .iter()
            .map(|position| {
                let found = table
                    .get(&key_bytes(position)[..])
                    .map_err(|e| self.damaged(&e))?;
                match found {
                    None => Ok(None),
                    Some(value) => decode(value.value())
                        .map(Some)
                        .ok_or_else(|| self.damaged(&"an entry that is not a position's answer")),
                }
            })
            .collect()
    }

    /// Stores the answers of one solve in one durable transaction.
    pub fn put_all(&self, answers: &[(Position, Known)]) -> Result<(), StoreError> {
        let tx = self.db.begin_write().map_err(|e| self.damaged(&e))?;
        {
            let mut table = tx.open_table(ANSWERS).map_err(|e| self.damaged(&e))?;
            for (position, known) in answers {
                table
                    .insert(&key_bytes(position)[..], &encode(*known)[..])
                    .map_err(|e| self.damaged(&e))?;
            }
        }
        tx.commit().map_err(|e| self.damaged(&e))
    }
}

const KEY_BYTES: usize = 19;

/// A position's key: the board's columns and rows, then the armies of it or of its
/// mirror image (whichever [`Key::of`] keeps) and the side to move.
fn key_bytes(position: &Position) -> [u8; KEY_BYTES] {
    let key = Key::of(position);
    let board = position.board();
    let mut bytes = [0u8; KEY_BYTES];
    bytes[0] = board.width() as u8;
    bytes[1] = board.height() as u8;
    bytes[2..10].copy_from_slice(&key.white.to_le_bytes());
    bytes[10..18].copy_from_slice(&key.black.to_le_bytes());
    bytes[18] = u8::from(key.black_to_move);
    bytes
}

/// An answer's 5 bytes: the winner (0 White, 1 Black) and the length, little-endian.
fn encode(known: Known) -> [u8; 5] {
    let mut bytes = [0u8; 5];
    bytes[0] = match known.winner {
        Color::White => 0,
        Color::Black => 1,
    };
    bytes[1..].copy_from_slice(&known.length.to_le_bytes());
    bytes
}

fn decode(bytes: &[u8]) -> Option<Known> {
    let bytes: &[u8; 5] = bytes.try_into().ok()?;
    let winner = match bytes[0] {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    Some(Known {
        winner,
        length: u32::from_le_bytes(bytes[1..].try_into().ok()?),
    })
}
