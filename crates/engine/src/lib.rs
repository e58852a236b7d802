//! The rules of Breakthrough on any `W`x`H` board with `W >= 2`, `H >= 4` and
//! `W * H <= 64`, as bitboards: move generation by shifts and edge masks, play,
//! game-over detection, an incremental Zobrist hash, the left-right mirror, the text
//! formats of `docs/RULES.md` and perft. No I/O.
//!
//! ```
//! use breakthrough_engine::{perft, Board, Color, Position};
//!
//! let board: Board = "5x5".parse()?;
//! let start = Position::start(board);
//! assert_eq!(start.to_string(), "BBBBB/BBBBB/5/WWWWW/WWWWW w");
//! assert_eq!(perft(&start, 3), 1924);
//!
//! let after = start.play(start.parse_move("a2-a3")?);
//! assert_eq!(after.to_move(), Color::Black);
//! assert_eq!(after.hash(), after.compute_hash());
//! assert_eq!(after.winner(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod board;
mod color;
mod notation;
mod perft;
mod position;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, Indices};
pub use board::{Board, BoardError};
pub use color::Color;
pub use notation::PositionError;
pub use perft::perft;
pub use position::{MoveError, Position, SetupError, Step};
pub use square::{Move, NotationError, Square};

/// The most legal moves any position has: three per piece, at most `2 * 16` pieces.
pub const MAX_MOVES: usize = 96;
