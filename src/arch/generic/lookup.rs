//! The lookup algorithm (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction
//! Per Byte", 2021), written once for every [`Vector`] backend.
//!
//! # The idea
//!
//! Almost every UTF-8 error is visible in **two consecutive bytes**: the byte before (`prev1`)
//! and the current one (`cur`). Split each into nibbles and look up three 16-entry tables,
//! each giving an 8-bit set of "error classes that are still possible":
//!
//! ```text
//! special = BYTE_1_HIGH[prev1 >> 4] & BYTE_1_LOW[prev1 & 15] & BYTE_2_HIGH[cur >> 4]
//! ```
//!
//! A class survives the AND only if all three nibbles allow it. The classes:
//!
//! | bit | class      | pattern (prev1, cur)                         |
//! |-----|------------|----------------------------------------------|
//! | 0   | TOO_SHORT  | lead `11xxxxxx` followed by a non-continuation |
//! | 1   | TOO_LONG   | ASCII `0xxxxxxx` followed by a continuation  |
//! | 2   | OVERLONG_3 | `E0` then `80..9F`                           |
//! | 3   | TOO_LARGE  | `F4` then `90..BF`, or `F5..FF` then `90..BF` |
//! | 4   | SURROGATE  | `ED` then `A0..BF`                           |
//! | 5   | OVERLONG_2 | `C0`/`C1` then a continuation                |
//! | 6   | TOO_LARGE_1000 / OVERLONG_4 | `F5..FF` then `80..8F` / `F0` then `80..8F` |
//! | 7   | TWO_CONTS  | a continuation followed by a continuation    |
//!
//! Every class except TWO_CONTS is an error by itself. Two continuations in a row are
//! correct only as bytes 3 or 4 of a 3- or 4-byte sequence, which the pair cannot see, so we
//! look further back: `cur` *must* be such a continuation exactly when the byte two back
//! (`prev2`) is `>= E0` or the byte three back (`prev3`) is `>= F0`. A saturating subtraction
//! turns that into a high bit, and
//!
//! ```text
//! error = special ^ (must_be_2_3_continuation & 0x80)
//! ```
//!
//! is zero exactly when the bytes are valid: a required third/fourth byte cancels the
//! TWO_CONTS bit, and a required one that is missing (or a TWO_CONTS that is not required)
//! leaves a bit set.
//!
//! # End of input
//!
//! A sequence may still be open at the end of a register: the last byte `>= C0`, the
//! second-to-last `>= E0` or the third-to-last `>= F0`. One saturating subtraction against
//! `[FF, …, FF, EF, DF, BF]` finds that; it is an error only if the input ends there, or
//! if the next block is pure ASCII (which skips the tables), so it is computed only then,
//! from the last register checked.
//!
//! # Where it runs
//!
//! This file is the algorithm: the tables, [`Tables::classify`] and the end-of-input check.
//! When each register is checked (the block loop, ASCII skipping, short inputs, the tail and
//! the cold path that locates an error) is the *schedule*, in [`super::schedule`].

use crate::arch::generic::vector::Vector;
use crate::tiers::BLOCK;

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the previous byte.
const BYTE_1_HIGH: [u8; 16] = [
    // 0_______ ASCII: a continuation after it is too long.
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    // 10______ continuation.
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    // 1100____ two-byte lead.
    TOO_SHORT | OVERLONG_2,
    // 1101____ two-byte lead.
    TOO_SHORT,
    // 1110____ three-byte lead.
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    // 1111____ four-byte lead (or F5..FF).
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the previous byte.
const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, // ____0000
    CARRY | OVERLONG_2,                           // ____0001
    CARRY,                                        // ____001_
    CARRY,
    CARRY | TOO_LARGE,                              // ____0100
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____0101
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____011_
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____1___
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, // ____1101
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
];

/// Indexed by the high nibble of the current byte.
const BYTE_2_HIGH: [u8; 16] = [
    // 0_______ ASCII.
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    // 1000____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    // 1001____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    // 101_____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    // 11______ a lead byte.
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// The largest byte allowed in each of the last 3 positions of a register for no sequence
/// to be left open: `..., FF, EF, DF, BF`. Loaded from its last `BYTES` bytes.
static INCOMPLETE_MAX: [u8; BLOCK] = {
    let mut t = [0xFF; BLOCK];
    t[BLOCK - 3] = 0xF0 - 1;
    t[BLOCK - 2] = 0xE0 - 1;
    t[BLOCK - 1] = 0xC0 - 1;
    t
};

/// The constants of the algorithm, loaded into registers once per call.
#[derive(Clone, Copy)]
pub(crate) struct Tables<V> {
    byte_1_high: V,
    byte_1_low: V,
    byte_2_high: V,
    low_nibble: V,
    third_byte_min: V,
    fourth_byte_min: V,
    high_bit: V,
    incomplete_max: V,
}

impl<V: Vector> Tables<V> {
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: the caller guarantees the instruction set; INCOMPLETE_MAX has BLOCK >=
        // V::BYTES bytes, so reading its last V::BYTES bytes stays inside it.
        unsafe {
            Tables {
                byte_1_high: V::repeat16(BYTE_1_HIGH).pinned(),
                byte_1_low: V::repeat16(BYTE_1_LOW).pinned(),
                byte_2_high: V::repeat16(BYTE_2_HIGH).pinned(),
                low_nibble: V::splat(0x0F).pinned(),
                third_byte_min: V::splat(0xE0 - 0x80).pinned(),
                fourth_byte_min: V::splat(0xF0 - 0x80).pinned(),
                high_bit: V::splat(0x80).pinned(),
                incomplete_max: V::load_unaligned(INCOMPLETE_MAX.as_ptr().add(BLOCK - V::BYTES))
                    .pinned(),
            }
        }
    }

    /// The error bits for register `input`, whose predecessor in memory is `prev_input`.
    #[inline(always)]
    pub(crate) fn check(&self, input: V, prev_input: V) -> V {
        self.classify(
            input,
            input.prev1(prev_input),
            input.prev2(prev_input),
            input.prev3(prev_input),
        )
    }

    /// The error bits for the register at `ptr`, with the bytes 1, 2 and 3 before each of
    /// its bytes loaded straight from memory: three more loads instead of the byte shifts,
    /// which compete with the table lookups for the same execution ports (and on AVX2 need
    /// a lane permute first).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `V::BYTES + 3` bytes.
    #[inline(always)]
    pub(crate) unsafe fn check_at(&self, ptr: *const u8) -> V {
        // SAFETY: all four loads lie in the `V::BYTES + 3` bytes from `ptr - 3`.
        unsafe {
            self.classify(
                V::load_unaligned(ptr),
                V::load_unaligned(ptr.sub(1)),
                V::load_unaligned(ptr.sub(2)),
                V::load_unaligned(ptr.sub(3)),
            )
        }
    }

    /// The error classes of each pair (byte of `prev1`, byte of `input`) that the three
    /// tables leave: zero where the pair is valid as it is, or is two continuations
    /// (`TWO_CONTS`, which the bytes further back decide). After a lead byte, zero exactly
    /// where the second byte is one the lead allows (`crate::arch::generic::subparts`).
    #[inline(always)]
    pub(crate) fn pair(&self, prev1: V, input: V) -> V {
        V::lookup_high(self.byte_1_high, prev1)
            .and(V::lookup_low(self.byte_1_low, prev1, self.low_nibble))
            .and(V::lookup_high(self.byte_2_high, input))
    }

    /// The error bits of `input` given the bytes 1, 2 and 3 before each of its bytes.
    #[inline(always)]
    pub(crate) fn classify(&self, input: V, prev1: V, prev2: V, prev3: V) -> V {
        let special = self.pair(prev1, input);
        let is_third = prev2.saturating_sub(self.third_byte_min);
        let is_fourth = prev3.saturating_sub(self.fourth_byte_min);
        is_third.or(is_fourth).and(self.high_bit).xor(special)
    }

    /// Non-zero where a sequence is still open at the end of `input`.
    #[inline(always)]
    pub(crate) fn incomplete(&self, input: V) -> V {
        input.saturating_sub(self.incomplete_max)
    }
}
