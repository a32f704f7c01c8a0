//! The one-command comparison: `cargo bench -p vutf8-bench --bench compare`.
//!
//! For every corpus and size, times vutf8 (`is_valid` and `from_utf8`), the `simdutf8`
//! crate (`basic` and `compat`) and `core::str::from_utf8` side by side: each round times
//! every contender once, in turn, and the table reports the median of the rounds, so a
//! noisy neighbour slows all of them alike. Inputs start 8 bytes past a 64-byte boundary;
//! every call's result is checked. Prints a Markdown table (GB/s, and the ratio of vutf8
//! to simdutf8) and writes a plot of throughput against input size to
//! `docs/compare.svg`.
//!
//! With `--real [DIR]` it runs the real-text report instead (`support/real.rs`): the
//! corpus of `scripts/real-corpus.sh`, whole files and cut into pieces of 64 B to 4 KiB,
//! against simdutf8, simdutf (C++) and std, on text seen again and again (batches) and on
//! text not seen before (walks of the corpus), with a plot of the per-file ratios to
//! `docs/compare-real.svg`. Every report starts with the CPU model and features and the
//! backend each validator runs.
//!
//! Options (after `--`): `--rounds N` (default 11), `--quick` (5 rounds, shorter batches),
//! `--corpus NAME` (only that corpus), `--min-size N` / `--max-size N` (only sizes from /
//! up to N; the plot and the error table need the full range), `--no-plot`, `--real [DIR]`
//! (default `target/real-corpus`), `--backend NAME` (run vutf8 on that backend, e.g.
//! `avx2`, instead of the one it selects).

mod support;

use plotters::prelude::*;
use std::hint::black_box;
use std::time::Duration;
use support::{median, size_label, Placed, SIZES};
use vutf8_corpus::{generate, with_error, Corruption, Script};

type Contender = (&'static str, fn(&[u8]) -> bool);

/// For one corpus: each size with the GB/s of every contender.
type Curve = (Script, Vec<(usize, Vec<f64>)>);

const CONTENDERS: &[Contender] = &[
    ("vutf8", support::peers::vutf8_is_valid),
    ("vutf8 from_utf8", support::peers::vutf8_from_utf8_ok),
    ("simdutf8 basic", |b| simdutf8::basic::from_utf8(b).is_ok()),
    ("simdutf8 compat", |b| {
        simdutf8::compat::from_utf8(b).is_ok()
    }),
    ("std", |b| core::str::from_utf8(b).is_ok()),
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    ("simdutf", simdutf::validate_utf8),
];

struct Options {
    rounds: usize,
    batch: Duration,
    corpus: Option<String>,
    min_size: usize,
    max_size: usize,
    plot: bool,
    real: Option<std::path::PathBuf>,
}

fn options() -> Options {
    let mut o = Options {
        rounds: 11,
        batch: Duration::from_millis(2),
        corpus: None,
        min_size: 0,
        max_size: usize::MAX,
        plot: true,
        real: None,
    };
    let mut args = std::env::args().skip(1).peekable();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                o.rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--quick" => {
                o.rounds = 5;
                o.batch = Duration::from_micros(500);
            }
            "--corpus" => o.corpus = args.next(),
            "--no-plot" => o.plot = false,
            "--min-size" => {
                o.min_size = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--min-size N")
            }
            "--max-size" => {
                o.max_size = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--max-size N")
            }
            "--real" => {
                // The folder is optional: the next argument, unless it is an option.
                let dir = match args.next_if(|d| !d.starts_with("--")) {
                    Some(d) => d,
                    None => "target/real-corpus".to_string(),
                };
                o.real = Some(std::path::Path::new(support::WORKSPACE).join(dir));
            }
            "--backend" => {
                let name = args.next().expect("--backend NAME");
                let backend = vutf8::Backend::from_name(&name)
                    .unwrap_or_else(|| panic!("--backend: no backend {name:?}"));
                assert!(
                    backend.is_available(),
                    "--backend: {name} does not run on this CPU"
                );
                support::peers::force_backend(backend);
            }
            "--bench" => {}
            other => eprintln!("compare: ignoring argument {other:?}"),
        }
    }
    o
}

/// Median nanoseconds per call for each contender on `input`, measured in interleaved
/// rounds (in [`support::balanced_order`]). Every call's result must equal `expect`.
fn measure(input: &[u8], expect: bool, o: &Options) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(o.rounds); CONTENDERS.len()];
    for round in 0..o.rounds {
        for i in support::balanced_order(CONTENDERS.len(), round) {
            let (name, f) = CONTENDERS[i];
            let ns = support::ns_per_call(o.batch, || {
                let ok = f(black_box(input));
                assert_eq!(ok, expect, "{name} gave the wrong answer");
                ok
            });
            samples[i].push(ns);
        }
    }
    samples.iter_mut().map(|s| median(s)).collect()
}

fn main() {
    let o = options();
    support::peers::hold_simdutf_to_vutf8();
    if let Some(dir) = &o.real {
        let plot = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/compare-real.svg");
        let plot = o.plot.then(|| std::path::Path::new(plot));
        support::real::run(dir, o.rounds, o.batch, plot);
        return;
    }
    let scripts: Vec<Script> = Script::ALL
        .into_iter()
        .filter(|s| o.corpus.as_deref().is_none_or(|c| c == s.name()))
        .collect();
    print!(
        "{}",
        support::peers::header(&format!(
            "vutf8 compare (generated text): {} rounds, medians",
            o.rounds
        ))
    );
    // GB/s of every contender, then these ratios (simdutf's only where it is a peer).
    let ratios: Vec<(usize, usize)> = [(0, 2), (1, 3), (0, 4), (0, 5)]
        .into_iter()
        .filter(|&(_, b)| b < CONTENDERS.len())
        .collect();
    let mut head = vec!["corpus".to_string(), "size".to_string()];
    head.extend(CONTENDERS.iter().map(|(n, _)| format!("{n} GB/s")));
    head.extend(
        ratios
            .iter()
            .map(|&(a, b)| format!("{}/{}", CONTENDERS[a].0, CONTENDERS[b].0)),
    );
    println!("| {} |", head.join(" | "));
    println!("|---|{}", "---:|".repeat(head.len() - 1));
    let mut curves: Vec<Curve> = Vec::new();
    for &script in &scripts {
        let text = generate(script, 1 << 20, 42);
        let mut points = Vec::new();
        for &size in SIZES
            .iter()
            .filter(|&&s| (o.min_size..=o.max_size).contains(&s))
        {
            let bytes = support::sized(&text, size);
            let placed = Placed::new(&bytes);
            let ns = measure(placed.bytes(), true, &o);
            let gbs: Vec<f64> = ns.iter().map(|t| size as f64 / t).collect();
            let mut row = vec![script.name().to_string(), size_label(size)];
            row.extend(gbs.iter().map(|g| format!("{g:.2}")));
            row.extend(
                ratios
                    .iter()
                    .map(|&(a, b)| format!("{:.2}", gbs[a] / gbs[b])),
            );
            println!("| {} |", row.join(" | "));
            points.push((size, gbs));
        }
        curves.push((script, points));
    }

    if o.max_size < 1 << 20 || o.min_size > 0 {
        return;
    }
    // Errors: how long until the first error is reported, in a 1 MiB input.
    println!(
        "\n| error in 1 MiB of mixed text | vutf8 from_utf8 ns | simdutf8 compat ns | std ns |"
    );
    println!("|---|---:|---:|---:|");
    let text = generate(Script::Mixed, 1 << 20, 42);
    for (label, at) in [
        ("at byte 10", 10),
        ("in the middle", 1 << 19),
        ("near the end", (1 << 20) - 100),
    ] {
        let (bad, _) = with_error(&text, at, Corruption::Overlong);
        let placed = Placed::new(&bad);
        let ns = measure(placed.bytes(), false, &o);
        println!("| {label} | {:.0} | {:.0} | {:.0} |", ns[1], ns[3], ns[4]);
    }

    if o.plot && scripts.len() == Script::ALL.len() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/compare.svg");
        match plot(path, &curves) {
            Ok(()) => println!("\nplot written to docs/compare.svg"),
            Err(e) => eprintln!("compare: could not write the plot: {e}"),
        }
    }
}

/// One small chart per corpus: GB/s against input size (log scale) for vutf8, simdutf8
/// basic and std.
fn plot(path: &str, curves: &[Curve]) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (1200, 760)).into_drawing_area();
    root.fill(&WHITE)?;
    let (title, body) = root.split_vertically(40);
    title.titled(
        "UTF-8 validation throughput (GB/s) against input size, one run on this machine",
        ("sans-serif", 20),
    )?;
    let panels = body.split_evenly((2, 3));
    let shown = [
        (0usize, "vutf8", BLUE),
        (2, "simdutf8 basic", RED),
        (4, "std", BLACK),
    ];
    for (panel, (script, points)) in panels.iter().zip(curves) {
        let top = points
            .iter()
            .flat_map(|(_, g)| shown.iter().map(|&(i, _, _)| g[i]))
            .fold(1.0f64, f64::max);
        let mut chart = ChartBuilder::on(panel)
            .caption(script.name(), ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d((1f64..(2 << 20) as f64).log_scale(), 0f64..top * 1.1)?;
        chart
            .configure_mesh()
            .x_desc("bytes")
            .y_desc("GB/s")
            .x_label_formatter(&|x| size_label(*x as usize))
            .draw()?;
        for &(i, name, color) in &shown {
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|(s, g)| (*s as f64, g[i])),
                    color.stroke_width(2),
                ))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], color));
        }
        support::draw_legend(&mut chart)?;
    }
    root.present()?;
    Ok(())
}
