//! Which rows are valid UTF-8, from one pass of vutf8 over each buffer.
//!
//! The rows of an Arrow binary array are ranges of a shared values buffer (offset layouts)
//! or of one of several data buffers (view layouts). Validating each row on its own costs a
//! call, a set-up and a tail per row, which for log lines of 100 bytes is most of the work.
//! Instead, each buffer is searched once by [`vutf8::errors`], which yields every ill-formed
//! part (maximal subpart) in order; on valid text that is one fast pass. Then one rule
//! decides each row in constant time:
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
//! is an ill-formed part of its own, starting at `e`, so (2) holds. (A valid row followed
//! by a row that starts with a stray continuation byte is this case.)
//!
//! Conversely, let (1) to (3) hold and suppose the range is invalid on its own. Its own
//! decoder meets an error, or ends inside a sequence that began in the range. An error that
//! does not depend on bytes past `e` is met by the whole decoder too, inside the range:
//! against (3). A sequence left open at `e` is, for the whole decoder, either ill-formed,
//! which is an error starting inside the range (against (3)), or continued by the byte at
//! `e`, a continuation byte that is then part of that sequence and starts no ill-formed
//! part (against (2)). So the range is valid.
//!
//! The rule holds for any range, so it serves the views of `BinaryViewArray`, which may
//! point anywhere in their buffers, as well as the back-to-back rows of `BinaryArray`.
//! The tests check it against `std::str::from_utf8` per row.

/// A continuation byte, `80..=BF`: it cannot start a character.
#[inline]
pub(crate) fn is_continuation(byte: u8) -> bool {
    (byte as i8) < -64
}

/// The ill-formed parts of one buffer: sorted, disjoint byte ranges `[start, end)`.
#[derive(Debug, Default)]
pub(crate) struct ErrorMap {
    ranges: Vec<(usize, usize)>,
}

impl ErrorMap {
    /// Searches `bytes` once with vutf8.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        let ranges = vutf8::errors(bytes)
            .map(|e| {
                let start = e.valid_up_to();
                (start, start + e.error_len().unwrap_or(bytes.len() - start))
            })
            .collect();
        ErrorMap { ranges }
    }

    /// Whether an ill-formed part starts at `at`.
    #[inline]
    fn starts_at(&self, at: usize) -> bool {
        self.ranges.binary_search_by_key(&at, |&(s, _)| s).is_ok()
    }

    /// Whether an ill-formed part overlaps `start..end` (not empty).
    #[inline]
    fn overlaps(&self, start: usize, end: usize) -> bool {
        if self.ranges.is_empty() {
            return false;
        }
        let first_ending_after = self.ranges.partition_point(|&(_, e)| e <= start);
        self.ranges
            .get(first_ending_after)
            .is_some_and(|&(s, _)| s < end)
    }
}

/// Whether `bytes[start..end]` is valid UTF-8 on its own, by the rule in the module docs;
/// `map` is the [`ErrorMap`] of the whole of `bytes`. For ranges in any order (views).
#[inline]
pub(crate) fn range_is_valid(bytes: &[u8], map: &ErrorMap, start: usize, end: usize) -> bool {
    start == end || (ends_are_valid(bytes, map, start, end) && !map.overlaps(start, end))
}

/// Conditions (1) and (2) of the rule, for a range that is not empty.
#[inline]
fn ends_are_valid(bytes: &[u8], map: &ErrorMap, start: usize, end: usize) -> bool {
    debug_assert!(start < end && end <= bytes.len());
    !is_continuation(bytes[start])
        && (end == bytes.len() || !is_continuation(bytes[end]) || map.starts_at(end))
}

/// [`range_is_valid`] for ranges that come in order of their start, as the rows of an
/// offset layout do: the search of the error list goes on from where the last one stopped,
/// so a whole array costs one walk of the list instead of a binary search per row.
pub(crate) struct InOrder<'a> {
    map: &'a ErrorMap,
    /// The first error that may end after the next range's start.
    next: usize,
}

impl<'a> InOrder<'a> {
    /// A walk of `map` from its first error.
    pub(crate) fn new(map: &'a ErrorMap) -> Self {
        InOrder { map, next: 0 }
    }

    /// [`range_is_valid`]; `start` must be no less than that of the range before.
    #[inline]
    pub(crate) fn range_is_valid(&mut self, bytes: &[u8], start: usize, end: usize) -> bool {
        if start == end {
            return true;
        }
        let ranges = &self.map.ranges;
        // Errors that end by `start` end by every later start too: skip them for good.
        while self.next < ranges.len() && ranges[self.next].1 <= start {
            self.next += 1;
        }
        let overlaps = ranges.get(self.next).is_some_and(|&(s, _)| s < end);
        !overlaps && ends_are_valid(bytes, self.map, start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every range of a few buffers, against std.
    #[test]
    fn the_rule_agrees_with_std_on_every_range() {
        let buffers: [&[u8]; 8] = [
            "añ€😀b".as_bytes(),
            b"a\xE2\x82\xACb\xE2\x82c\xF0\x9F\x98",
            b"\x80\xBF\xC2\xC2\xA9\xED\xA0\x80\xF4\x90\x80\x80x",
            b"\xE0\x80\xAF\xC0\xAF\xF8\x88\x80\x80\x80zz",
            b"",
            "ab€\u{10FFFF}\u{7FF}".as_bytes(),
            // Valid characters followed by stray continuation bytes, and sequences a
            // continuation byte cannot continue (E0 80, ED A0, F4 90).
            b"a\x80\xC2\xA9\xBF\xE2\x82\xAC\x80\x80d\xF0\x9F\x98\x80\xBFz\x80",
            b"\xE0\x80\xE0\xA0\x80\x80\xED\xA0\x80\xF4\x90\xF4\x8F\xBF\xBF\x8F\xE2\x82",
        ];
        let mut ranges = 0;
        for bytes in buffers {
            let map = ErrorMap::of(bytes);
            let mut in_order = InOrder::new(&map);
            for start in 0..=bytes.len() {
                for end in start..=bytes.len() {
                    let std = std::str::from_utf8(&bytes[start..end]).is_ok();
                    let what = format!("{bytes:02X?}[{start}..{end}]");
                    assert_eq!(range_is_valid(bytes, &map, start, end), std, "{what}");
                    assert_eq!(in_order.range_is_valid(bytes, start, end), std, "{what}");
                    ranges += 1;
                }
            }
        }
        assert!(ranges > 300);
    }

    /// Every range of every buffer of up to 5 bytes drawn from bytes of each class
    /// (ASCII, the continuation ranges that E0, ED, F0 and F4 treat apart, leads, bytes
    /// never in UTF-8), against std.
    #[test]
    fn the_rule_agrees_with_std_on_every_short_buffer() {
        const BYTES: [u8; 14] = [
            0x00, 0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
        ];
        let mut checked = 0u64;
        let mut buffer = Vec::new();
        for len in 0..=5u32 {
            for n in 0..BYTES.len().pow(len) {
                buffer.clear();
                let mut digits = n;
                for _ in 0..len {
                    buffer.push(BYTES[digits % BYTES.len()]);
                    digits /= BYTES.len();
                }
                let map = ErrorMap::of(&buffer);
                let mut in_order = InOrder::new(&map);
                for start in 0..=buffer.len() {
                    for end in start..=buffer.len() {
                        let std = std::str::from_utf8(&buffer[start..end]).is_ok();
                        let what = format!("{buffer:02X?}[{start}..{end}]");
                        assert_eq!(range_is_valid(&buffer, &map, start, end), std, "{what}");
                        assert_eq!(in_order.range_is_valid(&buffer, start, end), std, "{what}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(
            checked,
            (0..=5u64)
                .map(|l| 14u64.pow(l as u32) * (l + 1) * (l + 2) / 2)
                .sum::<u64>()
        );
    }
}
