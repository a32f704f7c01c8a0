//! The real-text report: `cargo bench --bench compare -- --real [DIR]`.
//!
//! Times every validator of [`super::peers`] on the real-text corpus that
//! `scripts/real-corpus.sh` builds (`target/real-corpus` by default; `damaged/` is left
//! out), side by side: each round times every contender once, in turn, and the tables give
//! the median of the rounds. Four tables and a summary:
//!
//! 1. whole files, yes-or-no (`is_valid` against simdutf8 `basic`, simdutf `validate_utf8`
//!    and std), GB/s and vutf8 ÷ the fastest peer;
//! 2. whole files, exact errors (`from_utf8` against simdutf8 `compat` and simdutf
//!    `validate_utf8_with_errors`);
//! 3. the same text cut into pieces of 64 B to 4 KiB (each cut moved back to a character
//!    boundary) and into its lines, validated one by one as a log shipper does: ns per
//!    piece;
//! 4. `Validator` fed 64 KiB chunks against one-shot `is_valid`.
//!
//! Every call's answer is checked (every file and piece is valid UTF-8).

use super::peers::{self, Contender};
use super::{median, ns_per_call, Placed};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The sizes text is cut to for table 3.
pub const PIECE_SIZES: &[usize] = &[64, 100, 128, 200, 256, 512, 1000, 1024, 2048, 4096];

/// How much of each file is cut into pieces (so that every file weighs the same).
const PIECES_PER_FILE: usize = 64 << 10;

/// A file of the corpus.
struct File {
    name: String,
    bytes: Placed,
    non_ascii: f64,
}

fn files(dir: &Path) -> Vec<File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "damaged") {
                    walk(&p, out);
                }
            } else {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read a corpus file");
            assert!(
                std::str::from_utf8(&bytes).is_ok(),
                "{} is not valid UTF-8",
                p.display()
            );
            let non_ascii =
                bytes.iter().filter(|&&b| b >= 0x80).count() as f64 / bytes.len() as f64;
            let name = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            File {
                name,
                bytes: Placed::new(&bytes),
                non_ascii,
            }
        })
        .collect()
}

/// Median ns of one call of `run(contender)` for each contender, in interleaved rounds.
fn measure(
    contenders: &[Contender],
    rounds: usize,
    batch: Duration,
    mut run: impl FnMut(fn(&[u8]) -> bool) -> bool,
) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(rounds); contenders.len()];
    for _ in 0..rounds {
        for (i, &(name, f)) in contenders.iter().enumerate() {
            samples[i].push(ns_per_call(batch, || {
                let ok = run(f);
                assert!(ok, "{name} rejected valid text");
                ok
            }));
        }
    }
    samples.iter_mut().map(|s| median(s)).collect()
}

/// vutf8 (the first contender) ÷ the fastest of the others, as a speed ratio.
fn ratio(ns: &[f64]) -> f64 {
    let best_peer = ns[1..].iter().copied().fold(f64::INFINITY, f64::min);
    best_peer / ns[0]
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

fn min(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::INFINITY, f64::min)
}

fn table_head(first: &str, contenders: &[Contender], unit: &str) {
    let names: Vec<String> = contenders
        .iter()
        .map(|(n, _)| format!("{n} {unit}"))
        .collect();
    println!("| {first} | {} | vutf8 ÷ fastest peer |", names.join(" | "));
    let right = first.matches('|').count() + contenders.len() + 1;
    println!("|---|{}", "---:|".repeat(right));
}

/// Files with fewer non-ASCII bytes than this count as ASCII in the summary (English man
/// pages and HTML have a few: a name, a quotation mark, a copyright sign).
const ASCII_BELOW: f64 = 0.01;

/// Whole files: prints the table, returns (non-ASCII ratios, ASCII ratios).
fn whole_files(files: &[File], contenders: &[Contender], o: (usize, Duration)) -> [Vec<f64>; 2] {
    table_head("file | KB | non-ASCII bytes", contenders, "GB/s");
    let mut out = [Vec::new(), Vec::new()];
    for f in files {
        let b = f.bytes.bytes();
        let ns = measure(contenders, o.0, o.1, |v| v(black_box(b)));
        let gbs: Vec<String> = ns
            .iter()
            .map(|t| format!("{:.2}", b.len() as f64 / t))
            .collect();
        let r = ratio(&ns);
        println!(
            "| {} | {} | {:.1} % | {} | {r:.2} |",
            f.name,
            b.len() / 1000,
            f.non_ascii * 100.0,
            gbs.join(" | ")
        );
        out[usize::from(f.non_ascii < ASCII_BELOW)].push(r);
    }
    out
}

/// `bytes` cut into pieces of at most `size` bytes, each ending on a character boundary.
fn cut(bytes: &[u8], size: usize, out: &mut Vec<(usize, usize)>, base: usize) {
    let mut at = 0;
    while at < bytes.len() {
        let mut end = (at + size).min(bytes.len());
        while end > at && end < bytes.len() && bytes[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        out.push((base + at, base + end));
        at = end;
    }
}

/// Runs the report on the corpus in `dir`.
pub fn run(dir: &Path, rounds: usize, batch: Duration) {
    let files = files(dir);
    if files.is_empty() {
        eprintln!(
            "compare --real: no files in {}; run scripts/real-corpus.sh first",
            dir.display()
        );
        std::process::exit(2);
    }
    let total: usize = files.iter().map(|f| f.bytes.bytes().len()).sum();
    print!(
        "{}",
        peers::header(&format!(
            "vutf8 compare --real: {} files, {:.1} MB of real text in {}, {rounds} rounds, medians",
            files.len(),
            total as f64 / 1e6,
            dir.display()
        ))
    );
    let o = (rounds, batch);

    println!("### 1. Whole files, yes or no\n");
    let [non_ascii, ascii] = whole_files(&files, peers::IS_VALID, o);

    println!("\n### 2. Whole files, exact error positions\n");
    let [e1, e2] = whole_files(&files, peers::EXACT, o);
    let exact: Vec<f64> = e1.into_iter().chain(e2).collect();

    println!(
        "\n### 3. Pieces validated one by one (the first {} KiB of every file)\n",
        PIECES_PER_FILE >> 10
    );
    let contenders = peers::IS_VALID;
    table_head("pieces of | pieces | mean bytes", contenders, "ns/piece");
    // All files' first PIECES_PER_FILE bytes, one after another, cut at each size.
    let mut text = Vec::new();
    for f in &files {
        let b = f.bytes.bytes();
        let mut end = b.len().min(PIECES_PER_FILE);
        while end < b.len() && b[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        text.extend_from_slice(&b[..end]);
    }
    let placed = Placed::new(&text);
    let text = placed.bytes();
    let mut piece_ratios = Vec::new();
    let mut cuts: Vec<(String, Vec<(usize, usize)>)> = PIECE_SIZES
        .iter()
        .map(|&s| {
            let mut v = Vec::new();
            cut(text, s, &mut v, 0);
            (format!("{s} B"), v)
        })
        .collect();
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            lines.push((start, i + 1));
            start = i + 1;
        }
    }
    cuts.push(("lines".to_string(), lines));
    for (label, pieces) in &cuts {
        let ns = measure(contenders, rounds, batch, |v| {
            pieces.iter().all(|&(a, b)| v(black_box(&text[a..b])))
        });
        let per: Vec<String> = ns
            .iter()
            .map(|t| format!("{:.1}", t / pieces.len() as f64))
            .collect();
        let r = ratio(&ns);
        let mean = pieces.iter().map(|(a, b)| b - a).sum::<usize>() as f64 / pieces.len() as f64;
        println!(
            "| {label} | {} | {mean:.0} | {} | {r:.2} |",
            pieces.len(),
            per.join(" | ")
        );
        if label != "lines" {
            piece_ratios.push(r);
        }
    }

    println!("\n### 4. `Validator` in 64 KiB chunks against one-shot `is_valid`\n");
    println!("| file | one-shot GB/s | 64 KiB chunks GB/s | chunks ÷ one-shot |");
    println!("|---|---:|---:|---:|");
    let stream: [Contender; 2] = [
        ("vutf8 Validator 64 KiB", |b| {
            let mut v = vutf8::Validator::new();
            b.chunks(64 << 10).all(|c| v.update(c).is_ok()) && v.finish().is_ok()
        }),
        ("vutf8 is_valid", peers::vutf8_is_valid),
    ];
    let mut stream_ratios = Vec::new();
    for f in files.iter().filter(|f| f.bytes.bytes().len() >= 256 << 10) {
        let b = f.bytes.bytes();
        let ns = measure(&stream, rounds, batch, |v| v(black_box(b)));
        let r = ns[1] / ns[0];
        println!(
            "| {} | {:.2} | {:.2} | {r:.2} |",
            f.name,
            b.len() as f64 / ns[1],
            b.len() as f64 / ns[0]
        );
        stream_ratios.push(r);
    }

    println!("\n### Summary (vutf8 ÷ the fastest peer; > 1: vutf8 faster)\n");
    println!("| what | files or sizes | geometric mean | lowest |");
    println!("|---|---:|---:|---:|");
    for (what, xs) in [
        (
            "non-ASCII files (>= 1 % non-ASCII bytes), is_valid",
            &non_ascii,
        ),
        ("ASCII files (< 1 % non-ASCII bytes), is_valid", &ascii),
        ("pieces of 64 B to 4 KiB", &piece_ratios),
        ("from_utf8 (exact errors), every file", &exact),
        ("Validator 64 KiB chunks ÷ one-shot", &stream_ratios),
    ] {
        if !xs.is_empty() {
            println!(
                "| {what} | {} | {:.2} | {:.2} |",
                xs.len(),
                geomean(xs),
                min(xs)
            );
        }
    }
}
