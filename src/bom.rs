//! The UTF-8 signature `EF BB BF` (ISO/IEC 10646-1 Annex F as amended by Amendment 2;
//! RFC 3629 section 6): U+FEFF ZERO WIDTH NO-BREAK SPACE encoded at the very start of a
//! text, to say "this is UTF-8". It is not part of the text, so readers strip it.
//!
//! Only a complete signature at offset 0 counts: `EF BB` alone is left in place (it is an
//! incomplete sequence that validation reports), and `EF BB BF` later in the text is an
//! ordinary U+FEFF.

/// The UTF-8 signature: U+FEFF encoded in UTF-8.
pub const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Whether `input` starts with the UTF-8 signature `EF BB BF`.
#[inline]
pub fn has_bom(input: &[u8]) -> bool {
    input.starts_with(&UTF8_BOM)
}

/// `input` without a leading UTF-8 signature `EF BB BF` (only one is removed).
///
/// ```
/// assert_eq!(vutf8::strip_bom(b"\xEF\xBB\xBFhi"), b"hi");
/// assert_eq!(vutf8::strip_bom(b"hi"), b"hi");
/// ```
#[inline]
pub fn strip_bom(input: &[u8]) -> &[u8] {
    input.strip_prefix(&UTF8_BOM[..]).unwrap_or(input)
}

/// `text` without a leading U+FEFF (the signature, once the bytes are a `str`).
#[inline]
pub fn strip_bom_str(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_leading_signature_is_stripped() {
        let cases: [(&[u8], &[u8]); 7] = [
            (b"", b""),
            (b"\xEF\xBB\xBF", b""),
            (b"\xEF\xBB\xBFa\xEF\xBB\xBF", b"a\xEF\xBB\xBF"),
            (b"\xEF\xBB\xBF\xEF\xBB\xBF", b"\xEF\xBB\xBF"),
            (b"\xEF\xBB", b"\xEF\xBB"),
            (b"\xEF\xBB\xBE", b"\xEF\xBB\xBE"),
            (b" \xEF\xBB\xBF", b" \xEF\xBB\xBF"),
        ];
        for (input, want) in cases {
            assert_eq!(strip_bom(input), want, "{input:02X?}");
            assert_eq!(has_bom(input), input.len() != want.len());
            if let Ok(text) = core::str::from_utf8(input) {
                assert_eq!(strip_bom_str(text).as_bytes(), want);
            }
        }
        assert_eq!(UTF8_BOM, *"\u{FEFF}".as_bytes());
    }
}
