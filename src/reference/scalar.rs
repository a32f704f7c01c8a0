//! The scalar reference decoder: Table 3-7 of RFC 3629 / Unicode (see [`crate::grammar`]),
//! read one character at a time.
//!
//! The first byte says how many bytes follow and which range the *second* byte may take;
//! every later byte is a plain continuation byte `80..BF`. [`decode_char`] reads one
//! character this way and, when the bytes break the table, says where (the *maximal
//! subpart*: how many bytes were a prefix of some well-formed sequence) and why
//! ([`ErrorKind`](crate::ErrorKind)). Everything else here is built on it:
//!
//! - [`decode()`] iterates over `(offset, char)` and reports every error, resynchronising
//!   after each maximal subpart;
//! - [`validate`] is the fallback validator for CPUs without SIMD and for short inputs. Its
//!   only shortcut is to skip runs of ASCII a machine word at a time.
//!
//! It is the oracle that every vector backend is tested against.

use crate::reference::decode::{self, Fault, Strict};
use crate::reference::error::Utf8Error;
use crate::reference::grammar::{is_continuation, strict_rule};

/// What [`decode_char`] found at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A well-formed character and the number of bytes it took (1 to 4).
    Char(char, usize),
    /// An ill-formed sequence: the error, with `valid_up_to` relative to the position given.
    Error(Utf8Error),
}

/// Decodes the character at the start of `bytes` (which must not be empty).
///
/// On error, the returned [`Utf8Error`] has `valid_up_to() == 0`.
#[inline]
pub fn decode_char(bytes: &[u8]) -> Decoded {
    match decode::decode::<Strict>(bytes) {
        Ok((value, len)) => Decoded::Char(
            char::from_u32(value).expect("the table admits only scalar values"),
            len,
        ),
        Err(e) => Decoded::Error(e),
    }
}

/// An iterator over the characters of a byte slice and the offsets where they start,
/// reporting each ill-formed part as an error and then carrying on after its maximal
/// subpart (so it yields every error, as a lossy decoder would replace them). After an
/// [`ErrorKind::Incomplete`](crate::ErrorKind::Incomplete) error the iterator ends.
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
    validate_until(bytes, start, bytes.len()).map(|_| ())
}

/// Like [`validate_from`], but stops at the first character that starts at or after
/// `stop`, and returns where it stopped: a character boundary at or after `stop` (or the
/// end of `bytes`). Error offsets are relative to the whole of `bytes`.
#[inline]
pub(crate) fn validate_until(bytes: &[u8], start: usize, stop: usize) -> Result<usize, Utf8Error> {
    check_until::<true>(bytes, start, stop)
        .map_err(|(pos, f)| decode::error::<Strict>(&bytes[pos..], f).shifted(pos))
}

/// [`validate_until`] without the error's details: where it starts and what is wrong
/// (without the reason if `KINDS` is false, see [`decode::decode_fault`]).
/// (Always inlined: returned through memory, a dense run of errors stalls on every one.)
#[inline(always)]
pub(crate) fn check_until<const KINDS: bool>(
    bytes: &[u8],
    start: usize,
    stop: usize,
) -> Result<usize, (usize, Fault)> {
    const WORD: usize = core::mem::size_of::<usize>();
    const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);
    let len = bytes.len();
    let stop = stop.min(len);
    let mut pos = start;
    while pos < stop {
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
        let n = match (strict_rule(lead), &bytes[pos..]) {
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
                return match decode::decode_fault::<Strict, KINDS>(&bytes[pos..]) {
                    Err(f) => Err((pos, f)),
                    Ok(..) => unreachable!("the decoder accepts what the table rejects"),
                }
            }
        };
        pos += n;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::error::ErrorKind;

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
