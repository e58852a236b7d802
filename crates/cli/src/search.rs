//! A solve with its progress shown: what `solve` runs and what the Python package
//! runs, so that both report the same course.

use breakthrough_engine::Position;
use breakthrough_solver::{solve, Phase, Progress, Solution, SolveOptions};

use crate::progress;
use crate::solve_result::Sample;
use crate::text::human;

/// Solves `position` with a progress spinner on stderr (none when `quiet` or when
/// stderr is no terminal); the solution, and the search's course (root numbers
/// against time, for plots) ending with the final figures.
pub fn with_progress(
    position: &Position,
    options: &SolveOptions,
    quiet: bool,
) -> (Solution, Vec<Sample>) {
    let bar = progress::spinner(quiet);
    let mut course = Vec::new();
    let solution = solve(position, options, &mut |p| {
        if p.phase == Phase::Search {
            course.push((p.seconds, p.nodes, p.root_proof, p.root_disproof));
        }
        bar.set_message(progress_message(p));
        bar.tick();
    });
    bar.finish_and_clear();
    let stats = &solution.stats;
    course.push((
        stats.seconds,
        stats.nodes,
        stats.root_proof,
        stats.root_disproof,
    ));
    (solution, course)
}

/// The progress line: the phase, nodes and speed, root numbers, table fill.
fn progress_message(p: &Progress) -> String {
    let phase = match p.phase {
        Phase::Search => String::new(),
        Phase::Proof => "writing the proof: ".to_string(),
        Phase::Length(plies) => format!("length: a win within {plies} plies? "),
        Phase::RootMoves => "root moves: ".to_string(),
    };
    format!(
        "{phase}{} nodes ({}/s), root proof/disproof {}/{}, table {:.0}% full",
        human(p.nodes as f64),
        human(p.nodes as f64 / p.seconds.max(1e-9)),
        p.root_proof,
        p.root_disproof,
        100.0 * p.table.used as f64 / p.table.capacity.max(1) as f64
    )
}
