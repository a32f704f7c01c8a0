//! What `vutf8 repair` writes: the repaired text or one JSON object per record on the
//! output ([`Output`], which counts the bytes the OS took), the counters of a copy by
//! records ([`Counts`]), and the `--summary` of either kind of copy, in words or as one
//! JSON object.
//!
//! The copies themselves are in `commands/repair.rs` and `commands/repair_lines.rs`; the
//! reasons and kind names of errors are [`crate::report::finding`]'s, the same as the
//! check mode's.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use base64::Engine as _;
use serde::Serialize;

use crate::report::finding::{hex, kind_name, reason};
use crate::scan::findings::{Failure, Finding, Problem};

/// The output of `vutf8 repair`: buffered, with the bytes the OS took counted, so that a
/// summary never claims bytes that a closed pipe refused. Its errors are
/// [`Failure::Write`].
pub struct Output {
    inner: BufWriter<Counted>,
}

/// A writer that counts the bytes its inner writer took.
struct Counted {
    inner: Box<dyn Write>,
    count: u64,
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Output {
    /// The bytes kept before they are written (a write of more goes straight through).
    const BUFFER: usize = 64 << 10;

    /// Writes to `inner`.
    pub fn new(inner: Box<dyn Write>) -> Output {
        Output {
            inner: BufWriter::with_capacity(Self::BUFFER, Counted { inner, count: 0 }),
        }
    }

    /// Writes `bytes`.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.inner.write_all(bytes).map_err(Failure::Write)
    }

    /// Writes one JSON object and a line end.
    pub fn json(&mut self, value: &impl Serialize) -> Result<(), Failure> {
        serde_json::to_writer(&mut self.inner, value).map_err(|e| Failure::Write(e.into()))?;
        self.write(b"\n")
    }

    /// Hands everything written so far to the OS.
    pub fn flush(&mut self) -> Result<(), Failure> {
        self.inner.flush().map_err(Failure::Write)
    }

    /// The bytes the OS took so far.
    pub fn written(&self) -> u64 {
        self.inner.get_ref().count
    }
}

/// What happened to one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Valid UTF-8, copied as it was.
    Valid,
    /// Invalid, written as the policy's text.
    Repaired,
    /// Invalid, left out (`drop`).
    Dropped,
    /// Longer than `--max-line`, left out unread.
    TooLong,
    /// Invalid, refused (`strict`): the copy stopped there.
    Refused,
}

/// The counters of a copy by records: one per outcome, and the invalid records by the kind
/// of their first error.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Records read (the sum of the five outcomes).
    pub lines: u64,
    /// Records per outcome.
    pub valid: u64,
    /// See [`Outcome::Repaired`].
    pub repaired: u64,
    /// See [`Outcome::Dropped`].
    pub dropped: u64,
    /// See [`Outcome::TooLong`].
    pub too_long: u64,
    /// See [`Outcome::Refused`].
    pub refused: u64,
    /// The invalid records by the kind of their first error (`too_short`, ...).
    pub first_errors: BTreeMap<&'static str, u64>,
}

impl Counts {
    /// Counts one record.
    pub fn add(&mut self, outcome: Outcome) {
        self.lines += 1;
        *match outcome {
            Outcome::Valid => &mut self.valid,
            Outcome::Repaired => &mut self.repaired,
            Outcome::Dropped => &mut self.dropped,
            Outcome::TooLong => &mut self.too_long,
            Outcome::Refused => &mut self.refused,
        } += 1;
    }

    /// Counts the first error of an invalid record.
    pub fn add_error(&mut self, finding: &Finding) {
        *self.first_errors.entry(finding_kind(finding)).or_default() += 1;
    }

    /// Whether the output differs from the input (exit status 1).
    pub fn changed(&self) -> bool {
        self.lines > self.valid
    }
}

/// The kind name of a finding, as the check mode's JSON names it.
fn finding_kind(finding: &Finding) -> &'static str {
    match finding.problem {
        Problem::Utf8(error) => kind_name(error.kind()),
        Problem::Bom => "bom",
    }
}

/// One record as a JSON object (`--json`). Every object has `line`, `offset`, `len`,
/// `valid`, `outcome` and `text`; the others are there when known.
#[derive(Debug, Serialize)]
pub struct Record<'a> {
    /// The record's number, from 1.
    pub line: u64,
    /// Where its first byte is in the input.
    pub offset: u64,
    /// Its length in bytes, without its line end.
    pub len: u64,
    /// Whether it is valid UTF-8 (`null` for a record too long to be read).
    pub valid: Option<bool>,
    /// What happened to it.
    pub outcome: Outcome,
    /// Its text under the policy (`null` when it was left out or refused).
    pub text: Option<&'a str>,
    /// What ended it in the input (`"\n"`, `"\r\n"`, the delimiter, or `""` at the end);
    /// not there for a record too long to be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<&'a str>,
    /// For an invalid record, its first error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordError>,
    /// For an invalid record, its bytes as they were, in base64 (RFC 4648, with padding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_base64: Option<String>,
    /// For a record too long to be read, its first bytes (as many as the cap), in base64:
    /// for a dead-letter queue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_base64: Option<String>,
}

/// The first error of an invalid record, as the check mode reports it.
#[derive(Debug, Serialize)]
pub struct RecordError {
    /// Where it is, in bytes from the record's start.
    pub offset: u64,
    /// Its kind (`too_short`, `invalid_byte`, ...).
    pub kind: &'static str,
    /// The reason in words.
    pub reason: String,
    /// Its bytes, as upper-case hex pairs.
    pub bytes: String,
}

impl RecordError {
    /// The error of `finding`, `at` bytes into its record.
    pub fn new(at: usize, finding: &Finding) -> RecordError {
        RecordError {
            offset: at as u64,
            kind: finding_kind(finding),
            reason: match &finding.problem {
                Problem::Utf8(error) => reason(error),
                Problem::Bom => "UTF-8 signature (BOM) at the start".into(),
            },
            bytes: hex(finding.bytes()),
        }
    }
}

/// `bytes` in base64, for [`Record::raw_base64`].
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The end of a summary: the bytes read and written, and a closed output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Traffic {
    /// Bytes read from the input.
    pub read: u64,
    /// Bytes the OS took from us.
    pub written: u64,
    /// The output was closed before everything was written (a reader that went away).
    pub closed: bool,
}

impl Traffic {
    /// ", R bytes read, W bytes written" and what the closed output means.
    fn words(&self) -> String {
        let closed = if self.closed {
            " before the output was closed"
        } else {
            ""
        };
        format!(
            "{} bytes read, {} bytes written{closed}",
            self.read, self.written
        )
    }
}

/// The `--summary` line of a copy by records: "300 lines: 266 valid, 30 repaired,
/// 0 dropped, 4 too long, 0 refused (policy escape); first errors: 18 too_short,
/// 12 invalid_byte; 12345 bytes read, 12300 bytes written".
pub fn lines_summary(counts: &Counts, policy: &str, traffic: &Traffic) -> String {
    let mut kinds = String::new();
    for (kind, n) in &counts.first_errors {
        kinds.push_str(if kinds.is_empty() {
            "; first errors: "
        } else {
            ", "
        });
        kinds.push_str(&format!("{n} {kind}"));
    }
    format!(
        "{} lines: {} valid, {} repaired, {} dropped, {} too long, {} refused (policy {policy}){kinds}; {}",
        counts.lines,
        counts.valid,
        counts.repaired,
        counts.dropped,
        counts.too_long,
        counts.refused,
        traffic.words(),
    )
}

/// The summary of a copy by records as one JSON object (`--json --summary`).
pub fn lines_summary_json(counts: &Counts, policy: &str, traffic: &Traffic) -> String {
    serde_json::json!({
        "lines": counts.lines,
        "valid": counts.valid,
        "repaired": counts.repaired,
        "dropped": counts.dropped,
        "too_long": counts.too_long,
        "refused": counts.refused,
        "first_errors": counts.first_errors,
        "policy": policy,
        "bytes_read": traffic.read,
        "bytes_written": traffic.written,
        "output_closed": traffic.closed,
    })
    .to_string()
}

/// The `--summary` line of a copy of the whole stream (`replace` without records):
/// "6 bytes read (6 B), 11 bytes written, 3 replaced with U+FFFD".
pub fn stream_summary(replaced: u64, traffic: &Traffic) -> String {
    let closed = if traffic.closed {
        " before the output was closed"
    } else {
        ""
    };
    format!(
        "{} bytes read ({}), {} bytes written{closed}, {replaced} replaced with U+FFFD",
        traffic.read,
        crate::report::summary::human_bytes(traffic.read),
        traffic.written,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counters_and_the_summary() {
        let mut counts = Counts::default();
        for outcome in [
            Outcome::Valid,
            Outcome::Valid,
            Outcome::Repaired,
            Outcome::TooLong,
        ] {
            counts.add(outcome);
        }
        let e = vutf8::from_utf8(b"\xE9").unwrap_err();
        counts.add_error(&Finding::new(0, e, b"\xE9", None));
        assert!(counts.changed());
        let traffic = Traffic {
            read: 10,
            written: 8,
            closed: true,
        };
        assert_eq!(
            lines_summary(&counts, "escape", &traffic),
            "4 lines: 2 valid, 1 repaired, 0 dropped, 1 too long, 0 refused (policy escape); \
             first errors: 1 incomplete; 10 bytes read, 8 bytes written before the output was \
             closed"
        );
        let json: serde_json::Value =
            serde_json::from_str(&lines_summary_json(&counts, "escape", &traffic)).unwrap();
        assert_eq!(json["first_errors"]["incomplete"], 1);
        assert_eq!(json["output_closed"], true);
    }

    #[test]
    fn raw_bytes_in_base64() {
        assert_eq!(base64(b"caf\xE9"), "Y2Fm6Q==");
    }
}
