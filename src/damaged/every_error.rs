//! Every error, not just the first: [`errors`] over a slice.
//!
//! # The idea
//!
//! Errors are rare in real text, so the fast validator does almost all of the work: it
//! runs over the rest of the input and stops at the next error. After an error the bytes
//! are often dense with errors (binary data, a wrong encoding such as Latin-1 or UTF-16),
//! and restarting the validator for every error would cost far more than the error, so the
//! search goes on by *stretches*: the backend's search for ill-formed parts
//! (`arch::generic::subparts`) decides a stretch of `SUBPART_BLOCKS` blocks at a time,
//! every byte at once, and the iterator walks the bits of where each part starts:
//!
//! ```text
//! loop:
//!     fast validator on the rest of the input       -> no error: done
//!     at its error: yield it, resume after its maximal subpart
//!     stretch after stretch: yield each ill-formed part the stretch has,
//!         until a stretch has none: back to the fast validator after it
//! ```
//!
//! Eight or more parts of one byte in a row (binary junk, a fill of `FF`) are a *run*
//! (`RUN_FROM`): the iterator takes their bits off the block at once and yields them a
//! byte at a time, each error from its byte alone (a lead byte from what follows it).
//!
//! Valid input costs one call of the fast validator, as [`crate::is_valid`] does; an error
//! in a stretch costs a few instructions, and its details ([`Utf8Error::kind`], the code
//! point) a decoding of its few bytes, only when they are asked for ([`Errors::next`], not
//! the lossy decoders, which need where and how long only).
//!
//! Where the search resumes after an error is the crate's one rule
//! (`crate::reference::decode`, "Where decoding resumes after an error"), which
//! `<[u8]>::utf8_chunks` follows too: the errors are exactly the invalid parts of
//! `utf8_chunks`.
//!
//! Next: [`ErrorScanner`](crate::ErrorScanner) (`crate::damaged::scanner`) does the same on
//! a stream that arrives in chunks split anywhere.

use crate::arch::portable::{BlockParts, Subparts};
use crate::reference::decode::{self, Strict};
use crate::reference::error::Utf8Error;
use crate::tiers::BLOCK;

/// Every error in `bytes`, in order; see [`Errors`].
///
/// ```
/// let input = b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd\xE2\x82";
/// let found: Vec<_> = vutf8::errors(input)
///     .map(|e| (e.valid_up_to(), e.error_len()))
///     .collect();
/// assert_eq!(
///     found,
///     [(1, Some(3)), (4, Some(2)), (6, Some(1)), (8, Some(1)), (10, Some(1)), (11, Some(1)), (13, None)]
/// );
/// assert_eq!(vutf8::errors("valid text".as_bytes()).count(), 0);
/// ```
#[inline]
pub fn errors(bytes: &[u8]) -> Errors<'_> {
    Errors {
        bytes,
        pos: 0,
        stretch: Stretch::default(),
    }
}

/// An iterator over every UTF-8 error in a byte slice, made by [`errors`].
///
/// Each error's [`valid_up_to`](Utf8Error::valid_up_to) is counted from the start of the
/// slice (it is where the ill-formed part starts; the bytes before it are not all valid
/// when an earlier error was yielded). After each error the iterator resumes after its
/// maximal subpart ([`error_len`](Utf8Error::error_len) bytes), as `String::from_utf8_lossy`
/// does: every invalid part of `<[u8]>::utf8_chunks` is one error here. `error_len()` is
/// `None` only for the last error, when the input ends inside a sequence.
///
/// On valid input, the first `next()` costs what [`crate::is_valid`] costs.
#[derive(Clone, Debug)]
pub struct Errors<'a> {
    bytes: &'a [u8],
    /// Where the search goes on: a character boundary after valid text or an error (the
    /// end of the last error yielded).
    pos: usize,
    /// The stretch being walked, after an error.
    stretch: Stretch,
}

/// The ill-formed parts of a stretch of blocks, as the backend's search found them, and
/// where the walk over them is.
#[derive(Clone, Debug, Default)]
struct Stretch {
    /// Whether the search goes on by stretches (else by the fast validator, from `pos`).
    active: bool,
    /// Where the stretch's first block starts.
    base: usize,
    /// The blocks after the one being walked that have an ill-formed part, a bit each (bit
    /// `k` for block `k`): the walk goes from one to the next without a look at the others.
    left: u64,
    /// Where the block being walked starts.
    block_at: usize,
    /// The block being walked, its starts not walked yet (the run's taken off).
    cur: BlockParts,
    /// Where the run of parts of one byte being yielded ends (the bytes from the
    /// iterator's `pos` to here are each such a part; none where `pos` is not before it).
    run_end: usize,
    /// Whether the stretch has an ill-formed part: if not, the next one is not searched by
    /// stretches.
    found: bool,
    /// The stretch (by value: the search never has the iterator's address).
    parts: Subparts,
}

impl Stretch {
    /// The next ill-formed part of the block being walked (whose `cur.starts` is not 0):
    /// where it starts and how long it is, taken off the block.
    #[inline(always)]
    fn take(&mut self) -> (usize, usize) {
        let i = self.cur.starts.trailing_zeros();
        self.cur.starts &= self.cur.starts - 1;
        (self.block_at + i as usize, self.cur.len_at(i))
    }

    /// Moves the walk to the stretch's next block that has an ill-formed part; `false` when
    /// it has no more.
    #[inline(always)]
    fn next_block(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        let k = self.left.trailing_zeros() as usize;
        self.left &= self.left - 1;
        self.cur = self.parts.parts[k];
        self.block_at = self.base + k * BLOCK;
        true
    }

    /// Walks the stretch `parts` just found from its first block, at `base`.
    #[inline(always)]
    fn walk(&mut self, base: usize, parts: Subparts) {
        // Every slot looked at (a loop of fixed length), those past the stretch masked off.
        let mut with_parts = 0u64;
        for (k, p) in parts.parts.iter().enumerate() {
            with_parts |= u64::from(p.starts != 0) << k;
        }
        with_parts &= (1u64 << parts.blocks) - 1;
        self.base = base;
        self.block_at = base;
        self.cur = parts.parts[0];
        self.left = with_parts & !1;
        self.found = with_parts != 0;
        self.parts = parts;
    }

    /// A stretch that starts at `at`, to be searched by the next step: `at` is where
    /// decoding goes on after valid text or an error.
    #[inline(always)]
    fn start_at(&mut self, at: usize) {
        self.active = true;
        self.base = at;
        self.left = 0;
        self.block_at = at;
        self.cur = BlockParts::default();
        self.parts.blocks = 0;
        self.parts.carry = 0;
        self.found = true;
        self.run_end = 0;
    }
}

impl<'a> Errors<'a> {
    /// The bytes not searched yet: after the last error yielded (empty at the end).
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Moves past the error just yielded to `pos` (which is not before where the search
    /// would go on): for profiles that accept a longer sequence there ([`crate::legacy`]).
    #[inline]
    pub(crate) fn resume_at(&mut self, pos: usize) {
        debug_assert!(pos >= self.pos);
        self.pos = pos.min(self.bytes.len());
        self.stretch.start_at(self.pos);
    }

    /// The next error as the search finds it, the search moved past its maximal subpart.
    /// This is the one loop: the fast validator, and stretches after an error. (Inlined into
    /// its callers, so that an error in a stretch is not returned through memory.)
    #[inline(always)]
    fn next_found(&mut self) -> Option<Found> {
        let len = self.bytes.len();
        loop {
            if self.stretch.active {
                let st = &mut self.stretch;
                loop {
                    if st.cur.starts != 0 {
                        let (at, n) = st.take();
                        self.pos = at + n;
                        return Some(Found::At(at, n));
                    }
                    if !st.next_block() {
                        break;
                    }
                }
                let end = st.base + st.parts.blocks * BLOCK;
                if end >= len {
                    st.active = false;
                    self.pos = len;
                    return None;
                }
                if st.found {
                    st.walk(end, crate::arch::subparts(self.bytes, end, st.parts.carry));
                    continue;
                }
                // A stretch without errors: the validator again, from the first boundary
                // after it.
                st.active = false;
                self.pos = end + st.parts.carry.trailing_ones() as usize;
            }
            if self.pos >= len {
                return None;
            }
            match crate::engine::validate(&self.bytes[self.pos..]) {
                Ok(()) => {
                    self.pos = len;
                    return None;
                }
                Err(e) => {
                    let e = e.shifted(self.pos);
                    self.pos = e.error_len().map_or(len, |n| e.valid_up_to() + n);
                    self.stretch.start_at(self.pos);
                    return Some(Found::Full(e));
                }
            }
        }
    }
}

/// What [`for_each_span`] tells of each error: where it starts and its `error_len`.
pub(crate) trait OnSpan {
    /// The next error: it starts at `start` and is `error_len` bytes long (`None`: the
    /// input ends inside its sequence).
    fn span(&mut self, start: usize, error_len: Option<usize>);

    /// The next `count` errors (at least [`RUN_FROM`]): one byte each, from `start` on
    /// (binary junk, `FF FF FF`).
    #[inline(always)]
    fn one_byte_errors(&mut self, start: usize, count: usize) {
        for at in start..start + count {
            self.span(at, Some(1));
        }
    }

    /// The ill-formed parts of the whole block at `base` (`p`), which ends at least
    /// [`BLOCKS_AFTER`] blocks before the input does: none of its parts is one that the end
    /// leaves open, and a writer may read a block's worth of bytes past any of them.
    #[inline(always)]
    fn block(&mut self, base: usize, p: BlockParts) {
        walk_block(self, base, p, None);
    }
}

/// Parts of one byte in a row, from this many on, are a run: [`Errors`] takes their bits
/// off the block at once and yields them from their bytes, [`OnSpan::one_byte_errors`] is
/// told of them at once. Fewer are not worth a run's setting up: in random bytes, where
/// runs of 1 to 7 are a coin toss, a run from 2 halved `for_each`'s speed.
const RUN_FROM: u32 = 8;

/// The bits of a block's first [`RUN_FROM`] bytes.
const RUN_BITS: u64 = (1 << RUN_FROM) - 1;

/// [`OnSpan::block`] is called for a block that ends at least this many blocks before the
/// input does (the others' parts are told one by one, the last one checked for a sequence
/// the end leaves open).
pub(crate) const BLOCKS_AFTER: usize = 2;

/// Tells `f` of the ill-formed parts of the block at `base` (`p`) one by one, runs of
/// [`RUN_FROM`] or more parts of one byte together. With `near_end`, the input (whose end
/// may lie in the block or a few bytes after it): a part that ends where the input does is
/// decoded, as it may be a sequence the end leaves open.
#[inline(always)]
fn walk_block<S: OnSpan + ?Sized>(f: &mut S, base: usize, p: BlockParts, near_end: Option<&[u8]>) {
    let last_bit = match near_end {
        Some(bytes) => {
            let last = (bytes.len() - 1).wrapping_sub(base);
            if last < BLOCK {
                1u64 << last
            } else {
                0
            }
        }
        None => 0,
    };
    let ones = p.starts & !p.two & !p.three & !last_bit;
    let mut starts = p.starts;
    while starts != 0 {
        let i = starts.trailing_zeros();
        let at = base + i as usize;
        let run = (!(ones >> i)).trailing_zeros();
        if run >= RUN_FROM {
            f.one_byte_errors(at, run as usize);
            starts &= !((u64::MAX >> (64 - run)) << i);
            continue;
        }
        starts &= starts - 1;
        let n = p.len_at(i);
        match near_end {
            Some(bytes) if at + n == bytes.len() => f.span(at, decode_at(bytes, at).error_len()),
            _ => f.span(at, Some(n)),
        }
    }
}

impl<F: FnMut(usize, Option<usize>)> OnSpan for F {
    #[inline(always)]
    fn span(&mut self, start: usize, error_len: Option<usize>) {
        self(start, error_len)
    }
}

/// Tells `f` of every error of `bytes` from `pos` on, in order, and returns it: the search
/// of [`Errors`] (the fast validator, and stretches after an error) with its state in
/// local variables, for the lossy decoders, which need where and how long each error is
/// only. `f` is taken and given back by value, so that its state (a writer's length) stays
/// in registers too. `pos` is where decoding goes on after valid text or an error; with
/// `dense`, an error just ended there, and the search starts by stretches.
#[inline(always)]
pub(crate) fn for_each_span<S: OnSpan>(bytes: &[u8], mut pos: usize, dense: bool, mut f: S) -> S {
    let len = bytes.len();
    let mut dense = dense;
    loop {
        if pos >= len {
            return f;
        }
        if !dense {
            match crate::engine::validate(&bytes[pos..]) {
                Ok(()) => return f,
                Err(e) => {
                    let at = pos + e.valid_up_to();
                    f.span(at, e.error_len());
                    match e.error_len() {
                        Some(n) => pos = at + n,
                        None => return f,
                    }
                }
            }
        }
        // Stretch after stretch, until one has no error or the rest is short.
        let mut carry = 0;
        loop {
            if pos >= len {
                return f;
            }
            let found = crate::arch::subparts(bytes, pos, carry);
            let mut any = 0;
            for (k, p) in found.parts[..found.blocks].iter().enumerate() {
                any |= p.starts;
                let base = pos + k * BLOCK;
                if base + (1 + BLOCKS_AFTER) * BLOCK <= len {
                    f.block(base, *p);
                } else {
                    walk_block(&mut f, base, *p, Some(bytes));
                }
            }
            pos += found.blocks * BLOCK;
            carry = found.carry;
            if any == 0 {
                // Back to the validator, from the first boundary after the stretch.
                pos += carry.trailing_ones() as usize;
                dense = false;
                break;
            }
        }
    }
}

/// An error as [`Errors`] finds it: complete from the fast validator, or from a stretch as
/// where it starts and how long it is (as if zeros followed the input), its details made
/// from its bytes.
#[derive(Clone, Copy)]
enum Found {
    Full(Utf8Error),
    At(usize, usize),
}

/// The full error at `at`, where an ill-formed part starts.
#[inline]
fn decode_at(bytes: &[u8], at: usize) -> Utf8Error {
    match decode::decode::<Strict>(&bytes[at..]) {
        Err(e) => e.shifted(at),
        Ok(..) => unreachable!("an ill-formed part starts here"),
    }
}

/// The error of the ill-formed part of `n` bytes at `at` (as a stretch finds it: zeros
/// after the input), where its details follow from its first two bytes without decoding
/// ([`QUICK_KINDS`]): a part of 2 or 3 bytes that ends before the input does is a sequence
/// cut short; a part of one byte is whatever its byte and whether a continuation byte
/// follows make it. Every other part (an overlong form, a surrogate or a value above
/// U+10FFFF, whose code point is decoded; an end that may leave a sequence open) is `None`,
/// for [`decode_at`].
#[inline(always)]
fn quick_error(bytes: &[u8], at: usize, n: usize) -> Option<Utf8Error> {
    use crate::reference::error::ErrorKind;
    use crate::reference::grammar::is_continuation;
    let lead = bytes[at];
    let next = *bytes.get(at + n)?;
    let kind = if n > 1 {
        ErrorKind::TooShort
    } else {
        QUICK_KINDS[usize::from(lead)][usize::from(is_continuation(next))]?
    };
    Some(Utf8Error {
        valid_up_to: at,
        error_len: n as u8,
        kind,
        code_point: Utf8Error::NO_CODE_POINT,
        sequence_len: SEQUENCE_LENS[usize::from(lead)],
    })
}

/// The error of the ill-formed part of `n` bytes at `at`: [`quick_error`]'s, else decoded.
#[inline(always)]
fn part_error(bytes: &[u8], at: usize, n: usize) -> Utf8Error {
    quick_error(bytes, at, n).unwrap_or_else(|| decode_at(bytes, at))
}

/// Whether the error of a part of one byte is `byte`'s alone to decide: a continuation
/// byte or a byte that never starts a sequence (`80..BF`, `F8..FF`; all of `FF` junk), not
/// a lead that what follows it makes one kind of error or another.
#[inline(always)]
fn decided_by_byte(byte: u8) -> bool {
    !(0xC0..0xF8).contains(&byte)
}

/// The error of a part of one byte, `byte` at `at`, that is a continuation byte or a
/// byte that never starts a sequence ([`decided_by_byte`]): its byte alone decides.
#[inline(always)]
fn one_byte_error(at: usize, byte: u8) -> Utf8Error {
    Utf8Error {
        valid_up_to: at,
        error_len: 1,
        kind: ONE_BYTE_KINDS[usize::from(byte)],
        code_point: Utf8Error::NO_CODE_POINT,
        sequence_len: SEQUENCE_LENS[usize::from(byte)],
    }
}

/// [`QUICK_KINDS`] of a byte that no continuation byte follows, for every byte that can be
/// a part of one byte (an ASCII byte never is: its entry is never read).
static ONE_BYTE_KINDS: [crate::reference::error::ErrorKind; 256] = {
    let mut t = [crate::reference::error::ErrorKind::InvalidByte; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(kind) = QUICK_KINDS[b][0] {
            t[b] = kind;
        }
        b += 1;
    }
    t
};

/// The kind of an ill-formed part of one byte, by the byte and by whether a continuation
/// byte follows it (index 1), as `decode::decode_fault` decides it, where no code point is
/// decoded; `None` for the others (an overlong `C0`/`C1`, `E0` or `F0` form, a surrogate,
/// a value above U+10FFFF: their code point), and for bytes that are never a part of one
/// byte. Checked against the decoder for every byte and follower in the tests.
static QUICK_KINDS: [[Option<crate::reference::error::ErrorKind>; 2]; 256] = {
    use crate::reference::error::ErrorKind::*;
    let mut t = [[None; 2]; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = match b {
            0x80..=0xBF => [Some(UnexpectedContinuation), Some(UnexpectedContinuation)],
            0xC0 | 0xC1 => [Some(InvalidByte), None],
            0xC2..=0xF4 => [Some(TooShort), None],
            0xF5..=0xF7 => [Some(InvalidByte), None],
            _ => [Some(InvalidByte), Some(InvalidByte)],
        };
        b += 1;
    }
    t
};

/// [`crate::grammar::announced_len`] of every byte, as `u8`.
static SEQUENCE_LENS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = crate::reference::grammar::announced_len(b as u8) as u8;
        b += 1;
    }
    t
};

impl Errors<'_> {
    /// [`Iterator::next`] past the block being walked: the next error as the search finds
    /// it.
    #[inline(never)]
    fn next_slow(&mut self) -> Option<Utf8Error> {
        Some(match self.next_found()? {
            Found::Full(e) => e,
            Found::At(at, n) => {
                quick_error(self.bytes, at, n).unwrap_or_else(|| self.error_at(at, n))
            }
        })
    }

    /// The error of a part of one byte in a run whose byte is a lead byte: what follows it
    /// decides.
    #[inline(never)]
    fn lead_in_run(&self, at: usize) -> Utf8Error {
        part_error(self.bytes, at, 1)
    }

    /// The error of the ill-formed part of `n` bytes at `at`, decoded.
    #[cold]
    #[inline(never)]
    fn error_at(&self, at: usize, n: usize) -> Utf8Error {
        let e = decode_at(self.bytes, at);
        debug_assert!(e.error_len().is_none_or(|len| len == n));
        e
    }
}

impl Iterator for Errors<'_> {
    type Item = Utf8Error;

    /// The next part of a run of parts of one byte (binary junk, a fill of `FF`), or the
    /// next part of the block being walked if its details follow from its first bytes (a
    /// wrong encoding: nearly every error in a stretch), is the whole of a call inlined
    /// into a `for` loop; the rest is a call of its own, so that the loop's own state stays
    /// in registers.
    #[inline]
    fn next(&mut self) -> Option<Utf8Error> {
        loop {
            if self.pos < self.stretch.run_end {
                let at = self.pos;
                self.pos = at + 1;
                let byte = self.bytes[at];
                if decided_by_byte(byte) {
                    return Some(one_byte_error(at, byte));
                }
                return Some(self.lead_in_run(at));
            }
            let st = &mut self.stretch;
            if st.cur.starts != 0 {
                let i = st.cur.starts.trailing_zeros();
                let at = st.block_at + i as usize;
                // A run of parts of one byte (binary junk, a fill of `FF`).
                let ones = st.cur.starts & !st.cur.two;
                if (ones >> i) & RUN_BITS == RUN_BITS {
                    let run = (!(ones >> i)).trailing_zeros();
                    st.cur.starts &= !((u64::MAX >> (64 - run)) << i);
                    st.run_end = at + run as usize;
                    self.pos = at;
                    continue;
                }
                let (at, n) = st.take();
                self.pos = at + n;
                if let Some(e) = quick_error(self.bytes, at, n) {
                    return Some(e);
                }
                return Some(self.error_at(at, n));
            }
            if !self.stretch.active || !self.stretch.next_block() {
                return self.next_slow();
            }
        }
    }

    /// The errors walked from within (`for_each`, `count`, `sum`, ... and `fold` itself):
    /// after what a stretch in progress still holds, the search of `for_each_span`, whose
    /// state stays in registers, where a `for` loop's calls of `next` keep the iterator in
    /// memory between errors.
    fn fold<B, F: FnMut(B, Utf8Error) -> B>(mut self, init: B, f: F) -> B {
        let mut acc = init;
        let mut f = f;
        // What a run in progress still holds (its bits are off the block already).
        for at in self.pos..self.stretch.run_end {
            acc = f(acc, part_error(self.bytes, at, 1));
        }
        let (pos, dense) = if self.stretch.active {
            // The parts of the stretch in progress (found, not yet yielded), then where its
            // search stopped: after its last block, and the bytes of a sequence or part
            // that reaches past it.
            let st = &mut self.stretch;
            loop {
                while st.cur.starts != 0 {
                    let (at, n) = st.take();
                    acc = f(acc, part_error(self.bytes, at, n));
                }
                if !st.next_block() {
                    break;
                }
            }
            let end = st.base + st.parts.blocks * BLOCK;
            (end + st.parts.carry.trailing_ones() as usize, st.found)
        } else {
            (self.pos, false)
        };
        let bytes = self.bytes;
        let folder = Folder {
            bytes,
            acc: Some(acc),
            f,
        };
        let folder = for_each_span(bytes, pos, dense, folder);
        folder.acc.expect("the fold's value is always put back")
    }
}

/// [`Errors::fold`]'s state: each error made whole from where it starts and how long it
/// is, then folded in.
struct Folder<'a, B, F> {
    bytes: &'a [u8],
    /// The value so far (taken by `f` and put back for each error).
    acc: Option<B>,
    f: F,
}

impl<B, F: FnMut(B, Utf8Error) -> B> Folder<'_, B, F> {
    /// Folds `e` into the value so far.
    #[inline(always)]
    fn fold_in(&mut self, e: Utf8Error) {
        if let Some(acc) = self.acc.take() {
            self.acc = Some((self.f)(acc, e));
        }
    }
}

impl<B, F: FnMut(B, Utf8Error) -> B> OnSpan for Folder<'_, B, F> {
    #[inline(always)]
    fn span(&mut self, start: usize, error_len: Option<usize>) {
        let e = match error_len {
            Some(n) => part_error(self.bytes, start, n),
            None => decode_at(self.bytes, start),
        };
        self.fold_in(e);
    }

    #[inline(always)]
    fn one_byte_errors(&mut self, start: usize, count: usize) {
        for at in start..start + count {
            let byte = self.bytes[at];
            let e = if decided_by_byte(byte) {
                one_byte_error(at, byte)
            } else {
                part_error(self.bytes, at, 1)
            };
            self.fold_in(e);
        }
    }
}

impl core::iter::FusedIterator for Errors<'_> {}

#[cfg(test)]
mod tests {
    use super::quick_error;
    use crate::reference::decode::{decode, Strict};

    /// Where the quick path gives an error, it is exactly the decoder's: every lead byte,
    /// every byte after it, and a third and fourth byte of each class, at the end of the
    /// input and before more.
    #[test]
    fn quick_errors_equal_the_decoder() {
        let mut quick = 0;
        for lead in 0x80..=0xFFu8 {
            for next in 0..=0xFFu8 {
                for tail in [&[][..], b"\x80", b"\x80\x80", b"\x80a", b"a", b"\x80\x80a"] {
                    let mut bytes = std::vec![lead, next];
                    bytes.extend_from_slice(tail);
                    let Err(want) = decode::<Strict>(&bytes) else {
                        continue;
                    };
                    let Some(n) = want.error_len() else { continue };
                    if let Some(got) = quick_error(&bytes, 0, n) {
                        assert_eq!(
                            (got, got.code_point(), got.sequence_len()),
                            (want, want.code_point(), want.sequence_len()),
                            "{bytes:02X?}"
                        );
                        quick += 1;
                    }
                }
            }
        }
        assert!(quick > 100_000, "{quick}");
    }
}
