//! Test text for the scans and what is built on them (`crate::records`): pieces to draw
//! buffers from, and the pseudo-random sequence that draws them.

/// Pieces of text: the first [`VALID`] are valid UTF-8 (the delimiters `\n` and `\r\n`
/// among them), the others broken sequences, odd bytes and runs of delimiters. (Their
/// tests need `std`.)
#[cfg(feature = "std")]
pub(crate) const PIECES: [&[u8]; 18] = [
    b"ab",
    b"\n",
    b"\xC3\xA9",
    b"\xE2\x82\xAC",
    b"\xF0\x9F\x98\x80",
    b"\r\n",
    b"\xC3",
    b"\xE2\x82",
    b"\xF0\x9F",
    b"\x80",
    b"\xFF",
    b"\xED\xA0\x80",
    b"\xC0\xAF",
    b"\r",
    b"\0",
    b"\n\n",
    b"xyz\n",
    b"a long run of ASCII text between the damaged bytes, to make ASCII groups",
];

/// How many of [`PIECES`] come first and are valid.
#[cfg(feature = "std")]
pub(crate) const VALID: usize = 6;

/// The next number of a deterministic pseudo-random sequence (xorshift64) kept in `x`
/// (not zero).
pub(crate) fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}
