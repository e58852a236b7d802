//! A solve with its progress shown: what `solve` runs and what the Python package
//! runs, so that both report the same course.

use std::cell::RefCell;

use breakthrough_engine::Position;
use breakthrough_solver::{solve_saving, Phase, Progress, Solution, SolveOptions};

use crate::progress;
use crate::solve_result::Sample;
use crate::text::human;

/// Solves `position` with a progress spinner on stderr (none when `quiet` or when
/// stderr is no terminal); the solution, and the search's course (root numbers
/// against time, for plots) ending with the final figures. `before_proof` gets the
/// solution and the course so far when the proof's extraction is about to start
/// (see [`solve_saving`]).
pub fn with_progress(
    position: &Position,
    options: &SolveOptions,
    quiet: bool,
    before_proof: &mut dyn FnMut(&Solution, &[Sample]),
) -> (Solution, Vec<Sample>) {
    let bar = progress::spinner(quiet);
    let course = RefCell::new(Vec::new());
    let solution = solve_saving(
        position,
        options,
        &mut |p| {
            if p.phase == Phase::Search {
                let sample = (p.seconds, p.nodes, p.root_proof, p.root_disproof);
                course.borrow_mut().push(sample);
            }
            bar.set_message(progress_message(p));
            bar.tick();
        },
        &mut |solution| before_proof(solution, &course.borrow()),
    );
    bar.finish_and_clear();
    let mut course = course.into_inner();
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
