//! The UTF-8 grammar, written once: which bytes start a sequence, how long it is, what the
//! second byte may be, and where a character boundary is.
//!
//! RFC 3629 section 4 (Unicode Table 3-7, "Well-Formed UTF-8 Byte Sequences"):
//!
//! | code points         | 1st     | 2nd     | 3rd    | 4th    |
//! |---------------------|---------|---------|--------|--------|
//! | U+0000..U+007F      | 00..7F  |         |        |        |
//! | U+0080..U+07FF      | C2..DF  | 80..BF  |        |        |
//! | U+0800..U+0FFF      | E0      | A0..BF  | 80..BF |        |
//! | U+1000..U+CFFF      | E1..EC  | 80..BF  | 80..BF |        |
//! | U+D000..U+D7FF      | ED      | 80..9F  | 80..BF |        |
//! | U+E000..U+FFFF      | EE..EF  | 80..BF  | 80..BF |        |
//! | U+10000..U+3FFFF    | F0      | 90..BF  | 80..BF | 80..BF |
//! | U+40000..U+FFFFF    | F1..F3  | 80..BF  | 80..BF | 80..BF |
//! | U+100000..U+10FFFF  | F4      | 80..8F  | 80..BF | 80..BF |
//!
//! The first byte says how many bytes the sequence has ([`sequence_len`]) and which range
//! the *second* byte may take ([`second_byte_range`]); every later byte is a plain
//! continuation byte `80..BF` ([`is_continuation`]). The bytes `C0`, `C1` and `F5..FF`
//! never appear, and neither does a continuation byte where a character starts.
//!
//! Original UTF-8 ([`crate::legacy`], RFC 2279 / ISO 10646 Annex R) has the same shape with
//! a larger table: [`legacy_sequence_len`] and [`legacy_second_byte_range`].
//!
//! Separately from what is well-formed, a byte's leading one bits *announce* a length
//! ([`announced_len`]: `C0` announces 2 although it never starts a well-formed sequence);
//! that is what [`crate::Utf8Error::sequence_len`] reports.
//!
//! [`floor_boundary`] is the one rule for cutting bytes at a character boundary (used to
//! split work between threads and chunks).
//!
//! This module holds facts only and imports nothing. The decoder that reads bytes by these
//! tables (one generic function for strict and original UTF-8) is `crate::reference::decode`, private;
//! its public faces are [`crate::scalar`] and [`crate::legacy`].

/// Whether `byte` is a continuation byte, `80..=BF` (bit pattern `10xx_xxxx`): a byte that
/// never starts a character.
///
/// ```
/// use vutf8::grammar::is_continuation;
/// assert!(is_continuation(0x80) && is_continuation(0xBF));
/// assert!(!is_continuation(b'a') && !is_continuation(0xC3));
/// ```
#[inline]
pub const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The sequence length and the range of the second byte for each byte that starts a
/// well-formed strict sequence (Table 3-7); `None` for the others.
#[inline]
pub(crate) const fn strict_rule(lead: u8) -> Option<(usize, u8, u8)> {
    match lead {
        0x00..=0x7F => Some((1, 0, 0)),
        0xC2..=0xDF => Some((2, 0x80, 0xBF)),
        0xE0 => Some((3, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE..=0xEF => Some((3, 0x80, 0xBF)),
        0xED => Some((3, 0x80, 0x9F)),
        0xF0 => Some((4, 0x90, 0xBF)),
        0xF1..=0xF3 => Some((4, 0x80, 0xBF)),
        0xF4 => Some((4, 0x80, 0x8F)),
        _ => None,
    }
}

/// The same for original UTF-8 (Annex R, Table 1, without the surrogates `ED A0..BF`):
/// `F5..F7` start 4-byte sequences, `F8..FB` 5-byte ones, `FC`, `FD` 6-byte ones.
#[inline]
pub(crate) const fn legacy_rule(lead: u8) -> Option<(usize, u8, u8)> {
    match lead {
        0xF1..=0xF7 => Some((4, 0x80, 0xBF)),
        0xF8 => Some((5, 0x88, 0xBF)),
        0xF9..=0xFB => Some((5, 0x80, 0xBF)),
        0xFC => Some((6, 0x84, 0xBF)),
        0xFD => Some((6, 0x80, 0xBF)),
        0xFE | 0xFF => None,
        _ => strict_rule(lead),
    }
}

/// The number of bytes of the well-formed sequence that starts with `lead`: 1 for ASCII
/// (`00..7F`), 2 for `C2..DF`, 3 for `E0..EF`, 4 for `F0..F4`.
///
/// A byte that cannot start a well-formed sequence gives **1**: the continuation bytes
/// `80..BF` and the bytes that never appear in UTF-8, `C0`, `C1` and `F5..FF`. Such a byte
/// is an error on its own, and skipping it is the way forward. (For the length the bits of
/// such a byte announce, `C0` -> 2, `F5` -> 4, see [`announced_len`].)
///
/// ```
/// use vutf8::grammar::sequence_len;
/// assert_eq!(sequence_len(b'a'), 1);
/// assert_eq!(sequence_len(0xE2), 3); // '€' is E2 82 AC
/// assert_eq!(sequence_len(0xF4), 4);
/// assert_eq!(sequence_len(0x80), 1);
/// assert_eq!(sequence_len(0xC0), 1);
/// assert_eq!(sequence_len(0xF5), 1);
/// ```
#[inline]
pub const fn sequence_len(lead: u8) -> usize {
    len_of(strict_rule(lead))
}

/// The range (inclusive) the second byte of a sequence that starts with `lead` must fall
/// in, by Table 3-7: `A0..BF` after `E0`, `80..9F` after `ED`, `90..BF` after `F0`,
/// `80..8F` after `F4`, `80..BF` after the other lead bytes. `None` for ASCII bytes (no
/// second byte) and for bytes that cannot start a sequence.
///
/// ```
/// use vutf8::grammar::second_byte_range;
/// assert_eq!(second_byte_range(0xE0), Some((0xA0, 0xBF)));
/// assert_eq!(second_byte_range(0xC3), Some((0x80, 0xBF)));
/// assert_eq!(second_byte_range(b'a'), None);
/// assert_eq!(second_byte_range(0xC1), None);
/// ```
#[inline]
pub const fn second_byte_range(lead: u8) -> Option<(u8, u8)> {
    second_of(strict_rule(lead))
}

/// The sequence length of a rule of [`strict_rule`] or [`legacy_rule`]; 1 for none.
#[inline]
const fn len_of(rule: Option<(usize, u8, u8)>) -> usize {
    match rule {
        Some((len, _, _)) => len,
        None => 1,
    }
}

/// The second-byte range of a rule, if the sequence has a second byte.
#[inline]
const fn second_of(rule: Option<(usize, u8, u8)>) -> Option<(u8, u8)> {
    match rule {
        Some((len, lo, hi)) if len > 1 => Some((lo, hi)),
        _ => None,
    }
}

/// The length the leading one bits of `byte` announce, ignoring the RFC 3629 limits:
/// 2 for `C0..DF`, 3 for `E0..EF`, 4 for `F0..F7`; 1 for ASCII, continuation bytes and
/// `F8..FF`. This is [`crate::Utf8Error::sequence_len`] for strict UTF-8.
///
/// ```
/// use vutf8::grammar::announced_len;
/// assert_eq!(announced_len(0xC0), 2);
/// assert_eq!(announced_len(0xF7), 4);
/// assert_eq!(announced_len(0xF8), 1);
/// ```
#[inline]
pub const fn announced_len(byte: u8) -> usize {
    match byte {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// [`sequence_len`] for original UTF-8 ([`crate::legacy`]): as for strict UTF-8, plus 4
/// for `F5..F7`, 5 for `F8..FB` and 6 for `FC`, `FD`. Bytes that cannot start a sequence
/// (`80..BF`, `C0`, `C1`, `FE`, `FF`) give 1.
///
/// ```
/// use vutf8::grammar::legacy_sequence_len;
/// assert_eq!(legacy_sequence_len(0xF7), 4);
/// assert_eq!(legacy_sequence_len(0xFD), 6);
/// assert_eq!(legacy_sequence_len(0xFE), 1);
/// ```
#[inline]
pub const fn legacy_sequence_len(lead: u8) -> usize {
    len_of(legacy_rule(lead))
}

/// [`second_byte_range`] for original UTF-8: also `88..BF` after `F8`, `84..BF` after `FC`,
/// `80..BF` after `F4..F7`, `F9..FB` and `FD`.
#[inline]
pub const fn legacy_second_byte_range(lead: u8) -> Option<(u8, u8)> {
    second_of(legacy_rule(lead))
}

/// [`announced_len`] for original UTF-8: also 5 for `F8..FB` and 6 for `FC`, `FD`.
#[inline]
pub const fn legacy_announced_len(byte: u8) -> usize {
    match byte {
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => announced_len(byte),
    }
}

/// Where to cut `bytes` near `index` (clamped to `bytes.len()`): `index` moved back over
/// at most 3 continuation bytes to the lead byte of the character it falls inside. The
/// result is a position where decoding starts afresh, so cutting there neither splits a
/// character nor changes what the crate's decoders, which resume after each maximal
/// subpart ([`crate::errors()`]), find after the cut:
///
/// - on valid text it is the start of a character, so `bytes[..i]` and `bytes[i..]` are
///   both valid;
/// - on invalid text it is that too, unless 4 or more continuation bytes stand in a row
///   there (`F0 9F 98 80 80`): a character has at most 3, so stepping back 3 bytes would
///   still stop on a continuation byte, possibly inside a sequence; then the result is
///   `index` itself, which follows 3 continuation bytes and so is reached by no sequence.
///
/// Either way `bytes` is valid exactly when both halves are.
///
/// ```
/// use vutf8::grammar::floor_boundary;
/// let s = "a€b".as_bytes(); // 61 E2 82 AC 62
/// assert_eq!(floor_boundary(s, 0), 0);
/// assert_eq!(floor_boundary(s, 1), 1);
/// assert_eq!(floor_boundary(s, 2), 1);
/// assert_eq!(floor_boundary(s, 3), 1);
/// assert_eq!(floor_boundary(s, 4), 4);
/// assert_eq!(floor_boundary(s, 99), 5);
/// // 4 continuation bytes in a row: the cut stays where it was asked for.
/// let bad = b"ab\xF0\x9F\x98\x80\x80\x80cd";
/// assert_eq!(floor_boundary(bad, 5), 2); // inside the emoji: back to its lead
/// assert_eq!(floor_boundary(bad, 6), 6); // after it: a lone continuation byte
/// assert_eq!(floor_boundary(bad, 7), 7);
/// ```
#[inline]
pub fn floor_boundary(bytes: &[u8], index: usize) -> usize {
    let index = index.min(bytes.len());
    let mut i = index;
    for _ in 0..3 {
        match bytes.get(i) {
            Some(&b) if i > 0 && is_continuation(b) => i -= 1,
            _ => return i,
        }
    }
    // Three steps back and still on a continuation byte: `index` follows 3 of them.
    if bytes.get(i).is_some_and(|&b| is_continuation(b)) {
        index
    } else {
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_std() {
        // A lead byte starts a well-formed sequence of `sequence_len` bytes exactly when
        // std accepts some sequence of that length starting with it.
        for lead in 0..=255u8 {
            let n = sequence_len(lead);
            // Table 3-7's lead bytes, written out (a `sequence_len` of 1 everywhere would
            // pass the checks against std below: they only ask for consistency).
            let table = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 1,
            };
            assert_eq!(n, table, "sequence_len({lead:02X})");
            // A second byte's range exactly for the leads of longer sequences (ASCII has
            // none: its rule's length is 1).
            assert_eq!(second_byte_range(lead).is_some(), n > 1, "{lead:02X}");
            assert_eq!(
                legacy_second_byte_range(lead).is_some(),
                legacy_sequence_len(lead) > 1,
                "legacy {lead:02X}"
            );
            let mut accepted = false;
            for second in 0x80..=0xBFu8 {
                let mut s = [lead, second, 0x80, 0x80];
                if n == 1 {
                    s[1] = b'a';
                }
                let ok = core::str::from_utf8(&s[..n]).is_ok();
                accepted |= ok;
                if n > 1 {
                    let (lo, hi) = second_byte_range(lead).unwrap();
                    assert_eq!(ok, (lo..=hi).contains(&second), "{lead:02X} {second:02X}");
                }
            }
            assert_eq!(
                accepted,
                core::str::from_utf8(&[lead]).is_ok() || n > 1,
                "{lead:02X}"
            );
            assert!(announced_len(lead) >= n);
            assert!(legacy_sequence_len(lead) >= n);
        }
    }

    /// The lengths the leading one bits announce, written out for every byte (the
    /// decoder's error reports rest on them; cargo-mutants: a deleted arm of
    /// `legacy_announced_len` went unseen by the other tests).
    #[test]
    fn announced_lengths_of_every_byte() {
        for byte in 0..=255u8 {
            let (strict, legacy) = match byte {
                0xC0..=0xDF => (2, 2),
                0xE0..=0xEF => (3, 3),
                0xF0..=0xF7 => (4, 4),
                0xF8..=0xFB => (1, 5),
                0xFC..=0xFD => (1, 6),
                _ => (1, 1),
            };
            assert_eq!(announced_len(byte), strict, "announced_len({byte:02X})");
            assert_eq!(
                legacy_announced_len(byte),
                legacy,
                "legacy_announced_len({byte:02X})"
            );
        }
    }

    #[test]
    fn floor_boundary_steps_back_at_most_three() {
        let b = b"ab\x80\x80\x80\x80\x80cd";
        assert_eq!(floor_boundary(b, 0), 0);
        assert_eq!(floor_boundary(b, 1), 1);
        // Only in invalid text does the cut go back past a byte that no continuation byte
        // can follow: either way, the text is valid exactly when both halves are.
        assert_eq!(floor_boundary(b, 2), 1);
        assert_eq!(floor_boundary(b, 3), 1);
        assert_eq!(floor_boundary(b, 4), 1);
        // 5 and 6 follow 3 continuation bytes: no sequence reaches them, the cut stays
        // (stepping back 3 bytes would still stop on a continuation byte).
        assert_eq!(floor_boundary(b, 5), 5);
        assert_eq!(floor_boundary(b, 6), 6);
        assert_eq!(floor_boundary(b, 7), 7);
        assert_eq!(floor_boundary(b, 100), b.len());
        assert_eq!(floor_boundary(b"\x80\x80", 1), 0);
        assert_eq!(floor_boundary(b"", 5), 0);
        let s = "a€🌍".as_bytes();
        for i in 0..=s.len() {
            let cut = floor_boundary(s, i);
            assert!(cut <= i && i - cut <= 3);
            assert!(
                core::str::from_utf8(&s[..cut]).is_ok() && core::str::from_utf8(&s[cut..]).is_ok()
            );
            assert!((cut..=i)
                .skip(1)
                .all(|j| !"a€🌍".is_char_boundary(j) || j == cut));
        }
    }
}
