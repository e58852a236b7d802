//! The `breakthrough` binary as a user meets it: outputs, JSON fields, exit codes and
//! one-line errors.

use std::path::Path;
use std::process::{Command, Output};

use breakthrough_result::{Claim, Side, VerifyResult};
use breakthrough_testing::{stderr, stdout};

fn program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_breakthrough"))
}

fn run(args: &[&str]) -> Output {
    breakthrough_testing::run(program(), args)
}

/// Bad input: exit code 2 and exactly one line on stderr that mentions `words`.
fn assert_input_error(args: &[&str], words: &str) {
    breakthrough_testing::assert_input_error(program(), args, words);
}

#[test]
fn perft_json_has_the_fields() {
    let output = run(&["perft", "5x5", "--depth", "3", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["board"], "5x5");
    assert_eq!(json["position"], "BBBBB/BBBBB/5/WWWWW/WWWWW w");
    assert_eq!(json["depth"], 3);
    assert_eq!(json["nodes"], 1924);
    assert!(json["seconds"].as_f64().unwrap() >= 0.0);
    assert!(json.get("divide").is_none());
}

#[test]
fn perft_divide_adds_up() {
    let output = run(&["perft", "6x5", "-d", "4", "--divide", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let divide = json["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 16);
    let sum: u64 = divide.iter().map(|e| e["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 54448);
    assert_eq!(json["nodes"], 54448);
}

#[test]
fn perft_from_a_position_and_moves() {
    let output = run(&[
        "perft",
        "5x5",
        "-p",
        "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b",
        "-d",
        "1",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["position"], "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b");
    let moves = run(&[
        "perft",
        "5x5",
        "--moves",
        "a2-a3 b4xa3",
        "-d",
        "0",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&moves)).unwrap();
    assert_eq!(json["position"], "BBBBB/B1BBB/B4/1WWWW/WWWWW w");
    assert_eq!(json["nodes"], 1);
}

#[test]
fn perft_human_output() {
    let output = run(&["perft", "8x8", "-d", "2"]);
    let text = stdout(&output);
    assert!(text.contains("nodes     484"), "{text}");
    assert!(text.contains("board     8x8"), "{text}");
}

#[test]
fn show_draws_the_board_and_moves() {
    let output = run(&["show", "3x4"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.starts_with("4  B B B\n3  B B B\n2  W W W\n1  W W W\n   a b c\n"),
        "{text}"
    );
    assert!(
        text.contains("moves     b2xa3 c2xb3 a2xb3 b2xc3 (4)"),
        "{text}"
    );
    let over = run(&["show", "4x4", "-p", "W3/4/1B2/4 b"]);
    assert!(
        stdout(&over).contains("game over: white has won"),
        "{}",
        stdout(&over)
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    assert_input_error(&["perft", "9x9", "-d", "1"], "81 squares");
    assert_input_error(&["perft", "1x9", "-d", "1"], "fewer than 2 columns");
    assert_input_error(&["perft", "5x3", "-d", "1"], "fewer than 4 rows");
    assert_input_error(&["show", "banana"], "not of the form WxH");
    assert_input_error(
        &["show", "5x5", "-p", "BBBBB/BBBBB/5/WWWWW/WWWWW"],
        "side to move",
    );
    assert_input_error(
        &["show", "6x5", "-p", "BBBBB/BBBBB/5/WWWWW/WWWWW w"],
        "the board given is 6x5",
    );
    assert_input_error(
        &["show", "5x5", "-p", "BBBBB/BBBBB/5/WWQWW/WWWWW w"],
        "rank 2",
    );
    assert_input_error(&["show", "5x5", "-p", "W4/5/5/5/5 w"], "goal rank");
    assert_input_error(&["show", "5x5", "--moves", "a2-a3 a4-a3"], "move 2");
    assert_input_error(&["show", "5x5", "--moves", "a2xa3"], "a2-a3");
    // Refused before the campaign's directory is made.
    let dir = std::env::temp_dir().join("breakthrough-cli-never-made");
    let dir = dir.to_str().unwrap();
    assert_input_error(
        &[
            "campaign",
            "run",
            dir,
            "4x5",
            "--threads",
            "3",
            "--team",
            "2",
        ],
        "--team 2 does not divide the 3 threads",
    );
    assert!(!std::path::Path::new(dir).exists());
}

#[test]
fn usage_errors_exit_2() {
    let output = run(&["perft", "5x5"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--depth"));
    let output = run(&["frobnicate"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn help_explains_the_board_notation() {
    let output = run(&["--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("columns x rows"));
    let output = run(&["perft", "--help"]);
    assert!(stdout(&output).contains("--depth"));
    // The maintainers' tools are not in the product.
    let output = run(&["--help"]);
    let help = stdout(&output);
    assert!(
        help.contains("schema") && !help.contains("report"),
        "{help}"
    );
    assert_eq!(run(&["report"]).status.code(), Some(2));
}

#[test]
fn bench_quick_checks_its_answers() {
    let output = run(&["bench", "--quick", "--repeat", "1", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let cases = json["perft"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0]["leaves"], 6_182_818);
    assert!(cases[0]["leaves_per_second"].as_f64().unwrap() > 0.0);
    // The solve suite: its winners checked, its nodes added up to the signature,
    // the same on every run (one thread).
    let solves = json["solve"].as_array().unwrap();
    assert_eq!(solves.len(), 3);
    let total: u64 = solves.iter().map(|s| s["nodes"].as_u64().unwrap()).sum();
    assert_eq!(json["signature"], total);
    // The search's signature: a change of the search that changes it updates this
    // number (and `bench`'s full signature in docs/performance.md) with it.
    assert_eq!(total, 88_586, "the quick suite's signature changed");
    let output = run(&["bench", "solve", "--quick", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let again: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(again["signature"], total);
    assert!(again.get("perft").is_none());
    let output = run(&["bench", "solve", "--quick"]);
    assert!(stdout(&output).contains(&format!("signature  {total} nodes")));
}

/// `breakthrough schema` prints the schema committed as docs/result.schema.json, and
/// `schema --verify` the one committed as docs/verify.schema.json.
#[test]
fn schemas_are_the_committed_ones() {
    for (args, file) in [
        (&["schema"][..], "result.schema.json"),
        (&["schema", "--verify"][..], "verify.schema.json"),
    ] {
        let output = run(args);
        assert!(output.status.success(), "{}", stderr(&output));
        let path = format!("{}/../../docs/{file}", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            stdout(&output),
            committed,
            "docs/{file} is stale: breakthrough {} > docs/{file}",
            args.join(" ")
        );
    }
}

/// `verify --json` of `target` read as the typed result, and written again to the
/// same JSON (no field lost or unknown), with its exit code.
fn verify_json(target: &str) -> (Option<i32>, VerifyResult) {
    let output = run(&["verify", target, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)));
    let typed = VerifyResult::from_json(&stdout(&output)).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), value);
    (output.status.code(), typed)
}

/// `verify --json` says the same, typed, of a certificate of one part, of a length
/// certificate, of a campaign's directory and of a damaged file.
#[test]
fn verify_json_is_the_typed_result() {
    let dir = scratch("verify-json");
    let plain = dir.join("3x5.cert");
    let plain = plain.to_str().unwrap();
    solve_json(&["3x5", "--proof", plain]);
    let (code, result) = verify_json(plain);
    assert_eq!(code, Some(0));
    assert!(result.valid && result.error.is_none());
    assert_eq!(result.parts.len(), 1);
    let proof = result.proof.expect("one part: its figures at the top");
    assert_eq!(proof, result.parts[0]);
    assert_eq!((proof.board.as_str(), proof.winner), ("3x5", Side::Black));
    assert_eq!(proof.claim, Claim::Wins);
    assert_eq!(
        proof.positions,
        proof.winner_positions + proof.loser_positions
    );
    assert_eq!(result.bytes, Some(std::fs::metadata(plain).unwrap().len()));

    let length = dir.join("3x4-length.cert");
    let length = length.to_str().unwrap();
    let (_, solved) = solve_json(&["3x4", "--length", "--proof", length]);
    let (code, result) = verify_json(length);
    assert_eq!(code, Some(0));
    assert!(result.proof.is_none());
    let claims: Vec<Claim> = result.parts.iter().map(|p| p.claim).collect();
    let plies = solved["length"].as_u64().unwrap() as u32;
    assert_eq!(
        claims,
        [
            Claim::WinsWithin { plies },
            Claim::HoldsOut { plies: plies - 1 }
        ]
    );
    assert_eq!(result.length, Some(plies));

    let campaign = dir.join("campaign");
    let campaign = campaign.to_str().unwrap();
    let ran = run(&[
        "campaign",
        "run",
        campaign,
        "4x4",
        "--quiet",
        "--job-nodes",
        "200",
    ]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    let (code, result) = verify_json(campaign);
    assert_eq!(code, Some(0));
    let check = result.campaign.expect("a campaign's figures");
    assert!(check.parts >= 1, "{check:?}");
    let top = result.proof.expect("the top's figures");
    assert_eq!((top.claim, top.given), (Claim::WinsGiven, check.given));

    let mut bytes = std::fs::read(plain).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    let damaged = dir.join("damaged.cert");
    std::fs::write(&damaged, &bytes).unwrap();
    let (code, result) = verify_json(damaged.to_str().unwrap());
    assert_eq!(code, Some(4));
    assert!(!result.valid && result.error.is_some() && result.parts.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn solve_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut full = vec!["solve"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--json", "--quiet", "--tt-mb", "16"]);
    let output = run(&full);
    let json = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)));
    (output.status.code(), json)
}

#[test]
fn solve_json_has_the_fields() {
    let (code, json) = solve_json(&["4x4"]);
    assert_eq!(code, Some(0));
    assert_eq!(json["board"], "4x4");
    assert_eq!(json["position"], "BBBB/BBBB/WWWW/WWWW w");
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["winner"], "black");
    assert_eq!(json["best_move"], serde_json::Value::Null);
    assert_eq!(json["status"], "solved");
    assert_eq!(json["verdict"], "second player (black) wins");
    let stats = &json["stats"];
    assert!(stats["nodes"].as_u64().unwrap() > 0);
    let seconds = stats["seconds"].as_f64().unwrap();
    // The whole process's time includes the search's.
    let wall = stats["wall_seconds"].as_f64().unwrap();
    assert!(wall >= seconds && wall < seconds + 60.0, "{wall} {seconds}");
    // All cores by default, each thread's nodes listed.
    let threads = stats["threads"].as_u64().unwrap();
    assert_eq!(json["solver"]["threads"], threads);
    let thread_nodes = stats["thread_nodes"].as_array().unwrap();
    assert_eq!(thread_nodes.len() as u64, threads);
    let sum: u64 = thread_nodes.iter().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, stats["nodes"].as_u64().unwrap());
    assert!(stats["table"]["used"].as_u64().unwrap() > 0);
    assert!(stats["table"]["fill"].as_f64().unwrap() > 0.0);
    assert_eq!(json["solver"]["algorithm"], "dfpn");
    assert_eq!(json["solver"]["race_rules"], true);
    assert!(json["solver"].get("patterns").is_none());
    let rules = &stats["race_rules"];
    assert!(rules["closed"].as_u64().unwrap() > 0);
    assert!(rules["win_in_one"].is_u64() && rules["must_capture_narrowed"].is_u64());
    let (_, plain) = solve_json(&["4x4", "--no-race-rules"]);
    assert_eq!(plain["winner"], "black");
    assert_eq!(plain["solver"]["race_rules"], false);
    // The flag's old name still works.
    let (_, old) = solve_json(&["4x4", "--no-patterns"]);
    assert_eq!(old["solver"]["race_rules"], false);
    assert_eq!(old["stats"]["race_rules"]["closed"], 0);
    assert_eq!(plain["stats"]["race_rules"]["closed"], 0);
    assert!(plain["stats"]["nodes"].as_u64() > stats["nodes"].as_u64());
    assert_eq!(json["solver"]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_longest_race_looked_for_follows_the_board() {
    // 4 moves below 36 squares, 5 from there up, unless --race-moves says otherwise.
    let race_moves = |args: &[&str]| {
        let (_, json) = solve_json(&[args, &["--max-nodes", "200"]].concat());
        json["solver"]["race_moves"].as_u64()
    };
    assert_eq!(race_moves(&["5x5"]), Some(4));
    assert_eq!(race_moves(&["7x5"]), Some(4));
    assert_eq!(race_moves(&["6x6"]), Some(5));
    assert_eq!(race_moves(&["6x6", "--race-moves", "3"]), Some(3));
    assert_eq!(race_moves(&["5x5", "--race-moves", "6"]), Some(6));
}

#[test]
fn solve_gives_the_winning_move_when_the_side_to_move_wins() {
    // Whoever wins here, a winner to move must name a move that keeps the win.
    let (code, json) = solve_json(&["5x5", "-p", "BBBBB/BBBBB/5/1W3/W1WWW b"]);
    assert_eq!(code, Some(0));
    let winner = json["winner"].as_str().unwrap();
    if winner == "black" {
        let best = json["best_move"].as_str().expect("a best move");
        // The move is legal in the position and keeps the win: White then loses.
        let (_, after) = solve_json(&["5x5", "-p", "BBBBB/BBBBB/5/1W3/W1WWW b", "-m", best]);
        assert_eq!(after["winner"], "black");
        assert_eq!(after["to_move"], "white");
    } else {
        assert_eq!(json["best_move"], serde_json::Value::Null);
    }
    for algo in ["dfpn", "reference"] {
        let (_, json) = solve_json(&["3x6", "--algo", algo]);
        assert_eq!(json["winner"], "white", "{algo}");
        let best = json["best_move"].as_str().expect("a best move");
        let (_, after) = solve_json(&["3x6", "-m", best]);
        assert_eq!(after["winner"], "white", "{algo}: {best}");
    }
}

#[test]
fn solve_on_threads() {
    for threads in ["1", "2", "3"] {
        let (code, json) = solve_json(&["4x5", "--threads", threads]);
        assert_eq!(code, Some(0));
        assert_eq!(json["winner"], "black", "{threads} threads");
        let stats = &json["stats"];
        assert_eq!(stats["threads"].to_string(), threads);
        assert_eq!(
            stats["thread_nodes"].as_array().unwrap().len().to_string(),
            threads
        );
        let overhead = &stats["search_overhead"];
        if threads == "1" {
            assert_eq!(overhead.as_f64(), Some(1.0));
        } else {
            assert!(overhead.is_null());
        }
    }
    let (_, json) = solve_json(&["4x5", "--algo", "reference"]);
    assert_eq!(json["stats"]["threads"], 1);
    assert_input_error(
        &["solve", "4x5", "--algo", "reference", "--threads", "2"],
        "one thread",
    );
    for bad in ["0", "-1", "two", "5000"] {
        let output = run(&["solve", "4x4", "--threads", bad]);
        assert_eq!(output.status.code(), Some(2), "--threads {bad}");
    }
}

#[test]
fn solve_limits_exit_3_and_still_write_the_json() {
    let dir = std::env::temp_dir().join(format!("bt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("r.json");
    let path = out.to_str().unwrap();
    let (code, json) = solve_json(&["5x5", "--max-nodes", "500", "--out", path]);
    assert_eq!(code, Some(3));
    assert_eq!(json["status"], "unknown");
    assert_eq!(json["winner"], serde_json::Value::Null);
    assert_eq!(json["stopped_by"], "node_limit");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written, json);
    assert!(!dir.join("r.json.tmp").exists());
    let (code, json) = solve_json(&["5x5", "--time-limit", "0.05"]);
    assert_eq!(
        (code, json["stopped_by"].as_str()),
        (Some(3), Some("time_limit"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_bad_input() {
    assert_input_error(&["solve", "3x3"], "fewer than 4 rows");
    assert_input_error(&["solve", "5x5", "--time-limit", "0"], "positive");
    assert_input_error(&["solve", "5x5", "--time-limit=-1"], "positive");
    assert_input_error(
        &["solve", "5x5", "-p", "BBBBB/BBBBB/5/WWWWW w"],
        "the board given is 5x5",
    );
    if std::path::Path::new("/proc/meminfo").exists() {
        assert_input_error(&["solve", "4x4", "--tt-mb", "1000000"], "memory available");
    }
    let output = run(&["solve", "4x4", "--algo", "magic"]);
    assert_eq!(output.status.code(), Some(2));
    assert_input_error(
        &["solve", "4x4", "--out", "/nonexistent-dir/x.json"],
        "no such directory",
    );
    assert_input_error(&["solve", "4x4", "--time-limit", "1e30"], "too large");
}

#[test]
fn perft_past_the_longest_game_is_zero_at_once() {
    // 4x4 games last at most 2*4*(2*4-5)+1 = 25 plies.
    let output = run(&["perft", "4x4", "-d", "99999999", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["nodes"], 0);
    let output = run(&["perft", "4x4", "-d", "26", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["nodes"], 0);
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    breakthrough_testing::scratch_dir("cli", name)
}

#[test]
fn solve_proof_then_verify_and_inspect() {
    let dir = scratch("proof");
    let proof = dir.join("4x5.cert");
    let out = dir.join("4x5.json");
    let (p, o) = (proof.to_str().unwrap(), out.to_str().unwrap());
    let (code, json) = solve_json(&["4x5", "--proof", p, "--out", o]);
    assert_eq!(code, Some(0));
    let bytes = std::fs::read(&proof).unwrap();
    assert_eq!(json["proof"]["file"], "4x5.cert");
    assert_eq!(json["proof"]["bytes"], bytes.len());
    let sha256: String = {
        use sha2::Digest as _;
        sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert_eq!(json["proof"]["sha256"], sha256.as_str());
    assert!(json["proof"]["positions"].as_u64().unwrap() > 1000);
    let line = json["principal_variation"].as_array().unwrap();
    assert_eq!(line.len() as u64, json["proof"]["height"].as_u64().unwrap());
    let root_moves = json["root_moves"].as_array().unwrap();
    assert_eq!(root_moves.len(), 10);
    assert!(root_moves.iter().all(|m| m["outcome"] == "loss"));

    let output = run(&["verify", p, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["valid"], true);
    assert_eq!(report["winner"], "black");
    assert_eq!(report["positions"], json["proof"]["positions"]);
    assert_eq!(report["height"], json["proof"]["height"]);
    let output = run(&["verify", p]);
    assert!(stdout(&output).contains("the proof holds"));

    let output = run(&["inspect", o, "--proof", p]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    for words in [
        "second player (black) wins",
        "a2-a3 loss",
        "main line (",
        "black has won.",
        "the proof holds",
        "positions by ply",
    ] {
        assert!(text.contains(words), "inspect lacks {words}: {text}");
    }

    // Damage: one flipped byte, a truncated file, another file altogether.
    let damaged = dir.join("damaged.cert");
    for (i, cut) in [
        (bytes.len() / 2, None),
        (10, None),
        (0, Some(bytes.len() - 9)),
    ] {
        let mut copy = bytes.clone();
        copy[i] ^= 0x20;
        if let Some(len) = cut {
            copy = bytes[..len].to_vec();
        }
        std::fs::write(&damaged, &copy).unwrap();
        let output = run(&["verify", damaged.to_str().unwrap()]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(4), "{err}");
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        let output = run(&["inspect", o, "--proof", damaged.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(4));
    }
    let output = run(&["verify", o]);
    assert_eq!(output.status.code(), Some(4));
    assert!(stderr(&output).contains("not a proof certificate"));
    // A valid proof of another position does not pass for this result.
    let other = dir.join("3x5.cert");
    solve_json(&["3x5", "--proof", other.to_str().unwrap()]);
    let output = run(&["inspect", o, "--proof", other.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(4));
    assert!(stderr(&output).contains("not the result's position"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_and_inspect_bad_input() {
    let output = run(&["verify", "/nonexistent/p.cert"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("cannot read"));
    let dir = scratch("inspect");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"board\": \"5x5\"}").unwrap();
    assert_input_error(&["inspect", bad.to_str().unwrap()], "not a solve result");
    assert_input_error(
        &["solve", "4x4", "--proof", "/nonexistent-dir/p.cert"],
        "no such directory",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reproduce_from_a_results_directory() {
    let dir = scratch("reproduce");
    let published = |entries: &str| {
        std::fs::write(
            dir.join("published.json"),
            format!("{{\"results\": [{entries}]}}"),
        )
        .unwrap()
    };
    let entry = |board: &str, winner: &str| {
        format!(
            "{{\"board\": \"{board}\", \"winner\": \"{winner}\", \"authors\": \"A\", \
             \"year\": 2000, \"venue\": \"V\", \"method\": \"M\", \"seconds\": 5, \"cores\": 2}}"
        )
    };
    let d = dir.to_str().unwrap();
    published(&format!(
        "{}, {}",
        entry("4x4", "second"),
        entry("3x5", "second")
    ));
    let output = run(&["reproduce", "--results", d]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("every proof verified"));
    // A published claim that our solve contradicts (3x6 is a first-player win).
    published(&format!(
        "{}, {}",
        entry("4x4", "second"),
        entry("3x6", "second")
    ));
    let output = run(&["reproduce", "--results", d]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("first (!)"), "{}", stdout(&output));
    // --quick skips boards without an earlier result of under a minute.
    let output = run(&["reproduce", "--quick", "--results", d]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).matches("skipped").count(), 2);

    // A campaign's board is not solved again by reproduce.
    let campaign = dir.join("campaign-3x5");
    let campaign_path = campaign.to_str().unwrap();
    let output = run(&["campaign", "run", campaign_path, "3x5", "-q"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let status = run(&["campaign", "status", campaign_path, "--json"]);
    std::fs::write(dir.join("3x5-campaign.json"), status.stdout).unwrap();
    // Reproduce: a solved campaign's result is compared, an open one listed.
    std::fs::copy(campaign.join("result.json"), dir.join("3x5.json")).unwrap();
    let open = dir.join("campaign-4x5");
    let open_path = open.to_str().unwrap();
    let output = run(&[
        "campaign",
        "run",
        open_path,
        "4x5",
        "--time-limit",
        "0.01",
        // Small jobs: the first job must not settle the board before the limit.
        "--job-nodes",
        "1000",
        "-q",
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let status = run(&["campaign", "status", open_path, "--json"]);
    std::fs::write(dir.join("4x5-campaign.json"), status.stdout).unwrap();
    published(&format!(
        "{}, {}, {}",
        entry("4x4", "second"),
        entry("3x5", "second"),
        entry("4x5", "second")
    ));
    let output = run(&["reproduce", "--results", d]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("second by a campaign"), "{printed}");
    assert!(printed.contains("not solved here yet"), "{printed}");
    // A campaign's answer that contradicts the published one is a failure.
    published(&entry("3x5", "first"));
    let output = run(&["reproduce", "--results", d]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(stdout(&output).contains("second (!) by a campaign"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_default_table_fits_the_board() {
    // At most these (less where a quarter of the available memory is less).
    for (board, megabytes) in [("4x4", 64), ("5x5", 512)] {
        let output = run(&["solve", board, "--json", "--quiet", "--max-nodes", "1000"]);
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let table = &json["stats"]["table"];
        let chosen = table["megabytes"].as_u64().unwrap();
        assert!((64..=megabytes).contains(&chosen), "{board}: {chosen}");
        assert_eq!(table["bytes"].as_u64().unwrap() >> 20, chosen, "{board}");
    }
}

#[test]
fn length_and_all_moves_with_a_verified_certificate() {
    let dir = std::env::temp_dir().join(format!("bt-length-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("4x4.cert");
    let cert = cert.to_str().unwrap();
    let output = run(&[
        "solve",
        "4x4",
        "--length",
        "--all-moves",
        "--json",
        "--quiet",
        "--proof",
        cert,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["length"], 14);
    assert_eq!(json["principal_variation_kind"], "perfect_play");
    assert_eq!(json["principal_variation"].as_array().unwrap().len(), 14);
    assert_eq!(json["proof"]["format_version"], 3);
    for root_move in json["root_moves"].as_array().unwrap() {
        assert_eq!(root_move["outcome"], "loss");
        assert!(root_move["length"].as_u64().unwrap() <= 14);
    }
    let output = run(&["verify", cert]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("length     14 plies under perfect play"));
    // A damaged length certificate is rejected with exit code 4.
    let mut bytes = std::fs::read(cert).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(cert, &bytes).unwrap();
    assert_eq!(run(&["verify", cert]).status.code(), Some(4));
    assert_input_error(
        &["solve", "4x4", "--length", "--algo", "reference"],
        "--algo reference",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A length search stopped by a limit keeps the winner and says how far it got: the
/// questions answered (all "no"), the one cut short, and the least length they allow.
#[test]
fn a_stopped_length_search_reports_its_questions() {
    // 4x4 (length 14) on one thread: the solve takes 40 nodes, the questions up to
    // 10 plies 36 more and the one of 12 plies 91, so 120 nodes stop that one.
    let args = ["solve", "4x4", "--length", "--threads", "1"];
    let output = run(&[&args[..], &["--max-nodes", "120", "--json", "--quiet"]].concat());
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["winner"], "black");
    assert_eq!(json["stopped_by"], "node_limit");
    assert_eq!(json["length"], serde_json::Value::Null);
    let search = &json["length_search"];
    let probes = search["probes"].as_array().unwrap();
    let asked: Vec<u64> = probes
        .iter()
        .map(|p| p["plies"].as_u64().unwrap())
        .collect();
    assert_eq!(asked, [2, 4, 6, 8, 10]);
    assert!(probes.iter().all(|p| p["wins"] == false));
    assert_eq!(search["unanswered"]["plies"], 12);
    assert_eq!(search["at_least"], 12);
    let output = run(&[&args[..], &["--max-nodes", "120", "--quiet"]].concat());
    let text = stdout(&output);
    assert!(text.contains("second player (black) wins"), "{text}");
    assert!(
        text.contains(
            "length     at least 12 plies: 5 questions answered, stopped on the one of 12 plies"
        ),
        "{text}"
    );
    // Another run goes on from the answers of a stopped one.
    let dir = scratch("length-try");
    let tried = dir.join("4x4-length.json");
    let output = run(&[
        &args[..],
        &[
            "--max-nodes",
            "120",
            "--quiet",
            "--out",
            tried.to_str().unwrap(),
        ],
    ]
    .concat());
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    // Another run goes on from its answers: it asks only 12 and 14.
    let tried = tried.to_str().unwrap();
    let output = run(&[&args[..], &["--length-resume", tried, "--json", "--quiet"]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["length"], 14);
    let plies = |list: &str| -> Vec<u64> {
        let answers = json["length_search"][list].as_array().unwrap();
        answers
            .iter()
            .map(|p| p["plies"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(
        (plies("earlier"), plies("probes")),
        (vec![2, 4, 6, 8, 10], vec![12, 14])
    );
    // Answers of another position, or a resume without --length, are bad input.
    let other = dir.join("5x4.json");
    solve_json(&["5x4", "--out", other.to_str().unwrap()]);
    let other = other.to_str().unwrap();
    assert_input_error(&[&args[..], &["--length-resume", other]].concat(), "not of");
    assert_input_error(&["solve", "4x4", "--length-resume", tried], "add --length");
    std::fs::remove_dir_all(&dir).ok();
}

/// A solve killed while it writes its proof keeps what it found: `--out` is written
/// when the extraction starts, marked `proof_unfinished`, and a run resumed from it
/// asks no length question again.
#[test]
fn a_kill_while_writing_the_proof_keeps_the_length() {
    let dir = scratch("kill-proof");
    let (out, proof) = (dir.join("5x5.json"), dir.join("5x5.cert"));
    let (out, proof) = (out.to_str().unwrap(), proof.to_str().unwrap());
    let args = ["solve", "5x5", "--length", "--threads", "1", "--quiet"];
    let mut child = Command::new(program())
        .args([&args[..], &["--out", out, "--proof", proof]].concat())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The extraction takes most of a second; the file appears when it starts.
    let started = std::time::Instant::now();
    let text = loop {
        if let Ok(text) = std::fs::read_to_string(out) {
            break text;
        }
        assert!(child.try_wait().unwrap().is_none(), "the solve ended first");
        assert!(started.elapsed().as_secs() < 300, "no --out file");
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["status"], "solved");
    assert_eq!(json["stopped_by"], "proof_unfinished");
    assert_eq!(json["winner"], "black");
    assert_eq!(json["length"], 26);
    assert_eq!(json["proof"], serde_json::Value::Null);
    assert!(
        !Path::new(proof).exists(),
        "the proof was written before the kill"
    );
    let output = run(&[
        &args[..],
        &["--length-resume", out, "--proof", proof, "--json"],
    ]
    .concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["length"], 26);
    assert_eq!(json["stopped_by"], serde_json::Value::Null);
    assert_eq!(json["length_search"]["probes"].as_array().unwrap().len(), 0);
    assert!(!json["length_search"]["earlier"]
        .as_array()
        .unwrap()
        .is_empty());
    let (code, verified) = verify_json(proof);
    assert_eq!(code, Some(0));
    assert_eq!(verified.length, Some(26));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--length-guess` starts the questions there, goes down after each "yes" and up
/// after each "no", and finds the same length; the JSON says where it started.
#[test]
fn a_length_guess_starts_the_questions_there() {
    let asked = |guess: &str| -> (u64, Vec<(u64, bool)>, serde_json::Value) {
        let output = run(&[
            "solve",
            "4x4",
            "--length",
            "--length-guess",
            guess,
            "--threads",
            "1",
            "--json",
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let probes = json["length_search"]["probes"].as_array().unwrap();
        let answers = probes
            .iter()
            .map(|p| (p["plies"].as_u64().unwrap(), p["wins"].as_bool().unwrap()))
            .collect();
        let length = json["length"].as_u64().unwrap();
        (length, answers, json["solver"]["length_guess"].clone())
    };
    // 4x4 lasts 14 plies, black winning: its questions are of even plies.
    assert_eq!(
        asked("18"),
        (
            14,
            vec![(18, true), (16, true), (14, true), (12, false)],
            serde_json::json!(18)
        )
    );
    assert_eq!(asked("11").1, [(12, false), (14, true)]);
    assert_eq!(asked("0").1.len(), 7);
    assert_input_error(&["solve", "4x4", "--length-guess", "14"], "add --length");
    let output = run(&["solve", "4x4", "--length", "--length-guess", "400"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not in 0..=253"),
        "{}",
        stderr(&output)
    );
}

/// `campaign run` killed with SIGKILL at random moments, continued each time by the
/// same command, ends with the right answer and a certificate that `verify DIR`
/// accepts; SIGTERM stops a run cleanly (exit 3), also when sent twice (the parts
/// being written given up), and `campaign status` shows the runs.
#[test]
fn campaign_survives_kill_9_and_sigterm() {
    let dir = scratch("campaign-5x5");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().unwrap();
    let args = [
        "campaign",
        "run",
        path,
        "5x5",
        "--threads",
        "2",
        "--job-nodes",
        "20000",
        "--checkpoint-every",
        "0.3",
        "--tt-mb",
        "64",
        "-q",
    ];
    let mut rng = fastrand::Rng::with_seed(9);
    let mut kills = 0;
    let mut terms = 0;
    let solved = loop {
        assert!(kills + terms < 40, "the campaign never ended");
        let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the binary runs");
        // Random moments; the kills come early (a whole solve takes about a second
        // on a fast machine), so that at least three land mid-run.
        let killing = kills < 6;
        let wait = if killing {
            rng.u64(100..500)
        } else {
            rng.u64(150..1500)
        };
        std::thread::sleep(std::time::Duration::from_millis(wait));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let signal = if killing { "-KILL" } else { "-TERM" };
        let pid = child.id().to_string();
        let sent = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(sent.success());
        if signal == "-TERM" && terms % 2 == 1 {
            // A second stop request: the parts being written are given up.
            std::thread::sleep(std::time::Duration::from_millis(rng.u64(0..50)));
            let _ = Command::new("kill").args([signal, &pid]).status();
        }
        let status = child.wait().unwrap();
        if signal == "-KILL" {
            kills += 1;
        } else if status.code() == Some(3) {
            terms += 1;
        } else {
            // It finished before the signal arrived.
            break status;
        }
        if kills + terms > 12 {
            // Enough interruptions: let it finish.
            let output = run(&args);
            break output.status;
        }
    };
    assert_eq!(
        solved.code(),
        Some(0),
        "after {kills} kills and {terms} stops"
    );
    assert!(kills >= 3, "only {kills} kills landed mid-run");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["winner"], "black");
    assert_eq!(result["status"], "solved");
    // Run again: solved already, nothing changes.
    let runs_before = std::fs::read(dir.join("master.ckpt")).unwrap();
    let again = run(&args);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("solved already"),
        "{}",
        stdout(&again)
    );
    assert_eq!(std::fs::read(dir.join("master.ckpt")).unwrap(), runs_before);
    let verified = run(&["verify", path]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(stdout(&verified).contains("the proof holds"));
    let status = run(&["campaign", "status", path, "--json"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let status: serde_json::Value = serde_json::from_str(&stdout(&status)).unwrap();
    assert_eq!(status["status"], "solved");
    assert!(status["runs"].as_array().unwrap().len() >= 2);
    // Black wins 5x5: each of White's thirteen first moves is settled as a loss, and
    // the root, depth 0, is solved.
    let progress = &status["progress"];
    let first_moves = progress["first_moves"].as_array().unwrap();
    assert_eq!(first_moves.len(), 13, "{progress}");
    assert!(first_moves
        .iter()
        .all(|m| m["outcome"] == "loss" && m["disproof"] == 0));
    assert_eq!(progress["depths"][0]["positions"], 1);
    assert_eq!(progress["depths"][0]["solved"], 1);
    assert!(
        progress["parts"]["count"].as_u64().unwrap() >= 1,
        "{progress}"
    );
    let text = stdout(&run(&["campaign", "status", path]));
    assert!(
        text.contains("first      13 of 13 moves settled: "),
        "{text}"
    );
    assert!(dir.join("numbers.svg").exists());

    // Another position in the same directory: refused, exit 2.
    assert_input_error(
        &["campaign", "run", path, "5x5", "--moves", "a2-a3", "-q"],
        "not",
    );
    // A damaged checkpoint: named, exit 2, left as it was.
    let checkpoint = dir.join("master.ckpt");
    let mut bytes = std::fs::read(&checkpoint).unwrap();
    bytes[20] ^= 4;
    std::fs::write(&checkpoint, &bytes).unwrap();
    assert_input_error(&args, "master.ckpt");
    assert_eq!(std::fs::read(&checkpoint).unwrap(), bytes);
    assert_input_error(&["campaign", "status", path], "master.ckpt");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `campaign snapshot` keeps a stopped campaign in one file, `campaign restore`
/// makes a new directory from it, and the restored campaign runs to a certificate
/// that holds; bad input exits 2.
#[test]
fn campaign_snapshot_and_restore() {
    let dir = scratch("campaign-snapshot");
    let (campaign, restored, file) = (
        dir.join("campaign"),
        dir.join("restored"),
        dir.join("5x5.snapshot"),
    );
    let (c, r, f) = (
        campaign.to_str().unwrap(),
        restored.to_str().unwrap(),
        file.to_str().unwrap(),
    );
    let args = |path| {
        [
            "campaign",
            "run",
            path,
            "5x5",
            "--threads",
            "1",
            "--job-nodes",
            "1000",
            "--tt-mb",
            "16",
            "-q",
        ]
    };
    let stopped = run(&[&args(c)[..], &["--time-limit", "0.25"]].concat());
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr(&stopped));
    let written = run(&["campaign", "snapshot", c, f]);
    assert!(written.status.success(), "{}", stderr(&written));
    assert!(stdout(&written).contains("bytes"), "{}", stdout(&written));

    let made = run(&["campaign", "restore", f, r]);
    assert!(made.status.success(), "{}", stderr(&made));
    let text = stdout(&made);
    // The job size is campaign.json's, so continuing needs no flag for it.
    assert!(text.contains(&format!("campaign run {r} 5x5")), "{text}");
    assert!(!text.contains("--job-nodes"), "{text}");
    let status = run(&["campaign", "status", r, "--json"]);
    let status: serde_json::Value = serde_json::from_str(&stdout(&status)).unwrap();
    assert_eq!(status["restores"][0]["after_runs"], 1);
    // The solved leaves are kept, unproven, not opened again.
    assert_eq!(status["restores"][0]["reopened"], 0);
    assert_eq!(status["restores"][0]["kept"], status["dag"]["unproven"]);
    assert_eq!(status["runs"][0]["team"], 1);
    assert_eq!(status["runs"][0]["job_nodes"], 1000);
    assert_eq!(status["runs"][0]["race_moves"], 4);
    assert_eq!(status["runs"][0]["defer_proofs"], false);
    assert_eq!(status["stored"], 0);
    let solved = run(&args(r));
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    let verified = run(&["verify", r]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(stdout(&verified).contains("the proof holds"));
    // Restored once more, the solved root's givens have lost their proofs: the
    // campaign is open until they are proven again.
    let again = dir.join("again.snapshot");
    let a = again.to_str().unwrap();
    assert!(run(&["campaign", "snapshot", r, a]).status.success());
    let reproving = dir.join("reproving");
    let rp = reproving.to_str().unwrap();
    assert!(run(&["campaign", "restore", a, rp]).status.success());
    let status_of = |path| -> serde_json::Value {
        serde_json::from_str(&stdout(&run(&["campaign", "status", path, "--json"]))).unwrap()
    };
    assert_eq!(status_of(r)["status"], "solved");
    let reopened = status_of(rp);
    assert_eq!(reopened["status"], "unknown", "{reopened}");
    assert!(reopened["dag"]["unproven_given"].as_u64().unwrap() > 0);

    // Only into a new or empty directory; a file that is no snapshot, or none;
    // a directory that holds no campaign.
    assert_input_error(&["campaign", "restore", f, c], "not an empty directory");
    let other = dir.join("other.snapshot");
    std::fs::write(&other, b"not a snapshot").unwrap();
    let o = other.to_str().unwrap();
    let fresh = dir.join("fresh");
    let fr = fresh.to_str().unwrap();
    assert_input_error(&["campaign", "restore", o, fr], "damaged");
    assert_input_error(&["campaign", "restore", fr, fr], "no such file");
    assert!(!fresh.exists());
    assert_input_error(
        &["campaign", "snapshot", dir.to_str().unwrap(), o],
        "no campaign",
    );
    let inside = campaign.join("master.ckpt");
    assert_input_error(
        &["campaign", "snapshot", c, inside.to_str().unwrap()],
        "inside the campaign",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
