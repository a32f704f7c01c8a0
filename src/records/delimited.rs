//! Records cut at a delimiter: [`lines`] and [`split`], one pass over the buffer (the
//! module documentation of `crate::records` says how, and why each verdict is the record's
//! own). Next: `crate::arch::generic::marks` for the delimiter search and the error bits of
//! a window, `crate::engine` for the validation of each window.

use super::record::Record;
use crate::arch;
use crate::arch::portable::{Positions, POSITIONS};
use crate::engine;
use crate::tiers::{BLOCK, RECORD_WINDOW};
use core::fmt;
use core::mem::MaybeUninit;

/// The records of `bytes` cut at each `\n`, with a `\r` before the `\n` left out: the
/// records of `std::io::BufRead::lines`, invalid ones included. See the
/// [module documentation](crate::records).
///
/// ```
/// let records: Vec<_> = vutf8::records::lines(b"one\r\ntwo\n\nthree\r")
///     .map(|r| r.bytes())
///     .collect();
/// assert_eq!(records, [&b"one"[..], b"two", b"", b"three\r"]);
/// ```
#[inline]
pub fn lines(bytes: &[u8]) -> Records<'_> {
    Records::new(bytes, b'\n', true)
}

/// The records of `bytes` cut at each `delimiter`, which must be ASCII (`NUL`, the record
/// separator `0x1E`, `,` ...): as [`lines`] without the `\r` rule.
///
/// ```
/// let records: Vec<_> = vutf8::records::split(b"a\x1Eb\xFF\x1E", 0x1E)?
///     .map(|r| (r.bytes(), r.is_valid()))
///     .collect();
/// assert_eq!(records, [(&b"a"[..], true), (&b"b\xFF"[..], false)]);
///
/// let err = vutf8::records::split(b"caf\xC3\xA9", 0xC3).unwrap_err();
/// assert_eq!(err.to_string(), "the delimiter 0xC3 is not ASCII: it can be a byte of a character");
/// # Ok::<(), vutf8::records::DelimiterError>(())
/// ```
///
/// # Errors
/// [`DelimiterError`] when `delimiter` is not ASCII (`0x80` and above).
#[inline]
pub fn split(bytes: &[u8], delimiter: u8) -> Result<Records<'_>, DelimiterError> {
    if delimiter.is_ascii() {
        Ok(Records::new(bytes, delimiter, false))
    } else {
        Err(DelimiterError { delimiter })
    }
}

/// A delimiter that is not ASCII, refused by [`split`]: bytes `0x80` and above are parts of
/// characters in UTF-8, so cutting there could cut a character in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelimiterError {
    delimiter: u8,
}

impl DelimiterError {
    /// The delimiter that was refused.
    pub fn delimiter(&self) -> u8 {
        self.delimiter
    }
}

impl fmt::Display for DelimiterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the delimiter {:#04X} is not ASCII: it can be a byte of a character",
            self.delimiter
        )
    }
}

impl core::error::Error for DelimiterError {}

/// The iterator of [`lines`] and [`split`]: every record of a buffer, in order, each with
/// its verdict. See the [module documentation](crate::records) for how it works.
#[derive(Clone)]
pub struct Records<'a> {
    bytes: &'a [u8],
    delimiter: u8,
    /// Whether a `\r` before the delimiter is left out ([`lines`]).
    crlf: bool,
    /// Where the next record starts; the end of the records at or past `bytes.len()`.
    next: usize,
    /// The window `bytes[base..window_end]` (windows follow each other from 0, each
    /// `RECORD_WINDOW` bytes but the last), and its last delimiter.
    base: usize,
    window_end: usize,
    last: Option<usize>,
    /// Where the bytes up to `window_end` are all ASCII from, if the current window is.
    ascii_from: Option<usize>,
    /// The positions of the window's delimiters from its start, in order: the first
    /// `found` are written (`arch::marks`), and `taken` of them have ended records. A
    /// record then costs a load from here, where walking a bit set of the delimiters would
    /// cost a branch on each word, which a predictor cannot guess on lines of varying
    /// length.
    positions: Positions,
    found: usize,
    taken: usize,
    /// The records that start before this have been validated (the checked stretch ends
    /// just after a delimiter, or at the end of the buffer).
    checked_end: usize,
    /// The verdicts of the checked stretch, when it has an error, and the error bits they
    /// read.
    errors: Option<StretchErrors>,
    flags: [u64; FLAG_WORDS],
}

/// The longest stretch whose error bits are found in one pass (`StretchErrors::new`): the
/// end of a window's last record, from the window before, and the window.
const FLAG_BYTES: usize = 2 * RECORD_WINDOW;

/// The words of the error bits of a stretch ([`FLAG_BYTES`] at most).
const FLAG_WORDS: usize = FLAG_BYTES / BLOCK + 2;

/// The verdicts of the records of a checked stretch that failed validation: the first
/// record's on its own (it may have started in an earlier window), the others' from the
/// error bits of the rest of the stretch (`arch::flags`, in [`Records`]' `flags`): a
/// record `s..d` (`d` its delimiter) with no bit in `s..=d` is valid; one with a bit in
/// `s + 2..=d` is not; one with bits only at `s` or `s + 1`, which a lead byte just before
/// the delimiter before it can set, is validated on its own. So a window with an error
/// costs one more vector pass over it, not a validation per record.
#[derive(Clone, Copy)]
struct StretchErrors {
    /// The stretch's first record: where it starts, and whether it is valid.
    first: usize,
    first_valid: bool,
    /// The rest of the stretch, `region..end` in the buffer, whose error bits are in
    /// `Records::flags` (bit `i % 64` of word `i / 64` for the byte at `region + i`).
    region: usize,
    end: usize,
    /// The first bit at or after the start of the last record asked about, as a buffer
    /// position; `usize::MAX` when there is none.
    next_bit: usize,
}

impl StretchErrors {
    /// The verdicts of the stretch `start..end` of `bytes`, whose first record ends at `at`
    /// (a delimiter, or the end of the buffer, which is then `end`), with the error bits
    /// written to `flags`; `None` when every record is valid. The stretch's error bits are
    /// found from `start` when it is short enough for `flags` and its first record ends at a
    /// delimiter; otherwise its first record (which may be as long as the buffer, or end at
    /// the end of the buffer) is validated on its own, and the error bits are found from the
    /// record after it (at most a window).
    fn new(
        bytes: &[u8],
        start: usize,
        at: usize,
        end: usize,
        flags: &mut [u64; FLAG_WORDS],
    ) -> Option<Self> {
        let whole = at < end && end - start <= FLAG_BYTES;
        let (first, first_valid, region) = if whole {
            (usize::MAX, true, start)
        } else {
            (
                start,
                engine::is_valid(&bytes[start..at]),
                (at + 1).min(end),
            )
        };
        let mut errors = StretchErrors {
            first,
            first_valid,
            region,
            end,
            next_bit: usize::MAX,
        };
        if region < end && arch::flags(&bytes[region..end], flags) {
            errors.next_bit = errors.bit_from(flags, region);
        }
        (!first_valid || errors.next_bit != usize::MAX).then_some(errors)
    }

    /// The first bit at or after `from` (in the region), as a buffer position.
    fn bit_from(&self, flags: &[u64; FLAG_WORDS], from: usize) -> usize {
        let at = from - self.region;
        let words = (self.end - self.region).div_ceil(BLOCK);
        let mut w = at / BLOCK;
        let mut bits = flags[w] & (u64::MAX << (at % BLOCK));
        loop {
            if bits != 0 {
                return self.region + w * BLOCK + bits.trailing_zeros() as usize;
            }
            w += 1;
            if w >= words {
                return usize::MAX;
            }
            bits = flags[w];
        }
    }

    /// Whether the record `bytes[start..record_end]` of the stretch, ended by the delimiter
    /// at `at`, is valid; records are asked about in order.
    #[inline]
    fn is_valid(
        &mut self,
        flags: &[u64; FLAG_WORDS],
        bytes: &[u8],
        start: usize,
        record_end: usize,
        at: usize,
    ) -> bool {
        if start == self.first {
            return self.first_valid;
        }
        if self.next_bit < start {
            self.next_bit = self.bit_from(flags, start);
        }
        if self.next_bit > at {
            true
        } else if self.next_bit >= start + 2 {
            false
        } else {
            engine::is_valid(&bytes[start..record_end])
        }
    }
}

impl<'a> Records<'a> {
    /// The records of `bytes` at `delimiter` (ASCII), with the `\r` rule when `crlf`.
    pub(super) fn new(bytes: &'a [u8], delimiter: u8, crlf: bool) -> Self {
        Records {
            bytes,
            delimiter,
            crlf,
            next: 0,
            base: 0,
            window_end: 0,
            last: None,
            ascii_from: None,
            positions: [MaybeUninit::uninit(); POSITIONS],
            found: 0,
            taken: 0,
            checked_end: 0,
            errors: None,
            flags: [0; FLAG_WORDS],
        }
    }

    /// The bytes not yet yielded as records.
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.next.min(self.bytes.len())..]
    }

    /// Finds the delimiters of the window after the current one.
    fn fill(&mut self) {
        self.base = self.window_end;
        self.window_end = self.bytes.len().min(self.base + RECORD_WINDOW);
        let window = &self.bytes[self.base..self.window_end];
        let (found, ascii) = arch::marks(window, self.delimiter, &mut self.positions);
        self.ascii_from = match (ascii, self.ascii_from) {
            // Still ASCII since where it was.
            (true, Some(from)) => Some(from),
            (true, None) => Some(self.base),
            (false, _) => None,
        };
        self.found = found;
        self.taken = 0;
        self.last = found.checked_sub(1).map(|i| self.delimiter_at(i));
    }

    /// The delimiter `i` of the window, as a buffer position.
    #[inline(always)]
    fn delimiter_at(&self, i: usize) -> usize {
        debug_assert!(i < self.found);
        // SAFETY: `arch::marks` wrote the first `found` positions of this window.
        self.base + usize::from(unsafe { self.positions[i].assume_init() })
    }

    /// The next delimiter, or the end of the buffer: the end of the next record.
    #[inline]
    fn find(&mut self) -> usize {
        loop {
            if self.taken < self.found {
                let at = self.delimiter_at(self.taken);
                self.taken += 1;
                return at;
            }
            if self.window_end < self.bytes.len() {
                self.fill();
            } else {
                return self.bytes.len();
            }
        }
    }

    /// Validates the stretch from `start` (a record's start) to just after the last
    /// delimiter of the marked window (at or after `at`, the record's end), or to the end
    /// of the buffer when the record is the last; when it is invalid, prepares the
    /// verdicts of its records ([`StretchErrors`]).
    #[cold]
    fn check(&mut self, start: usize, at: usize) {
        let len = self.bytes.len();
        let end = if at >= len {
            len
        } else {
            self.last.unwrap_or(at).max(at) + 1
        };
        self.checked_end = end;
        // ASCII, as the delimiter search saw, or valid: every record is valid. A stretch
        // right after one with an error skips the validation (a damaged log is damaged all
        // along): the search for the error bits, in one pass, finds whether it is valid too,
        // at a little more than a validation's cost.
        let after_error = self.errors.is_some();
        self.errors = if self.ascii_from.is_some_and(|from| from <= start)
            || (!after_error && engine::is_valid(&self.bytes[start..end]))
        {
            None
        } else {
            StretchErrors::new(self.bytes, start, at.min(len), end, &mut self.flags)
        };
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    #[inline]
    fn next(&mut self) -> Option<Record<'a>> {
        let start = self.next;
        let len = self.bytes.len();
        if start >= len {
            return None;
        }
        let at = self.find();
        self.next = at + 1;
        let mut end = at;
        if self.crlf && at < len && end > start && self.bytes[end - 1] == b'\r' {
            end -= 1;
        }
        if at >= self.checked_end {
            self.check(start, at);
        }
        let valid = match &mut self.errors {
            None => true,
            Some(errors) => errors.is_valid(&self.flags, self.bytes, start, end, at),
        };
        Some(Record::new(&self.bytes[start..end], start, valid))
    }
}

impl core::iter::FusedIterator for Records<'_> {}

impl fmt::Debug for Records<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Records")
            .field("delimiter", &self.delimiter)
            .field("next", &self.next)
            .field("len", &self.bytes.len())
            .finish_non_exhaustive()
    }
}
