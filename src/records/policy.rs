//! What to do with a record that is not valid UTF-8: the repair policies ([`Policy`]) and
//! [`repair`], which applies one to every record of an iterator, counting what it changed.
//! Feature `alloc`; `windows-1252` for `Policy::Windows1252` (the `encoding_rs` crate) and
//! `Policy::Utf8OrWindows1252`.
//!
//! Which policy a log pipeline should pick: `docs/RECORDS.md`.

use super::counts::Counts;
use super::delimited::Records;
use super::record::Record;
use crate::damaged::lossy::{repair_parts, ByteText, Replacement};
use crate::reference::error::Utf8Error;
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
    /// The valid UTF-8 of a record is kept, and each maximal subpart of an ill-formed
    /// sequence is decoded as windows-1252 (the WHATWG table, as [`Policy::Windows1252`]):
    /// for a source that mixes UTF-8 with a legacy charset, where most damaged records are
    /// UTF-8 with one bad part (`caf\xE9 ✓` becomes `café ✓`, where `Windows1252` makes
    /// `cafÃ© âœ“` of the UTF-8). Exactly Python's `bytes.decode('utf-8', errors=h)` with
    /// a handler `h` that decodes each failing part as windows-1252. Feature
    /// `windows-1252`.
    #[cfg(feature = "windows-1252")]
    Utf8OrWindows1252,
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
        #[cfg(feature = "windows-1252")]
        Policy::Utf8OrWindows1252,
        Policy::Drop,
        Policy::Strict,
    ];

    /// The policy's name, as the CLI spells it: `replace`, `escape`, `windows-1252`,
    /// `utf8-or-windows-1252`, `drop`, `strict`.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Replace => "replace",
            Policy::Escape => "escape",
            #[cfg(feature = "windows-1252")]
            Policy::Windows1252 => "windows-1252",
            #[cfg(feature = "windows-1252")]
            Policy::Utf8OrWindows1252 => "utf8-or-windows-1252",
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
        match crate::engine::validate(bytes) {
            // SAFETY: the bytes are valid UTF-8.
            Ok(()) => Some(Cow::Borrowed(unsafe {
                core::str::from_utf8_unchecked(bytes)
            })),
            Err(first) => self.repaired(bytes, first),
        }
    }

    /// Appends the text of `bytes` under this policy to `out`, and returns whether it did:
    /// `false` when the policy leaves the bytes out or refuses them (`Drop`, `Strict`)
    /// because they are invalid. [`Policy::text`] without a `String` of its own for each
    /// record: a writer of many records keeps one buffer.
    ///
    /// ```
    /// use vutf8::records::Policy;
    /// let mut out = String::from("> ");
    /// assert!(Policy::Escape.append_text(b"caf\xE9", &mut out));
    /// assert!(!Policy::Drop.append_text(b"\xFF", &mut out));
    /// assert_eq!(out, "> caf\\xe9");
    /// ```
    pub fn append_text(self, bytes: &[u8], out: &mut String) -> bool {
        match self {
            // The valid runs and the repairs in one pass.
            Policy::Replace => repair_parts::<Replacement>(bytes, None, out),
            Policy::Escape => repair_parts::<Escaped>(bytes, None, out),
            #[cfg(feature = "windows-1252")]
            Policy::Utf8OrWindows1252 => repair_parts::<Windows1252Parts>(bytes, None, out),
            // Those that treat an invalid record as a whole.
            _ => match crate::engine::validate(bytes) {
                Ok(()) => {
                    // SAFETY: the bytes are valid UTF-8.
                    out.push_str(unsafe { core::str::from_utf8_unchecked(bytes) });
                }
                Err(first) => return self.append_repaired(bytes, first, out),
            },
        }
        true
    }

    /// Appends the text of each of `records` under this policy to `out`, each followed by
    /// the delimiter the records were cut at (`\n` for [`super::lines`], whose records leave
    /// out the `\r` of a `\r\n`): what a loop of [`Policy::append_text`] over the records
    /// writes, with the delimiter after each text, in one call. Returns how many records
    /// were written: every one but those the policy leaves out (`Drop`). For `Strict`, the
    /// first invalid record is an error ([`InvalidRecord`], numbered from the first of
    /// `records`), after the text of the records before it.
    ///
    /// The policies that write each ill-formed part on its own (`Replace`, `Escape`,
    /// `Utf8OrWindows1252`) repair all the records' bytes in one pass: a part never holds
    /// a delimiter (an ASCII byte ends every sequence), so the records' texts joined by
    /// their delimiter are the text of the bytes they were cut from, without the `\r` of
    /// each `\r\n` for `lines`. On text in another encoding, where every line is damaged,
    /// that is much faster than a call per record (docs/PERFORMANCE.md,
    /// `#damaged-by-lines`).
    ///
    /// ```
    /// use vutf8::records::{lines, Policy};
    /// let mut out = String::new();
    /// let written = Policy::Escape.append_records(lines(b"ok\r\ncaf\xE9\nlast"), &mut out);
    /// assert_eq!((written, out.as_str()), (Ok(3), "ok\ncaf\\xe9\nlast\n"));
    /// ```
    ///
    /// # Errors
    /// For `Strict`, the first record that is not valid UTF-8.
    pub fn append_records(
        self,
        records: Records<'_>,
        out: &mut String,
    ) -> Result<usize, InvalidRecord> {
        let delimiter = records.delimiter();
        if self.repairs_each_part() {
            let bytes = records.remaining();
            let from = out.len();
            self.append_text(bytes, out);
            let (mut written, crs) = count_bytes(bytes, delimiter, b'\r');
            if records.crlf() && crs > 0 {
                drop_cr_before_lf(out, from);
            }
            if bytes.last().is_some_and(|&b| b != delimiter) {
                out.push(char::from(delimiter));
                written += 1;
            }
            return Ok(written);
        }
        let mut written = 0;
        for (k, record) in records.enumerate() {
            let kept = match record.to_str() {
                Ok(text) => {
                    out.push_str(text);
                    true
                }
                Err(error) => {
                    if self == Policy::Strict {
                        return Err(InvalidRecord {
                            number: k + 1,
                            offset: record.offset().saturating_add(error.valid_up_to()),
                            error,
                        });
                    }
                    self.append_repaired(record.bytes(), error, out)
                }
            };
            if kept {
                out.push(char::from(delimiter));
                written += 1;
            }
        }
        Ok(written)
    }

    /// Whether the policy writes each ill-formed part on its own, the valid text around it
    /// kept (`Replace`, `Escape`, `Utf8OrWindows1252`): then the texts of the records cut
    /// from a buffer at an ASCII delimiter, joined by their delimiters, are the text of the
    /// whole buffer under the policy, which can be repaired in one pass
    /// ([`Policy::append_records`]).
    ///
    /// ```
    /// use vutf8::records::Policy;
    /// assert!(Policy::Escape.repairs_each_part());
    /// assert!(!Policy::Drop.repairs_each_part());
    /// ```
    pub fn repairs_each_part(self) -> bool {
        match self {
            Policy::Replace | Policy::Escape => true,
            #[cfg(feature = "windows-1252")]
            Policy::Utf8OrWindows1252 => true,
            _ => false,
        }
    }

    /// Appends the text of `bytes`, whose first error is `first`, under this policy to
    /// `out`; `false` when the policy gives no text for them.
    fn append_repaired(self, bytes: &[u8], first: Utf8Error, out: &mut String) -> bool {
        let first = Some(first);
        match self {
            Policy::Replace => repair_parts::<Replacement>(bytes, first, out),
            Policy::Escape => repair_parts::<Escaped>(bytes, first, out),
            #[cfg(feature = "windows-1252")]
            Policy::Windows1252 => {
                let mut decoder = encoding_rs::WINDOWS_1252.new_decoder_without_bom_handling();
                let most = decoder
                    .max_utf8_buffer_length_without_replacement(bytes.len())
                    .unwrap_or(bytes.len().saturating_mul(3));
                out.reserve(most);
                // Every byte has a character in windows-1252 (WHATWG): nothing is replaced,
                // and the room reserved holds it all.
                let _ = decoder.decode_to_string_without_replacement(bytes, out, true);
            }
            #[cfg(feature = "windows-1252")]
            Policy::Utf8OrWindows1252 => repair_parts::<Windows1252Parts>(bytes, first, out),
            Policy::Drop | Policy::Strict => return false,
        }
        true
    }

    /// The text of `bytes`, whose first error is `first`, under this policy.
    fn repaired(self, bytes: &[u8], first: Utf8Error) -> Option<Cow<'_, str>> {
        let mut out = String::with_capacity(bytes.len() + bytes.len() / 2 + 64);
        self.append_repaired(bytes, first, &mut out)
            .then_some(Cow::Owned(out))
    }
}

/// How many of `bytes` are `a`, and how many `b`: one pass, in byte-wide counters of 32
/// lanes, which the compiler makes vector compares and subtractions.
fn count_bytes(bytes: &[u8], a: u8, b: u8) -> (usize, usize) {
    const LANES: usize = 32;
    // A lane's counter takes at most 255 before it is added up.
    const ROUNDS: usize = 255;
    let (mut na, mut nb) = (0, 0);
    let mut chunks = bytes.chunks_exact(LANES * ROUNDS);
    for chunk in chunks.by_ref() {
        let (mut ca, mut cb) = ([0u8; LANES], [0u8; LANES]);
        for lanes in chunk.chunks_exact(LANES) {
            for i in 0..LANES {
                ca[i] += u8::from(lanes[i] == a);
                cb[i] += u8::from(lanes[i] == b);
            }
        }
        na += ca.iter().map(|&c| usize::from(c)).sum::<usize>();
        nb += cb.iter().map(|&c| usize::from(c)).sum::<usize>();
    }
    for &x in chunks.remainder() {
        na += usize::from(x == a);
        nb += usize::from(x == b);
    }
    (na, nb)
}

/// Removes from `text[from..]` each `\r` that a `\n` follows.
fn drop_cr_before_lf(text: &mut String, from: usize) {
    let Some(first) = find_crlf(text.as_bytes(), from) else {
        return;
    };
    // SAFETY: only `\r` bytes (ASCII, a character each) are removed: the text stays UTF-8.
    let v = unsafe { text.as_mut_vec() };
    let mut write = first;
    let mut read = first + 1;
    // Each stretch from after a `\r` removed to the next `\r\n` (or the end) moves back.
    loop {
        let next = find_crlf(v, read).unwrap_or(v.len());
        v.copy_within(read..next, write);
        write += next - read;
        if next == v.len() {
            break;
        }
        read = next + 1;
    }
    v.truncate(write);
}

/// Where the first `\r\n` of `bytes[from..]` is: 32 bytes at a time (a test for a `\r`
/// among them that the compiler makes vector compares), then byte by byte in the 32 that
/// have one.
fn find_crlf(bytes: &[u8], from: usize) -> Option<usize> {
    const AT_ONCE: usize = 32;
    let is_crlf = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n');
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + AT_ONCE) {
        if chunk.iter().fold(false, |any, &b| any | (b == b'\r')) {
            if let Some(j) = (i..i + AT_ONCE).find(|&j| is_crlf(j)) {
                return Some(j);
            }
        }
        i += AT_ONCE;
    }
    (i..bytes.len()).find(|&j| is_crlf(j))
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// [`Policy::Escape`]'s text of an ill-formed part: each byte as `\xNN`, lowercase.
struct Escaped;

impl ByteText for Escaped {
    const LEN: Option<usize> = Some(4);

    #[inline(always)]
    fn text(b: u8) -> ([u8; 4], usize) {
        (escape(b), 4)
    }
}

/// `\xNN` of `b`, lowercase ([`ESCAPES`]).
#[inline(always)]
fn escape(b: u8) -> [u8; 4] {
    ESCAPES[usize::from(b)]
}

/// `\xNN` of every byte: one load where the digits would take two and a shuffle.
static ESCAPES: [[u8; 4]; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0u8; 4]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [b'\\', b'x', HEX[b >> 4], HEX[b & 15]];
        b += 1;
    }
    t
};

/// [`Policy::Utf8OrWindows1252`]'s text of an ill-formed part: each byte decoded as
/// windows-1252 ([`WINDOWS_1252_HIGH`]).
#[cfg(feature = "windows-1252")]
struct Windows1252Parts;

#[cfg(feature = "windows-1252")]
impl ByteText for Windows1252Parts {
    #[inline(always)]
    fn text(b: u8) -> ([u8; 4], usize) {
        // The bytes of an ill-formed part are never ASCII.
        let (utf8, n) = WINDOWS_1252_UTF8[usize::from(b & 0x7F)];
        (utf8, usize::from(n))
    }
}

/// [`WINDOWS_1252_HIGH`] in UTF-8: the bytes (then zeros) and how many. Every one of these
/// characters is U+0080 or above (2 or 3 bytes).
#[cfg(feature = "windows-1252")]
static WINDOWS_1252_UTF8: [([u8; 4], u8); 128] = {
    let mut t = [([0u8; 4], 0u8); 128];
    let mut i = 0;
    while i < 128 {
        let c = WINDOWS_1252_HIGH[i] as u32;
        t[i] = if c < 0x800 {
            ([0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8, 0, 0], 2)
        } else {
            (
                [
                    0xE0 | (c >> 12) as u8,
                    0x80 | ((c >> 6) & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                    0,
                ],
                3,
            )
        };
        i += 1;
    }
    t
};

/// The characters of the bytes `80..FF` in windows-1252, as the WHATWG Encoding Standard
/// defines it (the five bytes it leaves undefined, `81`, `8D`, `8F`, `90`, `9D`, map to the
/// C1 controls of the same value), which `encoding_rs` implements: the tests compare every
/// byte with it.
#[cfg(feature = "windows-1252")]
const WINDOWS_1252_HIGH: [char; 128] = {
    const C1: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    let mut t = ['\0'; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = if i < 32 {
            C1[i]
        } else {
            // A0..FF: Latin-1, the code point of the same value.
            match char::from_u32(0x80 + i as u32) {
                Some(c) => c,
                None => '\0',
            }
        };
        i += 1;
    }
    t
};

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
/// on). [`Repair::counts`] counts the records by outcome and by kind of error.
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
        counts: Counts::new(),
    }
}

/// The iterator of [`repair`].
#[derive(Clone, Debug)]
pub struct Repair<I> {
    records: I,
    policy: Policy,
    number: usize,
    counts: Counts,
}

impl<I> Repair<I> {
    /// How many records so far the policy changed (`Replace`, `Escape`, `Windows1252`,
    /// `Utf8OrWindows1252`).
    pub fn repaired(&self) -> usize {
        usize::try_from(self.counts.repaired()).unwrap_or(usize::MAX)
    }

    /// How many records so far the policy left out (`Drop`) or refused (`Strict`).
    pub fn dropped(&self) -> usize {
        let n = self.counts.dropped().saturating_add(self.counts.refused());
        usize::try_from(n).unwrap_or(usize::MAX)
    }

    /// The records so far: valid, invalid by the kind of their first error, and what the
    /// policy did with the invalid ones (repaired, dropped or refused).
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

impl<'a, I: Iterator<Item = Record<'a>>> Iterator for Repair<I> {
    type Item = Result<Repaired<'a>, InvalidRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let record = self.records.next()?;
            self.number += 1;
            let number = self.number;
            // The record's first error (`Record::to_str`: free for a valid record), found
            // once for the count by kind, the repair and the refusal.
            let error = match record.to_str() {
                Ok(text) => {
                    self.counts.add_valid();
                    let text = Cow::Borrowed(text);
                    return Some(Ok(Repaired {
                        record,
                        number,
                        text,
                    }));
                }
                Err(error) => error,
            };
            self.counts.add_invalid(error.kind());
            match self.policy.repaired(record.bytes(), error) {
                Some(text) => {
                    self.counts.add_repaired();
                    return Some(Ok(Repaired {
                        record,
                        number,
                        text,
                    }));
                }
                None if self.policy == Policy::Strict => {
                    self.counts.add_refused();
                    return Some(Err(InvalidRecord {
                        number,
                        offset: record.offset().saturating_add(error.valid_up_to()),
                        error,
                    }));
                }
                None => self.counts.add_dropped(),
            }
        }
    }
}
