//! Short endings settled by search: a version 3 certificate may mark a position
//! "settled" instead of writing its proof out, and the verifier then decides it by
//! a plain exhaustive search over the rules, bounded by a few plies.
//!
//! The search is minimax over legal moves and nothing else: no table, no race
//! rules. It tries the claim's side's moves that land nearest its goal first, and
//! stops where a side needs more moves than it has left to reach its goal or to
//! capture every piece (see `may_win`); both change its speed only, never its
//! answer.

use breakthrough_engine::{Bitboard, Color, Position};

/// The most plies a certificate may leave to the verifier's search: the format's
/// limit, which keeps the work of one mark small (see the format).
pub const MAX_SETTLE_PLIES: u32 = 5;

/// The plies the provers of this program leave to the verifier by default.
pub const DEFAULT_SETTLE_PLIES: u32 = 4;

/// The fewest plies, at most `plies`, within which `side` forces a game won by it
/// from `position`; `None` if it cannot within `plies`.
pub fn wins_within(position: &Position, side: Color, plies: u32) -> Option<u32> {
    if let Some(winner) = position.winner() {
        return (winner == side).then_some(0);
    }
    // The side to move wins only on its own move, so only every other depth can
    // be the first to succeed.
    let first = if position.to_move() == side { 1 } else { 2 };
    (first..=plies)
        .step_by(2)
        .find(|&depth| forces(position, side, depth, false))
}

/// Whether `side` keeps every game from ending won by its opponent within `plies`
/// plies from `position` (a game may end won by `side`, or go on past them).
pub fn holds_out(position: &Position, side: Color, plies: u32) -> bool {
    forces(position, side, plies, true)
}

/// Whether `side` forces, within `plies` plies, a game won by it, or (with
/// `horizon`) one still going on after them.
fn forces(position: &Position, side: Color, plies: u32, horizon: bool) -> bool {
    if let Some(winner) = position.winner() {
        return winner == side;
    }
    if plies == 0 {
        return horizon;
    }
    let mover = position.to_move();
    // A piece one rank from its goal always has a move there: forward if that
    // square is empty, else diagonally (boards are at least two files wide, and no
    // piece of the mover stands on its goal while the game goes on). So the mover
    // wins on this move.
    if !(position.pieces(mover) & before_goal(position, mover)).is_empty() {
        return mover == side;
    }
    // A side that cannot win within the plies decides the question: for a win,
    // `side` fails; for holding out, the opponent cannot break through.
    let moves_of = |colour: Color| {
        if colour == mover {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    };
    if !horizon && !may_win(position, side, moves_of(side)) {
        return false;
    }
    let opponent = side.opponent();
    if horizon && !may_win(position, opponent, moves_of(opponent)) {
        return true;
    }
    let mut steps = position.steps();
    if mover == side {
        // The goal lies toward higher bit indices for White, lower for Black.
        steps.sort_unstable_by_key(|step| step.to);
        if side == Color::White {
            steps.reverse();
        }
        steps
            .into_iter()
            .any(|step| forces(&position.play_step(step), side, plies - 1, horizon))
    } else {
        steps
            .into_iter()
            .all(|step| forces(&position.play_step(step), side, plies - 1, horizon))
    }
}

/// Whether `colour` may win a game going on within its next `moves` moves, by the
/// rules alone: a move takes one piece one rank nearer its goal and captures at
/// most one piece, so it must have a piece within `moves` ranks of its goal, or
/// the opponent at most `moves` pieces. (The other way to win, leaving the
/// opponent without a move, needs it without pieces: a side's most advanced piece
/// always has a diagonal step, as nothing of its own stands ahead of it.) Every
/// position the verifier meets has no piece of either side on its goal while the
/// game goes on: roots are checked so when read, and a move there ends the game.
fn may_win(position: &Position, colour: Color, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    if position.pieces(colour.opponent()).len() <= moves {
        return true;
    }
    let board = position.board();
    let reach = (1..=moves.min(board.height() - 1)).fold(Bitboard::EMPTY, |ranks, away| {
        ranks
            | match colour {
                Color::White => board.rank(board.height() - 1 - away),
                Color::Black => board.rank(away),
            }
    });
    !(position.pieces(colour) & reach).is_empty()
}

/// The rank one step before `colour`'s goal.
fn before_goal(position: &Position, colour: Color) -> Bitboard {
    let board = position.board();
    match colour {
        Color::White => board.rank(board.height() - 2),
        Color::Black => board.rank(1),
    }
}

/// Whether a mark settles `position`, `ply` plies below the root of a proof of the
/// claim's `side` (holding out `hold` plies, or winning within `win_bound` plies,
/// or neither: a win), where the format allows `settle` plies of search. Returns
/// the height the mark stands for (the plies to the end of the longest game it
/// allows, or to the bound of a hold-out), or `None`.
///
/// - For a win (bounded or not), `side` must win within `settle` plies and within
///   the plies left to the bound.
/// - For a hold-out with at most `settle` plies left, `side` must hold out the
///   plies left; with more left, it must win within `settle` plies.
pub fn settles(
    position: &Position,
    side: Color,
    hold: Option<u32>,
    win_bound: Option<u32>,
    ply: u32,
    settle: u32,
) -> Option<u32> {
    if let Some(bound) = hold {
        let left = bound.saturating_sub(ply);
        if left <= settle {
            return holds_out(position, side, left).then_some(left);
        }
    }
    let plies = win_bound.map_or(settle, |bound| settle.min(bound.saturating_sub(ply)));
    wins_within(position, side, plies)
}
