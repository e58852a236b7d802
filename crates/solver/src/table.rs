//! A bounded transposition table of proof and disproof numbers, shared by the
//! search threads.
//!
//! A position's bucket comes from its key's hash, and an entry matches only when its
//! whole key matches, so a hash collision can never lend one position's proof to
//! another. A full bucket gives up the entry that cost the least work to compute.
//!
//! Two layouts, chosen by the board (see [`Table::for_board`]). A wide bucket holds
//! four entries of seven 32-bit words (both armies in full) behind its lock word, in
//! 116 bytes padded to two cache lines. On a board of at most 32 squares an army
//! fits one word, and a narrow bucket holds three entries of five words behind its
//! lock word: exactly one cache line, so a probe loads half the memory and a MiB
//! holds 1.5 times the entries. Buckets of two wide entries in one line would halve
//! the traffic too, but a bucket that small replaces more entries; the narrow layout
//! gains the traffic without the replacements (`docs/design/table.md`,
//! `docs/performance.md`).
//!
//! Threads share the table through a sequence lock per bucket: a writer takes the
//! bucket's lock (its version goes odd) and releases it one version on; a reader
//! takes no lock but reads again when the version moved under it. So a probe never
//! sees half of one store and half of another, and costs one uncontended load more
//! than an unshared table.
//!
//! A proven entry is final: a thread that comes back from a subtree with numbers it
//! gathered before another thread proved the position does not overwrite the proof.

use std::marker::PhantomData;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

use breakthrough_engine::Board;

use crate::table::key::Key;
use crate::table::pn::Pn;

pub(crate) mod key;
pub(crate) mod pn;

/// The last word of an entry in either layout: the side to move (top 2 bits: 0
/// empty, 1 White, 2 Black), the key's horizon (8 bits) and the work (22 bits,
/// saturating: 4 M nodes is enough to keep an entry in any bucket).
const WORK_BITS: u32 = 22;
const WORK_MAX: u32 = (1 << WORK_BITS) - 1;
const SIDE_SHIFT: u32 = 30;

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
    /// The key's horizon (see [`Key::horizon`]).
    horizon: u8,
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
            horizon: key.horizon,
        }
    }

    fn holds(&self, key: &Key) -> bool {
        self.side == 1 + u32::from(key.black_to_move)
            && self.horizon == key.horizon
            && self.white == key.white
            && self.black == key.black
    }

    fn is_final(&self) -> bool {
        self.phi == Pn::ZERO || self.delta == Pn::ZERO
    }

    fn meta(&self) -> u32 {
        self.side << SIDE_SHIFT | u32::from(self.horizon) << WORK_BITS | self.work
    }

    fn from_words(white: u64, black: u64, phi: u32, delta: u32, meta: u32) -> Entry {
        Entry {
            white,
            black,
            phi: Pn::from_raw(phi),
            delta: Pn::from_raw(delta),
            work: meta & WORK_MAX,
            side: meta >> SIDE_SHIFT,
            horizon: (meta >> WORK_BITS) as u8,
        }
    }
}

/// How a bucket's 32-bit words hold its entries: word 0 is the sequence lock, then
/// entries of each army in `ARMY_WORDS` words (low word first), phi, delta and the
/// meta word; all zeros is an empty bucket.
trait Layout {
    /// Words of an army: 2 hold any board, 1 a board of at most 32 squares.
    const ARMY_WORDS: usize;
    /// Words of a bucket: a whole number of cache lines.
    const WORDS: usize;
    const ENTRY_WORDS: usize = 2 * Self::ARMY_WORDS + 3;
    /// Entries a bucket holds.
    const SLOTS: usize = (Self::WORDS - 1) / Self::ENTRY_WORDS;

    /// Whether an entry can hold the key. A key with a piece beyond what its armies'
    /// words hold would be cut short, and could then match another position: it is
    /// never stored (nor found, since no stored army has those bits).
    #[inline]
    fn fits(key: &Key) -> bool {
        Self::ARMY_WORDS == 2 || (key.white | key.black) >> 32 == 0
    }

    #[inline]
    fn read(words: &[AtomicU32], slot: usize) -> Entry {
        let first = 1 + Self::ENTRY_WORDS * slot;
        let w = |j: usize| words[first + j].load(Ordering::Relaxed);
        let army =
            |at: usize| (0..Self::ARMY_WORDS).fold(0, |a, j| a | u64::from(w(at + j)) << (32 * j));
        let numbers = 2 * Self::ARMY_WORDS;
        Entry::from_words(
            army(0),
            army(Self::ARMY_WORDS),
            w(numbers),
            w(numbers + 1),
            w(numbers + 2),
        )
    }

    #[inline]
    fn write(words: &[AtomicU32], slot: usize, entry: &Entry) {
        // The widest entry's words (an array length cannot be `Self::ENTRY_WORDS`).
        let mut values = [0u32; Wide::ENTRY_WORDS];
        for j in 0..Self::ARMY_WORDS {
            values[j] = (entry.white >> (32 * j)) as u32;
            values[Self::ARMY_WORDS + j] = (entry.black >> (32 * j)) as u32;
        }
        let numbers = 2 * Self::ARMY_WORDS;
        values[numbers] = entry.phi.get();
        values[numbers + 1] = entry.delta.get();
        values[numbers + 2] = entry.meta();
        let first = 1 + Self::ENTRY_WORDS * slot;
        let cells = &words[first..first + Self::ENTRY_WORDS];
        for (cell, value) in cells.iter().zip(values) {
            cell.store(value, Ordering::Relaxed);
        }
    }
}

/// Four entries of seven words, 116 bytes padded to two cache lines.
struct Wide;

/// Three entries of five words, for boards of at most 32 squares: one cache line.
struct Narrow;

impl Layout for Wide {
    const ARMY_WORDS: usize = 2;
    const WORDS: usize = 32;
}

impl Layout for Narrow {
    const ARMY_WORDS: usize = 1;
    const WORDS: usize = 16;
}

// A bucket's slots are read into an array of four (see `Bucket::slots`).
const _: () = assert!(Wide::SLOTS == 4 && Narrow::SLOTS == 3);

/// A bucket: a view of its words in the table.
struct Bucket<'a, L> {
    words: &'a [AtomicU32],
    layout: PhantomData<L>,
}

impl<L> Clone for Bucket<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for Bucket<'_, L> {}

impl<L: Layout> Bucket<'_, L> {
    /// Reads slot `i`; the caller checks the version around it.
    #[inline]
    fn read(self, i: usize) -> Entry {
        L::read(self.words, i)
    }

    /// Writes slot `i`; the caller holds the lock.
    #[inline]
    fn write(self, i: usize, entry: &Entry) {
        L::write(self.words, i, entry);
    }

    /// Every slot, read without a lock (see [`Bucket::read_with`]); a layout of
    /// fewer than four slots leaves the last ones empty.
    #[inline]
    fn slots(self) -> [Entry; 4] {
        let mut slots = [Entry::default(); 4];
        for (i, slot) in slots.iter_mut().enumerate().take(L::SLOTS) {
            *slot = self.read(i);
        }
        slots
    }

    /// Runs `look` over the slots without a lock, again until no writer interfered.
    #[inline]
    fn read_with<T>(self, look: impl Fn(Self) -> T) -> T {
        let lock = &self.words[0];
        loop {
            let before = lock.load(Ordering::Acquire);
            if before & 1 == 0 {
                let seen = look(self);
                fence(Ordering::Acquire);
                if lock.load(Ordering::Relaxed) == before {
                    return seen;
                }
            }
            std::hint::spin_loop();
        }
    }

    /// Runs `change` with the bucket locked.
    #[inline]
    fn write_with<T>(self, change: impl FnOnce(Self) -> T) -> T {
        let lock = &self.words[0];
        let version = loop {
            let version = lock.load(Ordering::Relaxed);
            if version & 1 == 0
                && lock
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
        lock.store(version.wrapping_add(2), Ordering::Release);
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

/// A table entry as plain values (see [`Table::entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedEntry {
    pub key: Key,
    pub phi: Pn,
    pub delta: Pn,
    /// Nodes spent below the position (saturating at 4 M).
    pub work: u32,
}

/// Starts loading the cache line that holds `value`: a hint only, for reads soon.
#[inline]
#[allow(unsafe_code)]
pub fn prefetch_line<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults and changes no memory, and the pointer
        // comes from a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The transposition table.
pub struct Table {
    /// The buckets' words, from `first` on: each bucket is its layout's `WORDS`
    /// words, the first at a cache line's start.
    words: Box<[AtomicU32]>,
    first: usize,
    buckets: usize,
    /// Narrow buckets (boards of at most 32 squares), else wide ones.
    narrow: bool,
    used: AtomicU64,
    replacements: AtomicU64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({:?})", self.stats())
    }
}

/// Calls `$body` with `$L` the table's layout (a type, so that each layout's code
/// is compiled on its own, with its constants).
macro_rules! with_layout {
    ($table:expr, $L:ident => $body:expr) => {
        if $table.narrow {
            type $L = Narrow;
            $body
        } else {
            type $L = Wide;
            $body
        }
    };
}

impl Table {
    /// A table of about `megabytes` MiB (at least one bucket) of wide entries, which
    /// hold any board's positions. Its memory comes zeroed from the allocator and is
    /// not touched here: the system provides each page when the search first writes
    /// to it, so a table larger than the search needs costs neither set-up time nor
    /// more than the pages it uses.
    pub fn with_megabytes(megabytes: usize) -> Table {
        Table::new(megabytes, false)
    }

    /// A table of about `megabytes` MiB for positions of `board`: of narrow entries
    /// (1.5 times as many a MiB, a cache line a probe) when the board has at most 32
    /// squares, else of wide ones.
    pub fn for_board(board: Board, megabytes: usize) -> Table {
        Table::new(megabytes, board.squares() <= 32)
    }

    fn new(megabytes: usize, narrow: bool) -> Table {
        let bucket_words = if narrow { Narrow::WORDS } else { Wide::WORDS };
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = (bytes / (4 * bucket_words)).max(1);
        // Words of four bytes: the allocator then hands out fresh zeroed pages (calloc),
        // where a type aligned to the cache line would be allocated and then zeroed
        // by writing every byte (the whole table touched before the search starts).
        let words = bytemuck::zeroed_slice_box::<AtomicU32>(buckets * bucket_words + 15);
        let first = (words.as_ptr() as usize).wrapping_neg() % 64 / 4;
        advise_huge_pages(&words);
        Table {
            words,
            first,
            buckets,
            narrow,
            used: AtomicU64::new(0),
            replacements: AtomicU64::new(0),
        }
    }

    /// Bucket number `index`.
    #[inline]
    fn bucket_at<L: Layout>(&self, index: usize) -> Bucket<'_, L> {
        let start = self.first + index * L::WORDS;
        Bucket {
            words: &self.words[start..start + L::WORDS],
            layout: PhantomData,
        }
    }

    #[inline]
    fn bucket<L: Layout>(&self, hash: u64) -> Bucket<'_, L> {
        // Multiply-shift maps the hash onto any bucket count without a division.
        let index = ((u128::from(hash) * self.buckets as u128) >> 64) as usize;
        self.bucket_at(index)
    }

    /// Starts loading a position's bucket into the cache, so that the probes of all
    /// children of a node overlap their memory latency instead of queueing.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        with_layout!(self, L => {
            let words = self.bucket::<L>(hash).words;
            for line in (0..L::WORDS).step_by(16) {
                prefetch_line(&words[line]);
            }
        })
    }

    /// The stored numbers of a position, if it is in the table.
    #[inline]
    pub fn probe(&self, key: &Key, hash: u64) -> Option<(Pn, Pn)> {
        self.probe_with_work(key, hash)
            .map(|(phi, delta, _)| (phi, delta))
    }

    /// The stored numbers of a position and the work they took (0 for a position
    /// evaluated but never searched), if it is in the table.
    #[inline]
    pub(crate) fn probe_with_work(&self, key: &Key, hash: u64) -> Option<(Pn, Pn, u32)> {
        with_layout!(self, L => self.bucket::<L>(hash).read_with(|bucket| {
            (0..L::SLOTS)
                .map(|i| bucket.read(i))
                .find(|e| e.holds(key))
                .map(|e| (e.phi, e.delta, e.work))
        }))
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
        with_layout!(self, L => self.store_in::<L>(key, hash, Entry::new(key, phi, delta, work), tally))
    }

    #[inline]
    fn store_in<L: Layout>(&self, key: &Key, hash: u64, entry: Entry, tally: &mut Tally) {
        if !L::fits(key) {
            return;
        }
        self.bucket::<L>(hash).write_with(|bucket| {
            let slots = bucket.slots();
            let slot = match slots.iter().position(|e| e.holds(key)) {
                Some(slot) if slots[slot].is_final() && !entry.is_final() => return,
                Some(slot) => slot,
                None => {
                    let slot = (0..L::SLOTS)
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

    /// The entries that took at least `min_work` nodes, at most `max` of them, those
    /// of the most work: the valuable part of the table, to keep across runs (see
    /// [`Table::restore`]). Reads the whole table twice (first how many entries
    /// there are of each work), so that it never holds more than `max` entries
    /// whatever the table's size; call it when no search runs.
    pub fn entries(&self, min_work: u32, max: usize) -> Vec<SavedEntry> {
        let min_work = min_work.max(1);
        let mut of_work = vec![0usize; WORK_MAX as usize + 1];
        self.for_each_entry(|entry| {
            if entry.work >= min_work {
                of_work[entry.work as usize] += 1;
            }
        });
        // All entries of at least `floor` work fit; of the work just below, as many
        // as are left room for.
        let (mut floor, mut whole) = (WORK_MAX + 1, 0);
        while floor > min_work && whole + of_work[floor as usize - 1] <= max {
            floor -= 1;
            whole += of_work[floor as usize];
        }
        let mut room = max - whole;
        let mut saved = Vec::with_capacity(whole + room.min(of_work[floor as usize - 1]));
        self.for_each_entry(|entry| {
            let kept = entry.work >= floor
                || (entry.work + 1 == floor && entry.work >= min_work && room > 0 && {
                    room -= 1;
                    true
                });
            if kept {
                saved.push(SavedEntry {
                    key: Key {
                        white: entry.white,
                        black: entry.black,
                        black_to_move: entry.side == 2,
                        horizon: entry.horizon,
                    },
                    phi: entry.phi,
                    delta: entry.delta,
                    work: entry.work,
                });
            }
        });
        saved
    }

    /// Calls `visit` with every used slot of the table.
    fn for_each_entry(&self, mut visit: impl FnMut(&Entry)) {
        with_layout!(self, L => {
            for index in 0..self.buckets {
                let slots = self.bucket_at::<L>(index).read_with(|bucket| bucket.slots());
                for entry in slots.iter().filter(|entry| entry.side != 0) {
                    visit(entry);
                }
            }
        })
    }

    /// Stores saved entries (from [`Table::entries`]), as the search would have.
    pub fn restore(&self, entries: &[SavedEntry]) {
        let mut tally = Tally::default();
        for e in entries {
            self.store(
                &e.key,
                e.key.hash(),
                e.phi,
                e.delta,
                u64::from(e.work),
                &mut tally,
            );
        }
        self.add(&mut tally);
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
            bytes: (self.words.len() * 4) as u64,
            capacity: (self.buckets * with_layout!(self, L => L::SLOTS)) as u64,
            used: self.used.load(Ordering::Relaxed),
            replacements: self.replacements.load(Ordering::Relaxed),
        }
    }
}

/// Asks Linux to back the (still untouched) allocation with 2 MiB pages: probes land
/// anywhere in a table of gigabytes, and small pages make nearly each one a TLB miss;
/// the system also clears fewer, larger pages faster. The price: a search of a few
/// thousand positions still touches whole 2 MiB pages. It asks at once, because a
/// region that got small pages keeps getting small pages (figures in
/// `docs/performance-log.md`, "Table").
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(buckets: &[AtomicU32]) {
    let bytes = std::mem::size_of_val(buckets);
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
fn advise_huge_pages(_buckets: &[AtomicU32]) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// One-bucket tables (everything collides) of each layout.
    fn tiny() -> [Table; 2] {
        [Table::new(0, false), Table::new(0, true)]
    }

    fn key(white: u64, black: u64) -> Key {
        Key {
            white,
            black,
            black_to_move: false,
            horizon: 0,
        }
    }

    #[test]
    fn colliding_keys_never_share_an_entry() {
        for table in tiny() {
            colliding_keys_in(&table);
        }
    }

    fn colliding_keys_in(table: &Table) {
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
        for table in tiny() {
            let slots = table.stats().capacity;
            let tally = &mut Tally::default();
            let works = [50, 5, 70, 60];
            for (i, work) in works.into_iter().take(slots as usize).enumerate() {
                table.store(&key(i as u64 + 1, 0), 0, Pn::ONE, Pn::ONE, work, tally);
            }
            table.store(&key(99, 0), 0, Pn::ONE, Pn::ONE, 1, tally);
            assert_eq!(table.probe(&key(2, 0), 0), None, "least work is evicted");
            for kept in [1, 3, 4, 99].into_iter().filter(|&k| k <= slots || k == 99) {
                assert!(table.probe(&key(kept, 0), 0).is_some());
            }
            table.add(tally);
            assert_eq!(table.stats().used, slots);
            assert_eq!(table.stats().replacements, 1);
        }
    }

    #[test]
    fn layouts_follow_the_board() {
        let of = |text: &str| text.parse::<Board>().unwrap();
        let narrow = Table::for_board(of("8x4"), 1).stats();
        let wide = Table::for_board(of("3x11"), 1).stats();
        assert_eq!(narrow.capacity, (1 << 20) / 64 * 3);
        assert_eq!(wide.capacity, (1 << 20) / 128 * 4);
        assert_eq!(Table::with_megabytes(1).stats(), wide);
    }

    /// A narrow table never stores a key with pieces beyond square 32 (cut to one
    /// word, it could match another position), and so never finds one.
    #[test]
    fn a_narrow_table_refuses_wide_keys() {
        let table = Table::new(1, true);
        let tally = &mut Tally::default();
        let low = key(0x1234, 0x10);
        for high in [key(0x1234 | 1 << 40, 0x10), key(0x1234, 0x10 | 1 << 33)] {
            table.store(&high, 7, Pn::ZERO, Pn::INF, 9, tally);
            assert_eq!(table.probe(&high, 7), None);
            assert_eq!(table.probe(&low, 7), None);
        }
        table.store(&low, 7, Pn::new(2), Pn::new(3), 9, tally);
        assert_eq!(table.probe(&low, 7), Some((Pn::new(2), Pn::new(3))));
        table.add(tally);
        assert_eq!(table.stats().used, 1);
    }

    #[test]
    fn entries_keep_whole_keys_and_large_work() {
        let table = Table::new(0, false);
        let tally = &mut Tally::default();
        let wide = Key {
            white: u64::MAX - 5,
            black: 1 << 63 | 7,
            black_to_move: true,
            horizon: 255,
        };
        table.store(&wide, 0, Pn::new(3), Pn::MAX_FINITE, u64::MAX, tally);
        assert_eq!(table.probe(&wide, 0), Some((Pn::new(3), Pn::MAX_FINITE)));
        let slot = table.bucket::<Wide>(0).read(0);
        assert_eq!((slot.work, slot.side, slot.horizon), (WORK_MAX, 2, 255));
        let plain = Key { horizon: 0, ..wide };
        assert_eq!(
            table.probe(&plain, 0),
            None,
            "another question, another entry"
        );
    }

    /// The saved entries are those of the most work: all of the work above the cut,
    /// and of the work at the cut as many as fit.
    #[test]
    fn entries_are_those_of_the_most_work() {
        for narrow in [false, true] {
            most_work_in(&Table::new(1, narrow));
        }
    }

    fn most_work_in(table: &Table) {
        let tally = &mut Tally::default();
        // Work 1 to 40, three entries of each.
        for n in 0..120u64 {
            table.store(
                &key(n + 1, 0),
                n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Pn::ONE,
                Pn::ONE,
                n / 3 + 1,
                tally,
            );
        }
        let works = |min_work, max| {
            let mut works: Vec<u32> = table
                .entries(min_work, max)
                .iter()
                .map(|e| e.work)
                .collect();
            works.sort_unstable();
            works
        };
        assert_eq!(works(1, 1000).len(), 120);
        assert_eq!(works(39, 1000), [39, 39, 39, 40, 40, 40]);
        assert_eq!(works(1, 5), [39, 39, 40, 40, 40]);
        assert_eq!(works(1, 6), [39, 39, 39, 40, 40, 40]);
        assert_eq!(works(1, 2), [40, 40]);
        assert_eq!(works(40, 0), Vec::<u32>::new());
        assert_eq!(works(41, 10), Vec::<u32>::new());
    }

    #[test]
    fn a_proof_is_never_overwritten_by_open_numbers() {
        for table in tiny() {
            proofs_stay_in(&table);
        }
    }

    fn proofs_stay_in(table: &Table) {
        let tally = &mut Tally::default();
        table.store(&key(1, 2), 0, Pn::INF, Pn::ZERO, 5, tally);
        table.store(&key(1, 2), 0, Pn::new(4), Pn::new(9), 50, tally);
        assert_eq!(table.probe(&key(1, 2), 0), Some((Pn::INF, Pn::ZERO)));
        table.store(&key(3, 4), 0, Pn::new(4), Pn::new(9), 50, tally);
        table.store(&key(3, 4), 0, Pn::new(5), Pn::new(8), 60, tally);
        assert_eq!(table.probe(&key(3, 4), 0), Some((Pn::new(5), Pn::new(8))));
    }

    /// A table of a gigabyte costs nothing until the search writes to it: its pages
    /// are not touched when it is made (they once were, by zeroing them).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_new_table_touches_no_memory() {
        let resident_mib = || {
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
            let kb: u64 = line[6..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap();
            kb / 1024
        };
        let before = resident_mib();
        let table = Table::with_megabytes(1024);
        let after = resident_mib();
        assert_eq!(table.stats().bytes / (1 << 20), 1024);
        // Other tests of this binary run at the same time, with small tables.
        assert!(after < before + 256, "{before} MiB, then {after} MiB");
        let tally = &mut Tally::default();
        table.store(&key(1, 2), 12345, Pn::ONE, Pn::ONE, 1, tally);
        assert_eq!(table.probe(&key(1, 2), 12345), Some((Pn::ONE, Pn::ONE)));
    }

    /// Threads hammer one bucket with stores whose numbers are derived from their
    /// keys; a torn read would show numbers that belong to no store.
    #[test]
    fn concurrent_stores_are_never_seen_torn() {
        for table in tiny() {
            no_torn_reads_in(&table);
        }
    }

    fn no_torn_reads_in(table: &Table) {
        let slots = table.stats().capacity;
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
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
        assert_eq!(table.stats().used, slots);
    }
}
