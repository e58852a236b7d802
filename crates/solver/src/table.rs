//! A bounded transposition table of proof and disproof numbers, shared by the
//! search threads.
//!
//! Buckets of four entries; a position's bucket comes from its key's hash, and an
//! entry matches only when its whole key matches, so a hash collision can never lend
//! one position's proof to another. A full bucket gives up the entry that cost the
//! least work to compute.
//!
//! Threads share the table through a sequence lock per bucket: a writer takes the
//! bucket's lock (its version goes odd) and releases it one version on; a reader
//! takes no lock but reads again when the version moved under it. So a probe never
//! sees half of one store and half of another, and costs one uncontended load more
//! than an unshared table. A bucket is one lock word and four entries of seven
//! 32-bit words: 116 bytes, padded to two cache lines like the unshared bucket it
//! replaced, so a table of a given size holds as many entries as before.
//!
//! A proven entry is final: a thread that comes back from a subtree with numbers it
//! gathered before another thread proved the position does not overwrite the proof.

use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

use crate::{Key, Pn};

const BUCKET: usize = 4;

/// Words of an entry: white's army (2), black's army (2), phi, delta, and
/// side to move (top 2 bits: 0 empty, 1 White, 2 Black) with the work (30 bits).
const WORDS: usize = 7;
const WORK_BITS: u32 = 30;
const WORK_MAX: u32 = (1 << WORK_BITS) - 1;

/// An entry as plain values, read out of or written into a bucket.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    white: u64,
    black: u64,
    phi: Pn,
    delta: Pn,
    /// Nodes spent below this position (saturating): what replacement keeps.
    work: u32,
    /// 0 empty, 1 White to move, 2 Black to move.
    side: u32,
}

impl Entry {
    fn new(key: &Key, phi: Pn, delta: Pn, work: u64) -> Entry {
        Entry {
            white: key.white,
            black: key.black,
            phi,
            delta,
            work: u32::try_from(work).unwrap_or(WORK_MAX).min(WORK_MAX),
            side: 1 + u32::from(key.black_to_move),
        }
    }

    fn holds(&self, key: &Key) -> bool {
        self.side == 1 + u32::from(key.black_to_move)
            && self.white == key.white
            && self.black == key.black
    }

    fn is_final(&self) -> bool {
        self.phi == Pn::ZERO || self.delta == Pn::ZERO
    }
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    /// Sequence lock: odd while a writer holds the bucket.
    version: AtomicU32,
    words: [[AtomicU32; WORDS]; BUCKET],
}

impl Bucket {
    /// Reads slot `i`; the caller checks the version around it.
    #[inline]
    fn read(&self, i: usize) -> Entry {
        let w = |j: usize| self.words[i][j].load(Ordering::Relaxed);
        let meta = w(6);
        Entry {
            white: u64::from(w(0)) | u64::from(w(1)) << 32,
            black: u64::from(w(2)) | u64::from(w(3)) << 32,
            phi: Pn::from_raw(w(4)),
            delta: Pn::from_raw(w(5)),
            work: meta & WORK_MAX,
            side: meta >> WORK_BITS,
        }
    }

    /// Writes slot `i`; the caller holds the lock.
    #[inline]
    fn write(&self, i: usize, entry: &Entry) {
        let words = [
            entry.white as u32,
            (entry.white >> 32) as u32,
            entry.black as u32,
            (entry.black >> 32) as u32,
            entry.phi.get(),
            entry.delta.get(),
            entry.side << WORK_BITS | entry.work,
        ];
        for (cell, word) in self.words[i].iter().zip(words) {
            cell.store(word, Ordering::Relaxed);
        }
    }

    /// Runs `look` over the slots without a lock, again until no writer interfered.
    #[inline]
    fn read_with<T>(&self, look: impl Fn(&Bucket) -> T) -> T {
        loop {
            let before = self.version.load(Ordering::Acquire);
            if before & 1 == 0 {
                let seen = look(self);
                fence(Ordering::Acquire);
                if self.version.load(Ordering::Relaxed) == before {
                    return seen;
                }
            }
            std::hint::spin_loop();
        }
    }

    /// Runs `change` with the bucket locked.
    #[inline]
    fn write_with<T>(&self, change: impl FnOnce(&Bucket) -> T) -> T {
        let version = loop {
            let version = self.version.load(Ordering::Relaxed);
            if version & 1 == 0
                && self
                    .version
                    .compare_exchange_weak(
                        version,
                        version + 1,
                        Ordering::Acquire,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            {
                break version;
            }
            std::hint::spin_loop();
        };
        // Orders the odd version before the new words, for readers.
        fence(Ordering::Release);
        let result = change(self);
        self.version
            .store(version.wrapping_add(2), Ordering::Release);
        result
    }
}

/// Size and fill of a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Bytes allocated.
    pub bytes: u64,
    /// Entries it can hold.
    pub capacity: u64,
    /// Entries in use.
    pub used: u64,
    /// Stores that evicted another position.
    pub replacements: u64,
}

/// What a store did, for the fill counts: each thread tallies its own stores and
/// adds them to the table now and then, so that the threads do not all write one
/// shared counter on every store.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    used: u64,
    replacements: u64,
}

/// The transposition table.
pub struct Table {
    buckets: Vec<Bucket>,
    used: AtomicU64,
    replacements: AtomicU64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({:?})", self.stats())
    }
}

impl Table {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn with_megabytes(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&buckets);
        buckets.resize_with(count, Bucket::default);
        Table {
            buckets,
            used: AtomicU64::new(0),
            replacements: AtomicU64::new(0),
        }
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        // Multiply-shift maps the hash onto any bucket count without a division.
        &self.buckets[((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Starts loading a position's bucket into the cache, so that the probes of all
    /// children of a node overlap their memory latency instead of queueing.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(hash);
            // SAFETY: a prefetch is only a hint: it never faults and changes no memory,
            // and the pointer is to a live bucket of this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The stored numbers of a position, if it is in the table.
    #[inline]
    pub fn probe(&self, key: &Key, hash: u64) -> Option<(Pn, Pn)> {
        self.bucket(hash).read_with(|bucket| {
            (0..BUCKET)
                .map(|i| bucket.read(i))
                .find(|e| e.holds(key))
                .map(|e| (e.phi, e.delta))
        })
    }

    /// Stores the numbers of a position that took `work` nodes, and counts the
    /// store in `tally` (see [`Table::add`]).
    #[inline]
    pub(crate) fn store(
        &self,
        key: &Key,
        hash: u64,
        phi: Pn,
        delta: Pn,
        work: u64,
        tally: &mut Tally,
    ) {
        let entry = Entry::new(key, phi, delta, work);
        self.bucket(hash).write_with(|bucket| {
            let slots: [Entry; BUCKET] = std::array::from_fn(|i| bucket.read(i));
            let slot = match slots.iter().position(|e| e.holds(key)) {
                Some(slot) if slots[slot].is_final() && !entry.is_final() => return,
                Some(slot) => slot,
                None => {
                    let slot = (0..BUCKET)
                        .min_by_key(|&i| (slots[i].side != 0, slots[i].work))
                        .unwrap_or(0);
                    if slots[slot].side == 0 {
                        tally.used += 1;
                    } else {
                        tally.replacements += 1;
                    }
                    slot
                }
            };
            bucket.write(slot, &entry);
        });
    }

    /// Adds a thread's tally of stores to the fill counts, and clears it.
    pub(crate) fn add(&self, tally: &mut Tally) {
        self.used.fetch_add(tally.used, Ordering::Relaxed);
        self.replacements
            .fetch_add(tally.replacements, Ordering::Relaxed);
        *tally = Tally::default();
    }

    /// Size and fill (as far as the threads have added their tallies).
    pub fn stats(&self) -> TableStats {
        TableStats {
            bytes: (self.buckets.len() * std::mem::size_of::<Bucket>()) as u64,
            capacity: (self.buckets.len() * BUCKET) as u64,
            used: self.used.load(Ordering::Relaxed),
            replacements: self.replacements.load(Ordering::Relaxed),
        }
    }
}

/// Asks Linux to back the (still untouched) allocation with 2 MiB pages: probes land
/// anywhere in a table of gigabytes, and small pages make nearly each one a TLB miss.
/// Measured on 5x5 with a 1 GiB table: see the commit that added it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    let bytes = buckets.capacity() * std::mem::size_of::<Bucket>();
    if bytes < 1 << 22 {
        return;
    }
    let start = buckets.as_ptr() as usize;
    let page = 1usize << 21;
    let first = start.div_ceil(page) * page;
    let end = (start + bytes) / page * page;
    if end > first {
        // SAFETY: madvise only gives the kernel a hint about pages inside this
        // allocation; it neither reads nor writes them, and a failure is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buckets: &Vec<Bucket>) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(white: u64, black: u64) -> Key {
        Key {
            white,
            black,
            black_to_move: false,
        }
    }

    #[test]
    fn colliding_keys_never_share_an_entry() {
        let table = Table::with_megabytes(0); // one bucket: everything collides
        let tally = &mut Tally::default();
        table.store(&key(1, 2), 0, Pn::ZERO, Pn::INF, 10, tally);
        assert_eq!(table.probe(&key(1, 2), 0), Some((Pn::ZERO, Pn::INF)));
        assert_eq!(table.probe(&key(1, 3), 0), None);
        let black = Key {
            black_to_move: true,
            ..key(1, 2)
        };
        assert_eq!(table.probe(&black, 0), None);
    }

    #[test]
    fn a_full_bucket_evicts_the_least_work() {
        let table = Table::with_megabytes(0);
        let tally = &mut Tally::default();
        for (i, work) in [50, 5, 70, 60].into_iter().enumerate() {
            table.store(&key(i as u64 + 1, 0), 0, Pn::ONE, Pn::ONE, work, tally);
        }
        table.store(&key(99, 0), 0, Pn::ONE, Pn::ONE, 1, tally);
        assert_eq!(table.probe(&key(2, 0), 0), None, "least work is evicted");
        for kept in [1, 3, 4, 99] {
            assert!(table.probe(&key(kept, 0), 0).is_some());
        }
        table.add(tally);
        assert_eq!(table.stats().used, 4);
        assert_eq!(table.stats().replacements, 1);
    }

    #[test]
    fn entries_keep_whole_keys_and_large_work() {
        let table = Table::with_megabytes(0);
        let tally = &mut Tally::default();
        let wide = Key {
            white: u64::MAX - 5,
            black: 1 << 63 | 7,
            black_to_move: true,
        };
        table.store(&wide, 0, Pn::new(3), Pn::MAX_FINITE, u64::MAX, tally);
        assert_eq!(table.probe(&wide, 0), Some((Pn::new(3), Pn::MAX_FINITE)));
        let slot = table.buckets[0].read(0);
        assert_eq!((slot.work, slot.side), (WORK_MAX, 2));
    }

    #[test]
    fn a_proof_is_never_overwritten_by_open_numbers() {
        let table = Table::with_megabytes(0);
        let tally = &mut Tally::default();
        table.store(&key(1, 2), 0, Pn::INF, Pn::ZERO, 5, tally);
        table.store(&key(1, 2), 0, Pn::new(4), Pn::new(9), 50, tally);
        assert_eq!(table.probe(&key(1, 2), 0), Some((Pn::INF, Pn::ZERO)));
        table.store(&key(3, 4), 0, Pn::new(4), Pn::new(9), 50, tally);
        table.store(&key(3, 4), 0, Pn::new(5), Pn::new(8), 60, tally);
        assert_eq!(table.probe(&key(3, 4), 0), Some((Pn::new(5), Pn::new(8))));
    }

    /// Threads hammer one bucket with stores whose numbers are derived from their
    /// keys; a torn read would show numbers that belong to no store.
    #[test]
    fn concurrent_stores_are_never_seen_torn() {
        let table = Table::with_megabytes(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    let tally = &mut Tally::default();
                    for round in 0..20_000u64 {
                        let n = (thread * 7 + round) % 12 + 1;
                        let k = key(n, n * 3);
                        let numbers = (
                            Pn::new(n as u32 * 11),
                            Pn::new(n as u32 * 13 + round as u32 % 2),
                        );
                        table.store(&k, 0, numbers.0, numbers.1, round, tally);
                        let m = (thread * 5 + round * 3) % 12 + 1;
                        if let Some((phi, delta)) = table.probe(&key(m, m * 3), 0) {
                            assert_eq!(phi, Pn::new(m as u32 * 11));
                            assert!(delta.get() / 13 == m as u32 && delta.get() % 13 <= 1);
                        }
                    }
                    table.add(tally);
                });
            }
        });
        let stats = table.stats();
        assert_eq!(stats.used, 4);
    }
}
