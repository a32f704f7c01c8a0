//! Lossy decoding: replace each ill-formed part of the input with U+FFFD, exactly as
//! [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy) does.
//!
//! One U+FFFD per *maximal subpart* (the crate's one rule for where decoding resumes,
//! `crate::decode`, "Where decoding resumes after an error"), and [`crate::errors()`] yields
//! exactly these parts (the fast validator over the valid runs, the scalar decoder around
//! errors). So lossy decoding is: copy the valid run before each error, push U+FFFD, go on
//! after it.
//! Valid input is returned borrowed after one pass of the fast validator.
//!
//! [`Repairer`] does the same on a stream, in constant memory, on
//! [`crate::ErrorScanner`]: the scanner holds back at most three bytes of a
//! sequence split across chunks, and the output on a sequence of chunks equals
//! [`from_utf8_lossy`] on their concatenation.

use crate::error::Utf8Error;
use crate::errors::ErrorScanner;
use alloc::borrow::Cow;
use alloc::string::String;

/// The replacement character, U+FFFD.
const REPLACEMENT: &str = "\u{FFFD}";

/// Converts bytes to a string, replacing each maximal subpart of an ill-formed sequence
/// with U+FFFD: the same output as
/// [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy), faster.
///
/// ```
/// let fixed = vutf8::from_utf8_lossy(b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd");
/// assert_eq!(fixed, "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d");
/// ```
pub fn from_utf8_lossy(input: &[u8]) -> Cow<'_, str> {
    let mut errors = crate::errors::errors(input);
    let Some(mut span) = errors.next_span() else {
        // SAFETY: `errors` found no error: the bytes are valid UTF-8.
        return Cow::Borrowed(unsafe { core::str::from_utf8_unchecked(input) });
    };
    let mut out = String::with_capacity(input.len() + 16);
    let mut valid_from = 0;
    loop {
        let (bad, error_len) = span;
        if bad > valid_from {
            // SAFETY: `errors` yields every error in order, so the bytes between the end
            // of one error and the start of the next are valid UTF-8.
            unsafe { push_valid(&mut out, &[], &input[valid_from..bad]) };
        }
        out.push_str(REPLACEMENT);
        valid_from = error_len.map_or(input.len(), |n| bad + n);
        match errors.next_span() {
            Some(next) => span = next,
            None => break,
        }
    }
    // SAFETY: no error after the last one: the rest is valid UTF-8.
    unsafe { push_valid(&mut out, &[], &input[valid_from..]) };
    Cow::Owned(out)
}

/// Where the search goes on after error `e` in an input of `len` bytes.
#[inline]
fn end_of(e: &Utf8Error, len: usize) -> usize {
    match e.error_len() {
        Some(n) => e.valid_up_to() + n,
        None => len,
    }
}

/// Appends `head` followed by `tail`, which together are valid UTF-8 (each alone may end
/// or start inside a character).
///
/// # Safety
///
/// The concatenation of `head` and `tail` must be valid UTF-8.
#[inline]
unsafe fn push_valid(out: &mut String, head: &[u8], tail: &[u8]) {
    // Reserve first, so that nothing can panic between the two appends.
    out.reserve(head.len() + tail.len());
    // SAFETY: the caller guarantees that `head` and `tail` together are valid UTF-8, and
    // both are appended before `out` is used as a `String` again.
    let bytes = unsafe { out.as_mut_vec() };
    bytes.extend_from_slice(head);
    bytes.extend_from_slice(tail);
}

/// A streaming lossy decoder: feed chunks with [`push`](Repairer::push), end with
/// [`finish`](Repairer::finish). The output equals [`from_utf8_lossy`] on the
/// concatenated chunks, whatever the chunk boundaries; memory use is constant (at most
/// three pending bytes).
///
/// ```
/// let mut r = vutf8::Repairer::new();
/// let mut out = String::new();
/// r.push(b"gr\xC3", &mut out);      // the 'ü' is split across chunks
/// r.push(b"\xBC\xC3e \xE2\x82", &mut out);
/// r.finish(&mut out);
/// assert_eq!(out, "grü\u{FFFD}e \u{FFFD}");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Repairer {
    /// Finds the errors; holds back the bytes of a sequence split across chunks.
    scanner: ErrorScanner,
}

impl Repairer {
    /// A decoder at the start of a stream.
    pub const fn new() -> Self {
        Repairer {
            scanner: ErrorScanner::new(),
        }
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
        let mut copied = 0;
        self.scanner.scan(chunk, origin, &mut |e| {
            // SAFETY: the scanner reports every error in order, so the bytes from the end
            // of the last one to the start of this one are valid UTF-8.
            unsafe { push_part(out, held, chunk, copied, e.valid_up_to()) };
            out.push_str(REPLACEMENT);
            copied = end_of(&e, held.len() + chunk.len());
        });
        let decided = (self.scanner.decided() - origin) as usize;
        // SAFETY: the scanner found no error between the last one and what it holds back.
        unsafe { push_part(out, held, chunk, copied, decided) };
    }

    /// Ends the stream: a sequence left incomplete becomes one U+FFFD.
    pub fn finish(self, out: &mut String) {
        let held = self.scanner.pending();
        let mut copied = 0;
        self.scanner.finish_from(self.scanner.decided(), &mut |e| {
            // SAFETY: as in `push`: the bytes between errors are valid UTF-8.
            unsafe { push_part(out, held, &[], copied, e.valid_up_to()) };
            out.push_str(REPLACEMENT);
            copied = end_of(&e, held.len());
        });
        // SAFETY: no error after the last one.
        unsafe { push_part(out, held, &[], copied, held.len()) };
    }
}

/// Appends bytes `from..to` of the concatenation of `held` and `chunk`.
///
/// # Safety
///
/// Those bytes must be valid UTF-8.
#[inline]
unsafe fn push_part(out: &mut String, held: &[u8], chunk: &[u8], from: usize, to: usize) {
    let h = held.len();
    let head = &held[from.min(h)..to.min(h)];
    let tail = &chunk[from.max(h) - h..to.max(h) - h];
    // SAFETY: the caller guarantees that bytes `from..to` of `held` + `chunk`, which are
    // `head` followed by `tail`, are valid UTF-8.
    unsafe { push_valid(out, head, tail) };
}
