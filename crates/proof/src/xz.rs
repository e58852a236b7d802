//! Version 3's compression of node streams: LZMA2 in an xz container, read
//! strictly (the stream must be whole, match its declared length, and end exactly
//! where its bytes end). A reader can also unpack one with the `xz` tool.

use std::io::{Read, Write};
use std::num::NonZeroU64;

use lzma_rust2::{CheckType, XzOptions, XzReader, XzWriter, XzWriterMt, DICT_SIZE_MIN};

/// How hard a certificate's node streams are compressed: the same format either
/// way, and any reader unpacks both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// The xz tool's default preset (6): about a third smaller than zlib (see
    /// docs/certificates.md), at about 1.4 MB of node stream a second.
    Small,
    /// Preset 1: about a sixth bigger than `Small`, and nine times as fast; for a
    /// campaign's parts, whose compression otherwise costs about as much as
    /// writing them.
    Fast,
}

impl Compression {
    /// The writer's options: the preset, and no check of the stream's own (the
    /// file's CRC-32 covers every byte).
    fn options(self) -> XzOptions {
        let preset = match self {
            Compression::Small => 6,
            Compression::Fast => 1,
        };
        let mut options = XzOptions::with_preset(preset);
        options.set_check_sum_type(CheckType::None);
        options
    }
}

/// The most memory an xz stream may ask its reader for, in KiB: room for the
/// dictionary of any preset, so that a lying header cannot claim more. The
/// campaign's snapshot reader holds its streams to it too.
pub const XZ_MEMORY_LIMIT_KB: u32 = 128 << 10;

/// Output read per step, so that a lying length costs no memory up front.
const CHUNK: u64 = 1 << 20;

/// The most a stream may expand, in bytes per compressed byte (zlib's own limit is
/// about 1,032), beyond a small allowance: honest node streams expand 4 to 8
/// times, and a declared length past this is refused before anything is read.
const MAX_EXPANSION: u64 = 1024;
const EXPANSION_ALLOWANCE: u64 = 1 << 16;

/// The stream flags of an xz stream with no check of its own, in its header (after
/// the 6-byte magic) and its footer (before the 2-byte magic).
const NO_CHECK: [u8; 2] = [0, 0];

/// A stream longer than this is compressed in blocks of [`BLOCK`] bytes, one per
/// core at a time: on one core, a large certificate's compression takes many
/// minutes at the end of a long solve, which nothing can interrupt without losing
/// the solve (docs/performance.md, "Exact lengths"). Every certificate kept in the
/// repository is far smaller, so its bytes stay those of a single block.
const BLOCKS_FROM: usize = 256 << 20;

/// The uncompressed bytes of a block of a long stream: eight dictionaries of
/// preset 6, so that cutting the stream costs next to nothing in size.
const BLOCK: u64 = 64 << 20;

/// `stream`, compressed. The bytes depend only on the stream and `compression`,
/// never on the number of cores.
pub(crate) fn compress(stream: &[u8], compression: Compression) -> Vec<u8> {
    if stream.len() > BLOCKS_FROM {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        return compress_in_blocks(stream, compression, BLOCK, cores);
    }
    let mut options = compression.options();
    // A dictionary no bigger than the stream compresses it the same, and a small
    // proof (a campaign's part, a test's) then costs little memory and time.
    let fits = u32::try_from(stream.len())
        .unwrap_or(u32::MAX)
        .max(DICT_SIZE_MIN);
    let dictionary = &mut options.lzma_options.dict_size;
    *dictionary = (*dictionary).min(fits.checked_next_power_of_two().unwrap_or(u32::MAX));
    let mut writer = XzWriter::new(Vec::new(), options).expect("a Vec takes any bytes");
    writer.write_all(stream).expect("a Vec takes any bytes");
    writer.finish().expect("a Vec takes any bytes")
}

/// `stream` compressed in blocks of `block` bytes (at least the dictionary), on
/// `workers` threads: each block is compressed on its own, so the bytes do not
/// depend on `workers`.
fn compress_in_blocks(
    stream: &[u8],
    compression: Compression,
    block: u64,
    workers: usize,
) -> Vec<u8> {
    let mut options = compression.options();
    options.set_block_size(NonZeroU64::new(block));
    let workers = u32::try_from(workers.clamp(1, 256)).unwrap_or(1);
    let mut writer = XzWriterMt::new(Vec::new(), options, workers).expect("the block size is set");
    writer.write_all(stream).expect("a Vec takes any bytes");
    writer.finish().expect("a Vec takes any bytes")
}

/// Unpacks `compressed`, which must be exactly one xz stream of `length` bytes;
/// the error says what is wrong with it.
pub(crate) fn decompress(compressed: &[u8], length: u64) -> Result<Vec<u8>, String> {
    let damaged = |why: String| format!("compressed stream: {why}");
    let most = (compressed.len() as u64)
        .saturating_mul(MAX_EXPANSION)
        .saturating_add(EXPANSION_ALLOWANCE);
    if length > most {
        return Err(damaged(format!(
            "{} bytes cannot hold the {length} declared",
            compressed.len()
        )));
    }
    // One spelling: the file's CRC-32 covers the stream, so it has no check of its
    // own (the decoder checks the rest of the container, and the footer's copy of
    // the flags below).
    if compressed.get(6..8) != Some(&NO_CHECK[..]) {
        return Err(damaged("an xz stream with a check of its own".into()));
    }
    let mut reader = XzReader::new_mem_limit(compressed, false, XZ_MEMORY_LIMIT_KB);
    let mut stream = Vec::new();
    loop {
        // Stop as soon as the stream is longer than declared: a bomb stays small.
        let before = stream.len();
        (&mut reader)
            .take(CHUNK)
            .read_to_end(&mut stream)
            .map_err(|err| damaged(err.to_string()))?;
        if stream.len() as u64 > length {
            return Err(damaged(format!("longer than the {length} bytes declared")));
        }
        if stream.len() == before {
            break;
        }
    }
    let after = reader.into_inner().len();
    if after > 0 {
        return Err(damaged(format!("{after} bytes after its end")));
    }
    if compressed.get(compressed.len().saturating_sub(4)..compressed.len() - 2)
        != Some(&NO_CHECK[..])
    {
        return Err(damaged("an xz stream with a check of its own".into()));
    }
    if stream.len() as u64 != length {
        return Err(format!(
            "the node stream has {} bytes, the header says {length}",
            stream.len()
        ));
    }
    Ok(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_round_trip_and_damage_is_refused() {
        let stream: Vec<u8> = (0..100_000u64).map(|i| (i * i % 251) as u8).collect();
        let fast = compress(&stream, Compression::Fast);
        assert_eq!(decompress(&fast, stream.len() as u64).unwrap(), stream);
        let packed = compress(&stream, Compression::Small);
        assert!(packed.len() < stream.len() / 4, "{} bytes", packed.len());
        assert_eq!(decompress(&packed, stream.len() as u64).unwrap(), stream);
        // A length that is not the stream's.
        assert!(decompress(&packed, stream.len() as u64 - 1).is_err());
        assert!(decompress(&packed, stream.len() as u64 + 1).is_err());
        // Cut short, or with a byte more.
        assert!(decompress(&packed[..packed.len() - 1], stream.len() as u64).is_err());
        let mut longer = packed.clone();
        longer.push(0);
        let err = decompress(&longer, stream.len() as u64).unwrap_err();
        assert!(err.contains("after its end"), "{err}");
        // An empty stream is a stream too.
        assert_eq!(
            decompress(&compress(&[], Compression::Small), 0).unwrap(),
            Vec::<u8>::new()
        );
        // A length the bytes cannot hold is refused before anything is read.
        let err = decompress(&packed, packed.len() as u64 * 2000).unwrap_err();
        assert!(err.contains("cannot hold"), "{err}");
    }

    /// A long stream's blocks: the same bytes on any number of threads, read back
    /// whole, and no bigger than one block's spelling by more than a little.
    #[test]
    fn blocks_are_the_same_on_any_number_of_threads() {
        let mut rng = fastrand::Rng::with_seed(3);
        // Compressible but not trivially: runs of a few symbols.
        let stream: Vec<u8> = (0..3_000_000)
            .map(|i| {
                if i % 7 == 0 {
                    rng.u8(..)
                } else {
                    (i % 13) as u8
                }
            })
            .collect();
        let block = 1 << 20;
        let one = compress_in_blocks(&stream, Compression::Fast, block, 1);
        for workers in [2, 5] {
            assert_eq!(
                compress_in_blocks(&stream, Compression::Fast, block, workers),
                one
            );
        }
        assert_eq!(decompress(&one, stream.len() as u64).unwrap(), stream);
        let whole = compress(&stream, Compression::Fast);
        assert_ne!(one, whole, "three blocks are spelled apart");
        assert!(
            one.len() < whole.len() + whole.len() / 20,
            "{} against {}",
            one.len(),
            whole.len()
        );
        // Damage is refused as in a single block.
        assert!(decompress(&one[..one.len() - 1], stream.len() as u64).is_err());
        assert!(decompress(&one, stream.len() as u64 + 1).is_err());
    }

    #[test]
    fn a_stream_with_a_check_of_its_own_is_a_second_spelling() {
        let stream = vec![7u8; 1000];
        for check in [CheckType::Crc32, CheckType::Crc64] {
            let mut options = XzOptions::with_preset(0);
            options.set_check_sum_type(check);
            let mut writer = XzWriter::new(Vec::new(), options).unwrap();
            writer.write_all(&stream).unwrap();
            let packed = writer.finish().unwrap();
            let err = decompress(&packed, stream.len() as u64).unwrap_err();
            assert!(err.contains("check of its own"), "{check:?}: {err}");
        }
    }
}
