//! Squares and moves as text: `c5`, `a2-a3`, `b4xa3`.

use std::fmt;
use std::str::FromStr;

/// Files are letters `a` to `p`: no supported board is wider than 16 columns.
const MAX_FILES: u32 = 16;
/// No supported board is taller than 32 rows (`2x32`).
const MAX_RANKS: u32 = 32;

/// A square by its coordinates: `file` 0 is `a`, `rank` 0 is rank 1.
///
/// Squares do not know the board; [`crate::Board::index`] says whether one lies on it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square at 0-based `file` and `rank` (each below 64).
    pub const fn new(file: u32, rank: u32) -> Square {
        assert!(file < 64 && rank < 64);
        Square {
            file: file as u8,
            rank: rank as u8,
        }
    }

    /// 0-based file (`a` is 0).
    pub const fn file(self) -> u32 {
        self.file as u32
    }

    /// 0-based rank (rank 1 is 0).
    pub const fn rank(self) -> u32 {
        self.rank as u32
    }
}

/// Why a square or move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("`{0}` is not a square: expected a file letter a-p then a rank number 1-32, as in c5")]
    Square(String),
    #[error(
        "`{0}` is not a move: expected from-square, `-` or `x`, to-square, as in a2-a3 or b4xa3"
    )]
    Move(String),
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for Square {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Square, NotationError> {
        let bad = || NotationError::Square(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let digits = chars.as_str();
        if !letter.is_ascii_lowercase() || digits.is_empty() || digits.starts_with('0') {
            return Err(bad());
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let file = u32::from(letter) - u32::from('a');
        let rank: u32 = digits.parse().map_err(|_| bad())?;
        if file >= MAX_FILES || rank > MAX_RANKS {
            return Err(bad());
        }
        Ok(Square::new(file, rank - 1))
    }
}

/// A move: one piece one square forward, straight or diagonally, maybe capturing.
///
/// The text is `a2-a3` for a quiet move and `b4xa3` for a capture. Whether a move is
/// legal, and whether its separator is right, depends on a position:
/// see [`crate::Position::parse_move`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// Whether it removes an enemy piece on `to`.
    pub capture: bool,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{sep}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Move, NotationError> {
        let bad = || NotationError::Move(text.to_string());
        let (split, capture) = match (text.find('-'), text.find('x')) {
            (Some(i), None) => (i, false),
            (None, Some(i)) => (i, true),
            _ => return Err(bad()),
        };
        let from = text[..split].parse().map_err(|_| bad())?;
        let to = text[split + 1..].parse().map_err(|_| bad())?;
        Ok(Move { from, to, capture })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trips() {
        for file in 0..MAX_FILES {
            for rank in 0..MAX_RANKS {
                let square = Square::new(file, rank);
                assert_eq!(square.to_string().parse::<Square>(), Ok(square));
            }
        }
        assert_eq!("p32".parse::<Square>(), Ok(Square::new(15, 31)));
    }

    #[test]
    fn bad_squares() {
        for bad in [
            "", "a", "a0", "a01", "q1", "A1", "a33", "a1x", "1a", "a-1", "é1", "a100",
        ] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn move_text_round_trips() {
        for text in ["a2-a3", "b4xa3", "p31-p32", "c10xb9"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        for bad in [
            "", "a2a3", "a2-", "-a3", "a2-a3-a4", "a2xa3xa4", "a2-xa3", "a2--a3",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
