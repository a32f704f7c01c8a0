//! Records: a buffer cut at a delimiter (log lines, NUL- or RS-separated records), every
//! record with its verdict, from one pass over the buffer.
//!
//! ```
//! let log = b"GET /index.html 200\r\nGET /caf\xE9 404\n\nGET /\xC3\xA9t\xC3\xA9 200";
//! let records: Vec<_> = vutf8::records::lines(log)
//!     .map(|r| (r.offset(), r.bytes(), r.is_valid()))
//!     .collect();
//! assert_eq!(
//!     records,
//!     [
//!         (0, &b"GET /index.html 200"[..], true),
//!         (21, &b"GET /caf\xE9 404"[..], false),
//!         (35, &b""[..], true),
//!         (36, &b"GET /\xC3\xA9t\xC3\xA9 200"[..], true),
//!     ]
//! );
//! let err = vutf8::records::lines(log).nth(1).unwrap().to_str().unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (8, Some(1)));
//! ```
//!
//! # Which records
//!
//! [`lines`] gives the records `std::io::BufRead::lines` gives: the buffer is cut at each
//! `\n`; a `\r` just before a `\n` is left out of the record; the last record needs no `\n`;
//! there is no record after a final `\n` (and none in an empty buffer). Unlike `lines()`,
//! a record that is not valid UTF-8 is yielded like any other, with its verdict, and the
//! records after it follow. [`split`] cuts at any ASCII byte with the same rules, without
//! the `\r` rule; a delimiter that is not ASCII could be a byte of a character, and is
//! refused ([`DelimiterError`]).
//!
//! # One pass
//!
//! A log shipper's buffer holds thousands of short records; validating each on its own
//! pays a call, a set-up and a tail per record. Here the buffer is scanned a window of
//! `tiers::RECORD_WINDOW` bytes at a time, each byte loaded once: the vector backend writes
//! out the positions of the window's delimiters and, in the same loads, checks its bytes
//! as the validator does (`crate::arch::generic::delimiters`); only a group of blocks with an
//! error is checked again for the error bits of its bytes. A valid window's records then
//! cost a few instructions each: the next position. In a window with an error, each
//! record's verdict is whether a bit lies in its bytes or on its delimiter (the few records
//! whose only bits may be the record before's are validated on their own); it is written
//! into the record's position, so that taking a record costs the same either way.
//!
//! Why that is each record's own verdict: the delimiter is ASCII, so a decoder of the
//! whole window is between characters at the start of every record, and an ill-formed part
//! never contains a delimiter. A record alone and the same record inside the window decode
//! alike up to its end; a sequence that the record's end cuts short is an error for the
//! record alone (it ends early) and for the window (the delimiter cannot continue it). The
//! exact error of an invalid record ([`Record::to_str`]) is the record's own, computed
//! from the record alone on the cold path: positions from the record's start, and `None`
//! for a sequence the record's end cuts short, as `core::str::from_utf8` says.
//!
//! # Records by offsets
//!
//! Columns of strings in Arrow are a values buffer and offsets: [`offsets`] gives their
//! records with the same verdicts, from one search of the values ([`RangeMap`]; its module
//! documentation has the rule, which holds for ranges anywhere, in any order), and
//! [`verdict_bits`] writes every record's verdict as a bit, a group of rows at a time
//! (what Arrow's validity kernels want: `vutf8-arrow`).
//!
//! # Repair
//!
//! [`repair`] applies a [`Policy`] to every record of any of these iterators: replace each
//! ill-formed part with U+FFFD, escape its bytes as `\xNN`, decode the record as
//! windows-1252 (whole, or only its ill-formed parts), drop it, or refuse it with an error
//! that names it. `docs/RECORDS.md` says which a log pipeline should pick.
//!
//! # Counts
//!
//! [`Counts`] counts records by outcome (valid, invalid, too long, cut, repaired, dropped,
//! refused) and invalid ones by the kind of their first error; [`repair`]'s iterator and
//! the streams fill one as they go, for a pipeline's metrics.
//!
//! # Streams
//!
//! [`Framing`] and [`RecordReader`] (feature `std`) carry the framing of [`lines`] and
//! [`split`] across the reads of any `std::io::Read`: a record split between two reads is
//! one record, each byte is checked once as it arrives, and a cap on a record's length
//! (default [`DEFAULT_MAX_RECORD`], any `usize`) keeps memory bounded; a longer record is
//! reported with its first bytes (for a dead-letter queue) and skipped, or cut, and the
//! stream goes on. After a read of 0 bytes the reader can read on: a growing file is
//! followed by calling it again.
//!
//! Where things are: `framer.rs` (streams), `policy.rs` (repair), `counts.rs` ([`Counts`]),
//! `delimited.rs` (delimited records), `ranges.rs` (records by offsets or ranges),
//! `record.rs` ([`Record`]). Next:
//! `crate::arch::generic::delimiters` for the scan of a window (delimiters and error bits),
//! `crate::engine` for the records validated on their own.

mod counts;
mod delimited;
#[cfg(feature = "std")]
mod framer;
#[cfg(feature = "alloc")]
mod policy;
#[cfg(feature = "alloc")]
mod ranges;
mod record;

pub use counts::Counts;
pub use delimited::{lines, split, DelimiterError, Records};
#[cfg(feature = "std")]
pub use framer::{
    Frame, Framer, Framing, RecordReader, RecordSpan, Step, StreamRecord, DEFAULT_MAX_RECORD,
};
#[cfg(feature = "alloc")]
pub use policy::{repair, InvalidRecord, Policy, Repair, Repaired};
#[cfg(feature = "alloc")]
pub use ranges::{offsets, verdict_bits, ByOffsets, InOrder, Offset, OffsetsError, RangeMap};
pub use record::Record;
