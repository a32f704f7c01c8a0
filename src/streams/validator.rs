//! [`Validator`]: incremental validation of a stream that arrives in chunks of any size.
//!
//! # The idea
//!
//! A chunk boundary can fall inside a character, so a chunk on its own may end with the
//! first 1 to 3 bytes of a sequence (an *open* sequence) and the next chunk may start with
//! its continuation bytes. Everything else about a chunk can be checked by the one-shot
//! vector path ([`crate::engine::validate`]) without knowing what came before, because every
//! character before the open sequence is complete. So the state between chunks is tiny:
//!
//! - `carry`: the bytes of the open sequence (at most 3; a valid prefix of some
//!   well-formed sequence, since anything else is already an error, with one exception
//!   below);
//! - `offset`: how many bytes of the stream precede the open sequence (all of them valid);
//! - the first error, once there is one (every later call returns it again).
//!
//! `update(chunk)` then works in two steps:
//!
//! ```text
//! if carry is not empty:
//!     take the 1..=3 bytes of `chunk` that the open sequence still needs
//!     decode carry + those bytes with the scalar decoder (at most 4 bytes):
//!         a character  -> offset += its length, carry = [], go on with the rest of chunk
//!         still open   -> chunk is used up: carry += chunk, return Ok
//!         an error     -> the error is at `offset`: remember and return it
//! cut = start of the character the chunk cuts off (a lead byte among the last 3 bytes
//!       that announces more bytes than there are), or the end of the chunk
//! run the fast yes/no vector check over the rest of the chunk up to `cut`:
//!     valid -> offset += cut - start; carry the bytes after `cut` (after checking with
//!              the scalar decoder that they are the beginning of a character)
//!     not valid -> run the exact path (vector, then scalar at the error) over the rest:
//!         ends inside a sequence (None) -> carry those 1..=3 bytes
//!         an error                      -> shift it by `offset`, remember and return it
//! ```
//!
//! Splitting off the open character first keeps the exact-error path (which would report
//! "input ends inside a sequence" for most chunks of non-ASCII text) off the common path.
//!
//! `finish()` reports a stream that ends with an open sequence, exactly like the one-shot
//! API reports input that ends inside a sequence (`error_len() == None`).
//!
//! The exception: an error can be certain before its details are. `C0` is an error
//! whatever follows, but `C0 AF` is an overlong `/` while `C0 41` is an invalid byte; and
//! the code point of the surrogate `ED A0 80` needs its last byte. When a chunk ends inside
//! such a sequence, the up to 3 bytes are carried like an open sequence, and the next
//! `update` (or `finish`) reports the error, so that it is equal in every field to the
//! one-shot error.
//!
//! The errors are those of [`crate::from_utf8`] on the whole stream: the scalar decoder
//! only ever sees a complete character or a prefix of one, and when it sees an ill-formed
//! one it reports the same maximal subpart the one-shot API would, since that depends only
//! on the bytes from the lead byte on.
//!
//! Offsets are counted in `u64`, so a stream longer than 4 GiB is fine on any target; an
//! error's [`valid_up_to`](Utf8Error::valid_up_to) is a `usize` and saturates at
//! `usize::MAX` on 32-bit targets past 4 GiB (use [`Validator::valid_up_to`] there).

use crate::reference::error::{stream_offset, Utf8Error};
use crate::reference::grammar::{announced_len, is_continuation};
use crate::reference::scalar::{self, Decoded};

/// Validates UTF-8 that arrives in pieces: network reads, file chunks, anything.
///
/// Feed it chunks of any length with [`update`](Validator::update), split anywhere (also
/// inside a character), then call [`finish`](Validator::finish). Errors are those that
/// [`crate::from_utf8`] would report for the whole stream at once: `valid_up_to()` counts
/// every byte of the stream before the error, across chunks.
///
/// ```
/// let mut v = vutf8::Validator::new();
/// // "€" is E2 82 AC; split it across chunks.
/// v.update(b"price: \xE2")?;
/// v.update(b"\x82")?;
/// v.update(b"\xAC 5")?;
/// assert_eq!(v.bytes_seen(), 12);
/// v.finish()?;
///
/// let mut v = vutf8::Validator::new();
/// v.update(b"ab\xE2\x82")?; // may still be completed
/// let err = v.update(b"x").unwrap_err(); // E2 82 cut short by "x"
/// assert_eq!((err.valid_up_to(), err.error_len()), (2, Some(2)));
/// assert_eq!(v.update(b"more").unwrap_err(), err); // errors are sticky
///
/// let mut v = vutf8::Validator::new();
/// v.update(b"ok \xF0\x9F")?;
/// let err = v.finish().unwrap_err(); // the stream ends inside a character
/// assert_eq!((err.valid_up_to(), err.error_len()), (3, None));
/// # Ok::<(), vutf8::Utf8Error>(())
/// ```
///
/// It never allocates, holds at most 3 bytes of data, and works without `std`.
#[derive(Clone, Debug, Default)]
pub struct Validator {
    /// Bytes of the stream before `carry`, all valid.
    offset: u64,
    /// The open sequence at the end of what was seen: `carry[..carry_len]`.
    carry: [u8; 4],
    carry_len: u8,
    /// The first error, once found.
    error: Option<Utf8Error>,
}

/// Where the character that `bytes` cuts off starts: the position of a lead byte among the
/// last 3 bytes that announces more bytes than there are; `bytes.len()` if there is none.
#[inline]
fn open_tail(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for k in 1..=len.min(3) {
        let b = bytes[len - k];
        if !is_continuation(b) {
            return if announced_len(b) > k { len - k } else { len };
        }
    }
    len
}

impl Validator {
    /// A validator at the start of a stream.
    #[inline]
    pub const fn new() -> Self {
        Validator {
            offset: 0,
            carry: [0; 4],
            carry_len: 0,
            error: None,
        }
    }

    /// Checks the next `chunk` of the stream (any length, split anywhere).
    ///
    /// Returns the first error of the stream as soon as it is certain, with `valid_up_to()`
    /// counted from the start of the stream. An error can lie before `chunk`: when `chunk`
    /// shows that an open sequence at the end of the previous chunk is ill-formed. Once an
    /// error was returned, every later call returns the same error.
    ///
    /// An input that ends inside a character is not an error here (the next chunk may
    /// complete it); [`finish`](Validator::finish) reports it.
    #[inline]
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if chunk.is_empty() {
            return Ok(());
        }
        let mut rest = chunk;
        if self.carry_len != 0 {
            rest = self.complete_carry(chunk)?;
            if self.carry_len != 0 {
                // The chunk was too short to complete the character.
                return Ok(());
            }
        }
        // Validate up to the character that the chunk cuts off, if any, with the fast
        // yes/no check; that character's 1..=3 bytes are carried. Only on an error does
        // the exact path run (again) over the whole rest.
        let cut = open_tail(rest);
        if crate::engine::is_valid_at(&rest[..cut], self.offset) {
            self.offset += cut as u64;
            let tail = &rest[cut..];
            if tail.is_empty() {
                return Ok(());
            }
            if let Decoded::Error(e) = scalar::decode_char(tail) {
                if e.error_len == 0 || e.needs_more(tail.len()) {
                    self.carry[..tail.len()].copy_from_slice(tail);
                    self.carry_len = tail.len() as u8;
                    return Ok(());
                }
            }
            // Not reached: the tail is a lead byte and too few bytes for its sequence.
            return self.validate_rest(tail);
        }
        self.validate_rest(rest)
    }

    /// Validates `rest`, which starts at `offset` on a character boundary, with the exact
    /// error path: carries an open sequence at its end, or records the error.
    #[cold]
    #[inline(never)]
    fn validate_rest(&mut self, rest: &[u8]) -> Result<(), Utf8Error> {
        match crate::engine::validate(rest) {
            Ok(()) => {
                self.offset += rest.len() as u64;
                Ok(())
            }
            Err(e) if e.error_len == 0 || e.needs_more(rest.len() - e.valid_up_to) => {
                // `rest` ends inside a sequence (or inside an ill-formed one whose details
                // depend on the next bytes): keep its 1..=3 bytes for the next chunk.
                let open = &rest[e.valid_up_to..];
                self.carry[..open.len()].copy_from_slice(open);
                self.carry_len = open.len() as u8;
                self.offset += e.valid_up_to as u64;
                Ok(())
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Adds the first bytes of `chunk` to the open sequence in `carry` and decodes it.
    /// Returns the part of `chunk` after the completed character (empty when the character
    /// is still open, in which case `carry` holds all of it).
    #[inline(never)]
    fn complete_carry<'a>(&mut self, chunk: &'a [u8]) -> Result<&'a [u8], Utf8Error> {
        let have = usize::from(self.carry_len);
        let need = announced_len(self.carry[0]) - have;
        let take = need.min(chunk.len());
        let mut buf = self.carry;
        buf[have..have + take].copy_from_slice(&chunk[..take]);
        match scalar::decode_char(&buf[..have + take]) {
            Decoded::Char(_, len) => {
                self.offset += len as u64;
                self.carry_len = 0;
                Ok(&chunk[take..])
            }
            Decoded::Error(e) if e.error_len == 0 || e.needs_more(have + take) => {
                self.carry = buf;
                self.carry_len = (have + take) as u8;
                Ok(&[])
            }
            Decoded::Error(e) => Err(self.fail(e)),
        }
    }

    /// Records `e` (relative to `offset`) as the stream's error and returns it.
    #[cold]
    fn fail(&mut self, mut e: Utf8Error) -> Utf8Error {
        e.valid_up_to = stream_offset(self.offset + e.valid_up_to as u64);
        self.error = Some(e);
        e
    }

    /// Ends the stream: `Ok` if everything fed to [`update`](Validator::update) was valid
    /// UTF-8 and did not end inside a character.
    ///
    /// A stream that ends inside a character gives an [`ErrorKind::Incomplete`](crate::ErrorKind::Incomplete) error with
    /// `error_len() == None`, exactly as [`crate::from_utf8`] reports it.
    pub fn finish(self) -> Result<(), Utf8Error> {
        match self.check_end() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The error [`finish`](Validator::finish) would return now, without ending the stream.
    pub fn check_end(&self) -> Option<Utf8Error> {
        if self.error.is_some() {
            return self.error;
        }
        if self.carry_len == 0 {
            return None;
        }
        let mut e = match scalar::decode_char(self.pending()) {
            Decoded::Error(e) => e,
            // Unreachable: `carry` only holds an open sequence. Say so rather than panic.
            Decoded::Char(..) => Utf8Error::incomplete(announced_len(self.carry[0])),
        };
        e.valid_up_to = stream_offset(self.offset);
        Some(e)
    }

    /// The number of bytes passed to [`update`](Validator::update) so far. After an
    /// error it stops at the error: it is then the error's `valid_up_to()`.
    #[inline]
    pub fn bytes_seen(&self) -> u64 {
        match self.error {
            Some(e) => e.valid_up_to as u64,
            None => self.offset + u64::from(self.carry_len),
        }
    }

    /// The number of bytes at the start of the stream known to be valid UTF-8, ending on a
    /// character boundary: [`bytes_seen`](Validator::bytes_seen) minus the bytes of a
    /// character still open, or the error's `valid_up_to()` after an error.
    #[inline]
    pub fn valid_up_to(&self) -> u64 {
        match self.error {
            Some(e) => e.valid_up_to as u64,
            None => self.offset,
        }
    }

    /// The bytes (0 to 3) at the end of what was seen that are held back for the next
    /// chunk to decide: almost always the valid beginning of a character that is still
    /// open. (Rarely, the beginning of an ill-formed sequence whose error is certain but
    /// whose [`kind`](Utf8Error::kind) or [`code_point`](Utf8Error::code_point) depends on
    /// the next bytes, such as a final `C0`, or `ED A0` of the surrogate `ED A0 80`: so
    /// that errors equal those of [`crate::from_utf8`], the error is reported by the next
    /// `update` or by [`finish`](Validator::finish).) Empty after an error.
    #[inline]
    pub fn pending(&self) -> &[u8] {
        if self.error.is_some() {
            return &[];
        }
        &self.carry[..usize::from(self.carry_len)]
    }

    /// The first error of the stream, once [`update`](Validator::update) has found one.
    #[inline]
    pub fn error(&self) -> Option<Utf8Error> {
        self.error
    }
}
