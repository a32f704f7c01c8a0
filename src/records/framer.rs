//! Records of a stream (feature `std`): the framing of [`super::lines`] and [`super::split`]
//! carried across reads ([`RecordReader`], over any `std::io::Read`), with a cap on the
//! length of a record ([`Framing::max_record`]), so memory stays bounded on any input.
//!
//! Each read is appended to one buffer; the complete records in it (those that end at a
//! delimiter) are found by one pass of [`super::lines`] (or `split`): every byte is checked
//! once, as it arrives, never again per record. The framing itself, apart from where the
//! bytes are kept, is one state machine ([`Framer`]), which the tokio codec of
//! `vutf8-codec` drives too. A record split between two reads waits in
//! the buffer for the rest. A record longer than the cap is reported as
//! [`Frame::TooLong`] with its head (its first bytes, as many as the cap, for a dead-letter
//! queue) and skipped up to its delimiter, or, with [`Framing::cut_long_records`], its
//! first bytes (at most the cap, cut back to a character boundary) are yielded and the rest
//! skipped; either way the stream goes on. The framer counts the records as it goes
//! ([`Counts`]).

use super::counts::Counts;
use super::delimited::{split, DelimiterError, Records};
use super::record::Record;
use crate::reference::error::Utf8Error;
use crate::reference::grammar::floor_boundary;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::vec::Vec;

/// The default cap on a record's length: 1 MiB (longer than any log line that is not an
/// attack or a mistake; `tokio_util`'s `LinesCodec` has none by default, Vector caps at
/// 100 KiB, Fluent Bit at 32 KiB).
pub const DEFAULT_MAX_RECORD: usize = 1 << 20;

/// The bytes asked of the reader at a time.
const READ_SIZE: usize = 64 * 1024;

/// How a stream is cut into records: the delimiter, the `\r` rule, the cap on a record's
/// length and what happens to a longer one. [`Framing::lines`] is the framing of
/// [`super::lines`].
///
/// ```
/// use vutf8::records::{Frame, Framing};
/// let input = &b"short\r\nmuch too long a line\nok\xFF\n"[..];
/// let mut reader = Framing::lines().max_record(8).reader(input);
/// let mut seen = Vec::new();
/// while let Some(frame) = reader.next_frame()? {
///     seen.push(match frame {
///         Frame::Record(r) => format!("{} {:?} {}", r.number(), r.bytes(), r.is_valid()),
///         Frame::TooLong { number, len, head, .. } => {
///             format!("{number} too long: {len} bytes, {}...", head.escape_ascii())
///         }
///     });
/// }
/// assert_eq!(
///     seen,
///     [
///         "1 [115, 104, 111, 114, 116] true",
///         "2 too long: 20 bytes, much too...",
///         "3 [111, 107, 255] false",
///     ]
/// );
/// let counts = reader.counts();
/// assert_eq!((counts.valid(), counts.invalid(), counts.too_long()), (1, 1, 1));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    delimiter: u8,
    crlf: bool,
    max: usize,
    cut: bool,
}

impl Framing {
    /// The records of [`super::lines`]: cut at `\n`, a `\r` before it left out. The cap is
    /// [`DEFAULT_MAX_RECORD`]; longer records are reported and skipped.
    pub fn lines() -> Framing {
        Framing {
            delimiter: b'\n',
            crlf: true,
            max: DEFAULT_MAX_RECORD,
            cut: false,
        }
    }

    /// The records of [`super::split`] at `delimiter`.
    ///
    /// # Errors
    /// [`DelimiterError`] when `delimiter` is not ASCII.
    pub fn split(delimiter: u8) -> Result<Framing, DelimiterError> {
        split(b"", delimiter)?;
        Ok(Framing {
            delimiter,
            crlf: false,
            max: DEFAULT_MAX_RECORD,
            cut: false,
        })
    }

    /// Caps a record's length at `max` bytes, its delimiter and a `\r` before it not
    /// counted. Every value is the cap used, and [`Framing::max`] reports it: 0 lets only
    /// empty records through, `usize::MAX` caps nothing (memory then grows with the longest
    /// record). A cut record ([`Framing::cut_long_records`]) keeps the whole characters
    /// that fit: none when the cap is shorter than its first character.
    pub fn max_record(self, max: usize) -> Framing {
        Framing { max, ..self }
    }

    /// With `true`, a record longer than the cap is not skipped whole: its first bytes, at
    /// most the cap and cut back to a character boundary, are yielded as a record whose
    /// [`StreamRecord::is_cut`] is true, and the rest up to its delimiter is skipped.
    pub fn cut_long_records(self, cut: bool) -> Framing {
        Framing { cut, ..self }
    }

    /// The delimiter: `\n` for [`Framing::lines`].
    pub fn delimiter(&self) -> u8 {
        self.delimiter
    }

    /// The cap on a record's length.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Reads the records of `inner` with this framing.
    pub fn reader<R: Read>(self, inner: R) -> RecordReader<R> {
        RecordReader {
            inner,
            framer: self.framer(),
            buf: Vec::new(),
            head: 0,
            tail: 0,
            eof: false,
        }
    }

    /// The state of this framing over a stream whose bytes the caller keeps ([`Framer`]):
    /// what [`RecordReader`] and other readers (the tokio codec `vutf8-codec`) are built on.
    pub fn framer(self) -> Framer {
        Framer {
            framing: self,
            found: VecDeque::new(),
            searched: 0,
            offset: 0,
            number: 0,
            skipping: None,
            head: Vec::new(),
            counts: Counts::new(),
        }
    }
}

/// One record of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamRecord<'a> {
    bytes: &'a [u8],
    end: &'a [u8],
    offset: u64,
    number: u64,
    valid: bool,
    cut: bool,
}

impl<'a> StreamRecord<'a> {
    /// The record's bytes (without its delimiter, and for `lines` without a `\r` before
    /// it; for a cut record, the bytes kept).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// What ended the record in the stream: its delimiter (with the `\r` before it for
    /// `lines`), or nothing for a last record without one or a cut record.
    pub fn end(&self) -> &'a [u8] {
        self.end
    }

    /// Where the record starts in the stream, in bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The record's number in the stream, from 1 (records too long to keep count).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Whether the record (what [`bytes`](StreamRecord::bytes) holds) is valid UTF-8.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Whether the record was longer than the cap and these are its first bytes
    /// ([`Framing::cut_long_records`]).
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// The record as a [`Record`] (offset from the start of the stream, if it fits a
    /// `usize`), for [`super::repair`] and [`Record::to_str`].
    pub fn record(&self) -> Record<'a> {
        Record::new(
            self.bytes,
            usize::try_from(self.offset).unwrap_or(usize::MAX),
            self.valid,
        )
    }
}

/// What a [`RecordReader`] yields: a record, or the place and head of one that was longer
/// than the cap and was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'a> {
    /// A record.
    Record(StreamRecord<'a>),
    /// A record longer than the cap, skipped up to its delimiter: its number, where it
    /// starts in the stream, its length (without its delimiter, and for `lines` without
    /// a `\r` before it), and its head ([`Framer::head`]).
    TooLong {
        /// The record's number, from 1.
        number: u64,
        /// Where it starts in the stream.
        offset: u64,
        /// Its length in bytes.
        len: u64,
        /// Its first bytes as they arrived, as many as the cap (which the record is longer
        /// than): for a dead-letter queue. They may end inside a character.
        head: &'a [u8],
    },
}

/// A complete record at the front of the pending bytes, found by the last pass: its length,
/// the length with its end (delimiter, and a `\r` before it for `lines`), its verdict.
#[derive(Clone, Copy, Debug)]
struct Found {
    len: usize,
    with_end: usize,
    valid: bool,
}

/// A record being skipped: its number, where it started, how long it is so far.
#[derive(Clone, Copy, Debug)]
struct Skipping {
    number: u64,
    offset: u64,
    len: u64,
    /// Report it when it ends (not when its first bytes were yielded cut).
    report: bool,
    /// Whether the last byte skipped was a `\r` (for `lines`, not counted before `\n`).
    last_cr: bool,
}

/// The framing of a stream ([`Framing`]) apart from where its bytes are kept: the one state
/// machine of the crate's streams, behind [`RecordReader`] and the tokio codec of
/// `vutf8-codec`. The caller keeps the bytes it has read and not yet dropped, the *pending*
/// bytes, and asks [`Framer::step`] what is at their front; each [`Step`] says which bytes
/// to drop before the next call. The complete records in the pending bytes are found by one
/// pass of [`super::lines`] (or `split`) when a delimiter arrives: every byte is checked
/// once, never again per record. The framer keeps the head of a record over the cap
/// ([`Framer::head`]) and counts the records it steps over ([`Framer::counts`]).
///
/// ```
/// use vutf8::records::{Framing, Step};
/// let mut framer = Framing::lines().framer();
/// let mut pending = b"one\r\ntw".to_vec();
/// let Step::Record(r) = framer.step(&pending, false) else { unreachable!() };
/// assert_eq!((&pending[r.start..r.end], r.next, r.valid, r.number), (&b"one"[..], 5, true, 1));
/// pending.drain(..r.next);
/// assert_eq!(framer.step(&pending, false), Step::More { consumed: 0 });
/// pending.extend_from_slice(b"o\xFF");
/// let Step::Record(r) = framer.step(&pending, true) else { unreachable!() };
/// assert_eq!((&pending[r.start..r.end], r.valid), (&b"two\xFF"[..], false));
/// ```
#[derive(Clone, Debug)]
pub struct Framer {
    framing: Framing,
    /// The complete records at the front of the pending bytes, in order.
    found: VecDeque<Found>,
    /// How many pending bytes after the found records have been searched for a delimiter
    /// in vain.
    searched: usize,
    /// Where the pending bytes start in the stream.
    offset: u64,
    number: u64,
    skipping: Option<Skipping>,
    /// The first bytes of the record over the cap being skipped or last reported: as many
    /// as the cap, copied when it passed the cap (its bytes are dropped before its end).
    head: Vec<u8>,
    counts: Counts,
}

/// What [`Framer::step`] found at the front of the pending bytes. Positions are indices of
/// the pending bytes given to it; the caller drops the bytes before `next` (or `consumed`)
/// before the next call, and keeps the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A record, or the first bytes of one longer than the cap ([`RecordSpan::cut`]).
    Record(RecordSpan),
    /// A record longer than the cap, skipped up to its delimiter: its number, where it
    /// starts in the stream, and its length (without its delimiter, and for `lines` without
    /// a `\r` before it). Its first bytes are [`Framer::head`] until the next step.
    TooLong {
        /// The record's number, from 1.
        number: u64,
        /// Where it starts in the stream.
        offset: u64,
        /// Its length in bytes.
        len: u64,
        /// The bytes to drop.
        consumed: usize,
    },
    /// No record is complete in the pending bytes: drop the first `consumed` (skipped), and
    /// read more. At the end of the stream, the records are over.
    More {
        /// The bytes to drop.
        consumed: usize,
    },
}

/// A record in the pending bytes ([`Step::Record`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordSpan {
    /// Where its bytes start (the bytes before were skipped).
    pub start: usize,
    /// Where its bytes end: they are without its delimiter, and for `lines` without a
    /// `\r` before it.
    pub end: usize,
    /// Where the next record starts: the bytes to drop. `end..next` is what ended the
    /// record (nothing for a last record without a delimiter, or a cut one).
    pub next: usize,
    /// Whether its bytes are valid UTF-8.
    pub valid: bool,
    /// Its number in the stream, from 1 (records too long to keep count).
    pub number: u64,
    /// Where it starts in the stream.
    pub offset: u64,
    /// Whether the record was longer than the cap and these are its first bytes, at most
    /// the cap and cut back to a character boundary ([`Framing::cut_long_records`]); the
    /// rest of the record is skipped.
    pub cut: bool,
}

impl Framer {
    /// The framing this framer follows.
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// The head of the record the last [`Step::TooLong`] reported: its first bytes as they
    /// arrived, as many as the cap (which the record is longer than), for a dead-letter
    /// queue; they may end inside a character. Held by the framer from the moment the
    /// record passed the cap (its bytes are dropped before its end arrives): memory of at
    /// most the cap.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The records stepped over so far ([`Counts`]): valid, invalid by the kind of their
    /// first error, over the cap (reported, or cut: then valid or invalid by the bytes
    /// kept). The policy counters stay at 0: a framer applies none.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// What is at the front of `pending`, the bytes read and not yet dropped (those of
    /// the last call that were not dropped, then what was read since); `at_end` when
    /// nothing more will come (then a last record needs no delimiter).
    pub fn step(&mut self, pending: &[u8], at_end: bool) -> Step {
        // Skipped bytes dropped within this call.
        let mut front = 0;
        loop {
            let rest = &pending[front..];
            if let Some(f) = self.found.pop_front() {
                self.number += 1;
                let offset = self.offset;
                self.offset += f.with_end as u64;
                let next = front + f.with_end;
                if f.len <= self.framing.max {
                    if f.valid {
                        self.counts.add_valid();
                    } else {
                        self.count_invalid(&rest[..f.len]);
                    }
                    return Step::Record(RecordSpan {
                        start: front,
                        end: front + f.len,
                        next,
                        valid: f.valid,
                        number: self.number,
                        offset,
                        cut: false,
                    });
                }
                if self.framing.cut {
                    let kept = floor_boundary(&rest[..f.len], self.framing.max);
                    let valid = self.count_cut(&rest[..kept]);
                    return Step::Record(RecordSpan {
                        start: front,
                        end: front + kept,
                        next,
                        valid,
                        number: self.number,
                        offset,
                        cut: true,
                    });
                }
                self.keep_head(rest);
                self.counts.add_too_long();
                return Step::TooLong {
                    number: self.number,
                    offset,
                    len: f.len as u64,
                    consumed: next,
                };
            }
            if let Some(skipping) = self.skipping.as_mut() {
                // Drop the record up to its delimiter; report it when that is found (or
                // the stream ends).
                let found = rest.iter().position(|&b| b == self.framing.delimiter);
                let upto = found.unwrap_or(rest.len());
                skipping.len += upto as u64;
                if upto > 0 {
                    skipping.last_cr = rest[upto - 1] == b'\r';
                }
                let consumed = found.map_or(upto, |p| p + 1);
                self.offset += consumed as u64;
                front += consumed;
                if found.is_none() && !at_end {
                    return Step::More { consumed: front };
                }
                let mut done = *skipping;
                self.skipping = None;
                if found.is_some() && self.framing.crlf && done.last_cr {
                    done.len -= 1; // The `\r` before the `\n` is not part of the record.
                }
                if done.report {
                    self.counts.add_too_long();
                    return Step::TooLong {
                        number: done.number,
                        offset: done.offset,
                        len: done.len,
                        consumed: front,
                    };
                }
                continue;
            }
            if rest.is_empty() {
                return Step::More { consumed: front };
            }
            let delimiter = self.framing.delimiter;
            let complete = if at_end {
                rest.len()
            } else if let Some(p) = rest[self.searched..].iter().rposition(|&b| b == delimiter) {
                self.searched + p + 1
            } else {
                self.searched = rest.len();
                // (A `\r` at the end may be the start of a line end: one byte more is
                // allowed. `rest` is not empty: no overflow, whatever the cap.)
                if rest.len() - usize::from(self.framing.crlf) <= self.framing.max {
                    return Step::More { consumed: front };
                }
                // A record longer than the cap, its delimiter not read yet.
                if let Some(step) = self.start_skipping(rest, front) {
                    return step;
                }
                continue;
            };
            // What follows the last delimiter has been searched in vain.
            self.searched = rest.len() - complete;
            let region = &rest[..complete];
            let mut records = Records::new(region, delimiter, self.framing.crlf);
            while let Some(r) = records.next() {
                // Its end bytes run to where the next record (what is not yet yielded)
                // starts.
                let next = complete - records.remaining().len();
                self.found.push_back(Found {
                    len: r.bytes().len(),
                    with_end: next - r.offset(),
                    valid: r.is_valid(),
                });
            }
        }
    }

    /// Starts skipping the record at the front of `rest` (at `front` of the pending bytes),
    /// longer than the cap and not yet ended; returns its cut first bytes when the framing
    /// keeps them (then all of `rest` is dropped).
    fn start_skipping(&mut self, rest: &[u8], front: usize) -> Option<Step> {
        self.number += 1;
        self.searched = 0;
        let cut = self.framing.cut;
        self.skipping = Some(Skipping {
            number: self.number,
            offset: self.offset,
            // What is cut and yielded is skipped at once: the rest is looked at from there.
            len: if cut { rest.len() as u64 } else { 0 },
            report: !cut,
            last_cr: cut && rest.last() == Some(&b'\r'),
        });
        if !cut {
            self.keep_head(rest);
            return None;
        }
        let kept = floor_boundary(rest, self.framing.max);
        let valid = self.count_cut(&rest[..kept]);
        let offset = self.offset;
        self.offset += rest.len() as u64;
        Some(Step::Record(RecordSpan {
            start: front,
            end: front + kept,
            next: front + rest.len(),
            valid,
            number: self.number,
            offset,
            cut: true,
        }))
    }

    /// Keeps the head of the record over the cap at the front of `rest` (longer than the
    /// cap: as many bytes as the cap).
    fn keep_head(&mut self, rest: &[u8]) {
        self.head.clear();
        self.head
            .extend_from_slice(&rest[..self.framing.max.min(rest.len())]);
    }

    /// Counts an invalid record of `bytes` by the kind of its first error (a look at that
    /// error, on the record alone; out of the way of the valid records' path).
    #[cold]
    #[inline(never)]
    fn count_invalid(&mut self, bytes: &[u8]) {
        self.count_error(crate::engine::validate(bytes));
    }

    /// Counts a cut record, whose bytes kept are `kept`, and returns their verdict.
    fn count_cut(&mut self, kept: &[u8]) -> bool {
        self.counts.add_cut();
        let verdict = crate::engine::validate(kept);
        let valid = verdict.is_ok();
        self.count_error(verdict);
        valid
    }

    /// Counts a record by its first error (valid without one).
    fn count_error(&mut self, verdict: Result<(), Utf8Error>) {
        match verdict {
            Ok(()) => self.counts.add_valid(),
            Err(e) => self.counts.add_invalid(e.kind()),
        }
    }
}

/// The records of a stream, read through a `std::io::Read` ([`Framing::reader`]). Memory:
/// one buffer of about the cap plus one read, and the head of a record over the cap (at
/// most the cap), whatever the input.
#[derive(Debug)]
pub struct RecordReader<R> {
    inner: R,
    framer: Framer,
    /// The bytes read and not yet yielded (the framer's pending bytes) are
    /// `buf[head..tail]`.
    buf: Vec<u8>,
    head: usize,
    tail: usize,
    eof: bool,
}

impl<R: Read> RecordReader<R> {
    /// The next record, or the place of a skipped one; `None` when a read returned 0 bytes
    /// (the end of a file or pipe) and every record before it was yielded (a last record
    /// without a delimiter included).
    ///
    /// After `None` the reader can go on: the next call reads again, and what arrives
    /// starts a new record. A follower of a growing file calls it again once the file has
    /// grown (a line whose end had not arrived was yielded whole at the `None` before).
    ///
    /// # Errors
    /// What the reader returns (`Interrupted` is retried).
    pub fn next_frame(&mut self) -> io::Result<Option<Frame<'_>>> {
        let step = loop {
            match self.framer.step(&self.buf[self.head..self.tail], self.eof) {
                Step::More { consumed } => {
                    self.head += consumed;
                    if self.eof {
                        // The next call reads again.
                        self.eof = false;
                        return Ok(None);
                    }
                    self.read()?;
                }
                step => break step,
            }
        };
        let head = self.head;
        Ok(Some(match step {
            Step::Record(r) => {
                self.head += r.next;
                Frame::Record(StreamRecord {
                    bytes: &self.buf[head + r.start..head + r.end],
                    end: if r.cut {
                        &[]
                    } else {
                        &self.buf[head + r.end..head + r.next]
                    },
                    offset: r.offset,
                    number: r.number,
                    valid: r.valid,
                    cut: r.cut,
                })
            }
            Step::TooLong {
                number,
                offset,
                len,
                consumed,
            } => {
                self.head += consumed;
                Frame::TooLong {
                    number,
                    offset,
                    len,
                    head: self.framer.head(),
                }
            }
            Step::More { .. } => unreachable!("handled above"),
        }))
    }

    /// The records read so far ([`Framer::counts`]): valid, invalid by the kind of their
    /// first error, over the cap, cut.
    pub fn counts(&self) -> Counts {
        self.framer.counts()
    }

    /// Reads once more into the buffer, after moving what is left to its front.
    fn read(&mut self) -> io::Result<()> {
        if self.head > 0 {
            self.buf.copy_within(self.head..self.tail, 0);
            self.tail -= self.head;
            self.head = 0;
        }
        if self.buf.len() < self.tail + READ_SIZE {
            self.buf.resize(self.tail + READ_SIZE, 0);
        }
        let n = loop {
            match self.inner.read(&mut self.buf[self.tail..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.tail += n;
        self.eof = n == 0;
        Ok(())
    }
}
