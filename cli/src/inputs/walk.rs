//! From the paths on the command line to the list of inputs to check, in order.
//!
//! - `-` is standard input (so is an empty command line).
//! - A path to a regular file is checked, whatever its name, its contents or the ignore
//!   files say (a symbolic link given on the command line is followed).
//! - A path to anything else that is not a directory (a FIFO, `/dev/stdin`, a process
//!   substitution) is read as a stream.
//! - A directory is walked recursively by the `ignore` crate, the walker behind ripgrep,
//!   with ripgrep's defaults: hidden files and directories are skipped (`--hidden` keeps
//!   them), and so is what `.ignore` files say, and, inside a git repository, what
//!   `.gitignore`, `.git/info/exclude` and git's global excludes say (`--no-ignore` turns
//!   all of these off). `-g GLOB` keeps only what matches, `-g '!GLOB'` leaves out what
//!   matches. Only regular files are checked inside a directory: FIFOs, sockets and
//!   devices met on the way are skipped (reading one could block forever), and so are
//!   symbolic links, as `grep -r` and `rg` do, unless `--follow` is given; then they are
//!   followed, and a dangling one or a loop is an input that could not be read.
//! - Whatever cannot be opened or listed (a missing path, an unreadable directory, a loop)
//!   becomes an [`Item::Unreadable`] in its place, so the caller reports it in order.
//!
//! ## Parallel, yet in a fixed order
//!
//! The walk runs on `threads` threads (all cores by default), which hand their entries
//! over in whatever order they find them. The entries of one directory named on the
//! command line are then sorted by path, component by component: that is the order of a
//! depth-first walk that visits each directory's entries sorted by name, so the output is
//! the same on every run, and the same as the single-threaded walker this replaced gave.
//!
//! Each [`Item`] is then read and checked by the read layer (`read/reading.rs`).

use std::cmp::Ordering;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use ignore::overrides::OverrideBuilder;
use ignore::{WalkBuilder, WalkState};

/// One input.
#[derive(Debug)]
pub enum Item {
    /// Standard input.
    Stdin,
    /// A regular file: it has a size, and may be mapped. `walked` when it was found inside
    /// a directory (only those may be skipped as binary).
    File { path: PathBuf, walked: bool },
    /// Something to read as a stream: a FIFO, a character device.
    Stream(PathBuf),
    /// A path that could not be read or listed, and why.
    Unreadable(PathBuf, io::Error),
}

impl Item {
    /// The name an input has in the output (lossy for a path that is not UTF-8).
    pub fn display_name(&self) -> String {
        match self {
            Item::Stdin => "<stdin>".into(),
            Item::File { path, .. } | Item::Stream(path) | Item::Unreadable(path, _) => {
                path.display().to_string()
            }
        }
    }
}

/// How directories are walked.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Follow symbolic links met inside directories.
    pub follow: bool,
    /// Also walk what ignore files leave out.
    pub no_ignore: bool,
    /// Also walk hidden files and directories.
    pub hidden: bool,
    /// Include globs, and `!`-prefixed exclude globs.
    pub globs: Vec<String>,
    /// Levels below each directory named.
    pub max_depth: Option<usize>,
    /// Walker threads (0: one per core).
    pub threads: usize,
}

impl Walk {
    /// The inputs named by `paths`, in order; see the module documentation. A glob that
    /// does not parse is an error of the command line.
    pub fn inputs(&self, paths: &[PathBuf]) -> Result<Vec<Item>, String> {
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
                Ok(meta) if meta.is_dir() => items.extend(self.directory(path)?),
                Ok(meta) if meta.is_file() => items.push(Item::File {
                    path: path.clone(),
                    walked: false,
                }),
                Ok(_) => items.push(Item::Stream(path.clone())),
            }
        }
        Ok(items)
    }

    /// The regular files under `root`, and what could not be walked, sorted by path.
    fn directory(&self, root: &Path) -> Result<Vec<Item>, String> {
        let mut overrides = OverrideBuilder::new(root);
        for glob in &self.globs {
            overrides
                .add(glob)
                .map_err(|e| format!("bad --glob '{glob}': {e}"))?;
        }
        let overrides = overrides.build().map_err(|e| format!("bad --glob: {e}"))?;
        let walker = WalkBuilder::new(root)
            .standard_filters(!self.no_ignore)
            .hidden(!self.hidden)
            .follow_links(self.follow)
            .max_depth(self.max_depth)
            .overrides(overrides)
            .threads(self.threads)
            .build_parallel();

        let (send, receive) = mpsc::channel();
        walker.run(|| {
            let send = send.clone();
            Box::new(move |entry| {
                let item = match entry {
                    Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                        Some(Item::File {
                            path: entry.into_path(),
                            walked: true,
                        })
                    }
                    // Directories (walked), and what the module docs say is skipped.
                    Ok(_) => None,
                    Err(e) => Some(unreadable(root, e)),
                };
                if let Some(item) = item {
                    let _ = send.send(item);
                }
                WalkState::Continue
            })
        });
        drop(send);
        let mut items: Vec<Item> = receive.into_iter().collect();
        items.sort_unstable_by(|a, b| walk_order(sort_key(a), sort_key(b)));
        Ok(items)
    }
}

/// Where an item goes in the order of a walk.
fn sort_key(item: &Item) -> &Path {
    match item {
        Item::File { path, .. } | Item::Stream(path) | Item::Unreadable(path, _) => path,
        Item::Stdin => Path::new(""),
    }
}

/// The order of paths under one root, component by component, as [`Path`]'s own order
/// (`a/z` before `a.b`), but comparing the bytes directly, with a separator below every
/// other byte: parsing components made the sort a noticeable part of a whole check of
/// `/usr/share`.
/// The walker makes every path the root joined with plain names, so there are no `.`
/// components or doubled separators below the root that parsing would have removed.
fn walk_order(a: &Path, b: &Path) -> Ordering {
    let key = |byte: &u8| {
        if std::path::is_separator(char::from(*byte)) {
            0
        } else {
            u16::from(*byte) + 1
        }
    };
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    a.iter().map(key).cmp(b.iter().map(key))
}

/// A walk error as an input that could not be read: the path it concerns (for a loop, the
/// link that closes it) and an I/O error saying why.
fn unreadable(root: &Path, error: ignore::Error) -> Item {
    let mut path = None;
    let mut inner = &error;
    loop {
        match inner {
            ignore::Error::WithPath { path: p, err } => {
                path = Some(p.clone());
                inner = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                inner = err
            }
            ignore::Error::Loop { child, .. } => {
                path = path.or_else(|| Some(child.clone()));
                break;
            }
            _ => break,
        }
    }
    let error = match inner {
        ignore::Error::Io(e) => io::Error::new(e.kind(), strip_path(e)),
        ignore::Error::Loop { ancestor, .. } => {
            io::Error::other(format!("symbolic link loop back to {}", ancestor.display()))
        }
        other => io::Error::other(other.to_string()),
    };
    Item::Unreadable(path.unwrap_or_else(|| root.to_path_buf()), error)
}

/// The text of an OS error without a path (the caller prints the path itself).
fn strip_path(e: &io::Error) -> String {
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_order_is_the_order_of_path_components() {
        let names = [
            "r/a", "r/a/z", "r/a/z/1", "r/a.b", "r/a-b/c", "r/a b", "r/ab", "r/A", "r/é", "r/~",
            "r/a/zz", "r/a/z.x", "r/b/a", "r/b", "r",
        ];
        for a in names {
            for b in names {
                let (a, b) = (Path::new(a), Path::new(b));
                assert_eq!(walk_order(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
