//! Log lines from a tokio stream, each with its UTF-8 verdict and a repair policy: a
//! [`tokio_util::codec::Decoder`] on `vutf8::records`.
//!
//! `tokio_util`'s `LinesCodec` returns an error at the first line that is not UTF-8 (or
//! longer than its cap), and a `FramedRead` stream ends after an error. [`LogLines`] never
//! ends the stream because of a line: each line comes out as a [`Frame`] with its verdict;
//! an invalid one is repaired by the [`Policy`] (`\xNN` escapes, U+FFFD, windows-1252
//! whole or per ill-formed part), left out (`Drop`), or handed out as [`Frame::Invalid`]
//! (`Strict`); a line longer than the cap is skipped up to its end and reported with its
//! head ([`Frame::TooLong`]), or cut to the cap ([`Framing::cut_long_records`]).
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
//!     texts.push((line.text().to_owned(), line.end().to_vec()));
//! }
//! assert_eq!(texts, [("ok".into(), b"\r\n".to_vec()), ("caf\\xe9".into(), b"\n".to_vec())]);
//! assert_eq!(&buf[..], b"partial"); // waits for the rest of its line
//! assert_eq!((codec.counts().valid(), codec.counts().repaired()), (1, 1));
//! ```
//!
//! Each line's bytes are a zero-copy [`Bytes`] of the read buffer; the text is borrowed from
//! them when the line is valid, and [`Line::original`] gives the bytes of a line the policy
//! changed (for a dead-letter queue). The bytes are checked once, as they arrive: the
//! complete lines of each read are found and validated by one pass of
//! `vutf8::records::lines`, not again per line. The framing is that of
//! `vutf8::records::lines` (cut at `\n`, a `\r` before it left out) or, with
//! [`LogLines::with_framing`], any [`Framing`]: records at any ASCII delimiter
//! (`Framing::split`, NUL or RS), a cap, long records cut. The cap,
//! [`vutf8::records::DEFAULT_MAX_RECORD`] (1 MiB) by default, keeps memory bounded. It is
//! the crate's one framing of streams, `vutf8::records::Framer`, which `RecordReader` runs
//! too: this crate adds the read buffer of tokio, the policy and its counts ([`Counts`]).

use std::io;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::Decoder;
pub use vutf8::records::{Counts, Framing, Policy};
use vutf8::records::{Framer, Step, DEFAULT_MAX_RECORD};
use vutf8::Utf8Error;

/// One line of the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    bytes: Bytes,
    number: u64,
    offset: u64,
    valid: bool,
    cut: bool,
    /// What ended the line is the last `end_len` bytes of `ends`, a `\r` and the
    /// delimiter: the delimiter, with the `\r` before it for lines; none for a last line
    /// without one or a cut line.
    ends: [u8; 2],
    end_len: u8,
    repaired: Option<String>,
}

impl Line {
    /// The line's bytes as they arrived, without its line end (zero-copy); for a cut line,
    /// the bytes kept.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// What ended the line in the stream: its delimiter (`\n`, with the `\r` before it for
    /// lines; the framing's delimiter for [`Framing::split`]), or nothing for a last line
    /// without one or a cut line. A copy that keeps the original line ends writes
    /// [`bytes`](Line::bytes) (or the text) and then this.
    pub fn end(&self) -> &[u8] {
        &self.ends[2 - usize::from(self.end_len)..]
    }

    /// The line's number in the stream, from 1 (lines left out or too long count).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Where the line starts in the stream, in bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the line (what [`bytes`](Line::bytes) holds) was valid UTF-8.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Whether the line was longer than the cap and these are its first bytes, cut back to
    /// a character boundary ([`Framing::cut_long_records`]).
    pub fn is_cut(&self) -> bool {
        self.cut
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
        /// Its first bytes as they arrived, as many as the cap (which the line is longer
        /// than), for a dead-letter queue; they may end inside a character.
        head: Bytes,
    },
}

/// The decoder: see the [crate documentation](crate).
#[derive(Debug)]
pub struct LogLines {
    policy: Policy,
    /// The framing over the read buffer; it counts the lines by verdict and kind of error.
    framer: Framer,
    /// What the policy did with the invalid lines (the other counters stay at 0).
    outcomes: Counts,
    /// What ends a line at most: `\r` and the delimiter ([`Line::end`]).
    ends: [u8; 2],
}

impl LogLines {
    /// A decoder with `policy` and the framing of `vutf8::records::lines` with the default
    /// cap ([`DEFAULT_MAX_RECORD`]).
    pub fn new(policy: Policy) -> LogLines {
        LogLines::with_max_length(policy, DEFAULT_MAX_RECORD)
    }

    /// A decoder with `policy` and a cap of `max` bytes per line (its line end not
    /// counted): any value, 0 (only empty lines) to `usize::MAX` (no cap), is the cap used.
    pub fn with_max_length(policy: Policy, max: usize) -> LogLines {
        LogLines::with_framing(policy, Framing::lines().max_record(max))
    }

    /// A decoder with `policy` and `framing`: its delimiter (`\n` with the `\r` rule, or
    /// any ASCII byte), its cap, and whether a longer record is cut to the cap or skipped.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use tokio_util::codec::Decoder;
    /// use vutf8_codec::{Frame, Framing, LogLines, Policy};
    ///
    /// let framing = Framing::split(0).unwrap().max_record(8).cut_long_records(true);
    /// let mut codec = LogLines::with_framing(Policy::Replace, framing);
    /// let mut buf = BytesMut::from(&b"one\0a record too long\0caf\xE9\0"[..]);
    /// let mut seen = Vec::new();
    /// while let Some(Frame::Line(line)) = codec.decode(&mut buf).unwrap() {
    ///     seen.push((line.text().to_owned(), line.is_cut()));
    /// }
    /// assert_eq!(seen, [("one".into(), false), ("a record".into(), true), ("caf\u{FFFD}".into(), false)]);
    /// assert_eq!(codec.counts().cut(), 1);
    /// ```
    pub fn with_framing(policy: Policy, framing: Framing) -> LogLines {
        LogLines {
            policy,
            framer: framing.framer(),
            outcomes: Counts::new(),
            ends: [b'\r', framing.delimiter()],
        }
    }

    /// The cap on a line's length: the one asked for.
    pub fn max_length(&self) -> usize {
        self.framer.framing().max()
    }

    /// The lines so far: valid, invalid by the kind of their first error, too long, cut,
    /// and what the policy did with the invalid ones (repaired, dropped, refused).
    pub fn counts(&self) -> Counts {
        self.framer.counts() + self.outcomes
    }

    /// How many lines the policy repaired so far.
    pub fn repaired(&self) -> u64 {
        self.outcomes.repaired()
    }

    /// How many lines were left out so far: invalid ones under `Drop` (and refused ones
    /// under `Strict`), and lines over the cap.
    pub fn dropped(&self) -> u64 {
        let counts = self.counts();
        counts
            .dropped()
            .saturating_add(counts.refused())
            .saturating_add(counts.too_long())
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
                    return Some(Frame::TooLong {
                        number,
                        offset,
                        len,
                        head: Bytes::copy_from_slice(self.framer.head()),
                    });
                }
                Step::Record(r) => {
                    buf.advance(r.start);
                    let mut bytes = buf.split_to(r.next - r.start).freeze();
                    bytes.truncate(r.end - r.start);
                    // What ended the line: nothing, its delimiter, or for lines `\r\n`.
                    let end_len = if r.cut {
                        0
                    } else {
                        (r.next - r.end).min(2) as u8
                    };
                    let line = Line {
                        bytes,
                        number: r.number,
                        offset: r.offset,
                        valid: r.valid,
                        cut: r.cut,
                        ends: self.ends,
                        end_len,
                        repaired: None,
                    };
                    if let Some(frame) = self.line(line) {
                        return Some(frame);
                    }
                }
            }
        }
    }

    /// A complete line under the policy: a frame, or `None` when it is dropped.
    fn line(&mut self, mut line: Line) -> Option<Frame> {
        if line.valid {
            return Some(Frame::Line(line));
        }
        let mut text = String::new();
        if self.policy.append_text(&line.bytes, &mut text) {
            self.outcomes.add_repaired();
            line.repaired = Some(text);
            return Some(Frame::Line(line));
        }
        if self.policy == Policy::Strict {
            self.outcomes.add_refused();
            let error = vutf8::from_utf8(&line.bytes).err()?;
            line.repaired = Some(String::new());
            return Some(Frame::Invalid(line, error));
        }
        self.outcomes.add_dropped();
        None
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
