//! The `--summary` line at the end of a run ([`summary`], or [`summary_json`] with
//! `--json`), from the [`Totals`] a command counts, and sizes in words ([`human_bytes`]).
//!
//! The lines per finding are in [`crate::report::finding`].

use std::time::Duration;

use crate::report::color::{paint, Palette};

/// Totals for `--summary`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Inputs checked (read to the end, or to their first error).
    pub files: u64,
    /// Bytes checked.
    pub bytes: u64,
    /// Characters in the valid inputs.
    pub chars: u64,
    /// Inputs with at least one error.
    pub invalid: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
    /// Files found in directories and skipped as binary.
    pub binary: u64,
}

/// The `--summary` line: "3 files, 1234567 bytes (1.2 MB), 1000000 characters in valid
/// files, 1 invalid, 0 unreadable, 2 binary files skipped, in 0.012 s (0.10 GB/s)".
pub fn summary(totals: &Totals, elapsed: Duration, palette: &Palette) -> String {
    let secs = elapsed.as_secs_f64();
    let files = if totals.files == 1 { "file" } else { "files" };
    let count = |n: u64| {
        let style = if n > 0 {
            palette.bad
        } else {
            anstyle::Style::new()
        };
        paint(style, n).to_string()
    };
    let binary = if totals.binary == 1 { "file" } else { "files" };
    format!(
        "{} {files}, {} bytes ({}), {} characters in valid files, {} invalid, {} unreadable, \
         {} binary {binary} skipped, in {secs:.3} s ({:.2} GB/s)",
        totals.files,
        totals.bytes,
        human_bytes(totals.bytes),
        totals.chars,
        count(totals.invalid),
        count(totals.unreadable),
        totals.binary,
        rate(totals.bytes, secs),
    )
}

/// The summary as one JSON object, for `--json --summary`.
pub fn summary_json(totals: &Totals, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    serde_json::json!({
        "files": totals.files,
        "bytes": totals.bytes,
        "characters": totals.chars,
        "invalid": totals.invalid,
        "unreadable": totals.unreadable,
        "binary_skipped": totals.binary,
        "seconds": secs,
        "gb_per_s": rate(totals.bytes, secs),
    })
    .to_string()
}

/// Throughput in GB/s (0 when no time passed).
fn rate(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 / secs / 1e9
    } else {
        0.0
    }
}

/// `1234567` -> `"1.2 MB"` (decimal units, like GB/s).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["kB", "MB", "GB", "TB", "PB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64;
    let mut unit = "B";
    for u in UNITS {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = u;
    }
    format!("{value:.1} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(1_234_567), "1.2 MB");
        assert_eq!(human_bytes(269_000_000), "269.0 MB");
    }
}
