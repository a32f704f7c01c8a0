//! What a scan produces: each error as a [`Finding`] (where, what, which bytes), the
//! verdict on the whole input ([`Scanned`]), and why a scan could stop early
//! ([`Failure`]); and the two sinks a scan reports through, [`Emit`] (each finding) and
//! [`Meter`] (bytes done).
//!
//! The scanners that fill them are in the read layer (`read/`); how a finding is written
//! is in the report layer (`report/`).

use std::io;

use vutf8::{Utf8Error, UTF8_BOM};

use crate::check::position::Position;

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
    /// 1-based column (0 if positions were not tracked); see [`crate::check::position`].
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
