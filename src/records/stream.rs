//! Records of a stream (feature `std`): the framing of [`super::lines`] and [`super::split`]
//! carried across reads ([`RecordReader`], over any `std::io::Read`), with a cap on the
//! length of a record ([`Framing::max_record`]), so memory stays bounded on any input.
//!
//! Each read is appended to one buffer; the complete records in it (those that end at a
//! delimiter) are found by one pass of [`super::lines`] (or `split`): every byte is checked
//! once, as it arrives, never again per record. A record split between two reads waits in
//! the buffer for the rest. A record longer than the cap is reported as
//! [`Frame::TooLong`] and skipped up to its delimiter, or, with
//! [`Framing::cut_long_records`], its first bytes (at most the cap, cut back to a character
//! boundary) are yielded and the rest skipped; either way the stream goes on.

use super::delimited::{split, DelimiterError, Records};
use super::record::Record;
use crate::grammar::floor_boundary;
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
///         Frame::TooLong { number, len, .. } => format!("{number} too long: {len} bytes"),
///     });
/// }
/// assert_eq!(seen, ["1 [115, 104, 111, 114, 116] true", "2 too long: 20 bytes", "3 [111, 107, 255] false"]);
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

    /// Caps a record's length at `max` bytes (at least 4: a character must fit), its
    /// delimiter and a `\r` before it not counted.
    pub fn max_record(self, max: usize) -> Framing {
        Framing {
            max: max.max(4),
            ..self
        }
    }

    /// With `true`, a record longer than the cap is not skipped whole: its first bytes, at
    /// most the cap and cut back to a character boundary, are yielded as a record whose
    /// [`StreamRecord::is_cut`] is true, and the rest up to its delimiter is skipped.
    pub fn cut_long_records(self, cut: bool) -> Framing {
        Framing { cut, ..self }
    }

    /// The cap on a record's length.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Reads the records of `inner` with this framing.
    pub fn reader<R: Read>(self, inner: R) -> RecordReader<R> {
        RecordReader {
            inner,
            framing: self,
            buf: Vec::new(),
            head: 0,
            tail: 0,
            origin: 0,
            spans: Vec::new(),
            next_span: 0,
            number: 0,
            eof: false,
            skipping: None,
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

/// What a [`RecordReader`] yields: a record, or the place of one that was longer than the
/// cap and was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'a> {
    /// A record.
    Record(StreamRecord<'a>),
    /// A record longer than the cap, skipped up to its delimiter: its number, where it
    /// starts in the stream, and its length (without its delimiter; a `\r` before it
    /// counts).
    TooLong {
        /// The record's number, from 1.
        number: u64,
        /// Where it starts in the stream.
        offset: u64,
        /// Its length in bytes.
        len: u64,
    },
}

/// A complete record in the buffer: where it starts, where its bytes end, where the next
/// starts, its verdict.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    end: usize,
    next: usize,
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

/// The records of a stream, read through a `std::io::Read` ([`Framing::reader`]). Memory:
/// one buffer of about the cap plus one read, whatever the input.
#[derive(Debug)]
pub struct RecordReader<R> {
    inner: R,
    framing: Framing,
    /// The bytes read and not yet yielded are `buf[head..tail]`; `buf[0]` is at stream
    /// offset `origin`.
    buf: Vec<u8>,
    head: usize,
    tail: usize,
    origin: u64,
    /// The complete records found in the buffer, and the next one to yield.
    spans: Vec<Span>,
    next_span: usize,
    number: u64,
    eof: bool,
    skipping: Option<Skipping>,
}

/// What [`RecordReader::next_frame`] yields, before it borrows the buffer.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// A complete record of the buffer.
    Whole(Span),
    /// The first bytes of the record at `start..end` of the buffer, cut to the cap.
    Cut(usize, usize),
    /// A record too long to keep: number, offset, length.
    TooLong(u64, u64, u64),
}

impl<R: Read> RecordReader<R> {
    /// The next record, or the place of a skipped one; `None` at the end of the stream.
    ///
    /// # Errors
    /// What the reader returns (`Interrupted` is retried).
    pub fn next_frame(&mut self) -> io::Result<Option<Frame<'_>>> {
        let next = loop {
            if self.next_span < self.spans.len() {
                let span = self.spans[self.next_span];
                self.next_span += 1;
                self.head = span.next;
                self.number += 1;
                break self.too_long(span).unwrap_or(Next::Whole(span));
            }
            if let Some(next) = self.skip() {
                break next;
            }
            if self.next_span < self.spans.len() {
                continue; // The records after a skipped one.
            }
            // (A `\r` at the end may be the start of a line end: one byte more is allowed.)
            let partial_max = self.framing.max + usize::from(self.framing.crlf);
            if self.skipping.is_none() && self.tail - self.head > partial_max {
                // A record longer than the cap, its delimiter not read yet.
                if let Some(next) = self.start_skipping() {
                    break next;
                }
                continue;
            }
            if self.eof {
                if self.head == self.tail || self.skipping.is_some() {
                    return Ok(None);
                }
                // The last record, without a delimiter.
                self.find(true);
                continue;
            }
            self.read()?;
        };
        Ok(Some(match next {
            Next::Whole(span) => Frame::Record(StreamRecord {
                bytes: &self.buf[span.start..span.end],
                end: &self.buf[span.end..span.next],
                offset: self.origin + span.start as u64,
                number: self.number,
                valid: span.valid,
                cut: false,
            }),
            Next::Cut(start, end) => {
                let bytes = &self.buf[start..end];
                let kept = &bytes[..floor_boundary(bytes, self.framing.max)];
                Frame::Record(StreamRecord {
                    bytes: kept,
                    end: &[],
                    offset: self.origin + start as u64,
                    number: self.number,
                    valid: crate::engine::is_valid(kept),
                    cut: true,
                })
            }
            Next::TooLong(number, offset, len) => Frame::TooLong {
                number,
                offset,
                len,
            },
        }))
    }

    /// For a complete record longer than the cap (already numbered): its report, or its
    /// cut first bytes.
    fn too_long(&self, span: Span) -> Option<Next> {
        if span.end - span.start <= self.framing.max {
            return None;
        }
        Some(if self.framing.cut {
            Next::Cut(span.start, span.end)
        } else {
            Next::TooLong(
                self.number,
                self.origin + span.start as u64,
                (span.end - span.start) as u64,
            )
        })
    }

    /// Starts skipping the record at `head`, longer than the cap and not yet ended; returns
    /// its cut first bytes when the framing keeps them.
    fn start_skipping(&mut self) -> Option<Next> {
        self.number += 1;
        let (head, tail) = (self.head, self.tail);
        let cut = self.framing.cut;
        self.skipping = Some(Skipping {
            number: self.number,
            offset: self.origin + head as u64,
            // What is cut and yielded is skipped at once: the rest is looked at from `tail`.
            len: if cut { (tail - head) as u64 } else { 0 },
            report: !cut,
            last_cr: cut && self.buf[tail - 1] == b'\r',
        });
        if cut {
            self.head = tail;
            return Some(Next::Cut(head, tail));
        }
        None
    }

    /// While a record is being skipped: drops the buffer up to its delimiter, and reports
    /// the record when that is found (or the stream ends).
    fn skip(&mut self) -> Option<Next> {
        let skipping = self.skipping.as_mut()?;
        let delimiter = self.framing.delimiter;
        let found = self.buf[self.head..self.tail]
            .iter()
            .position(|&b| b == delimiter);
        let upto = found.map_or(self.tail, |p| self.head + p);
        skipping.len += (upto - self.head) as u64;
        if upto > self.head {
            skipping.last_cr = self.buf[upto - 1] == b'\r';
        }
        self.head = found.map_or(self.tail, |_| upto + 1);
        if found.is_none() && !self.eof {
            return None;
        }
        let mut done = *skipping;
        self.skipping = None;
        if found.is_some() {
            if self.framing.crlf && done.last_cr {
                done.len -= 1; // The `\r` before the `\n` is not part of the record.
            }
            // The records after its delimiter, already read.
            self.find(false);
        }
        done.report
            .then_some(Next::TooLong(done.number, done.offset, done.len))
    }

    /// Reads once more into the buffer (after moving what is left to its front), and finds
    /// the complete records in what is new.
    fn read(&mut self) -> io::Result<()> {
        if self.head > 0 {
            self.buf.copy_within(self.head..self.tail, 0);
            self.origin += self.head as u64;
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
        if n == 0 {
            self.eof = true;
            return Ok(());
        }
        let searched = self.tail;
        self.tail += n;
        if self.skipping.is_none() {
            // A delimiter among the new bytes ends every record before it.
            let delimiter = self.framing.delimiter;
            if self.buf[searched..self.tail].contains(&delimiter) {
                self.find(false);
            }
        }
        Ok(())
    }

    /// Finds the records of `buf[head..tail]` up to its last delimiter (or all of it, at
    /// the end of the stream), in one pass.
    fn find(&mut self, to_end: bool) {
        let delimiter = self.framing.delimiter;
        let region = &self.buf[self.head..self.tail];
        let complete = if to_end {
            region.len()
        } else {
            match region.iter().rposition(|&b| b == delimiter) {
                Some(p) => p + 1,
                None => return,
            }
        };
        let region = &region[..complete];
        let mut records = Records::new(region, delimiter, self.framing.crlf);
        let head = self.head;
        self.spans.clear();
        self.next_span = 0;
        while let Some(r) = records.next() {
            let start = head + r.offset();
            self.spans.push(Span {
                start,
                end: start + r.bytes().len(),
                // Its end bytes run to where the next record (what is not yet yielded)
                // starts.
                next: head + complete - records.remaining().len(),
                valid: r.is_valid(),
            });
        }
    }
}
