//! `scripts/length.sh` keeps what a run found: its answers when the run failed after
//! them (a failed certificate, say) or was killed with the script, nothing when the
//! solve itself did not finish.
//! The script runs in a copy of the repository's layout, with BREAKTHROUGH naming
//! a stand-in for the program that writes a given JSON and exits with a given code.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory holding `scripts/length.sh` and an empty `results/`.
fn layout(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bt-length-script-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::create_dir_all(dir.join("results")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/length.sh");
    std::fs::copy(script, dir.join("scripts/length.sh")).unwrap();
    dir
}

/// Runs the script on 4x4 with a stand-in program that writes `json` to its
/// `--out` file and exits with `code`: the script's exit code and what it kept.
fn run_with(dir: &Path, json: &str, code: i32) -> (Option<i32>, Option<String>) {
    let program = dir.join("stand-in");
    std::fs::write(dir.join("answer.json"), json).unwrap();
    let text = format!(
        "#!/usr/bin/env bash\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --out ]; then cp '{}' \"$2\"; fi\n  shift\ndone\nexit {code}\n",
        dir.join("answer.json").display()
    );
    std::fs::write(&program, text).unwrap();
    let status = Command::new("chmod")
        .arg("+x")
        .arg(&program)
        .status()
        .unwrap();
    assert!(status.success());
    let output = Command::new("bash")
        .arg(dir.join("scripts/length.sh"))
        .args(["4x4", "60"])
        .env("BREAKTHROUGH", &program)
        .output()
        .unwrap();
    let kept = std::fs::read_to_string(dir.join("results/4x4-length.json")).ok();
    assert!(!dir.join("results/4x4-length.json.tmp").exists());
    (output.status.code(), kept)
}

const FOUND: &str = "{\n  \"winner\": \"black\",\n  \"length\": 14,\n  \"proof\": null\n}\n";
const UNSOLVED: &str = "{\n  \"winner\": null,\n  \"length\": null\n}\n";

#[test]
fn a_run_failed_after_its_answers_keeps_them() {
    let dir = layout("failed");
    let (code, kept) = run_with(&dir, FOUND, 1);
    assert_eq!(code, Some(1));
    assert_eq!(kept.as_deref(), Some(FOUND));
    // The next run finds the length recorded and asks nothing.
    let (code, kept) = run_with(&dir, UNSOLVED, 1);
    assert_eq!(code, Some(0));
    assert_eq!(kept.as_deref(), Some(FOUND));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_without_a_winner_keeps_nothing() {
    for code in [1, 3] {
        let dir = layout(&format!("unsolved-{code}"));
        let (exit, kept) = run_with(&dir, UNSOLVED, code);
        assert_eq!(exit, Some(code));
        assert_eq!(kept, None);
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn a_run_killed_with_the_script_is_kept_by_the_next() {
    let dir = layout("killed");
    // What a solve killed while writing its proof leaves, the script killed too.
    let left = FOUND.replace(
        "null\n}",
        "null,\n  \"stopped_by\": \"proof_unfinished\"\n}",
    );
    std::fs::write(dir.join("results/4x4-length.json.tmp"), &left).unwrap();
    let (code, kept) = run_with(&dir, UNSOLVED, 1);
    assert_eq!(code, Some(0));
    assert_eq!(kept.as_deref(), Some(left.as_str()));
    // A file left without a winner is not taken: the run goes on without it.
    std::fs::remove_file(dir.join("results/4x4-length.json")).unwrap();
    std::fs::write(dir.join("results/4x4-length.json.tmp"), UNSOLVED).unwrap();
    let (code, kept) = run_with(&dir, FOUND, 0);
    assert_eq!(code, Some(0));
    assert_eq!(kept.as_deref(), Some(FOUND));
    std::fs::remove_dir_all(&dir).ok();
}
