//! Records cut at a delimiter: [`lines`] and [`split`], one pass over the buffer (the
//! module documentation of `crate::records` says how, and why each verdict is the record's
//! own). Next: `crate::arch::generic::marks` for the delimiter search, `crate::engine` for
//! the validation of each window.

use super::record::Record;
use crate::arch;
use crate::engine;
use crate::tiers::{BLOCK, RECORD_WINDOW};
use core::fmt;

/// The words of one window's marks.
const WORDS: usize = RECORD_WINDOW / BLOCK;

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
    /// `RECORD_WINDOW` bytes but the last), its delimiters a bit per byte in `marks`, and
    /// its last delimiter.
    base: usize,
    window_end: usize,
    marks: [u64; WORDS],
    last: Option<usize>,
    /// Where the bytes up to `window_end` are all ASCII from, if the current window is.
    ascii_from: Option<usize>,
    /// The word of `marks` being read, the number of words of the window, and the bits of
    /// the current word not yet read.
    word: usize,
    words: usize,
    bits: u64,
    /// The records that start before this have been validated (the checked stretch ends
    /// just after a delimiter, or at the end of the buffer).
    checked_end: usize,
    /// The errors of the checked stretch, when it has some.
    errors: Option<StretchErrors<'a>>,
}

/// The records with errors of a checked stretch, walked in step with its records: only
/// *which* records hold an error matters, so after the first error of a record the search
/// goes on at the next record (one call of the fast validator per invalid record, no error
/// search inside a record that is invalid already).
#[derive(Clone)]
struct StretchErrors<'a> {
    /// The stretch, where it starts in the buffer, and the delimiter.
    stretch: &'a [u8],
    origin: usize,
    delimiter: u8,
    /// The position (in the buffer) of the first error of the first record with an error
    /// that is not behind the current record; `None` when there are no more.
    current: Option<usize>,
}

impl<'a> StretchErrors<'a> {
    fn new(stretch: &'a [u8], origin: usize, delimiter: u8) -> Self {
        let mut errors = StretchErrors {
            stretch,
            origin,
            delimiter,
            current: None,
        };
        errors.current = errors.first_from(0);
        errors
    }

    /// The first error at or after `from` (a record's start in the stretch), as a buffer
    /// position.
    fn first_from(&self, from: usize) -> Option<usize> {
        let rest = self.stretch.get(from..)?;
        engine::validate(rest)
            .err()
            .map(|e| self.origin + from + e.valid_up_to())
    }

    /// Whether an error lies inside `start..end`, for records in order.
    fn any_inside(&mut self, start: usize, end: usize) -> bool {
        while let Some(at) = self.current {
            if at >= start {
                break;
            }
            // An error behind this record: go on after the record that holds it.
            let in_stretch = at - self.origin;
            let next = self.stretch[in_stretch..]
                .iter()
                .position(|&b| b == self.delimiter)
                .map_or(self.stretch.len(), |p| in_stretch + p + 1);
            self.current = self.first_from(next);
        }
        self.current.is_some_and(|at| at < end)
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
            marks: [0; WORDS],
            last: None,
            ascii_from: None,
            word: 0,
            words: 0,
            bits: 0,
            checked_end: 0,
            errors: None,
        }
    }

    /// The bytes not yet yielded as records.
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.next.min(self.bytes.len())..]
    }

    /// Marks the delimiters of the window after the current one.
    fn fill(&mut self) {
        self.base = self.window_end;
        self.window_end = self.bytes.len().min(self.base + RECORD_WINDOW);
        let window = &self.bytes[self.base..self.window_end];
        self.ascii_from = match (
            arch::marks(window, self.delimiter, &mut self.marks),
            self.ascii_from,
        ) {
            // Still ASCII since where it was.
            (true, Some(from)) => Some(from),
            (true, None) => Some(self.base),
            (false, _) => None,
        };
        self.words = window.len().div_ceil(BLOCK);
        self.last = (0..self.words).rev().find_map(|w| {
            let bits = self.marks[w];
            (bits != 0).then(|| self.base + w * BLOCK + 63 - bits.leading_zeros() as usize)
        });
        self.word = 0;
        self.bits = self.marks[0];
    }

    /// The next delimiter, or the end of the buffer: the end of the next record.
    #[inline]
    fn find(&mut self) -> usize {
        loop {
            if self.bits != 0 {
                let at = self.base + self.word * BLOCK + self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                return at;
            }
            self.word += 1;
            if self.word < self.words {
                self.bits = self.marks[self.word];
            } else if self.window_end < self.bytes.len() {
                self.fill();
            } else {
                return self.bytes.len();
            }
        }
    }

    /// Validates the stretch from `start` (a record's start) to just after the last
    /// delimiter of the marked window (at or after `at`, the record's end), or to the end
    /// of the buffer when the record is the last.
    #[cold]
    fn check(&mut self, start: usize, at: usize) {
        let len = self.bytes.len();
        let end = if at >= len {
            len
        } else {
            self.last.unwrap_or(at).max(at) + 1
        };
        self.checked_end = end;
        if self.ascii_from.is_some_and(|from| from <= start) {
            // ASCII, as the delimiter search saw: valid.
            self.errors = None;
            return;
        }
        // The search for the first error costs what `is_valid` costs on a valid stretch,
        // and on an invalid one it is not done twice.
        let errors = StretchErrors::new(&self.bytes[start..end], start, self.delimiter);
        self.errors = errors.current.is_some().then_some(errors);
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
            Some(errors) => !errors.any_inside(start, end),
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
