//! What one certificate file proves: each part checked, and the rules that tie the
//! parts together (an exact length's pair; the top of a campaign's proof is no proof
//! on its own).

use crate::claim::Claim;
use crate::format::{read_parts, FormatError};
use crate::verify::{VerifyError, VerifyReport};

/// What a certificate file proves: a report per part, and for a length certificate
/// the exact length its parts prove together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    pub reports: Vec<VerifyReport>,
    pub length: Option<u32>,
}

/// Why a certificate file proves nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("part {part} of {parts}: {error}")]
    Part {
        part: usize,
        parts: usize,
        error: VerifyError,
    },
    #[error(
        "this is the top of a campaign's proof: it holds only given the {0} positions \
         that its parts prove; verify the campaign's directory instead"
    )]
    TopAlone(usize),
    #[error(transparent)]
    Length(VerifyError),
}

/// Reads and verifies every part of a certificate file's bytes; for a length
/// certificate, also the length its parts prove together (see [`verify_length`]).
/// A top of a campaign's proof ([`Claim::WinsGiven`]) is refused: it holds only with
/// its parts, which [`verify_directory`](crate::verify_directory) checks.
pub fn verify_file(bytes: &[u8]) -> Result<FileReport, FileError> {
    let parts = read_parts(bytes)?;
    let reports = parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            part.verify().map_err(|error| FileError::Part {
                part: i + 1,
                parts: parts.len(),
                error,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(top) = reports.iter().find(|r| r.claim == Claim::WinsGiven) {
        return Err(FileError::TopAlone(top.given.len()));
    }
    let length = match parts.first().map(|part| part.claim()) {
        Some(Claim::Wins) if parts.len() == 1 => None,
        _ => Some(verify_length(&reports).map_err(FileError::Length)?),
    };
    Ok(FileReport { reports, length })
}

/// The exact length that a file's parts prove together (see
/// [`Certificate::verify`](crate::Certificate::verify) for each part): "the winner
/// wins within `L` plies" and "the loser holds out `L - 1` plies", about the same
/// root and opposite sides; for a finished game, `L = 0` and the first part alone.
pub fn verify_length(parts: &[VerifyReport]) -> Result<u32, VerifyError> {
    let not = |why: String| Err(VerifyError::NotALength(why));
    let Some(first) = parts.first() else {
        return not("the file has no parts".into());
    };
    let Claim::WinsWithin(length) = first.claim else {
        return not(format!(
            "the first part claims {:?}, not a win within a bound",
            first.claim
        ));
    };
    match parts {
        [_] if length == 0 => Ok(0),
        [_] => not("the part that holds out is missing".into()),
        [_, second] => {
            if second.root != first.root {
                return not("the parts are about different positions".into());
            }
            if second.winner != first.winner.opponent() {
                return not("both parts are about the same side".into());
            }
            if second.claim != Claim::HoldsOut(length.saturating_sub(1)) || length == 0 {
                return not(format!(
                    "a win within {length} plies needs the other side to hold out {} plies, \
                     the second part claims {:?}",
                    length.saturating_sub(1),
                    second.claim
                ));
            }
            Ok(length)
        }
        _ => not(format!("{} parts, at most 2 expected", parts.len())),
    }
}
