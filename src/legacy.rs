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
//! So [`validate`] runs the crate's strict vector validator, and only where it stops does
//! the scalar legacy decoder ([`decode_char`]) look at one character: if it is a legacy
//! form (a 4-octet value above U+10FFFF, or a 5- or 6-octet form) it is skipped, otherwise
//! its error is the answer. After a legacy form the next 64 bytes are checked by the
//! scalar decoder, so that text dense with legacy forms does not restart the vector code
//! for every character; then the vector code takes over again.
//!
//! # Errors
//!
//! Errors have the shape of strict ones ([`Utf8Error`]): `valid_up_to` is the length of the
//! longest valid prefix, `error_len` is `None` when the input ends inside a sequence that
//! more bytes could complete, otherwise the length of the *maximal subpart* under the table
//! above (the longest prefix of a well-formed legacy sequence, at least 1; up to 5 here).
//! The kinds are those of strict UTF-8: [`ErrorKind::Overlong`] for non-shortest forms,
//! [`ErrorKind::Surrogate`], [`ErrorKind::InvalidByte`] for FE, FF (and C0, C1 not
//! followed by a continuation octet), [`ErrorKind::UnexpectedContinuation`],
//! [`ErrorKind::TooShort`], [`ErrorKind::Incomplete`]. [`ErrorKind::TooLarge`] never
//! occurs: six octets cannot hold more than 7FFF FFFF.
//!
//! The values FFFE and FFFF (Annex R note 3: "also do not occur") are accepted, as strict
//! UTF-8 accepts noncharacters; see `docs/PROFILES.md`.

use crate::error::{ErrorKind, Utf8Error};

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

/// Sequence length and the range of the second octet, for each first octet; `None` for
/// octets that start nothing (`80..BF`, `C0`, `C1`, `FE`, `FF`).
#[inline]
const fn lead_info(lead: u8) -> Option<(usize, u8, u8)> {
    match lead {
        0x00..=0x7F => Some((1, 0, 0)),
        0xC2..=0xDF => Some((2, 0x80, 0xBF)),
        0xE0 => Some((3, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE..=0xEF => Some((3, 0x80, 0xBF)),
        0xED => Some((3, 0x80, 0x9F)),
        0xF0 => Some((4, 0x90, 0xBF)),
        0xF1..=0xF7 => Some((4, 0x80, 0xBF)),
        0xF8 => Some((5, 0x88, 0xBF)),
        0xF9..=0xFB => Some((5, 0x80, 0xBF)),
        0xFC => Some((6, 0x84, 0xBF)),
        0xFD => Some((6, 0x80, 0xBF)),
        _ => None,
    }
}

#[inline]
const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The length the first octet announces by its leading one bits (R.2); 1 for continuation
/// octets, FE and FF.
#[inline]
const fn announced_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => 1,
    }
}

/// The value of `bytes[..n]` by the R.5 formulas, if all `n` octets are present and the
/// later ones are continuation octets.
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

fn error(bytes: &[u8], kind: ErrorKind, error_len: usize) -> Decoded {
    let sequence_len = announced_len(bytes[0]);
    let code_point = match kind {
        ErrorKind::Overlong | ErrorKind::Surrogate => {
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

/// Decodes the legacy UTF-8 sequence at the start of `bytes`.
///
/// On error, the returned [`Utf8Error`] has `valid_up_to() == 0`. An empty `bytes` is
/// reported as an [`ErrorKind::Incomplete`] error.
pub fn decode_char(bytes: &[u8]) -> Decoded {
    let Some(&lead) = bytes.first() else {
        return Decoded::Error(Utf8Error {
            valid_up_to: 0,
            error_len: 0,
            kind: ErrorKind::Incomplete,
            code_point: Utf8Error::NO_CODE_POINT,
            sequence_len: 1,
        });
    };
    let Some((len, second_lo, second_hi)) = lead_info(lead) else {
        let next_is_cont = bytes.len() > 1 && is_continuation(bytes[1]);
        let kind = match lead {
            0x80..=0xBF => ErrorKind::UnexpectedContinuation,
            0xC0 | 0xC1 if next_is_cont => ErrorKind::Overlong,
            _ => ErrorKind::InvalidByte,
        };
        return error(bytes, kind, 1);
    };
    if len == 1 {
        return Decoded::Value(u32::from(lead), 1);
    }
    let Some(&second) = bytes.get(1) else {
        return error(bytes, ErrorKind::Incomplete, 0);
    };
    if !(second_lo..=second_hi).contains(&second) {
        let kind = if !is_continuation(second) {
            ErrorKind::TooShort
        } else if lead == 0xED {
            ErrorKind::Surrogate
        } else {
            ErrorKind::Overlong // E0, F0, F8, FC with a too-small second octet
        };
        return error(bytes, kind, 1);
    }
    for i in 2..len {
        match bytes.get(i) {
            None => return error(bytes, ErrorKind::Incomplete, 0),
            Some(&b) if !is_continuation(b) => return error(bytes, ErrorKind::TooShort, i),
            Some(_) => {}
        }
    }
    match raw_value(bytes, len) {
        Some(value) => Decoded::Value(value, len),
        // Unreachable: every octet was checked above. Reported, not panicked on.
        None => error(bytes, ErrorKind::TooShort, 1),
    }
}

/// The plain scalar reference: decodes sequence after sequence with [`decode_char`] and
/// returns the first error. [`validate`] must agree with it on every input.
pub fn validate_scalar(bytes: &[u8]) -> Result<(), Utf8Error> {
    scalar_from(bytes, 0, bytes.len()).map(|_| ())
}

/// Scalar legacy validation of `bytes[pos..]`, stopping at the first sequence that starts
/// at or after `stop`; returns where it stopped (a sequence boundary). Error offsets are
/// relative to the whole of `bytes`.
fn scalar_from(bytes: &[u8], mut pos: usize, stop: usize) -> Result<usize, Utf8Error> {
    while pos < bytes.len() && pos < stop {
        if bytes[pos] < 0x80 {
            pos += 1;
            continue;
        }
        match decode_char(&bytes[pos..]) {
            Decoded::Value(_, len) => pos += len,
            Decoded::Error(e) => return Err(e.shifted(pos)),
        }
    }
    Ok(pos)
}

/// After a legacy-only form, this many bytes are checked by the scalar decoder before the
/// vector validator takes over again.
const SCALAR_STRETCH: usize = 64;

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
    let mut pos = 0;
    loop {
        let rest = &input[pos..];
        let Err(e) = crate::validate(rest) else {
            return Ok(());
        };
        let at = pos + e.valid_up_to;
        match decode_char(&input[at..]) {
            Decoded::Value(_, len) => {
                pos = scalar_from(input, at + len, at + len + SCALAR_STRETCH)?;
            }
            Decoded::Error(le) => return Err(le.shifted(at)),
        }
    }
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
    use super::{decode_char, encode_char, Decoded, EncodeError, SCALAR_STRETCH};
    use crate::error::Utf8Error;
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
        let mut pos = 0;
        while pos < input.len() {
            // Strict runs: validated by the vector code, decoded by `str::chars`.
            let rest = &input[pos..];
            let (valid, err) = match crate::validate(rest) {
                Ok(()) => (rest.len(), None),
                Err(e) => (e.valid_up_to(), Some(e)),
            };
            // SAFETY: `crate::validate` found `rest[..valid]` to be valid UTF-8.
            let text = unsafe { core::str::from_utf8_unchecked(&rest[..valid]) };
            out.extend(text.chars().map(u32::from));
            pos += valid;
            if err.is_none() {
                break;
            }
            // Legacy forms, one at a time, for a short stretch.
            let stop = pos + 1 + SCALAR_STRETCH;
            while pos < input.len() && pos < stop {
                match decode_char(&input[pos..]) {
                    Decoded::Value(v, len) => {
                        out.push(v);
                        pos += len;
                    }
                    Decoded::Error(e) => return Err(e.shifted(pos)),
                }
            }
        }
        Ok(out)
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
