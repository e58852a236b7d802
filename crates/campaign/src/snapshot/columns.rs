//! A snapshot's nodes in columns: the checkpoint's nodes section (see
//! [`crate::checkpoint`]) rearranged so that the compressor sees like beside like.
//! A row's bytes differ in kind (a bitboard's low byte, a number's high byte), and
//! the same byte of every node is much alike, so the section is written byte by
//! byte of the row, each for every node in turn; the children, mostly made
//! together, are written as differences. The 6x6 campaign's snapshot takes half
//! the bytes it took as gzip'd rows (docs/performance-log.md, "Campaigns").
//!
//! Layout: the node count (u32, little-endian); for each of the 27 bytes of a
//! node's row without its edges, that byte of every node; the edges' `from` bytes,
//! then their `to` bytes, in the nodes' order; then each edge's child as a LEB128
//! number: 0 for a move that ends the game, else 1 + the zigzag of its difference
//! from the node's previous child (from the node's own number for its first).

use crate::checkpoint::{EDGE_BYTES, NODE_BYTES};

/// Where a row keeps its edge count: its last byte before the edges.
const EDGE_COUNT_AT: usize = NODE_BYTES - 1;

/// The child of a move that ends the game.
const NO_CHILD: u32 = u32::MAX;

/// Appends to `out` the columns of a checkpoint's nodes section (the node count
/// and the rows); the error says where the rows are not whole.
pub(super) fn columns_of(section: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let (count, mut rest) = section.split_first_chunk::<4>().ok_or("no node count")?;
    let count = u32::from_le_bytes(*count) as usize;
    // Each node's row and its edges' bytes.
    let mut nodes = Vec::with_capacity(count.min(rest.len() / NODE_BYTES));
    for id in 0..count {
        let (row, after) = rest
            .split_at_checked(NODE_BYTES)
            .ok_or_else(|| format!("node {id} cut short"))?;
        let (edges, after) = after
            .split_at_checked(usize::from(row[EDGE_COUNT_AT]) * EDGE_BYTES)
            .ok_or_else(|| format!("the edges of node {id} cut short"))?;
        nodes.push((row, edges));
        rest = after;
    }
    if !rest.is_empty() {
        return Err(format!("{} bytes after the last node", rest.len()));
    }
    out.reserve(section.len());
    out.extend_from_slice(&(count as u32).to_le_bytes());
    for byte in 0..NODE_BYTES {
        out.extend(nodes.iter().map(|(row, _)| row[byte]));
    }
    for byte in 0..2 {
        for (_, edges) in &nodes {
            out.extend(edges.chunks_exact(EDGE_BYTES).map(|edge| edge[byte]));
        }
    }
    for (id, (_, edges)) in nodes.iter().enumerate() {
        let mut previous = id as i64;
        for edge in edges.chunks_exact(EDGE_BYTES) {
            let child = u32::from_le_bytes(edge[2..6].try_into().expect("4 bytes"));
            if child == NO_CHILD {
                push_number(out, 0);
            } else {
                push_number(out, 1 + zigzag(i64::from(child) - previous));
                previous = i64::from(child);
            }
        }
    }
    Ok(())
}

/// Appends to `out` the nodes section (the count and the rows) that `columns`
/// were made of; the error says what is wrong with them.
pub(super) fn rows_of(columns: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let (count_bytes, rest) = columns.split_first_chunk::<4>().ok_or("no node count")?;
    let count = u32::from_le_bytes(*count_bytes) as usize;
    let (rows, rest) = count
        .checked_mul(NODE_BYTES)
        .and_then(|bytes| rest.split_at_checked(bytes))
        .ok_or_else(|| format!("{count} nodes do not fit in the columns"))?;
    let column = |byte: usize| &rows[byte * count..(byte + 1) * count];
    let edge_counts = column(EDGE_COUNT_AT);
    let edges: usize = edge_counts.iter().map(|&n| usize::from(n)).sum();
    let (froms, rest) = rest
        .split_at_checked(edges)
        .ok_or("the edges' moves cut short")?;
    let (tos, mut children) = rest
        .split_at_checked(edges)
        .ok_or("the edges' moves cut short")?;
    out.reserve(4 + count * NODE_BYTES + edges * EDGE_BYTES);
    out.extend_from_slice(count_bytes);
    let mut edge = 0;
    for (id, &edge_count) in edge_counts.iter().enumerate() {
        out.extend((0..NODE_BYTES).map(|byte| column(byte)[id]));
        let mut previous = id as i64;
        for _ in 0..edge_count {
            out.extend_from_slice(&[froms[edge], tos[edge]]);
            edge += 1;
            let child = match take_number(&mut children)? {
                0 => NO_CHILD,
                number => {
                    let child = previous
                        .checked_add(unzigzag(number - 1))
                        .filter(|child| (0..i64::from(NO_CHILD)).contains(child))
                        .ok_or_else(|| format!("node {id}: a child out of range"))?;
                    previous = child;
                    child as u32
                }
            };
            out.extend_from_slice(&child.to_le_bytes());
        }
    }
    if !children.is_empty() {
        return Err(format!("{} bytes after the last child", children.len()));
    }
    Ok(())
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    (value >> 1) as i64 ^ -((value & 1) as i64)
}

fn push_number(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The LEB128 number at the start of `bytes`, which it then skips.
fn take_number(bytes: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes.split_first().ok_or("the children cut short")?;
        *bytes = rest;
        let bits = u64::from(byte & 0x7f);
        if shift == 63 && bits > 1 {
            break;
        }
        value |= bits << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a child's number is too long".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::tests::expanded_checkpoint;

    fn to_columns(rows: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        columns_of(rows, &mut out).map(|()| out)
    }

    fn to_rows(columns: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        rows_of(columns, &mut out).map(|()| out)
    }

    fn nodes_section() -> Vec<u8> {
        let (bytes, nodes_at) = expanded_checkpoint().to_bytes_and_nodes_at();
        bytes[nodes_at..bytes.len() - 4].to_vec()
    }

    #[test]
    fn columns_give_back_the_rows() {
        let rows = nodes_section();
        let columns = to_columns(&rows).expect("whole rows");
        assert!(columns.len() < rows.len(), "children take fewer bytes");
        assert_eq!(to_rows(&columns).expect("reads back"), rows);
        // An empty section is a section too.
        let none = 0u32.to_le_bytes();
        assert_eq!(to_rows(&to_columns(&none).unwrap()).unwrap(), none);
    }

    #[test]
    fn numbers_round_trip() {
        for value in [
            0,
            1,
            63,
            64,
            -1,
            -64,
            -65,
            i64::from(u32::MAX),
            -i64::from(u32::MAX),
        ] {
            let mut out = Vec::new();
            push_number(&mut out, zigzag(value));
            let mut bytes = &out[..];
            assert_eq!(unzigzag(take_number(&mut bytes).unwrap()), value);
            assert!(bytes.is_empty());
        }
        let mut out = Vec::new();
        push_number(&mut out, u64::MAX);
        assert_eq!(take_number(&mut &out[..]).unwrap(), u64::MAX);
        // Past 64 bits, or cut short.
        assert!(take_number(&mut &[0xff; 10][..]).is_err());
        assert!(take_number(&mut &[0x80, 0x80][..]).is_err());
    }

    /// Damaged columns are refused or give other rows, never a panic: the
    /// checkpoint's checksum then tells (see the snapshot's tests).
    #[test]
    fn damaged_columns_never_panic() {
        let rows = nodes_section();
        let columns = to_columns(&rows).unwrap();
        for cut in 0..columns.len() {
            assert!(to_rows(&columns[..cut]).is_err(), "cut at {cut}");
        }
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..2000 {
            let mut damaged = columns.clone();
            let at = rng.usize(..damaged.len());
            damaged[at] ^= 1 << rng.u8(..8);
            if let Ok(read) = to_rows(&damaged) {
                assert_ne!(read, rows, "a flip at {at} read as the original");
            }
        }
        let mut longer = columns.clone();
        longer.push(0);
        assert!(to_rows(&longer).is_err());
    }
}
