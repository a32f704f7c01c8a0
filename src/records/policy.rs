//! What to do with a record that is not valid UTF-8: the repair policies ([`Policy`]) and
//! [`repair`], which applies one to every record of an iterator, counting what it changed.
//! Feature `alloc`; `windows-1252` for `Policy::Windows1252` (the `encoding_rs` crate).
//!
//! Which policy a log pipeline should pick: `docs/RECORDS.md`.

use super::record::Record;
use crate::error::Utf8Error;
use crate::errors::errors;
use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

/// What to do with a record that is not valid UTF-8. Valid records are never changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// Each maximal subpart of an ill-formed sequence becomes U+FFFD: exactly
    /// `String::from_utf8_lossy` on the record.
    Replace,
    /// Each byte of each ill-formed part becomes `\xNN` (two lowercase hex digits): exactly
    /// Python's `bytes.decode('utf-8', 'backslashreplace')` on the record. The original
    /// bytes can be read back from the text, unless the text itself has a `\x` (as in
    /// Python).
    Escape,
    /// An invalid record is decoded whole as windows-1252, the table of the WHATWG Encoding
    /// Standard that `encoding_rs` implements (what browsers call ISO-8859-1 and Latin-1
    /// too): for logs written by Windows tools. Feature `windows-1252`.
    #[cfg(feature = "windows-1252")]
    Windows1252,
    /// An invalid record is left out.
    Drop,
    /// An invalid record is an error ([`InvalidRecord`]: its number, the byte offset of its
    /// first error in the buffer, and why).
    Strict,
}

impl Policy {
    /// Every policy this build has.
    pub const ALL: &'static [Policy] = &[
        Policy::Replace,
        Policy::Escape,
        #[cfg(feature = "windows-1252")]
        Policy::Windows1252,
        Policy::Drop,
        Policy::Strict,
    ];

    /// The policy's name, as the CLI spells it: `replace`, `escape`, `windows-1252`,
    /// `drop`, `strict`.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Replace => "replace",
            Policy::Escape => "escape",
            #[cfg(feature = "windows-1252")]
            Policy::Windows1252 => "windows-1252",
            Policy::Drop => "drop",
            Policy::Strict => "strict",
        }
    }

    /// The policy named `name` ([`Policy::name`]), if this build has it.
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.iter().copied().find(|p| p.name() == name)
    }

    /// The text of `bytes` under this policy: `Some` text (borrowed when the bytes are
    /// valid UTF-8), or `None` when the policy leaves the bytes out or refuses them (`Drop`,
    /// `Strict`) because they are invalid.
    pub fn text(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        match crate::engine::from_utf8(bytes) {
            Ok(text) => Some(Cow::Borrowed(text)),
            Err(_) => self.repair(bytes),
        }
    }

    /// The text of `bytes`, which are known not to be valid UTF-8, under this policy.
    fn repair(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        match self {
            Policy::Replace => Some(crate::lossy::from_utf8_lossy(bytes)),
            Policy::Escape => Some(Cow::Owned(escape(bytes))),
            #[cfg(feature = "windows-1252")]
            Policy::Windows1252 => Some(Cow::Owned(
                encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(bytes)
                    .0
                    .into_owned(),
            )),
            Policy::Drop | Policy::Strict => None,
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `bytes` (not valid UTF-8) with each byte of each ill-formed part written as `\xNN`.
fn escape(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut valid_from = 0;
    let mut found = errors(bytes);
    while let Some((bad, len)) = found.next_span() {
        let end = len.map_or(bytes.len(), |n| bad + n);
        // The bytes between two errors are valid UTF-8: `errors` yields every error.
        out.push_str(core::str::from_utf8(&bytes[valid_from..bad]).unwrap_or_default());
        for &b in &bytes[bad..end] {
            out.push_str("\\x");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        valid_from = end;
    }
    out.push_str(core::str::from_utf8(&bytes[valid_from..]).unwrap_or_default());
    out
}

/// A record after a policy: its text, borrowed when the record was valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired<'a> {
    record: Record<'a>,
    number: usize,
    text: Cow<'a, str>,
}

impl<'a> Repaired<'a> {
    /// The record as it was (its original bytes, its offset and verdict): for a dead-letter
    /// queue when [`changed`](Repaired::changed).
    pub fn record(&self) -> Record<'a> {
        self.record
    }

    /// The record's number, from 1 (dropped and refused records count).
    pub fn number(&self) -> usize {
        self.number
    }

    /// The text: the record itself when it was valid, else the policy's repair.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, owned or borrowed from the buffer.
    pub fn into_text(self) -> Cow<'a, str> {
        self.text
    }

    /// Whether the policy changed the record (it was not valid UTF-8).
    pub fn changed(&self) -> bool {
        !self.record.is_valid()
    }
}

/// A record that [`Policy::Strict`] refused: its number (from 1), where its first error is
/// in the buffer, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidRecord {
    number: usize,
    offset: usize,
    error: Utf8Error,
}

impl InvalidRecord {
    /// The record's number, from 1.
    pub fn number(&self) -> usize {
        self.number
    }

    /// The byte offset of the record's first error in the buffer (the record's offset plus
    /// the error's `valid_up_to`).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The record's first error, positions from the record's start.
    pub fn error(&self) -> Utf8Error {
        self.error
    }
}

impl fmt::Display for InvalidRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "record {}: byte {}: {}",
            self.number,
            self.offset,
            self.error.kind()
        )
    }
}

impl core::error::Error for InvalidRecord {}

/// Applies `policy` to every record of `records` ([`super::lines`], [`super::split`],
/// [`super::offsets`]): yields each record's text, leaves out the records the policy
/// drops, and for [`Policy::Strict`] yields an error for each invalid record (and goes
/// on). [`Repair::repaired`] and [`Repair::dropped`] count what it changed.
///
/// ```
/// use vutf8::records::{lines, repair, Policy};
/// let log = b"ok\ncaf\xE9\nna\xC3\xAFve\n";
/// let texts: Vec<String> = repair(lines(log), Policy::Escape)
///     .map(|r| r.unwrap().text().to_owned())
///     .collect();
/// assert_eq!(texts, ["ok", "caf\\xe9", "naïve"]);
///
/// let mut kept = repair(lines(log), Policy::Drop);
/// assert_eq!(kept.by_ref().count(), 2);
/// assert_eq!((kept.repaired(), kept.dropped()), (0, 1));
///
/// let err = repair(lines(log), Policy::Strict).find_map(Result::err).unwrap();
/// assert_eq!(err.to_string(), "record 2: byte 6: input ends inside a sequence");
/// ```
pub fn repair<'a, I: Iterator<Item = Record<'a>>>(records: I, policy: Policy) -> Repair<I> {
    Repair {
        records,
        policy,
        number: 0,
        repaired: 0,
        dropped: 0,
    }
}

/// The iterator of [`repair`].
#[derive(Clone, Debug)]
pub struct Repair<I> {
    records: I,
    policy: Policy,
    number: usize,
    repaired: usize,
    dropped: usize,
}

impl<I> Repair<I> {
    /// How many records so far the policy changed (`Replace`, `Escape`, `Windows1252`).
    pub fn repaired(&self) -> usize {
        self.repaired
    }

    /// How many records so far the policy left out (`Drop`) or refused (`Strict`).
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

impl<'a, I: Iterator<Item = Record<'a>>> Iterator for Repair<I> {
    type Item = Result<Repaired<'a>, InvalidRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let record = self.records.next()?;
            self.number += 1;
            let number = self.number;
            let error = match record.to_str() {
                Ok(text) => {
                    let text = Cow::Borrowed(text);
                    return Some(Ok(Repaired {
                        record,
                        number,
                        text,
                    }));
                }
                Err(error) => error,
            };
            match self.policy.repair(record.bytes()) {
                Some(text) => {
                    self.repaired += 1;
                    return Some(Ok(Repaired {
                        record,
                        number,
                        text,
                    }));
                }
                None => {
                    self.dropped += 1;
                    if self.policy == Policy::Strict {
                        return Some(Err(InvalidRecord {
                            number,
                            offset: record.offset() + error.valid_up_to(),
                            error,
                        }));
                    }
                }
            }
        }
    }
}
