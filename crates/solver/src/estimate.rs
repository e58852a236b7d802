//! A learned estimate of who wins a position, for df-pn's initial numbers (df-pn+).
//!
//! A logistic model over a few features of the position, seen from the side to move:
//! material, advancement, the leading piece, pieces attacked and defended, home-row
//! defenders and pieces past the middle, each divided by the board's width or
//! height so that one model serves every board. Its weights ([`WEIGHTS`]) come from
//! `breakthrough-lab train`, fitted to positions our campaigns and proofs settled;
//! they are constants, so the search stays deterministic.
//!
//! The estimate only orders the search: a wrong estimate costs nodes, never a wrong
//! answer, since every proof still goes down to the rules.

use breakthrough_engine::{Bitboard, Board, Color, Position};

/// How many features [`features`] gives (the first is the constant 1).
pub const FEATURES: usize = 8;

/// The features' names, in [`features`]' order, for the training's report.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "bias",
    "material",
    "advancement",
    "leader",
    "attacked",
    "defended",
    "home row",
    "past middle",
];

/// The model's weights, in [`features`]' order: the log-odds that the side to move
/// wins is their dot product with the features. Fitted by `breakthrough-lab train`
/// (docs/lab.md) to the positions named in docs/performance.md ("Learned initial
/// numbers").
pub const WEIGHTS: [f32; FEATURES] = [
    1.2446,  // bias
    6.0729,  // material
    8.3939,  // advancement
    -0.6724, // leader
    2.7312,  // attacked
    0.5008,  // defended
    4.4157,  // home row
    -0.8583, // past middle
];

/// The weight df-pn gives the estimate by default (see [`initial_numbers`]).
pub const DEFAULT_WEIGHT: f32 = 4.0;

/// The most the weighted log-odds counts, either way: a leaf's numbers change by a
/// factor of at most `e^10`, about 22,000, so that no estimate puts a line out of
/// the search's reach for long.
const MOST: f32 = 10.0;

/// A new leaf's numbers before deep df-pn's bias, from its `moves` (the moves worth
/// searching): `phi = 1` and `delta = moves` (df-pn+ with mobility), scaled by
/// `e^(-s)` and `e^s` for `s` the estimate's log-odds that the side to move wins
/// times `weight`, each at least 1. A position the side to move likely wins looks
/// cheap to prove and dear to disprove, and the other way round. With `weight` 0,
/// plain mobility.
#[inline]
pub fn initial_numbers(position: &Position, moves: u32, weight: f32) -> (u32, u32) {
    if weight == 0.0 {
        return (1, moves);
    }
    let s = (log_odds(position) * weight).clamp(-MOST, MOST);
    let phi = (-s).exp().round().max(1.0) as u32;
    let delta = (moves as f32 * s.exp()).round().max(1.0) as u32;
    (phi, delta)
}

/// The squares `colour`'s pieces in `pieces` could capture on.
#[inline]
fn attacks(board: Board, colour: Color, pieces: Bitboard) -> Bitboard {
    let [_, left, right] = board.step_targets(colour, pieces, Bitboard::EMPTY, Bitboard::EMPTY);
    left.0 | right.0
}

/// What one side has, by the features' measures (in pieces or rows).
struct Side {
    pieces: u32,
    /// Rows advanced from its home rank, summed over its pieces.
    advancement: u32,
    /// Rows advanced by its most advanced piece.
    leader: u32,
    attacked: u32,
    defended: u32,
    home_row: u32,
    past_middle: u32,
}

fn side(position: &Position, colour: Color) -> Side {
    let board = position.board();
    let (w, h) = (board.width(), board.height());
    let own = position.pieces(colour);
    let theirs = position.pieces(colour.opponent());
    // Rank r (from White's side) is `r` rows advanced for White, `h - 1 - r` for Black.
    let advanced = |rank: u32| match colour {
        Color::White => rank,
        Color::Black => h - 1 - rank,
    };
    let mut advancement = 0;
    let mut past_middle = 0;
    for rank in 0..h {
        let here = (own & board.rank(rank)).len();
        advancement += advanced(rank) * here;
        if 2 * advanced(rank) >= h {
            past_middle += here;
        }
    }
    let leader = match colour {
        Color::White => own.last(),
        Color::Black => own.first(),
    }
    .map_or(0, |index| advanced(index / w));
    let home = match colour {
        Color::White => board.first_rank(),
        Color::Black => board.last_rank(),
    };
    Side {
        pieces: own.len(),
        advancement,
        leader,
        attacked: (own & attacks(board, colour.opponent(), theirs)).len(),
        defended: (own & attacks(board, colour, own)).len(),
        home_row: (own & home).len(),
        past_middle,
    }
}

/// The features of `position` from the side to move's point of view, each the side
/// to move's measure less its opponent's, divided by the board's width (counts of
/// pieces) or height (rows).
pub fn features(position: &Position) -> [f32; FEATURES] {
    let board = position.board();
    let (w, h) = (board.width() as f32, board.height() as f32);
    let us = side(position, position.to_move());
    let them = side(position, position.to_move().opponent());
    let diff = |a: u32, b: u32| a as f32 - b as f32;
    [
        1.0,
        diff(us.pieces, them.pieces) / w,
        diff(us.advancement, them.advancement) / (w * h),
        diff(us.leader, them.leader) / h,
        diff(us.attacked, them.attacked) / w,
        diff(us.defended, them.defended) / w,
        diff(us.home_row, them.home_row) / w,
        diff(us.past_middle, them.past_middle) / w,
    ]
}

/// The log-odds that the side to move wins, by `weights`.
#[inline]
pub fn log_odds_with(position: &Position, weights: &[f32; FEATURES]) -> f32 {
    features(position)
        .iter()
        .zip(weights)
        .map(|(x, w)| x * w)
        .sum()
}

/// The log-odds that the side to move wins, by the shipped [`WEIGHTS`].
#[inline]
pub fn log_odds(position: &Position) -> f32 {
    log_odds_with(position, &WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_zero_is_plain_mobility_and_numbers_stay_positive() {
        let position: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
        assert_eq!(initial_numbers(&position, 7, 0.0), (1, 7));
        // Black, a piece up, looks cheap to prove and dear to disprove; White, seven
        // pieces down, the other way round.
        let (phi, delta) = initial_numbers(&position, 7, DEFAULT_WEIGHT);
        assert!(phi == 1 && delta > 7, "{phi} {delta}");
        let white: Position = "BBBBB/BBBBB/5/5/WWW2 w".parse().unwrap();
        let (phi, delta) = initial_numbers(&white, 7, DEFAULT_WEIGHT);
        assert!(phi > 1 && (1..7).contains(&delta), "{phi} {delta}");
        // However lopsided, within e^MOST either way and never 0.
        let lopsided: Position = "B4/5/5/WWWWW/WWWWW b".parse().unwrap();
        assert_eq!(
            initial_numbers(&lopsided, 1, 100.0),
            (MOST.exp().round() as u32, 1)
        );
    }

    #[test]
    fn features_are_antisymmetric_and_mirror_blind() {
        let position: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
        let f = features(&position);
        assert_eq!(f[0], 1.0);
        assert_eq!(features(&position.mirror()), f);
        // The start position is even for both sides but for the side to move.
        let start = Position::start("6x5".parse().unwrap());
        assert!(features(&start)[1..].iter().all(|&x| x == 0.0));
        // Black, to move, has a piece more here, and both leaders are 2 rows up.
        assert_eq!(f[1], 1.0 / 5.0);
        assert_eq!(f[3], 0.0);
        let white: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW w".parse().unwrap();
        assert_eq!(features(&white)[1], -1.0 / 5.0);
    }
}
