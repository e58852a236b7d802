//! Board geometry: the size and the masks that move generation shifts against.

use std::fmt;
use std::str::FromStr;

use crate::{Bitboard, Color, Square};

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text is not of the form `WxH`.
    #[error("board size `{0}` is not of the form WxH (columns x rows), for example 6x5")]
    Syntax(String),
    /// Fewer than two columns.
    #[error("board {width}x{height} has fewer than 2 columns")]
    TooNarrow { width: u32, height: u32 },
    /// Fewer than four rows: the two armies would overlap or touch.
    #[error("board {width}x{height} has fewer than 4 rows")]
    TooShort { width: u32, height: u32 },
    /// More than 64 squares: a side no longer fits a `u64`.
    #[error("board {width}x{height} has {} squares, more than 64", u64::from(*width) * u64::from(*height))]
    TooLarge { width: u32, height: u32 },
}

/// A `W`x`H` board (`W` columns, `H` rows) with `W >= 2`, `H >= 4`, `W * H <= 64`.
///
/// Square `(file, rank)` is bit `rank * W + file`; rank 0 is White's home rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    cells: Bitboard,
    not_first_file: Bitboard,
    not_last_file: Bitboard,
    first_rank: Bitboard,
    last_rank: Bitboard,
}

impl Board {
    /// The board with `width` columns and `height` rows, if the size is supported.
    pub fn new(width: u32, height: u32) -> Result<Board, BoardError> {
        if width < 2 {
            return Err(BoardError::TooNarrow { width, height });
        }
        if height < 4 {
            return Err(BoardError::TooShort { width, height });
        }
        if u64::from(width) * u64::from(height) > 64 {
            return Err(BoardError::TooLarge { width, height });
        }
        let squares = width * height;
        let cells = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        let mut first_file = 0u64;
        for rank in 0..height {
            first_file |= 1 << (rank * width);
        }
        let last_file = first_file << (width - 1);
        let first_rank = (1u64 << width) - 1;
        Ok(Board {
            width: width as u8,
            height: height as u8,
            cells: Bitboard(cells),
            not_first_file: Bitboard(cells & !first_file),
            not_last_file: Bitboard(cells & !last_file),
            first_rank: Bitboard(first_rank),
            last_rank: Bitboard(first_rank << ((height - 1) * width)),
        })
    }

    /// Number of columns (files).
    #[inline]
    pub const fn width(self) -> u32 {
        self.width as u32
    }

    /// Number of rows (ranks).
    #[inline]
    pub const fn height(self) -> u32 {
        self.height as u32
    }

    /// Number of squares.
    #[inline]
    pub const fn squares(self) -> u32 {
        self.width() * self.height()
    }

    /// Every square of the board.
    #[inline]
    pub const fn cells(self) -> Bitboard {
        self.cells
    }

    /// Squares off the first file (`a`): those that can step toward file `a`.
    #[inline]
    pub const fn not_first_file(self) -> Bitboard {
        self.not_first_file
    }

    /// Squares off the last file: those that can step away from file `a`.
    #[inline]
    pub const fn not_last_file(self) -> Bitboard {
        self.not_last_file
    }

    /// Rank 1: White's home rank and Black's goal.
    #[inline]
    pub const fn first_rank(self) -> Bitboard {
        self.first_rank
    }

    /// Rank `H`: Black's home rank and White's goal.
    #[inline]
    pub const fn last_rank(self) -> Bitboard {
        self.last_rank
    }

    /// The squares of rank `rank` (0-based from White's side).
    #[inline]
    pub const fn rank(self, rank: u32) -> Bitboard {
        self.first_rank.shl(rank * self.width as u32)
    }

    /// Bit index of a square, or `None` when it lies off this board.
    #[inline]
    pub fn index(self, square: Square) -> Option<u32> {
        (square.file() < self.width() && square.rank() < self.height())
            .then(|| square.rank() * self.width() + square.file())
    }

    /// The square of a bit index (`index < W * H`).
    #[inline]
    pub fn square(self, index: u32) -> Square {
        debug_assert!(index < self.squares());
        Square::new(index % self.width(), index / self.width())
    }

    /// Where `colour`'s `movers` can step, per direction: straight (onto `free`
    /// squares), toward file `a` and away from it (onto squares not in `own`); with
    /// the bit offset `to - from` of each direction. The one place the rules of
    /// movement live: [`crate::Position`]'s move generation and searches over bare
    /// bitboards both call it.
    #[inline]
    pub fn step_targets(
        self,
        colour: Color,
        movers: Bitboard,
        own: Bitboard,
        free: Bitboard,
    ) -> [(Bitboard, i32); 3] {
        let w = self.width();
        let not_own = self.cells & !own;
        let toward_a = movers & self.not_first_file;
        let away_a = movers & self.not_last_file;
        let wi = w as i32;
        match colour {
            Color::White => [
                (movers.shl(w) & free, wi),
                (toward_a.shl(w - 1) & not_own, wi - 1),
                (away_a.shl(w + 1) & not_own, wi + 1),
            ],
            Color::Black => [
                (movers.shr(w) & free, -wi),
                (toward_a.shr(w + 1) & not_own, -wi - 1),
                (away_a.shr(w - 1) & not_own, -wi + 1),
            ],
        }
    }

    /// The left-right mirror image of a set of squares (file `f` to file `W-1-f`).
    pub fn mirror(self, set: Bitboard) -> Bitboard {
        let w = self.width();
        let first_file = self.cells & !self.not_first_file;
        let mut out = 0u64;
        for file in 0..w {
            let column = (set.0 >> file) & first_file.0;
            out |= column << (w - 1 - file);
        }
        Bitboard(out)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses `WxH`, for example `6x5` (6 columns, 5 rows).
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(text.to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let number = |s: &str| -> Result<u32, BoardError> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Anything too long for u32 is far too large a board anyway.
            Ok(s.parse::<u32>().unwrap_or(u32::MAX))
        };
        Board::new(number(w)?, number(h)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_of_a_small_board() {
        let board: Board = "3x4".parse().unwrap();
        assert_eq!(board.cells().0, 0xfff);
        assert_eq!(board.first_rank().0, 0b111);
        assert_eq!(board.last_rank().0, 0b111 << 9);
        assert_eq!(board.not_first_file().0, 0b110_110_110_110);
        assert_eq!(board.not_last_file().0, 0b011_011_011_011);
        assert_eq!(board.rank(2).0, 0b111 << 6);
    }

    #[test]
    fn full_64_square_boards() {
        for (w, h) in [(8, 8), (16, 4), (2, 32), (4, 16)] {
            let board = Board::new(w, h).unwrap();
            assert_eq!(board.cells().0, u64::MAX);
            assert_eq!(board.last_rank().len(), w);
            assert_eq!(board.to_string(), format!("{w}x{h}"));
        }
    }

    #[test]
    fn refuses_unsupported_sizes() {
        assert!(matches!(
            "1x8".parse::<Board>(),
            Err(BoardError::TooNarrow { .. })
        ));
        assert!(matches!(
            "8x3".parse::<Board>(),
            Err(BoardError::TooShort { .. })
        ));
        assert!(matches!(
            "9x8".parse::<Board>(),
            Err(BoardError::TooLarge { .. })
        ));
        assert!(matches!(
            "5x99999999999".parse::<Board>(),
            Err(BoardError::TooLarge { .. })
        ));
        for bad in ["", "6", "6x", "x5", "6x5x", "a x5", "-6x5", "6*5", "6x+5"] {
            assert!(
                matches!(bad.parse::<Board>(), Err(BoardError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn mirror_swaps_files() {
        let board = Board::new(5, 4).unwrap();
        let a1 = Bitboard::from_index(0);
        let e1 = Bitboard::from_index(4);
        let b3 = Bitboard::from_index(11);
        let d3 = Bitboard::from_index(13);
        assert_eq!(board.mirror(a1 | b3), e1 | d3);
        assert_eq!(board.mirror(board.cells()), board.cells());
    }
}
