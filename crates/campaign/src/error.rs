//! What can go wrong with a campaign, split as the command line reports it: bad
//! input (a directory that is not this campaign, a damaged file) or a failure.

use std::path::{Path, PathBuf};

/// Why a campaign could not go on.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The directory holds another campaign, or something that is not one; nothing
    /// in it was changed.
    #[error("{path}: {why}")]
    Refused { path: PathBuf, why: String },
    /// A file of the campaign is damaged (checksum, truncation, format); nothing was
    /// overwritten.
    #[error("{path} is damaged: {why}")]
    Damaged { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the store {path}: {why}")]
    Store { path: PathBuf, why: String },
    /// A bug: a job proved its position but its proof could not be written.
    #[error("internal error: {0}")]
    Internal(String),
}

impl CampaignError {
    /// Whether the user's input is at fault (exit code 2), not the program.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            CampaignError::Refused { .. } | CampaignError::Damaged { .. }
        )
    }

    pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CampaignError + '_ {
        move |source| CampaignError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn damaged(path: &Path, why: impl Into<String>) -> CampaignError {
        CampaignError::Damaged {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    pub(crate) fn refused(path: &Path, why: impl Into<String>) -> CampaignError {
        CampaignError::Refused {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }
}

/// Writes `bytes` to `path` crash-safely: a temporary file beside it, synced, renamed
/// over it, and the directory synced, so the file is the old one or the new one.
pub(crate) fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), CampaignError> {
    write_synced(path, bytes)?;
    sync_parent(path)
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over
/// `path`; the rename is durable once the directory is synced ([`sync_parent`]).
pub(crate) fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), CampaignError> {
    use std::io::Write;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp).map_err(CampaignError::io(&tmp))?;
    file.write_all(bytes).map_err(CampaignError::io(&tmp))?;
    file.sync_all().map_err(CampaignError::io(&tmp))?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(CampaignError::io(path))
}

/// Syncs the directory that holds `path`.
pub(crate) fn sync_parent(path: &Path) -> Result<(), CampaignError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(CampaignError::io(dir))
}
