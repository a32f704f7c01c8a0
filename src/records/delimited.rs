//! Records cut at a delimiter: [`lines`] and [`split`], one pass over the buffer (the
//! module documentation of `crate::records` says how, and why each verdict is the record's
//! own). Next: `crate::arch::generic::delimiters` for the scan of a window (its delimiters and
//! error bits), `crate::engine` for the few records validated on their own.

use super::record::Record;
use crate::arch;
use crate::arch::window::{ErrorBits, Positions, POSITIONS, WINDOW_WORDS};
#[cfg(all(test, feature = "std"))]
use crate::arch::ScanFn;
use crate::engine;
use crate::reference::grammar::is_continuation;
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
#[repr(C)]
pub struct Records<'a> {
    bytes: &'a [u8],
    delimiter: u8,
    /// Whether a `\r` before the delimiter is left out ([`lines`]).
    crlf: bool,
    /// Where the next record starts; the end of the records at or past `bytes.len()`.
    next: usize,
    /// The window `bytes[base..window_end]` (windows follow each other from 0, each
    /// `RECORD_WINDOW` bytes but the last).
    base: usize,
    window_end: usize,
    found: usize,
    taken: usize,
    /// The record whose delimiter is not found yet, in the windows scanned so far: where it
    /// starts, and what the error bits of its bytes said ([`Open`]).
    open: Open,
    /// The error bits of the window, in the words that have any.
    bits: ErrorBits,
    /// In the tests, the scan of a window when not `arch::scan` (the backend chosen for
    /// this CPU): each backend's in turn. (Not a field of the library: a call through it
    /// slows the scan of multilingual and damaged logs, docs/PERFORMANCE.md#records-scan.)
    #[cfg(all(test, feature = "std"))]
    scan: Option<ScanFn>,
    /// The window's delimiters, in order: the first `found` are written (`arch::scan`),
    /// each its position from the window's start, with [`INVALID`] set when the record it
    /// ends is not valid ([`Records::verdicts`]); `taken` of them have ended records. A
    /// record then costs a load from here, where walking a bit set of the delimiters would
    /// cost a branch on each word, which a predictor cannot guess on lines of varying
    /// length.
    ///
    /// (Last, in C's order: placed by the compiler next to a field set to a constant, this
    /// array, which is not initialized, was filled with that constant, 8 KiB, by every
    /// `Records::new`.)
    positions: Positions,
}

/// What the error bits of a record's bytes say so far ([`Records`]).
#[derive(Clone, Copy, Default)]
struct Open {
    /// Where the record starts.
    start: usize,
    /// A bit two bytes or more into it: it is not valid.
    invalid: bool,
    /// A bit at its first or second byte, which the record before can set: it is
    /// validated on its own unless `invalid`.
    unsure: bool,
}

/// The bit of a delimiter's position (`Records::positions`) that says the record it ends
/// is not valid. A position in a window is below it.
const INVALID: u16 = 1 << 15;
const _: () = assert!(RECORD_WINDOW + BLOCK <= INVALID as usize);

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
            positions: [MaybeUninit::uninit(); POSITIONS],
            found: 0,
            taken: 0,
            open: Open::default(),
            bits: [0; WINDOW_WORDS],
            #[cfg(all(test, feature = "std"))]
            scan: None,
        }
    }

    /// The records of `bytes` as [`Records::new`], each window scanned by `scan`, which
    /// this CPU runs (`arch::runnable_scans`).
    #[cfg(all(test, feature = "std"))]
    fn with_scan(bytes: &'a [u8], delimiter: u8, crlf: bool, scan: ScanFn) -> Self {
        Records {
            scan: Some(scan),
            ..Records::new(bytes, delimiter, crlf)
        }
    }

    /// The bytes not yet yielded as records.
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.next.min(self.bytes.len())..]
    }

    /// The byte the records are cut at.
    #[cfg(feature = "alloc")]
    pub(super) fn delimiter(&self) -> u8 {
        self.delimiter
    }

    /// Whether a `\r` before the delimiter is left out of a record ([`lines`]).
    #[cfg(feature = "alloc")]
    pub(super) fn crlf(&self) -> bool {
        self.crlf
    }

    /// Scans the window after the current one for its delimiters and errors, and marks the
    /// records they end that are not valid.
    #[inline(never)]
    fn fill(&mut self) {
        self.base = self.window_end;
        self.window_end = self.bytes.len().min(self.base + RECORD_WINDOW);
        let (found, with_bits) = self.scan_window();
        self.found = found;
        self.taken = 0;
        if with_bits != 0 {
            self.verdicts(with_bits);
        } else if found > 0 {
            // Only the open record can be invalid: its bytes before this window had bits.
            let open = self.open;
            self.close(0, open);
            self.open = Open {
                start: self.delimiter_at(found - 1) + 1,
                ..Open::default()
            };
        }
    }

    /// The scan of the window `bytes[base..]` (`arch::scan`): its delimiters' positions
    /// and its error bits.
    #[inline(always)]
    fn scan_window(&mut self) -> (usize, u64) {
        #[cfg(all(test, feature = "std"))]
        if let Some(scan) = self.scan {
            // SAFETY: `arch::runnable_scans` found that this CPU runs `scan`.
            return unsafe {
                scan(
                    self.bytes,
                    self.base,
                    self.delimiter,
                    &mut self.positions,
                    &mut self.bits,
                )
            };
        }
        arch::scan(
            self.bytes,
            self.base,
            self.delimiter,
            &mut self.positions,
            &mut self.bits,
        )
    }

    /// The entry `i` of the window's delimiters (its position from the window's start, and
    /// [`INVALID`]).
    #[inline(always)]
    fn entry(&self, i: usize) -> u16 {
        debug_assert!(i < self.found);
        // SAFETY: `arch::scan` wrote the first `found` positions of this window, and there
        // are `POSITIONS` of them.
        unsafe { self.positions.get_unchecked(i).assume_init() }
    }

    /// The delimiter `i` of the window, as a buffer position.
    #[inline(always)]
    fn delimiter_at(&self, i: usize) -> usize {
        self.base + usize::from(self.entry(i) & !INVALID)
    }

    /// Takes the window's next delimiter (`taken < found`): the end of a record, as a
    /// buffer position, and the record's verdict.
    #[inline(always)]
    fn take(&mut self) -> (usize, bool) {
        let i = self.taken;
        self.taken += 1;
        (self.delimiter_at(i), self.entry(i) & INVALID == 0)
    }

    /// The verdict of the record ended by the window's delimiter `i`, whose bits said
    /// `record`: marks it when it is not valid.
    #[inline]
    fn close(&mut self, i: usize, record: Open) {
        let invalid = record.invalid
            || (record.unsure
                && !engine::is_valid(&self.bytes[record.start..self.delimiter_at(i)]));
        if invalid {
            self.positions[i] = MaybeUninit::new(self.entry(i) | INVALID);
        }
    }

    /// Marks the records that the window's delimiters end and that are not valid, from its
    /// error bits (in the words that `with_bits` names; the rule is
    /// `arch::generic::delimiters::scan`'s), and carries what the bits
    /// after its last delimiter say into the next window's first record.
    #[cold]
    fn verdicts(&mut self, with_bits: u64) {
        // Record `i` (`found`: the one still open after the window) and what its bits said.
        let mut i = 0;
        let mut record = self.open;
        let mut end = if self.found > 0 {
            self.delimiter_at(0)
        } else {
            usize::MAX
        };
        let mut with_bits = with_bits;
        while with_bits != 0 {
            let w = with_bits.trailing_zeros() as usize;
            with_bits &= with_bits - 1;
            let mut word = self.bits[w];
            while word != 0 {
                let b = self.base + w * BLOCK + word.trailing_zeros() as usize;
                word &= word - 1;
                if b > end {
                    self.close(i, record);
                    i = self.record_of(b, i + 1);
                    record = Open {
                        start: self.delimiter_at(i - 1) + 1,
                        ..Open::default()
                    };
                    end = if i < self.found {
                        self.delimiter_at(i)
                    } else {
                        usize::MAX
                    };
                }
                if b >= record.start + 2 {
                    record.invalid = true;
                } else {
                    record.unsure = true;
                }
            }
        }
        if i < self.found {
            self.close(i, record);
            record = Open {
                start: self.delimiter_at(self.found - 1) + 1,
                ..Open::default()
            };
        }
        self.open = record;
    }

    /// The first of the window's delimiters from `i` on that is at or after `b` (a buffer
    /// position in the window), or `found` when there is none: the record whose bytes or
    /// delimiter hold `b`.
    #[inline(always)]
    fn record_of(&self, b: usize, i: usize) -> usize {
        let at = b - self.base;
        let mut i = i;
        while i < self.found && usize::from(self.entry(i) & !INVALID) < at {
            i += 1;
        }
        i
    }

    /// The end and verdict of the record at `start` when the window's delimiters are all
    /// taken: the next window's first delimiter, or the end of the buffer (the last
    /// record, which no delimiter ends).
    #[inline(never)]
    fn past_window(&mut self, start: usize) -> (usize, bool) {
        let len = self.bytes.len();
        while self.window_end < len {
            self.fill();
            if self.found > 0 {
                return self.take();
            }
        }
        // The last record: its bits, and whether the end of the buffer leaves a sequence
        // open, which no bit shows.
        let record = &self.bytes[start..];
        let valid = !self.open.invalid
            && if self.open.unsure {
                engine::is_valid(record)
            } else {
                ends_complete(record)
            };
        (len, valid)
    }
}

/// Whether `record`, whose error bits are all clear, ends with a whole character: its last
/// byte that is not a continuation byte, among its last 4, starts a valid one to the end.
/// (Without such a byte its bits were not all clear; the whole record is validated.)
fn ends_complete(record: &[u8]) -> bool {
    let tail = record.len().saturating_sub(4);
    match record[tail..].iter().rposition(|&b| !is_continuation(b)) {
        Some(i) => engine::is_valid(&record[tail + i..]),
        None => engine::is_valid(record),
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Record<'a>> {
        let start = self.next;
        let len = self.bytes.len();
        if start >= len {
            return None;
        }
        let (at, valid) = if self.taken < self.found {
            self.take()
        } else {
            self.past_window(start)
        };
        // The record's end: a delimiter at or after its start (the delimiters of the
        // windows are in order, and `start` is just after the one before), or the end of
        // the buffer.
        debug_assert!(start <= at && at <= len);
        self.next = at + 1;
        let mut end = at;
        if self.crlf && at < len && end > start {
            // SAFETY: start < end <= at < len: a byte of the buffer.
            if unsafe { *self.bytes.get_unchecked(end - 1) } == b'\r' {
                end -= 1;
            }
        }
        // SAFETY: start <= end <= len, as above.
        let bytes = unsafe { self.bytes.get_unchecked(start..end) };
        Some(Record::new(bytes, start, valid))
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

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::Records;
    use crate::tiers::{BLOCK, RECORD_WINDOW};
    use std::vec::Vec;

    /// The records of `bytes` as `BufRead::split` cuts them at `delimiter` (with the `\r`
    /// rule of `lines` when `crlf`), each with `core::str::from_utf8`'s verdict.
    fn reference(bytes: &[u8], delimiter: u8, crlf: bool) -> Vec<(usize, &[u8], bool)> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < bytes.len() {
            let at = bytes[start..]
                .iter()
                .position(|&b| b == delimiter)
                .map_or(bytes.len(), |p| start + p);
            let mut end = at;
            if crlf && at < bytes.len() && end > start && bytes[end - 1] == b'\r' {
                end -= 1;
            }
            let record = &bytes[start..end];
            out.push((start, record, core::str::from_utf8(record).is_ok()));
            start = at + 1;
        }
        out
    }

    /// The records iterator with every scan this CPU runs (each backend's and the portable
    /// one), against the reference, on buffers of up to three windows and more: valid and
    /// broken pieces, CRLF, lone CRs, NULs, empty records, records across window ends, a
    /// buffer ending inside a character, every delimiter `lines` and `split` take.
    #[test]
    fn every_scan_gives_the_records_of_the_reference() {
        use crate::arch::test_text::{next, PIECES, VALID};
        let scans = crate::arch::runnable_scans();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut buffers = 0;
        for round in 0..600u64 {
            let target = match round % 4 {
                0 => (round % 131) as usize,
                1 => RECORD_WINDOW - BLOCK + (round % 150) as usize,
                2 => 2 * RECORD_WINDOW + (round % 257) as usize,
                _ => 3 * RECORD_WINDOW + BLOCK + (round % 97) as usize,
            };
            let mut buffer = Vec::new();
            while buffer.len() < target {
                let x = next(&mut x);
                // Mostly valid text; broken pieces now and then, more often in some rounds;
                // few delimiters in others (records across windows).
                let kinds = if round % 3 == 0 || x.is_multiple_of(7) {
                    PIECES.len()
                } else {
                    VALID
                };
                let piece = PIECES[(x >> 40) as usize % kinds];
                if round % 5 == 4 && piece.contains(&b'\n') && !x.is_multiple_of(13) {
                    continue;
                }
                buffer.extend_from_slice(piece);
            }
            buffer.truncate(target);
            for (delimiter, crlf) in [(b'\n', true), (0, false), (b'\n', false)] {
                let want = reference(&buffer, delimiter, crlf);
                for &(name, scan) in &scans {
                    let got: Vec<_> = Records::with_scan(&buffer, delimiter, crlf, scan)
                        .map(|r| (r.offset(), r.bytes(), r.is_valid()))
                        .collect();
                    assert_eq!(
                        got.len(),
                        want.len(),
                        "{name}: how many records, {} bytes, delimiter {delimiter:#04X}",
                        buffer.len()
                    );
                    for (g, w) in got.iter().zip(&want) {
                        assert_eq!(
                            g,
                            w,
                            "{name}: {} bytes, delimiter {delimiter:#04X}",
                            buffer.len()
                        );
                    }
                }
            }
            buffers += 1;
        }
        assert_eq!(buffers, 600);
    }
}
