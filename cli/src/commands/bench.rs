//! `vutf8 bench [FILE]`: throughput of each validator this CPU can run, beside
//! `core::str::from_utf8`, on a file or on generated text in six scripts
//! ([`vutf8_corpus`]).
//!
//! Each measurement is one warm-up run and then `--runs` timed runs over the whole input;
//! the median run gives the GB/s shown (10^9 bytes per second). The input stays in memory
//! (a file is mapped and its pages loaded first), so this measures the validators, not the
//! disk. Every run's verdict is compared with the standard library's, and a disagreement
//! is reported (and makes the exit status 2): a benchmark that does not check its answer
//! measures nothing.

use std::hint::black_box;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use vutf8::Backend;
use vutf8_corpus::Script;

use crate::read::{reading, slicing};
use crate::scan::engine::Engine;

/// Options of `vutf8 bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A file to measure on (default: generated text in six scripts).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Bytes of generated text per script.
    #[arg(long, value_name = "BYTES", default_value_t = 4 << 20)]
    pub size: usize,

    /// Timed runs per measurement (the median is shown).
    #[arg(long, value_name = "N", default_value_t = 15,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
}

/// A verdict that every method must agree on: `None` for valid, else where and how long.
type Verdict = Option<(usize, Option<usize>)>;

fn std_verdict(input: &[u8]) -> Verdict {
    core::str::from_utf8(input)
        .err()
        .map(|e| (e.valid_up_to(), e.error_len()))
}

/// A validator under test.
type Validate = Box<dyn Fn(&[u8]) -> Verdict>;

/// One column of the table.
struct Method {
    name: String,
    run: Validate,
}

fn methods(engine: Engine) -> Vec<Method> {
    let mut list = vec![Method {
        name: "core::str".into(),
        run: Box::new(std_verdict),
    }];
    for backend in Backend::available() {
        list.push(Method {
            name: backend.name().into(),
            run: Box::new(move |input| {
                backend
                    .validate(input)
                    .err()
                    .map(|e| (e.valid_up_to(), e.error_len()))
            }),
        });
    }
    list.push(Method {
        name: format!("{} threads", rayon::current_num_threads()),
        run: Box::new(move |input| {
            slicing::first_error_parallel(input, engine, 1 << 20).map(|(at, e)| (at, e.error_len()))
        }),
    });
    list
}

/// The median time of `runs` runs (after one warm-up), or the verdict that disagreed.
fn measure(method: &Method, input: &[u8], want: Verdict, runs: u32) -> Result<Duration, Verdict> {
    let got = (method.run)(black_box(input));
    if got != want {
        return Err(got);
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let got = black_box((method.run)(black_box(input)));
            let time = start.elapsed();
            if got == want {
                Ok(time)
            } else {
                Err(got)
            }
        })
        .collect::<Result<_, _>>()?;
    times.sort();
    Ok(times[times.len() / 2])
}

/// Runs the benchmark; returns the exit status.
pub fn run(args: &BenchArgs, engine: Engine) -> u8 {
    match table(args, engine) {
        Ok(true) => 0,
        Ok(false) => 2,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(io::stderr(), "vutf8: {e}");
            2
        }
    }
}

/// Writes the table; `Ok(false)` if some method disagreed with the standard library.
fn table(args: &BenchArgs, engine: Engine) -> io::Result<bool> {
    let mapped;
    let inputs: Vec<(String, Vec<u8>)>;
    let rows: Vec<(String, &[u8])> = match &args.file {
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            mapped = reading::map(&file);
            let data: &[u8] = mapped.as_deref().unwrap_or(&[]);
            vec![(path.display().to_string(), data)]
        }
        None => {
            inputs = Script::ALL
                .iter()
                .map(|&s| {
                    (
                        s.name().to_string(),
                        vutf8_corpus::generate(s, args.size, 1),
                    )
                })
                .collect();
            inputs.iter().map(|(n, d)| (n.clone(), &d[..])).collect()
        }
    };
    let methods = methods(engine);
    let mut out = io::stdout().lock();
    let source = match &args.file {
        Some(_) => "file".to_string(),
        None => format!("generated text, {} bytes per script", args.size),
    };
    writeln!(
        out,
        "vutf8 bench: {source}, median of {} runs, GB/s",
        args.runs
    )?;
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(8);
    write!(out, "{:width$}", "input")?;
    for m in &methods {
        write!(out, " {:>11}", m.name)?;
    }
    writeln!(out)?;
    let mut agreed = true;
    for (name, input) in &rows {
        let want = std_verdict(input);
        write!(out, "{name:width$}")?;
        out.flush()?;
        for m in &methods {
            match measure(m, input, want, args.runs) {
                Ok(time) => {
                    let gbps = input.len() as f64 / time.as_secs_f64().max(1e-9) / 1e9;
                    write!(out, " {gbps:>11.2}")?;
                }
                Err(got) => {
                    agreed = false;
                    write!(out, " {:>11}", "WRONG")?;
                    let _ = writeln!(
                        io::stderr(),
                        "vutf8 bench: {} on {name} says {got:?}, core::str says {want:?}",
                        m.name
                    );
                }
            }
            out.flush()?;
        }
        writeln!(out)?;
    }
    Ok(agreed)
}
