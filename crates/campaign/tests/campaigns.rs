//! Campaigns against the reference solver, damaged files and tampered certificates
//! (crashes and restarts are tested inside the crate, `src/run/tests.rs`).

use std::path::{Path, PathBuf};

use breakthrough_campaign::top::{write_top, TopNode};
use breakthrough_campaign::{
    Campaign, CampaignError, Figures, RunOptions, RunOutcome, Spec, DEFAULT_EXPORT_MIN,
};
use breakthrough_engine::{Board, Color, Position};
use breakthrough_proof::{verify_directory, Certificate, Identity};
use breakthrough_solver::{solve, Algorithm, Limits, SolveOptions};

/// A fresh directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("campaigns")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn spec(position: &Position, job_nodes: u64) -> Spec {
    Spec::new(position, true, 5, 4, job_nodes)
}

fn options(threads: usize) -> RunOptions {
    RunOptions {
        threads,
        table_mb: 16,
        ..RunOptions::default()
    }
}

/// The reference solver's winner, if it finds one within `max_nodes`.
fn reference(position: &Position, max_nodes: u64) -> Option<Color> {
    let options = SolveOptions {
        algorithm: Algorithm::Reference,
        table_mb: 16,
        limits: Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    solve(position, &options, &mut |_| {}).winner
}

/// Runs a campaign to the end in one run; returns the winner and the run's figures.
fn run_to_end(dir: &Path, position: &Position, job_nodes: u64, threads: usize) -> (Color, Figures) {
    run_with(dir, position, job_nodes, &options(threads))
}

/// [`run_to_end`] with these options.
fn run_with(
    dir: &Path,
    position: &Position,
    job_nodes: u64,
    options: &RunOptions,
) -> (Color, Figures) {
    let mut campaign = Campaign::open(dir, &spec(position, job_nodes)).expect("opens");
    let mut last = None;
    let outcome = campaign
        .run(options, &mut |f| last = Some(f.clone()))
        .expect("runs");
    let RunOutcome::Solved(settled) = outcome else {
        panic!("{position}: not solved: {outcome:?}");
    };
    (settled.winner, last.expect("figures"))
}

fn check_certificate(dir: &Path, winner: Color) {
    let report = verify_directory(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    assert_eq!(report.winner, winner);
}

#[test]
fn start_positions_agree_with_the_reference() {
    for board in [
        "2x4", "3x4", "4x4", "5x4", "2x5", "3x5", "4x5", "2x6", "3x6",
    ] {
        let board: Board = board.parse().unwrap();
        let start = Position::start(board);
        let dir = scratch(&format!("start-{board}"));
        // Small jobs, so that the master's DAG does the work, not one job.
        let (winner, _) = run_to_end(&dir, &start, 300, 2);
        assert_eq!(Some(winner), reference(&start, u64::MAX), "{board}");
        check_certificate(&dir, winner);
    }
}

#[test]
fn random_positions_agree_with_the_reference() {
    let mut rng = fastrand::Rng::with_seed(14);
    let mut checked = 0;
    for (board, plies, wanted) in [("5x5", 12, 100), ("4x6", 12, 100), ("6x5", 14, 100)] {
        let board: Board = board.parse().unwrap();
        let mut found = 0;
        let mut tries = 0;
        while found < wanted && tries < 20 * wanted {
            tries += 1;
            let Some(position) =
                Position::after_moves(board, plies + rng.u32(0..10), |n| rng.usize(..n))
            else {
                continue;
            };
            // Positions the reference settles quickly: the campaign must agree.
            let Some(expected) = reference(&position, 200_000) else {
                continue;
            };
            found += 1;
            let dir = scratch("random");
            let job_nodes = [100, 1000, 20_000][found % 3];
            // Parts that export many positions, some, or none (the default); one
            // thread, two jobs of one thread each, or one job of two threads.
            let threads = 1 + found % 2;
            let options = RunOptions {
                export_min: [20, 500, DEFAULT_EXPORT_MIN, 0][found % 4],
                team: if matches!(found % 6, 1 | 5) { 2 } else { 1 },
                ..options(threads)
            };
            let (winner, _) = run_with(&dir, &position, job_nodes, &options);
            assert_eq!(winner, expected, "{position}");
            check_certificate(&dir, winner);
        }
        assert!(found >= wanted / 2, "{board}: only {found} positions");
        eprintln!("{board}: {found} random positions agree");
        checked += found;
    }
    assert!(checked >= 150);
}

#[test]
fn another_campaign_is_refused_and_damage_is_reported() {
    let start = Position::start("3x5".parse().unwrap());
    let dir = scratch("refuse");
    run_to_end(&dir, &start, 300, 1);
    let listing = |dir: &Path| {
        let mut files: Vec<(PathBuf, Vec<u8>)> = walk(dir);
        files.sort();
        files
    };
    let before = listing(&dir);

    let other = Position::start("3x5".parse().unwrap()).play_step(start.steps()[0]);
    let err = Campaign::open(&dir, &spec(&other, 300)).unwrap_err();
    assert!(matches!(err, CampaignError::Refused { .. }), "{err}");
    // Other race rules or another epsilon; a job size may change between runs.
    for rules in [
        Spec::new(&start, false, 5, 4, 300),
        Spec::new(&start, true, 5, 8, 300),
    ] {
        let err = Campaign::open(&dir, &rules).unwrap_err();
        assert!(matches!(err, CampaignError::Refused { .. }), "{err}");
    }
    assert_eq!(
        listing(&dir),
        before,
        "a refused campaign changed its directory"
    );

    // A flipped byte in the checkpoint: refused, naming the file, nothing changed.
    let checkpoint = dir.join("master.ckpt");
    let mut bytes = std::fs::read(&checkpoint).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&checkpoint, &bytes).unwrap();
    let before = listing(&dir);
    let err = Campaign::open(&dir, &spec(&start, 300)).unwrap_err();
    assert!(err.is_input(), "{err}");
    assert!(err.to_string().contains("master.ckpt"), "{err}");
    assert_eq!(listing(&dir), before);
    // Truncated.
    std::fs::write(&checkpoint, &bytes[..bytes.len() - 7]).unwrap();
    let err = Campaign::open(&dir, &spec(&start, 300)).unwrap_err();
    assert!(
        err.is_input() && err.to_string().contains("master.ckpt"),
        "{err}"
    );

    // A damaged store.
    let dir = scratch("damaged-store");
    run_to_end(&dir, &start, 300, 1);
    let store = dir.join("store.redb");
    let bytes = std::fs::read(&store).unwrap();
    std::fs::write(&store, &bytes[..bytes.len() / 3]).unwrap();
    let err = Campaign::open(&dir, &spec(&start, 300)).unwrap_err();
    assert!(err.to_string().contains("store.redb"), "{err}");

    // A directory with other files in it.
    let dir = scratch("not-a-campaign");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let err = Campaign::open(&dir, &spec(&start, 300)).unwrap_err();
    assert!(matches!(err, CampaignError::Refused { .. }), "{err}");
    assert_eq!(walk(&dir).len(), 1);
}

fn walk(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            let bytes = std::fs::read(&path).unwrap();
            files.push((path, bytes));
        }
    }
    files
}

/// A campaign certificate's manifest: its text, parsed, and its parts' file names.
fn read_manifest(path: &Path) -> (String, serde_json::Value, Vec<String>) {
    let manifest = std::fs::read_to_string(path).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let parts = parsed["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (manifest, parsed, parts)
}

#[test]
fn tampered_certificates_fail() {
    let start = Position::start("4x5".parse().unwrap());
    let dir = scratch("tamper");
    let (winner, _) = run_to_end(&dir, &start, 300, 1);
    check_certificate(&dir, winner);
    let manifest_path = dir.join("certificate.json");
    let (manifest, parsed, parts) = read_manifest(&manifest_path);
    assert!(parts.len() >= 2, "{parts:?}");
    let restore = || std::fs::write(&manifest_path, &manifest).unwrap();

    // A part dropped from the manifest.
    let mut dropped = parsed.clone();
    dropped["parts"].as_array_mut().unwrap().remove(0);
    std::fs::write(&manifest_path, dropped.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("no part proves"), "{err}");
    restore();

    // The other winner claimed.
    let mut other = parsed.clone();
    other["winner"] = serde_json::json!(winner.opponent().name());
    std::fs::write(&manifest_path, other.to_string()).unwrap();
    assert!(verify_directory(&dir).is_err());
    restore();

    // Another board named than the position's.
    let mut board = parsed.clone();
    board["board"] = serde_json::json!("5x4");
    std::fs::write(&manifest_path, board.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("board 5x4"), "{err}");
    restore();

    // A part pointing outside the directory.
    let mut outside = parsed.clone();
    outside["parts"][0] = serde_json::json!("../elsewhere.cert");
    std::fs::write(&manifest_path, outside.to_string()).unwrap();
    assert!(verify_directory(&dir).is_err());
    restore();

    // A part replaced by another part (it proves another position).
    let (first, second) = (dir.join(&parts[0]), dir.join(&parts[1]));
    let kept = std::fs::read(&first).unwrap();
    std::fs::copy(&second, &first).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("no part proves"), "{err}");
    // A flipped byte in a part.
    let mut bytes = kept.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&first, &bytes).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.file.ends_with(&parts[0]), "{err}");
    std::fs::write(&first, &kept).unwrap();
    check_certificate(&dir, winner);

    // A true proof of the same armies on a taller board: not a proof of this one.
    let part = Certificate::from_bytes(&kept).unwrap();
    let root = part.root();
    let taller = Position::try_from_parts(
        "4x6".parse().unwrap(),
        root.pieces(Color::White),
        root.pieces(Color::Black),
        root.to_move(),
    )
    .unwrap();
    let options = SolveOptions {
        proof: true,
        table_mb: 16,
        ..SolveOptions::default()
    };
    let solved = solve(&taller, &options, &mut |_| {});
    let forged = solved.proof.expect("a proof").unwrap().to_bytes();
    std::fs::write(&first, &forged).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("board"), "{err}");
    std::fs::write(&first, &kept).unwrap();
    check_certificate(&dir, winner);
}

/// Parts that take earlier parts as given: a campaign's certificate lists them all,
/// and the verifier checks each part's givens as it does the top's.
#[test]
fn parts_refer_to_stored_positions() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("given-5x5");
    // Only parts' roots are given here (see `parts_prove_exported_positions`).
    let no_exports = RunOptions {
        export_min: 0,
        ..options(2)
    };
    let (winner, figures) = run_with(&dir, &start, 2000, &no_exports);
    assert_eq!(winner, Color::Black);
    let report = verify_directory(&dir).unwrap_or_else(|err| panic!("{err}"));
    assert!(report.given_parts > 0, "no part takes another as given");
    // Whether the searches also meet stored positions depends on their order
    // (tests/jobs.rs checks that they take them as proven).
    assert!(figures.run_given > 0, "{figures:?}");

    let manifest_path = dir.join("certificate.json");
    let (manifest, parsed, parts) = read_manifest(&manifest_path);
    let read =
        |name: &str| Certificate::from_bytes(&std::fs::read(dir.join(name)).unwrap()).unwrap();
    // A part that takes others as given, and one of those.
    let (taker, given) = parts
        .iter()
        .find_map(|name| {
            let given = read(name).verify().unwrap().given;
            given.first().map(|position| (name.clone(), *position))
        })
        .expect("a part with givens");
    let given_key = Identity::of(&given);
    let given_name = parts
        .iter()
        .find(|name| Identity::of(read(name).root()) == given_key)
        .expect("the given position's part is listed")
        .clone();

    // Version 3: its parts may take others as given (a version 1 reader refuses
    // it as a whole rather than misreading a part), and positions inside them.
    assert_eq!(parsed["version"], 3);

    // That part dropped from the manifest: the taker's given is unproven.
    let mut dropped = parsed.clone();
    dropped["parts"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p.as_str() != Some(given_name.as_str()));
    std::fs::write(&manifest_path, dropped.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("no part"), "{err}");
    std::fs::write(&manifest_path, &manifest).unwrap();

    // A part that takes its own position as given proves nothing: refused.
    let taker_path = dir.join(&taker);
    let kept = std::fs::read(&taker_path).unwrap();
    let root = *read(&taker).root();
    let circular = write_top(&root, winner, &mut |_| TopNode::Given).unwrap();
    std::fs::write(&taker_path, circular.to_bytes()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("its own position"), "{err}");
    std::fs::write(&taker_path, &kept).unwrap();
    check_certificate(&dir, winner);
}

/// Parts that export the positions of big proofs below their roots, which later
/// parts take as given: the manifest lists them with the parts that prove them, and
/// the verifier checks that each such part expands them.
#[test]
fn parts_prove_exported_positions() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("exports-5x5");
    let exporting = RunOptions {
        export_min: 50,
        ..options(2)
    };
    let (winner, figures) = run_with(&dir, &start, 2000, &exporting);
    assert_eq!(winner, Color::Black);
    assert!(figures.run_exported > 0, "{figures:?}");
    assert_eq!(figures.solved_again, 0);
    check_certificate(&dir, winner);

    let manifest_path = dir.join("certificate.json");
    let (manifest, parsed, parts) = read_manifest(&manifest_path);
    let exports = parsed["exports"].as_object().expect("exports").clone();
    assert!(!exports.is_empty(), "no part's inner position is given");
    let restore = || std::fs::write(&manifest_path, &manifest).unwrap();
    let (name, listed) = exports.iter().next().unwrap();
    assert!(parts.contains(name));

    // A part's exports dropped: what others take from it is unproven.
    let mut dropped = parsed.clone();
    dropped["exports"].as_object_mut().unwrap().remove(name);
    std::fs::write(&manifest_path, dropped.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("no part"), "{err}");
    restore();

    // A position the part does not expand, listed as one it proves: here, the
    // campaign's root.
    let mut forged = parsed.clone();
    forged["exports"][name]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(start.to_string()));
    std::fs::write(&manifest_path, forged.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.file.ends_with(name), "{err}");
    assert!(err.why.contains("does not prove"), "{err}");
    restore();

    // Positions listed under a file that is not a part of the manifest.
    let mut elsewhere = parsed.clone();
    elsewhere["exports"]["parts/elsewhere.cert"] = listed.clone();
    std::fs::write(&manifest_path, elsewhere.to_string()).unwrap();
    let err = verify_directory(&dir).unwrap_err();
    assert!(err.why.contains("not one of its parts"), "{err}");
    restore();
    check_certificate(&dir, winner);
}
