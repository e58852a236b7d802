//! The position text format of `docs/RULES.md` and a board diagram for people.
//!
//! `BBBBB/BBBBB/5/WWWWW/WWWWW w`: ranks from the top down, `W`/`B` pieces, decimal
//! runs of empty squares, then the side to move.

use std::fmt;
use std::str::FromStr;

use crate::{Bitboard, Board, BoardError, Color, Position, SetupError};

/// Why a position text was refused; each variant says where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("position text is empty")]
    Empty,
    #[error("position needs the side to move after the ranks: ` w` or ` b`")]
    MissingSideToMove,
    #[error("side to move is `{0}`; expected `w` or `b`")]
    BadSideToMove(String),
    #[error("unexpected text `{0}` after the side to move")]
    TrailingText(String),
    #[error("rank {rank} (`{text}`): unknown character `{found}` at column {column}; use W, B or a number of empty squares")]
    UnknownChar {
        rank: u32,
        text: String,
        found: char,
        column: usize,
    },
    #[error("rank {rank} (`{text}`): a run of empty squares is 0 or starts with 0")]
    ZeroRun { rank: u32, text: String },
    #[error("rank {rank} (`{text}`) is {found} squares wide, but rank {first_rank} is {expected}")]
    RankWidth {
        rank: u32,
        text: String,
        found: u32,
        expected: u32,
        first_rank: u32,
    },
    #[error("rank {rank} is empty text (two `/` in a row, or one at an end)")]
    EmptyRank { rank: u32 },
    #[error("the position is {found} but the board given is {expected}")]
    SizeMismatch { expected: Board, found: Board },
    #[error("the position's size: {0}")]
    Board(#[from] BoardError),
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl Position {
    /// Parses a position that must be on `board`.
    pub fn parse_on(board: Board, text: &str) -> Result<Position, PositionError> {
        let position: Position = text.parse()?;
        if position.board() != board {
            return Err(PositionError::SizeMismatch {
                expected: board,
                found: position.board(),
            });
        }
        Ok(position)
    }

    /// `W` or `B` for the piece on a bit index, `None` when it is empty.
    fn piece_letter(&self, index: u32) -> Option<char> {
        if self.pieces(Color::White).has(index) {
            Some('W')
        } else if self.pieces(Color::Black).has(index) {
            Some('B')
        } else {
            None
        }
    }

    /// A diagram with rank numbers and file letters, White `W`, Black `B`, empty `.`.
    pub fn diagram(&self) -> String {
        let board = self.board();
        let mut out = String::new();
        let label_width = board.height().to_string().len();
        for rank in (0..board.height()).rev() {
            out.push_str(&format!("{:>label_width$} ", rank + 1));
            for file in 0..board.width() {
                let cell = self
                    .piece_letter(rank * board.width() + file)
                    .unwrap_or('.');
                out.push(' ');
                out.push(cell);
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(label_width + 1));
        for file in 0..board.width() {
            out.push(' ');
            out.push(char::from(b'a' + file as u8));
        }
        out.push('\n');
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        for rank in (0..board.height()).rev() {
            let mut empty = 0;
            for file in 0..board.width() {
                let Some(piece) = self.piece_letter(rank * board.width() + file) else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                write!(f, "{piece}")?;
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        };
        write!(f, " {side}")
    }
}

/// One rank's pieces: (white, black) as bits 0..width, and its width.
fn parse_rank(text: &str, rank: u32) -> Result<(u64, u64, u32), PositionError> {
    let (mut white, mut black, mut width) = (0u64, 0u64, 0u32);
    let mut chars = text.char_indices().peekable();
    while let Some((column, c)) = chars.next() {
        match c {
            'W' | 'B' => {
                if width < 64 {
                    let bit = 1u64 << width;
                    if c == 'W' {
                        white |= bit;
                    } else {
                        black |= bit;
                    }
                }
                width = width.saturating_add(1);
            }
            '0' => {
                return Err(PositionError::ZeroRun {
                    rank,
                    text: text.to_string(),
                })
            }
            '1'..='9' => {
                let mut run = c.to_digit(10).unwrap_or(0);
                while let Some(&(_, d)) = chars.peek() {
                    let Some(digit) = d.to_digit(10) else { break };
                    run = run.saturating_mul(10).saturating_add(digit);
                    chars.next();
                }
                width = width.saturating_add(run);
            }
            found => {
                return Err(PositionError::UnknownChar {
                    rank,
                    text: text.to_string(),
                    found,
                    column: column + 1,
                })
            }
        }
    }
    Ok((white, black, width))
}

impl FromStr for Position {
    type Err = PositionError;

    /// Parses the text format; the board size is implied by the ranks.
    fn from_str(text: &str) -> Result<Position, PositionError> {
        let mut words = text.split_whitespace();
        let ranks_text = words.next().ok_or(PositionError::Empty)?;
        let side = words.next().ok_or(PositionError::MissingSideToMove)?;
        if let Some(extra) = words.next() {
            return Err(PositionError::TrailingText(extra.to_string()));
        }
        let to_move = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(PositionError::BadSideToMove(other.to_string())),
        };
        let ranks: Vec<&str> = ranks_text.split('/').collect();
        let height = u32::try_from(ranks.len()).unwrap_or(u32::MAX);
        let mut rows = Vec::with_capacity(ranks.len());
        let mut width = None;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = height - i as u32;
            if rank_text.is_empty() {
                return Err(PositionError::EmptyRank { rank });
            }
            let (white, black, w) = parse_rank(rank_text, rank)?;
            match width {
                None => width = Some(w),
                Some(expected) if expected != w => {
                    return Err(PositionError::RankWidth {
                        rank,
                        text: rank_text.to_string(),
                        found: w,
                        expected,
                        first_rank: height,
                    })
                }
                Some(_) => {}
            }
            rows.push((white, black));
        }
        let width = width.unwrap_or(0);
        let board = Board::new(width, height)?;
        let (mut white, mut black) = (0u64, 0u64);
        for (i, (w, b)) in rows.into_iter().enumerate() {
            let shift = (height - 1 - i as u32) * width;
            white |= w << shift;
            black |= b << shift;
        }
        Ok(Position::try_from_parts(
            board,
            Bitboard(white),
            Bitboard(black),
            to_move,
        )?)
    }
}
