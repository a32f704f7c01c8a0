//! End-to-end tests of `vutf8 [PATH...]`: the real binary, real files, real pipes.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;

use common::{json_positions, reference_positions, run, run_cmd, run_on, text, vutf8};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn valid_inputs_pass_silently() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, Vec<u8>)] = &[
        ("multilingual.txt", text(50_000, 1)),
        ("empty.txt", Vec::new()),
        (
            "crlf.txt",
            b"line one\r\nzweite Zeile \xC3\xA9\r\n".to_vec(),
        ),
        // NUL, noncharacters, the last code point: all valid.
        (
            "edges.txt",
            "\0 \u{FFFE} \u{FFFF} \u{FDD0} \u{10FFFF} \u{D7FF} \u{E000}"
                .as_bytes()
                .to_vec(),
        ),
    ];
    for (name, bytes) in cases {
        let path = write(dir.path(), name, bytes);
        let r = run_on(&[], &path);
        assert_eq!(
            (r.status, r.stdout.as_str(), r.stderr.as_str()),
            (0, "", ""),
            "{name}"
        );
        let r = run(&[], bytes);
        assert_eq!((r.status, r.stdout.as_str()), (0, ""), "{name} on stdin");
    }
}

/// Every kind of error, with its line, column, offset, reason and bytes; the same from a
/// file and from stdin.
#[test]
fn each_error_kind_is_reported_with_position_reason_and_bytes() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"ok\n/\xC0\xAF",
            "2:2: byte 4: overlong encoding of U+002F (bytes: C0 AF)",
        ),
        (
            b"\xE0\x80\xAF",
            "1:1: byte 0: overlong encoding of U+002F (bytes: E0 80 AF)",
        ),
        (
            b"a\xED\xA0\x80",
            "1:2: byte 1: surrogate U+D800 (bytes: ED A0 80)",
        ),
        (
            b"\xF4\x90\x80\x80",
            "1:1: byte 0: code point U+110000 above U+10FFFF (bytes: F4 90 80 80)",
        ),
        // The 5- and 6-byte forms of RFC 2279 are not UTF-8 any more.
        (
            b"\xF8\x88\x80\x80\x80",
            "1:1: byte 0: byte that never appears in UTF-8 (bytes: F8)",
        ),
        (
            b"\xFC\x84\x80\x80\x80\x80",
            "1:1: byte 0: byte that never appears in UTF-8 (bytes: FC)",
        ),
        (
            b"\xFF",
            "1:1: byte 0: byte that never appears in UTF-8 (bytes: FF)",
        ),
        (
            b"ab\x80",
            "1:3: byte 2: unexpected continuation byte (bytes: 80)",
        ),
        (
            b"\xE2\x82a",
            "1:1: byte 0: 3-byte sequence cut short after 2 bytes (bytes: E2 82)",
        ),
        (
            b"\xC3 ",
            "1:1: byte 0: 2-byte sequence cut short after 1 byte (bytes: C3)",
        ),
        (
            b"x\xF0\x9F\x98",
            "1:2: byte 1: input ends inside a 4-byte sequence (bytes: F0 9F 98)",
        ),
        // Columns count characters, not bytes; CR is a character of its line.
        ("größe".as_bytes(), ""),
        (
            b"gr\xC3\xB6\xC3\x9Fe\xFF",
            "1:6: byte 7: byte that never appears in UTF-8 (bytes: FF)",
        ),
        (
            b"a\r\nb\r\n\xFF",
            "3:1: byte 6: byte that never appears in UTF-8 (bytes: FF)",
        ),
        (
            b"ab\r\xFF",
            "1:4: byte 3: byte that never appears in UTF-8 (bytes: FF)",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (bytes, want)) in cases.iter().enumerate() {
        let path = write(dir.path(), &format!("case{i}.txt"), bytes);
        let r = run_on(&[], &path);
        if want.is_empty() {
            assert_eq!((r.status, r.stdout.as_str()), (0, ""));
            continue;
        }
        assert_eq!(r.status, 1, "{bytes:02X?}");
        assert_eq!(
            r.stdout,
            format!("{}:{want}\n", path.display()),
            "{bytes:02X?}"
        );
        let r = run(&[], bytes);
        assert_eq!(r.status, 1);
        assert_eq!(
            r.stdout,
            format!("<stdin>:{want}\n"),
            "{bytes:02X?} on stdin"
        );
    }
}

#[test]
fn all_reports_every_error_in_order_and_json_has_every_field() {
    let input = b"ok \xC0\xAF line\n\xED\xA0\x80\xE2\x82\n\xFF\xFE caf\xC3\xA9 \x80\xF0\x9F\x98";
    let r = run(&["--all"], input);
    assert_eq!(r.status, 1);
    assert_eq!(
        r.lines(),
        [
            "<stdin>:1:4: byte 3: overlong encoding of U+002F (bytes: C0 AF)",
            "<stdin>:1:5: byte 4: unexpected continuation byte (bytes: AF)",
            "<stdin>:2:1: byte 11: surrogate U+D800 (bytes: ED A0 80)",
            "<stdin>:2:2: byte 12: unexpected continuation byte (bytes: A0)",
            "<stdin>:2:3: byte 13: unexpected continuation byte (bytes: 80)",
            "<stdin>:2:4: byte 14: 3-byte sequence cut short after 2 bytes (bytes: E2 82)",
            "<stdin>:3:1: byte 17: byte that never appears in UTF-8 (bytes: FF)",
            "<stdin>:3:2: byte 18: byte that never appears in UTF-8 (bytes: FE)",
            "<stdin>:3:9: byte 26: unexpected continuation byte (bytes: 80)",
            "<stdin>:3:10: byte 27: input ends inside a 4-byte sequence (bytes: F0 9F 98)",
        ]
    );
    let r = run(&["--all", "--json"], input);
    assert_eq!(r.status, 1);
    assert_eq!(json_positions(&r.stdout), reference_positions(input));
    let first: serde_json::Value = serde_json::from_str(r.lines()[0]).unwrap();
    assert_eq!(
        first,
        serde_json::json!({
            "path": "<stdin>", "offset": 3, "line": 1, "column": 4, "kind": "overlong",
            "reason": "overlong encoding of U+002F", "bytes": "C0 AF"
        })
    );
    let kinds: Vec<String> = r
        .lines()
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].to_string())
        .collect();
    assert_eq!(
        kinds.join(" ").replace('"', ""),
        "overlong unexpected_continuation surrogate unexpected_continuation \
         unexpected_continuation too_short invalid_byte invalid_byte \
         unexpected_continuation incomplete"
    );
}

/// Deterministic bytes that are mostly not UTF-8.
fn binary(len: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn binary_input_every_error_where_a_whole_decode_finds_it() {
    let data = binary(20_000);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "data.bin", &data);
    let want = reference_positions(&data);
    assert!(want.len() > 5000);
    for args in [
        &["--all", "--json"][..],
        &[
            "--all",
            "--json",
            "--mmap-threshold",
            "0",
            "--chunk-size",
            "1000",
        ],
    ] {
        let r = run_on(args, &path);
        assert_eq!(r.status, 1);
        assert_eq!(json_positions(&r.stdout), want, "{args:?}");
    }
    let r = run(&["--all", "--json", "--chunk-size", "999"], &data);
    assert_eq!(json_positions(&r.stdout), want);
}

/// Text with errors of every kind spread over it, so that they fall on, just before and
/// just after the boundaries of small chunks.
fn text_with_errors() -> Vec<u8> {
    let bad: &[&[u8]] = &[
        b"\xC0\xAF",
        b"\xE0\x80\xAF",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\xF0\x9F\x98",
        b"\xE2\x82",
        b"\x80\xBF",
        b"\xFF",
        b"\xF8\x88\x80\x80\x80",
        b"\xC3",
    ];
    let mut out = Vec::new();
    for i in 0..120 {
        out.extend_from_slice(&text(1 + (i * 7) % 23, i as u64));
        out.extend_from_slice(bad[i % bad.len()]);
        if i % 5 == 0 {
            out.extend_from_slice(b"\r\n");
        }
    }
    out.extend_from_slice(b"\xF0\x9F"); // and the input ends inside a character
    out
}

/// Errors straddling the chunks of a mapped file and the buffers of a stream are reported
/// exactly as one check of the whole input reports them.
#[test]
fn chunk_and_buffer_boundaries_change_nothing() {
    let data = text_with_errors();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "errors.txt", &data);
    // The whole input in one buffer: the reference, itself checked against a decode.
    let whole_all = run_on(&["--all", "--json"], &path);
    assert_eq!(
        json_positions(&whole_all.stdout),
        reference_positions(&data)
    );
    let whole_first = run_on(&["--json"], &path);
    assert_eq!(whole_first.lines().len(), 1);
    for chunk in ["16", "17", "31", "64", "333"] {
        for (mode, whole) in [(&["--all"][..], &whole_all), (&[], &whole_first)] {
            let mut args = vec!["--json", "--chunk-size", chunk];
            args.extend_from_slice(mode);
            // A mapped file, in parallel chunks.
            let mut mapped = args.clone();
            mapped.extend(["--mmap-threshold", "0"]);
            let r = run_on(&mapped, &path);
            assert_eq!(r.stdout, whole.stdout, "mapped, {args:?}");
            // A stream, in buffers of that size.
            let r = run(&args, &data);
            assert_eq!(
                r.stdout,
                whole.stdout.replace(&path.display().to_string(), "<stdin>"),
                "stdin, {args:?}"
            );
        }
    }
}

/// Stdin arriving a few bytes at a time, characters and errors split between writes.
#[test]
fn stdin_fed_in_small_pieces() {
    let data = text_with_errors();
    let want = run(&["--all"], &data);
    let mut child = vutf8()
        .args(["--all", "--chunk-size", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let mut rest = &data[..];
        let mut i = 0;
        while !rest.is_empty() {
            let n = (1 + i % 3).min(rest.len());
            if stdin.write_all(&rest[..n]).is_err() {
                return; // vutf8 ended early: the assertions below say how
            }
            rest = &rest[n..];
            // The next piece goes only once vutf8 has read this one: each of its reads
            // returns exactly one piece of 1 to 3 bytes, on a busy machine too.
            common::wait_until_read(&stdin);
            i += 1;
        }
    });
    // The output is read while the input goes in, so a report larger than a pipe holds
    // cannot stall vutf8 (and with it the feeder).
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want.stdout);
    assert!(want.lines().len() > 100);
}

#[test]
fn directory_tree_with_an_unreadable_file_and_a_dangling_symlink() {
    // Root reads files whatever their mode: then vutf8 runs as nobody (uid 65534), who
    // cannot, and who must reach the tree and the binary. The binary is copied into the
    // temporary directory (the target directory may sit in a home of mode 0700), and the
    // temporary directory goes where others can pass: $TMPDIR, else /tmp.
    let as_nobody = common::is_root();
    let dir = if as_nobody {
        let others_pass = |d: &Path| {
            d.ancestors()
                .all(|a| std::fs::metadata(a).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
        };
        let Some(base) = [std::env::temp_dir(), "/tmp".into()]
            .into_iter()
            .find(|d| others_pass(d))
        else {
            eprintln!(
                "skipped: run as root, this test runs vutf8 as the user nobody, and nobody \
                 cannot enter $TMPDIR ({}) or /tmp",
                std::env::temp_dir().display()
            );
            return;
        };
        tempfile::tempdir_in(base).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let root = dir.path().join("tree");
    write(&root, "a.txt", "valid ✓\n".as_bytes());
    write(&root, "b/bad.txt", b"x\n\xC0\xAF");
    write(&root, "b/c/deep.txt", b"fine");
    let secret = write(&root, "b/secret.txt", b"hidden");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    symlink(root.join("missing"), root.join("dangling")).unwrap();
    symlink(root.join("b/bad.txt"), root.join("link.txt")).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let binary = if as_nobody {
        let copy = dir.path().join("vutf8");
        std::fs::copy(env!("CARGO_BIN_EXE_vutf8"), &copy).unwrap();
        copy
    } else {
        env!("CARGO_BIN_EXE_vutf8").into()
    };
    let command = |args: &[&str]| {
        let mut cmd = std::process::Command::new(&binary);
        cmd.args(args).arg(&root);
        if as_nobody {
            cmd.uid(65534).gid(65534);
        }
        run_cmd(cmd, b"")
    };
    let name = |p: &str| root.join(p).display().to_string();

    let r = command(&[]);
    assert_eq!(r.status, 2, "invalid and unreadable together give 2: {r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "{}:2:1: byte 2: overlong encoding of U+002F (bytes: C0 AF)\n",
            name("b/bad.txt")
        )
    );
    assert_eq!(
        r.stderr,
        format!(
            "vutf8: {}: Permission denied (os error 13)\n",
            name("b/secret.txt")
        )
    );

    // Following links: the dangling one is an input that cannot be read.
    let r = command(&["-l", "--follow"]);
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stdout,
        format!("{}\n{}\n", name("b/bad.txt"), name("link.txt"))
    );
    assert!(
        r.stderr.contains(&format!(
            "vutf8: {}: No such file or directory (os error 2)",
            name("dangling")
        )),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("Permission denied"));

    // A dangling link named on the command line.
    let r = run_on(&[], &root.join("dangling"));
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr,
        format!(
            "vutf8: {}: No such file or directory (os error 2)\n",
            name("dangling")
        )
    );
}

#[test]
fn exit_statuses_and_messages() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.txt", b"fine");
    let bad = write(dir.path(), "bad.txt", b"\xFF");
    let missing = dir.path().join("missing.txt");
    let r = run(&[good.to_str().unwrap(), bad.to_str().unwrap()], b"");
    assert_eq!(r.status, 1);
    let r = run(&[good.to_str().unwrap(), missing.to_str().unwrap()], b"");
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr,
        format!(
            "vutf8: {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    // A directory read as a file (via a name that is not walked) reads as an error.
    let r = run(&["--no-such-option"], b"");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("--no-such-option"));
    let r = run(&["--backend", "nonsense"], b"");
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("unknown backend 'nonsense'"),
        "{}",
        r.stderr
    );
    // `-` is stdin, among files.
    let r = run(&[good.to_str().unwrap(), "-"], b"\xC3");
    assert_eq!(r.status, 1);
    assert_eq!(
        r.stdout,
        "<stdin>:1:1: byte 0: input ends inside a 2-byte sequence (bytes: C3)\n"
    );
}

#[test]
fn every_backend_this_cpu_runs_gives_the_same_report() {
    let data = text_with_errors();
    let want = run(&["--all"], &data);
    for backend in vutf8::Backend::ALL {
        let r = run(&["--all", "--backend", backend.name()], &data);
        if backend.is_available() {
            assert_eq!(r.stdout, want.stdout, "{}", backend.name());
        } else {
            // Not built (another target, or no cargo feature avx512), or this CPU lacks
            // its instructions: the message says which.
            let why = backend.unavailable_reason().expect("a reason");
            assert_eq!(r.status, 2);
            assert!(
                r.stderr
                    .contains(&format!("cannot use the {} backend: {why}", backend.name())),
                "{}",
                r.stderr
            );
        }
    }
}

#[test]
fn quiet_list_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "1.txt", b"\xFF\xFF\xFF");
    write(dir.path(), "2.txt", "ünïcödé".as_bytes());
    write(dir.path(), "3.txt", b"a\nb\n\xC3");
    let r = run_on(&["-q"], dir.path());
    assert_eq!(
        (r.status, r.stdout.as_str(), r.stderr.as_str()),
        (1, "", "")
    );
    let r = run_on(&["-l"], dir.path());
    assert_eq!(r.status, 1);
    let names: Vec<String> = ["1.txt", "3.txt"]
        .iter()
        .map(|n| dir.path().join(n).display().to_string())
        .collect();
    assert_eq!(r.lines(), names);
    let r = run_on(&["--summary"], dir.path());
    assert_eq!(r.status, 1);
    assert_eq!(r.lines().len(), 2);
    assert!(
        r.stderr.starts_with(
            "vutf8: 3 files, 19 bytes (19 B), 7 characters in valid files, 2 invalid, 0 unreadable, 0 binary files skipped, in "
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.trim_end().ends_with("GB/s)"), "{}", r.stderr);
    // Options that make no sense together are refused.
    let r = run(&["-q", "-l"], b"");
    assert_eq!(r.status, 2);
}

#[test]
fn a_signature_is_accepted_stripped_or_reported() {
    let input = b"\xEF\xBB\xBFhi\n\xEF\xBB\xBF\xFF";
    for bom in ["accept", "strip"] {
        let r = run(&["--bom", bom, "--summary"], b"\xEF\xBB\xBFhi");
        assert_eq!(r.status, 0);
        assert!(r.stderr.contains(" 2 characters"), "{}", r.stderr);
        // Not a column either; a U+FEFF later in the text is an ordinary character.
        let r = run(&["--bom", bom], input);
        assert_eq!(
            r.stdout,
            "<stdin>:2:2: byte 9: byte that never appears in UTF-8 (bytes: FF)\n"
        );
    }
    let r = run(&["--bom", "report", "--all"], input);
    assert_eq!(r.status, 1);
    assert_eq!(
        r.lines(),
        [
            "<stdin>:1:1: byte 0: UTF-8 signature (BOM) at the start (bytes: EF BB BF)",
            "<stdin>:2:2: byte 9: byte that never appears in UTF-8 (bytes: FF)",
        ]
    );
    let r = run(&["--bom", "report"], b"\xEF\xBB\xBFhi");
    assert_eq!(r.status, 1);
    let r = run(&["--bom", "report"], b"hi \xEF\xBB\xBF");
    assert_eq!(r.status, 0);
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let data = binary(1 << 20);
    let mut child = vutf8()
        .args(["--all", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn info_and_bench() {
    let r = run(&["info"], b"");
    assert_eq!(r.status, 0);
    let chosen = vutf8::Backend::selected().name();
    assert!(
        r.stdout.contains(&format!("chosen:          {chosen}\n")),
        "{}",
        r.stdout
    );
    let code = vutf8::Backend::selected().variant().unwrap();
    assert!(
        r.stdout.contains(&format!(
            "chosen:          {chosen}\n  code:          {code}\n"
        )),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("backends:        scalar"), "{}", r.stdout);
    // Every backend is on exactly one of the three lines.
    let line = |label: &str| {
        r.lines()
            .into_iter()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no '{label}' line in {}", r.stdout))
            .split_whitespace()
            .skip(label.split_whitespace().count())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (on, off, not_built) = (
        line("backends:"),
        line("  not available:"),
        line("  not built:"),
    );
    for backend in vutf8::Backend::ALL {
        let name = backend.name().to_string();
        let lines = [&on, &off, &not_built].map(|l| l.contains(&name));
        let want = [
            backend.is_available(),
            backend.is_built() && !backend.is_available(),
            !backend.is_built(),
        ];
        assert_eq!(lines, want, "{name}: {}", r.stdout);
    }
    let r = run(&["bench", "--size", "5000", "--runs", "1"], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    for backend in vutf8::Backend::available() {
        assert!(r.lines()[1].contains(backend.name()), "{}", r.stdout);
    }
    assert_eq!(r.lines().len(), 2 + vutf8_corpus::Script::ALL.len());
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bench.txt", &text_with_errors());
    let r = run_on(&["bench", "--runs", "2"], &path);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("WRONG"));
}

/// The first error lying in a later window of the default parallel check, on either side
/// of a window boundary (with `--chunk-size 16`, windows are 4096 bytes), in each of many
/// files checked at once: the offset is where the error was put.
#[test]
fn first_errors_beyond_window_boundaries() {
    use vutf8_corpus::Corruption;
    let dir = tempfile::tempdir().unwrap();
    let base = text(20_000, 5);
    let mut want = Vec::new();
    for at in (4090..4100).chain(8188..8196).chain([12_288, 16_383]) {
        for corruption in Corruption::ALL {
            let (bad, offset) = vutf8_corpus::with_error(&base, at, corruption);
            let name = format!("{at}-{corruption:?}");
            write(dir.path(), &name, &bad);
            want.push((name, offset as u64));
        }
    }
    want.sort();
    let r = run_on(
        &["--json", "--mmap-threshold", "0", "--chunk-size", "16"],
        dir.path(),
    );
    assert_eq!(r.status, 1);
    let got: Vec<(String, u64)> = r
        .lines()
        .iter()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let path = std::path::PathBuf::from(v["path"].as_str().unwrap());
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            (name, v["offset"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(got, want);
    // Kinds, code points and bytes too: the same as one check of each whole file.
    let whole = run_on(&["--json"], dir.path());
    assert_eq!(r.stdout, whole.stdout);
}
