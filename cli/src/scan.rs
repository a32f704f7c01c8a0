//! Finding the errors in a byte slice (a mapped file, on all cores) or in a stream (read in
//! fixed-size buffers, in constant memory), with exactly the results of one
//! [`vutf8::from_utf8`] over the whole input.
//!
//! ## Slices: chunks that cannot disagree with the whole
//!
//! A large slice is cut into chunks of about `chunk` bytes, each checked on its own by a
//! rayon task. A chunk boundary is moved back (by at most 3 bytes) onto a byte that cannot
//! continue a sequence: a byte that is not a continuation byte `10xxxxxx`, or else a
//! continuation byte preceded by 3 more (no lead byte can reach it, since a sequence has at
//! most 3 continuation bytes). Every decoder that restarts after each maximal subpart, as
//! `from_utf8` and `--all` do, starts afresh at such a byte, so what lies before it cannot
//! change what is found after it. What lies after it can change what is found before it,
//! though: `E2 82` at the end of a chunk is "input ends inside a sequence" alone, but
//! "sequence cut short" when the next chunk starts with `41`. So each chunk is checked with
//! one byte of the next chunk appended, and errors starting at that extra byte are left to
//! the next chunk. One byte is enough: whether a sequence is cut short, and its kind, are
//! decided by the first byte that breaks it, and a boundary byte always breaks it.
//!
//! Without `--all`, the default validator runs the library's own parallel check,
//! `vutf8::par_from_utf8` (which splits its input in its own way), over windows of 256
//! chunks in turn, cut and extended as above, so that a progress bar moves. A forced
//! backend, or counting characters, uses this module's chunks: they race
//! (`find_map_first`) and the first chunk with an error wins, or, when counting, every
//! chunk is checked and counted. With `--all`, windows of chunks are first tested in
//! parallel with the fast yes/no check, and only the dirty chunks are then scanned in
//! order, one error after another, each scan restarting after the error's maximal subpart,
//! so the report is in file order and needs no memory per error.
//!
//! ## Streams: hold back the last three bytes
//!
//! A stream is read into a buffer of fixed size. Each buffer is checked, and an error, or
//! an unfinished sequence, that starts in the last 3 bytes of a buffer (and not at the end of
//! the input) is not judged yet: those bytes are moved to the front of the buffer and read
//! again with what follows. A character is at most 4 bytes, so every verdict, and every
//! code point an error names, is reached with all the bytes a whole-input check sees.
//!
//! ## Positions
//!
//! Line and column ([`crate::position`]) are counted only when asked for. On a slice they
//! are counted only up to each error found; on a stream, every buffer has to be counted
//! before it is reused.

use std::io::{self, Read};

use rayon::prelude::*;
use vutf8::{Backend, Utf8Error, UTF8_BOM};

use crate::args::Bom;
use crate::position::{self, Position};
use crate::progress::Progress;

/// Which validator runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The one `vutf8` picks for this CPU.
    Auto,
    /// One backend, forced with `--backend`; the caller checked that the CPU can run it.
    Forced(Backend),
}

impl Engine {
    /// The first error in `input`, like [`vutf8::from_utf8`].
    #[inline]
    pub fn validate(self, input: &[u8]) -> Result<(), Utf8Error> {
        match self {
            Engine::Auto => vutf8::from_utf8(input).map(|_| ()),
            Engine::Forced(backend) => backend.validate(input),
        }
    }

    /// The number of characters in `input` if it is valid (when `count`; else 0), or the
    /// first error.
    #[inline]
    pub fn validate_counting(self, input: &[u8], count: bool) -> Result<u64, Utf8Error> {
        match self {
            Engine::Auto if count => vutf8::validate_and_count(input).map(|n| n as u64),
            _ => {
                self.validate(input)?;
                Ok(if count {
                    position::count_chars(input)
                } else {
                    0
                })
            }
        }
    }

    /// Whether `input` is valid, the fastest way.
    #[inline]
    pub fn is_valid(self, input: &[u8]) -> bool {
        match self {
            Engine::Auto => vutf8::is_valid(input),
            Engine::Forced(backend) => backend.is_valid(input),
        }
    }
}

/// How to scan.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The validator.
    pub engine: Engine,
    /// Report every error, not only the first.
    pub all: bool,
    /// Count lines and columns (otherwise findings carry line 0, column 0).
    pub track: bool,
    /// Bytes per parallel chunk of a slice, and the size of a stream's buffer.
    pub chunk: usize,
    /// Count the characters of valid inputs.
    pub count: bool,
    /// What a leading UTF-8 signature `EF BB BF` is. Unless it is reported, it is valid
    /// but not counted: not a character, not a column (editors hide it).
    pub bom: Bom,
}

/// The smallest chunk the scanners accept: the boundary rule needs a few bytes to back up.
pub const MIN_CHUNK: usize = 16;

/// What is wrong.
#[derive(Clone, Copy, Debug)]
pub enum Problem {
    /// Ill-formed UTF-8. The error's `valid_up_to` is relative to some chunk: use
    /// [`Finding::offset`] instead.
    Utf8(Utf8Error),
    /// A UTF-8 signature at the start, with `--bom report`.
    Bom,
}

/// One error, where it is and what bytes it is made of.
#[derive(Clone, Copy, Debug)]
pub struct Finding {
    /// Byte offset of the error in the input, from 0.
    pub offset: u64,
    /// 1-based line (0 if positions were not tracked).
    pub line: u64,
    /// 1-based column (0 if positions were not tracked); see [`crate::position`].
    pub column: u64,
    /// What is wrong there.
    pub problem: Problem,
    bytes: [u8; 4],
    len: u8,
}

impl Finding {
    /// The bytes to show: the whole ill-formed sequence when it names a code point
    /// (`C0 AF`), otherwise its maximal subpart, or what is left of the input.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    fn new(offset: u64, error: Utf8Error, rest: &[u8], position: Option<&Position>) -> Self {
        let wanted = if error.code_point().is_some() {
            error.sequence_len()
        } else {
            error.error_len().unwrap_or(error.sequence_len())
        };
        let len = wanted.clamp(1, 4).min(rest.len());
        let mut bytes = [0; 4];
        bytes[..len].copy_from_slice(&rest[..len]);
        Finding {
            offset,
            line: position.map_or(0, Position::line),
            column: position.map_or(0, Position::column),
            problem: Problem::Utf8(error),
            bytes,
            len: len as u8,
        }
    }

    fn bom(track: bool) -> Self {
        let start = u64::from(track);
        Finding {
            offset: 0,
            line: start,
            column: start,
            problem: Problem::Bom,
            bytes: [UTF8_BOM[0], UTF8_BOM[1], UTF8_BOM[2], 0],
            len: 3,
        }
    }
}

/// Why a scan stopped early.
#[derive(Debug)]
pub enum Failure {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing a finding failed (e.g. a closed pipe).
    Write(io::Error),
}

/// What a scan saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// Whether no error was found.
    pub valid: bool,
    /// Bytes read (a scan without `--all` stops reading a stream at its first error).
    pub bytes: u64,
    /// Characters, if asked for and the input is valid (a signature is not one); else 0.
    pub chars: u64,
}

/// Receives each finding, in input order.
pub type Emit<'a> = &'a mut dyn FnMut(&Finding) -> io::Result<()>;

/// Scans `data`, in parallel chunks if it is larger than one chunk.
pub fn scan_slice(
    data: &[u8],
    settings: &Settings,
    progress: &Progress,
    emit: Emit<'_>,
) -> Result<Scanned, Failure> {
    let mut scanned = Scanned {
        valid: true,
        bytes: data.len() as u64,
        chars: 0,
    };
    let mut text = data;
    if vutf8::has_bom(data) {
        text = &data[UTF8_BOM.len()..];
        if settings.bom == Bom::Report {
            scanned.valid = false;
            emit(&Finding::bom(settings.track)).map_err(Failure::Write)?;
            if !settings.all {
                return Ok(scanned);
            }
        }
    }
    let base = data.len() - text.len();
    let bounds = chunk_bounds(text, settings.chunk.max(MIN_CHUNK));
    if settings.all {
        let (valid, chars) = all_errors(text, base, &bounds, settings, progress, emit)?;
        scanned.valid &= valid;
        scanned.chars = chars;
    } else {
        match first_error(text, &bounds, settings, progress) {
            (None, chars) => scanned.chars = chars,
            (Some((at, error)), _) => {
                let mut position = Position::default();
                let position = settings.track.then(|| {
                    position.advance_valid(&text[..at]);
                    &position
                });
                emit(&Finding::new(
                    (base + at) as u64,
                    error,
                    &text[at..],
                    position,
                ))
                .map_err(Failure::Write)?;
                scanned.valid = false;
            }
        }
    }
    if !scanned.valid {
        scanned.chars = 0;
    }
    Ok(scanned)
}

/// The first error in `data` and where it is, checked in parallel chunks of `chunk` bytes
/// (for `vutf8 bench`).
pub fn first_error_parallel(
    data: &[u8],
    engine: Engine,
    chunk: usize,
) -> Option<(usize, Utf8Error)> {
    let bounds = chunk_bounds(data, chunk.max(MIN_CHUNK));
    let settings = Settings {
        engine,
        all: false,
        track: false,
        chunk,
        count: false,
        bom: Bom::Accept,
    };
    first_error(data, &bounds, &settings, &Progress::none()).0
}

/// Chunk starts: 0, then a safe boundary near every multiple of `chunk`, then `data.len()`.
fn chunk_bounds(data: &[u8], chunk: usize) -> Vec<usize> {
    let mut bounds = vec![0];
    let mut next = chunk;
    while next < data.len() {
        bounds.push(safe_boundary(data, next));
        next += chunk;
    }
    bounds.push(data.len());
    bounds
}

/// The last byte at or before `at` (`3 <= at < data.len()`), at most 3 bytes back, where
/// every decoder starts afresh: see the module documentation.
fn safe_boundary(data: &[u8], at: usize) -> usize {
    (at - 3..=at)
        .rev()
        .find(|&i| !is_continuation(data[i]))
        .unwrap_or(at)
}

#[inline]
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Chunk `i` of `data`, with one byte of the next chunk appended (see the module docs).
fn extended<'a>(data: &'a [u8], bounds: &[usize], i: usize) -> &'a [u8] {
    let end = (bounds[i + 1] + 1).min(data.len());
    &data[bounds[i]..end]
}

/// The first error in `data` (offset and error) and, if there is none and
/// `settings.count`, the number of characters.
fn first_error(
    data: &[u8],
    bounds: &[usize],
    settings: &Settings,
    progress: &Progress,
) -> (Option<(usize, Utf8Error)>, u64) {
    let engine = settings.engine;
    if engine == Engine::Auto && !settings.count {
        return (library_first_error(data, settings.chunk, progress), 0);
    }
    // The exact first error of chunk `i`, if it has one.
    let exact = |i: usize| {
        let (start, end) = (bounds[i], bounds[i + 1]);
        match engine.validate(extended(data, bounds, i)) {
            Err(e) if start + e.valid_up_to() < end => Some((start + e.valid_up_to(), e)),
            _ => None,
        }
    };
    let chunks = bounds.len() - 1;
    if !settings.count {
        let check = |i: usize| {
            let found = exact(i);
            progress.inc((bounds[i + 1] - bounds[i]) as u64);
            found
        };
        let found = if chunks == 1 {
            check(0)
        } else {
            (0..chunks).into_par_iter().find_map_first(check)
        };
        return (found, 0);
    }
    // Counting needs every chunk, so no chunk stops the others. A chunk is valid on its
    // own exactly when it holds no error (it ends where a character ends); only an invalid
    // one is checked again, extended, for the exact error.
    let check = |i: usize| {
        let chunk = &data[bounds[i]..bounds[i + 1]];
        let result = match engine.validate_counting(chunk, true) {
            Ok(chars) => Ok(chars),
            // `exact` always finds the error here; were it not to, the chunk is valid.
            Err(_) => exact(i).map_or_else(|| Ok(position::count_chars(chunk)), Err),
        };
        progress.inc(chunk.len() as u64);
        result
    };
    let results: Vec<Result<u64, (usize, Utf8Error)>> = if chunks == 1 {
        vec![check(0)]
    } else {
        (0..chunks).into_par_iter().map(check).collect()
    };
    let mut chars = 0;
    for result in results {
        match result {
            Ok(n) => chars += n,
            Err(found) => return (Some(found), 0),
        }
    }
    (None, chars)
}

/// The first error in `data`, found by the library's own parallel check,
/// [`vutf8::par_from_utf8`], over windows of 256 chunks (256 MiB by default) in turn, so
/// that a progress bar moves. Windows are cut and extended like chunks.
fn library_first_error(
    data: &[u8],
    chunk: usize,
    progress: &Progress,
) -> Option<(usize, Utf8Error)> {
    let windows = chunk_bounds(data, chunk.max(MIN_CHUNK).saturating_mul(256));
    for i in 0..windows.len() - 1 {
        let (start, end) = (windows[i], windows[i + 1]);
        match vutf8::par_from_utf8(extended(data, &windows, i)) {
            Err(e) if start + e.valid_up_to() < end => return Some((start + e.valid_up_to(), e)),
            _ => progress.inc((end - start) as u64),
        }
    }
    None
}

/// Every error in `data` (which starts at offset `base` of the input), in order; whether
/// there was none and, if so and `settings.count`, the number of characters.
fn all_errors(
    data: &[u8],
    base: usize,
    bounds: &[usize],
    settings: &Settings,
    progress: &Progress,
    emit: Emit<'_>,
) -> Result<(bool, u64), Failure> {
    let engine = settings.engine;
    let chunks = bounds.len() - 1;
    let window = (rayon::current_num_threads() * 4).max(1);
    let mut position = Position::default();
    let mut counted = 0; // bytes already fed to `position`
    let mut valid = true;
    for first in (0..chunks).step_by(window) {
        let last = (first + window).min(chunks);
        let dirty: Vec<bool> = (first..last)
            .into_par_iter()
            .map(|i| !engine.is_valid(extended(data, bounds, i)))
            .collect();
        for (i, dirty) in (first..last).zip(dirty) {
            if !dirty {
                continue;
            }
            let (mut at, end) = (bounds[i], bounds[i + 1]);
            let part = extended(data, bounds, i);
            while at < end {
                let Err(error) = engine.validate(&part[at - bounds[i]..]) else {
                    break;
                };
                let found = at + error.valid_up_to();
                if found >= end {
                    break;
                }
                valid = false;
                let here = settings.track.then(|| {
                    position.advance_valid(&data[counted..found]);
                    &position
                });
                emit(&Finding::new(
                    (base + found) as u64,
                    error,
                    &data[found..],
                    here,
                ))
                .map_err(Failure::Write)?;
                position.advance_error();
                // `None` (the input ends inside a sequence) only happens in the last chunk.
                at = error.error_len().map_or(data.len(), |len| found + len);
                counted = at;
            }
        }
        progress.inc((bounds[last] - bounds[first]) as u64);
    }
    let chars = if valid && settings.count {
        position::count_chars(data)
    } else {
        0
    };
    Ok((valid, chars))
}

/// Scans a stream read into a buffer of `settings.chunk` bytes (fewer when the caller
/// knows the input is smaller: `size_hint`).
pub fn scan_stream(
    reader: &mut dyn Read,
    size_hint: Option<u64>,
    settings: &Settings,
    progress: &Progress,
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
    const HELD: usize = 3;
    let mut buf = vec![0u8; capacity + HELD];
    let mut held = 0; // bytes at the front of `buf` carried over from the last round
    let mut base = 0u64; // stream offset of `buf[0]`
    let mut position = Position::default();
    let mut valid = true;
    let mut chars = 0;
    let mut at_start = true; // whether a signature may still come
    loop {
        let read = read_some(reader, &mut buf[held..]).map_err(Failure::Read)?;
        progress.inc(read as u64);
        let end_of_input = read == 0;
        let filled = held + read;
        let data = &buf[..filled];
        let mut at = 0;
        if at_start {
            if filled < UTF8_BOM.len() && !end_of_input && UTF8_BOM.starts_with(data) {
                held = filled; // maybe a signature: wait for its third byte
                continue;
            }
            at_start = false;
            if vutf8::has_bom(data) {
                at = UTF8_BOM.len();
                if settings.bom == Bom::Report {
                    valid = false;
                    emit(&Finding::bom(settings.track)).map_err(Failure::Write)?;
                    if !settings.all {
                        return Ok(Scanned {
                            valid,
                            bytes: filled as u64,
                            chars: 0,
                        });
                    }
                }
            }
        }
        let mut keep_from = filled;
        while at < filled {
            let error = match settings
                .engine
                .validate_counting(&data[at..], settings.count)
            {
                Ok(n) => {
                    chars += n;
                    if settings.track {
                        position.advance_valid(&data[at..]);
                    }
                    break;
                }
                Err(error) => error,
            };
            let found = at + error.valid_up_to();
            if settings.track {
                position.advance_valid(&data[at..found]);
            }
            if !end_of_input && filled - found <= HELD {
                // Judge it with the bytes that follow.
                if settings.count {
                    chars += position::count_chars(&data[at..found]);
                }
                keep_from = found;
                break;
            }
            valid = false;
            let here = settings.track.then_some(&position);
            emit(&Finding::new(
                base + found as u64,
                error,
                &data[found..],
                here,
            ))
            .map_err(Failure::Write)?;
            if !settings.all {
                return Ok(Scanned {
                    valid,
                    bytes: base + filled as u64,
                    chars: 0,
                });
            }
            position.advance_error();
            // `None`: the input ends inside a sequence, which can only be at its end.
            at = error.error_len().map_or(filled, |len| found + len);
        }
        if end_of_input {
            return Ok(Scanned {
                valid,
                bytes: base + filled as u64,
                chars: if valid { chars } else { 0 },
            });
        }
        buf.copy_within(keep_from..filled, 0);
        held = filled - keep_from;
        base += keep_from as u64;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding as plain values: offset, line, column, error, bytes shown.
    type Plain = (u64, u64, u64, Utf8Error, Vec<u8>);

    /// What `--all` must report: every error of `scalar::decode` over the whole input, with
    /// line and column counted naively.
    fn reference(input: &[u8]) -> Vec<Plain> {
        let (mut line, mut column) = (1, 1);
        let mut out = Vec::new();
        for item in vutf8::scalar::decode(input) {
            match item {
                Ok((_, '\n')) => (line, column) = (line + 1, 1),
                Ok(_) => column += 1,
                Err(e) => {
                    let at = e.valid_up_to();
                    let shown = Finding::new(at as u64, e, &input[at..], None);
                    out.push((at as u64, line, column, e, shown.bytes().to_vec()));
                    column += 1;
                }
            }
        }
        out
    }

    fn collect(run: impl FnOnce(Emit<'_>) -> Result<Scanned, Failure>) -> (Scanned, Vec<Plain>) {
        let mut found = Vec::new();
        let scanned = run(&mut |f: &Finding| {
            let Problem::Utf8(error) = f.problem else {
                panic!("a signature reported without --bom report")
            };
            found.push((f.offset, f.line, f.column, error, f.bytes().to_vec()));
            Ok(())
        })
        .expect("no I/O error");
        (scanned, found)
    }

    /// Compares findings, ignoring `valid_up_to` (relative to a chunk in the scanners).
    fn same(got: &[Plain], want: &[Plain]) -> bool {
        got.len() == want.len()
            && got.iter().zip(want).all(|(g, w)| {
                (g.0, g.1, g.2, &g.4) == (w.0, w.1, w.2, &w.4)
                    && (
                        g.3.kind(),
                        g.3.error_len(),
                        g.3.code_point(),
                        g.3.sequence_len(),
                    ) == (
                        w.3.kind(),
                        w.3.error_len(),
                        w.3.code_point(),
                        w.3.sequence_len(),
                    )
            })
    }

    /// A reader that hands out at most `step` bytes per read.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// Inputs with errors of every kind near every offset of a small chunk size.
    fn inputs() -> Vec<Vec<u8>> {
        let pieces: &[&[u8]] = &[
            b"\xC0\xAF",
            b"\xE0\x80\xAF",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xF0\x9F\x98",
            b"\xE2\x82",
            b"\x80\xBF",
            b"\xFF",
            b"\xF8\x88\x80\x80\x80",
            "é世🌍".as_bytes(),
            b"\n",
            b"\r\n",
        ];
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            for pad in 0..40 {
                let mut v = Vec::new();
                v.extend(std::iter::repeat_n(b'a', pad));
                v.extend_from_slice(piece);
                v.extend_from_slice("x\nß".as_bytes());
                v.extend_from_slice(pieces[(i + 3) % pieces.len()]);
                v.extend(std::iter::repeat_n(b'b', pad % 7));
                out.push(v);
            }
            // And the piece at the very end, cut at every length.
            for cut in 0..=piece.len() {
                let mut v = b"start\n".repeat(3);
                v.extend_from_slice(&piece[..cut]);
                out.push(v);
            }
        }
        out
    }

    #[test]
    fn slices_and_streams_agree_with_a_whole_input_decode() {
        let engines = std::iter::once(Engine::Auto)
            .chain(Backend::available().map(Engine::Forced))
            .collect::<Vec<_>>();
        for input in inputs() {
            let want = reference(&input);
            let chars = std::str::from_utf8(&input).map_or(0, |s| s.chars().count() as u64);
            for &engine in &engines {
                for chunk in [16, 17, 19, 23, 64] {
                    for all in [false, true] {
                        let settings = Settings {
                            engine,
                            all,
                            track: true,
                            chunk,
                            count: true,
                            bom: Bom::Accept,
                        };
                        let want = if all {
                            &want[..]
                        } else {
                            &want[..want.len().min(1)]
                        };
                        let (scanned, got) =
                            collect(|emit| scan_slice(&input, &settings, &Progress::none(), emit));
                        assert_eq!(scanned.valid, want.is_empty());
                        assert_eq!(scanned.chars, chars, "slice {engine:?} chunk {chunk}");
                        assert!(same(&got, want), "slice {engine:?} chunk {chunk} all {all} {input:02X?}:\n{got:?}\n{want:?}");
                        for step in [1, 2, 3, 5, 1000] {
                            let (scanned, got) = collect(|emit| {
                                let mut reader = Trickle { data: &input, step };
                                scan_stream(&mut reader, None, &settings, &Progress::none(), emit)
                            });
                            assert_eq!(scanned.valid, want.is_empty());
                            assert_eq!(scanned.chars, chars, "stream {engine:?} step {step}");
                            assert!(same(&got, want), "stream {engine:?} chunk {chunk} step {step} all {all} {input:02X?}:\n{got:?}\n{want:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_signature_is_skipped_or_reported() {
        let text = "\u{FEFF}a\nb\u{FEFF}c".as_bytes();
        let bad = b"\xEF\xBB\xBFab\xFF";
        for bom in [Bom::Accept, Bom::Strip, Bom::Report] {
            for all in [false, true] {
                let settings = Settings {
                    engine: Engine::Auto,
                    all,
                    track: true,
                    chunk: 16,
                    count: true,
                    bom,
                };
                let run = |input: &[u8], step: Option<usize>| {
                    let mut found = Vec::new();
                    let scanned = match step {
                        None => scan_slice(input, &settings, &Progress::none(), &mut |f| {
                            found.push((f.offset, f.line, f.column, f.bytes().to_vec()));
                            Ok(())
                        }),
                        Some(step) => {
                            let mut reader = Trickle { data: input, step };
                            scan_stream(&mut reader, None, &settings, &Progress::none(), &mut |f| {
                                found.push((f.offset, f.line, f.column, f.bytes().to_vec()));
                                Ok(())
                            })
                        }
                    }
                    .unwrap();
                    (scanned, found)
                };
                for step in [None, Some(1), Some(2), Some(100)] {
                    let (scanned, found) = run(text, step);
                    let bom_found = (0, 1, 1, vec![0xEF, 0xBB, 0xBF]);
                    if bom == Bom::Report {
                        assert!(!scanned.valid);
                        assert_eq!(found, vec![bom_found.clone()]);
                    } else {
                        assert!(scanned.valid);
                        assert!(found.is_empty());
                        // The signature is no character; the later U+FEFF is one.
                        assert_eq!(scanned.chars, 5);
                    }
                    // Columns do not count the signature.
                    let (_, found) = run(bad, step);
                    let last = (5, 1, 3, vec![0xFF]);
                    match (bom, all) {
                        (Bom::Report, false) => assert_eq!(found, vec![bom_found]),
                        (Bom::Report, true) => assert_eq!(found, vec![bom_found, last]),
                        _ => assert_eq!(found, vec![last]),
                    }
                }
            }
        }
    }

    #[test]
    fn boundaries_never_split_what_a_decoder_joins() {
        let data = b"ab\xF0\x9F\x98\x80\x80\x80\x80\x80cd";
        assert_eq!(safe_boundary(data, 3), 2); // inside the emoji: back to its lead
        assert_eq!(safe_boundary(data, 5), 2);
        assert_eq!(safe_boundary(data, 9), 9); // 4 continuation bytes in a row
        assert_eq!(safe_boundary(data, 10), 10);
    }
}
