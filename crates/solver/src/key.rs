//! Table keys: a position up to the left-right mirror, so both images share an entry.

use breakthrough_engine::{Color, Position};

/// The full identity of a position up to mirroring: both armies and the side to move.
/// Of a position and its mirror image, the key holds the one with the smaller armies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    pub white: u64,
    pub black: u64,
    pub black_to_move: bool,
}

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
            ^ u64::from(self.black_to_move);
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
