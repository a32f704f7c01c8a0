//! Log lines from a stream, decoded by tokio codecs: `cargo bench -p vutf8-bench --bench codec`.
//!
//! What a log shipper written with tokio runs: a `FramedRead` fills a `BytesMut` from the
//! reader and asks the decoder for frames until it has none, then reads again. Here the
//! reads are simulated without a runtime (the decoder's work is what is measured): each log
//! file of `target/real-logs/` (`scripts/real-logs.sh`) is appended to the buffer 8 KiB at
//! a time (`FramedRead`'s initial capacity) and decoded to the end (`decode_eof`).
//! Contenders, each giving every line of the file as text:
//!
//! 1. `tokio_util::codec::LinesCodec`: a `String` per line; it returns an error at the first
//!    line that is not UTF-8 (the stream ends there), so it has no figure on a damaged log;
//! 2. `tokio_util::codec::AnyDelimiterCodec` at `\n`, then `String::from_utf8_lossy` on
//!    each line (its `\r` removed): what a shipper does to get past a bad line with the
//!    codecs tokio has (a `Bytes` per line, the text borrowed when it is valid);
//! 3. `vutf8_codec::LogLines` with `Policy::Replace` (the same text as 2: U+FFFD for each
//!    ill-formed part): a `Bytes` per line, the text borrowed when it is valid.
//!
//! Every contender's lines (how many, and the UTF-8 length of their text summed) are
//! checked against `BufRead::lines`-style lines each decoded by `from_utf8_lossy` before
//! timing, and every timed call's answer again. Timing as `benches/records.rs` does it:
//! interleaved rounds in `support::balanced_order`, batches of about 2 ms, medians.
//! Options (after `--`): `--rounds N` (default 11).

mod support;

use bytes::BytesMut;
use std::hint::black_box;
use std::io::BufRead;
use std::path::Path;
use std::time::Duration;
use support::median;
use tokio_util::codec::{AnyDelimiterCodec, Decoder, LinesCodec};
use vutf8_codec::{Frame, LogLines, Policy};

/// What a contender says about a file: lines, and their text's length summed; `None` when
/// it stopped at an error.
type Tally = Option<(usize, usize)>;

/// The bytes a `FramedRead` asks of its reader at a time, at first (`INITIAL_CAPACITY` of
/// tokio_util 0.7).
const READ: usize = 8 << 10;

/// Runs `decoder` over `data` fed `READ` bytes at a time, calling `each` on every frame;
/// `false` at the first error.
fn drive<D: Decoder>(mut decoder: D, data: &[u8], mut each: impl FnMut(D::Item)) -> bool {
    let mut buf = BytesMut::with_capacity(2 * READ);
    for chunk in data.chunks(READ) {
        buf.extend_from_slice(chunk);
        loop {
            match decoder.decode(&mut buf) {
                Ok(Some(item)) => each(item),
                Ok(None) => break,
                Err(_) => return false,
            }
        }
    }
    loop {
        match decoder.decode_eof(&mut buf) {
            Ok(Some(item)) => each(item),
            Ok(None) => return true,
            Err(_) => return false,
        }
    }
}

fn lines_codec(data: &[u8]) -> Tally {
    let (mut lines, mut len) = (0, 0);
    drive(LinesCodec::new(), data, |line: String| {
        lines += 1;
        len += line.len();
    })
    .then_some((lines, len))
}

fn any_delimiter_lossy(data: &[u8]) -> Tally {
    let (mut lines, mut len) = (0, 0);
    let codec = AnyDelimiterCodec::new(b"\n".to_vec(), Vec::new());
    drive(codec, data, |line| {
        let bytes = line.strip_suffix(b"\r").unwrap_or(&line);
        lines += 1;
        len += String::from_utf8_lossy(bytes).len();
    })
    .then_some((lines, len))
}

fn log_lines(data: &[u8]) -> Tally {
    let (mut lines, mut len) = (0, 0);
    drive(LogLines::new(Policy::Replace), data, |frame| {
        if let Frame::Line(line) = frame {
            lines += 1;
            len += line.text().len();
        }
    })
    .then_some((lines, len))
}

/// A contender: its name, and what it says about a file.
type Contender = (&'static str, fn(&[u8]) -> Tally);

/// The contenders, in the order of the table.
const CONTENDERS: &[Contender] = &[
    ("tokio_util LinesCodec", lines_codec),
    (
        "tokio_util AnyDelimiterCodec + from_utf8_lossy",
        any_delimiter_lossy,
    ),
    ("vutf8_codec LogLines (Replace)", log_lines),
];

/// The lines of `data` as `BufRead::lines` cuts them, each decoded by `from_utf8_lossy`:
/// how many, their text's length summed, and how many are not valid.
fn reference(data: &[u8]) -> (usize, usize, usize) {
    let (mut lines, mut len, mut invalid) = (0, 0, 0);
    for line in data.split(|&b| b == b'\n') {
        lines += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        len += String::from_utf8_lossy(line).len();
        invalid += usize::from(std::str::from_utf8(line).is_err());
    }
    if data.ends_with(b"\n") || data.is_empty() {
        lines -= 1; // No line after a final `\n`.
    }
    let mut check = std::io::Cursor::new(data);
    assert_eq!(
        lines,
        (&mut check).split(b'\n').count(),
        "the reference's count"
    );
    (lines, len, invalid)
}

fn main() {
    let mut rounds = 11;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .expect("--rounds N (N > 0)")
            }
            "--bench" => {}
            other => eprintln!("codec: ignoring argument {other:?}"),
        }
    }
    let dir = Path::new(support::WORKSPACE).join("target/real-logs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        eprintln!(
            "codec: no *.log files in {}; run scripts/real-logs.sh first",
            dir.display()
        );
        std::process::exit(2);
    }
    let title = format!(
        "tokio codecs on real logs, fed {READ} bytes at a time: {rounds} rounds, medians (GB/s)"
    );
    print!("{}", support::peers::header(&title));
    let names: Vec<&str> = CONTENDERS.iter().map(|c| c.0).collect();
    println!(
        "| file | lines | invalid | MB | {} | LogLines / LinesCodec | LogLines / AnyDelimiterCodec + lossy |",
        names.join(" | ")
    );
    println!(
        "|---|---:|---:|---:|{}---:|---:|",
        "---:|".repeat(names.len())
    );
    for path in &paths {
        let data = std::fs::read(path).expect("reading a log file");
        let (lines, len, invalid) = reference(&data);
        let expect: Vec<Tally> = CONTENDERS
            .iter()
            .map(|(name, f)| {
                let got = f(&data);
                // LinesCodec stops at the first invalid line; the others go to the end.
                let want =
                    (*name != "tokio_util LinesCodec" || invalid == 0).then_some((lines, len));
                assert_eq!(got, want, "{}: {name}", path.display());
                got
            })
            .collect();
        let mut samples = vec![Vec::with_capacity(rounds); CONTENDERS.len()];
        for round in 0..rounds {
            for i in support::balanced_order(CONTENDERS.len(), round) {
                let (name, f) = CONTENDERS[i];
                if expect[i].is_none() {
                    continue;
                }
                let ns = support::ns_per_call(Duration::from_millis(2), || {
                    let got = f(black_box(&data));
                    assert_eq!(got, expect[i], "{name}");
                    got.is_some()
                });
                samples[i].push(data.len() as f64 / ns);
            }
        }
        let gbps: Vec<Option<f64>> = samples
            .iter_mut()
            .map(|s| (!s.is_empty()).then(|| median(s)))
            .collect();
        let cell = |x: Option<f64>| x.map_or("fails".to_string(), |v| format!("{v:.2}"));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "—".to_string(),
        };
        println!(
            "| {} | {lines} | {invalid} | {:.1} | {} | {} | {} |",
            path.file_name().unwrap_or_default().to_string_lossy(),
            data.len() as f64 / 1e6,
            gbps.iter()
                .map(|&g| cell(g))
                .collect::<Vec<_>>()
                .join(" | "),
            ratio(gbps[2], gbps[0]),
            ratio(gbps[2], gbps[1]),
        );
    }
}
