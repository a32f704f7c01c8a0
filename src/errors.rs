//! Every error, not just the first: [`errors`] over a slice and [`ErrorScanner`] over a
//! stream.
//!
//! # The idea
//!
//! Errors are rare in real text, so the fast validator does almost all of the work: it
//! runs over the rest of the input and stops at the next error. After an error the bytes
//! are often dense with errors (binary data, a wrong encoding), and restarting the vector
//! code for every error would cost more than decoding, so the scalar decoder takes the
//! next stretch:
//!
//! ```text
//! loop:
//!     fast validator on the rest of the input       -> no error: done
//!     at its error: yield it, resume after its maximal subpart
//!     scalar decoder until SCALAR_STRETCH bytes pass without an error
//!         (each error found there is yielded the same way)
//! ```
//!
//! Valid input costs one call of the fast validator, as [`crate::is_valid`] does.
//!
//! Where the search resumes after an error is the crate's one rule (`crate::decode`, "Where
//! decoding resumes after an error"), which `<[u8]>::utf8_chunks` follows too: the errors
//! are exactly the invalid parts of `utf8_chunks`.
//!
//! [`ErrorScanner`] does the same on a stream that arrives in chunks split anywhere. The
//! only state between chunks is the beginning (at most 3 bytes) of a sequence that a chunk
//! ends inside, or of an ill-formed sequence whose kind or code point depends on the bytes
//! after it (`C0` at the end of a chunk is "overlong" if a continuation byte follows).

use crate::decode::{self, Fault, Strict};
use crate::error::{stream_offset, Utf8Error};
use crate::scalar;

/// After an error, this many bytes are checked by the scalar decoder before the fast
/// validator takes over again: dense errors never pay the vector set-up, and a lone error
/// costs one stretch.
const SCALAR_STRETCH: usize = 64;

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
        stretch_end: 0,
    }
}

/// An iterator over every UTF-8 error in a byte slice, made by [`errors`].
///
/// Each error's [`valid_up_to`](Utf8Error::valid_up_to) is counted from the start of the
/// slice (it is where the ill-formed part starts; the bytes before it are not all valid
/// when an earlier error was yielded). After each error the iterator resumes after its
/// maximal subpart ([`error_len`](Utf8Error::error_len) bytes), as `String::from_utf8_lossy`
/// does: every invalid part of `<[u8]>::utf8_chunks` is one error here. `error_len()` is `None` only for the last error, when
/// the input ends inside a sequence.
///
/// On valid input, the first `next()` costs what [`crate::is_valid`] costs.
#[derive(Clone, Debug)]
pub struct Errors<'a> {
    bytes: &'a [u8],
    /// Where the search goes on: a character boundary after valid text or an error.
    pos: usize,
    /// Before this position, the scalar decoder searches (a stretch after an error).
    stretch_end: usize,
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
        self.stretch_end = self.pos + SCALAR_STRETCH;
    }

    /// The next error as the search finds it, the search moved past its maximal subpart;
    /// with `KINDS == false`, the kind of an error found by the scalar stretch is a
    /// placeholder.
    /// This is the one loop: fast validator, and a scalar stretch after each error.
    /// (Inlined into its callers, so that an error in a dense stretch is not returned
    /// through memory.)
    #[inline(always)]
    fn next_found<const KINDS: bool>(&mut self) -> Option<Found> {
        let len = self.bytes.len();
        let found = 'search: {
            if self.pos < self.stretch_end && self.pos < len {
                match scalar::check_until::<KINDS>(self.bytes, self.pos, self.stretch_end) {
                    Ok(stopped) => self.pos = stopped,
                    Err((at, fault)) => break 'search Found::Fault(at, fault),
                }
            }
            if self.pos >= len {
                return None;
            }
            match crate::engine::validate(&self.bytes[self.pos..]) {
                Ok(()) => {
                    self.pos = len;
                    return None;
                }
                Err(e) => Found::Full(e.shifted(self.pos)),
            }
        };
        let (at, error_len) = found.span();
        self.resume_at(match error_len {
            Some(n) => at + n,
            None => len,
        });
        Some(found)
    }

    /// The next error's start and [`error_len`](Utf8Error::error_len), without its
    /// details: for lossy decoding, which needs no more.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn next_span(&mut self) -> Option<(usize, Option<usize>)> {
        self.next_found::<false>().map(|f| f.span())
    }
}

/// An error as [`Errors`] finds it: complete from the fast validator, or from the scalar
/// stretch as a position and a [`Fault`] whose details are built only when asked for.
#[derive(Clone, Copy)]
enum Found {
    Full(Utf8Error),
    Fault(usize, Fault),
}

impl Found {
    /// Where the error starts and its `error_len`.
    #[inline(always)]
    fn span(&self) -> (usize, Option<usize>) {
        match *self {
            Found::Full(e) => (e.valid_up_to(), e.error_len()),
            Found::Fault(at, f) => (at, f.error_len()),
        }
    }
}

impl Iterator for Errors<'_> {
    type Item = Utf8Error;

    #[inline]
    fn next(&mut self) -> Option<Utf8Error> {
        Some(match self.next_found::<true>()? {
            Found::Full(e) => e,
            Found::Fault(at, f) => decode::error::<Strict>(&self.bytes[at..], f).shifted(at),
        })
    }
}

impl core::iter::FusedIterator for Errors<'_> {}

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
