//! Peak memory of a long stream on stdin: `vutf8` reads it through a fixed buffer, so its
//! peak resident memory does not grow with the input; so does `vutf8 repair`, on hostile
//! input too (every byte invalid, random bytes, one line without end). Measured with `wait4`, which gives
//! the peak resident set of exactly the child waited for.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::process::Stdio;
use std::sync::{Mutex, MutexGuard};

/// Held for the whole of each test: one test at a time. A child's peak resident set
/// (`ru_maxrss`) includes what its forked copy of this process held before `exec`, so a
/// test that keeps hundreds of MiB of output (the 512 MiB stream's) would show in the peak
/// of a child that another test started meanwhile.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Streams `total` bytes of valid multilingual text (with one error at the very end) to
/// `vutf8 ARGS` and returns (exit status, stdout's length and its last 64 KiB, stderr, peak
/// RSS in KiB). Only the tail is kept: this process's own memory must stay small (see
/// [`one_at_a_time`]).
fn stream(args: &[&str], total: usize) -> (i32, (usize, String), String, i64) {
    let mut child = common::vutf8()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let block = common::text(1 << 20, 3);
        let mut sent = 0;
        while sent + block.len() < total {
            stdin.write_all(&block).unwrap();
            sent += block.len();
        }
        // ASCII up to the last byte, which is the one error.
        stdin.write_all(&vec![b'.'; total - sent - 1]).unwrap();
        stdin.write_all(b"\xFF").unwrap();
    });
    let readers = std::thread::spawn(move || {
        const TAIL: usize = 64 << 10;
        let (mut len, mut tail, mut buf) = (0, Vec::new(), vec![0u8; 1 << 16]);
        loop {
            let n = std::io::Read::read(&mut stdout, &mut buf).unwrap();
            if n == 0 {
                break;
            }
            len += n;
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 2 * TAIL {
                tail.drain(..tail.len() - TAIL);
            }
        }
        let mut err = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
        ((len, String::from_utf8_lossy(&tail).into_owned()), err)
    });
    feeder.join().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in; `pid` is our own child, which
    // `Child` has not waited for (and will not: it is forgotten below).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to a status word and an rusage, as wait4 requires.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    std::mem::forget(child);
    let (out, err) = readers.join().unwrap();
    assert!(libc::WIFEXITED(status));
    (libc::WEXITSTATUS(status), out, err, usage.ru_maxrss)
}

fn check_constant_memory(total: usize) {
    let _alone = one_at_a_time();
    let (status, (_, out), err, peak_kib) = stream(&["--summary"], total);
    eprintln!("vutf8 on a {total}-byte stream: peak RSS {peak_kib} KiB");
    assert_eq!(status, 1);
    assert!(
        out.ends_with(&format!(
            ": byte {}: byte that never appears in UTF-8 (bytes: FF)\n",
            total - 1
        )),
        "{out}"
    );
    // No progress bar in a pipe: only the summary.
    assert!(
        err.starts_with(&format!("vutf8: 1 file, {total} bytes")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
}

#[test]
fn a_256_mib_stream_in_constant_memory() {
    check_constant_memory(256 << 20);
}

#[test]
#[ignore = "streams 2 GiB; run with --ignored"]
fn a_2_gib_stream_in_constant_memory() {
    check_constant_memory(2 << 30);
}

#[test]
#[ignore = "streams 512 MiB; run with --ignored"]
fn repair_line_by_line_streams_512_mib_in_constant_memory() {
    let _alone = one_at_a_time();
    let total = 512 << 20;
    let (status, (out_len, _), err, peak_kib) =
        stream(&["repair", "--policy", "drop", "--summary"], total);
    eprintln!("vutf8 repair --policy drop on a {total}-byte stream: peak RSS {peak_kib} KiB");
    // The last line, which holds the one error, is left out (longer than the default
    // --max-line, it is counted too long, not dropped); every other line is copied.
    assert_eq!(status, 1, "{err}");
    assert!(err.contains(", 0 dropped, 1 too long, "), "{err}");
    assert!(out_len > total - (2 << 20) && out_len < total, "{out_len}");
    assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
}

/// Hostile input for `vutf8 repair`: every byte invalid, random bytes, one line without end.
#[derive(Clone, Copy, Debug)]
enum Hostile {
    AllFF,
    Random,
    EndlessLine,
}

impl Hostile {
    /// The `i`-th block of 1 MiB.
    fn block(self, i: u64) -> Vec<u8> {
        match self {
            Hostile::AllFF => vec![0xFF; 1 << 20],
            Hostile::EndlessLine => vec![b'x'; 1 << 20],
            Hostile::Random => {
                let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03);
                (0..1 << 17)
                    .flat_map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x.to_le_bytes()
                    })
                    .collect()
            }
        }
    }
}

/// Streams `mib` MiB of `kind` to `vutf8 ARGS`, counting its output without keeping it;
/// returns (exit status, bytes written, stderr, peak RSS in KiB).
fn stream_hostile(args: &[&str], kind: Hostile, mib: u64) -> (i32, u64, String, i64) {
    let mut child = common::vutf8()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for i in 0..mib {
            stdin.write_all(&kind.block(i)).unwrap();
        }
    });
    let readers = std::thread::spawn(move || {
        let written = std::io::copy(&mut stdout, &mut std::io::sink()).unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
        (written, err)
    });
    feeder.join().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: as in `stream`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to a status word and an rusage, as wait4 requires.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    std::mem::forget(child);
    let (written, err) = readers.join().unwrap();
    assert!(libc::WIFEXITED(status), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    (libc::WEXITSTATUS(status), written, err, usage.ru_maxrss)
}

/// `vutf8 repair` (replace on the whole stream, and escape by lines) on `mib` MiB of each
/// hostile kind: the output it must give, in less than 64 MiB of memory.
fn repair_hostile_in_constant_memory(mib: u64) {
    let _alone = one_at_a_time();
    let total = mib << 20;
    for kind in [Hostile::AllFF, Hostile::Random, Hostile::EndlessLine] {
        for args in [&["repair"][..], &["repair", "--policy", "escape"]] {
            let (status, written, err, peak_kib) = stream_hostile(args, kind, mib);
            eprintln!("{args:?} on {mib} MiB of {kind:?}: peak RSS {peak_kib} KiB");
            let want = match (kind, args.len()) {
                (Hostile::AllFF, 1) => Some((1, 3 * total)),
                (Hostile::EndlessLine, 1) => Some((0, total)),
                // One line over the cap: left out.
                (Hostile::AllFF | Hostile::EndlessLine, _) => Some((1, 0)),
                (Hostile::Random, _) => None,
            };
            match want {
                Some(want) => assert_eq!((status, written), want, "{args:?} {kind:?}: {err}"),
                None => assert!(status == 1 && written > total, "{args:?} {kind:?}: {err}"),
            }
            assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
        }
    }
}

#[test]
fn repair_on_128_mib_of_hostile_input_in_constant_memory() {
    repair_hostile_in_constant_memory(128);
}

#[test]
#[ignore = "streams 1 GiB of each kind, six times; run with --ignored"]
fn repair_on_1_gib_of_hostile_input_in_constant_memory() {
    repair_hostile_in_constant_memory(1024);
}
