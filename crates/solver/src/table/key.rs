//! Table keys: a position up to the left-right mirror, so both images share an
//! entry, and the question asked of it.
//!
//! A plain key asks who wins. A bounded key (see [`Key::within`]) asks whether one
//! side wins within a number of plies: the exact-length search's question, whose
//! answer depends on the plies left as well as on the position.

use breakthrough_engine::{Color, Position};

/// The full identity of a position up to mirroring: both armies and the side to move.
/// Of a position and its mirror image, the key holds the one with the smaller armies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    pub white: u64,
    pub black: u64,
    pub black_to_move: bool,
    /// The question: 0 asks who wins; `n + 1` asks whether the side that wins at odd
    /// plies (the side to move when `n` is odd, its opponent when `n` is even) wins
    /// within `n` plies (see [`Key::within`]).
    pub horizon: u8,
}

/// The most plies a bounded key holds: more than the longest game on any board
/// (`2*W*(2*H-5)+1 <= 237` for `W*H <= 64`).
pub const MAX_HORIZON: u32 = 254;

impl Key {
    /// The key of a position (the same for its mirror image).
    #[inline]
    pub fn of(position: &Position) -> Key {
        let board = position.board();
        let white = position.pieces(Color::White);
        let black = position.pieces(Color::Black);
        let mirrored = (board.mirror(white).0, board.mirror(black).0);
        let (white, black) = mirrored.min((white.0, black.0));
        Key {
            white,
            black,
            black_to_move: position.to_move() == Color::Black,
            horizon: 0,
        }
    }

    /// The key of "does `winner` win within `plies` plies?" at `position`.
    ///
    /// The winner's wins come on its own moves, at odd plies from a position where it
    /// is to move and at even plies otherwise; `plies` is rounded down to that parity,
    /// so that equal questions share a key, and from then on the parity of the plies
    /// left tells which side the question is about.
    #[inline]
    pub fn within(position: &Position, winner: Color, plies: u32) -> Key {
        let odd = u32::from(position.to_move() == winner);
        let plies = plies.min(MAX_HORIZON);
        let plies = if plies % 2 == odd {
            plies
        } else {
            plies.saturating_sub(1)
        };
        Key {
            horizon: plies as u8 + 1,
            ..Key::of(position)
        }
    }

    /// The plies left to a bounded question; `None` for a plain key.
    #[inline]
    pub fn plies_left(&self) -> Option<u32> {
        self.horizon.checked_sub(1).map(u32::from)
    }

    /// The key of `child`, a position after a move from this key's position: the same
    /// question, one ply fewer.
    #[inline]
    pub fn of_child(&self, child: &Position) -> Key {
        Key {
            horizon: self
                .horizon
                .saturating_sub(1)
                .max(u8::from(self.horizon > 0)),
            ..Key::of(child)
        }
    }

    /// A well-mixed 64-bit hash of the key, to pick a table slot.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.white.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ self
                .black
                .rotate_left(29)
                .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ u64::from(self.black_to_move)
            ^ u64::from(self.horizon) << 1;
        h ^= h >> 32;
        h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
        h ^= h >> 32;
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_share_a_key() {
        let position: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
        assert_eq!(Key::of(&position), Key::of(&position.mirror()));
        let other: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW w".parse().unwrap();
        assert_ne!(Key::of(&position), Key::of(&other));
        assert_ne!(Key::of(&position).hash(), Key::of(&other).hash());
    }
}
