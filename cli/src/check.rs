//! Checking one input: a large regular file is memory-mapped and checked on all cores;
//! everything else (small files, standard input, FIFOs, devices, a file that cannot be
//! mapped) is streamed through a buffer of fixed size. Neither reads a file whole into
//! memory. See [`crate::scan`] for how either finds exactly what a whole-input check finds.
//!
//! ## Mapped files and their one hazard
//!
//! Mapping a file makes its pages, which are already in the page cache when the file was
//! read recently, part of our address space without copying them: the validator reads
//! them in place, every core on its own chunk. The cost is a trust: the bytes are read as
//! an ordinary `&[u8]`, assuming that no one changes the file while it is mapped. If
//! another process writes to it meanwhile, the verdict is about some mix of old and new
//! bytes (as any checker of a changing file would give). If another process *truncates*
//! it, the pages past the new end no longer exist and the kernel stops `vutf8` with
//! `SIGBUS` (the shell shows status 135); nothing is written or corrupted. Inputs that may
//! shrink while checked (logs being rotated) are safe as a stream: `vutf8 < FILE`.

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

use crate::progress::Progress;
use crate::scan::{self, Emit, Failure, Scanned, Settings};
use crate::walk::Item;

/// How an input is read.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// Regular files of at least this many bytes are mapped; smaller ones are streamed.
    pub mmap_threshold: u64,
}

impl Reading {
    /// Checks one input (not an [`Item::Unreadable`]) and passes each finding to `emit`.
    pub fn check(
        &self,
        item: &Item,
        settings: &Settings,
        progress: &Progress,
        emit: Emit<'_>,
    ) -> Result<Scanned, Failure> {
        let path = match item {
            Item::Stdin => {
                let mut stdin = io::stdin().lock();
                return scan::scan_stream(&mut stdin, None, settings, progress, emit);
            }
            Item::File(path) | Item::Stream(path) => path,
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
                return scan::scan_slice(&map, settings, progress, emit);
            }
        }
        let size_hint = meta.is_file().then_some(meta.len());
        scan::scan_stream(&mut file, size_hint, settings, progress, emit)
    }
}

/// Maps `file` read-only, or says `None` if this file or system cannot be mapped (the
/// caller then streams it).
pub fn map(file: &File) -> Option<Mmap> {
    // SAFETY: the mapping is only read, as a `&[u8]`, for as long as this function's caller
    // holds it. That is sound as long as no other process modifies or truncates the file
    // meanwhile, which we assume, as every tool that maps files does; the module
    // documentation says what happens if one does (a mixed verdict, or SIGBUS on
    // truncation), and how to avoid it (stream the file).
    let map = unsafe { MmapOptions::new().map(file) }.ok()?;
    Some(map)
}
