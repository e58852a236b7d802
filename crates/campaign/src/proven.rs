//! Positions proven elsewhere (the campaign's store), as the jobs' searches read
//! them: a set that only grows, shared by the jobs of one table.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use dashmap::DashMap;

use breakthrough_solver::{prefetch_line, Key, ProvenElsewhere};

/// Positions proven elsewhere, as a map: key ([`Key::of`]) -> whether the side to
/// move wins (see [`ProvenSlot::extend`]).
pub type Proven = hashbrown::HashMap<Key, bool>;

/// Where jobs read the positions proven elsewhere: a set that only grows, shared by
/// the jobs of one table and read by all their threads at once. Since it only
/// grows, a proof's extraction knows every position its search took as settled
/// (and any that another job of the same table left so in the table).
#[derive(Clone, Default)]
pub struct ProvenSlot(Arc<ProvenSet>);

/// The map, behind a one-bit-per-slot filter of the keys' hashes. The search asks
/// about every new leaf, and nearly none is in the map; a map lookup hashes the key
/// again and takes a shard's read lock (two atomic writes on a line every thread
/// shares), a cost a campaign felt (`docs/performance-log.md`, "Campaigns"). The
/// filter answers "not there" with one plain load.
struct ProvenSet {
    map: DashMap<Key, bool, hashbrown::DefaultHashBuilder>,
    /// Bit `hash % FILTER_BITS` is set once a key with that hash is in the map.
    filter: Box<[AtomicU64]>,
}

/// The filter's bits (256 KiB): small enough to stay in a core's cache while the
/// table's traffic streams through it, large enough that few lookups of positions
/// not stored reach the map (`docs/performance-log.md`, "Campaigns").
const FILTER_BITS: u64 = 1 << 21;

impl Default for ProvenSet {
    fn default() -> Self {
        ProvenSet {
            map: DashMap::default(),
            filter: (0..FILTER_BITS / 64).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl ProvenSet {
    /// The filter's word and bit for a key's hash ([`Key::hash`]).
    #[inline]
    fn slot(&self, hash: u64) -> (&AtomicU64, u64) {
        let bit = hash % FILTER_BITS;
        (&self.filter[(bit / 64) as usize], 1 << (bit % 64))
    }
}

impl ProvenSlot {
    /// Starts loading what [`ProvenSlot::wins`] will read for the key of this hash.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch_line(self.0.slot(hash).0);
    }

    /// Whether the side to move wins a position proven elsewhere, if it is one.
    #[inline]
    pub fn wins(&self, key: &Key) -> Option<bool> {
        let (word, bit) = self.0.slot(key.hash());
        // Acquire: a set bit was set after its key entered the map.
        if word.load(Ordering::Acquire) & bit == 0 {
            return None;
        }
        self.0.map.get(key).map(|wins| *wins)
    }

    /// Adds positions.
    pub fn extend(&self, proven: &[(Key, bool)]) {
        for &(key, wins) in proven {
            self.0.map.insert(key, wins);
            let (word, bit) = self.0.slot(key.hash());
            word.fetch_or(bit, Ordering::Release);
        }
    }

    pub fn len(&self) -> usize {
        self.0.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.map.is_empty()
    }
}

impl ProvenElsewhere for ProvenSlot {
    #[inline]
    fn wins(&self, key: &Key) -> Option<bool> {
        ProvenSlot::wins(self, key)
    }

    #[inline]
    fn prefetch(&self, hash: u64) {
        ProvenSlot::prefetch(self, hash);
    }
}

impl std::fmt::Debug for ProvenSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProvenSlot({} positions)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter never hides a stored position, and keeps out the ones not stored.
    #[test]
    fn proven_slot_finds_what_it_holds() {
        let key = |i: u64| Key {
            white: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            black: !i,
            black_to_move: i % 3 == 1,
            horizon: 0,
        };
        let slot = ProvenSlot::default();
        let stored: Vec<(Key, bool)> = (0..50_000).map(|i| (key(i), i % 2 == 1)).collect();
        slot.extend(&stored);
        assert_eq!(slot.len(), stored.len());
        for &(key, wins) in &stored {
            assert_eq!(slot.wins(&key), Some(wins));
        }
        assert!((50_000..100_000).all(|i| slot.wins(&key(i)).is_none()));
    }
}
