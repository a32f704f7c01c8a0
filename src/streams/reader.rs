//! [`Reader`] and [`StrChunks`]: validate UTF-8 while it is being read.
//!
//! # The idea
//!
//! Both wrap a [`Validator`] and use its one guarantee: after each `update`, everything it
//! has seen is valid except at most 3 trailing bytes of a character that is still open
//! ([`Validator::pending`]). So they hand out the bytes up to that character at once and
//! hold those 1 to 3 bytes back until the next read completes (or breaks) the character.
//! The caller therefore only ever sees bytes that are valid UTF-8 and end on a character
//! boundary.
//!
//! - [`Reader`] wraps any [`Read`]. Each `read` copies the held-back bytes to the front of
//!   the caller's buffer, reads into the rest of it, validates the new bytes in place and
//!   returns the length of the valid part. (Buffers under 8 bytes go through a small
//!   internal one, so even `read` into a 1-byte buffer works; only a buffer shorter than
//!   a character gets part of one.) At the first invalid byte it
//!   first returns the valid bytes before it, then an [`io::Error`] of kind
//!   [`InvalidData`](io::ErrorKind::InvalidData) that wraps the [`Utf8Error`], with the
//!   offset counted from the start of the stream.
//! - [`StrChunks`] wraps a [`BufRead`] and lends `&str` pieces straight out of its buffer,
//!   without copying: each piece is the valid part of what `fill_buf` returned. A
//!   character cut by the end of the buffer is completed from the next `fill_buf` into a
//!   4-byte buffer of its own and lent as a piece of its own.

use std::io::{self, BufRead, Read};

use crate::reference::error::Utf8Error;
use crate::reference::grammar::{announced_len, is_continuation};
use crate::streams::validator::Validator;

/// The `io::Error` for a UTF-8 error: kind `InvalidData`, with the `Utf8Error` inside.
fn invalid_data(e: Utf8Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Caller buffers shorter than this are filled through `Reader::spare`.
const SMALL: usize = 8;

/// A [`Read`] adapter that passes bytes through while checking that they are UTF-8.
///
/// Every successful `read` returns only bytes that are valid UTF-8 and end on a character
/// boundary (except into a buffer too short for the next character, which gets the
/// character in several reads): the 1 to 3 bytes of a character that a read of the inner reader leaves open
/// are held back until the next read completes it. At the first invalid byte, `read` first
/// returns the valid bytes before it (if any), then fails with an [`io::Error`] of kind
/// [`InvalidData`](io::ErrorKind::InvalidData) whose inner error is the [`Utf8Error`], with
/// `valid_up_to()` counted from the start of the stream. Later reads return the same
/// error. A stream that ends inside a character fails the same way at the end, with
/// `error_len() == None`.
///
/// Errors of the inner reader, [`Interrupted`](io::ErrorKind::Interrupted) included, are
/// passed on unchanged and lose nothing: calling `read` again carries on.
///
/// ```
/// use std::io::Read;
///
/// let mut text = String::new();
/// vutf8::Reader::new("grüße 🌍".as_bytes()).read_to_string(&mut text)?;
/// assert_eq!(text, "grüße 🌍");
///
/// let mut out = Vec::new();
/// let err = vutf8::Reader::new(&b"ok\xC0\xAF"[..]).read_to_end(&mut out).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let utf8 = err.get_ref().unwrap().downcast_ref::<vutf8::Utf8Error>().unwrap();
/// assert_eq!(utf8.valid_up_to(), 2);
/// assert_eq!(out, b"ok"); // only the valid bytes were handed out
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    validator: Validator,
    /// Valid bytes that did not fit a small caller buffer: `spare[spare_start..spare_end]`.
    spare: [u8; SMALL],
    spare_start: u8,
    spare_end: u8,
    /// The stream ended inside a character: this error, for good.
    ended: Option<Utf8Error>,
}

impl<R> Reader<R> {
    /// Wraps `inner`; the stream starts at offset 0.
    pub fn new(inner: R) -> Self {
        Reader {
            inner,
            validator: Validator::new(),
            spare: [0; SMALL],
            spare_start: 0,
            spare_end: 0,
            ended: None,
        }
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader. Reading from it directly skips validation of those bytes and
    /// makes later errors' offsets wrong.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The validator's state: [`Validator::valid_up_to`] is the number of bytes handed
    /// out so far plus those held back in a small buffer, [`Validator::pending`] the bytes
    /// of an open character held back.
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Unwraps the inner reader. Bytes already read from it but not yet returned (at most
    /// 3 bytes of an open character, and up to 7 valid bytes when `read` was called with
    /// buffers under 8 bytes) are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Reader<R> {
    /// Reads into `buf` (at least 4 bytes) and returns the number of bytes at its start
    /// that are valid and end on a character boundary; 0 only at the end of the stream.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(e) = self.validator.error().or(self.ended) {
                return Err(invalid_data(e));
            }
            let held = self.validator.pending().len();
            buf[..held].copy_from_slice(self.validator.pending());
            let n = self.inner.read(&mut buf[held..])?;
            if n == 0 {
                self.ended = self.validator.check_end();
                return match self.ended {
                    Some(e) => Err(invalid_data(e)),
                    None => Ok(0),
                };
            }
            // The stream offset of `buf[0]`.
            let start = self.validator.valid_up_to();
            match self.validator.update(&buf[held..held + n]) {
                Ok(()) => {
                    let valid = held + n - self.validator.pending().len();
                    if valid > 0 {
                        return Ok(valid);
                    }
                    // Everything so far is the start of one character: read on.
                }
                Err(e) => {
                    let valid = (e.valid_up_to() as u64).saturating_sub(start);
                    return match usize::try_from(valid) {
                        // The valid bytes first; the next call returns the error.
                        Ok(valid) if valid > 0 => Ok(valid.min(held + n)),
                        _ => Err(invalid_data(e)),
                    };
                }
            }
        }
    }
}

impl<R: Read> Read for Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.spare_start == self.spare_end {
            if buf.len() >= SMALL {
                return self.fill(buf);
            }
            let mut small = [0u8; SMALL];
            let got = self.fill(&mut small)?;
            self.spare = small;
            self.spare_start = 0;
            self.spare_end = got as u8;
        }
        // Hand out the spare bytes, whole characters only if the buffer holds one.
        let spare = &self.spare[usize::from(self.spare_start)..usize::from(self.spare_end)];
        let mut n = buf.len().min(spare.len());
        if n < spare.len() {
            while n > 0 && is_continuation(spare[n]) {
                n -= 1;
            }
            if n == 0 {
                n = buf.len(); // a buffer shorter than the character must split it
            }
        }
        buf[..n].copy_from_slice(&spare[..n]);
        self.spare_start += n as u8;
        Ok(n)
    }
}

/// Lends the UTF-8 text of a [`BufRead`] as `&str` pieces that never split a character.
///
/// [`next_str`](StrChunks::next_str) returns the next piece, `Ok(None)` at the end of the
/// stream, or an [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData) wrapping
/// the [`Utf8Error`] (offset from the start of the stream) once the valid text before the
/// first error has been handed out. A stream that ends inside a character fails at the end
/// with `error_len() == None`.
///
/// Pieces are borrowed straight from the reader's buffer, so a [`std::io::BufReader`] with
/// a 64 KiB buffer gives pieces of about 64 KiB with no copying; only a character that
/// straddles two buffer fills is copied (into a 4-byte buffer) and lent as a piece of its
/// own. Pieces follow the buffer, not lines: a line may come in several pieces.
///
/// [`Interrupted`](io::ErrorKind::Interrupted) errors of the inner reader are retried;
/// other errors are passed on, and calling `next_str` again carries on.
///
/// ```
/// use std::io::BufReader;
///
/// let log = "12:00:01 ünïcödé ✓\n".repeat(1000);
/// // A tiny buffer, so that characters are cut between fills.
/// let mut pieces = vutf8::StrChunks::new(BufReader::with_capacity(7, log.as_bytes()));
/// let mut text = String::new();
/// while let Some(piece) = pieces.next_str()? {
///     text.push_str(piece);
/// }
/// assert_eq!(text, log);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct StrChunks<R> {
    inner: R,
    validator: Validator,
    /// Bytes of `inner`'s buffer lent out in the last piece: consumed on the next call.
    lent: usize,
    /// A short piece owned here: a character completed across two fills, or the valid
    /// part of a fill of under 4 bytes.
    own: [u8; 4],
}

impl<R> StrChunks<R> {
    /// Wraps `inner`; the stream starts at offset 0.
    pub fn new(inner: R) -> Self {
        StrChunks {
            inner,
            validator: Validator::new(),
            lent: 0,
            own: [0; 4],
        }
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The validator's state ([`Validator::valid_up_to`]: the number of bytes lent out so
    /// far, or being lent now).
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Unwraps the inner reader. The last piece lent has not been consumed from it yet,
    /// nor the bytes of a character open at the end of it; bytes of an open character
    /// carried over from an earlier fill are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: BufRead> StrChunks<R> {
    /// The next piece of text, `Ok(None)` at the end of the stream.
    pub fn next_str(&mut self) -> io::Result<Option<&str>> {
        if self.lent != 0 {
            self.inner.consume(self.lent);
            self.lent = 0;
        }
        // First, every case that does not lend from `inner`'s buffer: retries, the end of
        // the stream, characters open across fills, and fills too short to hold a whole
        // character after the open one.
        loop {
            if let Some(e) = self.validator.error() {
                return Err(invalid_data(e));
            }
            let mut pending = [0u8; 4];
            let held = self.validator.pending().len();
            pending[..held].copy_from_slice(self.validator.pending());
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return match self.validator.check_end() {
                    Some(e) => Err(invalid_data(e)),
                    None => Ok(None),
                };
            }
            let (used, own_len) = if held != 0 {
                // Complete the open character.
                let take = (announced_len(pending[0]) - held).min(buf.len());
                self.validator.update(&buf[..take]).map_err(invalid_data)?;
                pending[held..held + take].copy_from_slice(&buf[..take]);
                let done = self.validator.pending().is_empty();
                (take, if done { held + take } else { 0 })
            } else if buf.len() < 4 {
                let start = self.validator.valid_up_to();
                let valid = match self.validator.update(buf) {
                    Ok(()) => buf.len() - self.validator.pending().len(),
                    Err(e) => (e.valid_up_to() as u64).saturating_sub(start) as usize,
                };
                let valid = valid.min(buf.len());
                pending[..valid].copy_from_slice(&buf[..valid]);
                (buf.len(), valid)
            } else {
                break;
            };
            self.inner.consume(used);
            if own_len != 0 {
                self.own = pending;
                let piece = &self.own[..own_len];
                // SAFETY: the validator accepted these bytes as complete characters.
                return Ok(Some(unsafe { core::str::from_utf8_unchecked(piece) }));
            }
        }
        // Now no character is open and the buffer holds at least 4 bytes: lend its valid
        // part. (The buffer is fetched again, as borrowing rules require, and validated
        // only now; a reader that returns different data on the second call gets that
        // data validated.) Every path from here returns.
        let buf = self.inner.fill_buf()?;
        let start = self.validator.valid_up_to();
        let (used, valid) = match self.validator.update(buf) {
            Ok(()) => (buf.len(), buf.len() - self.validator.pending().len()),
            Err(e) => {
                let valid = (e.valid_up_to() as u64).saturating_sub(start) as usize;
                (valid, valid)
            }
        };
        let valid = valid.min(buf.len());
        if valid == 0 {
            return match self.validator.error() {
                Some(e) => Err(invalid_data(e)),
                // Only a reader whose second `fill_buf` differs from the first gets here.
                None => Err(io::Error::other(
                    "vutf8::StrChunks: BufRead::fill_buf returned different data on a second call",
                )),
            };
        }
        self.lent = used;
        let piece = &buf[..valid];
        // SAFETY: the validator accepted these bytes as complete characters.
        Ok(Some(unsafe { core::str::from_utf8_unchecked(piece) }))
    }
}
