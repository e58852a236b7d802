//! Zobrist keys, fixed at compile time so that hashes are the same on every run.

/// SplitMix64: a tiny well-mixed generator, here only to fill a constant table.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 64]; 2], u64) {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x6272_6561_6b74_6872; // "breakthr"
    let mut colour = 0;
    while colour < 2 {
        let mut index = 0;
        while index < 64 {
            let (next, key) = splitmix(state);
            state = next;
            keys[colour][index] = key;
            index += 1;
        }
        colour += 1;
    }
    let (_, black_to_move) = splitmix(state);
    (keys, black_to_move)
}

const KEYS: ([[u64; 64]; 2], u64) = make_keys();

/// Key of a piece of colour `colour` (0 White, 1 Black) on bit `index`.
#[inline]
pub(crate) fn piece(colour: usize, index: u32) -> u64 {
    KEYS.0[colour][index as usize]
}

/// Key toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS.1;
