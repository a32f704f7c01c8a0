//! Damaged input: `cargo bench -p vutf8-bench --bench damaged`.
//!
//! What a log pipeline meets when a source sends the wrong encoding or junk, and what each
//! of vutf8's paths for invalid text costs there, against its std equivalent, side by side
//! in one process:
//!
//! - `lossy`: `vutf8::from_utf8_lossy` against `String::from_utf8_lossy`;
//! - `errors`: every error by `vutf8::errors` (its offset and `error_len`) against the
//!   invalid parts of std's `<[u8]>::utf8_chunks`;
//! - `escape`: the input cut into lines as `BufRead::lines` cuts them, each ill-formed
//!   part's bytes written `\xNN` (Python's `backslashreplace`), each line followed by `\n`
//!   into one output buffer: `Policy::Escape.append_records(lines(..), ..)` against the
//!   same built on std's `utf8_chunks` per line; `escape per record`: the same by a call
//!   of `Policy::Escape.append_text` per invalid record (as a writer that counts or
//!   writes JSON per record goes).
//!
//! Inputs (8 MiB each, the source repeated or cut; all from files people have, but the
//! random bytes): real Latin-1 text (the Debian reference in French, German, Spanish,
//! Italian and Portuguese, transcoded to ISO-8859-1, a character outside it written `?`),
//! a real Latin-1 file (the German man pages of the damaged corpus), UTF-16LE text (the
//! Debian reference in those languages, and in Japanese alone), the damaged real logs (1 line
//! in 40 damaged), random bytes, every byte 0xFF, and binary files (the Debian packages the
//! corpus is built from: compressed data). Needs `scripts/real-corpus.sh` and
//! `scripts/real-logs.sh`; an input whose files are missing is left out, with a note.
//!
//! Every contender's answer is checked against its std equivalent before timing. Each
//! round times every contender once (a batch of calls lasting about `--batch-ms`, default
//! 20), in the balanced order of `support::balanced_order`; the table gives the medians
//! over `--rounds` rounds (default 7) in MB/s of input and the ratio vutf8 ÷ std (std's time
//! over vutf8's), with the geometric mean over the inputs. `--input TEXT` and `--operation
//! TEXT` keep the inputs and operations whose names contain TEXT (for a profiler).
//!
//! On an AVX-512 CPU, the AVX2 figures come from a build without the `avx512` feature:
//! `cargo bench -p vutf8-bench --bench damaged --no-default-features`.

mod support;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use support::{geomean, median, Placed, WORKSPACE};
use vutf8::records::{lines, repair, Policy};
use vutf8_corpus::Rng;

/// The size of every input.
const SIZE: usize = 8 << 20;

/// `source` repeated and cut to [`SIZE`] bytes.
fn fill(source: &[u8]) -> Vec<u8> {
    assert!(!source.is_empty());
    source.iter().copied().cycle().take(SIZE).collect()
}

/// The contents of the files under the workspace's `target/`, concatenated; `None` if one
/// is missing.
fn read_all(paths: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in paths {
        out.extend(std::fs::read(Path::new(WORKSPACE).join("target").join(p)).ok()?);
    }
    Some(out)
}

/// Latin-script languages of the Debian reference in the real corpus.
const LATIN: [&str; 5] = ["fr", "de", "es", "it", "pt"];

/// Text transcoded to ISO-8859-1 (a character outside it becomes `?`).
fn to_latin1(text: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(text)
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

/// Text transcoded to UTF-16LE.
fn to_utf16le(text: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(text)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect()
}

/// The inputs that can be built here: (name, bytes).
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let reference = |langs: &[&str]| -> Vec<String> {
        langs
            .iter()
            .map(|l| format!("real-corpus/text/debian-reference.{l}.txt"))
            .collect()
    };
    let mut out = Vec::new();
    let mut add = |name: &'static str, bytes: Option<Vec<u8>>| {
        match bytes {
        Some(b) => out.push((name, fill(&b))),
        None => eprintln!("damaged: {name} left out: its files are missing (scripts/real-corpus.sh, scripts/real-logs.sh)"),
    }
    };
    add(
        "Latin-1 text (5 languages)",
        read_all(&reference(&LATIN)).map(|t| to_latin1(&t)),
    );
    add(
        "Latin-1 file (de man pages)",
        read_all(&["real-corpus/damaged/manpages-de.latin1.man".into()]),
    );
    add(
        "UTF-16LE text (5 languages)",
        read_all(&reference(&LATIN)).map(|t| to_utf16le(&t)),
    );
    add(
        "UTF-16LE text (Japanese)",
        read_all(&reference(&["ja"])).map(|t| to_utf16le(&t)),
    );
    add(
        "logs, 1 line in 40 damaged",
        read_all(&["real-logs/damaged.log".into()]),
    );
    let mut rng = Rng::new(7);
    add(
        "random bytes",
        Some((0..SIZE).map(|_| rng.next_u64() as u8).collect()),
    );
    add("all 0xFF", Some(vec![0xFF; 64]));
    add(
        "binary (Debian packages)",
        read_all(
            &["de", "ja", "zh-cn"]
                .iter()
                .map(|l| format!("real-corpus-downloads/debian-reference-{l}_2.100_all.deb"))
                .collect::<Vec<_>>(),
        ),
    );
    out
}

/// What `errors` and `utf8_chunks` say: the number of errors, the sum of their offsets and
/// of their lengths (an error at the end of the input, cut short, counts its length as 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    count: usize,
    offsets: usize,
    lens: usize,
}

fn vutf8_errors(b: &[u8]) -> Tally {
    let mut t = Tally::default();
    for e in vutf8::errors(b) {
        t.count += 1;
        t.offsets += e.valid_up_to();
        t.lens += e.error_len().unwrap_or(0);
    }
    t
}

/// [`vutf8_errors`] from within the iterator (`for_each`, which folds).
fn vutf8_errors_folded(b: &[u8]) -> Tally {
    let mut t = Tally::default();
    vutf8::errors(b).for_each(|e| {
        t.count += 1;
        t.offsets += e.valid_up_to();
        t.lens += e.error_len().unwrap_or(0);
    });
    t
}

fn std_errors(b: &[u8]) -> Tally {
    let mut t = Tally::default();
    let mut at = 0;
    let mut last_bad = 0;
    for chunk in b.utf8_chunks() {
        at += chunk.valid().len();
        last_bad = chunk.invalid().len();
        if last_bad > 0 {
            t.count += 1;
            t.offsets += at;
            t.lens += last_bad;
        }
        at += last_bad;
    }
    // The last invalid part is an unfinished sequence (`error_len` None, counted 0) when
    // the input ends inside it: std's own from_utf8 says so.
    if last_bad > 0
        && core::str::from_utf8(&b[b.len() - last_bad..]).is_err_and(|e| e.error_len().is_none())
    {
        t.lens -= last_bad;
    }
    t
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Each line of `b`, cut as `BufRead::lines` cuts them.
#[inline(always)]
fn for_each_line(b: &[u8], mut f: impl FnMut(&[u8])) {
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', b) {
        let end = if at > start && b[at - 1] == b'\r' {
            at - 1
        } else {
            at
        };
        f(&b[start..end]);
        start = at + 1;
    }
    if start < b.len() {
        f(&b[start..]);
    }
}

fn std_escape(b: &[u8], out: &mut Vec<u8>) {
    out.clear();
    for_each_line(b, |line| {
        for chunk in line.utf8_chunks() {
            out.extend_from_slice(chunk.valid().as_bytes());
            for &x in chunk.invalid() {
                out.extend_from_slice(&[
                    b'\\',
                    b'x',
                    HEX[usize::from(x >> 4)],
                    HEX[usize::from(x & 15)],
                ]);
            }
        }
        out.push(b'\n');
    });
}

fn vutf8_escape(b: &[u8], out: &mut String) {
    out.clear();
    Policy::Escape
        .append_records(lines(b), out)
        .expect("escape refuses nothing");
}

/// [`vutf8_escape`] a record at a time, as a writer that does more with each record than
/// append its text (counts, JSON) goes.
fn vutf8_escape_by_record(b: &[u8], out: &mut String) {
    out.clear();
    for r in lines(b) {
        match r.is_valid() {
            true => out.push_str(r.to_str().expect("a valid record")),
            false => {
                Policy::Escape.append_text(r.bytes(), out);
            }
        }
        out.push('\n');
    }
}

/// One way of doing the work, timed: returns a value that depends on the whole result.
type Run = Box<dyn FnMut(&[u8]) -> usize>;

/// The operations: (name, vutf8's way, std's way).
fn operations() -> Vec<(&'static str, Run, Run)> {
    let mut out_v = String::new();
    let mut out_s = Vec::new();
    let mut out_r = String::new();
    let mut out_rs = Vec::new();
    vec![
        (
            "from_utf8_lossy",
            Box::new(|b: &[u8]| vutf8::from_utf8_lossy(b).len()) as Run,
            Box::new(|b: &[u8]| String::from_utf8_lossy(b).len()) as Run,
        ),
        (
            "errors (for)",
            Box::new(|b: &[u8]| vutf8_errors(b).offsets) as Run,
            Box::new(|b: &[u8]| std_errors(b).offsets) as Run,
        ),
        (
            "errors (for_each)",
            Box::new(|b: &[u8]| vutf8_errors_folded(b).offsets) as Run,
            Box::new(|b: &[u8]| std_errors(b).offsets) as Run,
        ),
        (
            "escape per line",
            Box::new(move |b: &[u8]| {
                vutf8_escape(b, &mut out_v);
                out_v.len()
            }) as Run,
            Box::new(move |b: &[u8]| {
                std_escape(b, &mut out_s);
                out_s.len()
            }) as Run,
        ),
        (
            "escape per record",
            Box::new(move |b: &[u8]| {
                vutf8_escape_by_record(b, &mut out_r);
                out_r.len()
            }) as Run,
            Box::new(move |b: &[u8]| {
                std_escape(b, &mut out_rs);
                out_rs.len()
            }) as Run,
        ),
    ]
}

/// Checks that vutf8's answers equal std's on `b`.
fn check(name: &str, b: &[u8]) {
    assert_eq!(
        vutf8::from_utf8_lossy(b),
        String::from_utf8_lossy(b),
        "{name}: lossy"
    );
    assert_eq!(vutf8_errors(b), std_errors(b), "{name}: errors");
    assert_eq!(
        vutf8_errors_folded(b),
        std_errors(b),
        "{name}: errors, folded"
    );
    let (mut v, mut s) = (String::new(), Vec::new());
    vutf8_escape(b, &mut v);
    std_escape(b, &mut s);
    assert!(v.as_bytes() == s, "{name}: escape per line");
    vutf8_escape_by_record(b, &mut v);
    assert!(v.as_bytes() == s, "{name}: escape per record");
    // The records' repair iterator gives the same lines.
    let lines_of: Vec<String> = repair(lines(b), Policy::Escape)
        .map(|r| r.expect("escape refuses nothing").into_text().into_owned())
        .collect();
    assert_eq!(
        lines_of.concat().len() + lines_of.len(),
        v.len(),
        "{name}: repair()"
    );
}

/// Seconds per call of `f` on `b`, over a batch of about `batch`.
fn time(f: &mut Run, b: &[u8], batch: Duration) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while calls == 0 || start.elapsed() < batch {
        black_box(f(black_box(b)));
        calls += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(calls)
}

fn main() {
    let mut rounds = 7;
    let mut batch = Duration::from_millis(20);
    let (mut only_input, mut only_op) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--batch-ms" => {
                batch = Duration::from_millis(
                    args.next()
                        .and_then(|v| v.parse().ok())
                        .expect("--batch-ms N"),
                )
            }
            "--input" => only_input = args.next(),
            "--operation" => only_op = args.next(),
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    println!(
        "{}",
        support::peers::header("Damaged input: vutf8 against std")
    );
    let inputs: Vec<(&str, Placed)> = inputs()
        .into_iter()
        .filter(|(name, _)| {
            only_input
                .as_ref()
                .is_none_or(|f| name.contains(f.as_str()))
        })
        .map(|(name, bytes)| {
            check(name, &bytes);
            (name, Placed::new(&bytes))
        })
        .collect();
    let mut ops = operations();
    println!(
        "{:<30} {:>16} {:>10} {:>10} {:>8}",
        "input", "operation", "vutf8 MB/s", "std MB/s", "ratio"
    );
    let mut per_op: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
    for (name, placed) in &inputs {
        let b = placed.bytes();
        for (k, (op, v, s)) in ops.iter_mut().enumerate() {
            if only_op.as_ref().is_some_and(|f| !op.contains(f.as_str())) {
                continue;
            }
            let (mut tv, mut ts) = (Vec::new(), Vec::new());
            for round in 0..rounds {
                for which in support::balanced_order(2, round) {
                    if which == 0 {
                        tv.push(time(v, b, batch));
                    } else {
                        ts.push(time(s, b, batch));
                    }
                }
            }
            let (tv, ts) = (median(&mut tv), median(&mut ts));
            let mbs = |t: f64| b.len() as f64 / t / 1e6;
            per_op[k].push(ts / tv);
            println!(
                "{:<30} {:>16} {:>10.0} {:>10.0} {:>8.2}",
                name,
                op,
                mbs(tv),
                mbs(ts),
                ts / tv
            );
        }
    }
    println!();
    for (k, (op, _, _)) in ops.iter().enumerate() {
        let r = &per_op[k];
        if r.is_empty() {
            continue;
        }
        let lowest = r.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "{op:<16} vutf8 ÷ std: geometric mean {:.2}, lowest {:.2} ({} inputs)",
            geomean(r.iter().copied()),
            lowest,
            r.len()
        );
    }
}
