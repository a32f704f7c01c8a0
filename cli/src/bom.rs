//! A UTF-8 signature (`EF BB BF`, "BOM") at the start of an input, handled once for
//! slices and streams alike.
//!
//! With `--bom accept` or `strip` it is valid, but neither a character nor a column
//! (editors hide it): the scan simply starts after it. With `--bom report` it is also a
//! finding that makes the input invalid; without `--all` the scan ends there, like at any
//! first error. Only a complete signature at offset 0 counts.

use vutf8::UTF8_BOM;

use crate::args::Bom;
use crate::engine::Settings;
use crate::findings::{Emit, Failure, Finding};

/// What the start of an input means for its scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Bytes to skip before scanning: 3 after a signature, else 0.
    pub skip: usize,
    /// Whether a signature was reported as a finding (the input is invalid).
    pub reported: bool,
}

impl Signature {
    /// Whether the scan ends here (a reported signature is the first and only finding).
    pub fn ends_scan(&self, settings: &Settings) -> bool {
        self.reported && !settings.all
    }
}

/// Looks at the first bytes of an input (at least 3 of them unless the input is shorter)
/// and reports a signature if `--bom report` asks for it.
pub fn leading(start: &[u8], settings: &Settings, emit: Emit<'_>) -> Result<Signature, Failure> {
    if !vutf8::has_bom(start) {
        return Ok(Signature {
            skip: 0,
            reported: false,
        });
    }
    let reported = settings.bom == Bom::Report;
    if reported {
        emit(&Finding::bom(settings.track)).map_err(Failure::Write)?;
    }
    Ok(Signature {
        skip: UTF8_BOM.len(),
        reported,
    })
}
