//! [`Record`]: one record of a buffer, with its verdict, whichever way the buffer was cut
//! (at delimiters: `super::delimited`; by offsets: `super::ranges`).

use crate::engine;
use crate::reference::error::Utf8Error;

/// One record of a buffer: its bytes (for `lines`, without the delimiter and without a `\r`
/// before the `\n`), where it starts, and whether it is valid UTF-8 on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    bytes: &'a [u8],
    offset: usize,
    valid: bool,
}

impl<'a> Record<'a> {
    /// A record of `bytes` at `offset`, whose verdict `valid` the caller has established:
    /// `to_str` trusts it.
    #[inline]
    pub(crate) fn new(bytes: &'a [u8], offset: usize, valid: bool) -> Self {
        Record {
            bytes,
            offset,
            valid,
        }
    }

    /// The record's bytes.
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Where the record starts in the buffer, in bytes.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the record is valid UTF-8 on its own. Costs nothing: it was decided when the
    /// record was found.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The record as text, or its first error: exactly what [`crate::from_utf8`] (and
    /// `core::str::from_utf8`) says for the record alone, positions counted from the
    /// record's start. Free when the record is valid.
    ///
    /// # Errors
    /// The record's first error, when it is not valid UTF-8.
    #[inline]
    pub fn to_str(&self) -> Result<&'a str, Utf8Error> {
        if self.valid {
            // SAFETY: `valid` is only true for records whose bytes were found valid, by the
            // rules of `super::delimited` (no error of their window inside them) and
            // `super::ranges` (the rule in its module docs); `new`'s callers promise it.
            Ok(unsafe { core::str::from_utf8_unchecked(self.bytes) })
        } else {
            engine::from_utf8(self.bytes)
        }
    }
}
