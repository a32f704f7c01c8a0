//! `vutf8 repair --policy escape|windows-1252|drop|strict`: the input line by line
//! (`vutf8::records::Framing::lines`, with the `--max-line` cap), each invalid line
//! repaired, left out or refused by the policy (`vutf8::records::Policy`), each line written
//! with the line end it had. Memory: the cap plus one read, whatever the input.
//!
//! A line longer than the cap is skipped, with a warning, as `tokio_util`'s `LinesCodec`
//! does, and counted as dropped. With `strict`, the first invalid line is reported as the
//! check mode reports an error (`FILE:LINE:COLUMN: byte OFFSET: REASON (bytes: ..)`, on
//! stderr: stdout is the text) and the copy stops there.
//!
//! Exit status: 0 if nothing changed, 1 if a line was repaired or dropped (or, with
//! `strict`, found invalid), 2 if the input could not be read or the output written.

use std::io::{self, Read, Write};

use vutf8::records::{Frame, Framing, Policy};

use crate::check::bom::BomPolicy;
use crate::check::findings::Finding;
use crate::report::color::Palette;
use crate::report::finding::{Format, Reporter};

/// What the copy did.
#[derive(Debug, Default)]
pub struct Counts {
    /// Lines read, skipped ones included.
    pub lines: u64,
    /// Lines the policy changed.
    pub repaired: u64,
    /// Lines left out: invalid ones with `drop`, and every line over the cap.
    pub dropped: u64,
    /// Bytes written.
    pub written: u64,
    /// With `strict`: an invalid line was found and the copy stopped.
    pub refused: bool,
}

/// Copies `input` to `output` line by line under `policy` (not `Replace`, which
/// `super::repair` does on the whole stream); `name` names the input in messages.
pub fn copy(
    input: impl Read,
    output: &mut impl Write,
    name: &str,
    policy: Policy,
    max_line: usize,
    bom: BomPolicy,
) -> io::Result<Counts> {
    let mut counts = Counts::default();
    let mut reader = Framing::lines().max_record(max_line).reader(input);
    let mut first = true;
    while let Some(frame) = reader.next_frame()? {
        counts.lines += 1;
        let record = match frame {
            Frame::Record(record) => record,
            Frame::TooLong { number, len, .. } => {
                counts.dropped += 1;
                let _ = writeln!(
                    io::stderr(),
                    "vutf8: {name}:{number}: line of {len} bytes over --max-line {max_line}: left out"
                );
                continue;
            }
        };
        let mut bytes = record.bytes();
        if std::mem::take(&mut first) && bom == BomPolicy::Strip {
            bytes = bytes.strip_prefix(&vutf8::UTF8_BOM[..]).unwrap_or(bytes);
        }
        let repaired;
        let text: &[u8] = if record.is_valid() {
            bytes
        } else if let Some(text) = policy.text(bytes) {
            counts.repaired += 1;
            repaired = text;
            repaired.as_bytes()
        } else if policy == Policy::Strict {
            counts.refused = true;
            report(name, record.number(), record.offset(), bytes)?;
            break;
        } else {
            counts.dropped += 1;
            continue;
        };
        let written = output
            .write_all(text)
            .and_then(|()| output.write_all(record.end()));
        match written {
            Ok(()) => counts.written += (text.len() + record.end().len()) as u64,
            // A closed output (`| head`): the copy ends, as the replace path's does.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(counts),
            Err(e) => return Err(e),
        }
    }
    match output.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(counts),
    }
}

/// Reports the first error of an invalid line, as the check mode does, on stderr.
fn report(name: &str, line: u64, offset: u64, bytes: &[u8]) -> io::Result<()> {
    let Err(error) = vutf8::from_utf8(bytes) else {
        return Ok(());
    };
    let at = error.valid_up_to();
    let mut finding = Finding::new(offset + at as u64, error, &bytes[at..], None);
    finding.line = line;
    // Columns count characters from 1; what is before the first error is valid.
    let before = std::str::from_utf8(&bytes[..at]).map_or(0, vutf8::count_chars);
    finding.column = before as u64 + 1;
    let mut reporter = Reporter::new(io::stderr().lock(), Format::Text, Palette::default());
    reporter.finding(name, &finding)?;
    reporter.flush()
}
