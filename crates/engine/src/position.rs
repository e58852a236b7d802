//! Positions: where the pieces stand and who moves; move generation and play.

use std::fmt;

use crate::{zobrist, Bitboard, Board, Color, Move, Square};

/// A move given as bit indices on the position's board; the fast form of [`Move`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    /// Bit index the piece leaves.
    pub from: u8,
    /// Bit index the piece reaches.
    pub to: u8,
}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Notation(#[from] crate::NotationError),
    #[error("{mv} is not legal here: {reason}")]
    Illegal { mv: Move, reason: &'static str },
    #[error("{mv} is a capture: write it as {right}")]
    ShouldCapture { mv: Move, right: Move },
    #[error("{mv} captures nothing: write it as {right}")]
    ShouldNotCapture { mv: Move, right: Move },
}

/// A Breakthrough position: the board, both armies, the side to move and its hash.
///
/// Values are always valid: the armies are disjoint and on the board, and no piece
/// of the side to move stands on its goal rank. Positions where the game is over are
/// valid too; [`Position::winner`] tells them apart.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pieces: [Bitboard; 2],
    hash: u64,
    to_move: Color,
    board: Board,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Why a set-up is not a reachable kind of position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a square holds both a White and a Black piece ({0})")]
    BothColours(Square),
    #[error("a piece stands off the {board} board")]
    OffBoard { board: Board },
    #[error("{colour} has {count} pieces; at most {max} fit on two ranks of this board")]
    TooManyPieces { colour: Color, count: u32, max: u32 },
    #[error("{colour} is to move but already has a piece on its goal rank ({square}): the game ended before")]
    GoalReachedBefore { colour: Color, square: Square },
    #[error("both sides have a piece on their goal rank")]
    BothGoalsReached,
    #[error("{colour} just moved but has no pieces")]
    MoverHasNoPieces { colour: Color },
}

impl Position {
    /// The start position: White fills ranks 1-2, Black ranks `H-1` and `H`, White to move.
    pub fn start(board: Board) -> Position {
        let white = board.rank(0) | board.rank(1);
        let black = board.rank(board.height() - 2) | board.rank(board.height() - 1);
        Position::from_parts_unchecked(board, white, black, Color::White)
    }

    /// A position from raw parts, refusing any that no game could reach in kind
    /// (overlapping armies, pieces off the board, more pieces than the set-up gives,
    /// a game that should already have ended).
    pub fn try_from_parts(
        board: Board,
        white: Bitboard,
        black: Bitboard,
        to_move: Color,
    ) -> Result<Position, SetupError> {
        if !((white | black) & !board.cells()).is_empty() {
            return Err(SetupError::OffBoard { board });
        }
        if let Some(index) = (white & black).first() {
            return Err(SetupError::BothColours(board.square(index)));
        }
        let max = 2 * board.width();
        for (colour, set) in [(Color::White, white), (Color::Black, black)] {
            if set.len() > max {
                return Err(SetupError::TooManyPieces {
                    colour,
                    count: set.len(),
                    max,
                });
            }
        }
        let white_home = white & board.last_rank();
        let black_home = black & board.first_rank();
        if !white_home.is_empty() && !black_home.is_empty() {
            return Err(SetupError::BothGoalsReached);
        }
        let (own_goal, mover) = match to_move {
            Color::White => (white_home, black),
            Color::Black => (black_home, white),
        };
        if let Some(index) = own_goal.first() {
            return Err(SetupError::GoalReachedBefore {
                colour: to_move,
                square: board.square(index),
            });
        }
        if mover.is_empty() {
            return Err(SetupError::MoverHasNoPieces {
                colour: to_move.opponent(),
            });
        }
        Ok(Position::from_parts_unchecked(board, white, black, to_move))
    }

    fn from_parts_unchecked(
        board: Board,
        white: Bitboard,
        black: Bitboard,
        to_move: Color,
    ) -> Position {
        let mut position = Position {
            pieces: [white, black],
            hash: 0,
            to_move,
            board,
        };
        position.hash = position.compute_hash();
        position
    }

    /// The board geometry.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The pieces of one side.
    #[inline]
    pub fn pieces(&self, colour: Color) -> Bitboard {
        self.pieces[colour.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// The 64-bit Zobrist hash, kept up to date move by move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (equal to [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.to_move == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for colour in [Color::White, Color::Black] {
            for index in self.pieces(colour) {
                hash ^= zobrist::piece(colour.index(), index);
            }
        }
        hash
    }

    /// The left-right mirror image; the game is symmetric under it.
    pub fn mirror(&self) -> Position {
        let [white, black] = self.pieces.map(|set| self.board.mirror(set));
        Position::from_parts_unchecked(self.board, white, black, self.to_move)
    }

    /// The targets of the side to move, per direction: straight, toward file `a`,
    /// away from file `a`; with the bit offset `to - from` of each direction.
    #[inline]
    fn targets(&self) -> [(Bitboard, i32); 3] {
        let own = self.pieces[self.to_move.index()];
        let free = self.board.cells() & !self.occupied();
        self.board.step_targets(self.to_move, own, own, free)
    }

    /// Whether the last move reached the goal: the side not to move stands on its goal rank.
    #[inline]
    fn goal_reached(&self) -> bool {
        match self.to_move {
            Color::White => !(self.pieces[1] & self.board.first_rank()).is_empty(),
            Color::Black => !(self.pieces[0] & self.board.last_rank()).is_empty(),
        }
    }

    /// Number of legal moves (0 once the game is over): the last ply of a bulk perft.
    #[inline]
    pub fn move_count(&self) -> u32 {
        if self.goal_reached() {
            return 0;
        }
        self.targets().iter().map(|(set, _)| set.len()).sum()
    }

    /// Number of legal moves of the side to move that capture on the square with bit
    /// index `index` (0, 1 or 2: only diagonal moves capture).
    #[inline]
    pub fn captures_on(&self, index: u32) -> u32 {
        if self.goal_reached() || !self.pieces[self.to_move.opponent().index()].has(index) {
            return 0;
        }
        let [_, (toward_a, _), (away_a, _)] = self.targets();
        u32::from(toward_a.has(index)) + u32::from(away_a.has(index))
    }

    /// Calls `visit` with every legal move, in a fixed order (by direction, then by
    /// target square). Nothing is visited once the game is over.
    #[inline]
    pub fn for_each_step(&self, mut visit: impl FnMut(Step)) {
        if self.goal_reached() {
            return;
        }
        for (set, offset) in self.targets() {
            for to in set {
                let from = (to as i32 - offset) as u8;
                visit(Step { from, to: to as u8 });
            }
        }
    }

    /// Every legal move as bit-index steps, in the order of [`Position::for_each_step`].
    pub fn steps(&self) -> Vec<Step> {
        let mut steps = Vec::with_capacity(self.move_count() as usize);
        self.for_each_step(|step| steps.push(step));
        steps
    }

    /// Every legal move, in the order of [`Position::for_each_step`].
    pub fn legal_moves(&self) -> Vec<Move> {
        self.steps()
            .into_iter()
            .map(|step| self.to_move_text(step))
            .collect()
    }

    /// The notation of a legal step.
    pub fn to_move_text(&self, step: Step) -> Move {
        let opponent = self.pieces[self.to_move.opponent().index()];
        Move {
            from: self.board.square(step.from.into()),
            to: self.board.square(step.to.into()),
            capture: opponent.has(step.to.into()),
        }
    }

    /// The position after a legal step. The step must come from this position's
    /// move generation; anything else gives a meaningless position.
    #[inline]
    pub fn play_step(&self, step: Step) -> Position {
        let us = self.to_move.index();
        let them = 1 - us;
        let from = u32::from(step.from);
        let to = u32::from(step.to);
        let mut next = *self;
        next.pieces[us] ^= Bitboard::from_index(from) | Bitboard::from_index(to);
        next.hash ^= zobrist::piece(us, from) ^ zobrist::piece(us, to) ^ zobrist::BLACK_TO_MOVE;
        if self.pieces[them].has(to) {
            next.pieces[them] ^= Bitboard::from_index(to);
            next.hash ^= zobrist::piece(them, to);
        }
        next.to_move = self.to_move.opponent();
        next
    }

    /// The step of a move if it is legal here (separator included), else why not.
    pub fn try_step(&self, mv: Move) -> Result<Step, MoveError> {
        let illegal = |reason| MoveError::Illegal { mv, reason };
        if self.winner().is_some() {
            return Err(illegal("the game is over"));
        }
        let (Some(from), Some(to)) = (self.board.index(mv.from), self.board.index(mv.to)) else {
            return Err(illegal("a square is off the board"));
        };
        let step = self
            .steps()
            .into_iter()
            .find(|s| u32::from(s.from) == from && u32::from(s.to) == to)
            .ok_or_else(|| {
                illegal(if !self.pieces(self.to_move).has(from) {
                    "the side to move has no piece on the from-square"
                } else {
                    "that piece cannot go there"
                })
            })?;
        let right = self.to_move_text(step);
        match (mv.capture, right.capture) {
            (false, true) => Err(MoveError::ShouldCapture { mv, right }),
            (true, false) => Err(MoveError::ShouldNotCapture { mv, right }),
            _ => Ok(step),
        }
    }

    /// The legal move this text names (`a2-a3`, `b4xa3`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv: Move = text.parse()?;
        self.try_step(mv)?;
        Ok(mv)
    }

    /// The position after a legal move, or why it is not legal.
    pub fn try_play(&self, mv: Move) -> Result<Position, MoveError> {
        Ok(self.play_step(self.try_step(mv)?))
    }

    /// The position after a move.
    ///
    /// # Panics
    /// If the move is not legal here; see [`Position::try_play`].
    pub fn play(&self, mv: Move) -> Position {
        match self.try_play(mv) {
            Ok(next) => next,
            Err(err) => panic!("{err}"),
        }
    }

    /// The winner once the game is over, `None` while it goes on.
    ///
    /// The game is over when the last move reached the goal rank, or when the side to
    /// move has no pieces or no legal move (then it loses).
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        if self.goal_reached() || self.targets().iter().all(|(set, _)| set.is_empty()) {
            Some(self.to_move.opponent())
        } else {
            None
        }
    }

    /// The position after `plies` moves from the start of `board`, each the move of
    /// index `pick(n)` among the `n` of [`Position::steps`], or `None` if the game
    /// ends first. Tests and the lab draw their random positions with it, the
    /// randomness (and so the crate that gives it) being the caller's.
    ///
    /// # Panics
    /// If `pick(n)` returns an index not below `n`.
    pub fn after_moves(
        board: Board,
        plies: u32,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Option<Position> {
        let mut position = Position::start(board);
        for _ in 0..plies {
            let steps = position.steps();
            position = position.play_step(steps[pick(steps.len())]);
            if position.winner().is_some() {
                return None;
            }
        }
        Some(position)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {self})", self.board)
    }
}
