//! Input that says when it is about to wait: a filter in a pipeline (`tail -F app.log |
//! vutf8 repair | ...`) must hand on what it has made before it blocks on a read, or the
//! next program waits for text that already arrived.
//!
//! The protocol is `std::io`'s for a reader that cannot go on now: before a read that would
//! block, [`Waiting::read`] returns an error of kind [`io::ErrorKind::WouldBlock`], once;
//! the caller flushes its output ([`is_wait`]) and reads again, and that read blocks as
//! usual. Whether a read would block is asked of the OS with `poll` and no timeout, before
//! each read (one system call per read, nothing for the bytes): a regular file never
//! blocks, so a file is copied with one flush at its end, while a pipe or a terminal
//! flushes exactly when it runs dry. The follower of a growing file ([`super::follow`])
//! speaks the same protocol.
//!
//! Where `poll` is not available (not Unix), every read is taken as one that may block.

use std::io::{self, Read};

/// Whether `e` is the notice of a reader about to wait (flush, then read again).
pub fn is_wait(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
}

/// A reader that returns [`io::ErrorKind::WouldBlock`] once before each read that would
/// block.
pub struct Waiting<R> {
    inner: R,
    /// The file descriptor asked with `poll` (Unix).
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
    /// The caller was told that the next read may block: it blocks now.
    told: bool,
}

#[cfg(unix)]
impl<R: Read + std::os::fd::AsRawFd> Waiting<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Waiting {
            fd: inner.as_raw_fd(),
            inner,
            told: false,
        }
    }
}

#[cfg(not(unix))]
impl<R: Read> Waiting<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Waiting { inner, told: false }
    }
}

impl<R> Waiting<R> {
    /// Whether a read now would wait for input.
    #[cfg(unix)]
    fn would_block(&self) -> bool {
        let mut poll = libc::pollfd {
            fd: self.fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid `pollfd`, which `poll` may write, and a timeout of 0 (no wait).
        let ready = unsafe { libc::poll(&mut poll, 1, 0) };
        // 0: nothing to read yet. An error (-1, e.g. EINTR) may mean the same: flush.
        // Otherwise there are bytes, or the end (POLLHUP), or an error the read will report.
        ready <= 0
    }

    #[cfg(not(unix))]
    fn would_block(&self) -> bool {
        true
    }
}

impl<R: Read> Read for Waiting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !std::mem::take(&mut self.told) && self.would_block() {
            self.told = true;
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.inner.read(buf)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn tells_once_before_a_read_that_would_block_and_never_on_a_file() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let mut waiting = Waiting::new(reader);
        let mut buf = [0u8; 8];
        // Nothing in the pipe: told once; the next read blocks, so put bytes in first.
        assert!(is_wait(&waiting.read(&mut buf).unwrap_err()));
        writer.write_all(b"ab").unwrap();
        assert_eq!(waiting.read(&mut buf).unwrap(), 2);
        // Bytes waiting: no notice.
        writer.write_all(b"c").unwrap();
        assert_eq!(waiting.read(&mut buf).unwrap(), 1);
        // The end of the pipe does not block.
        drop(writer);
        assert_eq!(waiting.read(&mut buf).unwrap(), 0);
        let mut file = Waiting::new(std::fs::File::open("Cargo.toml").unwrap());
        assert!(file.read(&mut buf).unwrap() > 0);
    }
}
