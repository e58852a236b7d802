//! The positions an extraction has written, so that it can refer back to them (a
//! transposition costs a few bytes instead of a second copy of its proof), in
//! memory that stays bounded whatever the proof's size.
//!
//! It holds every position while they fit in its byte budget; at the budget it
//! forgets the deepest half or more (the shallow positions are few and transpose
//! most, and the principal variation is read from them). A forgotten position met
//! again is written again: the certificate grows, it stays right.

use breakthrough_engine::{Color, Position, Step};
use hashbrown::HashMap;

/// Identity of a position (exact, not up to the mirror: the verifier knows no symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Exact {
    white: u64,
    black: u64,
    black_to_move: bool,
}

impl Exact {
    pub fn of(position: &Position) -> Exact {
        Exact {
            white: position.pieces(Color::White).0,
            black: position.pieces(Color::Black).0,
            black_to_move: position.to_move() == Color::Black,
        }
    }
}

/// What the certificate holds of an expanded position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planned {
    /// The claim's side's move, or the opponent's longest-resisting reply.
    pub step: Step,
    /// The longest game below it in the certificate.
    pub height: u16,
    /// The plies left to the bound where it was written (0 for an unbounded claim).
    pub left: u16,
}

impl Planned {
    /// The plan of a position whose proof is still being written.
    pub const NONE: Planned = Planned {
        step: Step { from: 0, to: 0 },
        height: 0,
        left: 0,
    };
}

/// What the map holds of a written position.
#[derive(Clone, Copy, Debug)]
struct Remembered {
    /// The expansion's number in the stream.
    id: u64,
    /// Plies from the certificate's root where it was written.
    ply: u16,
    plan: Planned,
}

/// Bytes per entry of a `hashbrown` map: key, value and one control byte.
const ENTRY_BYTES: usize = std::mem::size_of::<(Exact, Remembered)>() + 1;

/// The bounded map from written positions to their numbers and plans.
pub(crate) struct WrittenPositions {
    map: HashMap<Exact, Remembered>,
    /// The most positions held: a map that grows past it would pass the budget
    /// (counting the old table beside the new while it grows).
    max_len: usize,
    /// Positions forgotten to stay within the budget.
    pub forgotten: u64,
}

impl WrittenPositions {
    /// An empty map that will use at most about `max_bytes`.
    pub fn new(max_bytes: usize) -> WrittenPositions {
        // The map holds up to 7/8 of its buckets, a power of two; while it doubles
        // to the last size, the table before it (half) is still there.
        let buckets = (max_bytes * 2 / 3 / ENTRY_BYTES).max(16);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        WrittenPositions {
            map: HashMap::new(),
            max_len: buckets / 8 * 7,
            forgotten: 0,
        }
    }

    /// The number and plan of a written position, if remembered.
    pub fn get(&self, position: &Position) -> Option<(u64, Planned)> {
        let remembered = self.map.get(&Exact::of(position))?;
        Some((remembered.id, remembered.plan))
    }

    /// Remembers the position expanded as `id` at `ply` plies from the root (a
    /// position not held already).
    pub fn insert(&mut self, position: &Position, id: u64, ply: u16, plan: Planned) {
        if self.map.len() >= self.max_len {
            self.forget_deepest();
        }
        self.map
            .insert(Exact::of(position), Remembered { id, ply, plan });
    }

    /// Records the plan of the position numbered `id`, if still remembered.
    pub fn plan(&mut self, position: &Position, id: u64, plan: Planned) {
        if let Some(remembered) = self.map.get_mut(&Exact::of(position)) {
            if remembered.id == id {
                remembered.plan = plan;
            }
        }
    }

    /// Forgets the deepest positions, half of them or more: those from the
    /// shallowest ply at which the shallower ones make up half the map.
    fn forget_deepest(&mut self) {
        let mut at_ply = Vec::new();
        for remembered in self.map.values() {
            let ply = usize::from(remembered.ply);
            if at_ply.len() <= ply {
                at_ply.resize(ply + 1, 0usize);
            }
            at_ply[ply] += 1;
        }
        let mut kept = 0;
        let mut cutoff = 0;
        while cutoff < at_ply.len() && kept + at_ply[cutoff] <= self.max_len / 2 {
            kept += at_ply[cutoff];
            cutoff += 1;
        }
        // Always room for one more: the root's ply alone never fills the map.
        let cutoff = cutoff.max(1) as u16;
        let before = self.map.len();
        self.map.retain(|_, remembered| remembered.ply < cutoff);
        // The forgotten leave tombstones, which would make the map grow past its
        // budget; a map of half the size, made afresh, has none (and grows back).
        self.map.shrink_to(self.max_len / 2);
        self.forgotten += (before - self.map.len()) as u64;
    }

    /// Bytes of the map's table.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.map.allocation_size()
    }
}

#[cfg(test)]
mod tests {
    use breakthrough_engine::{Board, Position};

    use super::*;

    /// Distinct positions: every position of a few plies from the start of 5x5.
    fn positions() -> Vec<Position> {
        let mut all = vec![Position::start(Board::new(5, 5).unwrap())];
        let mut frontier = all.clone();
        for _ in 0..3 {
            frontier = frontier
                .iter()
                .flat_map(|p| p.steps().into_iter().map(|s| p.play_step(s)))
                .collect();
            frontier.sort_by_key(|p| (Exact::of(p).white, Exact::of(p).black));
            frontier.dedup_by_key(|p| Exact::of(p));
            all.extend(&frontier);
        }
        all
    }

    #[test]
    fn remembers_everything_within_its_budget() {
        let positions = positions();
        let mut written = WrittenPositions::new(64 << 20);
        for (id, position) in positions.iter().enumerate() {
            assert!(written.get(position).is_none());
            written.insert(position, id as u64, 3, Planned::NONE);
        }
        for (id, position) in positions.iter().enumerate() {
            assert_eq!(written.get(position).map(|(got, _)| got), Some(id as u64));
        }
        assert_eq!(written.forgotten, 0);
    }

    #[test]
    fn stays_within_its_budget_and_keeps_the_shallow_positions() {
        let positions = positions();
        let budget = 16 * 1024;
        let mut written = WrittenPositions::new(budget);
        let mut most_bytes = 0;
        for (id, position) in positions.iter().enumerate() {
            // Plies spread out, so that each purge keeps about half.
            let ply = if id == 0 { 0 } else { 1 + id % 8 };
            written.insert(position, id as u64, ply as u16, Planned::NONE);
            most_bytes = most_bytes.max(written.bytes());
        }
        assert!(most_bytes <= budget, "{most_bytes} bytes");
        assert!(written.forgotten > 0, "{} positions", positions.len());
        assert_eq!(written.get(&positions[0]).map(|(id, _)| id), Some(0));
        // What it answers is right, whatever it forgot.
        for (id, position) in positions.iter().enumerate() {
            if let Some((got, _)) = written.get(position) {
                assert_eq!(got, id as u64);
            }
        }
    }
}
