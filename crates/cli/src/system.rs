//! What the machine offers: memory and cores, for sensible defaults and for reports.

use std::sync::OnceLock;
use std::time::Instant;

use breakthrough_engine::Board;

/// A field of `/proc/<file>` in kB, on Linux; `None` elsewhere or when unreadable.
fn proc_kb(file: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{file}")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Default table size in MiB: what the board's solve needs, so that a small board
/// does not pay for gigabytes (the system spends time on each page of the table when
/// the search first writes it, and the entries land everywhere, so every page is
/// written soon): 64 MiB up to 20 squares, 256 MiB up to 25, 2 GiB up to 30, and for
/// larger boards a quarter of the memory available now, between 64 MiB and 4 GiB
/// (1 GiB when that is unknown). The exact length (`length`) asks the same table
/// many questions, whose answers it keeps: 512 MiB up to 25 squares.
pub fn default_table_mb(board: Board, length: bool) -> usize {
    let quarter = match available_memory_mb() {
        Some(mb) => ((mb / 4) as usize).clamp(64, 4096),
        None => 1024,
    };
    match board.squares() {
        0..=20 => quarter.min(64),
        21..=25 => quarter.min(if length { 512 } else { 256 }),
        26..=30 => quarter.min(2048),
        _ => quarter,
    }
}

/// Seconds since the program started, for the whole-process wall time of a result.
pub fn wall_seconds() -> f64 {
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Notes the program's start; called first thing in `main`.
pub fn mark_start() {
    START.get_or_init(Instant::now);
}

static START: OnceLock<Instant> = OnceLock::new();

/// Memory available now in MiB, where the system tells it.
pub fn available_memory_mb() -> Option<u64> {
    proc_kb("meminfo", "MemAvailable:").map(|kb| kb / 1024)
}

/// Peak resident memory of this process in MiB, where the system tells it.
pub fn peak_memory_mb() -> Option<f64> {
    proc_kb("self/status", "VmHWM:").map(|kb| kb as f64 / 1024.0)
}

/// Cores this process may run on: the default thread count.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The machine in words, for result files: CPU model, logical CPUs and memory.
pub fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cpus = cores();
    let memory = proc_kb("meminfo", "MemTotal:")
        .map(|kb| format!(", {:.0} GiB", kb as f64 / (1 << 20) as f64))
        .unwrap_or_default();
    format!("{model}, {cpus} CPUs{memory}")
}
