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
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vutf8 starts");
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
