//! `vutf8 repair [IN] [-o OUT]`: copies an input with its invalid UTF-8 repaired, in
//! constant memory, as a filter that a pipeline can run unattended.
//!
//! Two ways to copy:
//!
//! - **The whole stream** (`replace`, the default, when no record option is given): each
//!   read is repaired as soon as it is decided ([`replace_stream`]), in one pass; the
//!   output is exactly `String::from_utf8_lossy` of the whole input.
//! - **By records** ([`repair_lines`]): every other policy, and `replace` with `--json`,
//!   `--delimiter` or `--max-line`. For lines within the cap, `replace` by records writes
//!   the same text as on the whole stream (a delimiter is ASCII, never part of an
//!   ill-formed part); its counters are about lines.
//!
//! Either way the input is read through [`crate::read::waiting::Waiting`], or, with
//! `--follow`, [`crate::read::follow::Follow`], and the output is flushed whenever the
//! input is about to wait, so `tail -F app.log | vutf8 repair | ...` delivers each line as
//! it comes. A failed read is named after the input, a failed write after the output; a
//! closed output (a reader such as `head` that went away) ends the copy quietly, with the
//! exit status of what was done and a summary that counts only the bytes the OS took.
//!
//! Exit status: 0 if the output is the input (but for a stripped signature), 1 if
//! something was replaced, repaired, left out or refused, 2 if the input could not be read
//! or the output written, an option is wrong, or OUT is IN (which would destroy the input
//! before it is read).

use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use vutf8::records::{Framing, Policy, DEFAULT_MAX_RECORD};
use vutf8::Repairer;

use crate::commands::exit::{warn, INVALID, TROUBLE, VALID};
use crate::commands::repair_lines::{self, signature_note, Lines, NAMED_TOO_LONG};
use crate::read::follow::{self, Follow};
use crate::read::waiting::{is_wait, Waiting};
use crate::report::repair::{self as report, Counts, Output, Traffic};
use crate::scan::bom::BomPolicy;
use crate::scan::findings::Failure;

/// Options of `vutf8 repair`.
#[derive(Debug, Args)]
pub struct RepairArgs {
    /// The input (default, or `-`: standard input).
    #[arg(value_name = "IN")]
    pub input: Option<PathBuf>,

    /// Where to write the repaired text (default: standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// At the end, write to stderr what was done: by records, the lines read and how many
    /// were valid, repaired, dropped, too long and refused, the invalid ones by the kind of
    /// their first error, and the bytes read and written; on the whole stream (replace),
    /// the bytes read and written and the U+FFFD written. With --json, as one JSON object.
    #[arg(short, long)]
    pub summary: bool,

    /// What to do with invalid text. Every policy but replace works line by line (replace
    /// too with --json, --delimiter or --max-line); docs/RECORDS.md says which to pick.
    #[arg(long, value_name = "POLICY", default_value = "replace", value_parser = policy_parser())]
    pub policy: Policy,

    /// The longest line kept, in bytes, its line end not counted (default 1 MiB; any value:
    /// 0 keeps only empty lines, 18446744073709551615 caps nothing). A longer line is left
    /// out unread, so memory stays bounded: the first 10 are named on stderr, the others
    /// counted.
    #[arg(long, value_name = "BYTES")]
    pub max_line: Option<usize>,

    /// Records end at this ASCII byte instead of a line end: a character, or an escape
    /// (\0, \t, \n, \r, \\, \xHH). With \n (the default) a \r before it is part of the
    /// line end; with any other, records are cut at that byte alone.
    #[arg(long, value_name = "BYTE", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,

    /// Write one JSON object per line: line (from 1), offset, len, valid, outcome (valid,
    /// repaired, dropped, too_long, refused), text (the policy's), end (the line end), and
    /// for an invalid line its first error (offset in the line, kind, reason, bytes) and
    /// its original bytes (raw_base64). docs/CLI.md has the details.
    #[arg(long)]
    pub json: bool,

    /// Follow IN as it grows, as `tail -F` does: from its start, then each line appended as
    /// it comes; a file renamed away and made anew, or truncated, is read from its start.
    /// Ends on SIGINT or SIGTERM, after writing what it has.
    #[arg(short, long)]
    pub follow: bool,

    /// With --follow: how long a last line without its line end waits for the rest before
    /// it is written as it is (the rest, if it comes, is then a line of its own); a number
    /// of seconds, or with a unit (500ms, 2s, 1m), or `never`.
    #[arg(long, value_name = "DURATION", default_value = "1s", value_parser = parse_timeout)]
    pub partial_timeout: Timeout,
}

/// The value of `--partial-timeout`: `None` waits for ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeout(pub Option<Duration>);

/// What each policy does, for `--help`.
fn policy_help(policy: Policy) -> &'static str {
    match policy {
        Policy::Replace => {
            "each ill-formed part becomes U+FFFD, exactly as String::from_utf8_lossy \
             (on the whole stream unless records are asked for)"
        }
        Policy::Escape => {
            "each byte of each ill-formed part becomes \\xNN, as Python's \
             decode('utf-8', 'backslashreplace'): nothing is lost"
        }
        Policy::Windows1252 => "an invalid line is decoded whole as windows-1252 (WHATWG)",
        Policy::Utf8OrWindows1252 => {
            "valid UTF-8 is kept and each ill-formed part is decoded as windows-1252: for \
             sources that mix UTF-8 with a legacy charset"
        }
        Policy::Drop => "an invalid line is left out",
        Policy::Strict => {
            "the copy stops before the first invalid line, which is reported on stderr as \
             the check mode reports an error"
        }
        _ => "",
    }
}

/// The parser of `--policy`: every policy of this build, each with its help.
fn policy_parser() -> impl TypedValueParser<Value = Policy> {
    let values = Policy::ALL
        .iter()
        .map(|&p| PossibleValue::new(p.name()).help(policy_help(p)));
    PossibleValuesParser::new(values).map(|name| Policy::from_name(&name).expect("listed"))
}

/// The value of `--delimiter`: one ASCII character, or an escape.
fn parse_delimiter(s: &str) -> Result<u8, String> {
    let byte = match s.as_bytes() {
        [b] => Some(*b),
        [b'\\', b'0'] => Some(0),
        [b'\\', b't'] => Some(b'\t'),
        [b'\\', b'n'] => Some(b'\n'),
        [b'\\', b'r'] => Some(b'\r'),
        [b'\\', b'\\'] => Some(b'\\'),
        [b'\\', b'x', hex @ ..] if hex.len() == 2 => std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u8::from_str_radix(h, 16).ok()),
        _ => {
            let mut chars = s.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return Err(not_ascii(&c.to_string()));
            }
            None
        }
    };
    match byte {
        Some(b) if b.is_ascii() => Ok(b),
        Some(_) => Err(not_ascii(s)),
        None => Err(format!(
            "`{s}`: expected one ASCII character or an escape: \\0, \\t, \\n, \\r, \\\\, \\xHH"
        )),
    }
}

/// The refusal of a delimiter that is not ASCII.
fn not_ascii(s: &str) -> String {
    format!(
        "`{s}` is not ASCII: a delimiter is one byte from 0x00 to 0x7F (bytes from 0x80 up \
         are parts of characters, and cutting at them would cut characters in two)"
    )
}

/// The value of `--partial-timeout`.
fn parse_timeout(s: &str) -> Result<Timeout, String> {
    if s == "never" {
        return Ok(Timeout(None));
    }
    let (number, unit) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else {
        (s, 1.0)
    };
    number
        .parse::<f64>()
        .ok()
        .and_then(|n| Duration::try_from_secs_f64(n * unit).ok())
        .map(|d| Timeout(Some(d)))
        .ok_or_else(|| {
            format!(
                "`{s}`: expected seconds (0.5), a duration with a unit (500ms, 2s, 1m), or never"
            )
        })
}

/// The framing of a copy by records: the delimiter and the cap (any cap is the one used).
fn framing(args: &RepairArgs) -> Framing {
    let framing = match args.delimiter {
        None | Some(b'\n') => Framing::lines(),
        Some(d) => Framing::split(d).expect("the parser keeps ASCII bytes only"),
    };
    let max = args.max_line.unwrap_or(DEFAULT_MAX_RECORD);
    framing.max_record(max)
}

/// A reader that counts the bytes read, where the caller can see them while the reader
/// is owned by another (the reader of records).
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// Runs `vutf8 repair`; returns the exit status.
pub fn run(args: &RepairArgs, bom: BomPolicy) -> u8 {
    let from_stdin = args.input.as_ref().is_none_or(|p| p.as_os_str() == "-");
    if args.follow && from_stdin {
        warn(format_args!(
            "--follow needs a FILE to follow (a pipe is read to its end anyway: \
             tail -F FILE | vutf8 repair)"
        ));
        return TROUBLE;
    }
    let name = match &args.input {
        Some(path) if !from_stdin => path.display().to_string(),
        _ => "<stdin>".to_string(),
    };
    let framing = framing(args);
    let delimiter = args.delimiter.unwrap_or(b'\n');
    let records = args.json
        || args.delimiter.is_some()
        || args.max_line.is_some()
        || args.policy != Policy::Replace;
    let input = match open_input(args, from_stdin, delimiter, records, &name) {
        Ok(input) => input,
        Err(status) => return status,
    };
    let (output, out_name) = match open_output(args, from_stdin) {
        Ok(output) => output,
        Err(status) => return status,
    };
    let read = Rc::new(Cell::new(0));
    let mut input = Counting {
        inner: input,
        count: Rc::clone(&read),
    };
    let mut out = Output::new(output);
    if args.follow {
        follow::stop_on_signals();
    }
    if records {
        let lines = Lines {
            name: &name,
            policy: args.policy,
            framing,
            bom,
            json: args.json,
            count_errors: args.summary,
            follow: args.follow,
        };
        let mut counts = Counts::default();
        let result = repair_lines::copy(&mut input, &mut out, &lines, &mut counts);
        if counts.too_long > NAMED_TOO_LONG {
            warn(format_args!(
                "{name}: {} lines over --max-line {} left out in all",
                counts.too_long,
                framing.max()
            ));
        }
        let (traffic, trouble) = ended(result, &name, &out_name, read.get(), &out);
        if args.summary {
            let policy = args.policy.name();
            if args.json {
                let _ = writeln!(
                    io::stderr(),
                    "{}",
                    report::lines_summary_json(&counts, policy, &traffic)
                );
            } else {
                let summary = report::lines_summary(&counts, policy, &traffic);
                warn(format_args!("{name}: {summary}"));
            }
        }
        trouble.unwrap_or(if counts.changed() { INVALID } else { VALID })
    } else {
        let mut replaced = 0;
        let result = replace_stream(&mut input, &mut out, &name, bom, args.follow, &mut replaced);
        let (traffic, trouble) = ended(result, &name, &out_name, read.get(), &out);
        if args.summary {
            let summary = report::stream_summary(replaced, &traffic);
            warn(format_args!("{name}: {summary}"));
        }
        trouble.unwrap_or(if replaced > 0 { INVALID } else { VALID })
    }
}

/// The input: standard input or a file, told to say when it is about to wait, or the
/// follower of a growing file.
fn open_input(
    args: &RepairArgs,
    from_stdin: bool,
    delimiter: u8,
    records: bool,
    name: &str,
) -> Result<Box<dyn Read>, u8> {
    if from_stdin {
        return Ok(Box::new(Waiting::new(io::stdin().lock())));
    }
    let path = args.input.as_ref().expect("a path");
    if args.follow {
        // On the whole stream, bytes are written as they come: no line is held.
        let partial = if records {
            args.partial_timeout.0
        } else {
            None
        };
        return match Follow::new(path, delimiter, partial) {
            Ok(follow) => {
                if follow.waits_for_file() {
                    warn(format_args!("{name}: does not exist yet: waiting for it"));
                }
                Ok(Box::new(follow))
            }
            Err(e) => Err(fail(name, "cannot open", &e)),
        };
    }
    match File::open(path) {
        Ok(file) => Ok(Box::new(Waiting::new(file))),
        Err(e) => Err(fail(name, "cannot open", &e)),
    }
}

/// The output and its name in messages: stdout, or the file of `--output`, refused (exit
/// status 2) when it is the input itself, which would be truncated before it is read.
fn open_output(args: &RepairArgs, from_stdin: bool) -> Result<(Box<dyn Write>, String), u8> {
    let Some(path) = &args.output else {
        return Ok((stdout(), "<stdout>".to_string()));
    };
    let name = path.display().to_string();
    let same = match &args.input {
        Some(input) if !from_stdin => same_file::is_same_file(input, path),
        _ => same_file::Handle::stdin()
            .and_then(|stdin| Ok(stdin == same_file::Handle::from_path(path)?)),
    };
    if same.unwrap_or(false) {
        warn(format_args!(
            "{name}: is the input; write the repaired text elsewhere"
        ));
        return Err(TROUBLE);
    }
    match File::create(path) {
        Ok(file) => Ok((Box::new(file), name)),
        Err(e) => Err(fail(&name, "cannot write", &e)),
    }
}

/// Standard output, written without the line buffering of `std::io::Stdout` (the
/// [`Output`] buffers, and counts only what the OS took).
fn stdout() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(File::from(fd));
        }
    }
    Box::new(io::stdout())
}

/// Says `vutf8: NAME: WHAT: E` on stderr; returns the exit status of an I/O failure.
fn fail(name: &str, what: &str, e: &io::Error) -> u8 {
    warn(format_args!("{name}: {what}: {e}"));
    TROUBLE
}

/// How a copy ended: what went through, and the exit status of a failure (none for a
/// closed output, which ends the copy quietly).
fn ended(
    result: Result<(), Failure>,
    name: &str,
    out_name: &str,
    read: u64,
    out: &Output,
) -> (Traffic, Option<u8>) {
    let mut traffic = Traffic {
        read,
        written: out.written(),
        closed: false,
    };
    let trouble = match result {
        Ok(()) => None,
        Err(Failure::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            traffic.closed = true;
            None
        }
        Err(Failure::Write(e)) => Some(fail(out_name, "cannot write", &e)),
        Err(Failure::Read(e)) => Some(fail(name, "cannot read", &e)),
    };
    (traffic, trouble)
}

/// The bytes read at a time on the whole stream.
const CHUNK: usize = 128 << 10;

/// `replace` on the whole stream: each read repaired by [`Repairer`] as soon as it is
/// decided, exactly as `String::from_utf8_lossy` would on the whole input (a sequence that
/// a read ends inside waits for the next). `replaced` counts the U+FFFD written so far. With
/// `follow`, each end of the input (a file replaced or truncated) decides what was held,
/// and the copy goes on until it is asked to stop.
fn replace_stream(
    input: &mut dyn Read,
    out: &mut Output,
    name: &str,
    bom: BomPolicy,
    follow: bool,
    replaced: &mut u64,
) -> Result<(), Failure> {
    let mut buf = vec![0u8; CHUNK];
    let mut repairer = Repairer::new();
    let mut done = 0;
    let mut text = String::new();
    let mut started = false;
    loop {
        let n = match input.read(&mut buf) {
            Ok(n) => n,
            Err(e) if is_wait(&e) => {
                out.flush()?;
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Read(e)),
        };
        text.clear();
        let end = n == 0;
        if end {
            done += std::mem::take(&mut repairer).finish(&mut text);
            *replaced = done;
        } else {
            repairer.push(&buf[..n], &mut text);
            *replaced = done + repairer.replacements();
        }
        let mut piece = text.as_str();
        if !started && !piece.is_empty() {
            started = true;
            // U+FEFF starts the text exactly when the input starts with the signature.
            if let Some(rest) = piece.strip_prefix('\u{FEFF}') {
                match bom {
                    BomPolicy::Strip => piece = rest,
                    BomPolicy::Report => signature_note(name),
                    BomPolicy::Accept => {}
                }
            }
        }
        out.write(piece.as_bytes())?;
        if end && (!follow || follow::stop_requested()) {
            return out.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters_as_characters_and_escapes() {
        for (arg, byte) in [
            (",", b','),
            ("\\0", 0),
            ("\\t", b'\t'),
            ("\\n", b'\n'),
            ("\\r", b'\r'),
            ("\\\\", b'\\'),
            ("\\x1e", 0x1E),
            ("\\x1E", 0x1E),
            ("\\x7f", 0x7F),
            ("\\", b'\\'),
        ] {
            assert_eq!(parse_delimiter(arg), Ok(byte), "{arg}");
        }
        for arg in ["é", "\\x80", "\\xff"] {
            let e = parse_delimiter(arg).unwrap_err();
            assert!(e.contains("is not ASCII"), "{arg}: {e}");
        }
        for arg in ["", "ab", "\\x1", "\\xZZ", "\\q", "\\x123"] {
            let e = parse_delimiter(arg).unwrap_err();
            assert!(e.contains("expected one ASCII character"), "{arg}: {e}");
        }
    }

    #[test]
    fn timeouts_with_and_without_units() {
        let t = |s| parse_timeout(s).map(|t| t.0);
        assert_eq!(t("1"), Ok(Some(Duration::from_secs(1))));
        assert_eq!(t("0.25"), Ok(Some(Duration::from_millis(250))));
        assert_eq!(t("500ms"), Ok(Some(Duration::from_millis(500))));
        assert_eq!(t("2s"), Ok(Some(Duration::from_secs(2))));
        assert_eq!(t("1m"), Ok(Some(Duration::from_secs(60))));
        assert_eq!(t("0"), Ok(Some(Duration::ZERO)));
        assert_eq!(t("never"), Ok(None));
        for bad in ["", "-1", "x", "1h", "NaN", "inf", "1e30"] {
            assert!(t(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_policy_has_its_help() {
        for &policy in Policy::ALL {
            assert!(!policy_help(policy).is_empty(), "{policy}");
        }
    }
}
