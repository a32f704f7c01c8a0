//! Records given by ranges of one buffer, as Arrow lays out a column of strings: a values
//! buffer and offsets ([`offsets`]), or ranges in any order ([`RangeMap::is_valid`], for
//! Arrow's views). Re-exported by [`crate::records`], whose delimited records are the other
//! kind; `vutf8-datafusion` decides its rows here (feature `alloc`).
//!
//! # The rule
//!
//! Validating each range on its own costs a call, a set-up and a tail per range, which for
//! rows of 100 bytes is most of the work. Instead, the buffer is searched once by
//! [`crate::errors()`], which yields every ill-formed part (maximal subpart) in order; on
//! valid text that is one fast pass. Then one rule decides each range in constant time:
//!
//! > A range `s..e` of a buffer is valid UTF-8 on its own if and only if it is empty, or
//! > (1) the byte at `s` is not a continuation byte, (2) `e` is the end of the buffer, or
//! > the byte at `e` is not a continuation byte, or an ill-formed part found in the whole
//! > buffer starts at `e`, and (3) no ill-formed part found in the whole buffer overlaps
//! > `s..e`.
//!
//! Why. Given (1), a decoder run over the whole buffer is between characters at `s`: a
//! byte that is not a continuation ends any sequence before it, as an error *before* `s`
//! (a maximal subpart never takes in a byte that cannot continue it). From `s` on it
//! decodes exactly what a decoder given only `s..e` decodes, for as long as that one finds
//! complete characters.
//!
//! If the range is valid, (1) holds; no error starts inside it, and none reaches into it
//! from before `s` (it would have to take in the byte at `s`), so (3) holds; and the
//! decoder is between characters at `e`, where a continuation byte continues nothing: it
//! is an ill-formed part of its own, starting at `e`, so (2) holds. (A valid range followed
//! by one that starts with a stray continuation byte is this case.)
//!
//! Conversely, let (1) to (3) hold and suppose the range is invalid on its own. Its own
//! decoder meets an error, or ends inside a sequence that began in the range. An error that
//! does not depend on bytes past `e` is met by the whole decoder too, inside the range:
//! against (3). A sequence left open at `e` is, for the whole decoder, either ill-formed,
//! which is an error starting inside the range (against (3)), or continued by the byte at
//! `e`, a continuation byte that is then part of that sequence and starts no ill-formed
//! part (against (2)). So the range is valid.
//!
//! The rule holds for any range, so a range may split a character (Arrow does not forbid
//! it in a binary column): such a range is invalid, as it is on its own. `tests/records.rs`
//! checks the rule against `core::str::from_utf8` on every range of many buffers.

use super::record::Record;
use crate::errors::errors;
use crate::grammar::is_continuation;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

/// The ill-formed parts of one buffer, found in one search, from which the verdict of any
/// range of the buffer follows in constant time (after a binary search: see
/// [`InOrder`] for ranges in order). The rule: the source of this module, `src/records/ranges.rs`.
///
/// ```
/// use vutf8::records::RangeMap;
/// let buffer = "añ€😀".as_bytes(); // 1 + 2 + 3 + 4 bytes
/// let map = RangeMap::new(buffer);
/// assert!(map.is_valid(1..6));
/// assert!(!map.is_valid(1..5)); // cuts the €
/// assert!(!map.is_valid(2..3)); // starts inside the ñ
/// ```
#[derive(Clone, Debug)]
pub struct RangeMap<'a> {
    bytes: &'a [u8],
    /// Sorted, disjoint `[start, end)` ranges.
    errors: Vec<(usize, usize)>,
}

impl<'a> RangeMap<'a> {
    /// Searches `bytes` once for every ill-formed part.
    pub fn new(bytes: &'a [u8]) -> Self {
        let errors = errors(bytes)
            .map(|e| {
                let start = e.valid_up_to();
                (start, start + e.error_len().unwrap_or(bytes.len() - start))
            })
            .collect();
        RangeMap { bytes, errors }
    }

    /// The buffer.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The buffer as text, if it has no ill-formed part. Then a range of it is valid
    /// exactly when it is empty or both its ends are character boundaries
    /// ([`str::is_char_boundary`]): the cheapest test, for callers with many ranges.
    ///
    /// ```
    /// use vutf8::records::RangeMap;
    /// assert_eq!(RangeMap::new("añ".as_bytes()).text(), Some("añ"));
    /// assert_eq!(RangeMap::new(b"a\xFF").text(), None);
    /// ```
    pub fn text(&self) -> Option<&'a str> {
        if !self.errors.is_empty() {
            return None;
        }
        debug_assert!(core::str::from_utf8(self.bytes).is_ok());
        // SAFETY: `errors` holds every ill-formed part of `bytes` (`crate::errors::errors`
        // yields each one, to the end of the buffer), and it is empty: `bytes` is valid
        // UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(self.bytes) })
    }

    /// Whether the buffer has no error at all.
    pub fn all_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Whether `bytes[range]` is valid UTF-8 on its own, for a range anywhere in the buffer.
    ///
    /// # Panics
    /// When the range is reversed or ends past the buffer, as slicing does.
    #[inline]
    pub fn is_valid(&self, range: Range<usize>) -> bool {
        let (start, end) = self.checked(range);
        start == end || (self.ends_are_valid(start, end) && !self.overlaps(start, end))
    }

    /// A walk of the map for ranges whose starts come in order (the rows of an offset
    /// layout): one walk of the error list instead of a binary search per range.
    pub fn in_order(&self) -> InOrder<'_, 'a> {
        InOrder { map: self, next: 0 }
    }

    fn checked(&self, range: Range<usize>) -> (usize, usize) {
        assert!(
            range.start <= range.end && range.end <= self.bytes.len(),
            "range {range:?} out of a buffer of {} bytes",
            self.bytes.len()
        );
        (range.start, range.end)
    }

    /// Whether an ill-formed part starts at `at`.
    #[inline]
    fn starts_at(&self, at: usize) -> bool {
        self.errors.binary_search_by_key(&at, |&(s, _)| s).is_ok()
    }

    /// Whether an ill-formed part overlaps `start..end` (not empty).
    #[inline]
    fn overlaps(&self, start: usize, end: usize) -> bool {
        let first_ending_after = self.errors.partition_point(|&(_, e)| e <= start);
        self.errors
            .get(first_ending_after)
            .is_some_and(|&(s, _)| s < end)
    }

    /// Conditions (1) and (2) of the rule, for a range that is not empty.
    #[inline]
    fn ends_are_valid(&self, start: usize, end: usize) -> bool {
        let bytes = self.bytes;
        !is_continuation(bytes[start])
            && (end == bytes.len() || !is_continuation(bytes[end]) || self.starts_at(end))
    }
}

/// [`RangeMap::is_valid`] for ranges whose starts come in order, made by
/// [`RangeMap::in_order`].
#[derive(Clone, Debug)]
pub struct InOrder<'m, 'a> {
    map: &'m RangeMap<'a>,
    /// The first error that may end after the next range's start.
    next: usize,
}

impl InOrder<'_, '_> {
    /// Whether `bytes[range]` is valid UTF-8 on its own.
    ///
    /// # Panics
    /// When the range is reversed or ends past the buffer, or starts before the range
    /// before it.
    #[inline]
    pub fn is_valid(&mut self, range: Range<usize>) -> bool {
        let (start, end) = self.map.checked(range);
        if start == end {
            return true;
        }
        let errors = &self.map.errors;
        // Errors that end by `start` end by every later start too: skip them for good.
        while self.next < errors.len() && errors[self.next].1 <= start {
            self.next += 1;
        }
        assert!(
            self.next == 0 || errors[self.next - 1].1 <= start,
            "ranges in order of their start"
        );
        let overlaps = errors.get(self.next).is_some_and(|&(s, _)| s < end);
        !overlaps && self.map.ends_are_valid(start, end)
    }
}

/// The records of an Arrow-style column: record `i` is `values[offsets[i]..offsets[i + 1]]`
/// (so `offsets` holds one more entry than there are records; it need not start at 0). The
/// values between the first and the last offset are searched once ([`RangeMap`]), and each
/// record's verdict is its own, as if validated alone.
///
/// ```
/// let values = b"okcaf\xE9\xC3\xA9t\xC3\xA9";
/// let verdicts: Vec<_> = vutf8::records::offsets(values, &[0i32, 2, 6, 6, 11])?
///     .map(|r| (r.offset(), r.is_valid()))
///     .collect();
/// assert_eq!(verdicts, [(0, true), (2, false), (6, true), (6, true)]);
/// # Ok::<(), vutf8::records::OffsetsError>(())
/// ```
///
/// # Errors
/// [`OffsetsError`] when an offset is negative, beyond `values`, or smaller than the one
/// before it (nothing is searched then).
pub fn offsets<'a, O: Offset>(
    values: &'a [u8],
    offsets: &'a [O],
) -> Result<ByOffsets<'a, O>, OffsetsError> {
    let mut last = 0;
    for (i, o) in offsets.iter().enumerate() {
        let at = o.to_usize().ok_or(OffsetsError { index: i })?;
        if at > values.len() || (i > 0 && at < last) {
            return Err(OffsetsError { index: i });
        }
        last = at;
    }
    let first = offsets.first().map_or(0, |o| o.to_usize().unwrap_or(0));
    Ok(ByOffsets {
        map: RangeMap::new(&values[first..last]),
        first,
        offsets,
        index: 0,
        next_error: 0,
    })
}

/// An offset of [`offsets`]: Arrow's `i32` and `i64`, and `u32`, `u64`, `usize`.
pub trait Offset: Copy + sealed::Sealed {
    /// The offset as an index, if it is one (not negative, not too large).
    fn to_usize(self) -> Option<usize>;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! offset {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Offset for $t {
            #[inline]
            fn to_usize(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
        }
    )*};
}
offset!(i32, i64, u32, u64, usize);

/// Offsets that do not describe records of the values: the offset at
/// [`index`](OffsetsError::index) is negative, past the end of the values, or smaller than
/// the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetsError {
    index: usize,
}

impl OffsetsError {
    /// The position of the first offset that is wrong.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl fmt::Display for OffsetsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offset {} is negative, past the end of the values, or smaller than the one before it",
            self.index
        )
    }
}

impl core::error::Error for OffsetsError {}

/// The iterator of [`offsets`]: one [`Record`] per pair of neighbouring offsets.
#[derive(Clone, Debug)]
pub struct ByOffsets<'a, O> {
    /// The values from the first offset to the last, searched once.
    map: RangeMap<'a>,
    /// The first offset (where `map`'s buffer starts in the values).
    first: usize,
    offsets: &'a [O],
    /// The next record.
    index: usize,
    /// The [`InOrder`] walk's position, kept here so the iterator owns its map.
    next_error: usize,
}

impl<O: Offset> ByOffsets<'_, O> {
    /// The verdicts of the records not yet yielded, a bit each: bit `i % 64` of
    /// `words[i / 64]` for the `i`-th of them, set when it is valid (the words they cover
    /// are overwritten, later words left alone); returns how many are valid. The same
    /// verdicts as iterating, for columns of many short rows: when the values have no error
    /// at all, a record is valid exactly when it is empty or both its ends are character
    /// boundaries ([`RangeMap::text`]), and a loop over the offsets decides it with two
    /// byte tests and no branch on them.
    ///
    /// ```
    /// let values = "añ€".as_bytes(); // 1 + 2 + 3 bytes
    /// let offsets = [0u32, 1, 3, 3, 4, 6];
    /// let mut words = [0u64; 1];
    /// let valid = vutf8::records::offsets(values, &offsets)?.verdict_bits(&mut words);
    /// assert_eq!((valid, words[0]), (3, 0b00111)); // "a", "ñ", "" are; the cut € is not
    /// # Ok::<(), vutf8::records::OffsetsError>(())
    /// ```
    ///
    /// # Panics
    /// When `words` has fewer bits than there are records left.
    pub fn verdict_bits(mut self, words: &mut [u64]) -> usize {
        let n = self.len();
        assert!(words.len() * 64 >= n, "a bit for every record");
        let Some(text) = self.map.text() else {
            // Errors in the values: each record by the general rule.
            let mut valid = 0;
            for (i, record) in self.by_ref().enumerate() {
                if i % 64 == 0 {
                    words[i / 64] = 0;
                }
                words[i / 64] |= u64::from(record.is_valid()) << (i % 64);
                valid += usize::from(record.is_valid());
            }
            return valid;
        };
        let bytes = text.as_bytes();
        let first = self.first;
        // Offsets were checked by `offsets`: in order and inside the values. An offset is a
        // boundary when it ends the values or its byte starts a character.
        let at = |o: O| o.to_usize().unwrap_or(0) - first;
        let boundary = |at: usize| bytes.get(at).is_none_or(|&b| !is_continuation(b));
        let offsets = &self.offsets[self.index..];
        let mut start = at(offsets[0]);
        let mut start_ok = boundary(start);
        let (mut valid, mut word) = (0, 0u64);
        for (i, &o) in offsets[1..].iter().enumerate() {
            let end = at(o);
            let end_ok = boundary(end);
            word |= u64::from(start == end || (start_ok & end_ok)) << (i % 64);
            if i % 64 == 63 {
                words[i / 64] = word;
                valid += word.count_ones() as usize;
                word = 0;
            }
            (start, start_ok) = (end, end_ok);
        }
        if !n.is_multiple_of(64) {
            words[n / 64] = word;
            valid += word.count_ones() as usize;
        }
        valid
    }
}

impl<'a, O: Offset> Iterator for ByOffsets<'a, O> {
    type Item = Record<'a>;

    #[inline]
    fn next(&mut self) -> Option<Record<'a>> {
        let pair = self.offsets.get(self.index..self.index + 2)?;
        self.index += 1;
        // Checked by `offsets`: in order and inside the values.
        let start = pair[0].to_usize().unwrap_or(0) - self.first;
        let end = pair[1].to_usize().unwrap_or(0) - self.first;
        let mut walk = InOrder {
            map: &self.map,
            next: self.next_error,
        };
        let valid = walk.is_valid(start..end);
        self.next_error = walk.next;
        Some(Record::new(
            &self.map.bytes()[start..end],
            start + self.first,
            valid,
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.offsets.len().saturating_sub(self.index + 1);
        (n, Some(n))
    }
}

impl<O: Offset> ExactSizeIterator for ByOffsets<'_, O> {}
impl<O: Offset> core::iter::FusedIterator for ByOffsets<'_, O> {}
