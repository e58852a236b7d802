//! The maintainers' `breakthrough-lab` as they meet it: the results README from a
//! results directory, and the A/B benchmarks.
//!
//! The results come from the `breakthrough` program beside the lab's, which
//! `cargo test --workspace` builds (its own tests need it).

use std::path::{Path, PathBuf};
use std::process::Output;

use breakthrough_testing::{beside, stderr, stdout};

fn lab_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_breakthrough-lab"))
}

fn lab(args: &[&str]) -> Output {
    breakthrough_testing::run(lab_program(), args)
}

/// The `breakthrough` program of the same build.
fn product() -> PathBuf {
    beside(lab_program(), "breakthrough")
}

fn run(args: &[&str]) -> Output {
    breakthrough_testing::run(&product(), args)
}

/// Bad input: exit code 2 and exactly one line on stderr that mentions `words`.
fn assert_input_error(args: &[&str], words: &str) {
    breakthrough_testing::assert_input_error(lab_program(), args, words);
}

fn solve_json(args: &[&str]) -> serde_json::Value {
    let mut full = vec!["solve"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--json", "--quiet", "--tt-mb", "16"]);
    let output = run(&full);
    serde_json::from_str(&stdout(&output)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)))
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    breakthrough_testing::scratch_dir("lab", name)
}

#[test]
fn bench_bad_input() {
    assert_input_error(&["bench", "--boards", "9x9"], "81 squares");
    assert_input_error(&["bench", "--time-limit", "0"], "positive");
    assert_input_error(&["bench", "--copies"], "--compare threads");
    assert_input_error(
        &["bench", "--program", "/no/such/program"],
        "no such program",
    );
    assert_input_error(&["report", "/no/such/dir"], "no such directory");
}

#[test]
fn bench_compares_race_rules_under_both_names() {
    for compare in ["race-rules", "patterns"] {
        let output = lab(&["bench", "--compare", compare, "--boards", "4x4", "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["compare"], "race-rules");
        assert_eq!(json["solve"][1]["solver"], "no-race-rules");
        assert_eq!(json["solve"][1]["winner"], "black");
    }
}

/// The README from a results directory: the table, the pictures, a campaign's
/// status listed as a campaign, the growth and the published results.
#[test]
fn report_from_a_results_directory() {
    let dir = scratch("report");
    std::fs::write(
        dir.join("published.json"),
        r#"{"results": [{"board": "4x4", "winner": "second", "authors": "A", "year": 2000,
            "venue": "V", "method": "M", "seconds": 5, "cores": 2, "note": null},
            {"board": "3x6", "winner": "second", "authors": "A", "year": 2000,
            "venue": "V", "method": "M", "seconds": null, "cores": null, "note": null}]}"#,
    )
    .unwrap();
    solve_json(&[
        "4x4",
        "--out",
        dir.join("4x4.json").to_str().unwrap(),
        "--proof",
        dir.join("4x4.cert").to_str().unwrap(),
    ]);
    let readme = report(&dir);
    assert!(
        readme.contains("| [4x4](4x4.svg) | second player (black) |"),
        "{readme}"
    );
    assert!(
        readme.contains("- 3x6: second player wins. A 2000: V."),
        "{readme}"
    );
    assert!(
        readme.contains("| 4x4 | second | A 2000 | 5 | 2 | - |"),
        "{readme}"
    );
    let svg = std::fs::read_to_string(dir.join("4x4.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("<polyline"), "{svg}");

    // A board nobody published is new; a campaign's status is listed as a campaign,
    // not read as a result.
    solve_json(&["3x4", "--out", dir.join("3x4.json").to_str().unwrap()]);
    let campaign = dir.join("campaign-3x5");
    let campaign_path = campaign.to_str().unwrap();
    let output = run(&["campaign", "run", campaign_path, "3x5", "-q"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let status = run(&["campaign", "status", campaign_path, "--json"]);
    std::fs::write(dir.join("3x5-campaign.json"), status.stdout).unwrap();
    let readme = report(&dir);
    assert!(readme.contains("| **new** |"), "{readme}");
    assert!(!readme.contains("[3x5](3x5.svg)"), "{readme}");
    assert!(
        readme.contains("| [3x5](3x5-campaign.svg) | solved |"),
        "{readme}"
    );
    assert!(readme.contains("## Growth with the board"), "{readme}");
    let growth = std::fs::read_to_string(dir.join("growth.svg")).unwrap();
    assert!(growth.trim_end().ends_with("</svg>"));
    // A solved campaign's result.json is a result like a solve's.
    std::fs::copy(campaign.join("result.json"), dir.join("3x5.json")).unwrap();
    let readme = report(&dir);
    assert!(readme.contains("[3x5](3x5.svg)"), "{readme}");
    assert!(readme.contains("a campaign's certificate"), "{readme}");
    // Into the main README, between its markers.
    let main = dir.join("MAIN.md");
    std::fs::write(
        &main,
        "top\n<!-- results:begin -->\nold\n<!-- results:end -->\nend\n",
    )
    .unwrap();
    let output = lab(&[
        "report",
        dir.to_str().unwrap(),
        "--readme",
        main.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let spliced = std::fs::read_to_string(&main).unwrap();
    assert!(
        spliced.contains("| 4x4 | second |") && !spliced.contains("old"),
        "{spliced}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The report takes the bound from <board>-length.json where the result has no length.
#[test]
fn report_gives_a_stopped_length_search_its_bound() {
    let dir = scratch("length-try");
    std::fs::write(dir.join("published.json"), "{\"results\": []}").unwrap();
    solve_json(&["4x4", "--out", dir.join("4x4.json").to_str().unwrap()]);
    let tried = dir.join("4x4-length.json");
    let output = run(&[
        "solve",
        "4x4",
        "--length",
        "--threads",
        "1",
        "--max-nodes",
        "120",
        "--quiet",
        "--out",
        tried.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let readme = report(&dir);
    assert!(
        readme.contains(
            "- 4x4: at least 12 plies: a separate run answered \"no\" up to 10 plies and was \
             stopped (node limit) on the question of 12 plies"
        ),
        "{readme}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_solve_compares_thread_counts() {
    let dir = scratch("scaling");
    let out = dir.join("scaling-test.json");
    let output = lab(&[
        "bench",
        "--compare",
        "threads",
        "--boards",
        "3x5,4x5",
        "--threads",
        "1,2",
        "--tt-mb",
        "16",
        "--copies",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let table = stdout(&output);
    assert!(
        table.contains("speed-up") && table.contains("overhead") && table.contains("copies"),
        "{table}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let rows = json["solve"].as_array().unwrap();
    // Per board: one thread, two threads, two one-thread copies at once.
    assert_eq!(rows.len(), 6);
    let copies = &rows[2];
    assert_eq!(
        (copies["solver"].as_str(), copies["copies"].as_u64()),
        (Some("copies"), Some(2))
    );
    assert_eq!(
        copies["nodes"], rows[0]["nodes"],
        "a copy is one thread's search"
    );
    for row in rows {
        assert_eq!(row["winner"], "black");
        assert!(row["speed_up"].as_f64().unwrap() > 0.0);
        assert!(row["overhead"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(rows[0]["threads"], 1);
    assert_eq!(rows[0]["overhead"], 1.0);
    assert_eq!(rows[1]["thread_nodes"].as_array().unwrap().len(), 2);
    assert!(rows[1]["median_wall_seconds"].as_f64().unwrap() >= 0.0);
    // The report renders it.
    std::fs::write(dir.join("published.json"), "{\"results\": []}").unwrap();
    let readme = report(&dir);
    assert!(readme.contains("## Parallel scaling"), "{readme}");
    assert!(readme.contains("| 4x5 | 2 | black |"), "{readme}");
    assert!(
        readme.contains("| 4x5 | 2 copies of 1 | black |"),
        "{readme}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `report` on a results directory and returns the README it writes.
fn report(dir: &std::path::Path) -> String {
    let output = lab(&["report", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::read_to_string(dir.join("README.md")).unwrap()
}

/// The report lists the winning first moves of a first-player win, from the
/// solve's root moves or, where there is one, from `<board>-first-moves.json`.
#[test]
fn report_lists_the_winning_first_moves() {
    let dir = scratch("first-moves");
    std::fs::write(dir.join("published.json"), "{\"results\": []}").unwrap();
    solve_json(&[
        "3x6",
        "--all-moves",
        "--out",
        dir.join("3x6.json").to_str().unwrap(),
    ]);
    let readme = report(&dir);
    assert!(
        readme.contains("- 3x6: every first move wins (7 of 7)"),
        "{readme}"
    );
    std::fs::write(
        dir.join("3x6-first-moves.json"),
        r#"{"board": "3x6", "moves": [{"move": "a2-a3", "outcome": "win"},
            {"move": "b2-b3", "outcome": "loss"}, {"move": "c2-c3", "outcome": "open"}]}"#,
    )
    .unwrap();
    let readme = report(&dir);
    assert!(
        readme.contains("- 3x6: 1 of 3 win (a2-a3), 1 lose, 1 not settled (a campaign for each: [3x6-first-moves.json](3x6-first-moves.json))"),
        "{readme}"
    );
    // The certificates' digests, once the script has written them, are linked too.
    std::fs::write(dir.join("3x6-first-moves.sha256"), "").unwrap();
    let readme = report(&dir);
    assert!(
        readme.contains("(a campaign for each: [3x6-first-moves.json](3x6-first-moves.json); SHA-256 of each certificate's files: [3x6-first-moves.sha256](3x6-first-moves.sha256))"),
        "{readme}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_solve_compares_two_builds_turn_by_turn() {
    // This build against itself: the runs alternate, both rows solve, and the ratios
    // are this build's against the baseline's on the same thread count.
    let program = product();
    let program = program.to_str().unwrap();
    let output = lab(&[
        "bench",
        "--compare",
        "baseline",
        "--baseline",
        program,
        "--boards",
        "4x4,3x5",
        "--threads",
        "1,2",
        "--repeat",
        "2",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = json["solve"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["solver"], "baseline");
        assert_eq!(pair[1]["solver"], "this");
        assert_eq!(pair[0]["threads"], pair[1]["threads"]);
        assert!(pair[0]["speed_up"].is_null());
        assert!(pair[1]["speed_up"].as_f64().unwrap() > 0.0);
        assert_eq!(pair[1]["wall_runs"].as_array().unwrap().len(), 2);
        assert_eq!(pair[0]["winner"], "black");
    }
    // On one thread the same program visits the same nodes.
    assert_eq!(rows[1]["x_nodes"], 1.0);
}

#[test]
fn bench_with_proofs_times_their_extraction() {
    let output = lab(&[
        "bench", "--boards", "4x4", "--repeat", "2", "--proof", "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    for row in json["solve"].as_array().unwrap() {
        assert_eq!(row["winner"], "black");
        assert_eq!(row["proof_runs"].as_array().unwrap().len(), 2, "{row}");
        assert!(row["median_proof_seconds"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn bench_solve_refuses_a_missing_baseline() {
    assert_input_error(&["bench", "--compare", "baseline"], "--baseline PATH");
    assert_input_error(
        &[
            "bench",
            "--compare",
            "baseline",
            "--baseline",
            "/no/such/breakthrough",
        ],
        "no such program",
    );
    assert_input_error(&["bench", "--baseline", "/bin/true"], "--compare baseline");
}

/// Every file of the committed results directory reads: results, campaigns' status,
/// first moves, scaling and published results; and docs/certificates.md's table is
/// the one they make.
#[test]
fn report_reads_the_committed_results() {
    let dir = scratch("committed");
    let results = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results");
    for entry in std::fs::read_dir(results).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => {
                std::fs::copy(&path, dir.join(name)).unwrap();
            }
            // The report asks only whether a certificate or its sums are kept.
            Some("cert" | "sha256") => std::fs::write(dir.join(name), "").unwrap(),
            _ => {}
        }
    }
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/certificates.md");
    let page = dir.join("certificates.md");
    std::fs::copy(committed, &page).unwrap();
    let args = [
        dir.to_str().unwrap(),
        "--certificates",
        page.to_str().unwrap(),
    ];
    let output = lab(&[&["report"][..], &args].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        std::fs::read_to_string(committed).unwrap(),
        "docs/certificates.md's table is stale: run scripts/results-readme.sh"
    );
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        readme.contains("| [5x5](5x5.svg) | second player (black) |"),
        "{readme}"
    );
    assert!(readme.contains("## Parallel scaling"), "{readme}");
    assert!(readme.contains("## Campaigns"), "{readme}");
    // Each picture shows the best line there is: a result's own perfect play, a
    // separate length run's, a proof's main line, or a campaign's first move alone.
    for (board, title) in [
        ("3x6", "(23 plies of perfect play)"),
        (
            "5x6",
            "(37 plies of perfect play, from the separate length run)",
        ),
        ("6x6", "(1 ply: the best first move alone"),
    ] {
        let svg = std::fs::read_to_string(dir.join(format!("{board}.svg"))).unwrap();
        assert!(svg.contains(title), "{board}: {svg}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The census of a committed certificate, as JSON: each part's bytes by kind, by
/// ply and by plies to the end add up to its stream; bad input is one line.
#[test]
fn census_of_a_committed_certificate() {
    let cert = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/5x4.cert");
    let output = lab(&["census", cert, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let census: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let parts = census["parts"].as_array().unwrap();
    assert!(!parts.is_empty());
    let sum = |values: &serde_json::Value| -> u64 {
        values
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum()
    };
    for part in parts {
        let total = part["stream_bytes"].as_u64().unwrap();
        let kinds: u64 = [
            "winner_nodes",
            "loser_nodes",
            "references",
            "given",
            "settled",
        ]
        .iter()
        .map(|kind| part[kind]["bytes"].as_u64().unwrap())
        .sum();
        assert_eq!(kinds, total, "{part}");
        assert_eq!(sum(&part["bytes_by_ply"]), total, "{part}");
        assert_eq!(sum(&part["bytes_by_plies_left"]), total, "{part}");
        assert!(part["compressed_bytes"].as_u64().unwrap() > 0, "{part}");
    }
    let table = stdout(&lab(&["census", cert]));
    assert!(table.contains("back-references"), "{table}");
    assert_input_error(&["census", "/no/such.cert"], "cannot read");
    assert_input_error(
        &["census", cert.replace(".cert", ".json").as_str()],
        "certificate",
    );
}

/// A suite's positions are solved, their answers checked, and a total row closes
/// each contestant's list; a suite whose answer is wrong stops the benchmark.
#[test]
fn bench_runs_a_suite_and_checks_its_answers() {
    let dir = scratch("suite");
    let suite = dir.join("suite.tsv");
    let write = |black_wins: &str| {
        std::fs::write(
            &suite,
            format!(
                "# a test suite\nname\tboard\tposition\twinner\tnodes\n\
                 a\t4x5\tBBBB/BBBB/4/WWWW/WWWW w\t{black_wins}\t0\n\
                 b\t3x6\tBBB/BBB/3/3/WWW/WWW w\twhite\t0\n"
            ),
        )
        .unwrap();
    };
    write("black");
    let output = lab(&[
        "bench",
        "--suite",
        suite.to_str().unwrap(),
        "--compare",
        "estimate",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = json["solve"].as_array().unwrap();
    let labels: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["board"].as_str().unwrap(), r["solver"].as_str().unwrap()))
        .collect();
    assert_eq!(
        labels,
        [
            ("a", "dfpn"),
            ("a", "no-estimate"),
            ("b", "dfpn"),
            ("b", "no-estimate"),
            ("total", "dfpn"),
            ("total", "no-estimate")
        ]
    );
    let nodes = |i: usize| rows[i]["nodes"].as_f64().unwrap();
    assert_eq!(nodes(4), nodes(0) + nodes(2));
    assert_eq!(nodes(5), nodes(1) + nodes(3));
    assert!(rows[5]["x_nodes"].as_f64().is_some());

    // 4x5 is Black's: a suite that says White wins it is wrong.
    write("white");
    let output = lab(&["bench", "--suite", suite.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("the suite says white"),
        "{}",
        stderr(&output)
    );
    assert_input_error(
        &["bench", "--suite", "/no/such/suite.tsv"],
        "cannot read the suite",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
