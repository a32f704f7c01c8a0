//! What a scan produces: each error as a [`Finding`] (where, what, which bytes), the
//! verdict on the whole input ([`Scanned`]), and why a scan could stop early
//! ([`Failure`]); and the two sinks a scan reports through, [`Emit`] (each finding) and
//! [`Meter`] (bytes done).
//!
//! The scanners that fill them are in the read layer (`read/`); how a finding is written
//! is in the report layer (`report/`).

use std::io;

use vutf8::{Utf8Error, UTF8_BOM};

use crate::scan::position::Position;

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
    /// 1-based column (0 if positions were not tracked); see [`crate::scan::position`].
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

    /// An error at `offset`, whose bytes start `rest`, at `position` (if tracked).
    pub fn new(offset: u64, error: Utf8Error, rest: &[u8], position: Option<&Position>) -> Self {
        let len = Self::shown_len(&error).min(rest.len());
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

    /// How many bytes of an error are shown (1 to 4): see [`Finding::bytes`].
    pub fn shown_len(error: &Utf8Error) -> usize {
        let wanted = if error.code_point().is_some() {
            error.sequence_len()
        } else {
            error.error_len().unwrap_or(error.sequence_len())
        };
        wanted.clamp(1, 4)
    }

    /// A leading signature, reported with `--bom report`.
    pub fn bom(track: bool) -> Self {
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

/// The first error of a record `bytes` that the input continues with `next` (what ended
/// the record: its delimiter, or nothing at the end of the input), exactly as a check of
/// the whole input reports it: a sequence the record ends inside is cut short by the
/// delimiter ("3-byte sequence cut short after 1 byte"), not by the end of the input.
/// Returns where it is in `bytes` and the error.
pub fn first_error(bytes: &[u8], next: &[u8]) -> Option<(usize, Utf8Error)> {
    let error = vutf8::from_utf8(bytes).err()?;
    let at = error.valid_up_to();
    let rest = &bytes[at..];
    if next.is_empty() || rest.len() >= 4 {
        return Some((at, error));
    }
    // The sequence may reach the record's end (it is at most 4 bytes long): decide it with
    // what follows, as the check of the whole input does.
    let mut joined = [0u8; 4];
    joined[..rest.len()].copy_from_slice(rest);
    joined[rest.len()] = next[0];
    let decided = vutf8::from_utf8(&joined[..=rest.len()])
        .err()
        .filter(|e| e.valid_up_to() == 0)
        .unwrap_or(error);
    Some((at, decided))
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

/// Is told, as a scan goes, how many more bytes were checked: the progress bar
/// (`report/progress.rs`), or nothing (`()`). Shared by the threads of one scan.
pub trait Meter: Sync {
    /// Counts `bytes` more as done.
    fn inc(&self, bytes: u64);
}

/// No meter: nothing is counted.
impl Meter for () {
    #[inline]
    fn inc(&self, _bytes: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use vutf8::ErrorKind;

    #[test]
    fn a_record_cut_inside_a_sequence_is_cut_short_by_its_delimiter() {
        let kind = |bytes: &[u8], next: &[u8]| {
            first_error(bytes, next).map(|(at, e)| (at, e.kind(), e.error_len()))
        };
        assert_eq!(kind(b"ok", b"\n"), None);
        assert_eq!(
            kind(b"caf\xE9", b"\n"),
            Some((3, ErrorKind::TooShort, Some(1)))
        );
        assert_eq!(
            kind(b"x\xE2\x82", b"\r\n"),
            Some((1, ErrorKind::TooShort, Some(2)))
        );
        // At the end of the input it is what it is: unfinished.
        assert_eq!(
            kind(b"caf\xE9", b""),
            Some((3, ErrorKind::Incomplete, None))
        );
        // An error inside the record does not look further.
        assert_eq!(
            kind(b"\xFFcaf\xE9", b"\n"),
            Some((0, ErrorKind::InvalidByte, Some(1)))
        );
    }
}
