//! Helpers for the end-to-end tests: run the real `vutf8` binary as a process, feed its
//! stdin, capture what it writes, and the reference a whole-input check gives.
#![allow(dead_code)]

use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary under test.
pub fn vutf8() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vutf8"))
}

/// What a run left behind.
#[derive(Debug)]
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The lines of stdout.
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `cmd` with `stdin` (or an empty stdin) and waits for it.
pub fn run_cmd(mut cmd: Command, stdin: &[u8]) -> Run {
    let mut child = spawn(
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    // A thread, so a child that writes a lot before reading all its input cannot block us.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input); // the child may stop reading early: that is fine
    });
    let out = child.wait_with_output().expect("vutf8 ends");
    feeder.join().expect("feeder");
    Run::from(out)
}

/// Starts `cmd`. A binary a test has just copied (to run it as another user) cannot be
/// started while another test's child, forked meanwhile, still holds the copy open for
/// writing ("Text file busy"): that ends when the child starts its own program, so the
/// start is tried again until then (at most [`PATIENCE`]).
pub fn spawn(cmd: &mut Command) -> std::process::Child {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        match cmd.spawn() {
            Err(e)
                if e.kind() == std::io::ErrorKind::ExecutableFileBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            started => return started.expect("vutf8 starts"),
        }
    }
}

impl From<std::process::Output> for Run {
    /// What a finished run left, checked for a panic.
    fn from(out: std::process::Output) -> Run {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "vutf8 panicked: {stderr}");
        Run {
            status: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr,
        }
    }
}

/// Runs `vutf8 ARGS` with `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut cmd = vutf8();
    cmd.args(args);
    run_cmd(cmd, stdin)
}

/// Runs `vutf8 ARGS` with a path argument last.
pub fn run_on(args: &[&str], path: &Path) -> Run {
    let mut cmd = vutf8();
    cmd.args(args).arg(path);
    run_cmd(cmd, b"")
}

/// Waits until the reader of the pipe or FIFO that `writer` writes to has read every byte
/// written so far, or has closed its end. A test that writes its input in pieces calls it
/// after each piece, so that each `read` of the reader returns exactly one piece, however
/// busy the machine is (a pause between writes only makes that likely: a reader that is
/// scheduled late finds several pieces waiting and takes them in one read).
pub fn wait_until_read(writer: &impl AsRawFd) {
    let fd = writer.as_raw_fd();
    loop {
        let mut queued: libc::c_int = 0;
        // SAFETY: FIONREAD on a pipe writes one `c_int`, the number of bytes in the pipe
        // (from either end), through the pointer, which points to one.
        if unsafe { libc::ioctl(fd, libc::FIONREAD, &mut queued) } != 0 || queued == 0 {
            return;
        }
        let mut poll = libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid `pollfd`, no wait. A write end reports POLLERR once no reader
        // is left: then nothing will read the bytes, and the caller's next write fails.
        unsafe { libc::poll(&mut poll, 1, 0) };
        if poll.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
}

/// Whether this process runs as root (which reads files whatever their permissions).
pub fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
}

/// Every error of a whole-input decode as (offset, line, column): the reference for
/// `--all`, with columns counted as `docs/CLI.md` says (an ill-formed part is one column).
pub fn reference_positions(input: &[u8]) -> Vec<(u64, u64, u64)> {
    let (mut line, mut column) = (1, 1);
    let mut out = Vec::new();
    for item in vutf8::scalar::decode(input) {
        match item {
            Ok((_, '\n')) => (line, column) = (line + 1, 1),
            Ok(_) => column += 1,
            Err(e) => {
                out.push((e.valid_up_to() as u64, line, column));
                column += 1;
            }
        }
    }
    out
}

/// (offset, line, column) of each JSON finding in `stdout`.
pub fn json_positions(stdout: &str) -> Vec<(u64, u64, u64)> {
    stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value =
                serde_json::from_str(line).expect("one JSON object per line");
            (
                v["offset"].as_u64().expect("offset"),
                v["line"].as_u64().expect("line"),
                v["column"].as_u64().expect("column"),
            )
        })
        .collect()
}

/// Multilingual valid text of `len` bytes with newlines.
pub fn text(len: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while out.len() < len {
        let script = vutf8_corpus::Script::ALL[i % vutf8_corpus::Script::ALL.len()];
        let piece = vutf8_corpus::generate(script, 200.min(len - out.len()), seed + i as u64);
        out.extend_from_slice(&piece);
        if out.len() < len {
            out.push(b'\n');
        }
        i += 1;
    }
    out.truncate(len);
    // Truncation may have cut a character: keep only whole ones.
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

/// How long a test waits for output that must come: long, since the machine may be busy;
/// a run that is right never waits that long.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// A running `vutf8` whose stdout is read as it comes, so a test can wait for a piece of
/// output before it sends more input.
pub struct Live {
    pub child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    got: Vec<u8>,
    chunks: std::sync::mpsc::Receiver<Vec<u8>>,
    stderr: Option<std::thread::JoinHandle<()>>,
    errors: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Live {
    /// Starts `cmd` with stdin, stdout and stderr piped.
    pub fn start(mut cmd: Command) -> Live {
        let mut child = spawn(
            cmd.stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        );
        let mut stdout = child.stdout.take().expect("stdout");
        let (send, chunks) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            loop {
                match std::io::Read::read(&mut stdout, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if send.send(buf[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut stderr = child.stderr.take().expect("stderr");
        let errors = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = std::sync::Arc::clone(&errors);
        let stderr = std::thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 12];
            while let Ok(n @ 1..) = std::io::Read::read(&mut stderr, &mut buf) {
                seen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Live {
            stdin: child.stdin.take(),
            child,
            got: Vec::new(),
            chunks,
            stderr: Some(stderr),
            errors,
        }
    }

    /// Writes `bytes` to its stdin, and waits until it has read them all.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("vutf8 reads its input");
        stdin.flush().unwrap();
        wait_until_read(stdin);
    }

    /// Closes its stdin.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits until the output so far satisfies `done`, at most [`PATIENCE`]; panics with
    /// what came otherwise.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&[u8]) -> bool) {
        let deadline = std::time::Instant::now() + PATIENCE;
        while !done(&self.got) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.got.extend_from_slice(&chunk),
                Err(_) => panic!(
                    "waited {PATIENCE:?} for {what}; the output so far: {:?}",
                    String::from_utf8_lossy(&self.got)
                ),
            }
        }
    }

    /// Waits until its stderr so far holds `want`, at most [`PATIENCE`].
    pub fn wait_for_stderr(&self, want: &str) {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let errors = String::from_utf8_lossy(&self.errors.lock().unwrap()).into_owned();
            if errors.contains(want) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "waited {PATIENCE:?} for {want:?} on stderr; there: {errors:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Waits until the output so far is exactly `want`.
    pub fn wait_for_output(&mut self, want: &[u8]) {
        let what = format!("the output {:?}", String::from_utf8_lossy(want));
        self.wait_for(&what, |got| got.len() >= want.len());
        assert_eq!(
            String::from_utf8_lossy(&self.got),
            String::from_utf8_lossy(want)
        );
    }

    /// The output so far.
    pub fn output(&self) -> &[u8] {
        &self.got
    }

    /// Sends it `signal`.
    pub fn signal(&self, signal: libc::c_int) {
        // SAFETY: `kill` with our own child's id and a signal number.
        let r = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(r, 0, "kill");
    }

    /// Closes its stdin, waits for it to end (at most [`PATIENCE`]) and returns everything it
    /// wrote.
    pub fn finish(mut self) -> Run {
        self.close();
        let deadline = std::time::Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "vutf8 did not end within {PATIENCE:?}; its output: {:?}",
                    String::from_utf8_lossy(&self.got)
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        while let Ok(chunk) = self.chunks.recv() {
            self.got.extend_from_slice(&chunk);
        }
        self.stderr.take().unwrap().join().unwrap();
        let stderr = String::from_utf8_lossy(&self.errors.lock().unwrap()).into_owned();
        assert!(!stderr.contains("panicked"), "vutf8 panicked: {stderr}");
        Run {
            status: status.code().unwrap_or(-1),
            stdout: String::from_utf8(std::mem::take(&mut self.got)).expect("stdout is UTF-8"),
            stderr,
        }
    }
}

/// The damaged logs the tests of `vutf8 repair` compare with a reference: the real ones
/// (`target/real-logs/damaged.log`, written by `scripts/real-logs.sh`) when they are there
/// (a message says so when not), and generated ones always: multilingual lines, one in 9
/// damaged, with LF line ends.
pub fn damaged_logs() -> Vec<(String, Vec<u8>)> {
    let mut logs = vec![("generated".to_string(), generated_damaged_log(false, true))];
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/real-logs/damaged.log");
    match std::fs::read(&real) {
        Ok(bytes) => logs.push((real.display().to_string(), bytes)),
        Err(_) => eprintln!(
            "NOTE: {} is not there (scripts/real-logs.sh writes it): generated logs only",
            real.display()
        ),
    }
    logs
}

/// A log of multilingual lines, some damaged, with LF or CRLF line ends, ending with or
/// without a line end.
pub fn generated_damaged_log(crlf: bool, final_end: bool) -> Vec<u8> {
    let bad: &[&[u8]] = &[
        b"\xE9",
        b"\xE2\x82",
        b"\xFF\xFE",
        b"\xC0\xAF",
        b"\xED\xA0\x80",
    ];
    let mut log = Vec::new();
    for i in 0..300usize {
        let mut line: Vec<u8> = text(40 + i % 90, i as u64)
            .into_iter()
            .filter(|&b| b != b'\n')
            .collect();
        if i % 9 == 4 {
            line.splice(i % 30..i % 30, bad[i % bad.len()].iter().copied());
        }
        log.extend(line);
        if i < 299 || final_end {
            log.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
    }
    log
}

/// The records of `input` as `vutf8 repair` cuts them, by std's means: (offset, bytes,
/// end), cut after each `delimiter`, and with `\n` a `\r` before it part of the end.
pub fn reference_records(input: &[u8], delimiter: u8) -> Vec<(usize, &[u8], &[u8])> {
    let mut out = Vec::new();
    let mut offset = 0;
    for piece in input.split_inclusive(|&b| b == delimiter) {
        let mut len = piece.len();
        if piece.last() == Some(&delimiter) {
            len -= 1;
            if delimiter == b'\n' && len > 0 && piece[len - 1] == b'\r' {
                len -= 1;
            }
        }
        out.push((offset, &piece[..len], &piece[len..]));
        offset += piece.len();
    }
    out
}

impl Drop for Live {
    /// A test that failed leaves no process behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
