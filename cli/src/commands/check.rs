//! The default command, `vutf8 [OPTIONS] [PATH]...`: checks every input, writes the
//! findings, returns the exit status.
//!
//! The steps, each a function below: [`Plan::new`] turns the options ([`CheckArgs`]) into
//! what to scan and how to write it; [`inputs`] lists the inputs
//! ([`crate::inputs::walk`]); [`progress_bar`] decides whether a bar is shown; then,
//! batch after batch of [`BATCH`] inputs, [`first_pass`] checks the regular files in
//! parallel up to their first error, and [`Run::report`] goes through the batch in order:
//! it writes each first finding, reads each stream in its turn, scans an invalid file
//! again with `--all` (writing every error as it is found, so no list of errors is ever
//! held in memory), and counts. [`Run::end`] writes the summary.
//!
//! Each step calls one layer: inputs (`crate::inputs`), reading and checking
//! (`crate::read`, `crate::scan`), writing (`crate::report`).

use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::commands::exit::{warn, INVALID, TROUBLE, VALID};
use crate::inputs::walk::{Item, Walk};
use crate::read::reading::{Outcome, Reading};
use crate::read::slicing::MIN_CHUNK;
use crate::report::color::{paint, ColorWhen, Palette};
use crate::report::finding::{Format, Reporter};
use crate::report::progress::Progress;
use crate::report::summary::{self, Totals};
use crate::scan::bom::BomPolicy;
use crate::scan::engine::{Engine, Settings};
use crate::scan::findings::{Failure, Finding};

/// Inputs checked in parallel before their findings are written.
const BATCH: usize = 256;

/// What the parallel pass learns about a regular file: its outcome and first finding.
type FirstPass = Result<(Outcome, Option<Finding>), Failure>;

/// Options of the default command, checking.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files or directories to check (directories recursively); `-` or nothing reads
    /// standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Report every error of each input, not just the first.
    #[arg(short, long, conflicts_with = "files_with_errors")]
    pub all: bool,

    /// Write nothing; only the exit status tells.
    #[arg(short, long, conflicts_with_all = ["files_with_errors", "json", "all"])]
    pub quiet: bool,

    /// Write only the names of invalid inputs.
    #[arg(short = 'l', long, conflicts_with = "json")]
    pub files_with_errors: bool,

    /// Write one JSON object per error: path, offset, line, column, kind, reason, bytes.
    #[arg(long)]
    pub json: bool,

    /// At the end, write to stderr the number of files, bytes, invalid and unreadable
    /// inputs, the time taken and the throughput.
    #[arg(short, long)]
    pub summary: bool,

    /// Follow symbolic links met inside directories (those named on the command line are
    /// always followed); a loop or a dangling link is then an input that cannot be read.
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// Inside directories, also check what `.gitignore` (in a git repository), `.ignore`,
    /// `.git/info/exclude` and the global git excludes would leave out.
    #[arg(long)]
    pub no_ignore: bool,

    /// Inside directories, also check hidden files and walk hidden directories (names
    /// starting with `.`, `.git` included).
    #[arg(long)]
    pub hidden: bool,

    /// Inside directories, check only files matching GLOB (gitignore syntax), or, with a
    /// leading `!`, leave out what matches; repeatable, the last matching glob wins.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Walk at most N levels below each directory named: 1 checks only the files directly
    /// in it, 2 those of its subdirectories too, and so on (0: nothing inside it).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,

    /// Also check files met inside directories whose first 8192 bytes hold a NUL byte
    /// (skipped by default as binary; files named on the command line are always checked).
    #[arg(long)]
    pub binary: bool,

    /// When to colour file names, positions and reasons: `auto` (on a terminal, unless
    /// NO_COLOR is set), `always`, `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    /// Bytes per parallel chunk of a mapped file, and per read of a stream (for tests).
    #[arg(long, hide = true, default_value_t = 1 << 20,
          value_parser = clap::value_parser!(u64).range(MIN_CHUNK as u64..))]
    pub chunk_size: u64,

    /// Regular files at least this large are memory-mapped (for tests).
    #[arg(long, hide = true, default_value_t = 1 << 20)]
    pub mmap_threshold: u64,
}

/// Runs the default command; returns the exit status.
pub fn run(args: &CheckArgs, engine: Engine, bom: BomPolicy, threads: usize) -> u8 {
    let start = Instant::now();
    let plan = Plan::new(args, engine, bom);
    let items = match inputs(args, threads) {
        Ok(items) => items,
        Err(message) => {
            warn(format_args!("{message}"));
            return TROUBLE;
        }
    };
    let progress = progress_bar(args, &items);
    // Whichever way this function returns, the bar leaves the screen.
    let _clear = ClearOnDrop(&progress);
    let mut run = Run {
        out: Reporter::new(
            BufWriter::new(io::stdout().lock()),
            plan.format,
            Palette::for_stream(args.color, &io::stdout()),
        ),
        flush_each: io::stdout().is_terminal(),
        messages: Palette::for_stream(args.color, &io::stderr()),
        totals: Totals::default(),
        plan: &plan,
        progress: &progress,
    };
    for batch in items.chunks(BATCH) {
        let checked = first_pass(batch, &plan, &progress);
        for (item, checked) in batch.iter().zip(checked) {
            if let Err(status) = run.report(item, checked) {
                return status;
            }
        }
        if let Err(status) = run.flush() {
            return status;
        }
    }
    progress.finish();
    run.end(args, start)
}

/// What the options ask for.
struct Plan {
    format: Format,
    /// Whether every error is reported.
    all: bool,
    /// How an input is scanned when its findings are written.
    full: Settings,
    /// How the parallel pass scans: up to the first error, with positions only when that
    /// is all that will be written.
    first: Settings,
    reading: Reading,
}

impl Plan {
    fn new(args: &CheckArgs, engine: Engine, bom: BomPolicy) -> Plan {
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
        let first = Settings {
            all: false,
            track: full.track && !all,
            ..full
        };
        Plan {
            format,
            all,
            full,
            first,
            reading: Reading {
                mmap_threshold: args.mmap_threshold,
                skip_binary: !args.binary,
            },
        }
    }
}

/// The inputs, in order, or why the options cannot be used (a bad glob).
fn inputs(args: &CheckArgs, threads: usize) -> Result<Vec<Item>, String> {
    Walk {
        follow: args.follow,
        no_ignore: args.no_ignore,
        hidden: args.hidden,
        globs: args.globs.clone(),
        max_depth: args.max_depth,
        threads,
    }
    .inputs(&args.paths)
}

/// A progress bar when stderr is a terminal, `-q` is not given and the work is large
/// ([`crate::report::progress`]).
fn progress_bar(args: &CheckArgs, items: &[Item]) -> Progress {
    if args.quiet || !io::stderr().is_terminal() {
        return Progress::none();
    }
    let streams = items
        .iter()
        .any(|item| matches!(item, Item::Stdin | Item::Stream(_)));
    let total = (!streams).then(|| {
        items
            .iter()
            .filter_map(|item| match item {
                Item::File { path, .. } => std::fs::metadata(path).ok().map(|m| m.len()),
                _ => None,
            })
            .sum()
    });
    Progress::new(total, true)
}

/// The regular files of `batch`, checked in parallel up to their first error (`None` for
/// the other inputs, which are read in their turn).
fn first_pass(batch: &[Item], plan: &Plan, progress: &Progress) -> Vec<Option<FirstPass>> {
    batch
        .par_iter()
        .map(|item| {
            let Item::File { .. } = item else { return None };
            let mut first = None;
            let result = plan.reading.check(item, &plan.first, progress, &mut |f| {
                first = Some(*f);
                Ok(())
            });
            Some(result.map(|outcome| (outcome, first)))
        })
        .collect()
}

/// The writing half of a run: findings, messages and totals, in input order.
struct Run<'a> {
    out: Reporter<BufWriter<StdoutLock<'static>>>,
    /// Flush after each finding (stdout is a terminal).
    flush_each: bool,
    /// The colours of stderr.
    messages: Palette,
    totals: Totals,
    plan: &'a Plan,
    progress: &'a Progress,
}

impl Run<'_> {
    /// Writes what is known about `item` (scanning it first if the parallel pass did not),
    /// and counts it. `Err` carries the exit status when the run must end (stdout failed).
    fn report(&mut self, item: &Item, checked: Option<FirstPass>) -> Result<(), u8> {
        let name = item.display_name();
        let (plan, progress) = (self.plan, self.progress);
        let (out, flush_each) = (&mut self.out, self.flush_each);
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
            // A stream (or stdin), in its turn.
            (_, None) => plan.reading.check(item, &plan.full, progress, &mut write),
            (_, Some(Ok((Outcome::Checked(scanned), _)))) if !scanned.valid && plan.all => {
                // Invalid, with --all: scan again, writing every error as it is found.
                plan.reading
                    .check(item, &plan.full, &Progress::none(), &mut write)
                    .map(|_| Outcome::Checked(scanned))
            }
            (_, Some(Ok((outcome, found)))) => found
                .iter()
                .try_for_each(&mut write)
                .map(|()| outcome)
                .map_err(Failure::Write),
            (_, Some(Err(e))) => Err(e),
        };
        match result {
            Ok(Outcome::Checked(scanned)) => {
                self.totals.files += 1;
                self.totals.bytes += scanned.bytes;
                self.totals.chars += scanned.chars;
                self.totals.invalid += u64::from(!scanned.valid);
                Ok(())
            }
            Ok(Outcome::Binary) => {
                self.totals.binary += 1;
                Ok(())
            }
            Err(Failure::Read(e)) => {
                self.totals.unreadable += 1;
                self.flush()?;
                let name = paint(self.messages.path, &name);
                progress.suspend(|| warn(format_args!("{name}: {e}")));
                Ok(())
            }
            Err(Failure::Write(e)) => {
                self.totals.invalid += 1; // a finding was being written
                Err(self.status().max(write_failed(e)))
            }
        }
    }

    /// Flushes the findings written so far.
    fn flush(&mut self) -> Result<(), u8> {
        let result = self.progress.suspend(|| self.out.flush());
        result.map_err(|e| self.status().max(write_failed(e)))
    }

    /// The exit status so far.
    fn status(&self) -> u8 {
        if self.totals.unreadable > 0 {
            TROUBLE
        } else if self.totals.invalid > 0 {
            INVALID
        } else {
            VALID
        }
    }

    /// Writes the summary if asked for; returns the exit status.
    fn end(self, args: &CheckArgs, start: Instant) -> u8 {
        if args.summary {
            if self.plan.format == Format::Json {
                let line = summary::summary_json(&self.totals, start.elapsed());
                let _ = writeln!(io::stderr().lock(), "{line}");
            } else {
                let line = summary::summary(&self.totals, start.elapsed(), &self.messages);
                warn(format_args!("{line}"));
            }
        }
        self.status()
    }
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
