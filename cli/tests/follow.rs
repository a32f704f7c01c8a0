//! `vutf8 repair --follow FILE` against what `tail -F` does to a log that grows, is
//! rotated (renamed away and made anew) and truncated: every line exactly once, in order.
//! Each step waits for the output it must cause (up to `common::PATIENCE`), never for a
//! fixed time; the follower is ended with SIGTERM, as a service manager ends it.
#![cfg(unix)]

mod common;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use common::{vutf8, Live};

fn append(path: &Path, bytes: &[u8]) {
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    file.write_all(bytes).unwrap();
}

/// Starts `vutf8 repair --follow PATH ARGS`.
fn follow(path: &Path, args: &[&str]) -> Live {
    let mut cmd = vutf8();
    cmd.args(["repair", "--follow"]).arg(path).args(args);
    Live::start(cmd)
}

#[test]
fn appended_rotated_and_truncated_every_line_once_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    let rotated = dir.path().join("app.log.1");
    std::fs::write(&path, b"one\ntw\xE9\n").unwrap();
    let mut live = follow(&path, &["--policy", "escape", "--partial-timeout", "never"]);
    let mut want = b"one\ntw\\xe9\n".to_vec();
    live.wait_for_output(&want);
    // Appended.
    append(&path, b"three\n");
    want.extend_from_slice(b"three\n");
    live.wait_for_output(&want);
    // A line written in two pieces is one line.
    append(&path, b"fo");
    append(&path, b"ur\n");
    want.extend_from_slice(b"four\n");
    live.wait_for_output(&want);
    // Renamed away: the writer goes on writing to it for a while.
    std::fs::rename(&path, &rotated).unwrap();
    append(&rotated, b"five\n");
    want.extend_from_slice(b"five\n");
    live.wait_for_output(&want);
    // A last line in the old file, and at once a new file: the old one is read to its end
    // first.
    append(&rotated, b"late\n");
    std::fs::write(&path, b"six\n").unwrap();
    want.extend_from_slice(b"late\nsix\n");
    live.wait_for_output(&want);
    append(&path, b"seven \xFF\n");
    want.extend_from_slice(b"seven \\xff\n");
    live.wait_for_output(&want);
    // Truncated (as `copytruncate` does), then written again: read from its start.
    File::create(&path).unwrap().write_all(b"8\n").unwrap();
    want.extend_from_slice(b"8\n");
    live.wait_for_output(&want);
    live.signal(libc::SIGTERM);
    let r = live.finish();
    assert_eq!(r.stdout.as_bytes(), &want[..]);
    assert_eq!((r.status, r.stderr.as_str()), (1, ""));
}

#[test]
fn a_line_without_its_end_is_written_after_the_partial_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    std::fs::write(&path, b"a\nno end").unwrap();
    let mut live = follow(&path, &["--json", "--partial-timeout", "50ms", "--summary"]);
    let lines = |got: &[u8]| got.iter().filter(|&&b| b == b'\n').count();
    live.wait_for("the line without its end", |got| lines(got) == 2);
    // The rest of it, once the timeout ended it, is a line of its own.
    append(&path, b" more\n");
    live.wait_for("the rest", |got| lines(got) == 3);
    live.signal(libc::SIGINT);
    let r = live.finish();
    let records: Vec<(String, String)> = r
        .lines()
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["text"].as_str().unwrap().into(),
                v["end"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [("a", "\n"), ("no end", ""), (" more", "\n")];
    assert_eq!(records, want.map(|(t, e)| (t.to_string(), e.to_string())));
    // Ended by SIGINT: the summary is written, the status is that of what was done.
    let summary: serde_json::Value = serde_json::from_str(r.stderr.trim()).unwrap();
    assert_eq!((summary["lines"].as_u64(), r.status), (Some(3), 0));
}

#[test]
fn a_file_that_does_not_exist_yet_on_the_whole_stream() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("later.log");
    // Replace on the whole stream: bytes are written as they come.
    let mut live = follow(&path, &[]);
    live.wait_for_stderr("does not exist yet: waiting for it");
    std::fs::write(&path, b"x\xFF").unwrap();
    live.wait_for_output("x\u{FFFD}".as_bytes());
    append(&path, b"y\n");
    live.wait_for_output("x\u{FFFD}y\n".as_bytes());
    File::create(&path).unwrap().write_all(b"z\n").unwrap();
    live.wait_for_output("x\u{FFFD}y\nz\n".as_bytes());
    live.signal(libc::SIGTERM);
    let r = live.finish();
    assert_eq!(r.status, 1);
    assert_eq!(
        r.stderr,
        format!(
            "vutf8: {}: does not exist yet: waiting for it\n",
            path.display()
        )
    );
}

#[test]
fn follow_needs_a_file() {
    let r = common::run(&["repair", "--follow"], b"");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("--follow needs a FILE"), "{}", r.stderr);
}
