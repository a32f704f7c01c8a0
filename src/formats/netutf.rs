//! NET-UTF: the "UTF" of the 1992 draft ISO DIS 10646-1.2, later published as UTF-1, as
//! described in the Internet-Draft "NET-UTF: International character set" (Ullmann, 1992).
//!
//! Every 32-bit value has exactly one encoding of 1, 2, 3 or 5 octets (draft section 4):
//!
//! | values (decimal)       | octets                              |
//! |------------------------|-------------------------------------|
//! | 0 ..= 159              | `00..9F`                            |
//! | 160 ..= 255            | `A0` followed by the value itself, `A0..FF` |
//! | 256 ..= 16405          | `A1..F5` + 1 trail octet            |
//! | 16406 ..= 233005       | `F6..FB` + 2 trail octets           |
//! | 233006 ..= 4294967295  | `FC..FF` + 4 trail octets (up to `FF 59 3C C8 C3`) |
//!
//! Trail octets carry base-190 digits: the 190 octets `21..7E` and `A0..FF` (never a C0 or
//! C1 control, space or DEL), digit `d` being `21 + d` for `d < 94` and `A0 + (d - 94)`
//! otherwise. A value `x` in a multi-octet range is first offset by the start of its range
//! (`y = x - 256`, `x - 16406` or `x - 233006`); the first octet then holds the leading
//! base-190 digit added to `A1`, `F6` or `FC`, and the trail octets the other digits, most
//! significant first.
//!
//! Unlike UTF-8, the format is not self-synchronising (`21..7E` and `A0..FF` are both
//! trail octets and characters), and a byte string is valid exactly when it decodes and
//! re-encodes to itself. The ways that can fail ([`ErrorKind`]):
//!
//! - a lead octet followed by an octet outside the trail alphabet (`00..20`, `7F..9F`), or
//!   `A0` followed by an octet below `A0` ([`ErrorKind::InvalidTrail`]);
//! - a five-octet sequence whose value would exceed 4294967295, i.e. after `FF 59 3C C8 C3`
//!   ([`ErrorKind::TooLarge`]);
//! - the input ends inside a sequence ([`ErrorKind::Incomplete`]).
//!
//! [`to_utf8`] and [`from_utf8`] transcode between NET-UTF and UTF-8: strict UTF-8 for
//! values up to U+10FFFF, the original 5- and 6-octet UTF-8 of [`crate::legacy`] beyond.

use core::fmt;

/// The number of trail-octet values (base of the trail digits).
const BASE: u32 = 190;
const BASE2: u32 = BASE * BASE;
const BASE3: u32 = BASE2 * BASE;
const BASE4: u32 = BASE3 * BASE;

/// The trail octet for a base-190 digit (`d < 190`).
#[inline]
const fn trail(d: u32) -> u8 {
    if d < 94 {
        (0x21 + d) as u8
    } else {
        (0xA0 - 94 + d) as u8
    }
}

/// The digit of a trail octet, if it is one.
#[inline]
const fn digit(octet: u8) -> Option<u32> {
    match octet {
        0x21..=0x7E => Some(octet as u32 - 0x21),
        0xA0..=0xFF => Some(octet as u32 - 0xA0 + 94),
        _ => None,
    }
}

/// Encodes one value into `buf` and returns the number of octets (1, 2, 3 or 5).
///
/// ```
/// let mut buf = [0; 5];
/// let n = vutf8::netutf::encode_char(0xF6, &mut buf); // ö: "A0 F6" (draft section 4)
/// assert_eq!(&buf[..n], b"\xA0\xF6");
/// ```
pub fn encode_char(value: u32, buf: &mut [u8; 5]) -> usize {
    match value {
        0..=0x9F => {
            buf[0] = value as u8;
            1
        }
        0xA0..=0xFF => {
            buf[0] = 0xA0;
            buf[1] = value as u8;
            2
        }
        0x100..=0x4015 => {
            let y = value - 0x100;
            buf[0] = 0xA1 + (y / BASE) as u8;
            buf[1] = trail(y % BASE);
            2
        }
        0x4016..=0x38E2D => {
            let y = value - 0x4016;
            buf[0] = 0xF6 + (y / BASE2) as u8;
            buf[1] = trail(y / BASE % BASE);
            buf[2] = trail(y % BASE);
            3
        }
        _ => {
            let y = value - 0x38E2E;
            buf[0] = 0xFC + (y / BASE4) as u8;
            buf[1] = trail(y / BASE3 % BASE);
            buf[2] = trail(y / BASE2 % BASE);
            buf[3] = trail(y / BASE % BASE);
            buf[4] = trail(y % BASE);
            5
        }
    }
}

/// Why a byte string is not valid NET-UTF.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A lead octet followed by an octet that cannot follow it: not in the trail alphabet
    /// (`21..7E`, `A0..FF`), or, after `A0`, below `A0`.
    InvalidTrail,
    /// A five-octet sequence above `FF 59 3C C8 C3`, whose value would not fit in 32 bits.
    TooLarge,
    /// The input ends inside a sequence.
    Incomplete,
}

impl ErrorKind {
    /// A short description in words.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::InvalidTrail => "octet that cannot follow this lead octet",
            ErrorKind::TooLarge => "value above 4294967295",
            ErrorKind::Incomplete => "input ends inside a sequence",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The first place where a byte string is not valid NET-UTF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    valid_up_to: usize,
    error_len: u8,
    kind: ErrorKind,
}

impl Error {
    /// The length of the longest valid prefix.
    #[inline]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `None` when the input ends inside a sequence; otherwise the number of octets of the
    /// bad sequence up to (not including) the octet that broke it, at least 1. For
    /// [`ErrorKind::TooLarge`], the whole five octets. A decoder that carries on skips
    /// this many octets.
    #[inline]
    pub const fn error_len(&self) -> Option<usize> {
        if self.error_len == 0 {
            None
        } else {
            Some(self.error_len as usize)
        }
    }

    /// Why the input is not valid.
    #[inline]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid NET-UTF: {} at byte {}",
            self.kind, self.valid_up_to
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Decodes the sequence at the start of `bytes` (which must not be empty): its value and
/// length, or an error with `valid_up_to() == 0`.
pub fn decode_char(bytes: &[u8]) -> Result<(u32, usize), Error> {
    let err = |kind, error_len: usize| Error {
        valid_up_to: 0,
        error_len: error_len as u8,
        kind,
    };
    let Some(&lead) = bytes.first() else {
        return Err(err(ErrorKind::Incomplete, 0));
    };
    let (len, base) = match lead {
        0x00..=0x9F => return Ok((u32::from(lead), 1)),
        0xA0 => {
            return match bytes.get(1) {
                None => Err(err(ErrorKind::Incomplete, 0)),
                Some(&b) if b >= 0xA0 => Ok((u32::from(b), 2)),
                Some(_) => Err(err(ErrorKind::InvalidTrail, 1)),
            }
        }
        0xA1..=0xF5 => (2, 0x100 + (u32::from(lead) - 0xA1) * BASE),
        0xF6..=0xFB => (3, 0x4016 + (u32::from(lead) - 0xF6) * BASE2),
        0xFC..=0xFF => (5, 0),
    };
    let mut acc: u64 = 0;
    for i in 1..len {
        let Some(&b) = bytes.get(i) else {
            return Err(err(ErrorKind::Incomplete, 0));
        };
        let Some(d) = digit(b) else {
            return Err(err(ErrorKind::InvalidTrail, i));
        };
        acc = acc * u64::from(BASE) + u64::from(d);
    }
    if len == 5 {
        let value = 0x38E2E + (u64::from(lead) - 0xFC) * u64::from(BASE4) + acc;
        return match u32::try_from(value) {
            Ok(v) => Ok((v, 5)),
            Err(_) => Err(err(ErrorKind::TooLarge, 5)),
        };
    }
    Ok((base + acc as u32, len))
}

/// Checks that `input` is NET-UTF, that is, that it decodes and re-encodes to itself.
///
/// ```
/// assert!(vutf8::netutf::validate(b"caf\xA0\xE9").is_ok());
/// assert_eq!(vutf8::netutf::validate(b"caf\xA0!").unwrap_err().valid_up_to(), 3);
/// ```
pub fn validate(input: &[u8]) -> Result<(), Error> {
    let mut pos = 0;
    while pos < input.len() {
        if input[pos] < 0xA0 {
            pos += 1;
            continue;
        }
        match decode_char(&input[pos..]) {
            Ok((_, len)) => pos += len,
            Err(e) => {
                return Err(Error {
                    valid_up_to: pos + e.valid_up_to,
                    ..e
                })
            }
        }
    }
    Ok(())
}

/// An error of [`to_utf8`]: the input is not NET-UTF, or it holds a value that UTF-8
/// cannot encode.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TranscodeError {
    /// The input is not valid NET-UTF.
    Invalid(Error),
    /// A valid NET-UTF sequence at `offset` whose value has no UTF-8 form: D800..DFFF, or
    /// above 7FFF FFFF.
    Unrepresentable {
        /// Where the sequence starts in the input.
        offset: usize,
        /// The value.
        value: u32,
    },
}

#[cfg(feature = "alloc")]
impl TranscodeError {
    /// The length of the prefix of the input that was transcoded.
    pub const fn valid_up_to(&self) -> usize {
        match self {
            TranscodeError::Invalid(e) => e.valid_up_to,
            TranscodeError::Unrepresentable { offset, .. } => *offset,
        }
    }
}

#[cfg(feature = "alloc")]
impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscodeError::Invalid(e) => e.fmt(f),
            TranscodeError::Unrepresentable { offset, value } => {
                write!(f, "value {value:08X} at byte {offset} has no UTF-8 form")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TranscodeError {}

#[cfg(feature = "alloc")]
mod with_alloc {
    use super::{decode_char, encode_char, Error, TranscodeError};
    use crate::reference::error::Utf8Error;
    use alloc::vec::Vec;

    /// Encodes values as NET-UTF. Every 32-bit value has an encoding.
    ///
    /// ```
    /// assert_eq!(vutf8::netutf::encode(&[0x41, 0x100, 0xFFFF_FFFF]),
    ///            b"A\xA1\x21\xFF\x59\x3C\xC8\xC3");
    /// ```
    pub fn encode(values: &[u32]) -> Vec<u8> {
        let mut out = Vec::with_capacity(values.len());
        let mut buf = [0; 5];
        for &v in values {
            let n = encode_char(v, &mut buf);
            out.extend_from_slice(&buf[..n]);
        }
        out
    }

    /// Decodes NET-UTF into values, or returns the first error.
    ///
    /// ```
    /// assert_eq!(vutf8::netutf::decode(b"\xF6\x33\xD0").unwrap(), [19968]);
    /// ```
    pub fn decode(input: &[u8]) -> Result<Vec<u32>, Error> {
        let mut out = Vec::with_capacity(input.len());
        let mut pos = 0;
        while pos < input.len() {
            match decode_char(&input[pos..]) {
                Ok((v, len)) => {
                    out.push(v);
                    pos += len;
                }
                Err(e) => {
                    return Err(Error {
                        valid_up_to: pos + e.valid_up_to,
                        ..e
                    })
                }
            }
        }
        Ok(out)
    }

    /// Transcodes NET-UTF to UTF-8: strict UTF-8 for values up to U+10FFFF, the original
    /// 4-, 5- and 6-octet forms ([`crate::legacy`]) above. D800..DFFF and values above
    /// 7FFF FFFF have no UTF-8 form and are errors.
    ///
    /// ```
    /// assert_eq!(vutf8::netutf::to_utf8(b"a\xA0\xF6").unwrap(), "aö".as_bytes());
    /// ```
    pub fn to_utf8(input: &[u8]) -> Result<Vec<u8>, TranscodeError> {
        let mut out = Vec::with_capacity(input.len() + input.len() / 2);
        let mut pos = 0;
        let mut buf = [0; 6];
        while pos < input.len() {
            let (v, len) = decode_char(&input[pos..]).map_err(|e| {
                TranscodeError::Invalid(Error {
                    valid_up_to: pos + e.valid_up_to,
                    ..e
                })
            })?;
            let n = crate::formats::legacy::encode_char(v, &mut buf).map_err(|_| {
                TranscodeError::Unrepresentable {
                    offset: pos,
                    value: v,
                }
            })?;
            out.extend_from_slice(&buf[..n]);
            pos += len;
        }
        Ok(out)
    }

    /// Transcodes UTF-8 to NET-UTF. The input may use the original 1-to-6-octet forms
    /// ([`crate::legacy`]); errors are those of [`crate::legacy::validate`].
    ///
    /// ```
    /// assert_eq!(vutf8::netutf::from_utf8("aö".as_bytes()).unwrap(), b"a\xA0\xF6");
    /// ```
    pub fn from_utf8(input: &[u8]) -> Result<Vec<u8>, Utf8Error> {
        let values = crate::formats::legacy::decode(input)?;
        Ok(encode(&values))
    }
}

#[cfg(feature = "alloc")]
pub use with_alloc::{decode, encode, from_utf8, to_utf8};
