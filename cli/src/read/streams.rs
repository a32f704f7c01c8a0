//! Finding the errors in a stream (standard input, a pipe, a small file), read into a
//! buffer of fixed size, in constant memory, with exactly the results of one check of the
//! whole input.
//!
//! The errors come from the library's [`vutf8::ErrorScanner`], which is fed each buffer
//! as it is read and reports every error as soon as it is certain, with its offset from
//! the start of the stream; it holds back at most 3 bytes between buffers (an unfinished
//! sequence, or an ill-formed one whose kind depends on what follows). This module adds
//! what a report needs around it:
//!
//! - the signature at the start ([`crate::scan::bom`]);
//! - line and column ([`crate::scan::position`]), when asked for: every buffer is counted
//!   before it is reused, up to the bytes the scanner holds back, which are kept (3 bytes
//!   at most) and counted with the next buffer, since an error may still start in them;
//! - the bytes each error is made of, which may start in those held-back bytes;
//! - the character count of a valid input, for `--summary`;
//! - stopping at the first error without `--all` (the rest of the input is not read, and
//!   the scanner is fed only up to just past the first error, which the fast validator
//!   finds).
//!
//! [`crate::read::reading`] calls [`scan_stream`] on every input it does not map.

use std::cell::Cell;
use std::io::{self, Read};

use vutf8::{ErrorScanner, Utf8Error, UTF8_BOM};

use crate::read::slicing::MIN_CHUNK;
use crate::scan::bom;
use crate::scan::engine::Settings;
use crate::scan::findings::{Emit, Failure, Finding, Meter, Scanned};
use crate::scan::position::{self, Position};

/// Scans a stream read into a buffer of `settings.chunk` bytes (fewer when the caller
/// knows the input is smaller: `size_hint`).
pub fn scan_stream(
    reader: &mut dyn Read,
    size_hint: Option<u64>,
    settings: &Settings,
    progress: &dyn Meter,
    emit: Emit<'_>,
) -> Result<Scanned, Failure> {
    // Room for the whole input plus one read that returns 0, if it is small (but not too
    // little: files in /proc say they are empty and are not).
    const SMALL: usize = 64 << 10;
    let capacity = match size_hint {
        Some(size) => usize::try_from(size)
            .unwrap_or(usize::MAX)
            .saturating_add(1)
            .max(SMALL),
        None => settings.chunk,
    }
    .min(settings.chunk)
    .max(MIN_CHUNK);
    // Each thread keeps its buffer from one stream to the next: allocating and zeroing
    // one per small file was a noticeable part of a check of `/usr/share`.
    let mut buffer = BUFFER.take();
    if buffer.len() < capacity {
        buffer.resize(capacity, 0);
    }
    let result = scan_with(reader, &mut buffer[..capacity], settings, progress, emit);
    BUFFER.set(buffer);
    result
}

thread_local! {
    /// The buffer of the streams read on this thread.
    static BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// [`scan_stream`] with its buffer.
fn scan_with(
    reader: &mut dyn Read,
    buf: &mut [u8],
    settings: &Settings,
    progress: &dyn Meter,
    emit: Emit<'_>,
) -> Result<Scanned, Failure> {
    // The first read goes on until a signature can be told (3 bytes, or the end).
    let mut filled = 0;
    let mut end_of_input = false;
    while filled < UTF8_BOM.len() && !end_of_input {
        let read = read_some(reader, &mut buf[filled..]).map_err(Failure::Read)?;
        progress.inc(read as u64);
        filled += read;
        end_of_input = read == 0;
    }
    let mut read_total = filled as u64;
    let signature = bom::leading(&buf[..filled], settings.bom, settings.track, emit)?;
    if signature.ends_scan(settings.all) {
        return Ok(Scanned {
            valid: false,
            bytes: read_total,
            chars: 0,
        });
    }
    let mut scan = Scan {
        scanner: ErrorScanner::new(),
        base: signature.skip as u64,
        settings,
        position: Position::default(),
        counted: 0,
        chars: 0,
        valid: !signature.reported,
        stop: false,
        failed: None,
    };
    let mut start = signature.skip;
    loop {
        scan.update(&buf[start..filled], emit);
        if let Some(e) = scan.failed.take() {
            return Err(Failure::Write(e));
        }
        if scan.stop {
            break;
        }
        if end_of_input {
            scan.finish(emit);
            if let Some(e) = scan.failed.take() {
                return Err(Failure::Write(e));
            }
            break;
        }
        start = 0;
        filled = read_some(reader, buf).map_err(Failure::Read)?;
        progress.inc(filled as u64);
        read_total += filled as u64;
        end_of_input = filled == 0;
    }
    Ok(Scanned {
        valid: scan.valid,
        bytes: read_total,
        chars: if scan.valid { scan.chars } else { 0 },
    })
}

/// The state of a stream's scan between buffers.
struct Scan<'s> {
    scanner: ErrorScanner,
    /// The stream offset of the scanner's offset 0 (3 after a signature).
    base: u64,
    settings: &'s Settings,
    /// Line and column of the byte at `counted`.
    position: Position,
    /// Scanner offset up to which `position` has been advanced.
    counted: u64,
    /// Characters so far (a valid input's count; meaningless once an error is found).
    chars: u64,
    valid: bool,
    /// The first error was reported and that is all that was asked for.
    stop: bool,
    /// Writing a finding failed.
    failed: Option<io::Error>,
}

impl Scan<'_> {
    /// Scans the next buffer.
    fn update(&mut self, chunk: &[u8], emit: Emit<'_>) {
        if self.settings.count {
            self.chars += position::count_chars(chunk);
        }
        if self.settings.all {
            return self.feed(chunk, emit);
        }
        // The first error only: the validator finds where it is, and the scanner is fed
        // only up to just past it, so that the errors after it (thousands in a binary
        // file) are never looked for.
        let mut rest = chunk;
        while !rest.is_empty() && !self.stop && self.failed.is_none() {
            let n = match self.settings.engine.validate(rest) {
                Ok(()) => rest.len(),
                Err(e) => (e.valid_up_to() + 4).min(rest.len()),
            };
            self.feed(&rest[..n], emit);
            rest = &rest[n..];
        }
    }

    /// Feeds `chunk` to the scanner, reporting the errors it finds.
    fn feed(&mut self, chunk: &[u8], emit: Emit<'_>) {
        // The held-back bytes, which errors may start in: the buffer continues them.
        let mut held = [0u8; 3];
        let held_len = self.scanner.pending().len();
        held[..held_len].copy_from_slice(self.scanner.pending());
        let seen = Seen {
            held: &held[..held_len],
            chunk,
            start: self.scanner.offset() - held_len as u64,
        };
        let mut scanner = std::mem::take(&mut self.scanner);
        scanner.update(chunk, |e| self.found(e, &seen, &mut *emit));
        self.scanner = scanner;
        // Everything before what the scanner now holds back is decided: count it.
        let decided = self.scanner.offset() - self.scanner.pending().len() as u64;
        self.advance_to(decided, &seen);
    }

    /// Ends the stream: the bytes held back are judged as the end of the input.
    fn finish(&mut self, emit: Emit<'_>) {
        let mut held = [0u8; 3];
        let held_len = self.scanner.pending().len();
        held[..held_len].copy_from_slice(self.scanner.pending());
        let seen = Seen {
            held: &held[..held_len],
            chunk: &[],
            start: self.scanner.offset() - held_len as u64,
        };
        let scanner = std::mem::take(&mut self.scanner);
        scanner.finish(|e| self.found(e, &seen, &mut *emit));
    }

    /// Reports one error, unless the scan has stopped.
    fn found(&mut self, error: Utf8Error, seen: &Seen<'_>, emit: Emit<'_>) {
        if self.stop || self.failed.is_some() {
            return;
        }
        self.valid = false;
        let at = error.valid_up_to() as u64;
        self.advance_to(at, seen);
        let (bytes, len) = seen.bytes_at(at);
        let here = self.settings.track.then_some(&self.position);
        let finding = Finding::new(self.base + at, error, &bytes[..len], here);
        if let Err(e) = emit(&finding) {
            self.failed = Some(e);
            return;
        }
        self.stop = !self.settings.all;
        if self.settings.track {
            self.position.advance_error();
        }
        // `None`: the input ends inside a sequence, which is its last error.
        self.counted = at + error.error_len().map_or(0, |n| n as u64);
    }

    /// Moves the position over the valid bytes before scanner offset `to`.
    fn advance_to(&mut self, to: u64, seen: &Seen<'_>) {
        if self.settings.track && to > self.counted {
            let (a, b) = seen.range(self.counted, to);
            self.position.advance_valid(a);
            self.position.advance_valid(b);
        }
        self.counted = self.counted.max(to);
    }
}

/// The bytes an error can lie in during one call of the scanner: those it held back from
/// before, then the new buffer; `start` is the scanner offset of the first of them.
struct Seen<'a> {
    held: &'a [u8],
    chunk: &'a [u8],
    start: u64,
}

impl<'a> Seen<'a> {
    /// Scanner offsets `from..to`, as a part of the held bytes and a part of the buffer.
    fn range(&self, from: u64, to: u64) -> (&'a [u8], &'a [u8]) {
        let index = |offset: u64| usize::try_from(offset - self.start).unwrap_or(usize::MAX);
        let (from, to) = (
            index(from),
            index(to).min(self.held.len() + self.chunk.len()),
        );
        let split = self.held.len();
        (
            &self.held[from.min(split)..to.min(split)],
            &self.chunk[from.max(split) - split..to.max(split) - split],
        )
    }

    /// Up to 4 bytes from scanner offset `at` on, and how many there are.
    fn bytes_at(&self, at: u64) -> ([u8; 4], usize) {
        let (a, b) = self.range(at, at + 4);
        let mut out = [0u8; 4];
        out[..a.len()].copy_from_slice(a);
        let len = (a.len() + b.len()).min(4);
        out[a.len()..len].copy_from_slice(&b[..len - a.len()]);
        (out, len)
    }
}

/// One `read`, retried when interrupted by a signal.
fn read_some(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}
