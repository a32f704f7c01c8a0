//! Log lines from a tokio stream, each with its UTF-8 verdict and a repair policy: a
//! [`tokio_util::codec::Decoder`] on `vutf8::records`.
//!
//! `tokio_util`'s `LinesCodec` returns an error at the first line that is not UTF-8, and a
//! `FramedRead` stream ends there. [`LogLines`] never ends the stream because of a line:
//! each line comes out as a [`Frame`] with its verdict; an invalid one is repaired by the
//! [`Policy`] (`\xNN` escapes, U+FFFD, windows-1252), left out (`Drop`), or handed out as
//! [`Frame::Invalid`] (`Strict`); a line longer than the cap is skipped up to its end and
//! reported ([`Frame::TooLong`]), as `LinesCodec` does after `MaxLineLengthExceeded`.
//!
//! ```
//! use bytes::BytesMut;
//! use tokio_util::codec::Decoder;
//! use vutf8_codec::{Frame, LogLines, Policy};
//!
//! let mut codec = LogLines::new(Policy::Escape);
//! let mut buf = BytesMut::from(&b"ok\r\ncaf\xE9\npartial"[..]);
//! let mut texts = Vec::new();
//! while let Some(Frame::Line(line)) = codec.decode(&mut buf).unwrap() {
//!     texts.push(line.text().to_owned());
//! }
//! assert_eq!(texts, ["ok", "caf\\xe9"]);
//! assert_eq!(&buf[..], b"partial"); // waits for the rest of its line
//! ```
//!
//! Each line's bytes are a zero-copy [`Bytes`] of the read buffer; the text is borrowed from
//! them when the line is valid, and [`Line::original`] gives the bytes of a line the policy
//! changed (for a dead-letter queue). The bytes are checked once, as they arrive: the
//! complete lines of each read are found and validated by one pass of
//! `vutf8::records::lines`, not again per line. The framing is that of
//! `vutf8::records::lines` (cut at `\n`, a `\r` before it left out); the cap,
//! [`vutf8::records::DEFAULT_MAX_RECORD`] (1 MiB) by default, keeps memory bounded. It is
//! the crate's one framing of streams, `vutf8::records::Framer`, which `RecordReader` runs
//! too: this crate adds the read buffer of tokio and the policy.

use std::io;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::Decoder;
pub use vutf8::records::Policy;
use vutf8::records::{Framer, Framing, Step, DEFAULT_MAX_RECORD};
use vutf8::Utf8Error;

/// One line of the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    bytes: Bytes,
    number: u64,
    offset: u64,
    valid: bool,
    repaired: Option<String>,
}

impl Line {
    /// The line's bytes as they arrived, without its line end (zero-copy).
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The line's number in the stream, from 1 (lines left out or too long count).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Where the line starts in the stream, in bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the line was valid UTF-8.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The text: the line itself when it was valid, else the policy's repair (empty for a
    /// line that [`Frame::Invalid`] carries).
    pub fn text(&self) -> &str {
        match &self.repaired {
            Some(text) => text,
            // SAFETY: `repaired` is `None` only for lines that vutf8 found valid when they
            // arrived (`LogLines::line`), and the bytes of a `Line` never change.
            None => unsafe { std::str::from_utf8_unchecked(&self.bytes) },
        }
    }

    /// The original bytes of a line the policy changed, for a dead-letter queue.
    pub fn original(&self) -> Option<&Bytes> {
        (!self.valid).then_some(&self.bytes)
    }
}

/// What [`LogLines`] yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line: valid, or repaired by the policy.
    Line(Line),
    /// An invalid line under [`Policy::Strict`], and its first error (positions from the
    /// line's start). The stream goes on.
    Invalid(Line, Utf8Error),
    /// A line longer than the cap, skipped up to its end.
    TooLong {
        /// The line's number, from 1.
        number: u64,
        /// Where it starts in the stream.
        offset: u64,
        /// Its length in bytes, without its line end.
        len: u64,
    },
}

/// The decoder: see the [crate documentation](crate).
#[derive(Debug)]
pub struct LogLines {
    policy: Policy,
    /// The framing of `vutf8::records::lines` with the cap, over the read buffer.
    framer: Framer,
    repaired: u64,
    dropped: u64,
}

impl LogLines {
    /// A decoder with `policy` and the default cap ([`DEFAULT_MAX_RECORD`]).
    pub fn new(policy: Policy) -> LogLines {
        LogLines::with_max_length(policy, DEFAULT_MAX_RECORD)
    }

    /// A decoder with `policy` and a cap of `max` bytes per line (its line end not
    /// counted): any value, 0 (only empty lines) to `usize::MAX` (no cap), is the cap used.
    pub fn with_max_length(policy: Policy, max: usize) -> LogLines {
        LogLines {
            policy,
            framer: Framing::lines().max_record(max).framer(),
            repaired: 0,
            dropped: 0,
        }
    }

    /// How many lines the policy repaired so far.
    pub fn repaired(&self) -> u64 {
        self.repaired
    }

    /// How many lines were left out so far: invalid ones under `Drop` (and refused ones
    /// under `Strict`), and lines over the cap.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The next frame of `buf`, if a complete line is there: the framer's steps over the
    /// buffer, each dropping the bytes it is done with.
    fn next_frame(&mut self, buf: &mut BytesMut, at_end: bool) -> Option<Frame> {
        loop {
            match self.framer.step(buf, at_end) {
                Step::More { consumed } => {
                    buf.advance(consumed);
                    return None;
                }
                Step::TooLong {
                    number,
                    offset,
                    len,
                    consumed,
                } => {
                    buf.advance(consumed);
                    self.dropped += 1;
                    return Some(Frame::TooLong {
                        number,
                        offset,
                        len,
                    });
                }
                Step::Record(r) => {
                    buf.advance(r.start);
                    let mut line = buf.split_to(r.next - r.start).freeze();
                    line.truncate(r.end - r.start);
                    if let Some(frame) = self.line(line, r.number, r.offset, r.valid) {
                        return Some(frame);
                    }
                }
            }
        }
    }

    /// A complete line under the policy: a frame, or `None` when it is dropped.
    fn line(&mut self, bytes: Bytes, number: u64, offset: u64, valid: bool) -> Option<Frame> {
        let mut line = Line {
            bytes,
            number,
            offset,
            valid,
            repaired: None,
        };
        if valid {
            return Some(Frame::Line(line));
        }
        match self.policy.text(&line.bytes) {
            Some(text) => {
                self.repaired += 1;
                line.repaired = Some(text.into_owned());
                Some(Frame::Line(line))
            }
            None if self.policy == Policy::Strict => {
                self.dropped += 1;
                let error = vutf8::from_utf8(&line.bytes).err()?;
                line.repaired = Some(String::new());
                Some(Frame::Invalid(line, error))
            }
            None => {
                self.dropped += 1;
                None
            }
        }
    }
}

impl Decoder for LogLines {
    type Item = Frame;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        Ok(self.next_frame(buf, false))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        Ok(self.next_frame(buf, true))
    }
}
