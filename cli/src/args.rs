//! The command line, declared with clap.
//!
//! `vutf8 [OPTIONS] [PATH]...` checks; `vutf8 info`, `vutf8 bench` and `vutf8 repair` are
//! subcommands. A file that happens to be called `info` is checked as `./info`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::slicing::MIN_CHUNK;

const AFTER_HELP: &str = "\
Each error is reported as PATH:LINE:COLUMN: byte OFFSET: REASON (bytes: ..), with LINE and
COLUMN from 1 (a column counts characters, and an ill-formed part counts as one) and
OFFSET in bytes from 0. Standard input is reported as <stdin>.

Exit status: 0 if every input is valid UTF-8, 1 if some input is not, 2 if an input
could not be read or the command line is wrong (2 wins over 1).";

/// Checks that files are valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF), and says exactly where they are not.
#[derive(Debug, Parser)]
#[command(
    name = "vutf8",
    version,
    args_conflicts_with_subcommands = true,
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub check: CheckArgs,

    /// Use this validator instead of the best one for this CPU (scalar, sse4.2, avx2,
    /// avx512 [with the default feature avx512], neon, simd128) to find whether and where an
    /// input first goes wrong; an error if this CPU cannot run it.
    #[arg(long, value_name = "NAME", global = true)]
    pub backend: Option<String>,

    /// Threads, for checking and for walking directories (default: one per core).
    #[arg(short = 'j', long, value_name = "N", global = true)]
    pub threads: Option<usize>,

    /// What a UTF-8 signature (BOM, EF BB BF) at the start of an input is: `accept`ed as
    /// valid (never counted as a character or column), `strip`ped from `repair`'s output
    /// (otherwise like accept), or `report`ed as a finding that makes the input invalid.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Bom::Accept, global = true)]
    pub bom: Bom,
}

/// What to do with a leading UTF-8 signature `EF BB BF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Bom {
    /// Valid; not a character, not a column.
    Accept,
    /// Like accept when checking; removed from `repair`'s output.
    Strip,
    /// A finding: the input counts as invalid.
    Report,
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

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

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show this CPU's SIMD features, the validators it can run and the one chosen.
    Info,
    /// Measure each validator's throughput (GB/s) beside the standard library's.
    Bench(BenchArgs),
    /// Copy an input, replacing each ill-formed part with U+FFFD (exactly like
    /// `String::from_utf8_lossy`), in constant memory. Exit status 0 if nothing was
    /// replaced, 1 if something was, 2 on a read or write error.
    Repair(RepairArgs),
}

/// Options of `vutf8 repair`.
#[derive(Debug, Args)]
pub struct RepairArgs {
    /// The input (default, or `-`: standard input).
    #[arg(value_name = "IN")]
    pub input: Option<PathBuf>,

    /// Where to write the repaired text (default: standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// At the end, write to stderr the bytes read and written and the number of
    /// replacements.
    #[arg(short, long)]
    pub summary: bool,
}

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
