//! Lossy decoding: replace each ill-formed part of the input with U+FFFD, exactly as
//! [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy) does.
//!
//! Unicode chapter 3 ("U+FFFD Substitution of Maximal Subparts") fixes how many
//! replacement characters an ill-formed sequence gets: one per *maximal subpart*, the
//! longest prefix of a well-formed sequence at the error (at least one byte). That is the
//! `error_len` of [`Utf8Error`]; an input that ends inside a sequence gets one U+FFFD.
//!
//! The work is split by how dense the errors are:
//!
//! ```text
//! loop:
//!     vector validator on the rest        -> copy the valid run (memcpy speed)
//!     at its error: push U+FFFD, skip error_len bytes
//!     scalar decoder until 64 bytes pass without an error
//!         (dense errors never pay the vector set-up; a lone error costs one stretch)
//! ```
//!
//! Valid input is returned borrowed after one vector pass.
//!
//! [`Repairer`] does the same on a stream, in constant memory: it keeps at most three
//! bytes of a sequence split across chunks, and its output on a sequence of chunks equals
//! [`from_utf8_lossy`] on their concatenation.

use crate::error::Utf8Error;
use crate::scalar::{decode_char, Decoded};
use alloc::borrow::Cow;
use alloc::string::String;

/// The replacement character, U+FFFD.
const REPLACEMENT: &str = "\u{FFFD}";

/// After an error, this many bytes are decoded by the scalar decoder before the vector
/// validator takes over again.
const SCALAR_STRETCH: usize = 64;

/// Converts bytes to a string, replacing each maximal subpart of an ill-formed sequence
/// with U+FFFD: the same output as
/// [`String::from_utf8_lossy`](alloc::string::String::from_utf8_lossy), faster.
///
/// ```
/// let fixed = vutf8::from_utf8_lossy(b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd");
/// assert_eq!(fixed, "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d");
/// ```
pub fn from_utf8_lossy(input: &[u8]) -> Cow<'_, str> {
    let first = match crate::validate(input) {
        // SAFETY: `crate::validate` just checked that the bytes are valid UTF-8.
        Ok(()) => return Cow::Borrowed(unsafe { core::str::from_utf8_unchecked(input) }),
        Err(e) => e,
    };
    let mut out = String::with_capacity(input.len() + 16);
    let unfinished = repair_after(input, first, &mut out, true);
    debug_assert_eq!(unfinished, input.len());
    Cow::Owned(out)
}

/// Appends the repair of `input` to `out`.
///
/// With `at_end == false`, a sequence that `input` ends inside is not replaced: the return
/// value is where it starts (the caller keeps those bytes for the next chunk). Otherwise
/// the return value is `input.len()`.
fn repair(input: &[u8], out: &mut String, at_end: bool) -> usize {
    match crate::validate(input) {
        Ok(()) => {
            // SAFETY: `crate::validate` just checked that the bytes are valid UTF-8.
            out.push_str(unsafe { core::str::from_utf8_unchecked(input) });
            input.len()
        }
        Err(e) => repair_after(input, e, out, at_end),
    }
}

/// [`repair`], given the first error of `input`.
fn repair_after(input: &[u8], first: Utf8Error, out: &mut String, at_end: bool) -> usize {
    let mut pos = 0;
    let mut err = first;
    loop {
        // `input[pos..]` was checked by the vector validator: valid up to `err`.
        let bad = pos + err.valid_up_to();
        // SAFETY: the vector validator found `input[pos..bad]` valid (`bad` is where its
        // first error starts).
        unsafe { push_valid(out, &input[pos..bad]) };
        let Some(len) = err.error_len() else {
            // The input ends inside a sequence.
            if !at_end {
                return bad;
            }
            out.push_str(REPLACEMENT);
            return input.len();
        };
        out.push_str(REPLACEMENT);
        pos = bad + len;
        // Scalar stretch: decode until SCALAR_STRETCH bytes pass without an error.
        let mut clean_from = pos; // start of the current valid run
        while pos < input.len() && pos - clean_from < SCALAR_STRETCH {
            match step(input, pos) {
                Step::Valid(n) => pos += n,
                Step::Bad(n) => {
                    // SAFETY: `step` found whole valid characters from `clean_from` to `pos`.
                    unsafe { push_valid(out, &input[clean_from..pos]) };
                    out.push_str(REPLACEMENT);
                    pos += n;
                    clean_from = pos;
                }
                Step::Incomplete => {
                    // SAFETY: `step` found whole valid characters from `clean_from` to `pos`.
                    unsafe { push_valid(out, &input[clean_from..pos]) };
                    if !at_end {
                        return pos;
                    }
                    out.push_str(REPLACEMENT);
                    return input.len();
                }
            }
        }
        // SAFETY: `step` found whole valid characters from `clean_from` to `pos`.
        unsafe { push_valid(out, &input[clean_from..pos]) };
        // Back to the vector validator.
        match crate::validate(&input[pos..]) {
            Ok(()) => {
                // SAFETY: the vector validator just found `input[pos..]` valid.
                unsafe { push_valid(out, &input[pos..]) };
                return input.len();
            }
            Err(e) => err = e,
        }
    }
}

/// What [`step`] found at one position.
enum Step {
    /// A well-formed character of this many bytes.
    Valid(usize),
    /// An ill-formed sequence whose maximal subpart has this many bytes.
    Bad(usize),
    /// The input ends inside a sequence.
    Incomplete,
}

/// The scalar decoder of [`crate::scalar::decode_char`], reduced to what lossy decoding
/// needs (lengths only, no error kinds), so that dense errors cost no more than in std.
#[inline(always)]
fn step(input: &[u8], pos: usize) -> Step {
    let lead = input[pos];
    if lead < 0x80 {
        return Step::Valid(1);
    }
    let (len, lo, hi) = match lead {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Step::Bad(1),
    };
    match input.get(pos + 1) {
        None => return Step::Incomplete,
        Some(&second) if !(lo..=hi).contains(&second) => return Step::Bad(1),
        Some(_) => {}
    }
    for i in 2..len {
        match input.get(pos + i) {
            None => return Step::Incomplete,
            Some(&b) if b & 0xC0 != 0x80 => return Step::Bad(i),
            Some(_) => {}
        }
    }
    Step::Valid(len)
}

/// Appends bytes that were checked to be valid UTF-8.
///
/// # Safety
///
/// `valid` must be valid UTF-8.
#[inline]
unsafe fn push_valid(out: &mut String, valid: &[u8]) {
    // SAFETY: the caller guarantees that `valid` is valid UTF-8.
    out.push_str(unsafe { core::str::from_utf8_unchecked(valid) });
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
    /// The start of a sequence that the previous chunk ended inside.
    pending: [u8; 3],
    pending_len: u8,
}

impl Repairer {
    /// A decoder at the start of a stream.
    pub const fn new() -> Self {
        Repairer {
            pending: [0; 3],
            pending_len: 0,
        }
    }

    /// Repairs `chunk` and appends the result to `out`. A sequence that `chunk` ends inside
    /// is kept until the next call.
    pub fn push(&mut self, chunk: &[u8], out: &mut String) {
        let mut chunk = chunk;
        if self.pending_len > 0 {
            // Finish the split sequence with at most 3 bytes of the chunk: a sequence that
            // starts in the pending bytes ends within them.
            let p = usize::from(self.pending_len);
            let take = chunk.len().min(3);
            let mut joined = [0u8; 6];
            joined[..p].copy_from_slice(&self.pending[..p]);
            joined[p..p + take].copy_from_slice(&chunk[..take]);
            let joined = &joined[..p + take];
            let mut pos = 0;
            self.pending_len = 0;
            while pos < p {
                match decode_char(&joined[pos..]) {
                    Decoded::Char(c, n) => {
                        out.push(c);
                        pos += n;
                    }
                    Decoded::Error(e) => match e.error_len() {
                        Some(n) => {
                            out.push_str(REPLACEMENT);
                            pos += n;
                        }
                        None => {
                            // Still incomplete: the whole chunk was taken (take < 3).
                            let rest = &joined[pos..];
                            self.pending[..rest.len()].copy_from_slice(rest);
                            self.pending_len = rest.len() as u8;
                            return;
                        }
                    },
                }
            }
            chunk = &chunk[pos - p..];
        }
        let done = repair(chunk, out, false);
        let rest = &chunk[done..];
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len() as u8;
    }

    /// Ends the stream: a sequence left incomplete becomes one U+FFFD.
    pub fn finish(self, out: &mut String) {
        if self.pending_len > 0 {
            out.push_str(REPLACEMENT);
        }
    }
}
