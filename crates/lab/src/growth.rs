//! How the cost of a solve grows with the board, from the solved boards in the
//! results directory, and what that predicts for the boards still open (those with
//! a `<board>-campaign.json`). Part of `breakthrough-lab report`.
//!
//! A board's node count is predicted two ways from its smaller neighbours: one row
//! fewer times the row factor (how much one more row multiplied the nodes on the
//! narrower boards, fitted as a straight line of log10(factor) against the width and
//! extended to this width), and one column fewer times the column factor (the same
//! against the height). The same predictions made for the boards already solved, from
//! smaller boards only, say how far off the method has been: that spread is the
//! uncertainty given with every projection.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use breakthrough_cli::results::Solved;
use breakthrough_cli::svg::svg_start;
use breakthrough_cli::text::thousands;
use breakthrough_result::{CampaignStatus, Status};

/// The cost of one solved board.
#[derive(Clone, Copy, Debug)]
struct Cost {
    nodes: f64,
    seconds: f64,
}

/// Solved boards by (width, height).
type Costs = BTreeMap<(u32, u32), Cost>;

fn costs(results: &[Solved]) -> Costs {
    results
        .iter()
        .filter_map(|r| {
            let board: breakthrough_engine::Board = r.board.parse().ok()?;
            let stats = &r.result.stats;
            let nodes = Some(stats.nodes as f64).filter(|&n| n > 0.0)?;
            let seconds = stats.seconds;
            Some(((board.width(), board.height()), Cost { nodes, seconds }))
        })
        .collect()
}

/// The least-squares line through `points` as (a point on it, its slope): its
/// means of x and y, and dy/dx. None under two points or with every x equal.
pub fn line(points: &[(f64, f64)]) -> Option<((f64, f64), f64)> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    (sxx > 0.0).then(|| ((mean_x, mean_y), sxy / sxx))
}

/// Least squares line through `points`; its value at `x`. None under two points.
fn extend(points: &[(f64, f64)], x: f64) -> Option<f64> {
    let ((mean_x, mean_y), slope) = line(points)?;
    Some(mean_y + slope * (x - mean_x))
}

/// The two ways to predict a board's nodes from smaller boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Route {
    /// One row fewer, times the row factor extended over the narrower boards.
    Row,
    /// One column fewer, times the column factor extended over the shorter boards.
    Column,
}

impl Route {
    /// The smaller neighbour of `board` along the route.
    fn step(self, (w, h): (u32, u32)) -> (u32, u32) {
        match self {
            Route::Row => (w, h - 1),
            Route::Column => (w - 1, h),
        }
    }

    /// `board` as (the size the factor is extended over, the size it keeps): the
    /// row factor runs over widths at one height, the column factor the other way.
    fn split(self, (w, h): (u32, u32)) -> (u32, u32) {
        match self {
            Route::Row => (w, h),
            Route::Column => (h, w),
        }
    }
}

/// Predicted nodes of `board` by `route`, from smaller solved boards only.
fn predict(costs: &Costs, board: (u32, u32), route: Route) -> Option<f64> {
    let base = costs.get(&route.step(board))?.nodes;
    let (x, kept) = route.split(board);
    // The same step at a smaller size across.
    let points: Vec<(f64, f64)> = costs
        .iter()
        .filter_map(|(&other, cost)| {
            let (other_x, other_kept) = route.split(other);
            if other_kept != kept || other_x >= x {
                return None;
            }
            let smaller = costs.get(&route.step(other))?;
            Some((f64::from(other_x), (cost.nodes / smaller.nodes).log10()))
        })
        .collect();
    Some(base * 10f64.powf(extend(&points, f64::from(x))?))
}

/// A board that was predicted and then solved: predicted over measured nodes.
struct Backtest {
    board: (u32, u32),
    route: Route,
    predicted: f64,
    measured: f64,
}

fn backtests(costs: &Costs) -> Vec<Backtest> {
    let mut tests = Vec::new();
    for (&board, cost) in costs {
        for route in [Route::Row, Route::Column] {
            // Only what was known before this board: smaller boards.
            let known: Costs = costs
                .iter()
                .filter(|(&(w, h), _)| w <= board.0 && h <= board.1 && (w, h) != board)
                .map(|(&k, &v)| (k, v))
                .collect();
            if let Some(predicted) = predict(&known, board, route) {
                tests.push(Backtest {
                    board,
                    route,
                    predicted,
                    measured: cost.nodes,
                });
            }
        }
    }
    tests
}

fn board_name((w, h): (u32, u32)) -> String {
    format!("{w}x{h}")
}

fn scientific(x: f64) -> String {
    if x.is_finite() && x > 0.0 {
        format!("{x:.1e}")
    } else {
        "-".to_string()
    }
}

/// A board still open: a campaign's figures so far.
struct Open {
    board: (u32, u32),
    nodes: f64,
    seconds: f64,
    solved: bool,
    /// The projection of its whole cost in nodes: least and most.
    projected: Option<(f64, f64)>,
}

/// A factor with two significant digits.
fn factor_text(x: f64) -> String {
    if !x.is_finite() {
        "-".to_string()
    } else if x < 10.0 {
        format!("{x:.1}")
    } else {
        let scale = 10f64.powi(x.log10().floor() as i32 - 1);
        format!("{:.0}", (x / scale).round() * scale)
    }
}

/// Writes the growth and campaign sections into `text`, and `dir/growth.svg`;
/// `found` are the campaigns' status files.
pub fn section(
    dir: &Path,
    results: &[Solved],
    found: &[(String, CampaignStatus)],
    text: &mut String,
) -> anyhow::Result<()> {
    let costs = costs(results);
    let spread = growth_table(&costs, text)?;
    if !found.is_empty() {
        writeln!(
            text,
            "## Campaigns\n\n\
             Long solves under way (`scripts/campaign.sh BOARD SECONDS` runs or continues\n\
             one in `campaigns/BOARD`, out of git, and writes its status here as\n\
             `<board>-campaign.json`, its root numbers over time as\n\
             `<board>-campaign.svg` and, while it is open, its snapshot as\n\
             `<board>-campaign.snapshot`, from which the same command restores a lost\n\
             directory). The projection is the growth's prediction of the\n\
             nodes of the board's whole solve (what is spent included, and never less),\n\
             widened both ways by the worst miss above, and the hours that takes at the\n\
             campaign's own speed so far. It is a prediction of one solve's nodes: a\n\
             campaign also counts what its jobs search again after the table forgot it,\n\
             so its true cost runs higher.\n\n\
             | board | status | runs | hours | nodes | nodes/s | stored positions | store MiB | root pn | root dn | projected whole nodes | projected whole hours |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        )?;
    }
    let mut open = Vec::new();
    for (board, status) in found {
        if let Some(row) = campaign_row(&costs, spread, board, status, text)? {
            open.push(row);
        }
    }
    if !found.is_empty() {
        writeln!(text)?;
    }
    let path = dir.join("growth.svg");
    std::fs::write(&path, picture(&costs, &open)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The table of solved boards with their factors and predictions; the spread of
/// predicted over measured nodes (least, most), where anything was predicted.
fn growth_table(costs: &Costs, text: &mut String) -> anyhow::Result<Option<(f64, f64)>> {
    writeln!(
        text,
        "## Growth with the board\n\n\
         Nodes and search seconds of every solved board (the table above), the factor\n\
         one more row and one more column cost, and what the growth predicted for each\n\
         board from the smaller boards alone (a straight line of log10(factor) against\n\
         the width, or the height, extended). Picture: [growth.svg](growth.svg).\n"
    )?;
    writeln!(
        text,
        "| board | squares | nodes | seconds | x one row fewer | x one column fewer | predicted by rows | predicted by columns |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    let tests = backtests(costs);
    let prediction = |board, route| {
        tests
            .iter()
            .find(|t| t.board == board && t.route == route)
            .map_or("-".to_string(), |t| {
                format!(
                    "{} ({:.2}x)",
                    scientific(t.predicted),
                    t.predicted / t.measured
                )
            })
    };
    for (&(w, h), cost) in costs {
        let factor = |smaller: (u32, u32)| {
            costs
                .get(&smaller)
                .map_or("-".to_string(), |s| factor_text(cost.nodes / s.nodes))
        };
        writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            board_name((w, h)),
            w * h,
            thousands(cost.nodes as u64),
            if cost.seconds.is_finite() {
                format!("{:.2}", cost.seconds)
            } else {
                "-".to_string()
            },
            factor((w, h - 1)),
            factor((w - 1, h)),
            prediction((w, h), Route::Row),
            prediction((w, h), Route::Column),
        )?;
    }
    // The spread of predicted over measured: how far off the method has been.
    let ratios: Vec<f64> = tests.iter().map(|t| t.predicted / t.measured).collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(0.0f64, f64::max);
    if !ratios.is_empty() {
        writeln!(
            text,
            "\nOver {} such predictions the predicted nodes were {:.2} to {:.2} times the\n\
             measured ones (in brackets above){}: few boards to learn from, and factors\n\
             that rise with the width, so take a prediction as an order of magnitude.\n",
            ratios.len(),
            low,
            high,
            if low > 1.0 {
                ", every one too high"
            } else if high < 1.0 {
                ", every one too low"
            } else {
                ""
            }
        )?;
    }
    Ok((!ratios.is_empty()).then_some((low, high)))
}

/// One campaign's row, and what the picture shows of it.
fn campaign_row(
    costs: &Costs,
    spread: Option<(f64, f64)>,
    board: &str,
    status: &CampaignStatus,
    text: &mut String,
) -> anyhow::Result<Option<Open>> {
    let Ok(parsed) = board.parse::<breakthrough_engine::Board>() else {
        return Ok(None);
    };
    let size = (parsed.width(), parsed.height());
    let nodes = status.nodes as f64;
    let seconds = status.seconds;
    let rate = nodes / seconds.max(1e-9);
    let estimates: Vec<f64> = [Route::Row, Route::Column]
        .into_iter()
        .filter_map(|route| predict(costs, size, route))
        .collect();
    // Widened both ways by the worst miss so far, and never below the nodes the
    // campaign has already spent.
    let projected = spread.filter(|_| !estimates.is_empty()).map(|(low, high)| {
        let miss = high.max(1.0 / low);
        let least = estimates.iter().copied().fold(f64::INFINITY, f64::min) / miss;
        let most = estimates.iter().copied().fold(0.0f64, f64::max) * miss;
        (least.max(nodes), most.max(nodes))
    });
    let (projected_nodes, projected_hours) = match projected {
        None => ("-".to_string(), "-".to_string()),
        Some((least, most)) => (
            format!("{} to {}", scientific(least), scientific(most)),
            format!(
                "{:.1} to {:.1}",
                least / rate.max(1.0) / 3600.0,
                most / rate.max(1.0) / 3600.0
            ),
        ),
    };
    let solved = status.status == Status::Solved;
    writeln!(
            text,
            "| [{board}]({board}-campaign.svg) | {} | {} | {:.1} | {} | {} | {} | {:.1} | {} | {} | {projected_nodes} | {projected_hours} |",
            if solved { "solved" } else { "open" },
            status.runs.len(),
            seconds / 3600.0,
            thousands(nodes as u64),
            thousands(rate as u64),
            status.stored,
            status.store_bytes.unwrap_or(0) as f64 / f64::from(1 << 20),
            status.root_proof,
            status.root_disproof,
        )?;
    Ok(Some(Open {
        board: size,
        nodes,
        seconds,
        solved,
        projected,
    }))
}

/// Nodes (log scale) against rows, one line per width; open campaigns' nodes so
/// far as hollow marks with an arrow up (a lower bound).
fn picture(costs: &Costs, open: &[Open]) -> anyhow::Result<String> {
    let (width, height) = (800.0, 420.0);
    let mut svg = svg_start(width, height)?;
    writeln!(
        svg,
        r#"<text x="20" y="24" font-size="15">Nodes to solve the start position against rows, one line per width (log scale)</text>"#
    )?;
    let heights = costs
        .keys()
        .map(|k| k.1)
        .chain(open.iter().map(|o| o.board.1));
    let (min_h, max_h) = heights.fold((u32::MAX, 0), |(lo, hi), h| (lo.min(h), hi.max(h)));
    if min_h > max_h {
        writeln!(svg, "</svg>")?;
        return Ok(svg);
    }
    let most = costs
        .values()
        .map(|c| c.nodes)
        .chain(open.iter().map(|o| o.projected.map_or(o.nodes, |p| p.1)))
        .fold(10.0f64, f64::max);
    let axes = Axes::new(min_h, max_h, most);
    axes.draw(&mut svg)?;
    let colours = [
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
    ];
    let widths: Vec<u32> = {
        let mut w: Vec<u32> = costs
            .keys()
            .map(|k| k.0)
            .chain(open.iter().map(|o| o.board.0))
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    };
    for (i, &w) in widths.iter().enumerate() {
        let colour = colours[i % colours.len()];
        axes.draw_solved(&mut svg, costs, w, colour)?;
        for o in open.iter().filter(|o| o.board.0 == w && !o.solved) {
            axes.draw_open(&mut svg, o, colour)?;
        }
        axes.draw_legend(&mut svg, i, w, colour)?;
    }
    writeln!(
        svg,
        r#"<text x="{}" y="{}">hollow: an open campaign's nodes so far; shaded bar: the projection of its whole cost</text>"#,
        axes.left,
        axes.bottom + 36.0
    )?;
    writeln!(svg, "</svg>")?;
    Ok(svg)
}

/// The growth picture's plot: its edges, the rows it spans across, and the decades
/// of nodes up (log scale).
struct Axes {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    min_h: u32,
    max_h: u32,
    decades: f64,
}

impl Axes {
    /// The plot of `min_h` to `max_h` rows, up to `most` nodes.
    fn new(min_h: u32, max_h: u32, most: f64) -> Axes {
        let (left, right, top, bottom) = (70.0, 660.0, 50.0, 370.0);
        Axes {
            left,
            right,
            top,
            bottom,
            min_h,
            max_h,
            // At most 1e30: a runaway projection must not make the axis endless.
            decades: most.log10().ceil().clamp(1.0, 30.0),
        }
    }

    fn x(&self, h: u32) -> f64 {
        let span = f64::from((self.max_h - self.min_h).max(1));
        self.left + (self.right - self.left) * f64::from(h - self.min_h) / span
    }

    fn y(&self, n: f64) -> f64 {
        self.bottom - (self.bottom - self.top) * n.max(1.0).log10() / self.decades
    }

    /// The frame, a line and label per decade of nodes, a label per row count.
    fn draw(&self, svg: &mut String) -> anyhow::Result<()> {
        let (left, right, top, bottom) = (self.left, self.right, self.top, self.bottom);
        writeln!(
            svg,
            r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#999"/>"##,
            right - left,
            bottom - top
        )?;
        for d in 0..=self.decades as i32 {
            let y = self.y(10f64.powi(d));
            writeln!(
                svg,
                r##"<text x="{}" y="{}" text-anchor="end">1e{d}</text><line x1="{left}" x2="{right}" y1="{y}" y2="{y}" stroke="#eee"/>"##,
                left - 4.0,
                y + 3.0
            )?;
        }
        for h in self.min_h..=self.max_h {
            writeln!(
                svg,
                r#"<text x="{}" y="{}" text-anchor="middle">{h} rows</text>"#,
                self.x(h),
                bottom + 16.0
            )?;
        }
        Ok(())
    }

    /// The line and points of the solved boards `w` columns wide.
    fn draw_solved(
        &self,
        svg: &mut String,
        costs: &Costs,
        w: u32,
        colour: &str,
    ) -> anyhow::Result<()> {
        let points: Vec<(f64, f64)> = costs
            .iter()
            .filter(|(k, _)| k.0 == w)
            .map(|(k, c)| (self.x(k.1), self.y(c.nodes)))
            .collect();
        let line: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            line.join(" ")
        )?;
        for (x, y) in &points {
            writeln!(
                svg,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{colour}"/>"#
            )?;
        }
        Ok(())
    }

    /// An open campaign: its nodes so far, hollow and labelled, over the shaded
    /// bar of its projected whole cost.
    fn draw_open(&self, svg: &mut String, o: &Open, colour: &str) -> anyhow::Result<()> {
        let (x, y) = (self.x(o.board.1), self.y(o.nodes));
        if let Some((least, most)) = o.projected {
            writeln!(
                svg,
                r#"<rect x="{:.1}" y="{:.1}" width="6" height="{:.1}" fill="{colour}" fill-opacity="0.25" stroke="{colour}" stroke-dasharray="3,2"/>"#,
                x - 3.0,
                self.y(most),
                (self.y(least) - self.y(most)).max(1.0)
            )?;
        }
        writeln!(
            svg,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="white" stroke="{colour}" stroke-width="1.5"/><line x1="{x:.1}" x2="{x:.1}" y1="{y:.1}" y2="{:.1}" stroke="{colour}"/><text x="{:.1}" y="{:.1}">{} so far ({:.1} h)</text>"#,
            y - 18.0,
            x + 6.0,
            y - 8.0,
            board_name(o.board),
            o.seconds / 3600.0
        )?;
        Ok(())
    }

    /// The legend's line for the boards `w` columns wide, the `i`th width.
    fn draw_legend(&self, svg: &mut String, i: usize, w: u32, colour: &str) -> anyhow::Result<()> {
        let right = self.right;
        let legend_y = self.top + 14.0 * i as f64;
        writeln!(
            svg,
            r#"<line x1="{}" x2="{}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{w} columns</text>"#,
            right + 15.0,
            right + 35.0,
            right + 40.0,
            legend_y + 3.0
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs_of(boards: &[((u32, u32), f64)]) -> Costs {
        boards
            .iter()
            .map(|&(b, nodes)| {
                (
                    b,
                    Cost {
                        nodes,
                        seconds: 1.0,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn a_straight_line_is_extended_exactly() {
        assert_eq!(extend(&[(3.0, 1.0)], 5.0), None);
        let y = extend(&[(3.0, 1.0), (4.0, 2.0), (5.0, 3.0)], 7.0).unwrap();
        assert!((y - 5.0).abs() < 1e-9);
    }

    #[test]
    fn growth_that_is_geometric_is_predicted_exactly() {
        // Nodes = 10^(w*h - 8): every row factor of width w is 10^w, every column
        // factor of height h is 10^h; both routes must find 6x6 exactly.
        let boards: Vec<((u32, u32), f64)> = (3..=6)
            .flat_map(|w| (4..=6).map(move |h| (w, h)))
            .filter(|&b| b != (6, 6))
            .map(|(w, h)| ((w, h), 10f64.powi((w * h) as i32 - 8)))
            .collect();
        let costs = costs_of(&boards);
        for route in [Route::Row, Route::Column] {
            let predicted = predict(&costs, (6, 6), route).unwrap();
            assert!((predicted.log10() - 28.0).abs() < 1e-9, "{route:?}");
        }
        // Without a smaller neighbour there is no prediction.
        assert_eq!(predict(&costs, (8, 6), Route::Row), None);
        assert!(backtests(&costs)
            .iter()
            .all(|t| (t.predicted / t.measured - 1.0).abs() < 1e-9));
    }
}
