//! From the paths on the command line to the list of inputs to check, in order.
//!
//! - `-` is standard input (so is an empty command line).
//! - A path to a regular file is checked (a symbolic link given on the command line is
//!   followed).
//! - A path to anything else that is not a directory (a FIFO, `/dev/stdin`, a process
//!   substitution) is read as a stream.
//! - A directory is walked recursively, entries sorted by name so the output is the same on
//!   every run. Only regular files are checked inside it: FIFOs, sockets and devices met
//!   on the way are skipped (reading one could block forever), and so are symbolic links,
//!   as `grep -r` and `rg` do, unless `--follow` is given; then they are followed, and a
//!   dangling one or a loop is an input that could not be read.
//! - Whatever cannot be opened or listed (a missing path, an unreadable directory) becomes
//!   an [`Item::Unreadable`] in its place, so the caller reports it in order.

use std::io;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// One input.
#[derive(Debug)]
pub enum Item {
    /// Standard input.
    Stdin,
    /// A regular file: it has a size, and may be mapped.
    File(PathBuf),
    /// Something to read as a stream: a FIFO, a character device.
    Stream(PathBuf),
    /// A path that could not be read or listed, and why.
    Unreadable(PathBuf, io::Error),
}

/// The inputs named by `paths`, in order; see the module documentation.
pub fn inputs(paths: &[PathBuf], follow: bool) -> Vec<Item> {
    let mut items = Vec::new();
    if paths.is_empty() {
        items.push(Item::Stdin);
    }
    for path in paths {
        if path.as_os_str() == "-" {
            items.push(Item::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => items.push(Item::Unreadable(path.clone(), e)),
            Ok(meta) if meta.is_dir() => walk(path, follow, &mut items),
            Ok(meta) if meta.is_file() => items.push(Item::File(path.clone())),
            Ok(_) => items.push(Item::Stream(path.clone())),
        }
    }
    items
}

fn walk(root: &Path, follow: bool, items: &mut Vec<Item>) {
    let walker = WalkDir::new(root).follow_links(follow).sort_by_file_name();
    for entry in walker {
        match entry {
            Ok(entry) if entry.file_type().is_file() => {
                items.push(Item::File(entry.into_path()));
            }
            Ok(_) => {} // directories (walked), and what the module docs say is skipped
            Err(e) => {
                let path = e.path().unwrap_or(root).to_path_buf();
                let message = e.to_string(); // for a loop, which has no OS error
                let error = e
                    .into_io_error()
                    .unwrap_or_else(|| io::Error::other(message));
                items.push(Item::Unreadable(path, error));
            }
        }
    }
}
