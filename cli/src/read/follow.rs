//! Following a growing file as `tail -F` does (`vutf8 repair --follow FILE`): its bytes
//! from the start, then what is appended, as it comes; when the file is renamed away (or
//! deleted) and made anew under its name, the rest of the old one and then the new one
//! from its start; when it is truncated, the file again from its start.
//!
//! [`Follow`] is a `std::io::Read` that never ends by itself: at the end of the file it
//! polls, every [`POLL`], for more bytes, for a new file under the name and for a shorter
//! file. It speaks the protocol of [`super::waiting`] (`WouldBlock` once before it starts to
//! wait, so the caller flushes its output), and returns 0 bytes at each *end*: when the
//! file it reads is replaced or truncated while a record is open (the bytes since the last
//! delimiter end there: they will not be continued), when a record has been open for the
//! partial timeout with nothing more arriving (a writer that never ends its last line),
//! and when the run is asked to stop (SIGINT or SIGTERM, after [`stop_on_signals`];
//! [`stop_requested`] then says so). A reader of records (`vutf8::records::RecordReader`)
//! yields the open record at such an end and reads on at the next call.
//!
//! Polling, not file-change notices: a stat of the name and a read at the end of the file
//! every 100 ms cost nothing measurable, work on every file system (network ones
//! included), and see exactly what `tail -F` sees. As with `tail -F`, a truncation is seen
//! only if the file is shorter than what was read when the follower looks; a file
//! truncated and then filled past that point between two looks is read on from where the
//! follower was. A name that cannot be opened (missing, or not readable for a while) is
//! taken as not there yet: the file already open is read on, and the name tried again.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use same_file::Handle;

/// How often the end of the file and its name are looked at again.
pub const POLL: Duration = Duration::from_millis(100);

/// Set by SIGINT or SIGTERM once [`stop_on_signals`] was called.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the run was asked to stop (SIGINT or SIGTERM).
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// From now on, SIGINT and SIGTERM ask the run to stop ([`stop_requested`]) rather than
/// end the process at once: the follower ends the open record and the caller writes and
/// flushes what it has. A second signal ends the process as usual (the handler is reset by
/// the first), for an output that blocks for good.
pub fn stop_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(_: libc::c_int) {
            // Async-signal-safe: one atomic store.
            STOP.store(true, Ordering::Relaxed);
        }
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: `sigaction` is plain data, all zeros is a valid value to fill in.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            // SAFETY: valid pointers to a `sigaction` and its mask; the handler only stores
            // to an atomic, which is async-signal-safe.
            unsafe {
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// A growing file, read as `tail -F` reads it (the module's docs).
pub struct Follow {
    path: PathBuf,
    /// The file being read, and what identifies it; `None` until the name exists.
    file: Option<Handle>,
    /// Bytes read from it.
    pos: u64,
    delimiter: u8,
    /// How long an open record waits for its end; `None`: for ever.
    partial: Option<Duration>,
    /// Bytes were handed out since the last delimiter or end.
    open_record: bool,
    /// When bytes were last handed out.
    last_data: Instant,
    /// The caller was told that the follower waits (`WouldBlock`): it waits now.
    told: bool,
}

impl Follow {
    /// Follows `path`, from its start, with records ending at `delimiter` and an open
    /// record ended after `partial` without news. A missing file is waited for
    /// ([`Follow::waits_for_file`]).
    ///
    /// # Errors
    /// When `path` exists and cannot be opened.
    pub fn new(path: &Path, delimiter: u8, partial: Option<Duration>) -> io::Result<Follow> {
        let file = match Handle::from_path(path) {
            Ok(handle) => Some(handle),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Ok(Follow {
            path: path.to_path_buf(),
            file,
            pos: 0,
            delimiter,
            partial,
            open_record: false,
            last_data: Instant::now(),
            told: false,
        })
    }

    /// Whether the file does not exist yet (it is read once it does).
    pub fn waits_for_file(&self) -> bool {
        self.file.is_none()
    }

    /// Reads from the file being read (0 at its end, or before there is one).
    fn read_file(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(file) = self.file.as_mut() else {
            return Ok(0);
        };
        let n = file.as_file_mut().read(buf)?;
        if n > 0 {
            self.pos += n as u64;
            self.open_record = buf[n - 1] != self.delimiter;
            self.last_data = Instant::now();
            self.told = false;
        }
        Ok(n)
    }

    /// Ends the open record, if one is: whether the caller must be told (0 bytes).
    fn end_record(&mut self) -> bool {
        self.told = false;
        std::mem::take(&mut self.open_record)
    }

    /// At the end of the file: whether it was replaced under its name (then the new one
    /// is read from now on) or truncated (then it is read again from its start).
    fn look(&mut self, buf: &mut [u8]) -> io::Result<Look> {
        let Ok(now) = Handle::from_path(&self.path) else {
            return Ok(Look::Same);
        };
        if let Some(file) = self.file.as_mut().filter(|file| **file == now) {
            if file.as_file().metadata()?.len() >= self.pos {
                return Ok(Look::Same);
            }
            file.as_file_mut().seek(SeekFrom::Start(0))?;
            self.pos = 0;
            return Ok(Look::Restarted);
        }
        // What was written to the old file before the new one appeared comes first.
        let n = self.read_file(buf)?;
        if n > 0 {
            return Ok(Look::Read(n));
        }
        self.file = Some(now);
        self.pos = 0;
        Ok(Look::Restarted)
    }
}

/// What [`Follow::look`] found.
enum Look {
    /// Nothing new.
    Same,
    /// Bytes of the old file, read into the buffer.
    Read(usize),
    /// A new file, or the same one truncated: read from its start.
    Restarted,
}

impl Read for Follow {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if stop_requested() {
                self.end_record();
                return Ok(0);
            }
            let n = self.read_file(buf)?;
            if n > 0 {
                return Ok(n);
            }
            match self.look(buf)? {
                Look::Read(n) => return Ok(n),
                Look::Restarted if self.end_record() => return Ok(0),
                Look::Restarted => continue,
                Look::Same => {}
            }
            let mut pause = POLL;
            if let (true, Some(partial)) = (self.open_record, self.partial) {
                let waited = self.last_data.elapsed();
                if waited >= partial {
                    self.end_record();
                    return Ok(0);
                }
                pause = pause.min(partial - waited);
            }
            if !self.told {
                self.told = true;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            std::thread::sleep(pause);
        }
    }
}
