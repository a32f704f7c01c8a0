//! The real-text report: `cargo bench -p vutf8-bench --bench compare -- --real [DIR]`.
//!
//! Times every validator of [`super::peers`] on the real-text corpus that
//! `scripts/real-corpus.sh` builds (`target/real-corpus` by default; `damaged/` is left
//! out), side by side: each round times every contender once, in turn, and the tables give
//! the median of the rounds. Six tables, a summary and a plot:
//!
//! 1. whole files, yes-or-no (`is_valid` against simdutf8 `basic`, simdutf `validate_utf8`
//!    and std), GB/s and vutf8 ÷ the fastest peer;
//! 2. whole files, exact errors (`from_utf8` against simdutf8 `compat` and simdutf
//!    `validate_utf8_with_errors`);
//!
//!    (1 and 2 time batches of calls on one file: the branch predictor learns a file of up
//!    to about 1 MB that is validated again and again, which no program that validates each
//!    text once gets; so:)
//! - 1u and 2u: the same, for **text not seen before**: each round walks the whole corpus,
//!   one call per validator and file ([`measure_walk`]);
//! 3. the same text cut into pieces of 64 B to 4 KiB (each cut moved back to a character
//!    boundary) and into its lines, validated one by one as a log shipper does: ns per
//!    piece;
//! 4. `Validator` fed 64 KiB chunks against one-shot `is_valid`.
//!
//! The plot (`docs/compare-real.svg` unless `--no-plot`) shows vutf8 ÷ the fastest peer for
//! every file, tables 1 and 1u in one panel, 2 and 2u in the other.
//!
//! Every call's answer is checked (every file and piece is valid UTF-8).

use super::peers::{self, Contender};
use super::{balanced_order, median, ns_per_call, touch, Placed};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    for round in 0..rounds {
        for i in balanced_order(contenders.len(), round) {
            let (name, f) = contenders[i];
            samples[i].push(ns_per_call(batch, || {
                let ok = run(f);
                assert!(ok, "{name} rejected valid text");
                ok
            }));
        }
    }
    samples.iter_mut().map(|s| median(s)).collect()
}

/// Median ns of one call of each contender on each file, **text not seen before**: each of
/// `3 * rounds` rounds walks the whole corpus once, timing one call of every contender on
/// every file (each right after [`touch`] has brought the file into the cache). Between
/// two calls on the same file, a validator has gone through the rest of the corpus
/// (70 MB), so its branch predictor no longer holds the pattern of that file, as in a
/// program that validates each text once. (The batches of [`measure`] repeat one file,
/// and the predictor learns files up to about 1 MB: docs/PERFORMANCE.md#method-unseen.)
fn measure_walk(files: &[File], contenders: &[Contender], rounds: usize) -> Vec<Vec<f64>> {
    let mut samples = vec![vec![Vec::with_capacity(3 * rounds); contenders.len()]; files.len()];
    for round in 0..3 * rounds {
        for (f, file) in files.iter().enumerate() {
            let b = file.bytes.bytes();
            for i in balanced_order(contenders.len(), round) {
                let (name, v) = contenders[i];
                black_box(touch(black_box(b)));
                let t = Instant::now();
                let ok = v(black_box(b));
                samples[f][i].push(t.elapsed().as_nanos() as f64);
                assert!(ok, "{name} rejected valid text");
            }
        }
    }
    samples
        .iter_mut()
        .map(|per| per.iter_mut().map(|s| median(s)).collect())
        .collect()
}

/// vutf8 (the first contender) ÷ the fastest of the others, as a speed ratio.
fn ratio(ns: &[f64]) -> f64 {
    let best_peer = ns[1..].iter().copied().fold(f64::INFINITY, f64::min);
    best_peer / ns[0]
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

/// Median ns of each contender on each file, in batches of calls on one file ([`measure`]).
fn measure_batches(
    files: &[File],
    contenders: &[Contender],
    o: (usize, Duration),
) -> Vec<Vec<f64>> {
    files
        .iter()
        .map(|f| {
            let b = f.bytes.bytes();
            measure(contenders, o.0, o.1, |v| v(black_box(b)))
        })
        .collect()
}

/// Whole files: prints the table of `ns` (each file's median ns per contender, from
/// [`measure_batches`] or [`measure_walk`]), returns vutf8 ÷ the fastest peer for each
/// file, in order.
fn whole_files(files: &[File], contenders: &[Contender], ns: &[Vec<f64>]) -> Vec<f64> {
    table_head("file | KB | non-ASCII bytes", contenders, "GB/s");
    let mut out = Vec::new();
    for (f, ns) in files.iter().zip(ns) {
        let b = f.bytes.bytes();
        let gbs: Vec<String> = ns
            .iter()
            .map(|t| format!("{:.2}", b.len() as f64 / t))
            .collect();
        let r = ratio(ns);
        println!(
            "| {} | {} | {:.1} % | {} | {r:.2} |",
            f.name,
            b.len() / 1000,
            f.non_ascii * 100.0,
            gbs.join(" | ")
        );
        out.push(r);
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
pub fn run(dir: &Path, rounds: usize, batch: Duration, plot_to: Option<&Path>) {
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
    let is_valid = whole_files(
        &files,
        peers::IS_VALID,
        &measure_batches(&files, peers::IS_VALID, o),
    );

    println!("\n### 2. Whole files, exact error positions\n");
    let exact = whole_files(
        &files,
        peers::EXACT,
        &measure_batches(&files, peers::EXACT, o),
    );

    println!(
        "\n### 1u. Whole files, yes or no, text not seen before (each round walks the corpus once)\n"
    );
    let u_is_valid = whole_files(
        &files,
        peers::IS_VALID,
        &measure_walk(&files, peers::IS_VALID, rounds),
    );

    println!("\n### 2u. Whole files, exact error positions, text not seen before\n");
    let u_exact = whole_files(
        &files,
        peers::EXACT,
        &measure_walk(&files, peers::EXACT, rounds),
    );

    // The yes-or-no ratios of the files with and without non-ASCII text.
    let split = |ratios: &[f64], ascii: bool| -> Vec<f64> {
        files
            .iter()
            .zip(ratios)
            .filter(|(f, _)| (f.non_ascii < ASCII_BELOW) == ascii)
            .map(|(_, &r)| r)
            .collect()
    };
    let (non_ascii, ascii) = (split(&is_valid, false), split(&is_valid, true));
    let (u_non_ascii, u_ascii) = (split(&u_is_valid, false), split(&u_is_valid, true));

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

    // `Validator` has no forced backend: both sides run vutf8's own choice, so that a run
    // with `--backend` still compares like with like.
    println!(
        "\n### 4. `Validator` in 64 KiB chunks against one-shot `is_valid` (both on vutf8's own choice: {})\n",
        vutf8::Backend::selected().name()
    );
    println!("| file | one-shot GB/s | 64 KiB chunks GB/s | chunks ÷ one-shot |");
    println!("|---|---:|---:|---:|");
    let stream: [Contender; 2] = [
        ("vutf8 Validator 64 KiB", |b| {
            let mut v = vutf8::Validator::new();
            b.chunks(64 << 10).all(|c| v.update(c).is_ok()) && v.finish().is_ok()
        }),
        ("vutf8 is_valid", vutf8::is_valid),
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
        (
            "unseen: non-ASCII files (>= 1 % non-ASCII bytes), is_valid",
            &u_non_ascii,
        ),
        (
            "unseen: ASCII files (< 1 % non-ASCII bytes), is_valid",
            &u_ascii,
        ),
        ("unseen: from_utf8 (exact errors), every file", &u_exact),
        ("Validator 64 KiB chunks ÷ one-shot", &stream_ratios),
    ] {
        if !xs.is_empty() {
            println!(
                "| {what} | {} | {:.2} | {:.2} |",
                xs.len(),
                super::geomean(xs.iter().copied()),
                min(xs)
            );
        }
    }
    if let Some(path) = plot_to {
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        let panels = [
            ("is_valid ÷ fastest yes-or-no peer", &is_valid, &u_is_valid),
            ("from_utf8 ÷ fastest exact-error peer", &exact, &u_exact),
        ];
        match plot(path, &names, &panels) {
            Ok(()) => println!("\nplot written to {}", path.display()),
            Err(e) => eprintln!("compare --real: could not write the plot: {e}"),
        }
    }
}

/// One panel per pair of ratio lists (the same file order as `names`): vutf8 ÷ the fastest
/// peer for every file, text seen again and again (blue) and text not seen before (red),
/// with the line at 1.0 (vutf8 as fast as the fastest peer).
fn plot(
    path: &Path,
    names: &[&str],
    panels: &[(&str, &Vec<f64>, &Vec<f64>)],
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let n = names.len();
    let root = SVGBackend::new(path, (1200, 120 + 16 * n as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let (title, body) = root.split_vertically(40);
    title.titled(
        &format!(
            "vutf8 ÷ the fastest peer on each file of the real-text corpus, one run ({}, vutf8 {})",
            peers::cpu_model(),
            peers::vutf8_backend().name()
        ),
        ("sans-serif", 16),
    )?;
    let columns = body.split_evenly((1, panels.len()));
    for (area, &(caption, seen, unseen)) in columns.iter().zip(panels) {
        let top = seen
            .iter()
            .chain(unseen.iter())
            .copied()
            .fold(1.5f64, f64::max);
        let mut chart = ChartBuilder::on(area)
            .caption(caption, ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(250)
            .build_cartesian_2d(0f64..top * 1.05, (0..n).into_segmented())?;
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&|y| match y {
                SegmentValue::CenterOf(i) if *i < n => names[n - 1 - *i].to_string(),
                _ => String::new(),
            })
            .x_desc("vutf8 ÷ fastest peer (> 1: vutf8 faster)")
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(1.0, SegmentValue::Exact(0)), (1.0, SegmentValue::Exact(n))],
            BLACK.stroke_width(1),
        )))?;
        for (ratios, color, label) in [
            (seen, BLUE, "text seen before"),
            (unseen, RED, "text not seen before"),
        ] {
            chart
                .draw_series(ratios.iter().enumerate().map(|(i, &r)| {
                    Circle::new((r, SegmentValue::CenterOf(n - 1 - i)), 4, color.filled())
                }))?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 7, y), 4, color.filled()));
        }
        super::draw_legend(&mut chart)?;
    }
    root.present()?;
    Ok(())
}
