//! A position up to the left-right mirror: the rules are the same seen in a mirror,
//! so a proof of one image proves the other.

use breakthrough_engine::{Color, Position};

/// A position and its mirror image as one: the board, both armies (of the two
/// images, the one with the smaller armies) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    width: u32,
    height: u32,
    white: u64,
    black: u64,
    black_to_move: bool,
}

impl Identity {
    /// The identity of `position`, the same for its mirror image.
    pub fn of(position: &Position) -> Identity {
        let board = position.board();
        let white = position.pieces(Color::White);
        let black = position.pieces(Color::Black);
        let mirrored = (board.mirror(white).0, board.mirror(black).0);
        let (white, black) = mirrored.min((white.0, black.0));
        Identity {
            width: board.width(),
            height: board.height(),
            white,
            black,
            black_to_move: position.to_move() == Color::Black,
        }
    }

    /// The armies (white, black) of the image it holds, and whether black is to move.
    pub fn armies(&self) -> (u64, u64, bool) {
        (self.white, self.black, self.black_to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_are_one_position() {
        let position: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
        assert_eq!(Identity::of(&position), Identity::of(&position.mirror()));
        let other: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW w".parse().unwrap();
        assert_ne!(Identity::of(&position), Identity::of(&other));
        let taller: Position = "5/1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
        assert_ne!(Identity::of(&position), Identity::of(&taller));
    }
}
