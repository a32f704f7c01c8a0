//! Original UTF-8: the 1-to-6-octet form of RFC 2044, the RFC 2279 draft and ISO/IEC
//! 10646-1 Amendment 2, Annex R.
//!
//! Before RFC 3629 (2003) cut UTF-8 down to U+10FFFF, UTF-8 encoded every UCS-4 value up to
//! 7FFF FFFF, in up to six octets (Annex R, Table 1):
//!
//! | UCS-4 range             | 1st     | 2nd     | 3rd..6th |
//! |-------------------------|---------|---------|----------|
//! | 0000 0000..0000 007F    | 00..7F  |         |          |
//! | 0000 0080..0000 07FF    | C2..DF  | 80..BF  |          |
//! | 0000 0800..0000 0FFF    | E0      | A0..BF  | 80..BF   |
//! | 0000 1000..0000 FFFF    | E1..EF  | 80..BF  | 80..BF   |
//! | 0001 0000..0003 FFFF    | F0      | 90..BF  | 80..BF ×2 |
//! | 0004 0000..001F FFFF    | F1..F7  | 80..BF  | 80..BF ×2 |
//! | 0020 0000..00FF FFFF    | F8      | 88..BF  | 80..BF ×3 |
//! | 0100 0000..03FF FFFF    | F9..FB  | 80..BF  | 80..BF ×3 |
//! | 0400 0000..0FFF FFFF    | FC      | 84..BF  | 80..BF ×4 |
//! | 1000 0000..7FFF FFFF    | FD      | 80..BF  | 80..BF ×4 |
//!
//! with two exclusions: `ED A0..BF` (the values D800..DFFF, which Annex R note 3 leaves
//! without a mapping), and every sequence that is not the R.4 image of its value (a
//! *non-shortest* or *overlong* form: `C0`, `C1`, and the second-octet limits after `E0`,
//! `F0`, `F8` and `FC`). The octets FE and FF never appear.
//!
//! # The same engine
//!
//! Strict UTF-8 is a subset of this profile, and real text almost never leaves the subset.
//! So [`validate`] walks the strict errors of the input ([`crate::errors()`]: the fast
//! validator, with a scalar stretch after each error so that text dense with legacy forms
//! does not restart the vector code for every character), and only at each strict error
//! does the scalar legacy decoder ([`decode_char`]) look at one sequence: if it is a legacy
//! form (a 4-octet value above U+10FFFF, or a 5- or 6-octet form) the search resumes after
//! it, otherwise its error is the answer. The legacy decoder is the strict one
//! ([`crate::scalar::decode_char`]) run on the larger table of [`crate::grammar`].
//!
//! # Errors
//!
//! Errors have the shape of strict ones ([`Utf8Error`]): `valid_up_to` is the length of the
//! longest valid prefix, `error_len` is `None` when the input ends inside a sequence that
//! more bytes could complete, otherwise the length of the *maximal subpart* under the table
//! above (the longest prefix of a well-formed legacy sequence, at least 1; up to 5 here).
//! The kinds are those of strict UTF-8: [`ErrorKind::Overlong`](crate::ErrorKind::Overlong) for non-shortest forms,
//! [`ErrorKind::Surrogate`](crate::ErrorKind::Surrogate), [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) for FE, FF (and C0, C1 not
//! followed by a continuation octet), [`ErrorKind::UnexpectedContinuation`](crate::ErrorKind::UnexpectedContinuation),
//! [`ErrorKind::TooShort`](crate::ErrorKind::TooShort), [`ErrorKind::Incomplete`](crate::ErrorKind::Incomplete). [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge) never
//! occurs: six octets cannot hold more than 7FFF FFFF.
//!
//! The values FFFE and FFFF (Annex R note 3: "also do not occur") are accepted, as strict
//! UTF-8 accepts noncharacters; see `docs/PROFILES.md`.

use crate::reference::decode::{self, Legacy};
use crate::reference::error::Utf8Error;

/// The largest value original UTF-8 encodes.
pub const MAX_VALUE: u32 = 0x7FFF_FFFF;

/// What [`decode_char`] found at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A well-formed legacy sequence: its UCS-4 value and length in octets (1 to 6).
    Value(u32, usize),
    /// An ill-formed sequence: the error, with `valid_up_to` relative to the position given.
    Error(Utf8Error),
}

/// Decodes the legacy UTF-8 sequence at the start of `bytes`.
///
/// On error, the returned [`Utf8Error`] has `valid_up_to() == 0`. An empty `bytes` is
/// reported as an [`ErrorKind::Incomplete`](crate::ErrorKind::Incomplete) error.
pub fn decode_char(bytes: &[u8]) -> Decoded {
    if bytes.is_empty() {
        return Decoded::Error(Utf8Error::incomplete(1));
    }
    match decode::decode::<Legacy>(bytes) {
        Ok((value, len)) => Decoded::Value(value, len),
        Err(e) => Decoded::Error(e),
    }
}

/// The plain scalar reference: decodes sequence after sequence with [`decode_char`] and
/// returns the first error. [`validate`] must agree with it on every input.
pub fn validate_scalar(bytes: &[u8]) -> Result<(), Utf8Error> {
    let mut pos = 0;
    while pos < bytes.len() {
        match decode_char(&bytes[pos..]) {
            Decoded::Value(_, len) => pos += len,
            Decoded::Error(e) => return Err(e.shifted(pos)),
        }
    }
    Ok(())
}

/// Checks that `input` is original UTF-8 (1 to 6 octets, values up to 7FFF FFFF, shortest
/// forms only, no D800..DFFF) and returns the first error otherwise.
///
/// Strict UTF-8 runs at the speed of [`crate::from_utf8`]; see the module documentation.
///
/// ```
/// // U+110000 and 7FFF FFFF are original UTF-8, but not strict UTF-8.
/// assert!(vutf8::legacy::validate(b"\xF4\x90\x80\x80 \xFD\xBF\xBF\xBF\xBF\xBF").is_ok());
/// let err = vutf8::legacy::validate(b"ab\xFC\x80\x80\x80\x80\xAF").unwrap_err();
/// assert_eq!(err.valid_up_to(), 2);
/// assert_eq!(err.kind(), vutf8::ErrorKind::Overlong);
/// ```
pub fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    let mut errors = crate::damaged::every_error::errors(input);
    while let Some(e) = errors.next() {
        let at = e.valid_up_to();
        match decode_char(&input[at..]) {
            Decoded::Value(_, len) => errors.resume_at(at + len),
            Decoded::Error(le) => return Err(le.shifted(at)),
        }
    }
    Ok(())
}

/// Whether `input` is original UTF-8; see [`validate`].
#[inline]
pub fn is_valid(input: &[u8]) -> bool {
    validate(input).is_ok()
}

/// Why a value has no original UTF-8 encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeError {
    index: usize,
    value: u32,
}

impl EncodeError {
    /// The position of the value in the input slice (0 for [`encode_char`]).
    #[inline]
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The value that has no encoding: D800..DFFF, or above 7FFF FFFF.
    #[inline]
    pub const fn value(&self) -> u32 {
        self.value
    }
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let why = if self.value > MAX_VALUE {
            "above 7FFF FFFF"
        } else {
            "a UTF-16 surrogate"
        };
        write!(
            f,
            "value {:08X} at index {} has no UTF-8 form: {why}",
            self.value, self.index
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

/// Encodes one UCS-4 value by the R.4 mapping (Annex R, Table 4) into `buf`, and returns
/// the number of octets written (1 to 6).
///
/// Errors for D800..DFFF (no mapping, Annex R note 3) and values above 7FFF FFFF.
///
/// ```
/// let mut buf = [0; 6];
/// let n = vutf8::legacy::encode_char(0x0400_0000, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"\xFC\x84\x80\x80\x80\x80");
/// ```
pub fn encode_char(value: u32, buf: &mut [u8; 6]) -> Result<usize, EncodeError> {
    if value > MAX_VALUE || (0xD800..=0xDFFF).contains(&value) {
        return Err(EncodeError { index: 0, value });
    }
    let (len, lead_mark) = match value {
        0..=0x7F => {
            buf[0] = value as u8;
            return Ok(1);
        }
        0x80..=0x7FF => (2, 0xC0),
        0x800..=0xFFFF => (3, 0xE0),
        0x1_0000..=0x1F_FFFF => (4, 0xF0),
        0x20_0000..=0x3FF_FFFF => (5, 0xF8),
        _ => (6, 0xFC),
    };
    // Table 4: lead = mark + x / 2**(6(len-1)); octet i = 80 + x / 2**(6(len-1-i)) % 2**6.
    buf[0] = lead_mark | (value >> (6 * (len - 1))) as u8;
    for (i, octet) in buf[1..len].iter_mut().enumerate() {
        *octet = 0x80 | ((value >> (6 * (len - 2 - i))) & 0x3F) as u8;
    }
    Ok(len)
}

#[cfg(feature = "alloc")]
mod with_alloc {
    use super::{decode_char, encode_char, Decoded, EncodeError};
    use crate::reference::error::Utf8Error;
    use alloc::vec::Vec;

    /// Decodes original UTF-8 into UCS-4 values, or returns the first error (the same one
    /// [`super::validate`] reports).
    ///
    /// ```
    /// let values = vutf8::legacy::decode(b"A\xF8\x88\x80\x80\x80").unwrap();
    /// assert_eq!(values, [0x41, 0x20_0000]);
    /// ```
    pub fn decode(input: &[u8]) -> Result<Vec<u32>, Utf8Error> {
        let mut out = Vec::with_capacity(input.len());
        let mut valid_from = 0;
        let mut errors = crate::damaged::every_error::errors(input);
        while let Some(e) = errors.next() {
            let at = e.valid_up_to();
            // SAFETY: between the end of the last legacy form (or the start) and the next
            // strict error, `errors` found only valid UTF-8.
            push_chars(&mut out, unsafe { str_unchecked(&input[valid_from..at]) });
            match decode_char(&input[at..]) {
                Decoded::Value(v, len) => {
                    out.push(v);
                    valid_from = at + len;
                    errors.resume_at(valid_from);
                }
                Decoded::Error(le) => return Err(le.shifted(at)),
            }
        }
        // SAFETY: `errors` found no error after `valid_from`.
        push_chars(&mut out, unsafe { str_unchecked(&input[valid_from..]) });
        Ok(out)
    }

    /// Appends the characters of strict UTF-8 text as UCS-4 values.
    #[inline]
    fn push_chars(out: &mut Vec<u32>, text: &str) {
        out.extend(text.chars().map(u32::from));
    }

    /// `bytes` as a `&str`.
    ///
    /// # Safety
    ///
    /// `bytes` must be valid UTF-8.
    #[inline]
    unsafe fn str_unchecked(bytes: &[u8]) -> &str {
        // SAFETY: the caller guarantees that `bytes` is valid UTF-8.
        unsafe { core::str::from_utf8_unchecked(bytes) }
    }

    /// Encodes UCS-4 values as original UTF-8 (Annex R, Table 4).
    ///
    /// Errors for the first value in D800..DFFF or above 7FFF FFFF.
    ///
    /// ```
    /// assert_eq!(vutf8::legacy::encode(&[0x7FFF_FFFF]).unwrap(), b"\xFD\xBF\xBF\xBF\xBF\xBF");
    /// assert_eq!(vutf8::legacy::encode(&[0x41, 0xD800]).unwrap_err().index(), 1);
    /// ```
    pub fn encode(values: &[u32]) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(values.len());
        let mut buf = [0; 6];
        for (index, &value) in values.iter().enumerate() {
            let n = encode_char(value, &mut buf).map_err(|e| EncodeError { index, ..e })?;
            out.extend_from_slice(&buf[..n]);
        }
        Ok(out)
    }
}

#[cfg(feature = "alloc")]
pub use with_alloc::{decode, encode};
