//! How far the open campaigns have come by what their DAGs have settled, and when
//! that says they end. Part of `breakthrough-lab report`.
//!
//! The measure: the share solved of the top of the DAG, its positions 1 to 8 plies
//! below the root together, from the progress samples the checkpoint keeps. The
//! projection: exponential growth (a straight line through the measure's logarithm
//! against nodes) fitted over the last half of the nodes so far, extended to the
//! share the replayed campaigns had when they ended (`<board>-progress.json`: a solved board's campaign run again from
//! scratch with the samples). Its error: the same projection made for each replay
//! from its own samples a quarter, a half and three quarters of the way, aiming at
//! the other replays' end share, against the nodes it took.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use breakthrough_cli::svg::svg_start;
use breakthrough_result::{CampaignStatus, ProgressSample, Status};

/// The shares of the way at which the replays are projected.
const WAYPOINTS: [f64; 3] = [0.25, 0.5, 0.75];

/// The measure of one sample: solved over positions at depths 1 to 8.
fn measure(sample: &ProgressSample) -> f64 {
    let (solved, positions) = sample
        .solved
        .iter()
        .zip(&sample.positions)
        .skip(1)
        .fold((0u64, 0u64), |(s, p), (&solved, &positions)| {
            (s + solved, p + positions)
        });
    solved as f64 / positions.max(1) as f64
}

/// (nodes, measure) of each sample.
fn points(course: &[ProgressSample]) -> Vec<(f64, f64)> {
    course
        .iter()
        .map(|s| (s.nodes as f64, measure(s)))
        .collect()
}

/// The nodes at which exponential growth fitted to `points` from half their last
/// nodes on (a least-squares line through the logarithm of the measure, where it
/// is above 0) reaches `target`; None when it does not rise. A straight line
/// through the measure itself, tried first, missed the replays' ends by 3.0x and
/// 5.4x half way (docs/performance-log.md).
fn project(points: &[(f64, f64)], target: f64) -> Option<f64> {
    let last = points.last()?;
    if last.1 >= target {
        return Some(last.0);
    }
    let recent: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.0 >= last.0 / 2.0 && p.1 > 0.0)
        .map(|p| (p.0, p.1.ln()))
        .collect();
    let ((mean_x, mean_y), slope) = crate::growth::line(&recent)?;
    if slope <= 0.0 {
        return None;
    }
    Some((mean_x + (target.ln() - mean_y) / slope).max(last.0))
}

/// A solved campaign replayed with its samples.
struct Replay {
    board: String,
    points: Vec<(f64, f64)>,
    /// Nodes to the solve.
    nodes: f64,
    /// The measure when it was solved (its last sample before the root's).
    end_share: f64,
}

/// The replays in `dir`: `<board>-progress.json`, solved campaigns' statuses.
fn replays(dir: &Path) -> anyhow::Result<Vec<Replay>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(board) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix("-progress.json"))
        else {
            continue;
        };
        let status = breakthrough_cli::results::read_campaign(&path)
            .with_context(|| format!("{} is not a campaign's status", path.display()))?;
        let course = status.progress.map(|p| p.course).unwrap_or_default();
        if status.status != Status::Solved || course.len() < 2 {
            continue;
        }
        let Some(end_share) = end_share(&course) else {
            continue;
        };
        let points = points(&course);
        found.push(Replay {
            board: board.to_string(),
            points,
            nodes: status.nodes as f64,
            end_share,
        });
    }
    found.sort_by(|a, b| a.board.cmp(&b.board));
    Ok(found)
}

/// The measure just before the root's solve, what a projection can aim at: the
/// samples from the solve on are the solved root's.
fn end_share(course: &[ProgressSample]) -> Option<f64> {
    course
        .iter()
        .rev()
        .find(|sample| sample.solved.first().is_none_or(|&root| root == 0))
        .map(measure)
}

/// The median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// The section: the replays' backtests, each open campaign's measure and its
/// projection, and `<board>-progress.svg` for each open campaign with samples.
pub fn section(
    dir: &Path,
    found: &[(String, CampaignStatus)],
    text: &mut String,
) -> anyhow::Result<()> {
    let replays = replays(dir)?;
    let open: Vec<(&String, Vec<(f64, f64)>)> = found
        .iter()
        .filter(|(_, status)| status.status != Status::Solved)
        .filter_map(|(board, status)| {
            let course = &status.progress.as_ref()?.course;
            (course.len() >= 2).then(|| (board, points(course)))
        })
        .collect();
    if replays.is_empty() && open.is_empty() {
        return Ok(());
    }
    writeln!(
        text,
        "## Progress\n\n\
         What a campaign's DAG has settled grows while its root's proof number rises.\n\
         The measure: the share solved of the DAG's positions 1 to 8 plies below the\n\
         root, from the checkpoint's samples (every 20 s of the campaign). The\n\
         projection: exponential growth of the measure against nodes, fitted over the\n\
         last half of the nodes so far, extended to the share the replays below had\n\
         when they were solved (their median). The replays are solved boards' campaigns run\n\
         again from scratch (`<board>-progress.json`); the table projects each from\n\
         its own samples a quarter, a half and three quarters of the way, aiming at the\n\
         other replays' end share, against the nodes it took (-: nothing solved yet, or no rise).\n"
    )?;
    if !replays.is_empty() {
        writeln!(
            text,
            "| replay | nodes | share at the end | projected at 25% | at 50% | at 75% |\n\
             | --- | --- | --- | --- | --- | --- |"
        )?;
        for replay in &replays {
            let mut others: Vec<f64> = replays
                .iter()
                .filter(|r| r.board != replay.board)
                .map(|r| r.end_share)
                .collect();
            let target = if others.is_empty() {
                replay.end_share
            } else {
                median(&mut others)
            };
            let cells: Vec<String> = WAYPOINTS
                .iter()
                .map(|&way| {
                    let seen: Vec<(f64, f64)> = replay
                        .points
                        .iter()
                        .copied()
                        .filter(|p| p.0 <= way * replay.nodes)
                        .collect();
                    project(&seen, target)
                        .map_or("-".to_string(), |n| format!("{:.2}x", n / replay.nodes))
                })
                .collect();
            writeln!(
                text,
                "| {} | {:.3e} | {:.1}% | {} |",
                replay.board,
                replay.nodes,
                100.0 * replay.end_share,
                cells.join(" | ")
            )?;
        }
        writeln!(text)?;
    }
    let mut ends: Vec<f64> = replays.iter().map(|r| r.end_share).collect();
    let target = (!ends.is_empty()).then(|| median(&mut ends));
    for (board, points) in &open {
        let last = points.last().expect("two samples");
        let projected = target.and_then(|target| project(points, target));
        writeln!(
            text,
            "{board}: {:.2}% of the top solved after {:.3e} nodes (samples from {:.3e} nodes on); projected end: {}.\n\n![{board}]({board}-progress.svg)\n",
            100.0 * last.1,
            last.0,
            points[0].0,
            projected.map_or("none (the share does not rise)".to_string(), |n| format!("{n:.3e} nodes"))
        )?;
        let path = dir.join(format!("{board}-progress.svg"));
        std::fs::write(&path, picture(board, points, &replays, projected, target)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// A line of the picture: its label, its points and its colour.
type Line<'a> = (String, &'a [(f64, f64)], &'a str);

/// The measure against nodes: the open campaign's samples, and each replay's.
fn picture(
    board: &str,
    points: &[(f64, f64)],
    replays: &[Replay],
    projected: Option<f64>,
    target: Option<f64>,
) -> anyhow::Result<String> {
    let (width, height) = (720.0, 400.0);
    let (left, right, top, bottom) = (60.0, 560.0, 40.0, 350.0);
    let mut svg = svg_start(width, height)?;
    writeln!(
        svg,
        r#"<text x="20" y="22" font-size="14">{board}: share of the DAG's top (depths 1-8) solved, against nodes (both log scale)</text>"#
    )?;
    // Both axes are logarithmic: exponential growth is a straight line's slope
    // against nodes, and the replays' nodes are 1% of 6x6's. Samples with nothing
    // solved sit on the bottom edge.
    let most_x = points
        .iter()
        .map(|p| p.0)
        .chain(replays.iter().map(|r| r.nodes))
        .chain(projected)
        .fold(1e7f64, f64::max);
    let (low_x, high_x) = (6.0, most_x.log10().ceil());
    let (low_y, high_y) = (-4.0, 0.0);
    let x =
        |n: f64| left + (right - left) * (n.max(1.0).log10().max(low_x) - low_x) / (high_x - low_x);
    let y = |s: f64| {
        bottom - (bottom - top) * (s.max(1e-9).log10().max(low_y) - low_y) / (high_y - low_y)
    };
    writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#999"/>"##,
        right - left,
        bottom - top
    )?;
    for decade in low_y as i32..=high_y as i32 {
        let share = 10f64.powi(decade);
        writeln!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="end">{}%</text><line x1="{left}" x2="{right}" y1="{2}" y2="{2}" stroke="#eee"/>"##,
            left - 4.0,
            y(share) + 3.0,
            100.0 * share
        )?;
    }
    for decade in low_x as i32..=high_x as i32 {
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">1e{decade}</text>"#,
            x(10f64.powi(decade)),
            bottom + 14.0
        )?;
    }
    if let (Some(end), Some(target)) = (projected, target) {
        writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="none" stroke="#1b9e77" stroke-width="2"/><text x="{:.1}" y="{:.1}" text-anchor="end">projected end</text>"##,
            x(end),
            y(target),
            x(end) - 6.0,
            y(target) - 6.0
        )?;
    }
    writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">nodes</text>"#,
        (left + right) / 2.0,
        bottom + 30.0
    )?;
    let colours = ["#d95f02", "#7570b3", "#66a61e", "#e7298a"];
    let mut lines: Vec<Line> = vec![(format!("{board} (open)"), points, "#1b9e77")];
    for (i, replay) in replays.iter().enumerate() {
        lines.push((
            format!("{} replay (solved)", replay.board),
            &replay.points,
            colours[i % colours.len()],
        ));
    }
    for (i, (label, line, colour)) in lines.iter().enumerate() {
        let path: Vec<String> = line
            .iter()
            .map(|&(n, s)| format!("{:.1},{:.1}", x(n), y(s)))
            .collect();
        writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
            path.join(" ")
        )?;
        let legend_y = top + 14.0 * i as f64;
        writeln!(
            svg,
            r#"<line x1="{}" x2="{}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{label}</text>"#,
            right + 10.0,
            right + 28.0,
            right + 32.0,
            legend_y + 3.0
        )?;
    }
    writeln!(svg, "</svg>")?;
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_growth_is_extended_to_its_target() {
        // The share doubles every 1e6 nodes; zeros (nothing solved yet) are left out.
        let mut points: Vec<(f64, f64)> = vec![(1e6, 0.0), (2e6, 0.0)];
        points.extend((3..=10).map(|i| (1e6 * f64::from(i), 0.001 * 2f64.powi(i - 3))));
        let projected = project(&points, 0.001 * 2f64.powi(12)).expect("rises");
        assert!((projected / 15e6 - 1.0).abs() < 1e-9, "{projected}");
        // Reached already: the nodes so far.
        assert_eq!(project(&points, 0.05), Some(10e6));
        let flat: Vec<(f64, f64)> = (1..=10).map(|i| (f64::from(i), 0.01)).collect();
        assert_eq!(project(&flat, 0.2), None);
        assert_eq!(project(&[(1.0, 0.0), (2.0, 0.0)], 0.2), None);
    }

    #[test]
    fn the_measure_leaves_the_root_out() {
        let sample = ProgressSample {
            seconds: 1.0,
            nodes: 10,
            stored: 0,
            first_won: 0,
            first_lost: 0,
            positions: vec![1, 4, 6],
            solved: vec![1, 1, 4],
        };
        assert!((measure(&sample) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_end_share_is_the_last_before_the_solve() {
        let sample = |root: u64, solved: u64| ProgressSample {
            seconds: 1.0,
            nodes: 10,
            stored: 0,
            first_won: 0,
            first_lost: 0,
            positions: vec![1, 10],
            solved: vec![root, solved],
        };
        let course = [sample(0, 1), sample(0, 2), sample(1, 4), sample(1, 5)];
        assert_eq!(end_share(&course), Some(0.2));
        assert_eq!(end_share(&course[..2]), Some(0.2));
        assert_eq!(end_share(&course[2..]), None);
    }
}
