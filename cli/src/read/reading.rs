//! Reading one input: a large regular file is memory-mapped and checked on all cores
//! ([`crate::read::slicing`]); everything else (small files, standard input, FIFOs,
//! devices, a file that cannot be mapped) is streamed through a buffer of fixed size
//! ([`crate::read::streams`]). Neither reads a file whole into memory.
//!
//! ## Binary files
//!
//! A file found by walking a directory whose first [`SNIFF`] bytes (8192, or the whole file
//! if it is shorter) hold a NUL byte is taken for binary and skipped, unless `--binary` is
//! given: the heuristic of grep and ripgrep. NUL is valid UTF-8, but text almost never
//! holds one, while executables, images, archives and compressed files almost always do
//! within their first 8 KiB; reporting the thousands of "errors" of each would drown the
//! findings that matter. A file named on the command line is always checked. The bytes
//! sniffed are the first bytes the check reads anyway (the mapped pages, or the first read
//! of a stream, handed on to the scanner), so sniffing costs no extra read.
//!
//! ## Mapped files and their one hazard
//!
//! Mapping a file makes its pages, which are already in the page cache when the file was
//! read recently, part of our address space without copying them: the validator reads
//! them in place, every core on its own chunk. The cost is a trust: the bytes are read as
//! an ordinary `&[u8]`, assuming that no one changes the file while it is mapped. If
//! another process writes to it meanwhile, the verdict is about some mix of old and new
//! bytes (as any checker of a changing file would give). If another process *truncates*
//! it, the pages past the new end no longer exist and the kernel raises `SIGBUS` at the
//! next read of one; on Unix a handler ([`map`] installs it) then writes a message and
//! ends the run with exit status 2; nothing is written or corrupted. Inputs that may
//! shrink while checked (logs being rotated) are safe as a stream: `vutf8 < FILE`.

use std::fs::File;
use std::io;

use std::io::Read;

use memmap2::{Mmap, MmapOptions};

use crate::inputs::walk::Item;
use crate::read::{slicing, streams};
use crate::scan::engine::Settings;
use crate::scan::findings::{Emit, Failure, Meter, Scanned};

/// How many bytes at the start of a walked file are looked at for a NUL byte.
pub const SNIFF: usize = 8192;

/// How an input is read.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// Regular files of at least this many bytes are mapped; smaller ones are streamed.
    pub mmap_threshold: u64,
    /// Skip walked files that look binary (see the module documentation).
    pub skip_binary: bool,
}

/// What reading an input gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It was checked.
    Checked(Scanned),
    /// It was skipped as binary.
    Binary,
}

impl Reading {
    /// Checks one input (not an [`Item::Unreadable`]) and passes each finding to `emit`.
    pub fn check(
        &self,
        item: &Item,
        settings: &Settings,
        progress: &dyn Meter,
        emit: Emit<'_>,
    ) -> Result<Outcome, Failure> {
        let (path, sniff) = match item {
            Item::Stdin => {
                let mut stdin = io::stdin().lock();
                return streams::scan_stream(&mut stdin, None, settings, progress, emit)
                    .map(Outcome::Checked);
            }
            Item::File { path, walked } => (path, *walked && self.skip_binary),
            Item::Stream(path) => (path, false),
            Item::Unreadable(_, e) => {
                return Err(Failure::Read(io::Error::new(e.kind(), e.to_string())))
            }
        };
        let mut file = File::open(path).map_err(Failure::Read)?;
        let meta = file.metadata().map_err(Failure::Read)?;
        if meta.is_dir() {
            return Err(Failure::Read(io::Error::from(io::ErrorKind::IsADirectory)));
        }
        if meta.is_file() && meta.len() >= self.mmap_threshold.max(1) {
            if let Some(map) = map(&file) {
                if sniff && looks_binary(&map[..map.len().min(SNIFF)]) {
                    return Ok(Outcome::Binary);
                }
                return slicing::scan_slice(&map, settings, progress, emit).map(Outcome::Checked);
            }
        }
        let size_hint = meta.is_file().then_some(meta.len());
        if !sniff {
            return streams::scan_stream(&mut file, size_hint, settings, progress, emit)
                .map(Outcome::Checked);
        }
        let mut head = [0u8; SNIFF];
        let got = read_up_to(&mut file, &mut head).map_err(Failure::Read)?;
        if looks_binary(&head[..got]) {
            return Ok(Outcome::Binary);
        }
        let mut reader = (&head[..got]).chain(file);
        streams::scan_stream(&mut reader, size_hint, settings, progress, emit).map(Outcome::Checked)
    }
}

/// Whether the first bytes of a file say it is binary: they hold a NUL byte.
fn looks_binary(head: &[u8]) -> bool {
    memchr::memchr(0, head).is_some()
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Maps `file` read-only, or says `None` if this file or system cannot be mapped (the
/// caller then streams it). On Unix, a truncation while mapped ends the run with a message
/// and exit status 2 instead of a bare `SIGBUS`.
pub fn map(file: &File) -> Option<Mmap> {
    #[cfg(unix)]
    truncation::guard();
    // SAFETY: the mapping is only read, as a `&[u8]`, for as long as this function's caller
    // holds it. That is sound as long as no other process modifies or truncates the file
    // meanwhile, which we assume, as every tool that maps files does; the module
    // documentation says what happens if one does (a mixed verdict, or SIGBUS on
    // truncation, caught by `truncation::guard`), and how to avoid it (stream the file).
    let map = unsafe { MmapOptions::new().map(file) }.ok()?;
    Some(map)
}

/// A file truncated while mapped: instead of dying by `SIGBUS` without a word, `vutf8`
/// says what happened and exits with status 2 (the check did not happen).
#[cfg(unix)]
mod truncation {
    use std::sync::Once;

    /// What is written to stderr: a fixed string, since a signal handler may not format.
    const MESSAGE: &[u8] = b"vutf8: a mapped file shrank while it was checked (SIGBUS); \
check files that may be truncated meanwhile as a stream: vutf8 < FILE\n";

    /// Installs the handler, once.
    pub fn guard() {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            // SAFETY: `sigaction` is called with a zeroed (then filled) `sigaction` struct
            // that lives across the call, and installs a handler that only calls
            // async-signal-safe functions (`write`, `_exit`).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }

    extern "C" fn on_sigbus(_: libc::c_int) {
        // SAFETY: `write` and `_exit` are async-signal-safe; `MESSAGE` is a static buffer of
        // the length given.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(2);
        }
    }
}
