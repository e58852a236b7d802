//! The picture of a result: its main line as diagrams, and the course of the solve.

use std::fmt::Write as _;

use breakthrough_cli::results::Solved;
use breakthrough_cli::svg::{plot, svg_start, Frame};
use breakthrough_engine::{Color, Position};
use breakthrough_result::{LineKind, SolveResult};

const CELL: f64 = 12.0;
const GAP: f64 = 14.0;

/// The line a result's picture shows, and what it is.
pub struct Shown<'a> {
    pub moves: &'a [String],
    what: &'static str,
}

/// The line to show for a result: perfect play, its own or from a separate length
/// run of the same position; else its own main line of the proof; else its best
/// first move alone, since a campaign keeps no main line.
pub fn shown_line<'a>(solved: &'a Solved, separate: Option<&'a SolveResult>) -> Shown<'a> {
    let result = &solved.result;
    let line = |run: &'a SolveResult| {
        run.principal_variation
            .as_deref()
            .filter(|moves| !moves.is_empty() && run.position == result.position)
    };
    let perfect = |run: &SolveResult| run.principal_variation_kind == Some(LineKind::PerfectPlay);
    let separate_perfect = separate.filter(|run| perfect(run)).and_then(line);
    match (line(result), separate_perfect) {
        (Some(moves), _) if perfect(result) => Shown {
            moves,
            what: "plies of perfect play",
        },
        (_, Some(moves)) => Shown {
            moves,
            what: "plies of perfect play, from the separate length run",
        },
        (Some(moves), None) => Shown {
            moves,
            what: "plies of the proof's main line, not the fastest win",
        },
        (None, None) => Shown {
            moves: result.best_move.as_slice(),
            what: if result.best_move.is_some() {
                "ply: the best first move alone, as a campaign keeps no main line"
            } else {
                "plies: a campaign keeps no main line"
            },
        },
    }
}

/// The SVG of one result: the line `shown_line` picks as diagrams, and the course of
/// the solve.
pub fn picture(solved: &Solved, shown: &Shown) -> anyhow::Result<String> {
    let result = &solved.result;
    let board: breakthrough_engine::Board = solved.board.parse()?;
    let mut position = Position::parse_on(board, &result.position)?;
    let mut panels = vec![("start".to_string(), position)];
    for (ply, mv) in shown.moves.iter().enumerate() {
        let mv = position.parse_move(mv)?;
        position = position.play(mv);
        panels.push((format!("{}. {mv}", ply + 1), position));
    }
    let (w, h) = (f64::from(board.width()), f64::from(board.height()));
    let panel_w = (w * CELL).max(60.0) + GAP;
    let panel_h = h * CELL + GAP + 12.0;
    let per_row = ((760.0 / panel_w).floor() as usize).max(1);
    let rows = panels.len().div_ceil(per_row);
    let plot_top = 40.0 + rows as f64 * panel_h + 20.0;
    let plot_h = 180.0;
    let width = 800.0;
    let height = plot_top + plot_h + 60.0;
    let mut svg = svg_start(width, height)?;
    writeln!(
        svg,
        r#"<text x="20" y="24" font-size="15">{}: {} ({} {})</text>"#,
        solved.board,
        result.verdict,
        panels.len() - 1,
        shown.what,
    )?;
    for (i, (title, position)) in panels.iter().enumerate() {
        let x0 = 20.0 + (i % per_row) as f64 * panel_w;
        let y0 = 40.0 + (i / per_row) as f64 * panel_h;
        writeln!(svg, r#"<text x="{x0}" y="{}">{title}</text>"#, y0 + 9.0)?;
        for rank in 0..board.height() {
            for file in 0..board.width() {
                let x = x0 + f64::from(file) * CELL;
                let y = y0 + 12.0 + f64::from(board.height() - 1 - rank) * CELL;
                let shade = if (rank + file) % 2 == 0 {
                    "#d9c9a3"
                } else {
                    "#f2e8cf"
                };
                writeln!(
                    svg,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{shade}"/>"#
                )?;
                let index = rank * board.width() + file;
                for (colour, fill) in [(Color::White, "white"), (Color::Black, "black")] {
                    if position.pieces(colour).has(index) {
                        writeln!(
                            svg,
                            r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#333" stroke-width="0.8"/>"##,
                            x + CELL / 2.0,
                            y + CELL / 2.0,
                            CELL * 0.36
                        )?;
                    }
                }
            }
        }
    }
    let title =
        "The solve: root proof number (red) and disproof number (blue) against seconds, log scale";
    let frame = Frame {
        title,
        top: plot_top,
        height: plot_h,
        width,
    };
    plot(&mut svg, &result.stats.course, frame)?;
    writeln!(svg, "</svg>")?;
    Ok(svg)
}
