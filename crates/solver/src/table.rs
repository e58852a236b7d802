//! A bounded transposition table of proof and disproof numbers.
//!
//! Buckets of four entries; a position's bucket comes from its key's hash, and an
//! entry matches only when its whole key matches, so a hash collision can never lend
//! one position's proof to another. A full bucket gives up the entry that cost the
//! least work to compute.

use crate::{Key, Pn};

const BUCKET: usize = 4;

#[derive(Clone, Copy, Default)]
struct Entry {
    white: u64,
    black: u64,
    phi: Pn,
    delta: Pn,
    /// Nodes spent below this position (saturating): what replacement keeps.
    work: u32,
    /// 0 empty, 1 White to move, 2 Black to move.
    side: u8,
}

impl Entry {
    fn holds(&self, key: &Key) -> bool {
        self.side == 1 + u8::from(key.black_to_move)
            && self.white == key.white
            && self.black == key.black
    }
}

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

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

/// The transposition table.
pub struct Table {
    buckets: Vec<Bucket>,
    used: u64,
    replacements: u64,
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
        buckets.resize(count, Bucket::default());
        Table {
            buckets,
            used: 0,
            replacements: 0,
        }
    }

    #[inline]
    fn bucket_index(&self, hash: u64) -> usize {
        // Multiply-shift maps the hash onto any bucket count without a division.
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts loading a position's bucket into the cache, so that the probes of all
    /// children of a node overlap their memory latency instead of queueing.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = &self.buckets[self.bucket_index(hash)];
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
        let bucket = &self.buckets[self.bucket_index(hash)];
        bucket
            .0
            .iter()
            .find(|e| e.holds(key))
            .map(|e| (e.phi, e.delta))
    }

    /// Stores the numbers of a position that took `work` nodes.
    #[inline]
    pub fn store(&mut self, key: &Key, hash: u64, phi: Pn, delta: Pn, work: u64) {
        let index = self.bucket_index(hash);
        let bucket = &mut self.buckets[index].0;
        let slot = match bucket.iter().position(|e| e.holds(key)) {
            Some(slot) => slot,
            None => {
                let slot = (0..BUCKET)
                    .min_by_key(|&i| (bucket[i].side != 0, bucket[i].work))
                    .unwrap_or(0);
                if bucket[slot].side == 0 {
                    self.used += 1;
                } else {
                    self.replacements += 1;
                }
                slot
            }
        };
        bucket[slot] = Entry {
            white: key.white,
            black: key.black,
            phi,
            delta,
            work: u32::try_from(work).unwrap_or(u32::MAX),
            side: 1 + u8::from(key.black_to_move),
        };
    }

    /// Size and fill.
    pub fn stats(&self) -> TableStats {
        TableStats {
            bytes: (self.buckets.len() * std::mem::size_of::<Bucket>()) as u64,
            capacity: (self.buckets.len() * BUCKET) as u64,
            used: self.used,
            replacements: self.replacements,
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
        let mut table = Table::with_megabytes(0); // one bucket: everything collides
        table.store(&key(1, 2), 0, Pn::ZERO, Pn::INF, 10);
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
        let mut table = Table::with_megabytes(0);
        for (i, work) in [50, 5, 70, 60].into_iter().enumerate() {
            table.store(&key(i as u64 + 1, 0), 0, Pn::ONE, Pn::ONE, work);
        }
        table.store(&key(99, 0), 0, Pn::ONE, Pn::ONE, 1);
        assert_eq!(table.probe(&key(2, 0), 0), None, "least work is evicted");
        for kept in [1, 3, 4, 99] {
            assert!(table.probe(&key(kept, 0), 0).is_some());
        }
        assert_eq!(table.stats().used, 4);
        assert_eq!(table.stats().replacements, 1);
    }
}
