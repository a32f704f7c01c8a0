//! End-to-end tests of directory walking, binary files, odd inputs and colour: the real
//! binary on temporary trees. Every run is bounded (a walk that loops fails the test
//! instead of hanging it): in CPU time, which a loop burns and a busy machine does not
//! take away, and, as a last resort for a run that blocks, in wall-clock time.
#![cfg(unix)]

mod common;

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{vutf8, Run};

/// The most CPU time (all threads) any run here may use: each needs well under a second,
/// so only a run that loops gets there, whatever else the machine is doing.
const CPU_LIMIT: Duration = Duration::from_secs(30);

/// The most wall-clock time any run here may take: a safety net for a run that hangs
/// without using CPU (blocked for good), far above what a run takes on a machine too busy
/// to give it CPU for long stretches. No test here means anything by it.
const WALL_LIMIT: Duration = Duration::from_secs(600);

fn write(dir: &Path, name: impl AsRef<Path>, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs `cmd` with an empty stdin, bounded as [`wait_bounded`] says. Its output is read
/// while it runs, so a long output cannot stall it on a full pipe.
fn bounded(mut cmd: Command) -> Run {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("vutf8 starts");
    let stdout = read_all(child.stdout.take().expect("stdout"));
    let stderr = read_all(child.stderr.take().expect("stderr"));
    let status = wait_bounded(&mut child, &format!("{cmd:?}"));
    Run::from(Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    })
}

/// Everything `pipe` gives until its end, read on a thread of its own.
fn read_all(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        pipe.read_to_end(&mut out).expect("read a pipe");
        out
    })
}

/// Waits for `child` to end; kills it and fails if it uses more than [`CPU_LIMIT`] of CPU
/// time or runs for more than [`WALL_LIMIT`].
fn wait_bounded(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        // Not reaped yet (only `try_wait` reaps it), so the pid is still this child's.
        let cpu = cpu_time(child.id());
        if cpu > CPU_LIMIT || start.elapsed() > WALL_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "vutf8 used {cpu:?} of CPU time in {:?} and was stopped: {what}",
                start.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The CPU time that process `pid` has used, all its threads together (user and system),
/// from `/proc/PID/stat`; zero where that cannot be read (then only [`WALL_LIMIT`] holds).
fn cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The fields after the command name, which is in parentheses and may hold anything:
    // the 3rd field of the line (state) first, so utime and stime (14th and 15th) are the
    // 12th and 13th here.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after_name
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|field| field.parse::<u64>().ok())
        .sum();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks.saturating_mul(1000) / per_second)
}

/// `vutf8 ARGS` in `dir` (paths in the output are then relative), with no colour
/// settings from the environment but `env`.
fn command_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = vutf8();
    cmd.current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied());
    cmd
}

/// Runs `vutf8 ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Run {
    bounded(command_in(dir, args, &[]))
}

/// The sorted names of the invalid files a `-l` run lists.
fn listed(run: &Run) -> Vec<&str> {
    run.lines()
}

/// A tree with something invalid in each place a walk may or may not go.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "ok.txt", "fine ✓\n".as_bytes());
    write(root, "bad.txt", b"\xC0\xAF");
    write(root, "sub/deep/bad.md", b"\xFF");
    write(root, "sub/good.md", b"# title\n");
    write(root, ".hidden.txt", b"\xFE");
    write(root, ".config/bad.txt", b"\x80");
    dir
}

#[test]
fn git_ignore_files_are_respected_in_a_repository() {
    let dir = tree();
    let root = dir.path();
    let git = Command::new("git")
        .args(["init", "-q"])
        .current_dir(root)
        .status()
        .expect("git runs");
    assert!(git.success());
    write(root, ".gitignore", b"target/\n*.log\n");
    write(root, "target/debug/out.txt", b"\xE2\x82");
    write(root, "trace.log", b"\xF5");
    write(root, "sub/.ignore", b"deep/\n");

    let r = run_in(root, &["-l", "."]);
    assert_eq!((r.status, listed(&r)), (1, vec!["./bad.txt"]), "{r:?}");
    let r = run_in(root, &["-l", "--no-ignore", "."]);
    assert_eq!(r.status, 1);
    assert_eq!(
        listed(&r),
        [
            "./bad.txt",
            "./sub/deep/bad.md",
            "./target/debug/out.txt",
            "./trace.log"
        ]
    );
    // Only ignored files invalid: 0 by default, 1 without the ignore files.
    std::fs::remove_file(root.join("bad.txt")).unwrap();
    std::fs::remove_file(root.join("sub/.ignore")).unwrap();
    std::fs::remove_dir_all(root.join("sub/deep")).unwrap();
    let r = run_in(root, &["."]);
    assert_eq!((r.status, r.stdout.as_str()), (0, ""), "{r:?}");
    let r = run_in(root, &["--no-ignore", "."]);
    assert_eq!(r.status, 1, "{r:?}");
    // A file named on the command line is checked, ignored or not.
    let r = run_in(root, &["trace.log"]);
    assert_eq!(r.status, 1, "{r:?}");
}

#[test]
fn gitignore_outside_a_repository_is_not_read_but_dot_ignore_is() {
    let dir = tree();
    let root = dir.path();
    write(root, ".gitignore", b"bad.txt\n");
    let r = run_in(root, &["-l", "."]);
    assert_eq!(listed(&r), ["./bad.txt", "./sub/deep/bad.md"], "{r:?}");
    write(root, ".ignore", b"bad.txt\n");
    let r = run_in(root, &["-l", "."]);
    assert_eq!(listed(&r), ["./sub/deep/bad.md"], "{r:?}");
}

#[test]
fn hidden_files_are_skipped_unless_asked_for() {
    let dir = tree();
    let r = run_in(dir.path(), &["-l", "."]);
    assert_eq!(listed(&r), ["./bad.txt", "./sub/deep/bad.md"]);
    let r = run_in(dir.path(), &["-l", "--hidden", "."]);
    assert_eq!(
        listed(&r),
        [
            "./.config/bad.txt",
            "./.hidden.txt",
            "./bad.txt",
            "./sub/deep/bad.md"
        ]
    );
    // Named on the command line, a hidden file is checked.
    let r = run_in(dir.path(), &["-l", ".hidden.txt"]);
    assert_eq!(listed(&r), [".hidden.txt"]);
}

#[test]
fn globs_include_and_exclude() {
    let dir = tree();
    let r = run_in(dir.path(), &["-l", "-g", "*.md", "."]);
    assert_eq!(listed(&r), ["./sub/deep/bad.md"]);
    let r = run_in(dir.path(), &["-l", "-g", "!*.md", "."]);
    assert_eq!(listed(&r), ["./bad.txt"]);
    let r = run_in(dir.path(), &["-l", "-g", "*.md", "-g", "!deep/", "."]);
    assert_eq!((r.status, listed(&r)), (0, vec![]), "{r:?}");
    let r = run_in(dir.path(), &["-l", "--hidden", "--glob", "*.txt", "."]);
    assert_eq!(
        listed(&r),
        ["./.config/bad.txt", "./.hidden.txt", "./bad.txt"]
    );
    let r = run_in(dir.path(), &["-g", "[", "."]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("bad --glob '['"), "{}", r.stderr);
}

#[test]
fn max_depth_limits_the_walk() {
    let dir = tree();
    let depth = |n: &str| listed(&run_in(dir.path(), &["-l", "--max-depth", n, "."])).len();
    assert_eq!(depth("0"), 0);
    assert_eq!(depth("1"), 1);
    assert_eq!(depth("2"), 1);
    assert_eq!(depth("3"), 2);
}

#[test]
fn the_order_is_sorted_per_directory_on_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut want = Vec::new();
    for d in ["b", "a", "a/z", "a.b", "c"] {
        for f in ["2", "10", "1"] {
            write(dir.path(), format!("{d}/{f}"), b"\xFF");
        }
    }
    for name in [
        "a/1", "a/10", "a/2", "a/z/1", "a/z/10", "a/z/2", "a.b/1", "a.b/10", "a.b/2", "b/1",
        "b/10", "b/2", "c/1", "c/10", "c/2",
    ] {
        want.push(format!("./{name}"));
    }
    for threads in ["1", "2", "8"] {
        let r = run_in(dir.path(), &["-l", "-j", threads, "."]);
        assert_eq!(listed(&r), want, "-j {threads}");
    }
}

#[test]
fn symlink_loops_with_follow_end_and_are_reported() {
    let dir = tree();
    let root = dir.path();
    symlink("..", root.join("sub/up")).unwrap();
    symlink(root.join("sub"), root.join("sub/deep/again")).unwrap();
    // Without -L links are not followed: no loop, no error.
    let r = run_in(root, &["-l", "."]);
    assert_eq!((r.status, r.stderr.as_str()), (1, ""), "{r:?}");
    // With -L each loop is an input that cannot be read (2), the rest is checked.
    let r = run_in(root, &["-l", "-L", "."]);
    assert_eq!(r.status, 2, "{r:?}");
    assert_eq!(listed(&r), ["./bad.txt", "./sub/deep/bad.md"]);
    assert!(
        r.stderr
            .contains("vutf8: ./sub/deep/again: symbolic link loop back to ./sub"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("vutf8: ./sub/up: symbolic link loop back to ."),
        "{}",
        r.stderr
    );
}

#[test]
fn unreadable_inputs_give_2_and_the_rest_is_still_checked() {
    let dir = tree();
    let root = dir.path();
    symlink(root.join("nowhere"), root.join("sub/dangling")).unwrap();
    // A dangling link followed inside a directory.
    let r = run_in(root, &["-l", "-L", "."]);
    assert_eq!(r.status, 2);
    assert_eq!(listed(&r), ["./bad.txt", "./sub/deep/bad.md"]);
    assert_eq!(
        r.stderr,
        "vutf8: ./sub/dangling: No such file or directory (os error 2)\n"
    );
    // A file that exists but cannot be read (reading offset 0 of a process's memory fails
    // whoever we are, root included), between two files that can.
    let r = run_in(root, &["-l", "ok.txt", "/proc/self/mem", "bad.txt"]);
    assert_eq!(r.status, 2, "{r:?}");
    assert_eq!(listed(&r), ["bad.txt"]);
    assert!(
        r.stderr.starts_with("vutf8: /proc/self/mem: "),
        "{}",
        r.stderr
    );
    // A path through a file, where a directory is expected.
    let r = run_in(root, &["-l", "ok.txt/x", "bad.txt"]);
    assert_eq!(r.status, 2);
    assert_eq!(listed(&r), ["bad.txt"]);
    assert_eq!(r.stderr, "vutf8: ok.txt/x: Not a directory (os error 20)\n");
}

#[test]
fn files_whose_size_is_not_what_stat_says() {
    // Files in /proc say they are empty and are not: they are read to their real end.
    let r = run_in(
        Path::new("/"),
        &["--summary", "/proc/self/status", "/proc/cpuinfo"],
    );
    assert_eq!(r.status, 0, "{r:?}");
    let bytes: u64 = r.stderr["vutf8: 2 files, ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(bytes > 100, "{}", r.stderr);
}

#[test]
fn a_file_that_grows_while_it_is_read_is_read_to_its_end() {
    // A FIFO fed piece by piece, each piece written only once the reader has taken every
    // byte before it: the reader sees the input arrive in 21 reads, the first after the
    // check started (opening a FIFO to write waits for its reader), and takes it all.
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("growing");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let path = fifo.clone();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
        for i in 0..20 {
            f.write_all(format!("line {i} ✓\n").as_bytes())?;
            common::wait_until_read(&f);
        }
        f.write_all(b"\xE2\x82")
    });
    let r = run_in(dir.path(), &["growing"]);
    // Had vutf8 ended without opening the FIFO, the writer would wait in `open` for ever: a
    // reader of our own lets it go on (its writes then fail), so the test ends and says so.
    drop(
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo),
    );
    let written = writer.join().unwrap();
    assert_eq!(r.status, 1, "{r:?}");
    assert!(
        r.stdout
            .ends_with(":21:1: byte 230: input ends inside a 3-byte sequence (bytes: E2 82)\n"),
        "{}",
        r.stdout
    );
    written.expect("the whole input was written to the FIFO");
}

#[test]
fn names_that_are_not_utf8_are_written_lossily() {
    let dir = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"caf\xE9-\xFF.txt");
    write(dir.path(), name, b"ok \xC0\xAF");
    write(dir.path(), OsStr::from_bytes(b"ok-\xFE.txt"), b"fine");
    let r = run_in(dir.path(), &["."]);
    assert_eq!(r.status, 1);
    assert_eq!(
        r.stdout,
        "./caf\u{FFFD}-\u{FFFD}.txt:1:4: byte 3: overlong encoding of U+002F (bytes: C0 AF)\n"
    );
    let r = run_in(dir.path(), &["--json", "."]);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim_end()).unwrap();
    assert_eq!(v["path"], "./caf\u{FFFD}-\u{FFFD}.txt");
}

#[test]
fn binary_files_in_directories_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "text.txt", b"plain \xFF");
    // A NUL in the first 8192 bytes: binary, with a small (streamed) and a large (mapped)
    // file.
    let mut image = b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR".to_vec();
    image.extend(std::iter::repeat_n(0xFFu8, 100));
    write(root, "image.png", &image);
    let mut large = vec![b'a'; 8191];
    large.push(0);
    large.extend(std::iter::repeat_n(0xC0u8, 2 << 20));
    write(root, "large.bin", &large);
    // A NUL only after the first 8192 bytes: text, checked.
    let mut late = vec![b'a'; 8192];
    late.extend_from_slice(b"\0\xFF");
    write(root, "late-nul.txt", &late);

    let r = run_in(root, &["-l", "--summary", "."]);
    assert_eq!(r.status, 1);
    assert_eq!(listed(&r), ["./late-nul.txt", "./text.txt"]);
    assert!(
        r.stderr.contains(" 2 binary files skipped, "),
        "{}",
        r.stderr
    );
    let r = run_in(root, &["--json", "--summary", "."]);
    let summary: serde_json::Value = serde_json::from_str(r.stderr.trim_end()).unwrap();
    assert_eq!(summary["binary_skipped"], 2, "{}", r.stderr);
    assert_eq!(summary["files"], 2);
    assert_eq!(summary["invalid"], 2);

    let r = run_in(root, &["-l", "--binary", "--summary", "."]);
    assert_eq!(
        listed(&r),
        ["./image.png", "./large.bin", "./late-nul.txt", "./text.txt"]
    );
    assert!(
        r.stderr.contains(" 0 binary files skipped, "),
        "{}",
        r.stderr
    );
    // Named on the command line, a binary file is checked.
    let r = run_in(root, &["-l", "image.png", "large.bin"]);
    assert_eq!(listed(&r), ["image.png", "large.bin"]);
}

#[test]
fn colour_on_request_never_into_a_pipe_and_never_with_no_color() {
    let dir = tree();
    let escape = |r: &Run| r.stdout.contains('\u{1b}') || r.stderr.contains('\u{1b}');
    let with_env = |args: &[&str], env: &[(&str, &str)]| bounded(command_in(dir.path(), args, env));
    let r = with_env(&["--color", "always", "--summary", "."], &[]);
    assert_eq!(r.status, 1);
    assert!(
        r.stdout
            .starts_with("\u{1b}[35m./bad.txt\u{1b}[0m:\u{1b}[32m1:1\u{1b}[0m: byte 0: "),
        "{:?}",
        r.stdout
    );
    assert!(r.stderr.contains('\u{1b}'), "{:?}", r.stderr);
    let r = with_env(&["--color", "always", "-l", "."], &[("NO_COLOR", "1")]);
    assert!(escape(&r), "--color always wins over NO_COLOR: {r:?}");
    for (args, env) in [
        (&["--color", "never", "."][..], &[][..]),
        (
            &["--color", "never", "."][..],
            &[("CLICOLOR_FORCE", "1")][..],
        ),
        (&["."][..], &[][..]),                    // auto, into a pipe
        (&["--color", "auto", "."][..], &[][..]), // the same, said
        (
            &["."][..],
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")][..],
        ),
    ] {
        let mut args = args.to_vec();
        args.push("--summary");
        let r = with_env(&args, env);
        assert_eq!(r.status, 1);
        assert!(!escape(&r), "{args:?} {env:?}: {r:?}");
        assert!(r.stdout.starts_with("./bad.txt:1:1: byte 0: "), "{r:?}");
    }
    // Auto does colour where a terminal would be (forced, since the test has none): so the
    // NO_COLOR case above really turned colour off.
    let r = with_env(&["."], &[("CLICOLOR_FORCE", "1")]);
    assert!(escape(&r), "{r:?}");
}

#[test]
fn a_mapped_file_truncated_while_checked_ends_the_run_with_a_message() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    // Every byte an error: `--all` writes a finding per byte, so the child fills its stdout
    // pipe and blocks there, in the middle of the mapped file, until we read.
    let path = write(dir.path(), "shrinking.bin", &vec![0xFF; 4 << 20]);
    let mut child = vutf8()
        .args(["--all", "--mmap-threshold", "0"])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 4096];
    stdout.read_exact(&mut first).unwrap();
    // Now it is blocked writing, with the file mapped: cut the file to nothing.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let stderr = read_all(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, "vutf8 --all on a file truncated while mapped");
    drain.join().unwrap().unwrap();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
    assert_eq!(status.code(), Some(2), "{status:?}: {stderr}");
    assert!(
        stderr.contains("vutf8: a mapped file shrank while it was checked (SIGBUS)"),
        "{stderr}"
    );
}
