//! The race rules: cheap exact endgame rules, applied before a position is
//! searched. [`RaceRules`] says which rules a search uses; [`classify`] is the core
//! of threats, and the `race` module adds race wins further from the goal.
//!
//! A piece one step from its goal rank always has a move to the goal: the board is
//! at least 2 wide, so it has at least one diagonal step, and its target is empty or
//! an enemy piece (a friendly piece on the goal rank would have ended the game
//! already). So:
//! - the side to move with such a piece wins at once;
//! - otherwise each such enemy piece must be captured at once: two of them lose,
//!   and with one, only the captures of that piece are worth searching.

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};

use crate::race_rules::race::shortest_race_win;

mod race;

/// Which rules a search applies before it searches a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceRules {
    /// The race rules: win in one, the threat rules and race wins. Without them,
    /// only a finished game is decided.
    pub enabled: bool,
    /// Longest race win looked for, in moves of the side to move (2 or more; 1 or
    /// less: none beyond the win in one).
    pub race_moves: u32,
}

/// The default longest race win, chosen with `solve --race-moves K` on 5x5 and 6x5:
/// shorter races leave more to df-pn, longer ones cost the race search more than they
/// save it (`docs/performance-log.md`, "Race rules"). Larger boards look one move
/// further ([`default_race_moves`]).
pub const DEFAULT_RACE_MOVES: u32 = 4;

/// The smallest board, in squares, whose default longest race win is one move
/// longer than [`DEFAULT_RACE_MOVES`]: on 6x6 that takes about a quarter of the
/// nodes in about the same time, on 5x6 half the nodes in more time
/// (`docs/performance-log.md`, "Race rules").
pub const LONGER_RACES_MIN_SQUARES: u32 = 36;

/// The longest race win looked for on `board` unless asked otherwise.
pub fn default_race_moves(board: Board) -> u32 {
    if board.squares() >= LONGER_RACES_MIN_SQUARES {
        DEFAULT_RACE_MOVES + 1
    } else {
        DEFAULT_RACE_MOVES
    }
}

/// The longest race win df-pn looks for in a position it has just generated (each
/// child of an expanded position); the longer ones, which cost more, only when it
/// expands the position: looking for every race length in every new position takes
/// fewer nodes but more time (`docs/performance-log.md`, "Race rules").
pub const LEAF_RACE_MOVES: u32 = 3;

/// How many moves longer than `race_moves` the race wins are that df-pn looks for
/// when it enters an expanded position again (once a position and thread): looked
/// for in every expanded position, they save nodes but cost more time than they
/// save; a position entered again is one whose subtree the search is still working
/// on, where a race win saves the most (`docs/performance-log.md`, "Race rules").
pub const REENTRY_EXTRA_MOVES: u32 = 1;

/// The smallest board, in squares, where df-pn looks for those longer race wins:
/// on smaller boards (5x5, 4x6, 3x8, 4x7) they cost more time than they save, on
/// 5x6 and 6x6 they save more than they cost (`docs/performance-log.md`, "Race
/// rules").
pub const REENTRY_MIN_SQUARES: u32 = 30;

impl Default for RaceRules {
    fn default() -> Self {
        RaceRules {
            enabled: true,
            race_moves: DEFAULT_RACE_MOVES,
        }
    }
}

impl RaceRules {
    /// Only the end of the game: plain search, for ablation.
    pub const NONE: RaceRules = RaceRules {
        enabled: false,
        race_moves: 0,
    };

    /// Applies the rules to a position.
    #[inline]
    pub fn classify(self, position: &Position) -> Verdict {
        let verdict = self.threats(position);
        if verdict != Verdict::Open || !self.enabled {
            return verdict;
        }
        self.races(position, 2, self.race_moves)
    }

    /// The rules with race wins of at most [`LEAF_RACE_MOVES`]: df-pn's first look
    /// at a position; [`RaceRules::long_races`] completes it if the position is
    /// expanded.
    #[inline]
    pub fn classify_leaf(self, position: &Position) -> Verdict {
        RaceRules {
            race_moves: self.race_moves.min(LEAF_RACE_MOVES),
            ..self
        }
        .classify(position)
    }

    /// The race wins longer than [`LEAF_RACE_MOVES`], for an open position.
    #[inline]
    pub fn long_races(self, position: &Position) -> Verdict {
        if self.enabled {
            self.races(position, LEAF_RACE_MOVES + 1, self.race_moves)
        } else {
            Verdict::Open
        }
    }

    /// The race wins of `moves`, for an open position whose shorter race wins
    /// have been looked for; the caller checks that the rules are on.
    #[inline]
    pub fn races_of(self, position: &Position, moves: u32) -> Verdict {
        self.races(position, moves, moves)
    }

    /// Race wins in `from..=to` moves, the shortest first.
    #[inline]
    fn races(self, position: &Position, from: u32, to: u32) -> Verdict {
        match shortest_race_win(position, from, to) {
            Some((moves, step)) => Verdict::RaceWin {
                moves: moves as u8,
                step,
            },
            None => Verdict::Open,
        }
    }

    /// The rules without the race search: enough for a position whose race search
    /// has already come out open (df-pn classifies each child when it first sees
    /// it, and again only the cheap rules when it enters it).
    #[inline]
    pub fn threats(self, position: &Position) -> Verdict {
        if self.enabled {
            classify(position)
        } else if position.winner().is_some() {
            Verdict::GameOver
        } else {
            Verdict::Open
        }
    }
}

/// What the race rules say of a position, from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The game is over and the side to move has lost.
    GameOver,
    /// A piece one step from the goal: the side to move wins with its next move.
    WinInOne,
    /// Two enemy pieces one step from their goal: only one can be taken.
    DoubleThreat,
    /// One enemy piece one step from its goal that nothing can capture.
    UnstoppableThreat,
    /// One enemy piece one step from its goal: only capturing it (on bit index
    /// `target`, with one of `captures` moves) can save the side to move.
    MustCapture { target: u32, captures: u32 },
    /// The side to move wins within `moves` of its own moves, starting with `step`
    /// (found by the bounded race search).
    RaceWin { moves: u8, step: Step },
    /// A bounded question's plies are used up and the game goes on: the side to
    /// move, whose opponent had to win by now, wins the question (see
    /// [`crate::Key::within`]).
    OutOfPlies,
    /// Nothing decided: search every move.
    Open,
}

impl Verdict {
    /// The proven outcome for the side to move, if the verdict decides the game.
    pub fn side_to_move_wins(self) -> Option<bool> {
        match self {
            Verdict::WinInOne | Verdict::RaceWin { .. } | Verdict::OutOfPlies => Some(true),
            Verdict::GameOver | Verdict::DoubleThreat | Verdict::UnstoppableThreat => Some(false),
            Verdict::MustCapture { .. } | Verdict::Open => None,
        }
    }

    /// Whether a move is worth searching: under a threat only its captures are.
    #[inline]
    pub fn allows(self, step: Step) -> bool {
        match self {
            Verdict::MustCapture { target, .. } => u32::from(step.to) == target,
            _ => true,
        }
    }
}

/// A move of the side to move that reaches its goal now, if there is one.
pub(crate) fn move_to_goal(position: &Position) -> Option<Step> {
    let us = position.to_move();
    position
        .steps()
        .into_iter()
        .find(|&step| position.play_step(step).winner() == Some(us))
}

/// The rank one step before `colour`'s goal.
fn pre_goal_rank(position: &Position, colour: Color) -> Bitboard {
    let board = position.board();
    match colour {
        Color::White => board.rank(board.height() - 2),
        Color::Black => board.rank(1),
    }
}

/// Applies the threat rules (win in one, double, unstoppable and single threats).
#[inline]
pub fn classify(position: &Position) -> Verdict {
    if position.winner().is_some() {
        return Verdict::GameOver;
    }
    let us = position.to_move();
    if !(position.pieces(us) & pre_goal_rank(position, us)).is_empty() {
        return Verdict::WinInOne;
    }
    let threats = position.pieces(us.opponent()) & pre_goal_rank(position, us.opponent());
    match threats.len() {
        0 => Verdict::Open,
        1 => {
            let target = threats.first().unwrap_or(0);
            let captures = position.captures_on(target);
            if captures > 0 {
                Verdict::MustCapture { target, captures }
            } else {
                Verdict::UnstoppableThreat
            }
        }
        _ => Verdict::DoubleThreat,
    }
}

/// How many positions each race rule closed (decided), or narrowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaceRuleStats {
    pub game_over: u64,
    pub win_in_one: u64,
    pub double_threat: u64,
    pub unstoppable_threat: u64,
    /// Narrowed, not closed: only the captures of the threat were searched.
    pub must_capture: u64,
    /// Race wins, by the number of moves they take (index 2 and up).
    pub race_win: [u64; 8],
}

impl RaceRuleStats {
    pub(crate) fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::GameOver => self.game_over += 1,
            Verdict::WinInOne => self.win_in_one += 1,
            Verdict::DoubleThreat => self.double_threat += 1,
            Verdict::UnstoppableThreat => self.unstoppable_threat += 1,
            Verdict::MustCapture { .. } => self.must_capture += 1,
            Verdict::RaceWin { moves, .. } => {
                self.race_win[usize::from(moves).min(self.race_win.len() - 1)] += 1;
            }
            Verdict::OutOfPlies | Verdict::Open => {}
        }
    }

    /// Adds another thread's counts.
    pub(crate) fn add(&mut self, other: &RaceRuleStats) {
        self.game_over += other.game_over;
        self.win_in_one += other.win_in_one;
        self.double_threat += other.double_threat;
        self.unstoppable_threat += other.unstoppable_threat;
        self.must_capture += other.must_capture;
        for (sum, count) in self.race_win.iter_mut().zip(other.race_win) {
            *sum += count;
        }
    }

    /// Positions closed by a rule other than the end of the game.
    pub fn closed(&self) -> u64 {
        self.win_in_one
            + self.double_threat
            + self.unstoppable_threat
            + self.race_win.iter().sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use breakthrough_engine::Board;

    use super::*;
    use crate::race_rules::race::race_win_with;

    /// A position of a random game, or (odd attempts) a few pieces of each side
    /// scattered anywhere: the endgames where races are decided.
    fn random_position(board: Board, attempt: u32, rng: &mut fastrand::Rng) -> Option<Position> {
        if attempt.is_multiple_of(2) {
            let mut position = Position::start(board);
            for _ in 0..rng.u32(0..3 * board.squares()) {
                let steps = position.steps();
                if steps.is_empty() || position.winner().is_some() {
                    break;
                }
                let next = position.play_step(steps[rng.usize(..steps.len())]);
                if next.winner().is_some() {
                    break;
                }
                position = next;
            }
            return Some(position);
        }
        breakthrough_proof::testing::random_endgame(board, 5, rng)
    }

    /// The closed forms answer as the search does, with the same move: on random open
    /// positions of many boards, for every race length.
    #[test]
    fn closed_forms_agree_with_the_search() {
        let mut rng = fastrand::Rng::with_seed(12);
        let mut wins = [0u32; 6];
        let mut compared = 0;
        for size in [
            "2x6", "3x4", "4x4", "3x5", "5x4", "4x5", "5x5", "6x5", "4x6", "5x6", "6x6", "7x5",
            "3x8", "8x8",
        ] {
            let board: Board = size.parse().unwrap();
            for attempt in 0..10_000 {
                let Some(position) = random_position(board, attempt, &mut rng) else {
                    continue;
                };
                if classify(&position) != Verdict::Open {
                    continue;
                }
                for k in 2..=5 {
                    let searched = race_win_with(&position, k, false);
                    let closed = race_win_with(&position, k, true);
                    assert_eq!(closed, searched, "{size} {position}, {k} moves");
                    wins[k as usize] += u32::from(closed.is_some());
                    compared += 1;
                }
            }
        }
        eprintln!("{compared} questions, wins by length: {wins:?}");
        for k in 2..=5 {
            assert!(wins[k] >= 300, "only {} wins in {k}: {wins:?}", wins[k]);
        }
    }
}
