//! Unsigned LEB128 numbers, read strictly: only the shortest encoding of a number
//! is accepted, so that one proof has one spelling.

/// Why bytes are not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarintError {
    /// The bytes end inside the number.
    End,
    /// More than 64 bits.
    Overflow,
    /// A longer encoding than the number needs (a last byte of zero).
    Overlong,
}

/// Appends `value` in its shortest encoding.
pub(crate) fn write(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a number from the start of `bytes`: its value and its length in bytes.
pub(crate) fn read(bytes: &[u8]) -> Result<(u64, usize), VarintError> {
    let mut value = 0u64;
    for (i, &byte) in bytes.iter().enumerate() {
        let bits = u64::from(byte & 0x7f);
        let shift = 7 * i as u32;
        if shift >= 64 || (shift == 63 && bits > 1) {
            return Err(VarintError::Overflow);
        }
        value |= bits << shift;
        if byte & 0x80 == 0 {
            // A zero last byte after others adds nothing: the number had a shorter form.
            if byte == 0 && i > 0 {
                return Err(VarintError::Overlong);
            }
            return Ok((value, i + 1));
        }
    }
    Err(VarintError::End)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_in_their_shortest_form() {
        for value in [0, 1, 127, 128, 300, 16_383, 16_384, u64::MAX >> 1, u64::MAX] {
            let mut bytes = Vec::new();
            write(&mut bytes, value);
            assert_eq!(read(&bytes), Ok((value, bytes.len())), "{value}");
            bytes.pop();
            assert_eq!(read(&bytes), Err(VarintError::End));
        }
    }

    #[test]
    fn longer_forms_and_overflows_are_refused() {
        assert_eq!(read(&[0x80, 0x00]), Err(VarintError::Overlong));
        assert_eq!(read(&[0x81, 0x80, 0x00]), Err(VarintError::Overlong));
        let mut eleven = vec![0xff; 10];
        eleven.push(0x01);
        assert_eq!(read(&eleven), Err(VarintError::Overflow));
        let mut too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert_eq!(read(&too_big), Err(VarintError::Overflow));
    }
}
