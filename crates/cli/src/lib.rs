//! What the `breakthrough` command and the maintainers' `breakthrough-lab` share:
//! output on stdout, the machine's resources, reading a results directory, and the
//! SVG plot of a search's course.
//!
//! ```
//! assert_eq!(breakthrough_cli::text::thousands(1_105_920), "1,105,920");
//! ```

#![forbid(unsafe_code)]

/// `println!` for results: a closed stdout (as in `| head`) ends the program quietly
/// instead of panicking.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for results; see [`outln`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

pub mod output;
pub mod progress;
pub use breakthrough_result::directory as results;
pub mod search;
pub mod solve_result;
pub mod svg;
pub mod system;
pub mod text;
pub mod verification;

/// An error in what the user gave (exit code 2), as opposed to a failure (exit 1).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct InputError(#[from] pub anyhow::Error);

/// How a command's end becomes the program's: its exit code, or for an error one
/// line on stderr (the chain of causes joined, never a panic or a backtrace) and
/// exit code 2 for bad input, 1 for a failure.
pub fn exit_code(result: anyhow::Result<std::process::ExitCode>) -> std::process::ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<InputError>().is_some() {
                std::process::ExitCode::from(2)
            } else {
                std::process::ExitCode::from(1)
            }
        }
    }
}

/// A campaign's error as the command line reports it: bad input exits 2.
pub fn campaign_error(err: breakthrough_campaign::CampaignError) -> anyhow::Error {
    if err.is_input() {
        InputError(anyhow::Error::new(err)).into()
    } else {
        anyhow::Error::new(err)
    }
}

/// The directory a file at `path` would be written in, when it does not exist:
/// a long search checks it before it starts, not when its result is ready.
pub fn missing_directory(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    (!dir.is_dir()).then(|| dir.to_path_buf())
}

/// Writes `bytes` to `path` through a temporary file beside it, so that the file is
/// either the old one or the whole new one, never half written.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
