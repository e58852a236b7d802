//! Proof and disproof numbers: a small saturating type with an explicit infinity.

use std::fmt;
use std::ops::Add;

/// A proof or disproof number. [`Pn::INF`] means "cannot be done" (the other side is
/// proven); finite sums saturate just below it so that an overflow is never
/// mistaken for a proof.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pn(u32);

impl Pn {
    /// Already done: the claim is proven.
    pub const ZERO: Pn = Pn(0);
    /// A fresh leaf.
    pub const ONE: Pn = Pn(1);
    /// Impossible: the opposite claim is proven.
    pub const INF: Pn = Pn(u32::MAX);
    /// The largest finite value.
    pub const MAX_FINITE: Pn = Pn(u32::MAX - 1);

    /// A finite value (saturated to [`Pn::MAX_FINITE`]).
    pub const fn new(value: u32) -> Pn {
        if value == u32::MAX {
            Pn::MAX_FINITE
        } else {
            Pn(value)
        }
    }

    /// The raw value (`u32::MAX` for infinity).
    pub const fn get(self) -> u32 {
        self.0
    }

    /// A number from its raw value, as [`Pn::get`] gave it.
    pub const fn from_raw(value: u32) -> Pn {
        Pn(value)
    }

    /// Whether this is [`Pn::INF`].
    pub const fn is_inf(self) -> bool {
        self.0 == u32::MAX
    }

    /// `self - other` for `other <= self`; infinity stays infinite.
    pub fn minus(self, other: Pn) -> Pn {
        if self.is_inf() {
            Pn::INF
        } else {
            Pn(self.0.saturating_sub(other.0))
        }
    }

    /// The 1+epsilon threshold: at least one more than `self`, and
    /// `ceil(self * (1 + 1/inverse_epsilon))`. Infinity stays infinite, and so does a
    /// value past [`Pn::MAX_FINITE`], so that the result is always above `self`.
    pub fn grow(self, inverse_epsilon: u32) -> Pn {
        if self.is_inf() {
            return Pn::INF;
        }
        let widened =
            u64::from(self.0) + u64::from(self.0).div_ceil(u64::from(inverse_epsilon.max(1)));
        let value = widened.max(u64::from(self.0) + 1);
        match u32::try_from(value) {
            Ok(v) if v <= Pn::MAX_FINITE.0 => Pn(v),
            _ => Pn::INF,
        }
    }
}

impl Add for Pn {
    type Output = Pn;

    /// Infinity absorbs; finite sums saturate at [`Pn::MAX_FINITE`].
    #[inline]
    fn add(self, rhs: Pn) -> Pn {
        if self.is_inf() || rhs.is_inf() {
            Pn::INF
        } else {
            Pn::new(self.0.saturating_add(rhs.0))
        }
    }
}

impl fmt::Display for Pn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_inf() {
            f.write_str("inf")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl fmt::Debug for Pn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_below_infinity() {
        assert_eq!(Pn::MAX_FINITE + Pn::ONE, Pn::MAX_FINITE);
        assert_eq!(Pn::new(3) + Pn::INF, Pn::INF);
        assert!(!(Pn::new(u32::MAX)).is_inf());
        assert_eq!(Pn::INF.minus(Pn::new(5)), Pn::INF);
        assert_eq!(Pn::new(7).minus(Pn::new(5)), Pn::new(2));
    }

    #[test]
    fn grow_is_strictly_larger() {
        assert_eq!(Pn::ZERO.grow(4), Pn::ONE);
        assert_eq!(Pn::ONE.grow(4), Pn::new(2));
        assert_eq!(Pn::new(100).grow(4), Pn::new(125));
        assert_eq!(Pn::INF.grow(4), Pn::INF);
        assert_eq!(Pn::MAX_FINITE.grow(4), Pn::INF);
        assert!(Pn::new(u32::MAX - 3).grow(4) > Pn::new(u32::MAX - 3));
    }
}
