//! What `vutf8` writes for each finding: one line (or JSON object), or the name of the
//! invalid input ([`Format`], [`Reporter`]).
//!
//! A finding reads `PATH:LINE:COLUMN: byte OFFSET: REASON (bytes: C0 AF)`, with line and
//! column from 1 ([`crate::scan::position`]), the offset from 0, and the reason in words.
//! The totals at the end are in [`crate::report::summary`].

use std::fmt::Write as _;
use std::io::{self, Write};

use vutf8::{ErrorKind, Utf8Error};

use crate::report::color::{paint, Palette};
use crate::scan::findings::{Finding, Problem};

/// How findings are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `PATH:LINE:COLUMN: byte OFFSET: REASON (bytes: ..)`.
    Text,
    /// One JSON object per line.
    Json,
    /// The name of each invalid input, once (`-l`).
    Names,
    /// Nothing (`-q`).
    Quiet,
}

impl Format {
    /// Whether findings need a line and column.
    pub fn needs_position(self) -> bool {
        matches!(self, Format::Text | Format::Json)
    }
}

/// The reason for an error in words, without its position: "overlong encoding of U+002F",
/// "input ends inside a 3-byte sequence".
pub fn reason(error: &Utf8Error) -> String {
    let len = error.sequence_len();
    match (error.kind(), error.code_point()) {
        (ErrorKind::UnexpectedContinuation, _) => "unexpected continuation byte".into(),
        (ErrorKind::InvalidByte, _) => "byte that never appears in UTF-8".into(),
        (ErrorKind::Overlong, Some(cp)) => format!("overlong encoding of U+{cp:04X}"),
        (ErrorKind::Overlong, None) => format!("overlong {len}-byte encoding, cut short"),
        (ErrorKind::Surrogate, Some(cp)) => format!("surrogate U+{cp:04X}"),
        (ErrorKind::Surrogate, None) => "encoded surrogate, cut short".into(),
        (ErrorKind::TooLarge, Some(cp)) => format!("code point U+{cp:04X} above U+10FFFF"),
        (ErrorKind::TooLarge, None) => "code point above U+10FFFF, cut short".into(),
        (ErrorKind::TooShort, _) => {
            let got = error.error_len().unwrap_or(1);
            let s = if got == 1 { "" } else { "s" };
            format!("{len}-byte sequence cut short after {got} byte{s}")
        }
        (ErrorKind::Incomplete, _) => format!("input ends inside a {len}-byte sequence"),
        (kind, _) => kind.description().into(),
    }
}

/// A stable name for the kind of error, for JSON: `overlong`, `surrogate`, ...
pub fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedContinuation => "unexpected_continuation",
        ErrorKind::InvalidByte => "invalid_byte",
        ErrorKind::Overlong => "overlong",
        ErrorKind::Surrogate => "surrogate",
        ErrorKind::TooLarge => "too_large",
        ErrorKind::TooShort => "too_short",
        ErrorKind::Incomplete => "incomplete",
        _ => "other",
    }
}

/// Bytes as upper-case hex pairs separated by spaces: `C0 AF`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:02X}");
    }
    out
}

/// Writes findings in one [`Format`].
pub struct Reporter<W: Write> {
    out: W,
    format: Format,
    palette: Palette,
}

impl<W: Write> Reporter<W> {
    /// A reporter writing to `out`, in the colours of `palette` (JSON is never coloured).
    pub fn new(out: W, format: Format, palette: Palette) -> Self {
        Reporter {
            out,
            format,
            palette,
        }
    }

    /// Writes one finding in the input called `name`. With [`Format::Names`], the caller
    /// passes only the first finding of each input.
    pub fn finding(&mut self, name: &str, f: &Finding) -> io::Result<()> {
        let (kind, reason) = match &f.problem {
            Problem::Utf8(error) => (kind_name(error.kind()), reason(error)),
            Problem::Bom => ("bom", "UTF-8 signature (BOM) at the start".to_string()),
        };
        let p = &self.palette;
        match self.format {
            Format::Text => writeln!(
                self.out,
                "{}:{}: byte {}: {} (bytes: {})",
                paint(p.path, name),
                paint(p.position, format_args!("{}:{}", f.line, f.column)),
                f.offset,
                paint(p.bad, reason),
                paint(p.bytes, hex(f.bytes()))
            ),
            Format::Json => {
                let value = serde_json::json!({
                    "path": name,
                    "offset": f.offset,
                    "line": f.line,
                    "column": f.column,
                    "kind": kind,
                    "reason": reason,
                    "bytes": hex(f.bytes()),
                });
                serde_json::to_writer(&mut self.out, &value)?;
                self.out.write_all(b"\n")
            }
            Format::Names => writeln!(self.out, "{}", paint(p.path, name)),
            Format::Quiet => Ok(()),
        }
    }

    /// Flushes what was written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(bytes: &[u8]) -> Utf8Error {
        vutf8::from_utf8(bytes).unwrap_err()
    }

    #[test]
    fn reasons_in_words() {
        assert_eq!(reason(&err(b"\xC0\xAF")), "overlong encoding of U+002F");
        assert_eq!(reason(&err(b"\xE0\x80\xAF")), "overlong encoding of U+002F");
        assert_eq!(
            reason(&err(b"\xE0\x80")),
            "overlong 3-byte encoding, cut short"
        );
        assert_eq!(reason(&err(b"\xED\xA0\x80")), "surrogate U+D800");
        assert_eq!(reason(&err(b"\xED\xBF")), "encoded surrogate, cut short");
        assert_eq!(
            reason(&err(b"\xF4\x90\x80\x80")),
            "code point U+110000 above U+10FFFF"
        );
        assert_eq!(reason(&err(b"\x80")), "unexpected continuation byte");
        assert_eq!(reason(&err(b"\xFF")), "byte that never appears in UTF-8");
        assert_eq!(
            reason(&err(b"\xE2\x82a")),
            "3-byte sequence cut short after 2 bytes"
        );
        assert_eq!(
            reason(&err(b"\xC3a")),
            "2-byte sequence cut short after 1 byte"
        );
        assert_eq!(
            reason(&err(b"\xE2\x82")),
            "input ends inside a 3-byte sequence"
        );
    }

    #[test]
    fn hex_pairs() {
        assert_eq!(hex(b"\xC0\xAF"), "C0 AF");
        assert_eq!(hex(b""), "");
    }
}
