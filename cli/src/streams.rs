//! Finding the errors in a stream (standard input, a pipe, a small file), read into a
//! buffer of fixed size, in constant memory, with exactly the results of one check of the
//! whole input.
//!
//! ## Hold back the last three bytes
//!
//! Each buffer is checked, and an error, or an unfinished sequence, that starts in the
//! last 3 bytes of a buffer (and not at the end of the input) is not judged yet: those
//! bytes are moved to the front of the buffer and read again with what follows. A
//! character is at most 4 bytes, so every verdict, and every code point an error names,
//! is reached with all the bytes a whole-input check sees.
//!
//! Line and column ([`crate::position`]) are counted when asked for; every buffer has to
//! be counted before it is reused.

use std::io::{self, Read};

use vutf8::UTF8_BOM;

use crate::bom;
use crate::engine::Settings;
use crate::findings::{Emit, Failure, Finding, Scanned};
use crate::position::{self, Position};
use crate::progress::Progress;
use crate::slicing::MIN_CHUNK;

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
    // The first read goes on until a signature can be told (3 bytes, or the end).
    let mut first = 0;
    let mut end_of_input = false;
    while first < UTF8_BOM.len() && !end_of_input {
        let read = read_some(reader, &mut buf[first..]).map_err(Failure::Read)?;
        progress.inc(read as u64);
        first += read;
        end_of_input = read == 0;
    }
    let signature = bom::leading(&buf[..first], settings, emit)?;
    valid &= !signature.reported;
    if signature.ends_scan(settings) {
        return Ok(Scanned {
            valid,
            bytes: first as u64,
            chars: 0,
        });
    }
    let mut skip = signature.skip;
    let mut pending = Some(first);
    loop {
        let read = match pending.take() {
            Some(first) => first,
            None => {
                let read = read_some(reader, &mut buf[held..]).map_err(Failure::Read)?;
                progress.inc(read as u64);
                end_of_input = read == 0;
                read
            }
        };
        let filled = held + read;
        let data = &buf[..filled];
        let mut at = std::mem::take(&mut skip);
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
