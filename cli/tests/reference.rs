//! Same verdict as a strict reference, Python's `bytes.decode('utf-8')`, on every file of a
//! directory of valid and invalid samples, and the same offset for the first error
//! (`UnicodeDecodeError.start`). Python's decoder is strict: it rejects overlong forms,
//! surrogates, values above U+10FFFF and the old 5- and 6-byte forms.
//!
//! And `vutf8 repair --policy utf8-or-windows-1252` equal to Python's `decode('utf-8')`
//! with an error handler that decodes each failing part as windows-1252, on damaged logs.
//!
//! Skipped, with a message, where no `python3` is installed.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use vutf8_corpus::{Corruption, Script};

/// Writes the samples; returns how many.
fn samples(dir: &Path) -> usize {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for script in Script::ALL {
        let text = vutf8_corpus::generate(script, 5000, 11);
        files.push((format!("{}.txt", script.name()), text.clone()));
        for corruption in Corruption::ALL {
            for at in [0, 2500, 4990] {
                let (bad, _) = vutf8_corpus::with_error(&text, at, corruption);
                files.push((format!("{}-{corruption:?}-{at}.txt", script.name()), bad));
            }
        }
        let mut cut = text.clone();
        while cut.last().is_some_and(|&b| b < 0x80) {
            cut.pop();
        }
        cut.pop(); // ends inside a character (or, for ASCII, just shorter)
        files.push((format!("{}-cut.txt", script.name()), cut));
    }
    let specials: &[(&str, &[u8])] = &[
        ("empty", b""),
        ("nul", b"a\0b"),
        (
            "noncharacters",
            "\u{FFFE}\u{FFFF}\u{FDD0}\u{10FFFF}".as_bytes(),
        ),
        ("bom", b"\xEF\xBB\xBFtext"),
        ("crlf", b"a\r\nb\r\n"),
        ("cesu8-pair", b"\xED\xA0\xBD\xED\xB8\x80"),
        ("five-byte", b"\xF8\x88\x80\x80\x80"),
        ("six-byte", b"\xFC\x84\x80\x80\x80\x80"),
        ("above-max", b"\xF4\x90\x80\x80"),
        ("f5", b"\xF5\x80\x80\x80"),
        ("overlong-nul", b"\xC0\x80"),
        ("overlong-3", b"\xE0\x9F\xBF"),
        ("overlong-4", b"\xF0\x8F\xBF\xBF"),
        ("latin1", b"caf\xE9"),
        ("lone-lead", b"\xC2"),
        ("lone-cont", b"\xBF"),
        ("fffe-bytes", b"\xFF\xFE"),
    ];
    for (name, bytes) in specials {
        files.push((format!("special-{name}"), bytes.to_vec()));
    }
    let mut x = 7u64;
    for n in 0..20 {
        let bytes: Vec<u8> = (0..64 * n + 1)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly ASCII, with every kind of high byte now and then.
                if x.is_multiple_of(7) {
                    (x >> 8) as u8
                } else {
                    b'a' + (x % 26) as u8
                }
            })
            .collect();
        files.push((format!("random-{n}"), bytes));
    }
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    files.len()
}

const PYTHON: &str = r#"
import os, sys
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    data = open(os.path.join(root, name), 'rb').read()
    try:
        data.decode('utf-8')
        print(name, 'valid')
    except UnicodeDecodeError as e:
        print(name, e.start)
"#;

#[test]
fn same_verdicts_and_offsets_as_python() {
    let dir = tempfile::tempdir().unwrap();
    let count = samples(dir.path());
    let python = match Command::new("python3")
        .arg("-c")
        .arg(PYTHON)
        .arg(dir.path())
        .output()
    {
        Ok(out) if out.status.success() => String::from_utf8(out.stdout).unwrap(),
        _ => {
            eprintln!("SKIPPED: no working python3 to compare with");
            return;
        }
    };
    let want: BTreeMap<String, String> = python
        .lines()
        .map(|l| {
            let (name, verdict) = l.rsplit_once(' ').unwrap();
            (name.to_string(), verdict.to_string())
        })
        .collect();
    assert_eq!(want.len(), count);

    // `--binary`: the random samples hold NUL bytes, which would skip them as binary.
    let r = common::run_on(&["--json", "--binary"], dir.path());
    assert_eq!(r.status, 1, "{}", r.stderr);
    let mut got: BTreeMap<String, String> = want
        .keys()
        .map(|k| (k.clone(), "valid".to_string()))
        .collect();
    for line in r.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = Path::new(v["path"].as_str().unwrap());
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        got.insert(name, v["offset"].to_string());
    }
    let invalid = want.values().filter(|v| *v != "valid").count();
    assert!(
        invalid > 100 && count - invalid >= 10,
        "{invalid} of {count}"
    );
    for (name, verdict) in &want {
        assert_eq!(&got[name], verdict, "{name}");
    }
    // `-l` agrees, and so does every backend.
    for backend in vutf8::Backend::available() {
        let r = common::run_on(&["-l", "--binary", "--backend", backend.name()], dir.path());
        assert_eq!(r.lines().len(), invalid, "{}", backend.name());
    }
}

/// CPython's `bytes.decode('utf-8', errors=h)` with a handler that decodes each failing
/// part as windows-1252 (WHATWG: the five bytes CPython's cp1252 leaves undefined are the
/// C1 controls of the same value), the reference of `--policy utf8-or-windows-1252`.
const PYTHON_UTF8_OR_WINDOWS_1252: &str = r#"
import codecs, sys
UNDEFINED = {0x81, 0x8D, 0x8F, 0x90, 0x9D}
def windows_1252(e):
    part = e.object[e.start:e.end]
    text = ''.join(chr(b) if b in UNDEFINED else bytes([b]).decode('cp1252') for b in part)
    return text, e.end
codecs.register_error('windows-1252', windows_1252)
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    open(path + '.py', 'wb').write(data.decode('utf-8', errors='windows-1252').encode('utf-8'))
"#;

#[test]
fn utf8_or_windows_1252_equals_python_on_damaged_logs_with_lf_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (i, (name, log)) in common::damaged_logs().into_iter().enumerate() {
        let lf = log
            .split_inclusive(|&b| b == b'\n')
            .fold(Vec::new(), |mut out, line| {
                let body = line.strip_suffix(b"\n").unwrap_or(line);
                out.extend_from_slice(body.strip_suffix(b"\r").unwrap_or(body));
                if body.len() < line.len() {
                    out.push(b'\n');
                }
                out
            });
        let mut crlf = Vec::new();
        for &b in &lf {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        for (ends, bytes) in [("lf", lf), ("crlf", crlf)] {
            assert!(std::str::from_utf8(&bytes).is_err(), "{name} is damaged");
            let path = dir.path().join(format!("log{i}-{ends}"));
            std::fs::write(&path, &bytes).unwrap();
            paths.push((format!("{name}, {ends}"), path));
        }
    }
    let ran = Command::new("python3")
        .arg("-c")
        .arg(PYTHON_UTF8_OR_WINDOWS_1252)
        .args(paths.iter().map(|(_, p)| p))
        .status();
    if !ran.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED: no working python3 to compare with");
        return;
    }
    for (what, path) in &paths {
        let r = common::run_on(&["repair", "--policy", "utf8-or-windows-1252"], path);
        assert_eq!(r.status, 1, "{what}: {}", r.stderr);
        let python = std::fs::read(path.with_extension("py")).unwrap();
        let python = String::from_utf8(python).unwrap();
        let first = r
            .stdout
            .lines()
            .zip(python.lines())
            .position(|(a, b)| a != b);
        assert_eq!(
            first.map(|i| (r.stdout.lines().nth(i), python.lines().nth(i))),
            None,
            "{what}"
        );
        assert!(r.stdout == python, "{what}");
    }
}
