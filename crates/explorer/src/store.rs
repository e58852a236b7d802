//! The store of answers: `DIR/explorer.redb`, an embedded ACID database (redb) of
//! positions with their winner and their length under perfect play. Every entry
//! comes from a completed solve, so an answer read from it is never a guess; a
//! position and its mirror image share an entry.

use std::path::{Path, PathBuf};

use breakthrough_campaign::storage::Fault;
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
    #[error(
        "cannot read or write the store {path}: {why}; what it holds is intact (each solve \
         is stored in one transaction): {hint}"
    )]
    Io {
        path: PathBuf,
        why: String,
        hint: &'static str,
    },
}

impl StoreError {
    /// The failure without the store's path, for a client: the path is the
    /// operator's business.
    pub fn public_message(&self) -> String {
        match self {
            StoreError::Unusable { why, .. } => format!("the store cannot be used: {why}"),
            StoreError::Damaged { why, .. } => {
                format!("the store is damaged ({why}); the server's operator must replace it")
            }
            StoreError::Io { why, .. } => format!("the store cannot be read or written: {why}"),
        }
    }
}

/// The error for `err` on the store at `path`, while `opening` it or after.
fn storage_error(path: &Path, err: impl Into<redb::Error>, opening: bool) -> StoreError {
    let path = path.to_path_buf();
    match Fault::of(err, opening) {
        Fault::Io(err) => StoreError::Io {
            path,
            hint: Fault::io_hint(&err),
            why: err.to_string(),
        },
        Fault::PreviousIo => StoreError::Io {
            path,
            why: "an earlier read or write failed".into(),
            hint: "start the server again",
        },
        Fault::InUse => StoreError::Unusable {
            path,
            why: "another process has it open (is another server running?)".into(),
        },
        Fault::Damaged(why) if opening => {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            StoreError::Damaged {
                path,
                why: format!("{why}; the file is {bytes} bytes"),
            }
        }
        Fault::Damaged(why) => StoreError::Damaged { path, why },
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
    /// Opens the store in `dir`, creating the directory and an empty store when
    /// there is none; a file redb cannot read is refused as damaged, and a store
    /// that is not a regular file (a symbolic link, say) is refused.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let path = dir.join(STORE_FILE);
        let unusable = |why: String| StoreError::Unusable {
            path: path.clone(),
            why,
        };
        if let Err(err) = std::fs::create_dir_all(dir) {
            return Err(if dir.exists() && !dir.is_dir() {
                unusable(format!(
                    "{} is not a directory: give --store a directory (it is created when \
                     missing)",
                    dir.display()
                ))
            } else {
                unusable(format!("cannot create {}: {err}", dir.display()))
            });
        }
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(unusable(
                    "it is a symbolic link; the store must be a regular file in its directory"
                        .into(),
                ))
            }
            Ok(meta) if !meta.is_file() => return Err(unusable("it is not a regular file".into())),
            _ => {}
        }
        let db = Database::create(&path).map_err(|err| storage_error(&path, err, true))?;
        let store = Store { db, path };
        let tx = store.db.begin_write().map_err(|e| store.error(e))?;
        tx.open_table(ANSWERS).map_err(|e| store.error(e))?;
        tx.commit().map_err(|e| store.error(e))?;
        // Read every entry once: a damaged value is refused now, not mid-request.
        store.check()?;
        Ok(store)
    }

    fn error(&self, err: impl Into<redb::Error>) -> StoreError {
        storage_error(&self.path, err, false)
    }

    fn damaged(&self, why: &dyn std::fmt::Display) -> StoreError {
        StoreError::Damaged {
            path: self.path.clone(),
            why: why.to_string(),
        }
    }

    /// The error for answers of `position` that contradict each other.
    pub(crate) fn inconsistent(&self, position: &Position, why: String) -> StoreError {
        let error = self.damaged(&format!(
            "it holds answers that contradict each other at {position}: {why}"
        ));
        eprintln!("breakthrough serve: {error}");
        error
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses a store whose entries do not all decode.
    fn check(&self) -> Result<(), StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.error(e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.error(e))?;
        for entry in redb::ReadableTable::iter(&table).map_err(|e| self.error(e))? {
            let (key, value) = entry.map_err(|e| self.error(e))?;
            let key = key.value();
            let Some(known) = decode(value.value()).filter(|_| key.len() == KEY_BYTES) else {
                return Err(self.damaged(&"an entry that is not a position's answer"));
            };
            // The side that wins makes the last move: the side to move wins in an
            // odd number of plies (0 plies only for a finished game, which the side
            // to move has lost).
            let mover_wins = (known.winner == Color::Black) == (key[KEY_BYTES - 1] == 1);
            if mover_wins != (known.length % 2 == 1) {
                return Err(self.damaged(&format!(
                    "an entry whose length {} cannot be its winner's",
                    known.length
                )));
            }
        }
        Ok(())
    }

    /// The number of positions stored.
    pub fn len(&self) -> Result<u64, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.error(e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.error(e))?;
        table.len().map_err(|e| self.error(e))
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }

    /// What the store knows of each position, in one read.
    pub fn get_all(&self, positions: &[Position]) -> Result<Vec<Option<Known>>, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.error(e))?;
        let table = tx.open_table(ANSWERS).map_err(|e| self.error(e))?;
        positions
            .iter()
            .map(|position| {
                let found = table
                    .get(&key_bytes(position)[..])
                    .map_err(|e| self.error(e))?;
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
        let tx = self.db.begin_write().map_err(|e| self.error(e))?;
        {
            let mut table = tx.open_table(ANSWERS).map_err(|e| self.error(e))?;
            for (position, known) in answers {
                table
                    .insert(&key_bytes(position)[..], &encode(*known)[..])
                    .map_err(|e| self.error(e))?;
            }
        }
        tx.commit().map_err(|e| self.error(e))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_not_a_damaged_store() {
        let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
        let err = storage_error(
            Path::new("s/explorer.redb"),
            redb::StorageError::Io(full),
            false,
        );
        let message = err.to_string();
        assert!(matches!(err, StoreError::Io { .. }), "{message}");
        assert!(message.contains("the disk is full"), "{message}");
        assert!(!message.contains("damaged"), "{message}");
        let corrupted = redb::StorageError::Corrupted("bad page".into());
        let err = storage_error(Path::new("s/explorer.redb"), corrupted, false);
        assert!(matches!(err, StoreError::Damaged { .. }), "{err}");
    }
}
