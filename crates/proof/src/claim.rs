//! What a certificate claims of its side.

/// What a certificate proves of its side (the side with one move at each of its
/// positions; the other side answers with every legal move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The side wins: every game ends won by it.
    Wins,
    /// The side wins within this many plies: every game ends won by it, none longer.
    WinsWithin(u32),
    /// The side holds out this many plies: no game ends won by its opponent within
    /// them (each ends won by the side, or reaches the bound with the game going on).
    HoldsOut(u32),
    /// The side wins, given the positions the proof marks as proven elsewhere: the
    /// top of a proof in several files (a campaign's), whose leaves other
    /// certificates prove (see [`VerifyReport::given`](crate::VerifyReport::given)).
    WinsGiven,
}

impl Claim {
    /// The claim in words, for `side`: "black wins within 26 plies".
    pub fn describe(self, side: breakthrough_engine::Color) -> String {
        match self {
            Claim::Wins => format!("{side} wins"),
            Claim::WinsWithin(plies) => format!("{side} wins within {plies} plies"),
            Claim::HoldsOut(plies) => format!("{side} holds out {plies} plies"),
            Claim::WinsGiven => format!("{side} wins, given positions proven elsewhere"),
        }
    }

    /// The bound in plies; `None` for the unbounded claims.
    pub fn plies(self) -> Option<u32> {
        match self {
            Claim::Wins | Claim::WinsGiven => None,
            Claim::WinsWithin(plies) | Claim::HoldsOut(plies) => Some(plies),
        }
    }
}
