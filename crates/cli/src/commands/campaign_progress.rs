//! What a campaign's DAG has settled, for `campaign status`: the root's moves with
//! their outcomes, the share of each depth solved, and the sizes of the proofs
//! written. The root's proof number rises as the search learns how hard the
//! position is; what is settled only grows (but for a restore from a snapshot,
//! which opens the solved leaves again).

use std::path::Path;

use breakthrough_campaign::{store, Checkpoint};
use breakthrough_result::{
    CampaignProgress, DepthCount, FirstMove, Outcome, PartSizes, ProgressSample,
};
use breakthrough_solver::Pn;

use breakthrough_cli::solve_result::{outcome, proof_number};

/// The progress of the campaign whose master's state is `checkpoint`; the part sizes
/// only with the campaign's directory `dir`.
pub fn progress(checkpoint: &Checkpoint, dir: Option<&Path>) -> CampaignProgress {
    let dag = &checkpoint.dag;
    let root = dag.root();
    let first_moves = root
        .edges
        .iter()
        .zip(dag.first_moves())
        .map(|(edge, wins)| {
            // The child's numbers are its side to move's: the mover proves its move
            // wins by proving the child lost.
            let (proof, disproof) = match edge.child {
                // The move reaches the goal.
                None => (proof_number(Pn::ZERO), proof_number(Pn::INF)),
                Some(child) => {
                    let node = &dag.nodes[child as usize];
                    (proof_number(node.delta), proof_number(node.phi))
                }
            };
            FirstMove {
                mv: root.position.to_move_text(edge.step).to_string(),
                outcome: outcome(wins),
                proof,
                disproof,
            }
        })
        .collect();
    let depths = dag
        .depth_counts()
        .into_iter()
        .enumerate()
        .map(|(depth, (positions, solved))| DepthCount {
            depth: depth as u32,
            positions,
            solved,
        })
        .collect();
    let course = checkpoint
        .progress
        .iter()
        .map(|p| ProgressSample {
            seconds: p.seconds,
            nodes: p.nodes,
            stored: p.stored,
            first_won: u64::from(p.first_won),
            first_lost: u64::from(p.first_lost),
            positions: p.depths.iter().map(|d| d.0).collect(),
            solved: p.depths.iter().map(|d| d.1).collect(),
        })
        .collect();
    CampaignProgress {
        first_moves,
        depths,
        parts: dir.map(parts),
        course,
    }
}

/// The sizes of the certificate parts in the campaign's directory `dir`.
pub fn parts(dir: &Path) -> PartSizes {
    part_sizes(&store::part_sizes(dir))
}

/// A summary of `sizes`, smallest first.
fn part_sizes(sizes: &[u64]) -> PartSizes {
    let at = |share: f64| -> u64 {
        if sizes.is_empty() {
            0
        } else {
            sizes[((sizes.len() - 1) as f64 * share).round() as usize]
        }
    };
    PartSizes {
        count: sizes.len() as u64,
        bytes: sizes.iter().sum(),
        median_bytes: at(0.5),
        p99_bytes: at(0.99),
        max_bytes: sizes.last().copied().unwrap_or(0),
    }
}

/// The progress as `campaign status` prints it: the first moves settled on one
/// line, the share solved of depths 1 to 8, the parts.
pub fn print(progress: &CampaignProgress) {
    let settled: Vec<String> = progress
        .first_moves
        .iter()
        .filter_map(|m| {
            let word = match m.outcome {
                Outcome::Win => "wins",
                Outcome::Loss => "loses",
                Outcome::Unproven => return None,
            };
            Some(format!("{} {word}", m.mv))
        })
        .collect();
    outln!(
        "first      {} of {} moves settled{}{}",
        settled.len(),
        progress.first_moves.len(),
        if settled.is_empty() { "" } else { ": " },
        settled.join(", ")
    );
    let depths: Vec<String> = progress
        .depths
        .iter()
        .filter(|d| d.depth > 0 && d.depth <= 8)
        .map(|d| {
            format!(
                "{} {:.1}% of {}",
                d.depth,
                100.0 * d.solved as f64 / d.positions.max(1) as f64,
                d.positions
            )
        })
        .collect();
    outln!("solved     by depth: {}", depths.join(", "));
    if let Some(parts) = &progress.parts {
        outln!(
            "parts      {} proofs, {:.1} MiB: median {} bytes, 99% under {}, largest {}",
            parts.count,
            parts.bytes as f64 / (1 << 20) as f64,
            parts.median_bytes,
            parts.p99_bytes,
            parts.max_bytes
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_sizes_summarise_sorted_sizes() {
        let sizes: Vec<u64> = (1..=100).collect();
        let summary = part_sizes(&sizes);
        assert_eq!(summary.count, 100);
        assert_eq!(summary.bytes, 5050);
        assert_eq!(summary.median_bytes, 51);
        assert_eq!(summary.p99_bytes, 99);
        assert_eq!(summary.max_bytes, 100);
        assert_eq!(part_sizes(&[]).max_bytes, 0);
    }
}
