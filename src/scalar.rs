//! The scalar reference decoder, written from the table of well-formed sequences in
//! RFC 3629 section 4 (Unicode Table 3-7):
//!
//! | code points         | 1st     | 2nd     | 3rd   | 4th   |
//! |---------------------|---------|---------|-------|-------|
//! | U+0000..U+007F      | 00..7F  |         |       |       |
//! | U+0080..U+07FF      | C2..DF  | 80..BF  |       |       |
//! | U+0800..U+0FFF      | E0      | A0..BF  | 80..BF|       |
//! | U+1000..U+CFFF      | E1..EC  | 80..BF  | 80..BF|       |
//! | U+D000..U+D7FF      | ED      | 80..9F  | 80..BF|       |
//! | U+E000..U+FFFF      | EE..EF  | 80..BF  | 80..BF|       |
//! | U+10000..U+3FFFF    | F0      | 90..BF  | 80..BF| 80..BF|
//! | U+40000..U+FFFFF    | F1..F3  | 80..BF  | 80..BF| 80..BF|
//! | U+100000..U+10FFFF  | F4      | 80..8F  | 80..BF| 80..BF|
//!
//! The first byte says how many bytes follow and which range the *second* byte may take;
//! every later byte is a plain continuation byte `80..BF`. [`decode_char`] reads one
//! character this way and, when the bytes break the table, says where (the *maximal
//! subpart*: how many bytes were a prefix of some well-formed sequence) and why
//! ([`ErrorKind`]). Everything else here is built on it:
//!
//! - [`decode`] iterates over `(offset, char)` and reports every error, resynchronising
//!   after each maximal subpart (what lossy decoding and "report every error" need);
//! - [`validate`] is the fallback validator for CPUs without SIMD and for short inputs. Its
//!   only shortcut is to skip runs of ASCII a machine word at a time.
//!
//! It is the oracle that every vector backend is tested against.

use crate::error::{ErrorKind, Utf8Error};

/// What [`decode_char`] found at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A well-formed character and the number of bytes it took (1 to 4).
    Char(char, usize),
    /// An ill-formed sequence: the error, with `valid_up_to` relative to the position given.
    Error(Utf8Error),
}

/// The range the second byte must fall in after each lead byte, and the sequence length.
/// `None`: the byte cannot start a sequence.
#[inline]
const fn lead_info(lead: u8) -> Option<(usize, u8, u8)> {
    match lead {
        0x00..=0x7F => Some((1, 0, 0)),
        0xC2..=0xDF => Some((2, 0x80, 0xBF)),
        0xE0 => Some((3, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE..=0xEF => Some((3, 0x80, 0xBF)),
        0xED => Some((3, 0x80, 0x9F)),
        0xF0 => Some((4, 0x90, 0xBF)),
        0xF1..=0xF3 => Some((4, 0x80, 0xBF)),
        0xF4 => Some((4, 0x80, 0x8F)),
        _ => None,
    }
}

#[inline]
const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// How many bytes a lead byte announces if one ignores the RFC 3629 limits (`C0`/`C1`
/// announce 2, `F5..F7` announce 4); 1 for continuation bytes and `F8..FF`.
#[inline]
const fn announced_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The value encoded by `bytes[..n]` read as an n-byte sequence with the usual bit layout,
/// if all `n` bytes are present and the trailing ones are continuation bytes.
fn raw_value(bytes: &[u8], n: usize) -> Option<u32> {
    if n < 2 || bytes.len() < n || !bytes[1..n].iter().all(|&b| is_continuation(b)) {
        return None;
    }
    let lead_bits = u32::from(bytes[0]) & (0x7F >> n);
    Some(
        bytes[1..n]
            .iter()
            .fold(lead_bits, |acc, &b| (acc << 6) | u32::from(b & 0x3F)),
    )
}

/// Builds an error at relative offset 0.
fn error(bytes: &[u8], kind: ErrorKind, error_len: usize) -> Decoded {
    let sequence_len = announced_len(bytes[0]);
    let code_point = match kind {
        ErrorKind::Overlong | ErrorKind::Surrogate | ErrorKind::TooLarge => {
            raw_value(bytes, sequence_len).unwrap_or(Utf8Error::NO_CODE_POINT)
        }
        _ => Utf8Error::NO_CODE_POINT,
    };
    Decoded::Error(Utf8Error {
        valid_up_to: 0,
        error_len: error_len as u8,
        kind,
        code_point,
        sequence_len: sequence_len as u8,
    })
}

/// Decodes the character at the start of `bytes` (which must not be empty).
///
/// On error, the returned [`Utf8Error`] has `valid_up_to() == 0`.
pub fn decode_char(bytes: &[u8]) -> Decoded {
    let lead = bytes[0];
    let Some((len, second_lo, second_hi)) = lead_info(lead) else {
        // Not a lead byte at all. Say why, as precisely as the next byte allows.
        let next_is_cont = bytes.len() > 1 && is_continuation(bytes[1]);
        let kind = match lead {
            0x80..=0xBF => ErrorKind::UnexpectedContinuation,
            0xC0 | 0xC1 if next_is_cont => ErrorKind::Overlong,
            0xF5..=0xF7 if next_is_cont => ErrorKind::TooLarge,
            _ => ErrorKind::InvalidByte,
        };
        return error(bytes, kind, 1);
    };
    if len == 1 {
        return Decoded::Char(lead as char, 1);
    }
    // The second byte: its own range depends on the lead.
    let Some(&second) = bytes.get(1) else {
        return error(bytes, ErrorKind::Incomplete, 0);
    };
    if !(second_lo..=second_hi).contains(&second) {
        let kind = if !is_continuation(second) {
            ErrorKind::TooShort
        } else {
            match lead {
                0xE0 | 0xF0 => ErrorKind::Overlong,
                0xED => ErrorKind::Surrogate,
                _ => ErrorKind::TooLarge, // 0xF4 followed by 90..BF
            }
        };
        return error(bytes, kind, 1);
    }
    // Every later byte: a plain continuation byte.
    for i in 2..len {
        match bytes.get(i) {
            None => return error(bytes, ErrorKind::Incomplete, 0),
            Some(&b) if !is_continuation(b) => return error(bytes, ErrorKind::TooShort, i),
            Some(_) => {}
        }
    }
    let value = raw_value(bytes, len).expect("all continuation bytes were checked");
    let c = char::from_u32(value).expect("the table admits only scalar values");
    Decoded::Char(c, len)
}

/// An iterator over the characters of a byte slice and the offsets where they start,
/// reporting each ill-formed part as an error and then carrying on after its maximal
/// subpart (so it yields every error, as a lossy decoder would replace them). After an
/// [`ErrorKind::Incomplete`] error the iterator ends.
#[derive(Clone, Debug)]
pub struct Decode<'a> {
    bytes: &'a [u8],
    pos: usize,
}

/// Decodes `bytes` into `(offset, char)` pairs and errors; see [`Decode`].
pub fn decode(bytes: &[u8]) -> Decode<'_> {
    Decode { bytes, pos: 0 }
}

impl Iterator for Decode<'_> {
    type Item = Result<(usize, char), Utf8Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.bytes.get(self.pos..).filter(|r| !r.is_empty())?;
        let start = self.pos;
        match decode_char(rest) {
            Decoded::Char(c, len) => {
                self.pos += len;
                Some(Ok((start, c)))
            }
            Decoded::Error(e) => {
                self.pos = match e.error_len() {
                    Some(n) => start + n,
                    None => self.bytes.len(),
                };
                Some(Err(e.shifted(start)))
            }
        }
    }
}

impl core::iter::FusedIterator for Decode<'_> {}

/// Returns the first error in `bytes`, or `Ok(())` if it is all valid UTF-8.
#[inline]
pub fn validate(bytes: &[u8]) -> Result<(), Utf8Error> {
    validate_from(bytes, 0)
}

/// Like [`validate`], but starts at `start`, which the caller knows to be the start of a
/// character that follows valid UTF-8. Error offsets are relative to the whole of `bytes`.
///
/// The loop checks each sequence against the table without computing its value (runs of
/// ASCII are skipped a word at a time); at the first sequence that breaks the table,
/// [`decode_char`] says exactly how.
pub fn validate_from(bytes: &[u8], start: usize) -> Result<(), Utf8Error> {
    const WORD: usize = core::mem::size_of::<usize>();
    const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);
    let len = bytes.len();
    let mut pos = start;
    while pos < len {
        let lead = bytes[pos];
        if lead < 0x80 {
            pos += 1;
            // Skip ASCII a word at a time.
            while let Some(word) = bytes.get(pos..pos + WORD) {
                let word = usize::from_ne_bytes(word.try_into().expect("slice of WORD bytes"));
                if word & HIGH_BITS != 0 {
                    break;
                }
                pos += WORD;
            }
            continue;
        }
        let n = match (lead_info(lead), &bytes[pos..]) {
            (Some((2, lo, hi)), [_, b1, ..]) if (lo..=hi).contains(b1) => 2,
            (Some((3, lo, hi)), [_, b1, b2, ..])
                if (lo..=hi).contains(b1) && is_continuation(*b2) =>
            {
                3
            }
            (Some((4, lo, hi)), [_, b1, b2, b3, ..])
                if (lo..=hi).contains(b1) && is_continuation(*b2) && is_continuation(*b3) =>
            {
                4
            }
            _ => {
                return match decode_char(&bytes[pos..]) {
                    Decoded::Error(e) => Err(e.shifted(pos)),
                    Decoded::Char(..) => {
                        unreachable!("decode_char accepts what the table rejects")
                    }
                }
            }
        };
        pos += n;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Position, length and reason of the first error.
    type Found = Option<(usize, Option<usize>, ErrorKind)>;

    fn first_error(bytes: &[u8]) -> Found {
        validate(bytes)
            .err()
            .map(|e| (e.valid_up_to(), e.error_len(), e.kind()))
    }

    #[test]
    fn table_boundaries() {
        use ErrorKind::*;
        let cases: &[(&[u8], Found)] = &[
            (b"", None),
            (b"\x7F", None),
            (b"\xC2\x80", None),
            (b"\xDF\xBF", None),
            (b"\xE0\xA0\x80", None),
            (b"\xED\x9F\xBF", None),
            (b"\xEE\x80\x80", None),
            (b"\xF0\x90\x80\x80", None),
            (b"\xF4\x8F\xBF\xBF", None),
            (b"\x80", Some((0, Some(1), UnexpectedContinuation))),
            (b"\xC0\xAF", Some((0, Some(1), Overlong))),
            (b"\xC1", Some((0, Some(1), InvalidByte))),
            (b"\xE0\x9F\xBF", Some((0, Some(1), Overlong))),
            (b"\xED\xA0\x80", Some((0, Some(1), Surrogate))),
            (b"\xF0\x8F\xBF\xBF", Some((0, Some(1), Overlong))),
            (b"\xF4\x90\x80\x80", Some((0, Some(1), TooLarge))),
            (b"\xF5\x80", Some((0, Some(1), TooLarge))),
            (b"\xF8\x88\x80\x80\x80", Some((0, Some(1), InvalidByte))),
            (b"\xFF", Some((0, Some(1), InvalidByte))),
            (b"a\xE2\x82", Some((1, None, Incomplete))),
            (b"a\xE2\x82a", Some((1, Some(2), TooShort))),
            (b"\xF0\x9F\x98", Some((0, None, Incomplete))),
            (b"\xF0\x9F\x98\xF0", Some((0, Some(3), TooShort))),
            (b"\xC2", Some((0, None, Incomplete))),
            (b"\xC2a", Some((0, Some(1), TooShort))),
        ];
        for (bytes, want) in cases {
            assert_eq!(first_error(bytes), *want, "{bytes:02X?}");
        }
    }

    #[test]
    fn code_points_of_bad_forms() {
        let cp = |b: &[u8]| validate(b).unwrap_err().code_point();
        assert_eq!(cp(b"\xC0\xAF"), Some(0x2F));
        assert_eq!(cp(b"\xE0\x80\xAF"), Some(0x2F));
        assert_eq!(cp(b"\xF0\x80\x80\xAF"), Some(0x2F));
        assert_eq!(cp(b"\xED\xA0\x80"), Some(0xD800));
        assert_eq!(cp(b"\xF4\x90\x80\x80"), Some(0x110000));
        assert_eq!(cp(b"\xED\xA0"), None);
        assert_eq!(cp(b"\x80"), None);
    }

    #[test]
    fn decode_resynchronises() {
        // Unicode 3.9's worked example: a, F1 80 80, E1 80, C2, b, 80, c, 80, BF, d.
        let input = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
        let items: Vec<_> = decode(input)
            .map(|r| r.map_err(|e| (e.valid_up_to(), e.error_len())))
            .collect();
        assert_eq!(
            items,
            vec![
                Ok((0, 'a')),
                Err((1, Some(3))),
                Err((4, Some(2))),
                Err((6, Some(1))),
                Ok((7, 'b')),
                Err((8, Some(1))),
                Ok((9, 'c')),
                Err((10, Some(1))),
                Err((11, Some(1))),
                Ok((12, 'd')),
            ]
        );
    }
}
