//! What the workspace's tests share (a dev-dependency only): running a program as a
//! user does and reading what it printed, scratch directories, and a small campaign
//! solved to its end.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use breakthrough_campaign::{Campaign, RunOptions, RunOutcome, Spec};
use breakthrough_engine::Position;

/// Runs `program` with `args` to its end.
pub fn run(program: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|err| panic!("{} does not run: {err}", program.display()))
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Bad input to `program`: exit code 2, nothing on stdout and exactly one line on
/// stderr, no panic, that mentions `words`.
pub fn assert_input_error(program: &Path, args: &[&str], words: &str) {
    let output = run(program, args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        err.contains(words),
        "{args:?}: `{err}` should mention {words}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(stdout(&output).is_empty(), "{args:?}: printed on stdout");
}

/// The program `name` built beside `program` (the same build's other binary).
pub fn beside(program: &Path, name: &str) -> PathBuf {
    let other = program.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        other.is_file(),
        "{} is missing: run `cargo test --workspace`, or build it first",
        other.display()
    );
    other
}

/// A path for `suite`'s test `name` in the temporary directory, fresh (whatever a
/// previous run left there is removed) and not yet made: a campaign, say, makes
/// its own directory. Each process has its own, so test runs do not meet.
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "breakthrough-{suite}-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// [`scratch`], made (empty).
pub fn scratch_dir(suite: &str, name: &str) -> PathBuf {
    let dir = scratch(suite, name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch directory removed when dropped.
#[derive(Debug)]
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(suite: &str, name: &str) -> Scratch {
        Scratch(scratch(suite, name))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// 4x5's campaign in `dir`, run to its end on two threads with small jobs, so that
/// its certificate is in many parts that take others as given.
pub fn solved_campaign_4x5(dir: &Path) {
    let start = Position::start("4x5".parse().unwrap());
    let mut campaign = Campaign::open(dir, &Spec::new(&start, true, 5, 4, 300)).unwrap();
    let options = RunOptions {
        threads: 2,
        table_mb: 16,
        ..RunOptions::default()
    };
    let outcome = campaign.run(&options, &mut |_| {}).unwrap();
    assert!(matches!(outcome, RunOutcome::Solved(_)), "{outcome:?}");
}
