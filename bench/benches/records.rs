//! Log ingestion: `cargo bench -p vutf8-bench --bench records`.
//!
//! A buffer of many log lines is cut into its lines and every line gets a verdict (valid
//! UTF-8 or not), as a log shipper does before it forwards a line as text. The lines are
//! those of `std::io::BufRead::lines` (cut at `\n`, a `\r` before the `\n` left out, no line
//! after a final `\n`), invalid ones included. Contenders, all giving the same answer (the
//! number of lines, of valid lines, and the sum of the lines' lengths):
//!
//! 1. per line, the ways it is done today: `memchr::memchr_iter(b'\n', buf)` cuts the lines
//!    and each line is validated on its own by `core::str::from_utf8` ("memchr + std"),
//!    `simdutf8::basic::from_utf8`, `simdutf8::compat::from_utf8`, on x86 the C++ simdutf's
//!    `validate_utf8` ("memchr + simdutf"), and `vutf8::from_utf8` ("memchr + vutf8 per
//!    line");
//! 2. "vutf8 one pass + memchr": `vutf8::is_valid` on the whole buffer; when it is valid,
//!    every line is, and only the memchr cut remains; when it is not, `vutf8::errors` finds
//!    every error of the buffer in one walk and a line is valid when no error starts inside
//!    it (the lines are still cut by memchr);
//! 3. "vutf8 records::lines": `vutf8::records::lines(buf)`, each record's `is_valid()`.
//!
//! Inputs: every `*.log` file of `target/real-logs/` (written by `scripts/real-logs.sh`),
//! each measured twice: the whole file as one buffer, and the file cut into buffers of up
//! to 64 KiB at line ends (every buffer holds whole lines; a line longer than that is a
//! buffer of its own), as a shipper receives them. Buffers start 8 bytes past a 64-byte
//! boundary. Before timing, every contender's answer on every input is checked against
//! the lines that `BufRead::read_until` gives (each validated by `core::str::from_utf8`),
//! and each record of `records::lines` against the line it should be (offset, bytes,
//! verdict); every timed call's answer is checked again.
//!
//! Timing as `benches/compare.rs` does it: each round times every contender once (in the
//! order of `support::balanced_order`, a batch of calls that lasts about 2 ms, at least one
//! call), and the table gives the median over the rounds, in GB/s of buffer bytes; then
//! `records::lines` over the fastest contender of group 1 (named) and over group 2, and
//! nanoseconds per line.
//!
//! Options (after `--`): `--rounds N` (default 11), `--quick` (5 rounds, batches of
//! 0.5 ms), `--logs DIR` (default `target/real-logs`, relative to the crate), `--file PATH`
//! (repeatable: these files instead of the logs folder; with `--logs` as well, both).
//!
//! The vutf8 backend is the one it selects on this CPU (printed in the header). On an
//! AVX-512 CPU, the AVX2 figures come from a build without the `avx512` feature:
//! `cargo bench -p vutf8-bench --bench records --no-default-features`.

mod support;

use std::hint::black_box;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::{median, Placed};

/// What every contender says about a buffer's lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    lines: usize,
    valid: usize,
    bytes: usize,
}

impl Tally {
    #[inline]
    fn add(&mut self, len: usize, valid: bool) {
        self.lines += 1;
        self.valid += usize::from(valid);
        self.bytes += len;
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.lines += o.lines;
        self.valid += o.valid;
        self.bytes += o.bytes;
    }
}

/// A contender: name, and what it says about one buffer.
type Contender = (&'static str, fn(&[u8]) -> Tally);

/// Calls `f(start, end)` for each line of `buf` (`buf[start..end]`), cut as
/// `BufRead::lines` cuts: at each `\n` found by memchr, a `\r` before it left out, no line
/// after a final `\n`.
#[inline(always)]
fn for_each_line(buf: &[u8], mut f: impl FnMut(usize, usize)) {
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', buf) {
        let end = if at > start && buf[at - 1] == b'\r' {
            at - 1
        } else {
            at
        };
        f(start, end);
        start = at + 1;
    }
    if start < buf.len() {
        f(start, buf.len());
    }
}

/// Group 1: the lines cut by memchr, each validated by `valid` on its own.
#[inline(always)]
fn per_line(buf: &[u8], valid: impl Fn(&[u8]) -> bool) -> Tally {
    let mut t = Tally::default();
    for_each_line(buf, |start, end| {
        let line = &buf[start..end];
        t.add(line.len(), valid(line));
    });
    t
}

/// Group 2: the whole buffer by `vutf8::is_valid`; when it is not valid, its errors by
/// `vutf8::errors` (one walk), a line being valid when no error starts inside it.
fn one_pass_memchr(buf: &[u8]) -> Tally {
    let mut t = Tally::default();
    if vutf8::is_valid(buf) {
        for_each_line(buf, |start, end| t.add(end - start, true));
        return t;
    }
    // An error is never longer than its non-ASCII bytes, so it never spans a `\n` (nor
    // the `\r` before one): each error lies inside one line.
    let mut errors = vutf8::errors(buf).map(|e| e.valid_up_to()).peekable();
    for_each_line(buf, |start, end| {
        while errors.next_if(|&e| e < start).is_some() {}
        let valid = errors.peek().is_none_or(|&e| e >= end);
        t.add(end - start, valid);
    });
    t
}

/// Group 3: `vutf8::records::lines`.
fn records_lines(buf: &[u8]) -> Tally {
    let mut t = Tally::default();
    for r in vutf8::records::lines(buf) {
        t.add(r.bytes().len(), r.is_valid());
    }
    t
}

/// Group 1, then group 2 ([`ONE_PASS`]), then group 3 ([`RECORDS`]).
const CONTENDERS: &[Contender] = &[
    ("memchr + std", |b| {
        per_line(b, |l| core::str::from_utf8(l).is_ok())
    }),
    ("memchr + simdutf8 basic", |b| {
        per_line(b, |l| simdutf8::basic::from_utf8(l).is_ok())
    }),
    ("memchr + simdutf8 compat", |b| {
        per_line(b, |l| simdutf8::compat::from_utf8(l).is_ok())
    }),
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    ("memchr + simdutf", |b| per_line(b, simdutf::validate_utf8)),
    ("memchr + vutf8 per line", |b| {
        per_line(b, |l| vutf8::from_utf8(l).is_ok())
    }),
    ("vutf8 one pass + memchr", one_pass_memchr),
    ("vutf8 records::lines", records_lines),
];

/// The index of group 2 in [`CONTENDERS`]; group 1 is every contender before it.
const ONE_PASS: usize = CONTENDERS.len() - 2;
/// The index of group 3 in [`CONTENDERS`].
const RECORDS: usize = CONTENDERS.len() - 1;

/// The buffers a shipper receives, at most this long (cut at line ends).
const SHIPPER_BUFFER: usize = 64 << 10;

struct Options {
    rounds: usize,
    batch: Duration,
    logs: Option<PathBuf>,
    files: Vec<PathBuf>,
}

fn options() -> Options {
    let mut o = Options {
        rounds: 11,
        batch: Duration::from_millis(2),
        logs: None,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                o.rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .expect("--rounds N (N > 0)")
            }
            "--quick" => {
                o.rounds = 5;
                o.batch = Duration::from_micros(500);
            }
            "--logs" => {
                let dir = args.next().expect("--logs DIR");
                o.logs = Some(Path::new(support::WORKSPACE).join(dir));
            }
            "--file" => o
                .files
                .push(Path::new(support::WORKSPACE).join(args.next().expect("--file PATH"))),
            "--bench" => {}
            other => eprintln!("records: ignoring argument {other:?}"),
        }
    }
    if o.logs.is_none() && o.files.is_empty() {
        o.logs = Some(Path::new(support::WORKSPACE).join("target/real-logs"));
    }
    o
}

/// The `*.log` files of `dir`, sorted by name.
fn log_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "log"))
        .collect();
    out.sort();
    out
}

/// One line of a file, as `BufRead::lines` would give it.
struct Line {
    offset: usize,
    len: usize,
    valid: bool,
}

/// The lines of `bytes` by `BufRead::read_until` (the reference cut, independent of
/// memchr and of vutf8), each validated by `core::str::from_utf8`.
fn reference_lines(bytes: &[u8]) -> Vec<Line> {
    let mut reader = std::io::Cursor::new(bytes);
    let mut line = Vec::new();
    let mut offset = 0;
    let mut out = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).expect("reading memory");
        if n == 0 {
            break;
        }
        if line.ends_with(b"\n") {
            line.pop();
            if line.ends_with(b"\r") {
                line.pop();
            }
        }
        out.push(Line {
            offset,
            len: line.len(),
            valid: core::str::from_utf8(&line).is_ok(),
        });
        offset += n;
    }
    out
}

/// `bytes` cut into buffers of at most `size` bytes at line ends: each buffer ends just
/// after a `\n` (or at the end of `bytes`); a line longer than `size` is a buffer of its
/// own.
fn cut_at_lines(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let limit = bytes.len().min(start + size);
        let end = if limit == bytes.len() {
            limit
        } else {
            match memchr::memrchr(b'\n', &bytes[start..limit]) {
                Some(i) => start + i + 1,
                None => {
                    memchr::memchr(b'\n', &bytes[limit..]).map_or(bytes.len(), |i| limit + i + 1)
                }
            }
        };
        out.push(&bytes[start..end]);
        start = end;
    }
    out
}

/// What a contender says about all the buffers, one after the other.
#[inline]
fn run(f: fn(&[u8]) -> Tally, buffers: &[Placed]) -> Tally {
    let mut t = Tally::default();
    for b in buffers {
        t += f(black_box(b.bytes()));
    }
    t
}

/// Checks every contender's answer on `buffers` against `expect`, and each record of
/// `records::lines` against the reference line it should be. Panics on a disagreement.
fn check(name: &str, buffers: &[Placed], lines: &[Line], expect: Tally) {
    for &(contender, f) in CONTENDERS {
        let got = run(f, buffers);
        assert_eq!(
            got, expect,
            "{name}: {contender} disagrees with BufRead + core::str::from_utf8"
        );
    }
    let mut reference = lines.iter().enumerate();
    let mut base = 0;
    for b in buffers {
        let buf = b.bytes();
        for r in vutf8::records::lines(buf) {
            let (i, line) = reference
                .next()
                .unwrap_or_else(|| panic!("{name}: records::lines gives more lines"));
            let at = base + r.offset();
            assert!(
                at == line.offset
                    && buf.get(r.offset()..r.offset() + line.len) == Some(r.bytes())
                    && r.is_valid() == line.valid
                    && r.to_str().is_ok() == line.valid,
                "{name}: records::lines, line {i} (byte {}): offset {at}, {} bytes, valid {}; \
                 expected offset {}, {} bytes, valid {}",
                line.offset,
                r.bytes().len(),
                r.is_valid(),
                line.offset,
                line.len,
                line.valid
            );
        }
        base += buf.len();
    }
    assert!(
        reference.next().is_none(),
        "{name}: records::lines gives fewer lines"
    );
}

/// Median nanoseconds per pass over `buffers` for each contender, in interleaved rounds
/// (in [`support::balanced_order`]). Every call's answer must equal `expect`.
fn measure(buffers: &[Placed], expect: Tally, o: &Options) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(o.rounds); CONTENDERS.len()];
    for round in 0..o.rounds {
        for i in support::balanced_order(CONTENDERS.len(), round) {
            let (name, f) = CONTENDERS[i];
            let ns = support::ns_per_call(o.batch, || {
                let t = run(f, buffers);
                assert_eq!(t, expect, "{name} gave the wrong answer");
                t.valid == t.lines
            });
            samples[i].push(ns);
        }
    }
    samples.iter_mut().map(|s| median(s)).collect()
}

fn main() {
    let o = options();
    support::peers::hold_simdutf_to_vutf8();
    let mut paths = o.files.clone();
    if let Some(dir) = &o.logs {
        paths.extend(log_files(dir));
    }
    if paths.is_empty() {
        eprintln!(
            "records: no *.log files in {}; run scripts/real-logs.sh first (or pass --file PATH)",
            o.logs.as_deref().unwrap_or(Path::new("?")).display()
        );
        std::process::exit(2);
    }

    let mut title = format!(
        "vutf8 records (log ingestion: lines with verdicts): {} rounds, medians",
        o.rounds
    );
    title += &format!(
        "\n\nvutf8 built {} the `avx512` feature; `records::lines` windows of {} bytes. \
         \"vutf8 one pass + memchr\": `is_valid` on the buffer, else `vutf8::errors` \
         placed in the memchr-cut lines.",
        if cfg!(feature = "avx512") {
            "with"
        } else {
            "without"
        },
        vutf8::tiers::RECORD_WINDOW
    );
    print!("{}", support::peers::header(&title));

    let mut head: Vec<String> = [
        "file",
        "buffers",
        "lines",
        "invalid lines",
        "median line B",
        "MB",
    ]
    .map(String::from)
    .into();
    head.extend(CONTENDERS.iter().map(|(n, _)| format!("{n} GB/s")));
    head.extend(
        [
            "fastest per-line",
            "records / fastest per-line",
            "records / one pass",
            "records ns/line",
            "fastest per-line ns/line",
        ]
        .map(String::from),
    );
    println!("| {} |", head.join(" | "));
    println!("|---|---|{}", "---:|".repeat(head.len() - 2));

    for path in &paths {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("records: could not read {}: {e}", path.display());
                std::process::exit(2);
            }
        };
        if bytes.is_empty() {
            eprintln!("records: {name} is empty; skipped");
            continue;
        }
        let lines = reference_lines(&bytes);
        let mut expect = Tally::default();
        for l in &lines {
            expect.add(l.len, l.valid);
        }
        let mut lens: Vec<f64> = lines.iter().map(|l| l.len as f64).collect();
        let median_len = median(&mut lens);

        let shapes: [(String, Vec<Placed>); 2] =
            [("whole file".into(), vec![Placed::new(&bytes)]), {
                let cut = cut_at_lines(&bytes, SHIPPER_BUFFER);
                (
                    format!("{} KiB ×{}", SHIPPER_BUFFER >> 10, cut.len()),
                    cut.into_iter().map(Placed::new).collect(),
                )
            }];
        for (shape, buffers) in &shapes {
            check(&format!("{name} ({shape})"), buffers, &lines, expect);
        }
        for (shape, buffers) in &shapes {
            let ns = measure(buffers, expect, &o);
            let gbs: Vec<f64> = ns.iter().map(|t| bytes.len() as f64 / t).collect();
            let fastest = (0..ONE_PASS)
                .max_by(|&a, &b| gbs[a].total_cmp(&gbs[b]))
                .expect("group 1 is not empty");
            let per_line = |i: usize| ns[i] / expect.lines as f64;
            let mut row = vec![
                name.clone(),
                shape.clone(),
                expect.lines.to_string(),
                (expect.lines - expect.valid).to_string(),
                format!("{median_len:.0}"),
                format!("{:.1}", bytes.len() as f64 / 1e6),
            ];
            row.extend(gbs.iter().map(|g| format!("{g:.2}")));
            row.extend([
                CONTENDERS[fastest].0.to_string(),
                format!("{:.2}", gbs[RECORDS] / gbs[fastest]),
                format!("{:.2}", gbs[RECORDS] / gbs[ONE_PASS]),
                format!("{:.1}", per_line(RECORDS)),
                format!("{:.1}", per_line(fastest)),
            ]);
            println!("| {} |", row.join(" | "));
        }
    }
}
