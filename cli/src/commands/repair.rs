//! `vutf8 repair [IN] [-o OUT]`: copies an input, replacing each ill-formed part with one
//! U+FFFD, exactly as `String::from_utf8_lossy` would on the whole input, in constant
//! memory.
//!
//! The input is read through the same stream scanner as `vutf8 -`
//! ([`crate::read::streams`]), with
//! a reader in between that hands every chunk read to [`vutf8::Repairer`] as well and
//! writes what it returns. The scanner, told to find every error, counts the replacements
//! (one per maximal subpart, and one for an unfinished sequence at the end: the same rule
//! as the repairer's) and sees a leading signature for `--bom report`; the repairer makes
//! the text. Memory: one read buffer and the text made from it.
//!
//! Exit status: 0 if nothing needed replacing (the output equals the input, but for a
//! stripped signature), 1 if something was replaced, 2 if the input could not be read or
//! the output written, or if OUT is IN (which would destroy the input before it is read).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args;
use vutf8::records::{Policy, DEFAULT_MAX_RECORD};
use vutf8::Repairer;

use crate::check::bom::BomPolicy;
use crate::check::engine::{Engine, Settings};
use crate::check::findings::{Failure, Finding, Problem};
use crate::commands::repair_lines;
use crate::read::streams;
use crate::report::progress::Progress;
use crate::report::summary;

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
    /// replacements (with a policy other than replace: of lines read, repaired and dropped).
    #[arg(short, long)]
    pub summary: bool,

    /// What to do with invalid text: replace each ill-formed part with U+FFFD (on the whole
    /// input, the default), escape its bytes as \xNN, decode the line as windows-1252,
    /// drop the line, or stop at the first invalid line and report it (strict). All but
    /// replace work line by line (docs/RECORDS.md says which to pick).
    #[arg(long, value_name = "POLICY", default_value = "replace", value_parser = parse_policy)]
    pub policy: Policy,

    /// With a policy other than replace: the longest line kept, in bytes (its line end not
    /// counted); a longer line is left out with a warning, so memory stays bounded.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_RECORD)]
    pub max_line: usize,
}

/// The value of `--policy`.
fn parse_policy(name: &str) -> Result<Policy, String> {
    Policy::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
        format!("expected one of: {}", names.join(", "))
    })
}

/// Reads from `inner`, and writes the repaired text of what was read to `out`.
struct Tee<R, W> {
    inner: R,
    out: W,
    repairer: Repairer,
    text: String,
    /// Remove a U+FEFF at the very start of the output (`--bom strip`).
    strip: bool,
    started: bool,
    written: u64,
    /// A failed write, which `read` can only pass on as an error of its own.
    write_error: Option<io::Error>,
}

impl<R: Read, W: Write> Tee<R, W> {
    /// Writes the text made so far.
    fn emit(&mut self) -> io::Result<()> {
        let mut text = &self.text[..];
        if !self.started && !text.is_empty() {
            self.started = true;
            // U+FEFF starts the output exactly when the input starts with EF BB BF.
            if self.strip {
                text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
            }
        }
        self.out.write_all(text.as_bytes())?;
        self.written += text.len() as u64;
        self.text.clear();
        Ok(())
    }

    /// Ends the text: an unfinished sequence becomes one U+FFFD.
    fn finish(&mut self) -> io::Result<()> {
        std::mem::take(&mut self.repairer).finish(&mut self.text);
        self.emit()?;
        self.out.flush()
    }
}

impl<R: Read, W: Write> Read for Tee<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.repairer.push(&buf[..n], &mut self.text);
        if let Err(e) = self.emit() {
            self.write_error = Some(e);
            return Err(io::Error::other("the output could not be written"));
        }
        Ok(n)
    }
}

/// Prints `vutf8: WHAT: E` on stderr; returns the exit status of an I/O failure (2).
fn fail(what: &dyn std::fmt::Display, e: &io::Error) -> u8 {
    let _ = writeln!(io::stderr(), "vutf8: {what}: {e}");
    2
}

/// Runs `vutf8 repair`; returns the exit status.
pub fn run(args: &RepairArgs, engine: Engine, bom: BomPolicy) -> u8 {
    let from_stdin = args.input.as_ref().is_none_or(|p| p.as_os_str() == "-");
    let name = match &args.input {
        Some(path) if !from_stdin => path.display().to_string(),
        _ => "<stdin>".to_string(),
    };
    let input: Box<dyn Read> = if from_stdin {
        Box::new(io::stdin().lock())
    } else {
        match File::open(args.input.as_ref().expect("a path")) {
            Ok(file) => Box::new(file),
            Err(e) => return fail(&name, &e),
        }
    };
    let output = match open_output(args, from_stdin) {
        Ok(output) => output,
        Err(status) => return status,
    };
    if args.policy == Policy::Replace {
        replace(args, input, output, &name, engine, bom)
    } else {
        by_lines(args, input, output, &name, bom)
    }
}

/// The output: stdout, or the file of `--output`, refused (exit status 2) when it is the
/// input itself, which would be truncated before it is read.
fn open_output(args: &RepairArgs, from_stdin: bool) -> Result<Box<dyn Write>, u8> {
    let Some(path) = &args.output else {
        return Ok(Box::new(io::stdout().lock()));
    };
    let same = match &args.input {
        Some(input) if !from_stdin => same_file::is_same_file(input, path),
        _ => same_file::Handle::stdin()
            .and_then(|stdin| Ok(stdin == same_file::Handle::from_path(path)?)),
    };
    if same.unwrap_or(false) {
        let _ = writeln!(
            io::stderr(),
            "vutf8: {}: is the input; write the repaired text elsewhere",
            path.display()
        );
        return Err(2);
    }
    match File::create(path) {
        Ok(file) => Ok(Box::new(file)),
        Err(e) => Err(fail(&path.display(), &e)),
    }
}

/// `vutf8 repair` with the replace policy: the stream scanned in chunks while the repaired
/// text is written ([`Tee`]).
fn replace(
    args: &RepairArgs,
    input: Box<dyn Read>,
    output: Box<dyn Write>,
    name: &str,
    engine: Engine,
    bom: BomPolicy,
) -> u8 {
    let mut tee = Tee {
        inner: input,
        out: BufWriter::with_capacity(1 << 16, output),
        repairer: Repairer::new(),
        text: String::new(),
        strip: bom == BomPolicy::Strip,
        started: false,
        written: 0,
        write_error: None,
    };
    let settings = Settings {
        engine,
        all: true,
        track: false,
        chunk: 1 << 20,
        count: false,
        bom,
    };
    let mut replaced = 0u64;
    let mut signature = false;
    let result = streams::scan_stream(
        &mut tee,
        None,
        &settings,
        &Progress::none(),
        &mut |f: &Finding| {
            match f.problem {
                Problem::Utf8(_) => replaced += 1,
                Problem::Bom => signature = true,
            }
            Ok(())
        },
    );
    let result = match result {
        Ok(scanned) => tee.finish().map(|()| scanned.bytes),
        Err(Failure::Read(e)) => match tee.write_error.take() {
            Some(write_error) => Err(write_error),
            None => return fail(&name, &e),
        },
        Err(Failure::Write(e)) => Err(e), // not reached: the closure never fails
    };
    let status = u8::from(replaced > 0);
    let read = match result {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
        Err(e) => return fail(&"cannot write the output", &e),
    };
    if signature {
        let _ = writeln!(
            io::stderr(),
            "vutf8: {name}: starts with a UTF-8 signature (BOM)"
        );
    }
    if args.summary {
        let _ = writeln!(
            io::stderr(),
            "vutf8: {name}: {read} bytes read ({}), {} bytes written, {replaced} replaced with U+FFFD",
            summary::human_bytes(read),
            tee.written,
        );
    }
    status
}

/// `vutf8 repair` with a policy other than replace: line by line ([`repair_lines`]).
fn by_lines(
    args: &RepairArgs,
    input: Box<dyn Read>,
    output: Box<dyn Write>,
    name: &str,
    bom: BomPolicy,
) -> u8 {
    let mut out = BufWriter::with_capacity(1 << 16, output);
    match repair_lines::copy(input, &mut out, name, args.policy, args.max_line, bom) {
        Ok(counts) => {
            if args.summary {
                let _ = writeln!(
                    io::stderr(),
                    "vutf8: {name}: {} lines, {} repaired ({}), {} dropped, {} bytes written",
                    counts.lines,
                    counts.repaired,
                    args.policy,
                    counts.dropped,
                    counts.written,
                );
            }
            u8::from(counts.repaired > 0 || counts.dropped > 0 || counts.refused)
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 1,
        Err(e) => {
            let _ = writeln!(io::stderr(), "vutf8: {name}: {e}");
            2
        }
    }
}
