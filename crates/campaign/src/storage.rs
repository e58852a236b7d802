//! What a failed call to redb (the embedded database of the campaign's store and
//! the explorer's) means for the person running the program: a disk that failed is
//! not a damaged file, and neither is a file another process holds. Each program
//! words the [`Fault`] its own way.

/// A failed redb call, sorted by what the user can do about it.
#[derive(Debug)]
pub enum Fault {
    /// The disk failed (full, gone, permissions): what the file holds is intact.
    Io(std::io::Error),
    /// An earlier read or write failed: the database must be opened again.
    PreviousIo,
    /// Another process has the database open.
    InUse,
    /// The file is not a database, or one redb finds damaged.
    Damaged(String),
}

impl Fault {
    /// The fault of `err`, from opening a database (`opening`) or using an open one.
    /// A file too short for redb's header, or not a database at all, reads as an
    /// I/O error while opening: it is a damaged file, not a failed disk.
    pub fn of(err: impl Into<redb::Error>, opening: bool) -> Fault {
        match err.into() {
            redb::Error::Io(err)
                if opening
                    && matches!(
                        err.kind(),
                        std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidData
                    ) =>
            {
                Fault::Damaged(format!("not a database: {err}"))
            }
            redb::Error::Io(err) => Fault::Io(err),
            redb::Error::PreviousIo => Fault::PreviousIo,
            redb::Error::DatabaseAlreadyOpen => Fault::InUse,
            err => Fault::Damaged(err.to_string()),
        }
    }

    /// What to do about a failed disk.
    pub fn io_hint(err: &std::io::Error) -> &'static str {
        if err.kind() == std::io::ErrorKind::StorageFull {
            "the disk is full: free some space, then try again"
        } else {
            "fix the disk or its permissions, then try again"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_not_a_damaged_file() {
        let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
        let fault = Fault::of(redb::StorageError::Io(full), false);
        let Fault::Io(err) = fault else {
            panic!("{fault:?}")
        };
        assert!(Fault::io_hint(&err).contains("the disk is full"));
        let short = std::io::Error::from(std::io::ErrorKind::UnexpectedEof);
        let fault = Fault::of(redb::StorageError::Io(short), true);
        assert!(matches!(fault, Fault::Damaged(_)), "{fault:?}");
        let corrupted = redb::StorageError::Corrupted("bad page".into());
        assert!(matches!(Fault::of(corrupted, false), Fault::Damaged(_)));
        let held = redb::DatabaseError::DatabaseAlreadyOpen;
        assert!(matches!(Fault::of(held, true), Fault::InUse));
    }
}
