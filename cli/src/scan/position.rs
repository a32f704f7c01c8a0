//! Line and column of an error, counted only as far as needed.
//!
//! A position is `LINE:COLUMN`, both 1-based. Lines end at `\n` (so a CRLF file has the same
//! line numbers as an LF one, and its `\r` is the last character of the line). The column
//! counts *what a reader sees* since the last `\n`: one for each valid character (whatever
//! its length in bytes), and one for each ill-formed part, a *maximal subpart* in Unicode's
//! terms, which is exactly what a lossy viewer shows as one U+FFFD. So in `a\xE2\x82b` the
//! `b` is in column 3, and with `--all` the errors of one line get increasing columns.
//!
//! [`Position`] is fed the input in order, as valid stretches ([`Position::advance_valid`])
//! and error parts ([`Position::advance_error`]). For a valid stretch it only needs two
//! counts: how many `\n` it holds, and how many characters follow the last one. Both are
//! plain byte counts (a character is a byte that is not a continuation byte `10xxxxxx`; an
//! error part never holds a `\n`, since `\n` ends any sequence), so they run at memory
//! speed, and on large stretches on all cores. Nothing is counted for a file that turns out
//! valid, except on a stream, where the bytes are gone once checked.
//!
//! A position travels in a [`crate::scan::findings::Finding`]; the scanners of the read
//! layer (`read/`) feed it.

use rayon::prelude::*;

/// Stretches at least this long are counted on all cores.
const PARALLEL_COUNT: usize = 8 << 20;

/// Where the next byte fed to a [`Position`] lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    line: u64,
    /// Columns (characters and error parts) already on the current line.
    before: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position { line: 1, before: 0 }
    }
}

impl Position {
    /// The 1-based line number.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The 1-based column.
    pub fn column(&self) -> u64 {
        self.before + 1
    }

    /// Moves past `bytes`, which must hold no ill-formed part (every byte that is not a
    /// continuation byte starts one character).
    pub fn advance_valid(&mut self, bytes: &[u8]) {
        let newlines = count_newlines(bytes);
        if newlines == 0 {
            self.before += count_chars(bytes);
        } else {
            self.line += newlines;
            let last = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
            self.before = count_chars(&bytes[last..]);
        }
    }

    /// Moves past one ill-formed part (a maximal subpart, or the incomplete end of the
    /// input): one column.
    pub fn advance_error(&mut self) {
        self.before += 1;
    }
}

/// The number of `\n` bytes in `bytes`.
pub fn count_newlines(bytes: &[u8]) -> u64 {
    count_parallel(bytes, |b| b == b'\n')
}

/// The number of bytes that are not UTF-8 continuation bytes: the number of characters,
/// if `bytes` is valid UTF-8.
pub fn count_chars(bytes: &[u8]) -> u64 {
    count_parallel(bytes, |b| (b as i8) >= -0x40)
}

fn count_parallel(bytes: &[u8], pred: fn(u8) -> bool) -> u64 {
    if bytes.len() < PARALLEL_COUNT {
        count_matching(bytes, pred)
    } else {
        bytes
            .par_chunks(PARALLEL_COUNT / 4)
            .map(|part| count_matching(part, pred))
            .sum()
    }
}

/// Counts the bytes for which `pred` holds, 32 at a time in byte-wide counters that the
/// compiler turns into vector compares and adds (flushed before they can overflow).
#[inline(always)]
fn count_matching(bytes: &[u8], pred: fn(u8) -> bool) -> u64 {
    const LANES: usize = 32;
    let mut total = 0u64;
    let mut blocks = bytes.chunks_exact(LANES);
    let mut lanes = [0u8; LANES];
    let mut rounds = 0u32;
    for block in &mut blocks {
        for (lane, &byte) in lanes.iter_mut().zip(block) {
            *lane += u8::from(pred(byte));
        }
        rounds += 1;
        if rounds == 255 {
            total += lanes.iter().map(|&n| u64::from(n)).sum::<u64>();
            lanes = [0; LANES];
            rounds = 0;
        }
    }
    total += lanes.iter().map(|&n| u64::from(n)).sum::<u64>();
    total + blocks.remainder().iter().filter(|&&b| pred(b)).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(bytes: &[u8], pred: fn(u8) -> bool) -> u64 {
        bytes.iter().filter(|&&b| pred(b)).count() as u64
    }

    #[test]
    fn counts_match_a_naive_count() {
        // Long enough for the counter flush (255 rounds of 32) and the parallel path.
        let text: Vec<u8> = "ligne\r\nstraße 世界 🌍\n\n"
            .bytes()
            .cycle()
            .take(PARALLEL_COUNT + 12_345)
            .collect();
        for len in [0, 1, 31, 32, 33, 8160, 8161, 100_000, text.len()] {
            let part = &text[..len];
            assert_eq!(count_newlines(part), naive(part, |b| b == b'\n'), "{len}");
            assert_eq!(
                count_chars(part),
                naive(part, |b| b & 0xC0 != 0x80),
                "{len}"
            );
        }
        let all_newlines = vec![b'\n'; 300 * 32 + 5];
        assert_eq!(count_newlines(&all_newlines), all_newlines.len() as u64);
    }

    #[test]
    fn lines_and_columns() {
        let mut p = Position::default();
        assert_eq!((p.line(), p.column()), (1, 1));
        p.advance_valid("größe".as_bytes());
        assert_eq!((p.line(), p.column()), (1, 6));
        p.advance_error();
        assert_eq!((p.line(), p.column()), (1, 7));
        p.advance_valid(b"x\r\nab\r");
        assert_eq!((p.line(), p.column()), (2, 4));
        p.advance_valid(b"\n");
        assert_eq!((p.line(), p.column()), (3, 1));
        p.advance_valid("🌍".as_bytes());
        assert_eq!((p.line(), p.column()), (3, 2));
    }
}
