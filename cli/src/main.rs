//! `vutf8`: checks that files are valid UTF-8, fast, strictly (RFC 3629) and with exact
//! error positions. See `docs/CLI.md` for usage and output.
//!
//! How a run goes: the paths become a list of inputs ([`walk`]); they are checked in
//! batches, each batch on all cores (a large file is itself split over all cores,
//! [`scan`]), stopping at each input's first error; then, in input order, the findings are
//! written ([`report`]). With `--all`, an input found invalid is scanned once more, in order,
//! writing every error as it is found, so no error list is ever held in memory. Standard
//! input, FIFOs and devices are read as streams, in their turn, in constant memory.
//!
//! Subcommands: `vutf8 repair` ([`repair`]), `vutf8 info` ([`info`]), `vutf8 bench`
//! ([`bench`]).
//!
//! Exit status: 0 all valid, 1 some input invalid, 2 an input could not be read or the
//! command line is wrong (2 wins over 1). A closed stdout (`vutf8 -l . | head -1`) ends the
//! run quietly.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod args;
mod bench;
mod check;
mod info;
mod position;
mod progress;
mod repair;
mod report;
mod scan;
mod walk;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use rayon::prelude::*;
use vutf8::Backend;

use crate::args::{Bom, CheckArgs, Cli, Command};
use crate::check::Reading;
use crate::progress::Progress;
use crate::report::{Format, Reporter, Totals};
use crate::scan::{Engine, Failure, Finding, Scanned, Settings};
use crate::walk::Item;

/// Exit status: every input valid.
const VALID: u8 = 0;
/// Exit status: some input is not valid UTF-8.
const INVALID: u8 = 1;
/// Exit status: an input could not be read, or the command line is wrong.
const TROUBLE: u8 = 2;

/// What the parallel pass learns about a regular file: its verdict and first finding.
type FirstPass = Result<(Scanned, Option<Finding>), Failure>;

/// Inputs checked in parallel before their findings are written.
const BATCH: usize = 256;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { TROUBLE } else { VALID });
        }
    };
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
        {
            warn(format_args!("cannot start {threads} threads: {e}"));
            return ExitCode::from(TROUBLE);
        }
    }
    let engine = match engine(cli.backend.as_deref()) {
        Ok(engine) => engine,
        Err(message) => {
            warn(format_args!("{message}"));
            return ExitCode::from(TROUBLE);
        }
    };
    let status = match &cli.command {
        None => check(&cli.check, engine, cli.bom),
        Some(Command::Info) => output_status(info::run(engine)),
        Some(Command::Bench(args)) => bench::run(args, engine),
        Some(Command::Repair(args)) => repair::run(args, engine, cli.bom),
    };
    ExitCode::from(status)
}

/// The validator `--backend` asks for, if this CPU can run it.
fn engine(name: Option<&str>) -> Result<Engine, String> {
    let Some(name) = name else {
        return Ok(Engine::Auto);
    };
    let names = |list: &mut dyn Iterator<Item = Backend>| {
        list.map(Backend::name).collect::<Vec<_>>().join(", ")
    };
    match Backend::from_name(name) {
        None => Err(format!(
            "unknown backend '{name}' (known: {})",
            names(&mut Backend::ALL.into_iter())
        )),
        Some(backend) if !backend.is_available() => Err(format!(
            "this CPU cannot run the {} backend (it can run: {})",
            backend.name(),
            names(&mut Backend::available())
        )),
        Some(backend) => Ok(Engine::Forced(backend)),
    }
}

/// Writes `vutf8: MESSAGE` to stderr, ignoring a closed stderr.
fn warn(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "vutf8: {message}");
}

/// The exit status after writing some output failed, or not.
fn output_status(result: io::Result<()>) -> u8 {
    match result {
        Ok(()) => VALID,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => VALID,
        Err(e) => {
            warn(format_args!("cannot write the output: {e}"));
            TROUBLE
        }
    }
}

/// The name an input has in the output.
fn display_name(item: &Item) -> String {
    match item {
        Item::Stdin => "<stdin>".into(),
        Item::File(path) | Item::Stream(path) | Item::Unreadable(path, _) => {
            path.display().to_string()
        }
    }
}

/// The default command: checks every input, writes the findings, returns the exit status.
fn check(args: &CheckArgs, engine: Engine, bom: Bom) -> u8 {
    let start = Instant::now();
    let format = if args.quiet {
        Format::Quiet
    } else if args.files_with_errors {
        Format::Names
    } else if args.json {
        Format::Json
    } else {
        Format::Text
    };
    let all = args.all && format.needs_position();
    let full = Settings {
        engine,
        all,
        track: format.needs_position(),
        chunk: usize::try_from(args.chunk_size).unwrap_or(usize::MAX),
        count: args.summary,
        bom,
    };
    // The parallel pass stops at the first error. With --all, the inputs it finds invalid
    // are scanned again, in order, and only then are positions counted.
    let first_pass = Settings {
        all: false,
        track: full.track && !all,
        ..full
    };
    let reading = Reading {
        mmap_threshold: args.mmap_threshold,
    };

    let items = walk::inputs(&args.paths, args.follow);
    let progress = if !args.quiet && io::stderr().is_terminal() {
        let streams = items
            .iter()
            .any(|item| matches!(item, Item::Stdin | Item::Stream(_)));
        let total = (!streams).then(|| {
            items
                .iter()
                .filter_map(|item| match item {
                    Item::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
                    _ => None,
                })
                .sum()
        });
        Progress::new(total, true)
    } else {
        Progress::none()
    };
    // Whichever way this function returns, the bar leaves the screen.
    let _clear = ClearOnDrop(&progress);

    let mut out = Reporter::new(BufWriter::new(io::stdout().lock()), format);
    let flush_each = io::stdout().is_terminal();
    let mut totals = Totals::default();
    let status = |totals: &Totals| {
        if totals.unreadable > 0 {
            TROUBLE
        } else if totals.invalid > 0 {
            INVALID
        } else {
            VALID
        }
    };

    for batch in items.chunks(BATCH) {
        // Regular files, in parallel: the verdict, and the first finding.
        let checked: Vec<Option<FirstPass>> = batch
            .par_iter()
            .map(|item| {
                let Item::File(_) = item else { return None };
                let mut first = None;
                let result = reading.check(item, &first_pass, &progress, &mut |f| {
                    first = Some(*f);
                    Ok(())
                });
                Some(result.map(|scanned| (scanned, first)))
            })
            .collect();

        // Then, in order: findings, streams, messages.
        for (item, checked) in batch.iter().zip(checked) {
            let name = display_name(item);
            let mut write = |f: &Finding| {
                out.finding(&name, f)?;
                if flush_each {
                    progress.suspend(|| out.flush())?;
                }
                Ok(())
            };
            let result = match (item, checked) {
                (Item::Unreadable(_, e), _) => {
                    Err(Failure::Read(io::Error::new(e.kind(), e.to_string())))
                }
                (_, None) => reading.check(item, &full, &progress, &mut write),
                (_, Some(Ok((scanned, found)))) if scanned.valid || !all => found
                    .iter()
                    .try_for_each(&mut write)
                    .map(|()| scanned)
                    .map_err(Failure::Write),
                // Invalid, with --all: scan again, writing every error as it is found.
                (_, Some(Ok((scanned, _)))) => reading
                    .check(item, &full, &Progress::none(), &mut write)
                    .map(|_| scanned),
                (_, Some(Err(e))) => Err(e),
            };
            match result {
                Ok(scanned) => {
                    totals.files += 1;
                    totals.bytes += scanned.bytes;
                    totals.chars += scanned.chars;
                    totals.invalid += u64::from(!scanned.valid);
                }
                Err(Failure::Read(e)) => {
                    totals.unreadable += 1;
                    if let Err(e) = progress.suspend(|| out.flush()) {
                        return status(&totals).max(write_failed(e));
                    }
                    progress.suspend(|| warn(format_args!("{name}: {e}")));
                }
                Err(Failure::Write(e)) => {
                    totals.invalid += 1; // a finding was being written
                    return status(&totals).max(write_failed(e));
                }
            }
        }
        if let Err(e) = progress.suspend(|| out.flush()) {
            return status(&totals).max(write_failed(e));
        }
    }
    progress.finish();
    if args.summary {
        warn(format_args!(
            "{}",
            report::summary(&totals, start.elapsed())
        ));
    }
    status(&totals)
}

/// Clears the progress bar when dropped.
struct ClearOnDrop<'a>(&'a Progress);

impl Drop for ClearOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Handles a failed write of the findings: quietly for a closed pipe (the reader has seen
/// enough), with a message otherwise. Returns the least exit status this implies.
fn write_failed(e: io::Error) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        INVALID
    } else {
        warn(format_args!("cannot write the output: {e}"));
        TROUBLE
    }
}
