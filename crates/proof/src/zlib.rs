//! The node streams' compression: zlib, read strictly (the stream must be whole,
//! match its declared length, and end exactly where its bytes end).

use std::io::Write;

use flate2::write::ZlibEncoder;
use flate2::{Compression, Decompress, FlushDecompress, Status};

/// Output room added per step, so that a lying length costs no memory up front.
const CHUNK: usize = 1 << 16;

/// Appends `stream`, compressed, to `out`.
pub(crate) fn deflate(stream: &[u8], out: Vec<u8>) -> Vec<u8> {
    // A fast level: writing proofs of millions of positions must not cost more
    // than finding them, and higher levels save only a few percent.
    let mut encoder = ZlibEncoder::new(out, Compression::new(3));
    encoder.write_all(stream).expect("Vec never fails");
    encoder.finish().expect("Vec never fails")
}

/// Inflates `compressed`, which must be exactly one zlib stream of `length` bytes;
/// the error says what is wrong with it.
pub(crate) fn inflate(compressed: &[u8], length: u64) -> Result<Vec<u8>, String> {
    let damaged = |why: String| format!("compressed stream: {why}");
    let mut decoder = Decompress::new(true);
    let mut stream = Vec::new();
    loop {
        // Stop as soon as the stream is longer than declared: a bomb stays small.
        if stream.len() as u64 > length {
            return Err(damaged(format!("longer than the {length} bytes declared")));
        }
        let (read, written) = (decoder.total_in(), decoder.total_out());
        let rest = &compressed[read as usize..];
        stream.reserve(CHUNK);
        let status = decoder
            .decompress_vec(rest, &mut stream, FlushDecompress::None)
            .map_err(|err| damaged(err.to_string()))?;
        if status == Status::StreamEnd {
            break;
        }
        if decoder.total_in() == read && decoder.total_out() == written {
            return Err(damaged("cut short".into()));
        }
    }
    let after = compressed.len() as u64 - decoder.total_in();
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
