//! Runs that crash or stop after a given number of jobs, then go on: hooks that
//! only the crate's tests can set.

use std::path::{Path, PathBuf};

use breakthrough_engine::{Color, Position};
use breakthrough_proof::verify_directory;

use crate::checkpoint::Checkpoint;
use crate::{Campaign, Figures, RunOptions, RunOutcome, Spec};

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("breakthrough-campaign-{}", std::process::id()))
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

/// 5x5 crashed (no last checkpoint, as after `kill -9`) after a random number of jobs,
/// again and again, then continued to the end: the right answer and a certificate
/// that holds, and no stored position solved twice.
#[test]
fn crashed_and_continued_campaigns_end_right() {
    let mut rng = fastrand::Rng::with_seed(5);
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("crash-5x5");
    let mut crashes = 0;
    let mut store_hits = 0;
    loop {
        let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
        let crash = (crashes < 8).then(|| rng.u64(1..60));
        // Every other run writes no checkpoint after its start. From the third on,
        // such a run crashes only once it has stored a position, so that the runs
        // after it meet positions that the store knows and their checkpoint does
        // not, whatever the machine's speed; the other runs checkpoint every few
        // milliseconds.
        let quiet = crashes % 2 == 0;
        let every = if quiet {
            std::time::Duration::from_secs(3600)
        } else {
            std::time::Duration::from_millis(rng.u64(1..300))
        };
        let options = RunOptions {
            crash_after_jobs: crash,
            crash_after_storing: quiet && crashes >= 2,
            checkpoint_every: every,
            ..options(2)
        };
        let (outcome, last) = run_with_figures(&mut campaign, &options);
        if let Some(figures) = &last {
            assert_eq!(
                figures.solved_again, 0,
                "a stored position was solved again"
            );
            // The master meets stored positions when it loads or expands leaves,
            // the jobs inside their searches (there also those that this run
            // stored earlier: the count shows the store in use, and the check that
            // no stored position is solved again is what holds restarts to it).
            store_hits += figures.store_hits + figures.run_proven_hits;
        }
        match outcome {
            RunOutcome::Crashed => crashes += 1,
            RunOutcome::Solved(settled) => {
                assert_eq!(settled.winner, Color::Black);
                break;
            }
            RunOutcome::Stopped(end) => panic!("stopped: {end:?}"),
        }
    }
    assert_eq!(crashes, 8);
    assert!(store_hits > 0, "the restarts never used the store");
    verify_black_wins(&dir);
}

/// A run stopped by its stop flag, then continued: the store spares the work.
#[test]
fn stopped_runs_continue_from_the_checkpoint() {
    let start = Position::start("4x5".parse().unwrap());
    let dir = scratch("stop-4x5");
    let mut campaign = Campaign::open(&dir, &spec(&start, 500)).expect("opens");
    let stopping = RunOptions {
        stop_after_jobs: Some(3),
        ..options(1)
    };
    let outcome = campaign.run(&stopping, &mut |_| {}).expect("runs");
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
    drop(campaign);
    // The clean stop kept the table's costliest entries; the next run loads them.
    let warm = dir.join("table.warm");
    let saved = crate::warm::load(&dir).expect("a warm table");
    assert!(!saved.is_empty());
    let mut campaign = Campaign::open(&dir, &spec(&start, 500)).expect("opens");
    let once = RunOptions {
        crash_after_jobs: Some(0),
        ..options(1)
    };
    campaign.run(&once, &mut |_| {}).expect("runs");
    assert_eq!(campaign.warm_entries, saved.len() as u64);
    drop(campaign);
    // A damaged warm table is only a lost cache.
    let mut bytes = std::fs::read(&warm).unwrap();
    let last = bytes.len() - 9;
    bytes[last] ^= 0x40;
    std::fs::write(&warm, &bytes).unwrap();
    assert!(crate::warm::load(&dir).is_none());
    let mut campaign = Campaign::open(&dir, &spec(&start, 500)).expect("opens");
    let (winner, figures) = run_to_the_end(&mut campaign, &options(1));
    drop(campaign);
    assert!(!warm.exists(), "a solved campaign keeps no warm table");
    assert_eq!(winner, Color::Black);
    assert_eq!(figures.solved_again, 0);
    let runs = Campaign::open(&dir, &spec(&start, 500))
        .expect("opens")
        .checkpoint()
        .runs
        .len();
    assert_eq!(runs, 3);
}

/// Runs with a team (each job on two threads, the proofs written by the team's
/// writer while the team takes another job) stop cleanly, take in what their
/// jobs finished, and continue to a certificate that holds.
#[test]
fn team_runs_stop_and_continue() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("team-5x5");
    let team = |stop_after_jobs| RunOptions {
        team: 2,
        stop_after_jobs,
        ..options(2)
    };
    let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
    let outcome = campaign.run(&team(Some(30)), &mut |_| {}).expect("runs");
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
    drop(campaign);
    let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
    let (winner, figures) = run_to_the_end(&mut campaign, &team(None));
    assert_eq!(winner, Color::Black);
    assert_eq!(figures.solved_again, 0);
    assert!(figures.stored > 0);
    verify_black_wins(&dir);
}

/// A 5x5 campaign in `dir` (5,000-node jobs, two workers) stopped after `jobs`
/// jobs.
fn stopped_5x5(dir: &Path, jobs: u64) {
    let start = Position::start("5x5".parse().unwrap());
    let mut campaign = Campaign::open(dir, &spec(&start, 5_000)).expect("opens");
    let stopping = RunOptions {
        stop_after_jobs: Some(jobs),
        ..options(2)
    };
    let outcome = campaign.run(&stopping, &mut |_| {}).expect("runs");
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
}

/// Runs the 5x5 campaign in `dir` to its end: Black wins, and the certificate
/// holds. The last figures, and the campaign's unproven leaves left.
fn solve_5x5_and_verify(dir: &Path) -> (Figures, usize) {
    let start = Position::start("5x5".parse().unwrap());
    let mut campaign = Campaign::open(dir, &spec(&start, 5_000)).expect("opens");
    let (winner, figures) = run_to_the_end(&mut campaign, &options(2));
    assert_eq!(winner, Color::Black);
    let unproven = campaign.checkpoint().unproven.len();
    drop(campaign);
    let report = verify_directory(dir).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(report.winner, Color::Black);
    (figures, unproven)
}

/// One run of `campaign`: how it ended, and its last figures, if it reported any.
fn run_with_figures(
    campaign: &mut Campaign,
    options: &RunOptions,
) -> (RunOutcome, Option<Figures>) {
    let mut last = None;
    let outcome = campaign
        .run(options, &mut |f| last = Some(f.clone()))
        .expect("runs");
    (outcome, last)
}

/// Runs `campaign` until its root is solved: the winner and the last figures.
fn run_to_the_end(campaign: &mut Campaign, options: &RunOptions) -> (Color, Figures) {
    let (outcome, last) = run_with_figures(campaign, options);
    let RunOutcome::Solved(settled) = outcome else {
        panic!("not solved: {outcome:?}");
    };
    (settled.winner, last.expect("figures"))
}

/// A snapshot of a stopped campaign, restored into a new directory without its
/// store or parts: every node keeps its numbers, the solved leaves unproven, and
/// the restored campaign proves again those its root's proof needs on its way to
/// a certificate that holds.
#[test]
fn restored_snapshots_prove_their_solved_leaves_again() {
    use crate::dag::State;
    use crate::snapshot::{restore, Snapshot};
    use crate::{CampaignError, Restore};

    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("snapshot-5x5");
    stopped_5x5(&dir, 80);

    let snapshot = Snapshot::of(&dir).expect("a snapshot");
    let bytes = snapshot.to_bytes();
    let read = Snapshot::from_bytes(&bytes).expect("reads back");
    assert_eq!(read.spec, snapshot.spec);
    assert_eq!(read.checkpoint.to_bytes(), snapshot.checkpoint.to_bytes());
    let before = &snapshot.checkpoint.dag;
    let solved_leaves = before
        .nodes
        .iter()
        .filter(|n| n.state == State::Leaf && n.is_solved())
        .count() as u64;
    assert!(solved_leaves > 0, "80 jobs solved no leaf");

    // Damage is told, never misread.
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    assert!(Snapshot::from_bytes(&flipped).is_err());
    assert!(Snapshot::from_bytes(&bytes[..bytes.len() - 3]).is_err());
    assert!(Snapshot::from_bytes(b"BTSNAP\0\0").is_err());

    // Only into a new or empty directory.
    let refused = restore(snapshot.clone(), &dir).expect_err("not over a campaign");
    assert!(
        matches!(refused, CampaignError::Refused { .. }),
        "{refused}"
    );
    let restored_dir = scratch("snapshot-5x5-restored");
    // What a restore cut short left beside the directory is cleared; anything
    // else there is not touched.
    let staging = restored_dir.with_file_name("snapshot-5x5-restored.restoring");
    std::fs::create_dir_all(staging.join("parts")).unwrap();
    std::fs::write(staging.join("notes.txt"), "mine").unwrap();
    let refused = restore(snapshot.clone(), &restored_dir).expect_err("not over files");
    assert!(
        matches!(refused, CampaignError::Refused { .. }),
        "{refused}"
    );
    assert!(staging.join("notes.txt").exists() && !restored_dir.exists());
    std::fs::remove_file(staging.join("notes.txt")).unwrap();
    std::fs::write(staging.join("store.redb"), "half made").unwrap();
    let restored = restore(snapshot.clone(), &restored_dir).expect("restores");
    assert!(!staging.exists());
    assert_eq!(
        restored.restores,
        vec![Restore {
            after_runs: 1,
            reopened: 0,
            kept: solved_leaves,
        }]
    );
    assert_eq!(restored.unproven.len() as u64, solved_leaves);
    assert_eq!(restored.dag.len(), before.len());
    for (old, new) in before.nodes.iter().zip(&restored.dag.nodes) {
        assert_eq!(old.state, new.state);
        assert_eq!((old.phi, old.delta), (new.phi, new.delta));
    }

    let campaign = Campaign::open(&restored_dir, &spec(&start, 5_000)).expect("opens");
    assert_eq!(campaign.checkpoint().unproven.len() as u64, solved_leaves);
    assert_eq!(campaign.checkpoint().runs[0].team, Some(1));
    drop(campaign);
    let (last, unproven) = solve_5x5_and_verify(&restored_dir);
    assert_eq!(last.solved_again, 0);
    let runs = Checkpoint::read(&restored_dir, start.board())
        .unwrap()
        .unwrap()
        .runs;
    assert_eq!(runs.len(), 2);
    // Those the proof did not need stay unproven.
    assert_eq!(last.unproven, unproven);
}

/// A solved campaign, restored: its root stays solved, but every leaf its proof
/// takes as given is unproven, so the run queues those, proves each by a job of
/// its own and writes a certificate that holds; leaves the proof does not need
/// stay unproven. A run stopped while proving keeps the root solved.
#[test]
fn a_restored_solved_root_proves_its_givens_again() {
    use crate::certificate::unproven_given;

    let (restored_dir, restored) = solved_5x5_restored("solved-5x5");
    assert_eq!(restored.dag.root().wins(), Some(false));
    let kept = restored.unproven.len();
    let to_prove = unproven_given(&restored)
        .unwrap()
        .expect("the root is solved");
    assert!(
        to_prove > 0 && to_prove <= kept as u64,
        "{to_prove} of {kept}"
    );
    let start = Position::start("5x5".parse().unwrap());
    let mut campaign = Campaign::open(&restored_dir, &spec(&start, 5_000)).expect("opens");
    let stopping = RunOptions {
        stop_after_jobs: Some(2),
        ..options(2)
    };
    let (outcome, stopped) = run_with_figures(&mut campaign, &stopping);
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
    let stopped = stopped.expect("figures");
    assert!(stopped.run_queued > 0, "{stopped:?}");
    assert_eq!(campaign.checkpoint().dag.root().wins(), Some(false));
    // While the givens are proven the root's numbers hold still: no sample
    // between two of the same.
    let history = &campaign.checkpoint().history;
    let numbers = |s: &crate::Sample| (s.phi, s.delta);
    assert!(
        history.windows(3).all(|w| !w[1].is_solved()
            || numbers(&w[0]) != numbers(&w[1])
            || numbers(&w[1]) != numbers(&w[2])),
        "{} samples",
        history.len()
    );
    drop(campaign);
    let read = Checkpoint::read(&restored_dir, start.board())
        .unwrap()
        .unwrap();
    assert_eq!(read.dag.root().wins(), Some(false));
    // What the stopped run proved is off the list.
    let left = unproven_given(&read).unwrap().expect("the root is solved");
    assert!(left < to_prove, "{left} of {to_prove} left");

    let (last, _) = solve_5x5_and_verify(&restored_dir);
    assert!(last.run_queued > 0 && last.run_jobs > 0, "{last:?}");
    // The unproven values were right: none was opened again.
    assert_eq!(last.run_reopened, 0, "{last:?}");
    assert!(last.unproven < kept, "{} of {kept} left", last.unproven);
    let done = Checkpoint::read(&restored_dir, start.board())
        .unwrap()
        .unwrap();
    assert_eq!(unproven_given(&done).unwrap(), Some(0));
    // Nor do the progress samples come at every job while the givens are proven:
    // after the solve's own, one every PROGRESS_PERIOD at most.
    let solved: Vec<f64> = done
        .progress
        .iter()
        .filter(|p| p.root_solved())
        .map(|p| p.seconds)
        .collect();
    assert!(
        solved
            .windows(2)
            .all(|w| w[1] - w[0] >= super::PROGRESS_PERIOD),
        "{solved:?}"
    );
}

/// A 5x5 campaign solved in `name`, then restored from its snapshot into
/// `name-restored`: that directory and its checkpoint.
fn solved_5x5_restored(name: &str) -> (PathBuf, Checkpoint) {
    use crate::snapshot::{restore, Snapshot};

    let dir = scratch(name);
    solve_5x5_and_verify(&dir);
    let restored_dir = scratch(&format!("{name}-restored"));
    let snapshot = Snapshot::of(&dir).expect("a snapshot");
    let restored = restore(snapshot, &restored_dir).expect("restores");
    (restored_dir, restored)
}

/// Queued leaves too hard for a proving job's budget come back open: the DAG
/// searches them again, and the certificate still holds.
#[test]
fn queued_leaves_too_hard_for_one_job_are_searched_again() {
    let (restored_dir, _) = solved_5x5_restored("hard-5x5");
    let start = Position::start("5x5".parse().unwrap());
    let mut campaign = Campaign::open(&restored_dir, &spec(&start, 5_000)).expect("opens");
    let tight = RunOptions {
        proving_nodes: Some(1),
        ..options(2)
    };
    let (winner, figures) = run_to_the_end(&mut campaign, &tight);
    assert_eq!(winner, Color::Black);
    assert!(figures.run_reopened > 0, "{figures:?}");
    drop(campaign);
    verify_black_wins(&restored_dir);
}

/// The unproven leaves a restore keeps only steer: a snapshot whose solved leaves
/// all claim the wrong outcome, restored, still ends with the right answer and a
/// certificate that holds.
#[test]
fn unproven_leaves_that_lie_do_not_change_the_answer() {
    use crate::dag::{State, LOST, WON};
    use crate::snapshot::{restore, Snapshot};

    let dir = scratch("lying-5x5");
    stopped_5x5(&dir, 120);

    let mut snapshot = Snapshot::of(&dir).expect("a snapshot");
    let dag = &mut snapshot.checkpoint.dag;
    let mut flipped = 0;
    for node in &mut dag.nodes {
        if node.state == State::Leaf {
            if let Some(wins) = node.wins() {
                (node.phi, node.delta) = if wins { LOST } else { WON };
                flipped += 1;
            }
        }
    }
    assert!(flipped > 0, "120 jobs solved no leaf");
    dag.recompute_all();
    let restored_dir = scratch("lying-5x5-restored");
    let restored = restore(snapshot, &restored_dir).expect("restores");
    assert_eq!(restored.unproven.len(), flipped);
    solve_5x5_and_verify(&restored_dir);
}

/// Runs that defer their proofs keep the leaves their jobs settle solved but
/// unproven, store nothing, and go on across a stop; once the root is solved the
/// run proves the leaves its proof takes as given, and the certificate holds.
/// Teams too (their writers are then idle).
#[test]
fn deferred_proofs_are_written_once_the_root_needs_them() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("deferred-5x5");
    let deferring = |stop_after_jobs| RunOptions {
        team: 2,
        stop_after_jobs,
        defer_proofs: true,
        ..options(2)
    };
    let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
    let (outcome, last) = run_with_figures(&mut campaign, &deferring(Some(150)));
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
    let last = last.expect("figures");
    assert!(last.run_deferred > 0, "150 jobs settled no leaf");
    assert_eq!((last.stored, last.run_proof_nodes), (0, 0));
    assert_eq!(last.unproven as u64, last.run_deferred);
    drop(campaign);

    let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
    assert_eq!(
        campaign.checkpoint().unproven.len() as u64,
        last.run_deferred
    );
    let (winner, figures) = run_to_the_end(&mut campaign, &deferring(None));
    assert_eq!(winner, Color::Black);
    assert!(figures.run_queued > 0 && figures.stored > 0, "{figures:?}");
    drop(campaign);
    verify_black_wins(&dir);
}

/// A root that the first job settles without its proof is proven by the next.
#[test]
fn a_root_settled_without_its_proof_is_proven_again() {
    let start = Position::start("3x5".parse().unwrap());
    let dir = scratch("deferred-root-3x5");
    let mut campaign = Campaign::open(&dir, &spec(&start, 1_000_000)).expect("opens");
    let deferring = RunOptions {
        defer_proofs: true,
        ..options(1)
    };
    let (winner, figures) = run_to_the_end(&mut campaign, &deferring);
    assert_eq!(winner, Color::Black);
    assert_eq!(
        (figures.run_jobs, figures.run_deferred),
        (2, 1),
        "{figures:?}"
    );
    assert_eq!(figures.unproven, 0);
    drop(campaign);
    verify_black_wins(&dir);
}

/// The longest race win and the job size may change between runs: each run
/// records its own, campaign.json the latest, and the certificate holds; turning
/// the race rules off is refused.
#[test]
fn race_length_and_job_size_change_between_runs() {
    let start = Position::start("4x5".parse().unwrap());
    let dir = scratch("settings-4x5");
    let mut campaign = Campaign::open(&dir, &spec(&start, 500)).expect("opens");
    let stopping = RunOptions {
        stop_after_jobs: Some(3),
        ..options(1)
    };
    let outcome = campaign.run(&stopping, &mut |_| {}).expect("runs");
    assert!(matches!(outcome, RunOutcome::Stopped(_)), "{outcome:?}");
    drop(campaign);

    let off = Spec::new(&start, false, 5, 4, 500);
    let Err(refused) = Campaign::open(&dir, &off) else {
        panic!("the race rules turned off");
    };
    assert!(refused.to_string().contains("race rules"), "{refused}");
    let changed = Spec::new(&start, true, 3, 4, 800);
    let mut campaign = Campaign::open(&dir, &changed).expect("opens");
    assert_eq!(Spec::read(&dir).unwrap(), Some(changed.clone()));
    let deferring = RunOptions {
        defer_proofs: true,
        ..options(1)
    };
    let (winner, _) = run_to_the_end(&mut campaign, &deferring);
    assert_eq!(winner, Color::Black);
    let settings: Vec<_> = campaign
        .checkpoint()
        .runs
        .iter()
        .map(|run| {
            run.settings
                .map(|s| (s.race_moves, s.job_nodes, s.defer_proofs))
        })
        .collect();
    assert_eq!(settings, [Some((5, 500, false)), Some((3, 800, true))]);
    drop(campaign);
    verify_black_wins(&dir);
}

/// Once the root has been solved (its unproven leaves queued to be
/// proven), `defer_proofs` is ignored: the run writes its proofs, records so,
/// and its certificate holds.
#[test]
fn deferral_ends_once_the_root_has_been_solved() {
    let start = Position::start("5x5".parse().unwrap());
    let dir = scratch("deferral-ends-5x5");
    let mut campaign = Campaign::open(&dir, &spec(&start, 5_000)).expect("opens");
    assert!(!campaign.root_was_solved());
    // As the sample a run notes when its root is first solved.
    campaign.checkpoint.history.push(crate::checkpoint::Sample {
        seconds: 1.0,
        nodes: 1,
        phi: breakthrough_solver::Pn::INF,
        delta: breakthrough_solver::Pn::ZERO,
    });
    assert!(campaign.root_was_solved());
    let deferring = RunOptions {
        defer_proofs: true,
        ..options(2)
    };
    let (winner, figures) = run_to_the_end(&mut campaign, &deferring);
    assert_eq!(winner, Color::Black);
    assert_eq!((figures.run_deferred, figures.unproven), (0, 0));
    assert!(figures.stored > 0, "{figures:?}");
    let settings = campaign.checkpoint().runs[0].settings.expect("recorded");
    assert!(!settings.defer_proofs);
    drop(campaign);
    verify_black_wins(&dir);
}

/// The certificate in `dir` verifies, Black winning.
fn verify_black_wins(dir: &Path) {
    let report = verify_directory(dir).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(report.winner, Color::Black);
}

/// Many protected samples (a solved root's, say) never thin the others: the
/// earliest open samples survive any number of later calls, and the open ones are
/// halved only once they alone are too many.
#[test]
fn protected_samples_do_not_thin_the_open_ones() {
    use super::thin;
    let protected = |sample: &i64| *sample < 0;
    let mut samples: Vec<i64> = (0..100).collect();
    samples.extend(std::iter::repeat_n(-1, 5000));
    for next in 100..150 {
        samples.push(next);
        thin(&mut samples, 4000, protected);
    }
    let open: Vec<i64> = samples.iter().copied().filter(|&s| s >= 0).collect();
    assert_eq!(open, (0..150).collect::<Vec<_>>());
    assert_eq!(samples.len(), 5150);

    let mut samples: Vec<i64> = (0..4001).collect();
    samples.insert(1, -1);
    thin(&mut samples, 4000, protected);
    let open: Vec<i64> = samples.iter().copied().filter(|&s| s >= 0).collect();
    assert_eq!(open, (0..4001).step_by(2).collect::<Vec<_>>());
    assert_eq!(samples[1], -1);
}
