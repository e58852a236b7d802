//! Version 3's compression of node streams: LZMA2 in an xz container, read
//! strictly (the stream must be whole, match its declared length, and end exactly
//! where its bytes end). A reader can also unpack one with the `xz` tool.

use std::io::{Read, Write};

use lzma_rust2::{CheckType, XzOptions, XzReader, XzWriter, DICT_SIZE_MIN};

/// The xz preset: the `xz` tool's default, which compresses proofs' node streams
/// about a third smaller than zlib does (see docs/certificates.md).
const PRESET: u32 = 6;

/// The most memory a stream may ask its reader for, in KiB: room for the
/// dictionary of any preset, so that a lying header cannot claim more.
const MEMORY_LIMIT_KB: u32 = 128 << 10;

/// Output read per step, so that a lying length costs no memory up front.
const CHUNK: u64 = 1 << 20;

/// `stream`, compressed.
pub(crate) fn compress(stream: &[u8]) -> Vec<u8> {
    let mut options = XzOptions::with_preset(PRESET);
    // A dictionary no bigger than the stream compresses it the same, and a small
    // proof (a campaign's part, a test's) then costs little memory and time.
    let fits = u32::try_from(stream.len())
        .unwrap_or(u32::MAX)
        .max(DICT_SIZE_MIN);
    let dictionary = &mut options.lzma_options.dict_size;
    *dictionary = (*dictionary).min(fits.checked_next_power_of_two().unwrap_or(u32::MAX));
    // The file's own CRC-32 covers every byte.
    options.set_check_sum_type(CheckType::None);
    let mut writer = XzWriter::new(Vec::new(), options).expect("a Vec takes any bytes");
    writer.write_all(stream).expect("a Vec takes any bytes");
    writer.finish().expect("a Vec takes any bytes")
}

/// Unpacks `compressed`, which must be exactly one xz stream of `length` bytes;
/// the error says what is wrong with it.
pub(crate) fn decompress(compressed: &[u8], length: u64) -> Result<Vec<u8>, String> {
    let damaged = |why: String| format!("compressed stream: {why}");
    let mut reader = XzReader::new_mem_limit(compressed, false, MEMORY_LIMIT_KB);
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
        let packed = compress(&stream);
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
        assert_eq!(decompress(&compress(&[]), 0).unwrap(), Vec::<u8>::new());
    }
}
