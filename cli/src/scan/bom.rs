//! A UTF-8 signature (`EF BB BF`, "BOM") at the start of an input, handled once for
//! slices and streams alike.
//!
//! With `--bom accept` or `strip` it is valid, but neither a character nor a column
//! (editors hide it): the scan simply starts after it. With `--bom report` it is also a
//! finding that makes the input invalid; without `--all` the scan ends there, like at any
//! first error. Only a complete signature at offset 0 counts.
//!
//! The scanners of the read layer (`read/slicing.rs`, `read/streams.rs`) call [`leading`]
//! before anything else; the policy is `--bom`'s value ([`BomPolicy`]).

use clap::ValueEnum;
use vutf8::UTF8_BOM;

use crate::scan::findings::{Emit, Failure, Finding};

/// What to do with a leading UTF-8 signature `EF BB BF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BomPolicy {
    /// Valid; not a character, not a column.
    Accept,
    /// Like accept when checking; removed from `repair`'s output.
    Strip,
    /// A finding: the input counts as invalid.
    Report,
}

/// What the start of an input means for its scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Bytes to skip before scanning: 3 after a signature, else 0.
    pub skip: usize,
    /// Whether a signature was reported as a finding (the input is invalid).
    pub reported: bool,
}

impl Signature {
    /// Whether the scan ends here (a reported signature is the first and only finding,
    /// unless `all` errors are asked for).
    pub fn ends_scan(&self, all: bool) -> bool {
        self.reported && !all
    }
}

/// Looks at the first bytes of an input (at least 3 of them unless the input is shorter)
/// and reports a signature if `policy` is [`BomPolicy::Report`] (with a position when
/// positions are `track`ed).
pub fn leading(
    start: &[u8],
    policy: BomPolicy,
    track: bool,
    emit: Emit<'_>,
) -> Result<Signature, Failure> {
    if !vutf8::has_bom(start) {
        return Ok(Signature {
            skip: 0,
            reported: false,
        });
    }
    let reported = policy == BomPolicy::Report;
    if reported {
        emit(&Finding::bom(track)).map_err(Failure::Write)?;
    }
    Ok(Signature {
        skip: UTF8_BOM.len(),
        reported,
    })
}
