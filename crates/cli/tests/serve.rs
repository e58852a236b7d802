//! `breakthrough serve` as a process: it answers, stops cleanly on SIGTERM with its
//! store intact, refuses bad settings and a damaged store, and `--prepare` fills
//! the store; and it holds under attack: slow and idle clients are cut, SIGTERM
//! stops it at once whatever the connections do, a flood of hard positions does
//! not hold up an easy one, equivalent queries share one cached answer, the proof
//! browser stays inside its directory, a contradictory store is reported, a
//! request for another host is refused, and a store killed mid-solve answers right.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    breakthrough_testing::scratch("serve", name)
}

/// A server's process, killed when dropped (when a test fails, say).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server on a free port of 127.0.0.1; returns it and its address.
fn start(store: &Path) -> (Server, String) {
    start_with(store, &[])
}

/// [`start`], with more options.
fn start_with(store: &Path, options: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--threads",
            "1",
            "--tt-mb",
            "16",
        ])
        .args([
            "--results",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../results"),
        ])
        .arg("--store")
        .arg(store)
        .args(options)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .map(str::to_string);
    let Some(addr) = addr else {
        let _ = child.kill();
        panic!("no address in `{line}`");
    };
    (Server(child), addr)
}

/// The body of a GET (HTTP/1.0: the server closes the connection after it).
fn get(addr: &str, path: &str) -> (u16, serde_json::Value) {
    let (status, _, body) = get_as(addr, path, addr);
    (status, serde_json::from_str(&body).unwrap())
}

/// A GET with `host` in its Host header: the status, the head and the body.
fn get_as(addr: &str, path: &str, host: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (status, head.to_string(), body.to_string())
}

/// The error of a server that refuses to start on `store` (exit 1).
fn refused(store: &Path, more: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store"])
        .arg(store)
        .args(more)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{err}");
    err
}

fn stop(mut server: Server) -> String {
    let child = &mut server.0;
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    let mut rest = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut rest)
        .unwrap();
    assert!(exit.success(), "exit {exit:?}: {rest}");
    rest
}

#[test]
fn serves_then_stops_on_sigterm_with_the_store_intact() {
    let store = scratch("sigterm");
    let (child, addr) = start(&store);
    let (status, answer) = get(&addr, "/api/v1/position?board=3x5");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["winner"], "black");
    assert_eq!(answer["length"], 18);
    assert_eq!(answer["source"], "solved");
    let (status, answer) = get(&addr, "/api/v1/position?board=3x5&position=oops");
    assert_eq!(status, 400);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("position `oops`"));
    let rest = stop(child);
    assert!(rest.contains("the store is intact"), "{rest}");
    // Started again, the answer comes from the store.
    let (child, addr) = start(&store);
    let (_, answer) = get(&addr, "/api/v1/position?board=3x5");
    assert_eq!(answer["source"], "stored");
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn bad_settings_and_a_damaged_store_are_refused() {
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let output = Command::new(bin)
        .args(["serve", "--move-time", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--move-time 0"));
    let store = scratch("damaged");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("explorer.redb"), [7u8; 4096]).unwrap();
    let output = Command::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--store"])
        .arg(&store)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("explorer.redb") && err.contains("damaged"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn prepare_fills_the_store_with_the_perfect_play_line() {
    let store = scratch("prepare");
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let output = Command::new(bin)
        .args([
            "serve",
            "--prepare",
            "4x5",
            "--threads",
            "1",
            "--tt-mb",
            "16",
            "--store",
        ])
        .arg(&store)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // 4x5 lasts 22 plies: 22 positions before the game ends, each solved once.
    assert!(
        out.contains("prepared 4x5: 22 positions on the line (22 solved now)"),
        "{out}"
    );
    let output = Command::new(bin)
        .args(["serve", "--prepare", "4x5", "--store"])
        .arg(&store)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        out.contains("22 positions on the line (0 solved now)"),
        "{out}"
    );
    let (child, addr) = start(&store);
    let (_, line) = get(&addr, "/api/v1/mainline?board=4x5");
    assert_eq!(line["complete"], true);
    assert_eq!(line["moves"].as_array().unwrap().len(), 22);
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

/// `serve --prepare 4x5` on one thread into `store`, its output discarded.
fn prepare_4x5(store: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_breakthrough"));
    command
        .args([
            "serve",
            "--prepare",
            "4x5",
            "--threads",
            "1",
            "--tt-mb",
            "16",
        ])
        .arg("--store")
        .arg(store)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Every answer on 4x5's main line, as the server on `store` gives it: each
/// position's winner and length, and each move's outcome and length.
fn line_answers(store: &Path) -> Vec<serde_json::Value> {
    let (child, addr) = start(store);
    let (_, line) = get(&addr, "/api/v1/mainline?board=4x5");
    assert_eq!(line["complete"], true, "{line}");
    let mut position = breakthrough_engine::Position::start("4x5".parse().unwrap());
    let mut answers = Vec::new();
    for mv in line["moves"].as_array().unwrap() {
        let query = format!("/api/v1/position?board=4x5&position={position}").replace(' ', "+");
        let (status, answer) = get(&addr, &query);
        assert_eq!(status, 200, "{answer}");
        let played: Vec<_> = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].clone(), m["outcome"].clone(), m["length"].clone()))
            .collect();
        answers.push(serde_json::json!([
            answer["winner"],
            answer["length"],
            played
        ]));
        position = position.play(position.parse_move(mv.as_str().unwrap()).unwrap());
    }
    assert_eq!(answers.len(), 22, "4x5 lasts 22 plies");
    stop(child);
    answers
}

/// A process killed with SIGKILL while it solves and stores (here `--prepare`, the
/// store's heaviest writer) leaves a store that opens and answers as a store never
/// killed does.
#[test]
fn a_store_killed_mid_solve_opens_and_answers_right() {
    let store = scratch("sigkill");
    let mut kills = 0;
    for millis in [200, 600, 1200, 2000, 3000, 4500] {
        let mut child = prepare_4x5(&store).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(millis));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(kills >= 3, "only {kills} kills landed mid-run");
    // Whatever each kill left, the store opens, and the next run finishes the line.
    assert!(prepare_4x5(&store).status().unwrap().success());
    let fresh = scratch("sigkill-fresh");
    assert!(prepare_4x5(&fresh).status().unwrap().success());
    assert_eq!(line_answers(&store), line_answers(&fresh));
    let _ = std::fs::remove_dir_all(&store);
    let _ = std::fs::remove_dir_all(&fresh);
}

/// Whether the server closed `stream` (it reads to the end within two seconds).
fn closed(stream: &mut TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut rest = Vec::new();
    match stream.read_to_end(&mut rest) {
        Ok(_) => true,
        Err(err) => err.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn slow_and_idle_clients_are_cut_and_sigterm_stops_at_once() {
    let store = scratch("slow");
    let options = ["--head-timeout", "1", "--move-time", "60"];
    let (child, addr) = start_with(&store, &options);
    // Clients that send part of a request's head, and clients that send nothing.
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|i| {
            let mut stream = TcpStream::connect(&addr).unwrap();
            if i % 2 == 0 {
                write!(stream, "GET /api/v1/results HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
            }
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    for (i, stream) in slow.iter_mut().enumerate() {
        assert!(closed(stream), "connection {i} is still open");
    }
    let (status, _) = get(&addr, "/api/v1/results");
    assert_eq!(status, 200);
    // SIGTERM with a request half sent and a long solve that a request waits for.
    let mut half = TcpStream::connect(&addr).unwrap();
    write!(half, "GET /api/v1/results HTTP/1.1\r\nHost: x\r\n").unwrap();
    let waiting = {
        let addr = addr.clone();
        std::thread::spawn(move || get_as(&addr, "/api/v1/position?board=8x8", &addr))
    };
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let rest = stop(child);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "stopped after {took:?}: {rest}"
    );
    assert!(rest.contains("the store is intact"), "{rest}");
    let _ = waiting.join();
    // The store is closed and unlocked: another server opens it.
    let (child, addr) = start(&store);
    assert_eq!(get(&addr, "/api/v1/results").0, 200);
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

/// `count` distinct positions of 8x8, two plies from the start.
fn hard_positions(count: usize) -> Vec<String> {
    use breakthrough_engine::Position;
    let start = Position::start("8x8".parse().unwrap());
    let mut positions = Vec::new();
    for first in start.legal_moves() {
        let after = start.play(first);
        for second in after.legal_moves() {
            positions.push(after.play(second).to_string());
        }
    }
    positions.truncate(count);
    assert_eq!(positions.len(), count);
    positions
}

fn position_path(board: &str, position: &str) -> String {
    let position = position.replace('/', "%2F").replace(' ', "+");
    format!("/api/v1/position?board={board}&position={position}")
}

#[test]
fn hard_positions_give_way_to_an_easy_one_and_are_remembered() {
    let store = scratch("fair");
    let options = ["--move-time", "3", "--slice", "0.5"];
    let (child, addr) = start_with(&store, &options);
    // 70 requests for hard positions, each waiting for its answer meanwhile.
    let flood: Vec<_> = hard_positions(70)
        .into_iter()
        .map(|position| {
            let addr = addr.clone();
            std::thread::spawn(move || get(&addr, &position_path("8x8", &position)))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let (status, easy) = get(&addr, "/api/v1/position?board=4x4");
    let took = started.elapsed();
    assert_eq!(status, 200, "{easy}");
    assert_eq!(easy["winner"], "black", "not solved in time: {easy}");
    assert!(took < Duration::from_secs(3), "answered after {took:?}");
    let answers: Vec<_> = flood.into_iter().map(|f| f.join().unwrap()).collect();
    assert!(answers.iter().all(|(status, _)| *status == 200));
    // The hard ones gave their thread up, one after another, and are remembered.
    let hard = answers.iter().filter(|(_, a)| a["hard"] == true).count();
    assert!(hard > 0, "no position was remembered as hard");
    stop(child);
    // A solve that reaches its limit is remembered too, and not queued again.
    let options = ["--move-time", "5", "--solve-limit", "0.5"];
    let (child, addr) = start_with(&store, &options);
    let (_, first) = get(&addr, "/api/v1/position?board=7x7");
    assert_eq!(first["hard"], true, "{first}");
    let (_, again) = get(&addr, "/api/v1/position?board=7x7");
    assert_eq!(again["hard"], true, "{again}");
    assert_eq!(again["solving"], false, "{again}");
    assert!(again["retry_after"].as_u64().unwrap() > 500, "{again}");
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

/// The server's resident memory, in KiB.
fn resident_kib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.0.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn equivalent_queries_share_one_cached_answer() {
    let store = scratch("flood");
    let (child, addr) = start(&store);
    let start = "BBBB/BBBB/4/WWWW/WWWW w";
    assert_eq!(get(&addr, &position_path("4x5", start)).0, 200);
    let before = resident_kib(&child);
    // 20,000 spellings of one query: padding, percent-escapes, the board's case.
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                for i in 0..5_000usize {
                    let n = thread * 5_000 + i;
                    let board = ["4x5", "4X5", "%34x%35", "4%785"][n % 4];
                    let pad = "&".repeat(n / 4 % 450);
                    let slash = if n / 3600 % 2 == 0 { "/" } else { "%2F" };
                    let position = start.replace('/', slash).replace(' ', "+");
                    let path =
                        format!("/api/v1/position?{pad}board={board}&position={position}{pad}");
                    let (status, _, _) = get_as(&addr, &path, &addr);
                    assert_eq!(status, 200, "{path}");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let grown = resident_kib(&child).saturating_sub(before);
    assert!(grown < 3 * 1024, "memory grew by {grown} KiB");
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn the_proof_browser_stays_inside_its_directory() {
    let scratch = scratch("proof");
    let dir = scratch.join("campaign");
    breakthrough_testing::solved_campaign_4x5(&dir);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    let parts: Vec<&str> = manifest["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(parts.len() >= 3, "{} parts", parts.len());
    // Part 1 becomes a symbolic link to a copy outside, part 2 a FIFO.
    let outside = scratch.join("outside.cert");
    std::fs::copy(dir.join(parts[0]), &outside).unwrap();
    std::fs::remove_file(dir.join(parts[0])).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join(parts[0])).unwrap();
    std::fs::remove_file(dir.join(parts[1])).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join(parts[1]))
        .status()
        .unwrap();
    assert!(made.success());
    let store = scratch.join("store");
    let (child, addr) = start_with(&store, &["--proof", dir.to_str().unwrap()]);
    let absolute = dir.display().to_string();
    for (part, why) in [(1, "symbolic link"), (2, "not a regular file")] {
        let started = Instant::now();
        let (status, answer) = get(&addr, &format!("/api/v1/proof?part={part}"));
        let error = answer["error"].as_str().unwrap_or_default();
        assert_eq!(status, 400, "{answer}");
        assert!(
            error.contains(parts[part - 1]) && error.contains(why),
            "{error}"
        );
        assert!(!error.contains(&absolute), "{error}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }
    // The other parts and the rest of the API still answer.
    assert_eq!(get(&addr, "/api/v1/proof?part=3").0, 200);
    assert_eq!(get(&addr, "/api/v1/position?board=3x4").0, 200);
    stop(child);
    // A store that is a symbolic link is refused, and nothing is made where it
    // points.
    let linked = scratch.join("linked");
    std::fs::create_dir_all(&linked).unwrap();
    let target = scratch.join("elsewhere.redb");
    std::os::unix::fs::symlink(&target, linked.join("explorer.redb")).unwrap();
    let err = refused(&linked, &[]);
    assert!(err.contains("symbolic link"), "{err}");
    assert!(!target.exists());
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn answers_that_contradict_each_other_are_reported_not_served() {
    use breakthrough_engine::{Color, Position};
    use breakthrough_explorer::store::{Known, Store};
    let store = scratch("contradict");
    let (child, addr) = start(&store);
    let (_, answer) = get(&addr, "/api/v1/position?board=4x5");
    assert_eq!(answer["winner"], "black");
    stop(child);
    // One value changed to another possible one: White to move wins in 7.
    let start_position = Position::start("4x5".parse().unwrap());
    let changed = Known {
        winner: Color::White,
        length: 7,
    };
    Store::open(&store)
        .unwrap()
        .put_all(&[(start_position, changed)])
        .unwrap();
    let (child, addr) = start(&store);
    let (status, answer) = get(&addr, "/api/v1/position?board=4x5");
    assert_eq!(status, 500, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("contradict"), "{error}");
    assert!(!error.contains(store.to_str().unwrap()), "{error}");
    let rest = stop(child);
    assert!(rest.contains("contradict"), "{rest}");
    // A value no position can have (White to move wins in an even number of
    // plies) is refused at start-up.
    let impossible = Known {
        winner: Color::White,
        length: 8,
    };
    Store::open(&store)
        .unwrap()
        .put_all(&[(start_position, impossible)])
        .unwrap();
    let err = refused(&store, &[]);
    assert!(err.contains("damaged"), "{err}");
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn requests_for_another_host_are_refused() {
    let store = scratch("host");
    let (child, addr) = start(&store);
    let (status, _, body) = get_as(&addr, "/api/v1/position?board=3x4", "evil.example");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("evil.example"), "{body}");
    let (status, _, _) = get_as(&addr, "/api/v1/results", "evil.example:80");
    assert_eq!(status, 403);
    let port = addr.rsplit(':').next().unwrap();
    let (status, head, _) = get_as(&addr, "/", &format!("localhost:{port}"));
    assert_eq!(status, 200);
    let head = head.to_ascii_lowercase();
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    assert!(head.contains("x-frame-options: deny"), "{head}");
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    stop(child);
    let (child, addr) = start_with(&store, &["--allow-host", "Explorer.example"]);
    let (status, _, _) = get_as(&addr, "/api/v1/results", "explorer.example:8080");
    assert_eq!(status, 200);
    stop(child);
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn start_up_errors_say_what_happened_and_what_to_do() {
    let scratch = scratch("start-up");
    std::fs::create_dir_all(&scratch).unwrap();
    // A store path that is a file.
    let file = scratch.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let err = refused(&file, &[]);
    assert!(err.contains("is not a directory"), "{err}");
    // A store too short to be one.
    let short = scratch.join("short");
    std::fs::create_dir_all(&short).unwrap();
    std::fs::write(short.join("explorer.redb"), [0u8; 100]).unwrap();
    let err = refused(&short, &[]);
    assert!(
        err.contains("damaged") && err.contains("100 bytes"),
        "{err}"
    );
    assert!(err.contains("move it away"), "{err}");
    // A --proof that fails leaves no store directory behind.
    let unmade = scratch.join("unmade");
    let missing = scratch.join("missing.cert");
    let err = refused(&unmade, &["--proof", missing.to_str().unwrap()]);
    assert!(err.contains("missing.cert"), "{err}");
    assert!(!unmade.exists());
    let _ = std::fs::remove_dir_all(&scratch);
}
