//! Lossy decoding: replace each ill-formed part of the input with U+FFFD, exactly as
//! [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy) does.
//!
//! One U+FFFD per *maximal subpart* (the crate's one rule for where decoding resumes,
//! `crate::reference::decode`, "Where decoding resumes after an error"), and [`crate::errors()`] yields
//! exactly these parts (the fast validator over the valid runs, the backend's search for
//! ill-formed parts after an error). So lossy decoding is: copy the valid run before each
//! error, push U+FFFD, go on after it. Valid input is returned borrowed after one pass of
//! the fast validator.
//!
//! The writing is shared with the records' repair policies ([`PartText`] says what a part
//! becomes): part by part near the end of the input, and elsewhere a block at a time
//! (`Repairs`' `block`, and `repair_short` for an input of a few blocks), each valid run by
//! one copy of a block's bytes into room made once per block. Why, and what it gained:
//! docs/PERFORMANCE.md, "Damaged text".
//!
//! [`to_wtf8_surrogateescape`] writes each byte of a part as a lone surrogate instead (Python's
//! `surrogateescape`, in WTF-8), by the same writers.
//!
//! [`Repairer`] does the same on a stream, in constant memory, on
//! [`crate::ErrorScanner`]: the scanner holds back at most three bytes of a
//! sequence split across chunks, and the output on a sequence of chunks equals
//! [`from_utf8_lossy`] on their concatenation.

use crate::arch::portable::BlockParts;
use crate::damaged::every_error::{OnSpan, BLOCKS_AFTER};
use crate::damaged::scanner::ErrorScanner;
use crate::reference::error::Utf8Error;
use crate::tiers::BLOCK;
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// Converts bytes to a string, replacing each maximal subpart of an ill-formed sequence
/// with U+FFFD: the same output as
/// [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy), faster.
///
/// ```
/// let fixed = vutf8::from_utf8_lossy(b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd");
/// assert_eq!(fixed, "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d");
/// ```
pub fn from_utf8_lossy(input: &[u8]) -> Cow<'_, str> {
    let first = match crate::engine::validate(input) {
        // SAFETY: the input is valid UTF-8.
        Ok(()) => return Cow::Borrowed(unsafe { core::str::from_utf8_unchecked(input) }),
        Err(e) => e,
    };
    let mut out = String::with_capacity(input.len() + SLACK);
    repair_parts::<Replacement>(input, Some(first), &mut out);
    Cow::Owned(out)
}

/// Decodes bytes as Python's `bytes.decode('utf-8', 'surrogateescape')` does (PEP 383), into
/// WTF-8: valid UTF-8 is kept, and each byte `b` of each ill-formed part (maximal subpart,
/// as [`from_utf8_lossy`] replaces) becomes the lone surrogate U+DC00 + `b` (U+DC80 to
/// U+DCFF), written as WTF-8 writes it: `ED`, `B2` or `B3`, then `80 | (b & 0x3F)`. The
/// bytes come back from the text exactly (each such surrogate is its byte), and a
/// transcoder of valid UTF-8 to UTF-16 or UTF-32 that decodes by the bits of each sequence
/// makes Python's string of them. Valid input is returned borrowed after one pass of the
/// validator; otherwise one pass as [`from_utf8_lossy`]'s.
///
/// ```
/// let wtf8 = vutf8::to_wtf8_surrogateescape(b"caf\xE9 \xF0\x9F\x98");
/// assert_eq!(&wtf8[..], b"caf\xED\xB3\xA9 \xED\xB3\xB0\xED\xB2\x9F\xED\xB2\x98");
/// ```
pub fn to_wtf8_surrogateescape(input: &[u8]) -> Cow<'_, [u8]> {
    let first = match crate::engine::validate(input) {
        Ok(()) => return Cow::Borrowed(input),
        Err(e) => e,
    };
    let mut out = Vec::with_capacity(input.len() + SLACK);
    repair_parts_into::<SurrogateEscape>(input, Some(first), &mut out);
    Cow::Owned(out)
}

/// How an ill-formed part is written by [`repair_parts`]: U+FFFD for lossy decoding, or
/// each byte of it ([`ByteText`]) as the records' policies write it (`crate::records::Policy`)
/// or as its surrogate ([`to_wtf8_surrogateescape`]).
pub(crate) trait PartText {
    /// Whether the text of a part is whole characters (UTF-8), which [`repair_parts`] may
    /// append to a `String`; not so for [`SurrogateEscape`]'s WTF-8.
    const CHARACTERS: bool = true;

    /// How a valid run before a part is copied in a block of [`DENSE_PARTS`] parts or more
    /// ([`Sink::short_run`]): `BLOCK`, one copy of a whole block whatever its length; 16, a
    /// copy of 16 bytes and of the block only for a longer run, for the surrogates (three
    /// stores a byte: the block's copy is the most of the stores on random bytes), where
    /// it paid; the escapes lost more on sparse text than they gained (docs/PERFORMANCE.md,
    /// "Damaged text").
    const RUN_FIRST: usize = BLOCK;

    /// Appends the text of the ill-formed part `part` (1 to 3 bytes; none of them ASCII).
    fn part(out: &mut Sink, part: &[u8]);

    /// Appends the text of `bytes`, each of which is an ill-formed part of one byte.
    #[inline(always)]
    fn one_byte_parts(out: &mut Sink, bytes: &[u8]) {
        for b in bytes.chunks(1) {
            Self::part(out, b);
        }
    }

    /// [`one_byte_parts`](PartText::one_byte_parts) for the block of `input` at `base`,
    /// each byte of which is a part of one byte (binary junk, `FF FF FF`), in the middle of
    /// the input as for [`part_at`](PartText::part_at), without a check of the room: the
    /// caller made room for [`PART_ROOM`] bytes for each. (Each writer has its own: one
    /// store a byte, where `part_at` for each byte would make three.)
    fn one_byte_block(out: &mut Sink, input: &[u8], base: usize);

    /// [`part`](PartText::part) for the ill-formed part `input[at..at + n]` in the middle of
    /// a block ([`Repairs`]' `block`): `input[at..at + 3]` may be read, and [`PART_ROOM`]
    /// bytes written after the text without a check of the room (made by the caller).
    #[inline(always)]
    fn part_at(out: &mut Sink, input: &[u8], at: usize, n: usize) {
        Self::part(out, &input[at..at + n]);
    }
}

/// The most bytes [`PartText::part_at`] writes after the text: 4 for each of the 3 bytes of
/// a part.
pub(crate) const PART_ROOM: usize = 12;

/// U+FFFD once for each byte of a block.
static REPLACEMENTS: [u8; 3 * BLOCK] = {
    let mut t = [0u8; 3 * BLOCK];
    let mut i = 0;
    while i < 3 * BLOCK {
        t[i] = [0xEF, 0xBF, 0xBD][i % 3];
        i += 1;
    }
    t
};

/// Lossy decoding: one U+FFFD per ill-formed part.
pub(crate) struct Replacement;

impl PartText for Replacement {
    #[inline(always)]
    fn part(out: &mut Sink, _part: &[u8]) {
        out.replacement();
    }

    #[inline(always)]
    fn one_byte_parts(out: &mut Sink, bytes: &[u8]) {
        for _ in bytes {
            out.replacement();
        }
    }

    #[inline(always)]
    fn one_byte_block(out: &mut Sink, _input: &[u8], _base: usize) {
        // SAFETY: the caller made room for `PART_ROOM` bytes for each byte of the block.
        unsafe { out.put(&REPLACEMENTS) };
    }

    #[inline(always)]
    fn part_at(out: &mut Sink, _input: &[u8], _at: usize, _n: usize) {
        // SAFETY: the caller made room for `PART_ROOM >= 4` bytes.
        unsafe { out.put4([0xEF, 0xBF, 0xBD, 0], 3) };
    }
}

/// [`to_wtf8_surrogateescape`]: each byte of a part as its lone surrogate U+DC00 + byte, in
/// three bytes (`ED B2..B3 80..BF`).
struct SurrogateEscape;

/// The three bytes of U+DC00 + the byte (then a zero) for every byte (ASCII too, never asked
/// for): one load from a table, where the bytes made from the byte would be stored one by one.
static SURROGATES: [[u8; 4]; 256] = {
    let mut t = [[0u8; 4]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [0xED, 0xB2 | (b >> 6 & 1) as u8, 0x80 | (b & 0x3F) as u8, 0];
        b += 1;
    }
    t
};

impl ByteText for SurrogateEscape {
    const CHARACTERS: bool = false;
    const RUN_FIRST: usize = 16;
    const LEN: Option<usize> = Some(3);

    #[inline(always)]
    fn text(b: u8) -> ([u8; 4], usize) {
        (SURROGATES[usize::from(b)], 3)
    }
}

/// A part's text made byte by byte, each byte's from a table (the escapes, windows-1252,
/// the surrogates): the [`PartText`] of all of them is one code.
pub(crate) trait ByteText {
    /// [`PartText::CHARACTERS`].
    const CHARACTERS: bool = true;
    /// [`PartText::RUN_FIRST`].
    const RUN_FIRST: usize = BLOCK;
    /// The length of every byte's text where it is the same for all (the escapes'
    /// 4, the surrogates' 3): then a part's bytes are stored at fixed places, none waiting
    /// for the length of the one before.
    const LEN: Option<usize> = None;
    /// The text of the byte `b` (not ASCII) in the first bytes, and how many (1 to 4).
    fn text(b: u8) -> ([u8; 4], usize);
}

impl<T: ByteText> PartText for T {
    const CHARACTERS: bool = <T as ByteText>::CHARACTERS;
    const RUN_FIRST: usize = <T as ByteText>::RUN_FIRST;

    #[inline(always)]
    fn part(out: &mut Sink, part: &[u8]) {
        Self::one_byte_parts(out, part);
    }

    #[inline(always)]
    fn one_byte_parts(out: &mut Sink, bytes: &[u8]) {
        for &b in bytes {
            let (text, n) = T::text(b);
            out.four(text, n);
        }
    }

    /// One store of four bytes for each byte (binary junk, `FF FF FF`).
    #[inline(always)]
    fn one_byte_block(out: &mut Sink, input: &[u8], base: usize) {
        for &b in &input[base..base + BLOCK] {
            let (text, n) = T::text(b);
            // SAFETY: the caller made room for `PART_ROOM` >= 4 bytes for each byte.
            unsafe { out.put4(text, n) };
        }
    }

    /// Three stores, one for each byte a part can have, the length taking those of the part:
    /// at fixed places then the length once ([`ByteText::LEN`]), else one after the other.
    #[inline(always)]
    fn part_at(out: &mut Sink, input: &[u8], at: usize, n: usize) {
        for (j, &b) in input[at..at + 3].iter().enumerate() {
            let (text, len) = T::text(b);
            match T::LEN {
                // SAFETY: the caller made room for `PART_ROOM` = 12 >= 2 * 4 + 4 bytes.
                Some(fixed) => unsafe { out.put4_at(fixed * j, text) },
                // SAFETY: the caller made room for `PART_ROOM` = 3 * 4 bytes.
                None => unsafe { out.put4(text, len * usize::from(j < n)) },
            }
        }
        if let Some(fixed) = T::LEN {
            // SAFETY: the first `n` of the texts stored above.
            unsafe { out.advance(fixed * n) };
        }
    }
}

/// Appends `input` to `out` with each ill-formed part written by `P`: the valid runs
/// copied, the errors found by [`crate::damaged::every_error::for_each_span`]. `first`, when the caller
/// has it, is the input's first error (the search goes on after it, by stretches). A short
/// input (a log line's) is searched by one stretch at once ([`repair_short`]): the
/// validator's call and its error's exact place cost more there than the stretch.
pub(crate) fn repair_parts<P: PartText>(input: &[u8], first: Option<Utf8Error>, out: &mut String) {
    const { assert!(P::CHARACTERS) };
    // SAFETY: only valid UTF-8 is appended to `out`'s text: the runs between errors, which
    // come in order, every one of them, and what `P` writes for each error (whole
    // characters, asserted above).
    repair_parts_into::<P>(input, first, unsafe { out.as_mut_vec() });
}

/// [`repair_parts`] into bytes.
fn repair_parts_into<P: PartText>(input: &[u8], first: Option<Utf8Error>, out: &mut Vec<u8>) {
    if input.len() < SHORT_BY_STRETCHES {
        repair_short::<P>(input, out);
        return;
    }
    let mut writer = Repairs::<P>::new(input, input.len(), out);
    writer = match first {
        Some(first) => {
            writer.span(first.valid_up_to(), first.error_len());
            match first.error_len() {
                Some(n) => crate::damaged::every_error::for_each_span(
                    input,
                    first.valid_up_to() + n,
                    true,
                    writer,
                ),
                None => writer,
            }
        }
        None => crate::damaged::every_error::for_each_span(input, 0, false, writer),
    };
    writer.finish();
}

/// [`repair_parts`] of an input shorter than [`SHORT_BY_STRETCHES`] (a log line's): one
/// search for its parts, then every block written a block at a time ([`Repairs`]' `block`)
/// from a copy of the input with room after it for the writer's whole-block copies. A part
/// that the end leaves open is written as the part of the bytes it has, which it is for
/// every `P`.
#[inline(never)]
fn repair_short<P: PartText>(input: &[u8], out: &mut Vec<u8>) {
    const AFTER: usize = (1 + BLOCKS_AFTER) * BLOCK;
    let len = input.len();
    let mut room = [core::mem::MaybeUninit::<u8>::uninit(); SHORT_BY_STRETCHES + AFTER];
    // SAFETY: `len < SHORT_BY_STRETCHES`, so the input and `AFTER` bytes after it fit in
    // `room`; the input is not in `room`. Its first `len + AFTER` bytes are then written,
    // and only they are read.
    let padded = unsafe {
        let p = room.as_mut_ptr().cast::<u8>();
        core::ptr::copy_nonoverlapping(input.as_ptr(), p, len);
        core::ptr::write_bytes(p.add(len), 0, AFTER);
        core::slice::from_raw_parts(p.cast_const(), len + AFTER)
    };
    let found = crate::arch::subparts(input, 0, 0);
    let mut writer = Repairs::<P>::new(padded, len, out);
    for (k, p) in found.parts[..found.blocks].iter().enumerate() {
        writer.block(k * BLOCK, *p);
    }
    writer.finish();
}

/// The writer of [`repair_parts`]: each error is the valid run before it, then its part
/// as `P` writes it.
struct Repairs<'i, 'v, P> {
    /// The input, and bytes after it that may be read (not written) by whole-block copies.
    input: &'i [u8],
    /// The input's length.
    end: usize,
    out: Sink<'v>,
    /// Where the valid run before the next error starts.
    valid_from: usize,
    part: core::marker::PhantomData<P>,
}

impl<'i, 'v, P: PartText> Repairs<'i, 'v, P> {
    /// A writer of the first `end` bytes of `input` (the bytes after them may be read by
    /// whole-block copies), after the text of `out`.
    fn new(input: &'i [u8], end: usize, out: &'v mut Vec<u8>) -> Self {
        Repairs {
            input,
            end,
            out: Sink::after(out),
            valid_from: 0,
            part: core::marker::PhantomData,
        }
    }

    /// Writes the run after the last error, and ends the writing.
    fn finish(mut self) {
        self.out.run(self.input, self.valid_from, self.end);
        self.out.finish();
    }
}

impl<P: PartText> OnSpan for Repairs<'_, '_, P> {
    #[inline(always)]
    fn span(&mut self, bad: usize, error_len: Option<usize>) {
        let end = error_len.map_or(self.end, |n| bad + n);
        self.out.run(self.input, self.valid_from, bad);
        P::part(&mut self.out, &self.input[bad..end]);
        self.valid_from = end;
    }

    #[inline(always)]
    fn one_byte_errors(&mut self, at: usize, count: usize) {
        self.out.run(self.input, self.valid_from, at);
        P::one_byte_parts(&mut self.out, &self.input[at..at + count]);
        self.valid_from = at + count;
    }

    /// A block in the middle of the input: each valid run (shorter than a block: it starts
    /// in this block, or at most 3 bytes after the block before) copied by one copy of a
    /// whole block's bytes, each part written by [`PartText::part_at`], the room for all of
    /// it made once: no branch but the loop over the parts. A block without a part is left
    /// to the run before the next part; the run that reaches a block with parts from
    /// before it is copied first.
    #[inline(always)]
    fn block(&mut self, base: usize, p: BlockParts) {
        debug_assert!(base + (1 + BLOCKS_AFTER) * BLOCK <= self.input.len());
        if p.starts == 0 {
            // Its bytes go with the run before the next part (a stretch of sparse errors).
            return;
        }
        if self.valid_from < base {
            self.out.run(self.input, self.valid_from, base);
            self.valid_from = base;
        }
        debug_assert!((base..=base + 3).contains(&self.valid_from));
        self.out
            .room_for((BLOCK + 3) * PART_ROOM / 3 + BLOCK + PART_ROOM);
        let from = self.valid_from;
        if p.starts == u64::MAX && p.two | p.three == 0 {
            // Every byte a part of its own (binary junk, `FF FF FF`).
            P::one_byte_block(&mut self.out, self.input, base);
            self.valid_from = base + BLOCK;
            return;
        }
        // Runs copied 16 bytes first where the writer asks for it and the block's parts are
        // many (short runs), else by a copy of a whole block.
        if P::RUN_FIRST < BLOCK && p.starts.count_ones() >= DENSE_PARTS {
            self.block_parts(base, p, from, P::RUN_FIRST);
        } else {
            self.block_parts(base, p, from, BLOCK);
        }
    }
}

impl<P: PartText> Repairs<'_, '_, P> {
    /// The runs and parts of [`block`](OnSpan::block) from `from`, each run copied by
    /// [`Sink::short_run`] `first` bytes first.
    #[inline(always)]
    fn block_parts(&mut self, base: usize, p: BlockParts, mut from: usize, first: usize) {
        let mut starts = p.starts;
        while starts != 0 {
            let i = starts.trailing_zeros();
            starts &= starts - 1;
            let at = base + i as usize;
            let n = p.len_at(i);
            // SAFETY: `from <= at < base + BLOCK`, and a block's bytes from `from` lie in
            // the input (`BLOCKS_AFTER` blocks follow this one); room was made by `block`
            // for the runs and parts of a block (each byte written at most 4 bytes, a copy
            // reaching `BLOCK` bytes past the text, a part `PART_ROOM`).
            unsafe { self.out.short_run(self.input, from, at, first) };
            P::part_at(&mut self.out, self.input, at, n);
            from = at + n;
        }
        // The rest of the block (none if its last part reaches past it), to the input's end.
        let to = from.max((base + BLOCK).min(self.end));
        // SAFETY: as above, `to - from <= BLOCK`.
        unsafe { self.out.short_run(self.input, from, to, first) };
        self.valid_from = to;
    }
}

/// The parts of a block from which [`PartText::RUN_FIRST`] applies (runs of 8 bytes or
/// fewer on average; random bytes have some 30 parts a block, Latin-1 text one or two).
const DENSE_PARTS: u32 = 8;

/// [`repair_parts`] searches an input shorter than this by one stretch from its start,
/// without asking the validator first ([`repair_short`]).
const SHORT_BY_STRETCHES: usize = 4 * crate::tiers::BLOCK;

/// Room kept after the text for the copies of whole registers ([`Sink::run`]).
const SLACK: usize = 64;

/// The bytes [`Sink::run`] copies at a time.
const RUN_COPY: usize = 32;

/// The longest run [`Sink::run`] copies `RUN_COPY` bytes at a time (longer ones: `memcpy`).
const RUN_LOOP: usize = 256;

/// Writes repaired text to a `Vec` a few bytes at a time: a run of valid bytes, U+FFFD, an
/// escape. Its length and room are kept apart from the `Vec` (which only the rare growth
/// touches, and [`Sink::finish`]), so that in the loop over the errors of damaged text
/// they stay in registers; each write is one or two stores into room kept after the text
/// ([`SLACK`] bytes), where a `Vec` would reserve, and copy a run of a few bytes by a call
/// of `memcpy`. The `Vec`'s length is only right after `finish`.
pub(crate) struct Sink<'v> {
    vec: &'v mut Vec<u8>,
    ptr: *mut u8,
    len: usize,
    cap: usize,
}

impl<'v> Sink<'v> {
    /// Writes after the bytes of `vec`.
    pub(crate) fn after(vec: &'v mut Vec<u8>) -> Sink<'v> {
        Sink {
            ptr: vec.as_mut_ptr(),
            len: vec.len(),
            cap: vec.capacity(),
            vec,
        }
    }

    /// Makes room for `SLACK` more bytes.
    #[inline(always)]
    fn room(&mut self) {
        if self.cap - self.len < SLACK {
            (self.ptr, self.cap) = grow(self.vec, self.len, self.len);
        }
    }

    /// Appends `bytes`.
    #[inline]
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        if self.cap - self.len < bytes.len() + SLACK {
            (self.ptr, self.cap) = grow(self.vec, self.len, self.len + bytes.len());
        }
        // SAFETY: there is room for `bytes` (just made).
        unsafe { self.put(bytes) };
    }

    /// Appends `input[from..to]`. A run of up to `RUN_LOOP` bytes with `input` readable
    /// to the next multiple of `RUN_COPY` bytes after it is copied `RUN_COPY` bytes at a
    /// time, the last copy reaching past the run's end into the room kept after the text,
    /// which the length then leaves out: one load and one store a register, where a copy of
    /// exactly the run's bytes is a call of `memcpy` (text damaged every few bytes has
    /// many short runs).
    #[inline(always)]
    pub(crate) fn run(&mut self, input: &[u8], from: usize, to: usize) {
        let n = to - from;
        let whole = n.next_multiple_of(RUN_COPY).max(RUN_COPY);
        if n <= RUN_LOOP && input.len() - from >= whole {
            if self.cap - self.len < RUN_LOOP + SLACK {
                (self.ptr, self.cap) = grow(self.vec, self.len, self.len + RUN_LOOP);
            }
            let mut i = 0;
            while i < n || i == 0 {
                // SAFETY: `from + whole` bytes lie in `input` (just checked), and
                // `i < whole`; there is room for `RUN_LOOP + SLACK >= whole` more bytes
                // (just made); the length takes only the run.
                unsafe {
                    core::ptr::copy_nonoverlapping(
                        input.as_ptr().add(from + i),
                        self.ptr.add(self.len + i),
                        RUN_COPY,
                    )
                };
                i += RUN_COPY;
            }
            self.len += n;
        } else {
            self.bytes(&input[from..to]);
        }
    }

    /// Makes room for `n` more bytes.
    #[inline(always)]
    pub(crate) fn room_for(&mut self, n: usize) {
        if self.cap - self.len < n {
            (self.ptr, self.cap) = grow(self.vec, self.len, self.len + n);
        }
    }

    /// Appends `input[from..to]` (at most `BLOCK` bytes) by one copy of `first` bytes (at
    /// most `BLOCK`), then of `BLOCK` if the run is longer, the length taking only the run's.
    ///
    /// # Safety
    /// `to - from <= BLOCK`, `input[from..from + BLOCK]` exists, and there is room for
    /// `BLOCK` more bytes.
    #[inline(always)]
    pub(crate) unsafe fn short_run(&mut self, input: &[u8], from: usize, to: usize, first: usize) {
        debug_assert!(from <= to && to - from <= BLOCK && from + BLOCK <= input.len());
        debug_assert!(self.cap - self.len >= BLOCK && first <= BLOCK);
        // SAFETY: the caller's guarantees.
        unsafe {
            let (src, dst) = (input.as_ptr().add(from), self.ptr.add(self.len));
            if first < BLOCK {
                core::ptr::copy_nonoverlapping(src, dst, first);
            }
            if first == BLOCK || to - from > first {
                core::ptr::copy_nonoverlapping(src, dst, BLOCK);
            }
        };
        self.len += to - from;
    }

    /// Appends `bytes` without a check of the room.
    ///
    /// # Safety
    /// There is room for `bytes`.
    #[inline(always)]
    pub(crate) unsafe fn put(&mut self, bytes: &[u8]) {
        debug_assert!(self.cap - self.len >= bytes.len());
        // SAFETY: the caller's guarantee; `bytes` is not in the buffer (it is borrowed
        // while the buffer is written).
        unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), bytes.len())
        };
        self.len += bytes.len();
    }

    /// Appends the first `n` (at most 4) of `bytes` by one store of all 4, without a check
    /// of the room.
    ///
    /// # Safety
    /// There is room for 4 more bytes.
    #[inline(always)]
    pub(crate) unsafe fn put4(&mut self, bytes: [u8; 4], n: usize) {
        debug_assert!(n <= 4 && self.cap - self.len >= 4);
        // SAFETY: the caller's guarantee; the length takes only the first `n`.
        unsafe {
            self.ptr
                .add(self.len)
                .cast::<[u8; 4]>()
                .write_unaligned(bytes)
        };
        self.len += n;
    }

    /// Stores `bytes` `offset` bytes past the text, which does not grow (see
    /// [`advance`](Sink::advance)), without a check of the room.
    ///
    /// # Safety
    /// There is room for `offset + 4` more bytes.
    #[inline(always)]
    pub(crate) unsafe fn put4_at(&mut self, offset: usize, bytes: [u8; 4]) {
        debug_assert!(self.cap - self.len >= offset + 4);
        // SAFETY: the caller's guarantee.
        unsafe {
            self.ptr
                .add(self.len + offset)
                .cast::<[u8; 4]>()
                .write_unaligned(bytes)
        };
    }

    /// Takes the next `n` bytes past the text into it.
    ///
    /// # Safety
    /// They are written (by [`put4_at`](Sink::put4_at)), and there is room for them.
    #[inline(always)]
    pub(crate) unsafe fn advance(&mut self, n: usize) {
        debug_assert!(self.cap - self.len >= n);
        self.len += n;
    }

    /// Appends the first `n` (at most 4) of `bytes`, by one store of all 4.
    #[inline(always)]
    pub(crate) fn four(&mut self, bytes: [u8; 4], n: usize) {
        self.room();
        // SAFETY: there is room for `SLACK >= 4` more bytes (just made).
        unsafe { self.put4(bytes, n) };
    }

    /// Appends U+FFFD (`EF BF BD`).
    #[inline(always)]
    pub(crate) fn replacement(&mut self) {
        self.four([0xEF, 0xBF, 0xBD, 0], 3);
    }

    /// Ends the writing: the `Vec` holds what was written.
    pub(crate) fn finish(self) {
        // SAFETY: the first `len` bytes were written (and `len <= cap`).
        unsafe { self.vec.set_len(self.len) };
    }
}

/// Grows `vec`, whose first `len` bytes were written by a [`Sink`], to room for at least
/// `need + SLACK` bytes and at least twice its capacity; returns its pointer and capacity.
/// Out of line: it is rare, and the writers' state must not live in memory for it.
#[cold]
#[inline(never)]
fn grow(vec: &mut Vec<u8>, len: usize, need: usize) -> (*mut u8, usize) {
    debug_assert!(len <= vec.capacity() && len <= need);
    // SAFETY: the sink wrote the first `len` bytes, within the capacity.
    unsafe { vec.set_len(len) };
    vec.reserve((need - len + SLACK).max(vec.capacity()));
    (vec.as_mut_ptr(), vec.capacity())
}

/// A streaming lossy decoder: feed chunks with [`push`](Repairer::push), end with
/// [`finish`](Repairer::finish). The output equals [`from_utf8_lossy`] on the
/// concatenated chunks, whatever the chunk boundaries; memory use is constant (at most
/// three pending bytes). [`replacements`](Repairer::replacements) counts the U+FFFD
/// written.
///
/// ```
/// let mut r = vutf8::Repairer::new();
/// let mut out = String::new();
/// r.push(b"gr\xC3", &mut out);      // the 'ü' is split across chunks
/// r.push(b"\xBC\xC3e \xE2\x82", &mut out);
/// assert_eq!(r.replacements(), 1);
/// assert_eq!(r.finish(&mut out), 2);
/// assert_eq!(out, "grü\u{FFFD}e \u{FFFD}");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Repairer {
    /// Finds the errors; holds back the bytes of a sequence split across chunks.
    scanner: ErrorScanner,
    /// The U+FFFD written so far.
    replacements: u64,
}

impl Repairer {
    /// A decoder at the start of a stream.
    pub const fn new() -> Self {
        Repairer {
            scanner: ErrorScanner::new(),
            replacements: 0,
        }
    }

    /// How many U+FFFD [`push`](Repairer::push) wrote so far: one per ill-formed part
    /// (maximal subpart) decided. The parts held back at the end (up to 3 bytes) are
    /// written by [`finish`](Repairer::finish), which returns the count of the whole
    /// stream.
    pub fn replacements(&self) -> u64 {
        self.replacements
    }

    /// Repairs `chunk` and appends the result to `out`. A sequence that `chunk` ends inside
    /// is kept until the next call.
    pub fn push(&mut self, chunk: &[u8], out: &mut String) {
        // The bytes decided by this call are a prefix of `held` followed by `chunk`; the
        // scanner's error offsets are indices into that concatenation.
        let mut held = [0u8; 3];
        let held_len = self.scanner.pending().len();
        held[..held_len].copy_from_slice(self.scanner.pending());
        let held = &held[..held_len];
        let origin = self.scanner.decided();
        let writer = StreamRepairs {
            held,
            chunk,
            // SAFETY: only valid UTF-8 is appended to `out`'s text: the bytes between
            // errors, which the scanner reports in order, and U+FFFD for each error.
            out: Sink::after(unsafe { out.as_mut_vec() }),
            copied: 0,
            replaced: 0,
        };
        let mut writer = self.scanner.scan_spans(chunk, origin, writer);
        let decided = (self.scanner.decided() - origin) as usize;
        writer.copy_to(decided);
        self.replacements += writer.replaced;
        writer.out.finish();
    }

    /// Ends the stream: a sequence left incomplete becomes one U+FFFD. Returns how many
    /// U+FFFD the stream's text has in all (those of every `push` and of this call).
    pub fn finish(self, out: &mut String) -> u64 {
        let held = self.scanner.pending();
        let mut writer = StreamRepairs {
            held,
            chunk: &[],
            // SAFETY: as in `push`.
            out: Sink::after(unsafe { out.as_mut_vec() }),
            copied: 0,
            replaced: 0,
        };
        self.scanner.finish_from(
            self.scanner.decided(),
            &mut |e: crate::reference::error::Utf8Error| {
                writer.span(e.valid_up_to(), e.error_len());
            },
        );
        writer.copy_to(held.len());
        writer.out.finish();
        self.replacements + writer.replaced
    }
}

/// The writer of [`Repairer`]: the decided bytes are `held` followed by `chunk`; each error
/// is the valid run before it, then U+FFFD.
struct StreamRepairs<'a, 'v> {
    held: &'a [u8],
    chunk: &'a [u8],
    out: Sink<'v>,
    /// How many of the decided bytes were written.
    copied: usize,
    /// The U+FFFD written.
    replaced: u64,
}

impl StreamRepairs<'_, '_> {
    /// Writes the decided bytes from where the writing is to `to`.
    #[inline(always)]
    fn copy_to(&mut self, to: usize) {
        let (from, h) = (self.copied, self.held.len());
        self.out.bytes(&self.held[from.min(h)..to.min(h)]);
        self.out.run(self.chunk, from.max(h) - h, to.max(h) - h);
        self.copied = to;
    }
}

impl OnSpan for StreamRepairs<'_, '_> {
    #[inline(always)]
    fn span(&mut self, start: usize, error_len: Option<usize>) {
        self.copy_to(start);
        self.out.replacement();
        self.replaced += 1;
        let end = self.held.len() + self.chunk.len();
        self.copied = error_len.map_or(end, |n| start + n);
    }

    #[inline(always)]
    fn one_byte_errors(&mut self, start: usize, count: usize) {
        self.copy_to(start);
        for _ in 0..count {
            self.out.replacement();
        }
        self.replaced += count as u64;
        self.copied = start + count;
    }
}
