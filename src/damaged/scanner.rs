//! Every error of a stream that arrives in chunks split anywhere: [`ErrorScanner`], which
//! is [`errors`] for a stream.
//!
//! The only state between chunks is the beginning (at most 3 bytes) of a sequence that a
//! chunk ends inside, or of an ill-formed sequence whose kind or code point depends on the
//! bytes after it (`C0` at the end of a chunk is "overlong" if a continuation byte
//! follows). Those bytes are decided by the scalar decoder with the next chunk's first
//! bytes; the rest of each chunk goes to [`errors`] (or, for the lossy decoders, to
//! `for_each_span`, which tells only where and how long).
//!
//! Next: `crate::damaged::lossy`, whose stream decoders hold a scanner.

use crate::damaged::every_error::errors;
#[cfg(feature = "alloc")]
use crate::damaged::every_error::{for_each_span, OnSpan};
use crate::reference::error::{stream_offset, Utf8Error};
use crate::reference::scalar;

/// Every error of a stream that arrives in chunks: [`errors`] for input split anywhere.
///
/// Feed chunks with [`update`](ErrorScanner::update), end with
/// [`finish`](ErrorScanner::finish); each error goes to the `on_error` callback as soon as
/// it is certain, with [`valid_up_to`](Utf8Error::valid_up_to) counted from the start of
/// the stream. The errors are exactly those of [`errors`] on the concatenated chunks,
/// wherever the chunks are split (inside a character or inside an ill-formed part). Unlike
/// [`crate::Validator`], it carries on after an error.
///
/// ```
/// let mut scanner = vutf8::ErrorScanner::new();
/// let mut found = Vec::new();
/// scanner.update(b"ok \xE2\x82", |e| found.push(e.valid_up_to()));
/// scanner.update(b"\xAC \xFF x \xC0", |e| found.push(e.valid_up_to()));
/// scanner.update(b"\xAF \xF0\x9F", |e| found.push(e.valid_up_to()));
/// assert_eq!(scanner.offset(), 16);
/// scanner.finish(|e| found.push(e.valid_up_to()));
/// // FF; C0 (overlong: C0 AF) and AF; F0 9F (open at the end)
/// assert_eq!(found, [7, 11, 12, 14]);
/// ```
///
/// It never allocates, holds at most 3 bytes of data, and works without `std`.
#[derive(Clone, Debug, Default)]
pub struct ErrorScanner {
    /// Bytes of the stream before `carry`.
    offset: u64,
    /// The beginning of a sequence that the last chunk ended inside: `carry[..carry_len]`.
    carry: [u8; 3],
    carry_len: u8,
}

impl ErrorScanner {
    /// A scanner at the start of a stream.
    #[inline]
    pub const fn new() -> Self {
        ErrorScanner {
            offset: 0,
            carry: [0; 3],
            carry_len: 0,
        }
    }

    /// The number of bytes passed to [`update`](ErrorScanner::update) so far (as
    /// [`crate::Validator::bytes_seen`]).
    #[inline]
    pub fn offset(&self) -> u64 {
        self.offset + u64::from(self.carry_len)
    }

    /// The bytes (0 to 3) at the end of what was seen that are held back for the next
    /// chunk to decide: the beginning of a sequence that is still open, or of an ill-formed
    /// one whose kind or code point depends on the next bytes.
    #[inline]
    pub fn pending(&self) -> &[u8] {
        &self.carry[..usize::from(self.carry_len)]
    }

    /// Scans the next `chunk` of the stream (any length, split anywhere) and calls
    /// `on_error` for each error that is now certain, in order. An error can start before
    /// `chunk` (in the bytes held back from the previous chunk).
    pub fn update(&mut self, chunk: &[u8], mut on_error: impl FnMut(Utf8Error)) {
        self.scan(chunk, 0, &mut on_error);
    }

    /// [`update`](ErrorScanner::update), with errors' offsets counted from stream offset
    /// `origin` (at most [`decided`](ErrorScanner::decided)) instead of from the start of
    /// the stream: for callers that index into the held-back bytes and `chunk`, and must
    /// not depend on stream offsets fitting a `usize`.
    #[inline]
    pub(crate) fn scan(&mut self, chunk: &[u8], origin: u64, on_error: &mut impl FnMut(Utf8Error)) {
        let mut rest = chunk;
        if self.carry_len != 0 {
            match self.complete_carry(chunk, origin, on_error) {
                Some(r) => rest = r,
                None => return,
            }
        }
        for e in errors(rest) {
            let at = e.valid_up_to();
            if e.error_len().is_none() || e.needs_more(rest.len() - at) {
                // The chunk ends inside this sequence (at most 3 bytes): keep it. Errors
                // after it lie in those bytes and are found again with the next chunk.
                self.hold(&rest[at..]);
                self.offset += at as u64;
                return;
            }
            on_error(e.shifted(stream_offset(self.offset - origin)));
        }
        self.offset += rest.len() as u64;
    }

    /// [`scan`](ErrorScanner::scan) for the lossy decoders, which need where each error
    /// starts and how long it is, not why: told to `on` (taken and given back, so that a
    /// writer's state stays in registers), the start counted from stream offset `origin`.
    /// An error that ends where the chunk does is told unless more bytes could still make
    /// it longer (a sequence left open): its details may need the next bytes, its span
    /// does not.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn scan_spans<S: OnSpan>(&mut self, chunk: &[u8], origin: u64, on: S) -> S {
        let mut on = on;
        let mut rest = chunk;
        if self.carry_len != 0 {
            let mut on_error = |e: Utf8Error| on.span(e.valid_up_to(), e.error_len());
            match self.complete_carry(chunk, origin, &mut on_error) {
                Some(r) => rest = r,
                None => return on,
            }
        }
        let shifted = for_each_span(
            rest,
            0,
            false,
            Shifted {
                inner: on,
                base: stream_offset(self.offset - origin),
                open: None,
            },
        );
        match shifted.open {
            Some(at) => {
                // The chunk ends inside this sequence (at most 3 bytes): keep it.
                self.hold(&rest[at..]);
                self.offset += at as u64;
            }
            None => self.offset += rest.len() as u64,
        }
        shifted.inner
    }

    /// Decodes the held-back bytes with the first bytes of `chunk` and reports the errors
    /// that start in them. Returns the part of `chunk` after the last sequence that starts
    /// in the held-back bytes, or `None` when the chunk was used up (and the bytes are
    /// held back again).
    #[inline(never)]
    fn complete_carry<'c>(
        &mut self,
        chunk: &'c [u8],
        origin: u64,
        on_error: &mut impl FnMut(Utf8Error),
    ) -> Option<&'c [u8]> {
        let held = usize::from(self.carry_len);
        // A sequence that starts in the held bytes ends within 3 bytes after them.
        let take = chunk.len().min(3);
        let whole_chunk = take == chunk.len();
        let mut buf = [0u8; 6];
        buf[..held].copy_from_slice(&self.carry[..held]);
        buf[held..held + take].copy_from_slice(&chunk[..take]);
        let joined = &buf[..held + take];
        let mut pos = 0;
        while pos < held {
            match scalar::decode_char(&joined[pos..]) {
                scalar::Decoded::Char(_, n) => pos += n,
                scalar::Decoded::Error(e) => {
                    let open = e.error_len().is_none()
                        || (whole_chunk && e.needs_more(joined.len() - pos));
                    match e.error_len() {
                        Some(n) if !open => {
                            on_error(e.shifted(stream_offset(self.offset + pos as u64 - origin)));
                            pos += n;
                        }
                        // Still undecided, so the whole chunk was taken: keep it all.
                        _ => {
                            self.offset += pos as u64;
                            self.hold(&joined[pos..]);
                            return None;
                        }
                    }
                }
            }
        }
        self.offset += pos as u64;
        self.carry_len = 0;
        Some(&chunk[pos - held..])
    }

    /// Holds back `bytes` (at most 3) for the next chunk.
    #[inline]
    fn hold(&mut self, bytes: &[u8]) {
        self.carry[..bytes.len()].copy_from_slice(bytes);
        self.carry_len = bytes.len() as u8;
    }

    /// Ends the stream: reports the errors in the bytes held back, if any (a sequence left
    /// open at the end is an error with `error_len() == None`, as in [`errors`]).
    pub fn finish(self, mut on_error: impl FnMut(Utf8Error)) {
        self.finish_from(0, &mut on_error);
    }

    /// [`finish`](ErrorScanner::finish), with offsets counted from `origin` as in
    /// [`scan`](ErrorScanner::scan).
    #[inline]
    pub(crate) fn finish_from(&self, origin: u64, on_error: &mut impl FnMut(Utf8Error)) {
        let offset = stream_offset(self.offset - origin);
        for e in errors(self.pending()) {
            on_error(e.shifted(offset));
        }
    }

    /// The stream offset of the first byte held back ([`pending`](ErrorScanner::pending)):
    /// everything before it is decided.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn decided(&self) -> u64 {
        self.offset
    }
}

/// [`ErrorScanner::scan_spans`]'s errors, moved `base` bytes later; a sequence left open at
/// the end of the chunk is kept aside (`open`), not told.
#[cfg(feature = "alloc")]
struct Shifted<S> {
    inner: S,
    base: usize,
    open: Option<usize>,
}

#[cfg(feature = "alloc")]
impl<S: OnSpan> OnSpan for Shifted<S> {
    #[inline(always)]
    fn span(&mut self, start: usize, error_len: Option<usize>) {
        match error_len {
            Some(n) => self.inner.span(self.base + start, Some(n)),
            None => self.open = Some(start),
        }
    }

    #[inline(always)]
    fn one_byte_errors(&mut self, start: usize, count: usize) {
        self.inner.one_byte_errors(self.base + start, count);
    }
}
