//! The outline of a proof agrees with the verifier's report: sizes, heights and
//! positions by ply, and walking it from the root meets every expanded position.

use std::path::PathBuf;

use breakthrough_engine::Position;

use crate::outline::{Below, Outline};
use crate::{read_parts, Certificate};

fn result_parts(board: &str) -> Vec<Certificate> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../results/{board}.cert"));
    read_parts(&std::fs::read(&path).expect("a results certificate")).expect("readable")
}

/// Walks the outline from `id` at `position`; returns the expanded positions met
/// (each once, in the stream's order).
fn walk(outline: &Outline, id: usize, position: &Position, ply: u32, met: &mut Vec<usize>) {
    met.push(id);
    let node = outline.nodes()[id];
    assert_eq!(node.ply, ply);
    let mut below = 0;
    let mut height = 0;
    for step in outline.moves(id, position).expect("readable moves") {
        let reached = match step.below {
            Below::Expanded(child) => {
                assert_eq!(child, met.len(), "children come in the stream's order");
                walk(outline, child, &step.after, ply + 1, met);
                below += outline.nodes()[child].size;
                outline.nodes()[child].height
            }
            Below::Transposition(earlier) => {
                assert!(
                    earlier < met.len(),
                    "a transposition of a position met before"
                );
                outline.nodes()[earlier].height
            }
            Below::Settled(plies) => plies,
            Below::Given | Below::Finished | Below::HeldOut => 0,
        };
        height = height.max(1 + reached);
    }
    assert_eq!(node.size, 1 + below);
    assert_eq!(node.height, height);
}

#[test]
fn outlines_agree_with_the_verifier() {
    for board in ["3x5", "4x5", "5x4", "3x6", "5x5"] {
        for part in result_parts(board) {
            let report = part.verify().expect("verifies");
            let outline = Outline::new(&part).expect("outlined");
            assert_eq!(outline.nodes().len() as u64, report.positions, "{board}");
            assert_eq!(outline.nodes()[0].size, report.positions);
            assert_eq!(outline.by_ply(), &report.depth_histogram[..], "{board}");
            let root_height = outline.nodes()[0].height;
            match part.claim() {
                crate::Claim::HoldsOut(bound) => assert_eq!(root_height.min(bound), report.height),
                _ => assert_eq!(root_height, report.height, "{board}"),
            }
            let mut met = Vec::new();
            walk(&outline, 0, part.root(), 0, &mut met);
            assert_eq!(met.len() as u64, report.positions);
        }
    }
}

#[test]
fn a_damaged_stream_is_an_error_not_a_panic() {
    let part = &result_parts("3x5")[0];
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..300 {
        let mut stream = part.stream().to_vec();
        let at = rng.usize(..stream.len());
        stream[at] = rng.u8(..);
        if rng.bool() {
            stream.truncate(rng.usize(..stream.len()));
        }
        let damaged = Certificate {
            stream,
            ..part.clone()
        };
        let _ = Outline::new(&damaged);
    }
}
