//! Positions proven elsewhere (the campaign's store), as the jobs' searches read
//! them: a set that only grows, shared by the jobs of one table.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

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

/// The map, behind a filter of the keys' hashes. The search asks about every new
/// leaf, and nearly none is in the map; a map lookup hashes the key again, takes a
/// shard's read lock (two atomic writes on a line every thread shares) and, once
/// the map outgrows the caches, misses them, a cost a campaign felt
/// (`docs/performance-log.md`, "Campaigns"). The filter answers "not there" with
/// one plain load for nearly all of them.
struct ProvenSet {
    map: DashMap<Key, bool, hashbrown::DefaultHashBuilder>,
    /// The filters made so far, each twice the size of the one before; `current`
    /// says which one readers use. The older ones stay until the set drops, as a
    /// reader may still be reading one.
    filters: [OnceLock<Filter>; FILTER_SIZES],
    current: AtomicUsize,
    /// Serialises writers, so that a filter's rebuild sees every key in the map.
    writing: Mutex<()>,
}

/// The number of filter sizes, from `MIN_FILTER_BITS` (256 KiB) up to 1 GiB.
const FILTER_SIZES: usize = 13;

/// The smallest filter's bits (256 KiB): small enough to stay in a core's cache
/// while the table's traffic streams through it; a larger one cost more than the
/// map while the map was small (`docs/performance-log.md`, "Campaigns").
const MIN_FILTER_BITS: u64 = 1 << 21;

/// A filter has at least this many bits a key: a larger one replaces it when the
/// map grows past it, so that few lookups of positions not stored pass it (5% at 8
/// bits a key, 1.4% at 16).
const MIN_BITS_PER_KEY: u64 = 8;

/// A blocked Bloom filter: each key sets two bits of one 64-bit word, so that a
/// lookup reads one word, which [`ProvenSlot::prefetch`] loads ahead.
struct Filter {
    words: Box<[AtomicU64]>,
}

impl Filter {
    fn with_bits(bits: u64) -> Filter {
        Filter {
            words: (0..bits / 64).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn bits(&self) -> u64 {
        self.words.len() as u64 * 64
    }

    /// The word and its two bits for a key's hash ([`Key::hash`]); the word's index
    /// comes from bits the two bits' do not use.
    #[inline]
    fn slot(&self, hash: u64) -> (&AtomicU64, u64) {
        let word = (hash >> 12) as usize & (self.words.len() - 1);
        (
            &self.words[word],
            1 << (hash & 63) | 1 << ((hash >> 6) & 63),
        )
    }

    #[inline]
    fn may_hold(&self, hash: u64) -> bool {
        let (word, bits) = self.slot(hash);
        // Acquire: the bits were set after their key entered the map.
        word.load(Ordering::Acquire) & bits == bits
    }

    fn add(&self, hash: u64) {
        let (word, bits) = self.slot(hash);
        word.fetch_or(bits, Ordering::Release);
    }
}

impl Default for ProvenSet {
    fn default() -> Self {
        let filters: [OnceLock<Filter>; FILTER_SIZES] = Default::default();
        let _ = filters[0].set(Filter::with_bits(MIN_FILTER_BITS));
        ProvenSet {
            map: DashMap::default(),
            filters,
            current: AtomicUsize::new(0),
            writing: Mutex::new(()),
        }
    }
}

impl ProvenSet {
    /// The filter readers use now.
    #[inline]
    fn filter(&self) -> &Filter {
        // Acquire: the filter was made, with every key the map held, before it
        // became the current one.
        let current = self.current.load(Ordering::Acquire);
        self.filters[current]
            .get()
            .expect("the current filter is made before it is named")
    }

    /// Replaces the filter with a larger one if the map outgrew it: one made from
    /// every key in the map (writers wait meanwhile), which readers take up from
    /// their next lookup on.
    fn grow_filter(&self, _writing: &MutexGuard<'_, ()>) {
        let current = self.current.load(Ordering::Relaxed);
        let keys = self.map.len() as u64;
        let mut next = current;
        while next + 1 < FILTER_SIZES && keys * MIN_BITS_PER_KEY > MIN_FILTER_BITS << next {
            next += 1;
        }
        if next == current {
            return;
        }
        let filter = Filter::with_bits(MIN_FILTER_BITS << next);
        for entry in self.map.iter() {
            filter.add(entry.key().hash());
        }
        if self.filters[next].set(filter).is_ok() {
            self.current.store(next, Ordering::Release);
        }
    }
}

impl ProvenSlot {
    /// Starts loading what [`ProvenSlot::wins`] will read for the key of this hash.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch_line(self.0.filter().slot(hash).0);
    }

    /// Whether the side to move wins a position proven elsewhere, if it is one.
    #[inline]
    pub fn wins(&self, key: &Key) -> Option<bool> {
        if !self.0.filter().may_hold(key.hash()) {
            return None;
        }
        self.0.map.get(key).map(|wins| *wins)
    }

    /// Adds positions.
    pub fn extend(&self, proven: &[(Key, bool)]) {
        let writing = self
            .0
            .writing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let filter = self.0.filter();
        for &(key, wins) in proven {
            self.0.map.insert(key, wins);
            filter.add(key.hash());
        }
        self.0.grow_filter(&writing);
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
        let bits = self.0.filter().bits();
        write!(
            f,
            "ProvenSlot({} positions, filter of {bits} bits)",
            self.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> Key {
        Key {
            white: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            black: !i,
            black_to_move: i % 3 == 1,
            horizon: 0,
        }
    }

    /// The share of positions not stored that pass the filter.
    fn passing(slot: &ProvenSlot, absent: std::ops::Range<u64>) -> f64 {
        let filter = slot.0.filter();
        let passed = absent
            .clone()
            .filter(|&i| filter.may_hold(key(i).hash()))
            .count();
        passed as f64 / (absent.end - absent.start) as f64
    }

    /// The filter never hides a stored position, and keeps out the ones not stored.
    #[test]
    fn proven_slot_finds_what_it_holds() {
        let slot = ProvenSlot::default();
        let stored: Vec<(Key, bool)> = (0..50_000).map(|i| (key(i), i % 2 == 1)).collect();
        slot.extend(&stored);
        assert_eq!(slot.len(), stored.len());
        for &(key, wins) in &stored {
            assert_eq!(slot.wins(&key), Some(wins));
        }
        assert!((50_000..100_000).all(|i| slot.wins(&key(i)).is_none()));
        assert!(passing(&slot, 1 << 40..(1 << 40) + 100_000) < 0.005);
    }

    /// As the set grows, its filter grows with it: it keeps finding every stored
    /// position, and lets few others through (one fixed filter of 2^21 bits let
    /// 38% through at a million).
    #[test]
    fn the_filter_grows_with_the_set() {
        let slot = ProvenSlot::default();
        let mut stored = 0;
        for batch in [1_000, 100_000, 150_000, 250_000, 499_000] {
            let added: Vec<(Key, bool)> = (stored..stored + batch)
                .map(|i| (key(i), i % 5 == 0))
                .collect();
            slot.extend(&added);
            stored += batch;
            let bits = slot.0.filter().bits();
            assert!(
                bits >= MIN_BITS_PER_KEY * stored,
                "{bits} bits for {stored} keys"
            );
            assert!(bits <= (2 * MIN_BITS_PER_KEY * stored).max(MIN_FILTER_BITS));
            let share = passing(&slot, 1 << 40..(1 << 40) + 200_000);
            assert!(share < 0.07, "{share} of absent keys pass at {stored} keys");
        }
        assert_eq!(slot.len() as u64, stored);
        assert!((0..stored).all(|i| slot.wins(&key(i)) == Some(i % 5 == 0)));
    }

    /// A reader never misses a position stored before it looked, while a writer
    /// adds more and the filter is replaced under it.
    #[test]
    fn readers_see_what_was_stored_while_the_filter_grows() {
        let slot = ProvenSlot::default();
        let first: Vec<(Key, bool)> = (0..20_000).map(|i| (key(i), true)).collect();
        slot.extend(&first);
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| {
                let mut rounds = 0;
                while slot.len() < 400_000 || rounds < 3 {
                    assert!((0..20_000).all(|i| slot.wins(&key(i)) == Some(true)));
                    rounds += 1;
                }
                rounds
            });
            for start in (20_000..400_000).step_by(10_000) {
                let batch: Vec<(Key, bool)> =
                    (start..start + 10_000).map(|i| (key(i), false)).collect();
                slot.extend(&batch);
            }
            assert!(reader.join().unwrap() >= 3);
        });
        assert!(slot.0.current.load(Ordering::Relaxed) >= 1);
    }
}
