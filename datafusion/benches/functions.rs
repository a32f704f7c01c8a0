//! The vutf8 functions against DataFusion's own Spark-compatible ones and Arrow's cast, side
//! by side in one run, on 10 million rows of real text (about 1 GB) in DataFusion's batches
//! of 8192 rows, single thread. Prints a table: medians of `--runs` runs (default 5), the two
//! sides of each line alternating.
//!
//! ```text
//! scripts/real-corpus.sh                       # the real-text corpus, once
//! cargo bench -p vutf8-datafusion --bench functions [-- --rows N --runs K --corpus DIR]
//! ```
//!
//! Rows are runs of consecutive lines of the corpus (man pages, HTML, JSON, prose in 15
//! scripts; its `damaged/` files left out), cut at a line end once they reach 64 bytes,
//! taken in order and repeated until there are enough. Two data sets: as they are (all
//! valid), and with one row in 100 damaged (a byte replaced by `FF`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow::array::{Array, ArrayRef, BinaryArray};
use arrow::datatypes::{DataType, Field};
use datafusion::config::ConfigOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDF};

const BATCH: usize = 8192;

struct Options {
    rows: usize,
    runs: usize,
    corpus: PathBuf,
}

fn options() -> Options {
    let mut o = Options {
        rows: 10_000_000,
        runs: 5,
        corpus: Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/real-corpus"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rows" => o.rows = args.next().and_then(|v| v.parse().ok()).expect("--rows N"),
            "--runs" => o.runs = args.next().and_then(|v| v.parse().ok()).expect("--runs K"),
            "--corpus" => o.corpus = args.next().expect("--corpus DIR").into(),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// Every file under `dir` but `damaged/`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/real-corpus.sh first", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "damaged") {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// Rows of real text: runs of lines of at least 64 bytes.
fn real_rows(corpus: &Path) -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    files(corpus, &mut paths);
    let mut rows = Vec::new();
    for path in paths {
        let text = std::fs::read(&path).unwrap();
        let mut row: Vec<u8> = Vec::new();
        for line in text.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if !row.is_empty() {
                row.push(b' ');
            }
            row.extend_from_slice(line);
            if row.len() >= 64 {
                rows.push(std::mem::take(&mut row));
            }
        }
    }
    assert!(rows.iter().all(|r| std::str::from_utf8(r).is_ok()));
    rows
}

/// `n` rows cut into batches; every `damage_every`-th row (if not 0) with a byte made `FF`.
fn batches(rows: &[Vec<u8>], n: usize, damage_every: usize) -> (Vec<ArrayRef>, usize) {
    let mut out = Vec::new();
    let mut bytes = 0;
    let mut i = 0;
    while i < n {
        let len = BATCH.min(n - i);
        let values: Vec<Vec<u8>> = (i..i + len)
            .map(|k| {
                let mut v = rows[k % rows.len()].clone();
                if damage_every > 0 && k % damage_every == damage_every / 2 {
                    let at = v.len() / 2;
                    v[at] = 0xFF;
                }
                v
            })
            .collect();
        bytes += values.iter().map(Vec::len).sum::<usize>();
        out.push(Arc::new(BinaryArray::from_iter_values(values)) as ArrayRef);
        i += len;
    }
    (out, bytes)
}

/// Calls `udf` on every batch, as DataFusion's executor does.
fn run_udf(udf: &ScalarUDF, batches: &[ArrayRef]) -> usize {
    let config = Arc::new(ConfigOptions::default());
    let arg_field = Arc::new(Field::new("x", DataType::Binary, true));
    let return_field = udf
        .return_field_from_args(datafusion::logical_expr::ReturnFieldArgs {
            arg_fields: std::slice::from_ref(&arg_field),
            scalar_arguments: &[None],
        })
        .unwrap();
    let mut out = 0;
    for batch in batches {
        let result = udf
            .invoke_with_args(ScalarFunctionArgs {
                args: vec![ColumnarValue::Array(batch.clone())],
                arg_fields: vec![arg_field.clone()],
                number_rows: batch.len(),
                return_field: return_field.clone(),
                config_options: config.clone(),
            })
            .unwrap();
        let ColumnarValue::Array(result) = result else {
            panic!("an array in, an array out")
        };
        out += result.len() - result.null_count();
    }
    out
}

/// The median times of `runs` runs of `ours` and of `peer`, and what each returned (the
/// same every run). The two alternate, and which goes first alternates too, so that both
/// see the same machine: this one is shared, and its load changes by the minute.
fn paired(
    runs: usize,
    mut ours: impl FnMut() -> usize,
    mut peer: impl FnMut() -> usize,
) -> ((Duration, usize), (Duration, usize)) {
    let mut times = [Vec::new(), Vec::new()];
    let mut answers = [None, None];
    let mut time = |side: usize, f: &mut dyn FnMut() -> usize| {
        let start = Instant::now();
        let a = std::hint::black_box(f());
        times[side].push(start.elapsed());
        assert!(answers[side].is_none_or(|x| x == a));
        answers[side] = Some(a);
    };
    for run in 0..runs {
        if run % 2 == 0 {
            time(0, &mut ours);
            time(1, &mut peer);
        } else {
            time(1, &mut peer);
            time(0, &mut ours);
        }
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[runs / 2]
    };
    let [mut a, mut b] = times;
    (
        (median(&mut a), answers[0].unwrap()),
        (median(&mut b), answers[1].unwrap()),
    )
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn main() {
    let o = options();
    let rows = real_rows(&o.corpus);
    println!(
        "vutf8-datafusion functions: {} rows in batches of {BATCH}, median of {} runs, one thread",
        o.rows, o.runs
    );
    println!(
        "CPU: {}; vutf8 backend: {:?}; DataFusion and Arrow: std::str::from_utf8 (scalar with an ASCII fast path)",
        cpu_model(),
        vutf8::Backend::selected()
    );
    println!(
        "rows cut from {} real-text rows of {}",
        rows.len(),
        o.corpus.display()
    );
    let ours = |name: &str| {
        vutf8_datafusion::udfs()
            .into_iter()
            .find(|u| u.name() == name)
            .unwrap()
    };
    let spark_is_valid = ScalarUDF::new_from_impl(
        datafusion_spark::function::string::is_valid_utf8::SparkIsValidUtf8::new(),
    );
    let spark_make_valid = ScalarUDF::new_from_impl(
        datafusion_spark::function::string::make_valid_utf8::SparkMakeValidUtf8::new(),
    );
    println!();
    println!(
        "| data | what | vutf8 | DataFusion / Arrow | vutf8 GB/s | peer GB/s | vutf8 ÷ peer |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (label, damage_every) in [("all valid", 0), ("1 row in 100 damaged", 100)] {
        let (data, bytes) = batches(&rows, o.rows, damage_every);
        let gb = bytes as f64 / 1e9;
        let line = |what: &str, (ours, peer): ((Duration, usize), (Duration, usize))| {
            assert_eq!(ours.1, peer.1, "{what}: the same answer");
            let (a, b) = (ours.0.as_secs_f64(), peer.0.as_secs_f64());
            println!(
                "| {label} ({gb:.2} GB) | {what} | {:.1} ms | {:.1} ms | {:.2} | {:.2} | **{:.2}×** |",
                a * 1e3,
                b * 1e3,
                gb / a,
                gb / b,
                b / a
            );
        };
        let is_valid = ours("is_valid_utf8");
        line(
            "is_valid_utf8 vs datafusion-spark is_valid_utf8",
            paired(
                o.runs,
                || run_udf(&is_valid, &data),
                || run_udf(&spark_is_valid, &data),
            ),
        );
        let make_valid = ours("make_valid_utf8");
        line(
            "make_valid_utf8 vs datafusion-spark make_valid_utf8",
            paired(
                o.runs,
                || run_udf(&make_valid, &data),
                || run_udf(&spark_make_valid, &data),
            ),
        );
        // Validation into a string array against Arrow's cast, with the same answer (the
        // valid rows): on valid data the zero-copy validate_utf8; with damaged rows
        // try_validate_utf8, which makes them null as Arrow's safe cast does.
        let validate = |batches: &[ArrayRef]| {
            batches
                .iter()
                .map(|b| {
                    let s = if damage_every == 0 {
                        vutf8_datafusion::kernels::validate_utf8(b.as_ref()).unwrap()
                    } else {
                        vutf8_datafusion::kernels::try_validate_utf8(b.as_ref()).unwrap()
                    };
                    s.len() - s.null_count()
                })
                .sum()
        };
        let cast = |batches: &[ArrayRef]| {
            batches
                .iter()
                .map(|b| {
                    let s = arrow::compute::cast(b.as_ref(), &DataType::Utf8).unwrap();
                    s.len() - s.null_count()
                })
                .sum()
        };
        line(
            if damage_every == 0 {
                "binary → utf8: validate_utf8 kernel (zero-copy) vs arrow cast"
            } else {
                "binary → utf8: try_validate_utf8 kernel vs arrow cast"
            },
            paired(o.runs, || validate(&data), || cast(&data)),
        );
    }
}
