//! Positions proven outside the search, such as a campaign's store of solved
//! positions: the search receives them through [`ProvenElsewhere`] and takes them
//! as settled where it meets them, knowing nothing of how they are kept.

use std::fmt;

use crate::table::key::Key;

/// A set of positions whose outcome is known, read by every thread of a search.
pub trait ProvenElsewhere: Sync + fmt::Debug {
    /// Whether the side to move wins the position of this key ([`Key::of`]: a plain
    /// question, never a bounded one), if the position is in the set.
    fn wins(&self, key: &Key) -> Option<bool>;

    /// Starts loading what [`ProvenElsewhere::wins`] will read for the key of this hash
    /// ([`Key::hash`]): a hint for a lookup soon, which may do nothing.
    fn prefetch(&self, hash: u64) {
        let _ = hash;
    }
}
