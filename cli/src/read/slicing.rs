//! Finding the errors in a byte slice (a mapped file), in parallel chunks on all cores,
//! with exactly the results of one check of the whole slice.
//!
//! ## Chunks that cannot disagree with the whole
//!
//! A large slice is cut into chunks of about `chunk` bytes, each checked on its own by a
//! rayon task. Each cut is moved back onto a byte where every decoder that restarts after
//! each maximal subpart (as `from_utf8` and `vutf8::errors` do) starts afresh (the
//! library's `grammar::floor_boundary`), so what
//! lies before a cut cannot change what is found after it. What lies after it can change
//! what is found before it, though: `E2 82` at the end of a chunk is "input ends inside a
//! sequence" alone, but "sequence cut short" when the next chunk starts with `41`. So each
//! chunk is checked with one byte of the next chunk appended, and errors starting at that
//! extra byte are left to the next chunk. One byte is enough: whether a sequence is cut
//! short, and its kind, are decided by the first byte that breaks it, and the byte at a
//! cut always breaks it.
//!
//! Without `--all`, the default validator runs the library's own parallel check,
//! `vutf8::par_from_utf8` (which splits its input in its own way), over windows of 256
//! chunks in turn, cut and extended as above, so that a progress bar moves. A forced
//! backend, or counting characters, uses this module's chunks: they race
//! (`find_map_first`) and the first chunk with an error wins, or, when counting, every
//! chunk is checked and counted. With `--all`, windows of chunks are first tested in
//! parallel with the fast yes/no check, and only the dirty chunks are then scanned in
//! order by the library's [`vutf8::errors`] (every error, resuming after each maximal
//! subpart), so the report is in file order and needs no memory per error.
//!
//! Line and column ([`crate::scan::position`]) are counted only up to each error found,
//! and only when asked for.
//!
//! [`crate::read::reading`] calls [`scan_slice`] on a mapped file; `vutf8 bench` times
//! [`first_error_parallel`].

use rayon::prelude::*;
use vutf8::grammar::floor_boundary;
use vutf8::Utf8Error;

use crate::scan::bom::{self, BomPolicy};
use crate::scan::engine::{Engine, Settings};
use crate::scan::findings::{Emit, Failure, Finding, Meter, Scanned};
use crate::scan::position::{self, Position};

/// The smallest chunk the scanners accept: a cut needs a few bytes to back up.
pub const MIN_CHUNK: usize = 16;

/// Scans `data`, in parallel chunks if it is larger than one chunk.
pub fn scan_slice(
    data: &[u8],
    settings: &Settings,
    progress: &dyn Meter,
    emit: Emit<'_>,
) -> Result<Scanned, Failure> {
    let mut scanned = Scanned {
        valid: true,
        bytes: data.len() as u64,
        chars: 0,
    };
    let signature = bom::leading(data, settings.bom, settings.track, emit)?;
    scanned.valid = !signature.reported;
    if signature.ends_scan(settings.all) {
        return Ok(scanned);
    }
    let base = signature.skip;
    let text = &data[base..];
    let bounds = chunk_bounds(text, settings.chunk.max(MIN_CHUNK));
    if settings.all {
        let (valid, chars) = all_errors(text, base, &bounds, settings, progress, emit)?;
        scanned.valid &= valid;
        scanned.chars = chars;
    } else {
        match first_error(text, &bounds, settings, progress) {
            (None, chars) => scanned.chars = chars,
            (Some((at, error)), _) => {
                let finding = Located::new(text, base, settings.track).finding(at, error);
                emit(&finding).map_err(Failure::Write)?;
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
        bom: BomPolicy::Accept,
    };
    first_error(data, &bounds, &settings, &()).0
}

/// Chunk starts: 0, then a safe boundary near every multiple of `chunk`, then `data.len()`.
fn chunk_bounds(data: &[u8], chunk: usize) -> Vec<usize> {
    let mut bounds = vec![0];
    let mut next = chunk;
    while next < data.len() {
        bounds.push(floor_boundary(data, next));
        next += chunk;
    }
    bounds.push(data.len());
    bounds
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
    progress: &dyn Meter,
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
    progress: &dyn Meter,
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
    progress: &dyn Meter,
    emit: Emit<'_>,
) -> Result<(bool, u64), Failure> {
    let engine = settings.engine;
    let chunks = bounds.len() - 1;
    let window = (rayon::current_num_threads() * 4).max(1);
    let mut located = Located::new(data, base, settings.track);
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
            let (start, end) = (bounds[i], bounds[i + 1]);
            for error in vutf8::errors(extended(data, bounds, i)) {
                let found = start + error.valid_up_to();
                if found >= end {
                    break; // it belongs to the next chunk
                }
                valid = false;
                emit(&located.finding(found, error)).map_err(Failure::Write)?;
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

/// Findings in a slice, in order, with line and column counted only up to each of them.
struct Located<'a> {
    data: &'a [u8],
    /// The input offset of `data[0]` (3 after a signature).
    base: usize,
    track: bool,
    position: Position,
    /// Bytes of `data` already fed to `position`.
    counted: usize,
}

impl<'a> Located<'a> {
    fn new(data: &'a [u8], base: usize, track: bool) -> Self {
        Located {
            data,
            base,
            track,
            position: Position::default(),
            counted: 0,
        }
    }

    /// The finding for `error` at `data[at]`, which comes after the previous one; the
    /// position then moves past the error's maximal subpart.
    fn finding(&mut self, at: usize, error: Utf8Error) -> Finding {
        let here = self.track.then(|| {
            self.position.advance_valid(&self.data[self.counted..at]);
            &self.position
        });
        let finding = Finding::new((self.base + at) as u64, error, &self.data[at..], here);
        self.position.advance_error();
        // `None`: the input ends inside a sequence, which is its last error.
        self.counted = error.error_len().map_or(self.data.len(), |len| at + len);
        finding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_never_split_what_a_decoder_joins() {
        let data = b"ab\xF0\x9F\x98\x80\x80\x80\x80\x80cd";
        let cut = |at| chunk_bounds(data, at)[1];
        assert_eq!(cut(3), 2); // inside the emoji: back to its lead
        assert_eq!(cut(5), 2);
        assert_eq!(cut(6), 6); // the byte after the emoji: a lone continuation byte
        assert_eq!(cut(9), 9); // 4 continuation bytes in a row
        assert_eq!(cut(10), 10);
    }
}
