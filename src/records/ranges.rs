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
use crate::damaged::every_error::errors;
use crate::reference::grammar::is_continuation;
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
        // SAFETY: `errors` holds every ill-formed part of `bytes` (`crate::damaged::every_error::errors`
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
    let last = check_offsets(values, offsets)?;
    let first = offsets.first().map_or(0, |o| o.to_usize().unwrap_or(0));
    Ok(ByOffsets {
        map: RangeMap::new(&values[first..last]),
        first,
        offsets,
        index: 0,
        next_error: 0,
    })
}

/// The verdict of every record of `values` at `offsets` (as [`offsets`] gives them), a bit
/// each: bit `i % 64` of `words[i / 64]` set when record `i` is valid (the words the
/// records cover are overwritten, their bits past the last record cleared, later words left
/// alone); returns how many are valid. For columns of many short rows (Arrow's `is_valid`
/// kernels), faster than the iterator: the records are taken `VERDICT_GROUP` at a time,
/// their bytes validated in one call, and when those have no error a record is valid
/// exactly when it is empty or both its ends are character boundaries (byte tests while
/// the bytes are still in the nearest cache; when every offset of the group is a boundary,
/// as where rows of text were cut between characters, all of its records are valid); a
/// group with an error takes the general rule of [`RangeMap`].
///
/// ```
/// let values = "añ€".as_bytes(); // 1 + 2 + 3 bytes
/// let offsets = [0u32, 1, 3, 3, 4, 6];
/// let mut words = [0u64; 1];
/// let valid = vutf8::records::verdict_bits(values, &offsets, &mut words)?;
/// assert_eq!((valid, words[0]), (3, 0b00111)); // "a", "ñ", "" are; the cut € is not
/// # Ok::<(), vutf8::records::OffsetsError>(())
/// ```
///
/// # Errors
/// [`OffsetsError`] as [`offsets`] refuses them.
///
/// # Panics
/// When `words` has fewer bits than there are records.
pub fn verdict_bits<O: Offset>(
    values: &[u8],
    offsets: &[O],
    words: &mut [u64],
) -> Result<usize, OffsetsError> {
    check_offsets(values, offsets)?;
    let n = offsets.len().saturating_sub(1);
    assert!(words.len() * 64 >= n, "a bit for every record");
    // Checked just now: in order, inside the values.
    let at = |o: O| sealed::Sealed::to_usize_checked_before(o);
    let mut valid = 0;
    for (g, out) in words[..n.div_ceil(64)]
        .chunks_mut(VERDICT_GROUP / 64)
        .enumerate()
    {
        let rows = &offsets[g * VERDICT_GROUP..=(n.min((g + 1) * VERDICT_GROUP))];
        let base = at(rows[0]);
        let span = &values[base..at(rows[rows.len() - 1])];
        let count = rows.len() - 1;
        // One search of the group's bytes: on valid bytes it costs what `is_valid` costs,
        // and on bytes with errors it is not done again for the rule below.
        let map = RangeMap::new(span);
        if map.all_valid() {
            // No error in the group's bytes: the two ends of each record. (Each word is
            // built in a register and written once: an `|=` into memory per record would
            // wait on the store of the record before.)
            let boundary = |at: usize| span.get(at).is_none_or(|&b| !is_continuation(b));
            // Mostly every offset is a boundary (rows of text, cut between characters), and
            // then every record is valid: one test of each offset, without a branch.
            let cut = rows
                .iter()
                .fold(false, |cut, &o| cut | !boundary(at(o) - base));
            if !cut {
                for (w, word) in out.iter_mut().enumerate() {
                    *word = u64::MAX >> (64 - (count - w * 64).min(64));
                }
                valid += count;
                continue;
            }
            let mut start = 0;
            let mut start_ok = true;
            for (w, word) in out.iter_mut().enumerate() {
                let mut bits = 0;
                for (r, &o) in rows[1 + w * 64..=count.min(w * 64 + 64)].iter().enumerate() {
                    let end = at(o) - base;
                    let end_ok = boundary(end);
                    let v = (start == end) | (start_ok & end_ok);
                    bits |= u64::from(v) << r;
                    (start, start_ok) = (end, end_ok);
                }
                *word = bits;
            }
        } else {
            let mut in_order = map.in_order();
            for (w, word) in out.iter_mut().enumerate() {
                let mut bits = 0;
                for (r, pair) in rows[w * 64..=count.min(w * 64 + 64)].windows(2).enumerate() {
                    let v = in_order.is_valid(at(pair[0]) - base..at(pair[1]) - base);
                    bits |= u64::from(v) << r;
                }
                *word = bits;
            }
        }
        valid += out.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    }
    Ok(valid)
}

/// Checks that `offsets` are records of `values` (see [`offsets`]); returns the last.
fn check_offsets<O: Offset>(values: &[u8], offsets: &[O]) -> Result<usize, OffsetsError> {
    // In order, the offsets lie inside the values when the first and the last do: one
    // pass comparing neighbours, without a branch (it takes vector instructions; a column
    // has many offsets). The index of the first bad one is looked for only when there is one.
    let in_order = offsets
        .iter()
        .zip(offsets.iter().skip(1))
        .fold(true, |ok, (before, after)| ok & (before <= after));
    match (offsets.first(), offsets.last()) {
        (None, _) | (_, None) => return Ok(0),
        (Some(first), Some(last)) if in_order && first.to_usize().is_some() => {
            if let Some(last) = last.to_usize().filter(|&l| l <= values.len()) {
                return Ok(last);
            }
        }
        _ => {}
    }
    let mut last = 0;
    for (i, o) in offsets.iter().enumerate() {
        match o.to_usize() {
            Some(at) if at <= values.len() && at >= last => last = at,
            _ => return Err(OffsetsError { index: i }),
        }
    }
    Ok(last)
}

/// The records [`verdict_bits`] validates together (a multiple of 64).
const VERDICT_GROUP: usize = 256;

/// An offset of [`offsets`]: Arrow's `i32` and `i64`, and `u32`, `u64`, `usize`.
pub trait Offset: Copy + Ord + sealed::Sealed {
    /// The offset as an index, if it is one (not negative, not too large).
    fn to_usize(self) -> Option<usize>;
}

mod sealed {
    /// Seals [`super::Offset`]; its method is for this module only.
    pub trait Sealed {
        /// The offset as a `usize`, for one already checked by `to_usize` (a plain cast).
        fn to_usize_checked_before(self) -> usize;
    }
}

macro_rules! offset {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {
            #[inline]
            fn to_usize_checked_before(self) -> usize {
                self as usize
            }
        }
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
