//! `vutf8 repair` by records: every policy but `replace` on the whole stream. The input is
//! cut into lines (`vutf8::records::Framing::lines`, or records at `--delimiter`), with
//! the `--max-line` cap, through `vutf8::records::RecordReader`, which checks each byte
//! once as it arrives; each invalid line is repaired, left out or refused by the policy
//! (`vutf8::records::Policy::append_text`, into one buffer kept for the whole copy). Each
//! line is written with the line end it had, or, with `--json`, as one JSON object
//! ([`crate::report::repair::Record`]). Memory: the cap plus one read, whatever the input.
//!
//! The first error of an invalid line is the check mode's: found with what ended the line
//! ([`crate::scan::findings::first_error`]), so that `caf\xE9\n` is "cut short after
//! 1 byte" in both, and written by the check mode's reporter for `strict`.
//!
//! A line longer than the cap is left out, as `tokio_util`'s `LinesCodec` does, and
//! counted as too long; the first [`NAMED_TOO_LONG`] are named on stderr, the rest are
//! summed up in one line at the end.
//!
//! The output is flushed whenever the input is about to wait
//! ([`crate::read::waiting::is_wait`]), so a pipeline gets each line as soon as it is
//! repaired. With `--follow`, the input never ends by itself: its ends (a file replaced
//! or truncated, a partial line timed out) end the open line, and the copy goes on until
//! it is asked to stop ([`crate::read::follow::stop_requested`]).

use std::io::{self, Read};

use vutf8::records::{Frame, Framing, Policy, StreamRecord};

use crate::commands::exit::warn;
use crate::read::follow::stop_requested;
use crate::read::waiting::is_wait;
use crate::report::color::Palette;
use crate::report::finding::{Format, Reporter};
use crate::report::repair::{base64, Counts, Outcome, Output, Record, RecordError};
use crate::scan::bom::BomPolicy;
use crate::scan::findings::{first_error, Failure, Finding};

/// How many lines over the cap are named on stderr, one line each; the others are only
/// counted, and summed up at the end (`--max-line 200` on a real log would otherwise
/// write thousands of lines of warnings).
pub const NAMED_TOO_LONG: u64 = 10;

/// How a copy by records goes.
pub struct Lines<'a> {
    /// The input's name in messages.
    pub name: &'a str,
    /// What becomes of an invalid line.
    pub policy: Policy,
    /// How the input is cut (delimiter, cap).
    pub framing: Framing,
    /// `--bom`: `strip` leaves a signature at the start out of the output.
    pub bom: BomPolicy,
    /// One JSON object per line.
    pub json: bool,
    /// Count the invalid lines by the kind of their first error (`--summary`).
    pub count_errors: bool,
    /// The input is followed (`--follow`): its ends do not end the copy.
    pub follow: bool,
}

/// Copies `input` to `out` by records, counting in `counts` (which hold what was done
/// when an error ends the copy early).
///
/// # Errors
/// [`Failure::Read`] or [`Failure::Write`], each with the OS's error.
pub fn copy(
    input: impl Read,
    out: &mut Output,
    lines: &Lines,
    counts: &mut Counts,
) -> Result<(), Failure> {
    let mut reader = lines.framing.reader(input);
    let mut text = String::new();
    loop {
        let frame = match reader.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) if lines.follow && !stop_requested() => continue,
            Ok(None) => break,
            // The input is about to wait: the lines so far go out first. A reader's error
            // leaves the reader of records as it was (no byte was read), so the next call
            // reads again; tests/repair.rs reads each line before the input sends the next.
            Err(e) if is_wait(&e) => {
                out.flush()?;
                continue;
            }
            Err(e) => return Err(Failure::Read(e)),
        };
        let record = match frame {
            Frame::Record(record) => record,
            Frame::TooLong {
                number,
                offset,
                len,
                head,
            } => {
                too_long(lines, out, counts, number, offset, len, head)?;
                continue;
            }
        };
        // A signature is one only at the very start of the input.
        let signature = record.offset() == 0 && vutf8::has_bom(record.bytes());
        if signature && lines.bom == BomPolicy::Report {
            signature_note(lines.name);
        }
        let strip = signature && lines.bom == BomPolicy::Strip;
        if one_line(lines, out, counts, &record, strip, &mut text)? == Outcome::Refused {
            break;
        }
    }
    out.flush()
}

/// Writes one line (or leaves it out); returns what became of it.
fn one_line(
    lines: &Lines,
    out: &mut Output,
    counts: &mut Counts,
    record: &StreamRecord,
    strip: bool,
    text: &mut String,
) -> Result<Outcome, Failure> {
    let original = record.bytes();
    let mut bytes = original;
    if strip {
        bytes = bytes.strip_prefix(&vutf8::UTF8_BOM[..]).unwrap_or(bytes);
    }
    text.clear();
    let outcome = if record.is_valid() {
        if !lines.json {
            // Copied as it is, no text made.
            counts.add(Outcome::Valid);
            out.write(bytes)?;
            return out.write(record.end()).map(|()| Outcome::Valid);
        }
        lines.policy.append_text(bytes, text);
        Outcome::Valid
    } else if lines.policy.append_text(bytes, text) {
        Outcome::Repaired
    } else if lines.policy == Policy::Strict {
        Outcome::Refused
    } else {
        Outcome::Dropped
    };
    counts.add(outcome);
    // The first error, where it is asked for: in JSON, in the counts by kind, in the report
    // of a refused line.
    let wanted = lines.json || lines.count_errors || outcome == Outcome::Refused;
    let error = if wanted && !record.is_valid() {
        first_error(original, record.end())
    } else {
        None
    };
    let finding = error.map(|(at, error)| {
        let mut finding = Finding::new(record.offset() + at as u64, error, &original[at..], None);
        if outcome == Outcome::Refused {
            finding.line = record.number();
            finding.column = column(&original[..at], record.offset() == 0);
        }
        counts.add_error(&finding);
        (at, finding)
    });
    let kept = matches!(outcome, Outcome::Valid | Outcome::Repaired);
    if lines.json {
        let (error, raw) = match &finding {
            Some((at, finding)) => (Some(RecordError::new(*at, finding)), Some(base64(original))),
            None => (None, None),
        };
        out.json(&Record {
            line: record.number(),
            offset: record.offset(),
            len: original.len() as u64,
            valid: Some(record.is_valid()),
            outcome,
            text: kept.then_some(text.as_str()),
            end: std::str::from_utf8(record.end()).ok(),
            error,
            raw_base64: raw,
            head_base64: None,
        })?;
    } else if kept {
        out.write(text.as_bytes())?;
        out.write(record.end())?;
    }
    if let (Outcome::Refused, Some((_, finding))) = (outcome, &finding) {
        // Reported as the check mode reports an error, on stderr (stdout is the text).
        out.flush()?;
        let mut reporter = Reporter::new(io::stderr().lock(), Format::Text, Palette::default());
        let _ = reporter.finding(lines.name, finding);
        let _ = reporter.flush();
    }
    Ok(outcome)
}

/// The column of an error after the valid bytes `before` on its line, from 1, counted as
/// the check mode counts it (characters; a signature at the start of the input is none).
fn column(before: &[u8], at_start: bool) -> u64 {
    let before = if at_start {
        vutf8::strip_bom(before)
    } else {
        before
    };
    std::str::from_utf8(before).map_or(0, vutf8::count_chars) as u64 + 1
}

/// A line over the cap: counted, named on stderr (the first [`NAMED_TOO_LONG`]), and with
/// `--json` written as what is known of it.
fn too_long(
    lines: &Lines,
    out: &mut Output,
    counts: &mut Counts,
    number: u64,
    offset: u64,
    len: u64,
    head: &[u8],
) -> Result<(), Failure> {
    counts.add(Outcome::TooLong);
    let max = lines.framing.max();
    if counts.too_long <= NAMED_TOO_LONG {
        let more = if counts.too_long == NAMED_TOO_LONG {
            " (further lines over the cap are only counted)"
        } else {
            ""
        };
        warn(format_args!(
            "{}:{number}: line of {len} bytes over --max-line {max}: left out{more}",
            lines.name
        ));
    }
    if lines.json {
        out.json(&Record {
            line: number,
            offset,
            len,
            valid: None,
            outcome: Outcome::TooLong,
            text: None,
            end: None,
            error: None,
            raw_base64: None,
            head_base64: Some(base64(head)),
        })?;
    }
    Ok(())
}

/// `--bom report`: the input starts with a signature, said on stderr (the output keeps it).
pub fn signature_note(name: &str) {
    warn(format_args!("{name}: starts with a UTF-8 signature (BOM)"));
}
