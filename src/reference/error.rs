//! The error type: where validation stopped, how long the bad part is, and why.
//!
//! [`Utf8Error`] mirrors [`core::str::Utf8Error`] exactly: `valid_up_to` is the length of
//! the longest valid prefix, and `error_len` is `None` when the input ends inside a
//! sequence that more bytes could still complete, or otherwise the length (1 to 3) of the
//! *maximal subpart* at the error (Unicode chapter 3, "U+FFFD Substitution of Maximal
//! Subparts"). On top of that, [`ErrorKind`] says *why* the bytes are ill-formed, and
//! [`Utf8Error::code_point`] gives the value that an overlong, surrogate or too-large
//! sequence would have encoded, so messages can say "overlong encoding of U+002F".

use core::fmt;

/// Why a byte sequence is not well-formed UTF-8 (RFC 3629, Unicode Table 3-7).
///
/// Every error has exactly one kind, decided at the first byte that breaks the rules.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A continuation byte (`80..=BF`) where a character should start.
    UnexpectedContinuation,
    /// A byte that can never appear in UTF-8 here: `C0`, `C1` or `F5..=FF` not followed by
    /// a continuation byte, or `F8..=FF` anywhere.
    InvalidByte,
    /// A longer encoding of a code point that has a shorter one (`C0 AF` for `/`). Leads
    /// `C0`/`C1` followed by a continuation byte, `E0 80..9F`, `F0 80..8F`.
    Overlong,
    /// The encoding of a UTF-16 surrogate, U+D800..U+DFFF (`ED A0..BF`, as in CESU-8).
    Surrogate,
    /// The encoding of a value above U+10FFFF (`F4 90..BF`, or `F5..F7` followed by a
    /// continuation byte).
    TooLarge,
    /// A lead byte followed by too few continuation bytes before another character (or
    /// invalid byte) starts.
    TooShort,
    /// The input ends inside a sequence that more bytes could still complete.
    Incomplete,
}

impl ErrorKind {
    /// A short description in words, e.g. `"unexpected continuation byte"`.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedContinuation => "unexpected continuation byte",
            ErrorKind::InvalidByte => "byte that never appears in UTF-8",
            ErrorKind::Overlong => "overlong encoding",
            ErrorKind::Surrogate => "encoded surrogate",
            ErrorKind::TooLarge => "code point above U+10FFFF",
            ErrorKind::TooShort => "sequence cut short",
            ErrorKind::Incomplete => "input ends inside a sequence",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// Errors which can occur when checking a byte slice for UTF-8.
///
/// The values of [`valid_up_to`](Utf8Error::valid_up_to) and
/// [`error_len`](Utf8Error::error_len) are exactly those of [`core::str::Utf8Error`].
///
/// `Debug` shows what std's shows, and the kind:
/// `Utf8Error { valid_up_to: 5, error_len: Some(1), kind: Overlong, .. }`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    pub(crate) valid_up_to: usize,
    pub(crate) error_len: u8,
    pub(crate) kind: ErrorKind,
    /// The value an overlong, surrogate or too-large sequence encodes, when all of its bytes
    /// are present; `u32::MAX` means none.
    pub(crate) code_point: u32,
    /// The number of bytes the lead byte announces (1 for a stray byte).
    pub(crate) sequence_len: u8,
}

impl Utf8Error {
    pub(crate) const NO_CODE_POINT: u32 = u32::MAX;

    /// An [`ErrorKind::Incomplete`] error at offset 0 for a sequence of `sequence_len`
    /// bytes.
    #[inline]
    pub(crate) const fn incomplete(sequence_len: usize) -> Self {
        Utf8Error {
            valid_up_to: 0,
            error_len: 0,
            kind: ErrorKind::Incomplete,
            code_point: Self::NO_CODE_POINT,
            sequence_len: sequence_len as u8,
        }
    }

    /// The length of the longest prefix of the input that is valid UTF-8.
    #[inline]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `None` if the input ends inside a sequence that more bytes could complete;
    /// otherwise the length (1 to 3; up to 5 for [`crate::legacy`]) of the invalid part
    /// starting at `valid_up_to()` that a lossy decoder replaces with one U+FFFD.
    #[inline]
    pub const fn error_len(&self) -> Option<usize> {
        if self.error_len == 0 {
            None
        } else {
            Some(self.error_len as usize)
        }
    }

    /// Why the input is not valid UTF-8.
    #[inline]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// For [`ErrorKind::Overlong`], [`ErrorKind::Surrogate`] and [`ErrorKind::TooLarge`]:
    /// the value the ill-formed sequence encodes, when all of its bytes are present (`C0 AF`
    /// gives `0x2F`, `ED A0 80` gives `0xD800`). `None` otherwise.
    #[inline]
    pub const fn code_point(&self) -> Option<u32> {
        if self.code_point == Self::NO_CODE_POINT {
            None
        } else {
            Some(self.code_point)
        }
    }

    /// The number of bytes the sequence at the error announces by its first byte (2 to 4
    /// for a lead byte, up to 6 for [`crate::legacy`]; 1 for a byte that starts no
    /// sequence).
    #[inline]
    pub const fn sequence_len(&self) -> usize {
        self.sequence_len as usize
    }

    /// The same error moved `offset` bytes later, for errors found in a part of a larger
    /// input that starts at `offset`.
    #[inline]
    pub(crate) const fn shifted(mut self, offset: usize) -> Self {
        self.valid_up_to += offset;
        self
    }

    /// Whether the details of this error (its kind and code point, not its position) may
    /// depend on bytes after the `available` bytes from its start that were seen: `C0 AF`
    /// is an overlong `/` but `C0 41` an invalid byte, and `ED A0 80` a surrogate U+D800
    /// whose value needs all three bytes. A stream holds such an error back (at most 3
    /// bytes) until the next chunk or the end of the stream decides it, so that it equals
    /// the one-shot error.
    #[inline]
    pub(crate) fn needs_more(&self, available: usize) -> bool {
        available < usize::from(self.sequence_len)
            && matches!(
                self.kind,
                ErrorKind::InvalidByte
                    | ErrorKind::Overlong
                    | ErrorKind::Surrogate
                    | ErrorKind::TooLarge
            )
    }
}

impl fmt::Debug for Utf8Error {
    /// The fields of [`core::str::Utf8Error`]'s `Debug` (`valid_up_to`, `error_len` as an
    /// `Option`), then the [`kind`](Utf8Error::kind); the rest ([`code_point`], [`sequence_len`])
    /// is elided as `..`, as in `Utf8Error { valid_up_to: 5, error_len: Some(1), kind:
    /// Overlong, .. }`.
    ///
    /// [`code_point`]: Utf8Error::code_point
    /// [`sequence_len`]: Utf8Error::sequence_len
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Utf8Error")
            .field("valid_up_to", &self.valid_up_to)
            .field("error_len", &self.error_len())
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.code_point()) {
            (ErrorKind::Overlong, Some(cp)) => write!(f, "overlong encoding of U+{cp:04X}")?,
            (ErrorKind::Surrogate, Some(cp)) => write!(f, "surrogate U+{cp:04X}")?,
            (ErrorKind::TooLarge, Some(cp)) => write!(f, "code point U+{cp:04X} above U+10FFFF")?,
            (ErrorKind::TooShort | ErrorKind::Incomplete, _) => write!(
                f,
                "{} ({}-byte sequence)",
                self.kind.description(),
                self.sequence_len
            )?,
            (kind, _) => f.write_str(kind.description())?,
        }
        write!(f, " at byte {}", self.valid_up_to)
    }
}

/// A stream offset as a `usize` (for [`Utf8Error::valid_up_to`]), saturating on targets
/// where it does not fit.
#[inline]
pub(crate) fn stream_offset(offset: u64) -> usize {
    usize::try_from(offset).unwrap_or(usize::MAX)
}

/// `core::error::Error` is `std::error::Error`: available with and without `std`.
impl core::error::Error for Utf8Error {}
