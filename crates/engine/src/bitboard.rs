//! A set of squares as the bits of a `u64`.
//!
//! Bit `i` stands for the square with index `i = rank * width + file` on the board in
//! use (see [`crate::Board`]); the bitboard itself does not know the width.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices, at most 64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only the square with this index (`index < 64`).
    #[inline]
    pub const fn from_index(index: u32) -> Bitboard {
        Bitboard(1 << index)
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no squares.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the square with this index is in the set.
    #[inline]
    pub const fn has(self, index: u32) -> bool {
        self.0 >> index & 1 != 0
    }

    /// The lowest index in the set, if any.
    #[inline]
    pub const fn first(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros())
        }
    }

    /// The highest set index, if any.
    #[inline]
    pub const fn last(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(63 - self.0.leading_zeros())
        }
    }

    /// Every index shifted up by `n` bits; bits past 63 vanish.
    #[inline]
    pub const fn shl(self, n: u32) -> Bitboard {
        Bitboard(self.0 << n)
    }

    /// Every index shifted down by `n` bits; bits below 0 vanish.
    #[inline]
    pub const fn shr(self, n: u32) -> Bitboard {
        Bitboard(self.0 >> n)
    }
}

impl IntoIterator for Bitboard {
    type Item = u32;
    type IntoIter = Indices;

    #[inline]
    fn into_iter(self) -> Indices {
        Indices(self.0)
    }
}

/// The indices of a [`Bitboard`], in increasing order.
#[derive(Clone, Debug)]
pub struct Indices(u64);

impl Iterator for Indices {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Indices {}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_indices_in_order() {
        let set = Bitboard(0b1010_0001) | Bitboard::from_index(63);
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![0, 5, 7, 63]);
        assert_eq!(set.len(), 4);
        assert!(set.has(63) && !set.has(1));
        assert_eq!(Bitboard::EMPTY.first(), None);
    }
}
