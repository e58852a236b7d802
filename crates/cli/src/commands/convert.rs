//! The engine's and the proof crate's terms as results write them.

use breakthrough_engine::Color;
use breakthrough_proof::Claim;
use breakthrough_result::Side;

/// A side as results name it.
pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// A certificate's claim as results write it.
pub fn claim(claim: Claim) -> breakthrough_result::Claim {
    match claim {
        Claim::Wins => breakthrough_result::Claim::Wins,
        Claim::WinsWithin(plies) => breakthrough_result::Claim::WinsWithin { plies },
        Claim::HoldsOut(plies) => breakthrough_result::Claim::HoldsOut { plies },
        Claim::WinsGiven => breakthrough_result::Claim::WinsGiven,
    }
}
