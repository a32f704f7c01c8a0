//! The reference decoder, written once, generic over a table of well-formed sequences
//! ([`Strict`]: RFC 3629; [`Legacy`]: original UTF-8, 1 to 6 octets). It reads the grammar
//! of [`crate::grammar`] one sequence at a time and, when the bytes break the table, says
//! where, how long the bad part is and why ([`Fault`], then [`error`] for the details).
//!
//! Its public faces are [`crate::scalar`] (strict) and [`crate::legacy`] (original UTF-8);
//! the lossy decoder and the error iterators use [`decode_fault`] directly.
//!
//! # Where decoding resumes after an error
//!
//! This is the one rule every part of the crate follows after an ill-formed sequence
//! ([`crate::errors()`], [`crate::scalar::decode`], `from_utf8_lossy` and `Repairer`, the
//! legacy and NET-UTF validators, [`crate::grammar::floor_boundary`]'s promise): decoding
//! resumes right after the error's *maximal subpart* (Unicode chapter 3, "U+FFFD
//! Substitution of Maximal Subparts"): the longest prefix of a well-formed sequence that
//! starts at the error, at least one byte. That length is [`Utf8Error::error_len`]; when the
//! input ends inside a sequence that more bytes could complete (`error_len() == None`),
//! there is nothing after it to resume at. `String::from_utf8_lossy` follows the same rule,
//! so one U+FFFD per maximal subpart gives exactly its output.

use crate::reference::error::{ErrorKind, Utf8Error};
use crate::reference::grammar::{
    announced_len, is_continuation, legacy_announced_len, legacy_rule, strict_rule,
};

/// A table of well-formed sequences, for the generic scalar decoder [`decode`].
pub(crate) trait Table {
    /// The sequence length and second-byte range for a byte that starts a sequence.
    fn rule(lead: u8) -> Option<(usize, u8, u8)>;
    /// The length the lead byte's bits announce, for [`Utf8Error::sequence_len`].
    fn announced_len(lead: u8) -> usize;
}

/// Strict UTF-8: RFC 3629.
pub(crate) struct Strict;

/// Original UTF-8: 1 to 6 octets, values up to 7FFF FFFF.
pub(crate) struct Legacy;

impl Table for Strict {
    #[inline(always)]
    fn rule(lead: u8) -> Option<(usize, u8, u8)> {
        strict_rule(lead)
    }
    #[inline(always)]
    fn announced_len(lead: u8) -> usize {
        announced_len(lead)
    }
}

impl Table for Legacy {
    #[inline(always)]
    fn rule(lead: u8) -> Option<(usize, u8, u8)> {
        legacy_rule(lead)
    }
    #[inline(always)]
    fn announced_len(lead: u8) -> usize {
        legacy_announced_len(lead)
    }
}

/// The value encoded by `bytes[..n]` read as an n-byte sequence with the usual bit layout
/// (1 to 6 bytes), if all `n` bytes are present and the trailing ones are continuation
/// bytes.
pub(crate) fn raw_value(bytes: &[u8], n: usize) -> Option<u32> {
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

/// What is wrong at the start of some bytes, before the details (position, announced
/// length, code point) are attached: enough to skip the maximal subpart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) kind: ErrorKind,
    /// The length of the maximal subpart; 0 when the input ends inside the sequence.
    pub(crate) len: u8,
}

impl Fault {
    #[inline(always)]
    const fn new(kind: ErrorKind, len: usize) -> Self {
        Fault {
            kind,
            len: len as u8,
        }
    }

    /// [`Utf8Error::error_len`] of this fault.
    #[inline(always)]
    pub(crate) const fn error_len(self) -> Option<usize> {
        match self.len {
            0 => None,
            n => Some(n as usize),
        }
    }
}

/// The full error for `fault`, found at the start of `bytes` (which is not empty) by
/// table `T`, at relative offset 0.
#[inline]
pub(crate) fn error<T: Table>(bytes: &[u8], fault: Fault) -> Utf8Error {
    let sequence_len = T::announced_len(bytes[0]);
    let code_point = match fault.kind {
        ErrorKind::Overlong | ErrorKind::Surrogate | ErrorKind::TooLarge => {
            raw_value(bytes, sequence_len).unwrap_or(Utf8Error::NO_CODE_POINT)
        }
        _ => Utf8Error::NO_CODE_POINT,
    };
    Utf8Error {
        valid_up_to: 0,
        error_len: fault.len,
        kind: fault.kind,
        code_point,
        sequence_len: sequence_len as u8,
    }
}

/// [`decode_fault`] with the error's details attached.
#[inline]
pub(crate) fn decode<T: Table>(bytes: &[u8]) -> Result<(u32, usize), Utf8Error> {
    decode_fault::<T, true>(bytes).map_err(|f| error::<T>(bytes, f))
}

/// Decodes the sequence at the start of `bytes` (not empty) by table `T`: its value and
/// length, or what is wrong: the maximal subpart and the reason. With `KINDS == false` the
/// reason is left out (the kind is a placeholder): for callers that need only where the
/// error is and how long, such as lossy decoding.
///
/// The kinds, for both tables: a byte that starts nothing is an unexpected continuation
/// byte, an overlong lead (`C0`, `C1` before a continuation byte), too large (`F5..F7`
/// before a continuation byte; only strict), or else an invalid byte. A second byte out of
/// range is "too short" if it is no continuation byte, otherwise a surrogate after `ED`,
/// too large after `F4` (only strict), and overlong after the others (`E0`, `F0`, and for
/// legacy `F8`, `FC`).
#[inline(always)]
pub(crate) fn decode_fault<T: Table, const KINDS: bool>(
    bytes: &[u8],
) -> Result<(u32, usize), Fault> {
    let lead = bytes[0];
    let Some((len, second_lo, second_hi)) = T::rule(lead) else {
        if !KINDS {
            return Err(Fault::new(ErrorKind::InvalidByte, 1));
        }
        // Not a lead byte at all. Say why, as precisely as the next byte allows.
        let next_is_cont = bytes.len() > 1 && is_continuation(bytes[1]);
        let kind = match lead {
            0x80..=0xBF => ErrorKind::UnexpectedContinuation,
            0xC0 | 0xC1 if next_is_cont => ErrorKind::Overlong,
            0xF5..=0xF7 if next_is_cont => ErrorKind::TooLarge,
            _ => ErrorKind::InvalidByte,
        };
        return Err(Fault::new(kind, 1));
    };
    if len == 1 {
        return Ok((u32::from(lead), 1));
    }
    // The second byte: its own range depends on the lead.
    let Some(&second) = bytes.get(1) else {
        return Err(Fault::new(ErrorKind::Incomplete, 0));
    };
    if !(second_lo..=second_hi).contains(&second) {
        let kind = if !KINDS || !is_continuation(second) {
            ErrorKind::TooShort
        } else {
            match lead {
                0xED => ErrorKind::Surrogate,
                0xF4 => ErrorKind::TooLarge, // strict: F4 followed by 90..BF
                _ => ErrorKind::Overlong,
            }
        };
        return Err(Fault::new(kind, 1));
    }
    // Every later byte: a plain continuation byte.
    for i in 2..len {
        match bytes.get(i) {
            None => return Err(Fault::new(ErrorKind::Incomplete, 0)),
            Some(&b) if !is_continuation(b) => return Err(Fault::new(ErrorKind::TooShort, i)),
            Some(_) => {}
        }
    }
    match raw_value(bytes, len) {
        Some(value) => Ok((value, len)),
        // Unreachable: every byte was checked above. Reported, not panicked on.
        None => Err(Fault::new(ErrorKind::TooShort, 1)),
    }
}
