//! `breakthrough serve` as a process: it answers, stops cleanly on SIGTERM with its
//! store intact, refuses bad settings and a damaged store, and `--prepare` fills
//! the store.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("serve-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts the server on a free port of 127.0.0.1; returns it and its address.
fn start(store: &Path) -> (Child, String) {
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
    (child, addr)
}

/// The body of a GET (HTTP/1.0: the server closes the connection after it).
fn get(addr: &str, path: &str) -> (u16, serde_json::Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap();
    (status, serde_json::from_str(body).unwrap())
}

fn stop(mut child: Child) -> String {
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
