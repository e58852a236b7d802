//! How fast the master can store solved positions: each with its own commit (a
//! batch of one, as before group commit) against batches of `Batch::POSITIONS`,
//! taking turns, medians of the runs. Writes into a temporary directory.
//!
//! `cargo run --release -p breakthrough-campaign --example store_bench -- [PARTS] [BYTES] [RUNS]`
//! (defaults: 640 parts of 30,000 bytes, 3 runs of each).

use std::time::Instant;

use breakthrough_campaign::store::{Batch, Store};
use breakthrough_solver::Key;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<usize>().expect("a number"));
    let parts = args.next().unwrap_or(640);
    let bytes = args.next().unwrap_or(30_000);
    let runs = args.next().unwrap_or(3);
    let root = std::env::temp_dir().join(format!("store-bench-{}", std::process::id()));
    let mut rates = [Vec::new(), Vec::new()];
    for run in 0..runs {
        for (mode, per_batch) in [1, Batch::POSITIONS].into_iter().enumerate() {
            let dir = root.join(format!("{run}-{per_batch}"));
            std::fs::create_dir_all(&dir).expect("a temporary directory");
            let store = Store::open(&dir, true).expect("a new store");
            let mut batch = Batch::default();
            let started = Instant::now();
            for i in 0..parts as u64 {
                // Distinct keys; the bytes are not a certificate (nothing reads them).
                let key = Key {
                    white: i,
                    black: i << 32,
                    black_to_move: false,
                    horizon: 0,
                };
                batch.push(
                    key,
                    i % 2 == 0,
                    vec![(i % 251) as u8; bytes],
                    Vec::new(),
                    Vec::new(),
                );
                if batch.len() >= per_batch {
                    store.commit(&dir, &mut batch).expect("committed");
                }
            }
            store.commit(&dir, &mut batch).expect("committed");
            let rate = parts as f64 / started.elapsed().as_secs_f64();
            assert_eq!(store.len().expect("a count"), parts as u64);
            rates[mode].push(rate);
            println!("run {run}: {per_batch:>3} per commit: {rate:8.0} positions/s");
        }
    }
    std::fs::remove_dir_all(&root).ok();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (one, batched) = (median(&mut rates[0]), median(&mut rates[1]));
    println!(
        "median: {one:.0} positions/s one at a time, {batched:.0} in batches of {}: {:.1}x ({parts} parts of {bytes} bytes)",
        Batch::POSITIONS,
        batched / one
    );
}
