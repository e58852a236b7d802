//! `breakthrough-lab train`: fits the weights of the solver's estimate of who wins
//! (`breakthrough_solver::estimate`) to positions that campaigns settled, and prints
//! them as the Rust constant to put in `crates/solver/src/estimate.rs`.
//!
//! The model is logistic: the log-odds that the side to move wins is the dot product
//! of the weights with the position's features. It is fitted by Newton's method
//! with a little L2 regularisation (the features are few, so each step solves a
//! small linear system exactly), on every position but a tenth held out to report
//! the fit on positions it did not see.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use breakthrough_campaign::store::Store;
use breakthrough_campaign::Spec;
use breakthrough_cli::InputError;
use breakthrough_engine::{Bitboard, Board, Color, Position};
use breakthrough_proof::outline::{Below, Outline};
use breakthrough_proof::read_parts;
use breakthrough_solver::estimate::{features, FEATURES, FEATURE_NAMES};
use clap::Args;

/// Fit the estimate's weights to the solved positions of campaign stores
/// (`DIR/store.redb`, each position with whether the side to move wins) and print
/// them, with the fit (log-loss and accuracy on the positions held out, against a
/// model that knows only the share of wins).
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Campaign directories whose stores hold the positions (a running campaign's
    /// store is locked: stop it first).
    pub campaigns: Vec<PathBuf>,

    /// Also the positions a certificate file's proof expands (the side to move wins
    /// where it is the winner), at most --sample of them, evenly spread.
    #[arg(long, value_name = "FILE")]
    pub certificate: Vec<PathBuf>,

    /// The most positions taken from each certificate.
    #[arg(long, default_value_t = 200_000)]
    pub sample: u64,

    /// The L2 regularisation's weight, per position.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
}

struct Sample {
    x: [f64; FEATURES],
    wins: bool,
    held_out: bool,
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    let mut samples = Vec::new();
    for dir in &args.campaigns {
        let spec = Spec::read(dir)
            .map_err(|e| InputError(anyhow::anyhow!(e)))?
            .ok_or_else(|| {
                InputError(anyhow::anyhow!(
                    "{} is not a campaign directory",
                    dir.display()
                ))
            })?;
        let board: Board = spec
            .board
            .parse()
            .with_context(|| format!("{}: bad board", dir.display()))?;
        let store = Store::open(dir, false).map_err(|e| InputError(anyhow::anyhow!(e)))?;
        let before = samples.len();
        for (i, (key, wins)) in store.all()?.into_iter().enumerate() {
            let to_move = if key.black_to_move {
                Color::Black
            } else {
                Color::White
            };
            let position =
                Position::try_from_parts(board, Bitboard(key.white), Bitboard(key.black), to_move)
                    .map_err(|e| anyhow::anyhow!("{}: a stored position: {e}", dir.display()))?;
            let x = features(&position).map(f64::from);
            samples.push(Sample {
                x,
                wins,
                held_out: i % 10 == 9,
            });
        }
        eprintln!(
            "{}: {} positions ({board})",
            dir.display(),
            samples.len() - before
        );
    }
    for path in &args.certificate {
        let before = samples.len();
        certificate_samples(path, args.sample, &mut samples)?;
        eprintln!("{}: {} positions", path.display(), samples.len() - before);
    }
    if samples.is_empty() {
        return Err(InputError(anyhow::anyhow!(
            "no positions: name campaigns or --certificate"
        ))
        .into());
    }
    let wins = samples.iter().filter(|s| s.wins).count();
    if wins == 0 || wins == samples.len() {
        bail!("the positions are all of one outcome: nothing to learn");
    }
    let weights = fit(&samples, args.l2);
    let share = wins as f64 / samples.len() as f64;
    let constant = {
        let mut w = [0.0; FEATURES];
        w[0] = (share / (1.0 - share)).ln();
        w
    };
    println!(
        "positions {}, side to move wins {:.1}%",
        samples.len(),
        100.0 * share
    );
    for (name, model) in [("share of wins only", &constant), ("fitted", &weights)] {
        let (loss, accuracy) = fit_on(&samples, model, true);
        println!(
            "{name:<20} held out: log-loss {loss:.4}, accuracy {:.1}%",
            100.0 * accuracy
        );
    }
    println!("\npub const WEIGHTS: [f32; FEATURES] = [");
    for (name, w) in FEATURE_NAMES.iter().zip(weights) {
        println!("    {w:.4}, // {name}");
    }
    println!("];");
    Ok(ExitCode::SUCCESS)
}

/// The positions a certificate's proofs expand, every `stride`-th of them so that
/// at most `sample` are taken from each part.
fn certificate_samples(path: &Path, sample: u64, samples: &mut Vec<Sample>) -> anyhow::Result<()> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let parts =
        read_parts(&bytes).with_context(|| format!("{} is not a certificate", path.display()))?;
    for part in &parts {
        let outline = Outline::new(part)?;
        let stride = (outline.nodes().len() as u64).div_ceil(sample).max(1) as usize;
        let winner = part.winner();
        let root = *part.root();
        if outline.nodes().is_empty() {
            continue;
        }
        // Depth first from the root; positions are not kept by the outline.
        let mut stack = vec![(0usize, root)];
        while let Some((id, position)) = stack.pop() {
            if id % stride == 0 {
                samples.push(Sample {
                    x: features(&position).map(f64::from),
                    wins: position.to_move() == winner,
                    held_out: (id / stride) % 10 == 9,
                });
            }
            for mv in outline.moves(id, &position)? {
                if let Below::Expanded(child) = mv.below {
                    stack.push((child, mv.after));
                }
            }
        }
    }
    Ok(())
}

fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean log-loss and the accuracy of `weights` on the held-out positions (or
/// the others).
fn fit_on(samples: &[Sample], weights: &[f64; FEATURES], held_out: bool) -> (f64, f64) {
    let (mut loss, mut right, mut n) = (0.0, 0, 0);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let p = logistic(dot(&s.x, weights)).clamp(1e-12, 1.0 - 1e-12);
        loss -= if s.wins { p.ln() } else { (1.0 - p).ln() };
        right += usize::from((p > 0.5) == s.wins);
        n += 1;
    }
    (
        loss / f64::from(n.max(1)),
        right as f64 / f64::from(n.max(1)),
    )
}

/// Newton's method on the regularised log-loss of the positions not held out.
fn fit(samples: &[Sample], l2: f64) -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    for _ in 0..25 {
        let mut gradient = [0.0; FEATURES];
        let mut hessian = [[0.0; FEATURES]; FEATURES];
        let mut n = 0.0;
        for s in samples.iter().filter(|s| !s.held_out) {
            let p = logistic(dot(&s.x, &w));
            let error = p - f64::from(u8::from(s.wins));
            let curvature = p * (1.0 - p);
            for ((g, row), xi) in gradient.iter_mut().zip(&mut hessian).zip(&s.x) {
                *g += error * xi;
                for (h, xj) in row.iter_mut().zip(&s.x) {
                    *h += curvature * xi * xj;
                }
            }
            n += 1.0;
        }
        // The bias is not regularised.
        for i in 1..FEATURES {
            gradient[i] += l2 * n * w[i];
            hessian[i][i] += l2 * n;
        }
        hessian[0][0] += 1e-9 * n;
        let step = solve(hessian, gradient);
        let mut size: f64 = 0.0;
        for i in 0..FEATURES {
            w[i] -= step[i];
            size = size.max(step[i].abs());
        }
        if size < 1e-9 {
            break;
        }
    }
    w
}

/// `a x = b` by Gaussian elimination with partial pivoting (`a` is positive
/// definite here).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..FEATURES {
            let factor = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (target, source) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *target -= factor * source;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_a_known_model() {
        // Positions whose outcome follows a known logistic model of two features.
        let mut rng = fastrand::Rng::with_seed(7);
        let truth = [0.5, 2.0, -1.0];
        let samples: Vec<Sample> = (0..20_000)
            .map(|i| {
                let mut x = [0.0; FEATURES];
                x[0] = 1.0;
                x[1] = rng.f64() * 2.0 - 1.0;
                x[2] = rng.f64() * 2.0 - 1.0;
                let z = truth[0] + truth[1] * x[1] + truth[2] * x[2];
                Sample {
                    x,
                    wins: rng.f64() < logistic(z),
                    held_out: i % 10 == 9,
                }
            })
            .collect();
        let w = fit(&samples, 1e-4);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.15, "{w:?}");
        }
        assert!(w[3..].iter().all(|v| v.abs() < 1e-6), "{w:?}");
    }
}
